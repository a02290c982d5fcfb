"""Passive modifiers (B21g, ``content.model.PASSIVE_KINDS``): what the witch and building abilities in force and the
active ongoing spells add to a rule, looked up in per-pack tables instead of compared by name.

``PassiveTable`` is built once per content pack (``engine/tables.py``): per passive name, the amount (and second
amount) each witch, building and spell grants, indexed like the content lists. The rules ask ``passive`` (the sum:
Brew discount, extra Collect, Heal or Move, Edith's any track) or ``passive_limit`` (the lowest value: the recall of
``trial_recall``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from septima_sim.content.model import PASSIVE_KINDS
from septima_sim.engine.abilities import buildings_in_force, witches_in_force

if TYPE_CHECKING:
    from septima_sim.content.model import Ability, Content
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


class PassiveColumn(NamedTuple):
    """One passive's amounts per witch, per building and per spell of the pack (0 where it grants none), the second
    amounts (``trial_recall``: after crowd picks) and which witches and buildings grant it at all."""

    witch: tuple[int, ...]
    building: tuple[int, ...]
    spell: tuple[int, ...]
    witch2: tuple[int, ...]
    building2: tuple[int, ...]
    witch_has: tuple[bool, ...]
    building_has: tuple[bool, ...]
    by_witches: bool
    by_buildings: bool
    by_spells: bool
    """Some witch / building / spell of the pack grants this passive (the others are not looked at)."""


class PassiveTable:
    """Per passive name (every one of ``PASSIVE_KINDS``), its ``PassiveColumn`` for one content pack."""

    __slots__ = ("columns",)

    def __init__(self, content: Content) -> None:
        n_s = len(content.spells)
        witch = _by_owner([w.ability for w in content.witches])
        building = _by_owner([b.ability for b in content.buildings])
        spell: dict[str, list[int]] = {name: [0] * n_s for name in PASSIVE_KINDS}
        for i, s in enumerate(content.spells):
            for e in s.effects:
                if e.kind == "passive":
                    spell[e.arg][i] += e.amount
        self.columns: dict[str, PassiveColumn] = {}
        for name in PASSIVE_KINDS:
            (w1, w2, w_has), (b1, b2, b_has) = witch[name], building[name]
            by_spells = any(spell[name])
            self.columns[name] = PassiveColumn(
                w1, b1, tuple(spell[name]), w2, b2, w_has, b_has, any(w_has), any(b_has), by_spells
            )


def _by_owner(owned: list[Ability]) -> dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...]]]:
    """Per passive name: each ability's amount, second amount (0 where it is not that passive) and whether it is."""
    n = len(owned)
    cols = {name: ([0] * n, [0] * n, [False] * n) for name in PASSIVE_KINDS}
    for i, ab in enumerate(owned):
        if ab.passive:
            first, second, has = cols[ab.passive]
            first[i], second[i], has[i] = ab.amount, ab.amount2, True
    return {name: (tuple(a), tuple(b), tuple(h)) for name, (a, b, h) in cols.items()}


def passive(g: Game, p: Player, name: str) -> int:
    """Sum of a passive modifier over the abilities in force for the seat and its active ongoing spells."""
    col = g.tables.passives.columns[name]
    total = 0
    if col.by_witches:
        for w in witches_in_force(g, p):
            total += col.witch[w]
    if col.by_buildings:
        for b in buildings_in_force(g, p):
            total += col.building[b]
    if col.by_spells:
        for sp in p.spells:
            if sp.active:
                total += col.spell[sp.idx]
    return total


def passive_limit(g: Game, p: Player, name: str, limit: int, second: bool = False) -> int:
    """The lowest of `limit` and the passive's amount (``second``: its second amount) over the abilities in force
    that grant it (``trial_recall``: how many citizens the seat takes back)."""
    col = g.tables.passives.columns[name]
    if col.by_witches:
        amounts = col.witch2 if second else col.witch
        for w in witches_in_force(g, p):
            if col.witch_has[w]:
                limit = min(limit, amounts[w])
    if col.by_buildings:
        amounts = col.building2 if second else col.building
        for b in buildings_in_force(g, p):
            if col.building_has[b]:
                limit = min(limit, amounts[b])
    return limit
