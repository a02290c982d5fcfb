"""Open a run for analysis: validated, collected games and players frames (events stay lazy) and the settings that
turn estimates into verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from septima_sim import store


class RunDataError(ValueError):
    """A directory that cannot be analysed (missing, not a run, no games): the message is one line."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What counts as balanced: bands around fair share or targets, the error rate and the bootstrap seed."""

    seat_tolerance: float = 0.02
    """A seat is flagged when its win rate differs significantly from fair share by at least this much."""
    component_tolerance: float = 0.02
    """A component is flagged when its win-rate effect is significant and at least this large."""
    wisdom_tolerance: float = 1.0
    """A shared component (building, Omen half) is flagged when its Wisdom effect is significant and this large."""
    min_component_rows: int = 30
    """A component seen in fewer rows than this is listed but never flagged (too rare to judge)."""
    solo_band: tuple[float, float] = (0.4, 0.6)
    """Target solo win rate band."""
    alpha: float = 0.05
    seed: int = 20261130
    resamples: int = 2000


@dataclass(frozen=True, slots=True)
class RunTables:
    """A run's tables ready for analysis.

    ``players`` carries the game-level columns it is analysed by (lineup, modules, start player) and ``order``, the
    seat's position in turn order (0 = start player)."""

    path: Path
    games: pl.DataFrame
    players: pl.DataFrame
    events: pl.LazyFrame | None
    errors: int
    manifest: dict[str, Any]

    @property
    def override_axes(self) -> list[str]:
        """The run's what-if axes (dotted content paths), each a column of ``games``."""
        return list(self.manifest.get("config", {}).get("overrides", {}))

    @property
    def player_counts(self) -> list[int]:
        return sorted(self.games["players"].unique().to_list())


_GAME_KEYS = ("cell_id", "game_index")
_JOINED = ("mode", "shapeshifting", "omens", "solo", "lineup", "omen_deck", "start_player", "seed", "turns")


def open_run(run_dir: Path | str) -> RunTables:
    """Read a run directory; raises RunDataError for a missing or foreign directory, or a run without games."""
    path = Path(run_dir)
    if not path.is_dir():
        raise RunDataError(f"{path}: no such run directory")
    try:
        data = store.load(path)
    except FileNotFoundError:
        raise RunDataError(f"{path}: not a run directory (no manifest.json)") from None
    games = data.games.drop("cell", strict=False).sort(_GAME_KEYS).collect()
    errors = 0 if data.errors is None else data.errors.select(pl.len()).collect().item()
    if games.height == 0:
        detail = f"only errors ({errors} game(s) raised, see {path / 'errors'})" if errors else "no games"
        raise RunDataError(f"{path}: the run has {detail}; nothing to report")
    players = (
        data.players.drop("cell", strict=False)
        .join(games.lazy().select(*_GAME_KEYS, *_JOINED), on=list(_GAME_KEYS), how="left")
        .with_columns(order=((pl.col("seat") - pl.col("start_player")) % pl.col("players")).cast(pl.Int8))
        .sort(*_GAME_KEYS, "seat")
        .collect()
    )
    events = data.events.drop("cell", strict=False) if data.events is not None else None
    return RunTables(path, games, players, events, errors, data.manifest)
