"""The public state an event log rebuilds (issue #26): every counted field of the table, of each seat and of the
enabled modules, as one flat dict of JSON-ready values (ints, strings, booleans and lists of them; content as ids).

The fields are grouped by owner: ``table`` (the board), each seat (``"0"``...) and what a module adds (its own owner
like ``widow``, or fields of a seat like ``1.form``); flat, a key is ``<owner>.<field>`` (``flat``). ``Game.emit``
compares the fields with the ones of the previous event (owner by owner, then field by field where an owner changed)
and puts the differences in the event's ``changes`` (``{key: [before, after]}``), so ``septima_sim.events.fold``
rebuilds the flat dict from the events alone. Computed only while an event sink listens:
never in the turn loop of a game without one. Goals, deck and bag orders and the Widow's face-down markers are not
public and not here (a pile's size is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

Fields = dict[str, object]
Owners = dict[str, Fields]


def public_fields(g: Game) -> Owners:
    """The public state of `g` now, by owner (see the module docstring)."""
    s, c = g.s, g.content
    witch, spell = g.tables.witch_ids, g.tables.spell_ids
    acts = g.action_ids
    table: Fields = {
        "start_player": s.start_player,
        "chamber1": witch[s.chamber1] if s.chamber1 >= 0 else "",
        "chamber2": [witch[w] for w in s.chamber2],
        "seated1": list(s.seated[1]),
        "seated2": list(s.seated[2]),
        "crowd_neutral": s.crowd_neutral,
        "crowd_angry": s.crowd_angry,
        "hunters": [[space, active] for space, active in zip(s.hunter_space, s.hunter_active, strict=True)],
        "patients": [
            [sp, c.diseases[pt.disease].id, pt.angry, pt.healed_by, [c.potions[r].id for r in pt.remedies]]
            for sp, pt in sorted(s.patients.items())
        ],
        "septima": [acts[i] if i >= 0 else "" for i in (s.septima_left, s.septima_right)],  # right: this turn
        "market": [
            [
                spell[row.scoring[-1]] if row.scoring else "",
                spell[row.middle] if row.middle >= 0 else "",
                spell[row.bottom] if row.bottom >= 0 else "",
            ]
            for row in s.market
        ],
        "crystal_supply": s.crystal_supply,
        "potion_supply": list(s.potion_supply),
        "witch_deck": len(s.witch_deck),
        "patient_stack": len(s.patient_stack),
        "buildings": {c.areas[a].id: c.buildings[b].id for a, b in sorted(s.buildings.items())},
    }
    out: Owners = {"table": table}
    for p in s.players:
        out[str(p.seat)] = _seat(g, p, witch, spell)
    for module_fields in g.hooks.public_fields:
        module_fields(g, out)
    return out


def _seat(g: Game, p: Player, witch: tuple[str, ...], spell: tuple[str, ...]) -> Fields:
    """One seat's fields."""
    acts = g.action_ids
    played = g.s.played[p.seat]
    out: Fields = {}
    out["wisdom"] = p.wisdom
    out["suspicion"] = p.suspicion
    out["vertex"] = p.vertex
    out["res"] = list(p.res)
    out["potions"] = list(p.potions)
    out["charms"] = p.charms
    out["supply"] = p.supply
    out["crowd"] = p.crowd
    out["coven"] = [witch[w] for w in p.coven]
    out["witches_off"] = [witch[w] for w in g.s.witches_off[p.seat]]
    out["mirror"] = witch[p.mirror] if p.mirror >= 0 else ""
    out["hand"] = [acts[i] for i in g.s.hand_actions if p.hand[i]]
    out["played"] = acts[played] if played >= 0 else ""
    out["discard"] = [acts[i] for i in p.discard]
    out["ritual_row"] = p.ritual_row
    out["ritual_col"] = p.ritual_col
    out["spells"] = [[spell[sp.idx], sp.ready, sp.active] for sp in p.spells]
    out["tracks"] = list(p.tracks)
    out["src"] = list(p.src)
    return out


def changes(before: Owners, after: Owners) -> dict[str, list[object]]:
    """``{"<owner>.<field>": [before, after]}`` for every field that differs (a field new in `after` has ``None``
    before); owners are compared whole first, which most events leave unchanged but one."""
    out: dict[str, list[object]] = {}
    empty: Fields = {}
    for owner, fields in after.items():
        old = before.get(owner, empty)
        if old == fields:
            continue
        for key, value in fields.items():
            was = old.get(key)
            if was != value:
                out[f"{owner}.{key}"] = [was, value]
    return out


def flat(owners: Owners) -> Fields:
    """The fields keyed ``<owner>.<field>``, as ``events.fold`` rebuilds them."""
    return {f"{owner}.{key}": value for owner, fields in owners.items() for key, value in fields.items()}
