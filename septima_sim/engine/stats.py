"""Player statistics that goals, scoring spells and Tribulations read: registries of small functions keyed by
statistic name (``content.model.STATS``), no chain of name comparisons."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from septima_sim.content.model import STATS

if TYPE_CHECKING:
    from septima_sim.content.model import Content
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player
    from septima_sim.engine.view import SeatState


def _practical_brewed(content: Content, p: SeatState) -> int:
    return sum(n for n, pot in zip(p.brewed, content.potions, strict=True) if pot.kind == "practical")


PLAYER_STATS: dict[str, Callable[[Content, SeatState], int]] = {
    "witches": lambda c, p: len(p.coven),
    "patients_healed": lambda c, p: sum(p.healed),
    "diseases_healed": lambda c, p: sum(1 for h in p.healed if h),
    "ritual_row": lambda c, p: p.ritual_row,
    "suspicion": lambda c, p: p.suspicion,
    "crowd_loyal": lambda c, p: p.crowd,
    "practical_brewed": _practical_brewed,
    "trials_won": lambda c, p: p.trials_won,
    "spells": lambda c, p: len(p.spells),
    "resources": lambda c, p: sum(p.res),
    "charms": lambda c, p: p.charms,
    "potions": lambda c, p: sum(p.potions),
    "captures": lambda c, p: p.captures,
    "ingredients_gained": lambda c, p: p.ingredients_gained,
}
"""The statistics of a player alone, by name (``content.model.STATS``)."""


def _goals_scored(g: Game, p: Player) -> int:
    return len(g.s.goals_scored[p.seat])


GAME_STATS: dict[str, Callable[[Game, Player], int]] = {"goals_scored": _goals_scored}
"""The base statistics that need the whole game; modules answer theirs through the ``stat`` hook."""


def player_stat(content: Content, p: SeatState, name: str) -> int | None:
    """A statistic of the player alone (goals, scoring spells, Tribulations, heuristic players read it); None for
    the statistics that need the whole game (``goals_scored``, ``wisdom_lead``: see ``stat``)."""
    read = PLAYER_STATS.get(name)
    return None if read is None else read(content, p)


def stat(g: Game, p: Player, name: str) -> int:
    """A player statistic that goals, scoring spells and Tribulations read (names in content.model.STATS)."""
    read = PLAYER_STATS.get(name)
    if read is not None:
        return read(g.content, p)
    read_game = GAME_STATS.get(name)
    if read_game is not None:
        return read_game(g, p)
    for module_stat in g.hooks.stat:
        value = module_stat(g, p, name)
        if value is not None:
            return value
    if name in STATS:  # a module's statistic while that module is off
        return 0
    raise KeyError(name)


COMPARISONS: dict[str, Callable[[int, int], bool]] = {">=": operator.ge, "<=": operator.le}
"""How a goal or a Tribulation compares its statistic with its value (``stat op value``), by ``op``."""


def meets(g: Game, p: Player, name: str, op: str, value: int) -> bool:
    """Whether the player's statistic `name` satisfies ``stat op value`` (goals, Tribulations)."""
    return COMPARISONS[op](stat(g, p, name), value)
