"""Which witch and building abilities are in force for a seat (B21g), and the triggered ones by trigger.

Witch abilities apply while the witch is in the coven (unless switched off: ``Game.s.witches_off``) or borrowed by the
Magic Mirror; building abilities only while the leader stands on a vertex of the building's area. The rule effect in
force (``Game.s.fx``) may switch coven abilities off, close buildings or lift their adjacency. Triggered abilities are
looked up in a ``TriggerTable`` built once per content pack (per trigger, each witch's and building's effects);
passive modifiers in ``passives.PassiveTable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from septima_sim.content.model import Ability, Content, Effect
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def witches_in_force(g: Game, p: Player) -> list[int]:
    """The witches whose abilities are in force for a player now (content indices): coven witches not switched off,
    then the mirrored one. A list, taken once: an effect that changes the coven while a trigger runs does not
    change which abilities that trigger runs."""
    if g.s.fx.abilities_off:
        witches = []
    else:
        off = g.s.witches_off[p.seat]
        witches = [w for w in p.coven if w not in off] if off else list(p.coven)
    if p.mirror >= 0:
        witches.append(p.mirror)
    return witches


def buildings_in_force(g: Game, p: Player) -> list[int]:
    """The buildings whose abilities are in force for a player now (content indices): on the leader's areas, or
    anywhere (the rule effect in force may lift adjacency or close them all)."""
    buildings = []
    fx = g.s.fx
    if g.s.buildings and not fx.buildings_closed:
        for ai in g.s.buildings if fx.buildings_anywhere else g.board.vertex_areas[p.vertex]:
            b = g.s.buildings.get(ai)
            if b is not None:
                buildings.append(b)
    return buildings


def abilities(g: Game, p: Player) -> list[Ability]:
    """The abilities in force for a player now: coven witches, the mirrored witch, then buildings."""
    content = g.content
    return [content.witches[w].ability for w in witches_in_force(g, p)] + [
        content.buildings[b].ability for b in buildings_in_force(g, p)
    ]


class Triggered(NamedTuple):
    """One trigger's effects per witch and per building of the pack (empty where the ability has another trigger);
    ``by_witches`` / ``by_buildings``: some witch / building has it."""

    witch: tuple[tuple[Effect, ...], ...]
    building: tuple[tuple[Effect, ...], ...]
    by_witches: bool
    by_buildings: bool


class TriggerTable:
    """Per trigger name (``play:<action>``, ``after_trial``) used by some ability of one content pack, its
    ``Triggered`` effects; a trigger no ability uses is absent."""

    __slots__ = ("by_trigger",)

    def __init__(self, content: Content) -> None:
        n_w, n_b = len(content.witches), len(content.buildings)
        table: dict[str, tuple[list[tuple[Effect, ...]], list[tuple[Effect, ...]]]] = {}
        owned = ([w.ability for w in content.witches], [b.ability for b in content.buildings])
        for side, side_abilities in enumerate(owned):
            for i, ab in enumerate(side_abilities):
                if ab.trigger:
                    entry = table.setdefault(ab.trigger, ([()] * n_w, [()] * n_b))
                    entry[side][i] = ab.effects
        self.by_trigger = {when: Triggered(tuple(w), tuple(b), any(w), any(b)) for when, (w, b) in table.items()}
