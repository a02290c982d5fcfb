"""Lineups: which persona sits in which seat.

A lineup is either a list, one persona per seat (its length must equal the player count), or a pool
(``{ pool = [...] }``) whose balanced rotation fills any number of seats. Both rotate by the game index: seat ``s`` of
game ``i`` plays ``personas[(s + i) % len(personas)]``, so seat effects and persona effects separate over games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MAX_SEATS = 4
"""The most seats a table has, hence the longest per-seat lineup."""


class LineupError(ValueError):
    """A lineup that is malformed or does not fit the table: the message names the lineup."""


@dataclass(frozen=True, slots=True)
class Lineup:
    """The personas of a lineup and its form: ``pool`` fills any seat count, otherwise one persona per seat."""

    personas: tuple[str, ...]
    pool: bool = False

    @classmethod
    def parse(cls, value: Any) -> Lineup:
        """A list is one persona per seat; ``{"pool": [...]}`` is a pool; anything else is a LineupError."""
        if isinstance(value, dict) and set(value) == {"pool"}:
            value, pool = value["pool"], True
        else:
            pool = False
        if not isinstance(value, list) or not value or not all(isinstance(p, str) for p in value):
            raise LineupError(f"give a list of persona names (one per seat) or {{ pool = [...] }}, got {value!r}")
        if not pool and len(value) > MAX_SEATS:
            raise LineupError(
                f"{len(value)} personas, one per seat, but a table has at most {MAX_SEATS} seats "
                f"(write {{ pool = [...] }} to fill the seats by rotation)"
            )
        return cls(tuple(value), pool)

    def check_fits(self, name: str, players: int) -> None:
        """A per-seat lineup must name exactly one persona per seat; a pool fits any player count."""
        if not self.pool and len(self.personas) != players:
            raise LineupError(
                f"lineup {name!r} lists {len(self.personas)} personas, one per seat, but the table has {players} "
                f"player(s) (list one per seat, or write {{ pool = [...] }} to fill the seats by rotation)"
            )

    def seat_personas(self, name: str, players: int, game_index: int) -> list[str]:
        """The persona of each seat in game ``game_index``: seat ``s`` plays ``personas[(s + game_index) % len]``."""
        self.check_fits(name, players)
        k = len(self.personas)
        return [self.personas[(s + game_index) % k] for s in range(players)]
