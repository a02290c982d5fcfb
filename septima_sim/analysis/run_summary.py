"""The table printed at the end of ``septima-sim run``: one row per cell, named by its parameters and override
values, with each seat's win rate (ties count as a win for every tied seat). A run of more than ``MAX_ROWS`` cells
gets one row per player count and override values instead (lineups, modules and decks pooled)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
from rich.table import Table

from septima_sim.analysis.cells import cell_table, override_text
from septima_sim.analysis.data import RunDataError, collect, open_run
from septima_sim.engine.config import COLOURS
from septima_sim.run_speed import rate_text

MAX_ROWS = 24


def summary_rows(run_dir: Path) -> tuple[list[str], pl.DataFrame]:
    """(group columns, table): per group (``label`` or players and override values) and seat: games, win rate."""
    run = open_run(run_dir)
    cells = cell_table(run)
    axes = [a for a in run.override_axes if a in cells.columns]
    if cells.height <= MAX_ROWS:
        keys, groups = ["label"], cells.select("cell_id", "label")
    else:
        keys = ["players", *axes]
        groups = cells.select("cell_id", *keys)
    players = run.players.select("cell_id", "seat", "won").join(groups.lazy(), on="cell_id")
    table = collect(players.group_by(*keys, "seat").agg(games=pl.len(), win_rate=pl.col("won").cast(pl.Float64).mean()))
    order = groups.drop("cell_id").unique(maintain_order=True).with_row_index("_order")
    return keys, table.join(order, on=keys, nulls_equal=True).sort("_order", "seat").drop("_order")


def summary_table(run_dir: Path, games: int, errors: int, rate: float) -> Table:
    """The end-of-run table (the run's own totals in the title)."""
    table = Table(title=f"{run_dir}: {games:,} games, {errors:,} errors, {rate_text(rate)}", show_header=True)
    try:
        keys, rows = summary_rows(run_dir)
    except RunDataError:
        return table
    seats = range(max(rows["seat"].to_list(), default=-1) + 1)
    table.add_column("cell" if keys == ["label"] else " / ".join(keys))
    table.add_column("games", justify="right")
    for s in seats:
        table.add_column(COLOURS[s].title() if s < len(COLOURS) else f"seat {s}", justify="right")
    for group, grp in rows.group_by(keys, maintain_order=True):
        rates = {r["seat"]: f"{r['win_rate']:.1%}" for r in grp.iter_rows(named=True)}
        table.add_row(_name(keys, group), f"{max(grp['games'].to_list()):,}", *(rates.get(s, "") for s in seats))
    return table


def _name(keys: list[str], group: tuple[Any, ...]) -> str:
    if keys == ["label"]:
        return str(group[0])
    return f"{group[0]}p" + "".join(f", {k}={override_text(v)}" for k, v in zip(keys[1:], group[1:], strict=True))
