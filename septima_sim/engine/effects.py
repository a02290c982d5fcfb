"""Named effects (B21g): content describes every card effect as ``Effect(kind, amount, arg)``; ``apply`` runs one
through the ``_EFFECTS`` registry, ``trigger`` runs the triggered abilities in force (``abilities.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL, Effect
from septima_sim.engine import crowd, spells, supply
from septima_sim.engine.abilities import buildings_in_force, witches_in_force
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def trigger(g: Game, p: Player, when: str, buildings_only: bool = False) -> None:
    """Run every ability in force whose trigger is `when` (e.g. ``play:remember``, ``after_trial``): the witches'
    then the buildings', each ability's effects in order (``abilities.TriggerTable`` of the pack); only the
    buildings' with `buildings_only` (Remember's copy, reading ``remember_abilities``)."""
    triggered = g.tables.triggers.by_trigger.get(when)
    if triggered is None:
        return
    witches = witches_in_force(g, p) if triggered.by_witches and not buildings_only else ()
    buildings = buildings_in_force(g, p) if triggered.by_buildings else ()
    tables = g.tables
    prev = g.cause
    for w in witches:
        effs = triggered.witch[w]
        if effs:
            g.cause = tables.witch_cause[w]  # its changes are caused by its witch
            for e in effs:
                _EFFECTS[e.kind](g, p, e)
    for b in buildings:
        effs = triggered.building[b]
        if effs:
            g.cause = tables.building_cause[b]  # ... or its building
            for e in effs:
                _EFFECTS[e.kind](g, p, e)
    g.cause = prev


def apply(g: Game, p: Player, e: Effect) -> None:
    """Run one effect for a player."""
    _EFFECTS[e.kind](g, p, e)


def _wisdom(g: Game, p: Player, e: Effect) -> None:
    g.gain_wisdom(p, e.amount, e.source)


def _ingredient(g: Game, p: Player, e: Effect) -> None:
    idx = g.ingredient_index.get(e.arg, -1)  # "any": the player's choice
    if idx < 0:
        g.choose_ingredient(p)
    else:
        g.gain_res(p, idx)


def _crystal(g: Game, p: Player, e: Effect) -> None:
    g.gain_res(p, CRYSTAL, e.amount)


def _charm(g: Game, p: Player, e: Effect) -> None:
    p.charms += e.amount
    if g.sink is not None:
        g.note("charms", p.seat, f"{e.amount:+d}")


def _suspicion(g: Game, p: Player, e: Effect) -> None:
    if e.amount < 0:
        g.lower_suspicion(p, -e.amount)
    else:
        g.raise_suspicion(p, e.amount)


def _move(g: Game, p: Player, e: Effect) -> None:
    g.move_leader(p, e.amount if e.amount > 0 else -1)


def _citizen(g: Game, p: Player, e: Effect) -> None:
    crowd.citizen_to_crowd(g, p, e.amount)


def _crowd_pick(g: Game, p: Player, e: Effect) -> None:
    crowd.crowd_picks(g, p, e.amount)


def _ready(g: Game, p: Player, e: Effect) -> None:
    for _ in range(e.amount):
        spells.ready_spell(g, p, "")


def _gain_spell(g: Game, p: Player, e: Effect) -> None:
    spells.gain_spell(g, p)


def _potion(g: Game, p: Player, e: Effect) -> None:
    opts = [i for i in g.tables.potion_group[e.arg] if g.s.potion_supply[i] > 0]
    if opts:
        supply.gain_potion(g, p, g.ask(Kind.BREW, p.seat, opts, "gift"), brewed=False)


def _return_card(g: Game, p: Player, e: Effect) -> None:
    for _ in range(e.amount):
        if not p.discard:
            return
        card = g.ask(Kind.RETURN_CARD, p.seat, sorted(set(p.discard)))
        p.discard.remove(card)
        p.hand[card] = True
        if g.sink is not None:
            g.note("hand", p.seat, f"+{g.action_ids[card]}")


def _magic_mirror(g: Game, p: Player, e: Effect) -> None:
    """Magic Mirror (public): use the ability of a witch not in your coven, here until the end of the season.
    Candidates: witches on trial, exiled or discarded, and other players' witches."""
    opts = set(g.s.witch_box) | set(g.s.chamber2)
    if g.s.chamber1 >= 0:
        opts.add(g.s.chamber1)
    for q in g.s.players:
        if q is not p:
            opts.update(q.coven)
    if opts:
        p.mirror = g.ask(Kind.MIRROR, p.seat, sorted(opts))
        if g.sink is not None:
            g.note("mirror", p.seat, g.content.witches[p.mirror].id)


def _passive(g: Game, p: Player, e: Effect) -> None:
    """Passive effects of ongoing spells act through ``passive``; applying one does nothing by itself."""


_EFFECTS = {
    "wisdom": _wisdom,
    "ingredient": _ingredient,
    "crystal": _crystal,
    "charm": _charm,
    "suspicion": _suspicion,
    "move": _move,
    "citizen_to_crowd": _citizen,
    "crowd_pick": _crowd_pick,
    "ready_spell": _ready,
    "gain_spell": _gain_spell,
    "potion": _potion,
    "return_card": _return_card,
    "magic_mirror": _magic_mirror,
    "passive": _passive,
}
IMPLEMENTED_EFFECTS = frozenset(_EFFECTS)
