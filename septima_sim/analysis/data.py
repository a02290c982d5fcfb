"""Open a run for analysis: lazy, validated games and players frames (and events) and the settings that turn
estimates into verdicts.

Nothing is collected here: every analysis function aggregates the Parquet files through polars' lazy engine (only
the columns it needs, streaming where polars can) and collects per-group summaries, so memory does not grow with the
number of games."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from septima_sim import store
from septima_sim.analysis.expansions import Module, run_modules

Frame = pl.DataFrame | pl.LazyFrame
"""Analysis functions take a collected or a lazy frame."""


class RunDataError(ValueError):
    """A directory that cannot be analysed (missing, not a run, no games): the message is one line."""


def lazy(frame: Frame) -> pl.LazyFrame:
    """The frame as a LazyFrame (a no-op for one already lazy)."""
    return frame.lazy() if isinstance(frame, pl.DataFrame) else frame


def in_cell(frame: Frame, cell: str) -> pl.LazyFrame:
    """The rows of one cell: through the hive column ``cell`` of a run's scan when present (only that cell's files
    are read), else through ``cell_id``."""
    lf = lazy(frame)
    return lf.filter(pl.col("cell" if "cell" in lf.collect_schema().names() else "cell_id") == cell)


def cell_columns(frame: Frame) -> list[str]:
    """``["cell"]`` when the frame carries the hive column (keep it in selections that are later split by cell)."""
    return [c for c in ("cell",) if c in lazy(frame).collect_schema().names()]


NO_CACHE = pl.QueryOptFlags(comm_subplan_elim=False)
"""A subplan used twice is scanned twice rather than cached: a cache would hold a whole table in memory."""


def collect(frame: Frame) -> pl.DataFrame:
    """Collect with polars' streaming engine (bounded memory for scans, filters, joins and group-bys)."""
    return lazy(frame).collect(engine="streaming", optimizations=NO_CACHE)


def collect_all(*frames: Frame) -> list[pl.DataFrame]:
    """Collect several lazy frames, each streamed on its own."""
    return pl.collect_all([lazy(f) for f in frames], engine="streaming", optimizations=NO_CACHE)


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
    """Seed of any bootstrap (only statistics without a closed form use one)."""
    resamples: int = 2000


@dataclass(frozen=True, slots=True)
class RunTables:
    """A run's tables ready for analysis, as lazy frames over its Parquet files (with the hive column ``cell``,
    equal to ``cell_id``, so that ``in_cell`` reads only one cell's files).

    ``players`` carries the cell-level columns it is analysed by (mode, modules, solo, lineup, Omen deck: joined
    from a one-row-per-cell table, so cheap); ``seated`` adds the per-game columns (start player, seed, turns) and
    ``order``, the seat's position in turn order (0 = start player), through a join with ``games`` that only the
    tables needing them pay for. ``games_count`` and ``player_counts`` are read once."""

    path: Path
    games: pl.LazyFrame
    players: pl.LazyFrame
    events: pl.LazyFrame | None
    errors: int
    manifest: dict[str, Any]
    games_count: int
    player_counts: list[int]
    modules: tuple[Module, ...] = ()
    """The rules modules the run was made with (from its manifest: ``expansions.run_modules``)."""

    @property
    def toggled(self) -> tuple[Module, ...]:
        """The run's modules a user switches (experiment axes)."""
        return tuple(m for m in self.modules if not m.automatic)

    @property
    def parameters(self) -> tuple[str, ...]:
        """The matrix parameters of a cell (besides its override values), in label order."""
        return ("players", *matrix_columns(self.modules))

    @property
    def seated(self) -> pl.LazyFrame:
        """``players`` with start_player, seed, turns and ``order`` (a lazy join with ``games``)."""
        return with_order(self.players, self.games)

    @property
    def override_axes(self) -> list[str]:
        """The run's what-if axes (dotted content paths), each a column of ``games``."""
        return list(self.manifest.get("config", {}).get("overrides", {}))


_GAME_KEYS = ("cell_id", "game_index")


def matrix_columns(modules: tuple[Module, ...]) -> tuple[str, ...]:
    """Game columns that are constant within a cell (experiment axes): the mode, a flag per module, the lineup and
    the axes the modules own."""
    return ("mode", *(m.axis for m in modules), "lineup", *(a for m in modules for a in m.unpaired_axes))


GAME_COLUMNS = ("start_player", "seed", "turns")


def with_order(players: Frame, games: Frame) -> pl.LazyFrame:
    """Players joined with their game's start player, seed and turns, and ``order`` (0 = start player)."""
    return (
        lazy(players)
        .join(lazy(games).select(*_GAME_KEYS, *GAME_COLUMNS), on=list(_GAME_KEYS), how="left")
        .with_columns(order=((pl.col("seat") - pl.col("start_player")) % pl.col("players")).cast(pl.Int8))
    )


def open_run(run_dir: Path | str) -> RunTables:
    """Open a run directory; raises RunDataError for a missing or foreign directory, or a run without games."""
    path = Path(run_dir)
    if not path.is_dir():
        raise RunDataError(f"{path}: no such run directory")
    try:
        data = store.load(path)
    except FileNotFoundError:
        raise RunDataError(f"{path}: not a run directory (no manifest.json)") from None
    games = data.games
    modules = run_modules(data.manifest)
    present = set(games.collect_schema().names())
    modules = tuple(m for m in modules if m.axis in present)  # a run of an older table schema may lack a flag
    columns = [c for c in matrix_columns(modules) if c in present]
    cells = collect(
        games.group_by("cell_id").agg(pl.len().alias("n"), *(pl.col(c).first() for c in ("players", *columns)))
    )
    errors = 0 if data.errors is None else collect(data.errors.select(pl.len())).item()
    if cells.height == 0:
        detail = f"only errors ({errors} game(s) raised, see {path / 'errors'})" if errors else "no games"
        raise RunDataError(f"{path}: the run has {detail}; nothing to report")
    players = data.players.join(cells.lazy().select("cell_id", *columns), on="cell_id", how="left")
    events = data.events
    counts = sorted(cells["players"].unique().to_list())
    return RunTables(path, games, players, events, errors, data.manifest, int(cells["n"].sum()), counts, modules)
