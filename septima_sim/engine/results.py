"""What a finished game reports: one games row and one players row per seat, as plain dicts.

Column names and meanings are documented in docs/outputs.md. Per-card and per-potion columns take their names from
the content pack (``played_<action>``, ``brewed_<potion>``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from septima_sim.content.model import CAUSE_FAMILIES, WISDOM_SOURCES

RULES_VERSION = "base-2"
"""Bumped whenever the engine's reading of the rules changes (stored with every game)."""

SOURCES: tuple[str, ...] = WISDOM_SOURCES  # named once, in the content model (effects may name a source)
"""Where Wisdom comes from. ``penalties`` holds losses (overflow, capture) as negative numbers; all sum to wisdom."""
SOURCE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SOURCES)}

FAMILY_OF: dict[str, str] = CAUSE_FAMILIES  # named once, in the content model, like the sources
"""The family of a cause id, by its prefix (``witch:johanna`` -> witches); any other cause is in ``other``."""
FAMILIES: tuple[str, ...] = (*dict.fromkeys(FAMILY_OF.values()), "other")
"""The ``wisdom_from_<family>`` columns: they partition a seat's Wisdom (they sum to ``wisdom``), as ``components``
does one level finer."""


def attribute(comp: dict[str, int], row: dict[str, object]) -> None:
    """Fill a players row's ``wisdom_from_<family>`` columns and its ``components`` list (Wisdom per cause id,
    causes that netted 0 left out, sorted by id) from a seat's Wisdom by cause."""
    fam = dict.fromkeys(FAMILIES, 0)
    for cause, wisdom in comp.items():
        fam[FAMILY_OF.get(cause.partition(":")[0], "other")] += wisdom
    for name, wisdom in fam.items():
        row[f"wisdom_from_{name}"] = wisdom
    row["components"] = [{"component": c, "wisdom": w} for c, w in sorted(comp.items()) if w]


def row_int(row: dict[str, object], key: str, default: int | None = None) -> int:
    """An integer column of a games or players row (``default`` when the row has no such column)."""
    value = row.get(key, default)
    assert isinstance(value, int), f"{key}: expected an integer, got {value!r}"
    return value


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
