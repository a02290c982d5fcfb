"""Which witch, building and spell abilities are in force for a seat (B21g), and passive modifiers by name.

Witch abilities apply while the witch is in the coven (unless switched off: ``Game.witches_off``) or borrowed by the
Magic Mirror; building abilities only while the leader stands on a vertex of the building's area. The rule effect in
force (``Game.fx``) may switch coven abilities off, close buildings or lift their adjacency. Passive abilities are
modifiers the action rules ask for by name (``content.model.PASSIVE_KINDS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.content.model import Ability
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def abilities(g: Game, p: Player) -> list[Ability]:
    """The abilities in force for a player now: coven witches, the mirrored witch, adjacent buildings. A list, taken
    once: an effect that moves the leader while a trigger runs does not change which abilities that trigger runs."""
    witches = g.content.witches
    fx = g.fx
    if fx.abilities_off:
        out = []
    else:
        off = g.witches_off[p.seat]
        out = [witches[w].ability for w in p.coven if w not in off] if off else [witches[w].ability for w in p.coven]
    if p.mirror >= 0:
        out.append(witches[p.mirror].ability)
    if g.buildings and not fx.buildings_closed:
        out.extend(building_abilities(g, p))
    return out


def building_abilities(g: Game, p: Player) -> list[Ability]:
    """The abilities of the buildings in force for a player: on the leader's areas (anywhere under Festival of
    Guilds), none while the rule effect in force closes them."""
    fx = g.fx
    out: list[Ability] = []
    if not g.buildings or fx.buildings_closed:
        return out
    blds = g.content.buildings
    for ai in g.buildings if fx.buildings_anywhere else g.board.vertex_areas[p.vertex]:
        b = g.buildings.get(ai)
        if b is not None:
            out.append(blds[b].ability)
    return out


def passive(g: Game, p: Player, name: str) -> int:
    """Sum of a passive modifier from abilities in force and active ongoing spells."""
    total = 0
    for ab in abilities(g, p):
        if ab.passive == name:
            total += ab.amount
    for sp in p.spells:
        if sp.active:
            for e in g.content.spells[sp.idx].effects:
                if e.kind == "passive" and e.arg == name:
                    total += e.amount
    return total
