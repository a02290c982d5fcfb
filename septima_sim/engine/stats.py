"""Player statistics that goals, scoring spells and Tribulations read (names in ``content.model.STATS``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import STATS

if TYPE_CHECKING:
    from septima_sim.content.model import Content
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player
    from septima_sim.engine.view import SeatState


def player_stat(content: Content, p: SeatState, name: str) -> int | None:
    """A statistic of the player alone (goals, scoring spells, Tribulations, heuristic players read it); None for
    the statistics that need the whole game (``goals_scored``, ``wisdom_lead``: see ``stat``)."""
    if name == "witches":
        return len(p.coven)
    if name == "patients_healed":
        return sum(p.healed)
    if name == "diseases_healed":
        return sum(1 for h in p.healed if h)
    if name == "ritual_row":
        return p.ritual_row
    if name == "suspicion":
        return p.suspicion
    if name == "crowd_loyal":
        return p.crowd
    if name == "practical_brewed":
        return sum(n for n, pot in zip(p.brewed, content.potions, strict=True) if pot.kind == "practical")
    if name == "trials_won":
        return p.trials_won
    if name == "spells":
        return len(p.spells)
    if name == "resources":
        return sum(p.res)
    if name == "charms":
        return p.charms
    if name == "potions":
        return sum(p.potions)
    if name == "captures":
        return p.captures
    if name == "ingredients_gained":
        return p.ingredients_gained
    return None


def stat(g: Game, p: Player, name: str) -> int:
    """A player statistic that goals, scoring spells and Tribulations read (names in content.model.STATS)."""
    value = player_stat(g.content, p, name)
    if value is not None:
        return value
    if name == "goals_scored":
        return len(g.goals_scored[p.seat])
    for module_stat in g.hooks.stat:
        value = module_stat(g, p, name)
        if value is not None:
            return value
    if name in STATS:  # a module's statistic while that module is off
        return 0
    raise KeyError(name)
