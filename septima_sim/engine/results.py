"""What a finished game reports: one games row and one players row per seat, as plain dicts.

Column names and meanings are documented in README.md (Outputs). Per-card and per-potion columns take their names from
the content pack (``played_<action>``, ``brewed_<potion>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from septima_sim.content.model import WISDOM_SOURCES

RULES_VERSION = "base-1"
"""Bumped whenever the engine's reading of the rules changes (stored with every game)."""

SOURCES: tuple[str, ...] = WISDOM_SOURCES  # named once, in the content model (effects may name a source)
"""Where Wisdom comes from. ``penalties`` holds losses (overflow, capture) as negative numbers; all sum to wisdom."""
SOURCE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SOURCES)}


@dataclass(slots=True)
class GameResult:
    """The outcome of one game: ``game`` (one row) and ``players`` (one row per seat)."""

    game: dict[str, object]
    players: list[dict[str, object]] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        seats = self.game["winner_seats"]
        assert isinstance(seats, list)
        return [int(s) for s in seats]
