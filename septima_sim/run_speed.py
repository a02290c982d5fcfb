"""A run's speed in games per second: one definition for the progress bar and the end-of-run table."""

from __future__ import annotations


def games_per_second(games: int, seconds: float) -> float:
    """The games a session played over the wall time since it started playing them (worker start-up included,
    earlier sessions of a resumed run not)."""
    return games / seconds if seconds > 0 else 0.0


def rate_text(rate: float) -> str:
    """``145 games/s``; below 10 games/s one decimal, so a slow run does not read ``0 games/s``."""
    return f"{rate:,.0f} games/s" if rate >= 10 else f"{rate:.1f} games/s"
