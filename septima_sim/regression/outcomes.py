"""Playing a config's games for the balance gate and keeping, per cell, only the per-game outcomes the verdict
needs (each shard is reduced as it arrives, so memory holds outcomes, never whole tables)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from septima_sim import runner
from septima_sim.experiment import Experiment

GAME_COLUMNS: tuple[str, ...] = ("winning_score", "margin", "tie", "turns", "decisions", "solo_won")
"""Per-game columns kept in a baseline (a column with nulls in a cell, e.g. ``solo_won`` outside solo, is left out)."""
SEAT_COLUMNS: tuple[str, ...] = ("won", "suspicion_end", "captures")
"""Per-seat columns kept in a baseline, stored as ``<column>_<seat>``."""
HOLDER_COLUMNS: tuple[str, ...] = ("wisdom", "witches_drafted", "spells")
"""Per-seat columns of the per-component metrics (``regression.components``), stored as ``<column>_<seat>``; a
baseline written before them has none, and its check compares no component."""


Outcomes = dict[str, pl.DataFrame]
"""Per cell id, one row per game (``game_index``, ``seed`` when played here, GAME_COLUMNS and ``<seat column>_<seat>``,
in the store's compact integer types), sorted by game index."""


@dataclass(slots=True)
class Played:
    """Games played for a baseline or a check: outcomes per cell and the games that raised."""

    outcomes: Outcomes
    errors: int = 0
    first_error: str | None = None


def _outcomes(games: pl.DataFrame, players: pl.DataFrame) -> Outcomes:
    """Wide per-game frames per cell from runner tables (bools as 0/1, null-bearing columns dropped); pivoting
    several value columns names them ``<column>_<seat>``."""
    seat_columns = [*SEAT_COLUMNS, *(c for c in HOLDER_COLUMNS if c in players.columns)]
    wide = players.select("cell_id", "game_index", "seat", *seat_columns).pivot(
        "seat", index=["cell_id", "game_index"], values=seat_columns
    )
    cols = [c for c in GAME_COLUMNS if c in games.columns]
    table = games.select("cell_id", "game_index", "seed", *cols).join(wide, on=["cell_id", "game_index"], how="left")
    table = table.with_columns(pl.col(pl.Boolean).cast(pl.Int8))
    out = {}
    for (cell_id,), grp in table.sort("cell_id", "game_index").group_by("cell_id", maintain_order=True):
        grp = grp.drop("cell_id")
        out[str(cell_id)] = grp.select(c for c in grp.columns if grp[c].null_count() == 0)
    return out


def merge(parts: Iterable[Outcomes]) -> Outcomes:
    merged: dict[str, list[pl.DataFrame]] = {}
    for part in parts:
        for cell, frame in part.items():
            merged.setdefault(cell, []).append(frame)
    return {c: pl.concat(f, how="diagonal").sort("game_index") for c, f in merged.items()}


def play(tasks: list[runner.ShardTask]) -> Played:
    """Play shards through the runner's worker function, within the caller's ``runner.parallel_backend``; each shard
    is reduced to its outcomes as it arrives (the full games and players tables are never held together)."""
    parts: list[Outcomes] = []
    played = Played({})
    for out in runner.map_unordered(runner.play_shard, tasks):
        played.errors += out.errors
        if "games" in out.tables and "players" in out.tables:
            parts.append(_outcomes(pl.read_parquet(out.tables["games"][0]), pl.read_parquet(out.tables["players"][0])))
        if "errors" in out.tables and played.first_error is None:
            played.first_error = pl.read_parquet(out.tables["errors"][0])["error"][0]
    played.outcomes = merge(parts)
    return played


def shard_tasks(exp: Experiment) -> list[runner.ShardTask]:
    """Every shard of an experiment, as the runner plans them (no run directory is written)."""
    return runner.plan(exp, "regression", Path("<regression>"), events=False)
