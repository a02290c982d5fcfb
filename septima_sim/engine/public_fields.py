"""The public state an event log rebuilds (issue #26): every counted field of the table, of each seat and of the
enabled modules, as one flat dict of JSON-ready values (ints, strings, booleans and lists of them; content as ids).

Keys are ``table.<field>`` for the board, ``<seat>.<field>`` for a seat (``0.res``) and ``<module>.<field>`` or
``<seat>.<field>`` for what a module adds (``widow.vertex``, ``1.form``). ``Game.emit`` compares the fields with the
ones of the previous event and puts the differences in the event's ``changes`` (``{key: [before, after]}``), so
``septima_sim.events.fold`` rebuilds this dict from the events alone. Computed only while an event sink listens:
never in the turn loop of a game without one. Goals, deck and bag orders and the Widow's face-down markers are not
public and not here (a pile's size is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

Fields = dict[str, object]


def public_fields(g: Game) -> Fields:
    """The public state of `g` now (see the module docstring)."""
    s, c = g.s, g.content
    witch = [w.id for w in c.witches]
    acts = g.action_ids
    out: Fields = {
        "table.start_player": s.start_player,
        "table.chamber1": witch[s.chamber1] if s.chamber1 >= 0 else "",
        "table.chamber2": [witch[w] for w in s.chamber2],
        "table.seated1": list(s.seated[1]),
        "table.seated2": list(s.seated[2]),
        "table.crowd_neutral": s.crowd_neutral,
        "table.crowd_angry": s.crowd_angry,
        "table.hunters": [[space, active] for space, active in zip(s.hunter_space, s.hunter_active, strict=True)],
        "table.patients": [
            [sp, c.diseases[pt.disease].id, pt.angry, pt.healed_by, [c.potions[r].id for r in pt.remedies]]
            for sp, pt in sorted(s.patients.items())
        ],
        "table.septima": [acts[i] if i >= 0 else "" for i in (s.septima_left, s.septima_right)],  # right: this turn
        "table.market": [
            [
                c.spells[row.scoring[-1]].id if row.scoring else "",
                c.spells[row.middle].id if row.middle >= 0 else "",
                c.spells[row.bottom].id if row.bottom >= 0 else "",
            ]
            for row in s.market
        ],
        "table.crystal_supply": s.crystal_supply,
        "table.potion_supply": list(s.potion_supply),
        "table.witch_deck": len(s.witch_deck),
        "table.patient_stack": len(s.patient_stack),
        "table.buildings": {c.areas[a].id: c.buildings[b].id for a, b in sorted(s.buildings.items())},
    }
    for p in s.players:
        _seat(g, p, witch, out)
    for module_fields in g.hooks.public_fields:
        module_fields(g, out)
    return out


def _seat(g: Game, p: Player, witch: list[str], out: Fields) -> None:
    """One seat's fields, keyed ``<seat>.<field>``."""
    acts = g.action_ids
    k = f"{p.seat}."
    played = g.s.played[p.seat]
    out[k + "wisdom"] = p.wisdom
    out[k + "suspicion"] = p.suspicion
    out[k + "vertex"] = p.vertex
    out[k + "res"] = list(p.res)
    out[k + "potions"] = list(p.potions)
    out[k + "charms"] = p.charms
    out[k + "supply"] = p.supply
    out[k + "crowd"] = p.crowd
    out[k + "coven"] = [witch[w] for w in p.coven]
    out[k + "witches_off"] = [witch[w] for w in g.s.witches_off[p.seat]]
    out[k + "mirror"] = witch[p.mirror] if p.mirror >= 0 else ""
    out[k + "hand"] = [acts[i] for i in g.s.hand_actions if p.hand[i]]
    out[k + "played"] = acts[played] if played >= 0 else ""
    out[k + "discard"] = [acts[i] for i in p.discard]
    out[k + "ritual_row"] = p.ritual_row
    out[k + "ritual_col"] = p.ritual_col
    out[k + "spells"] = [[g.content.spells[sp.idx].id, sp.ready, sp.active] for sp in p.spells]
    out[k + "tracks"] = list(p.tracks)
    out[k + "src"] = list(p.src)


def changes(before: Fields, after: Fields) -> dict[str, list[object]]:
    """``{key: [before, after]}`` for every field that differs (a field new in `after` has ``None`` before)."""
    return {key: [before.get(key), value] for key, value in after.items() if before.get(key) != value}
