"""Seat and turn-order balance per setting (a cell without its lineup: player count, mode, modules, Omen deck and
override values), pooled over lineups, and per lineup (for the skill robustness of each finding, ``skill``)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.cells import cell_table
from septima_sim.analysis.data import RunTables, Settings
from septima_sim.analysis.metrics import seat_balance


def setting_keys(run: RunTables) -> list[str]:
    """The columns a setting is identified by: the cell parameters but the lineup, and the override axes."""
    axes = [a for a in run.override_axes if a in run.games.collect_schema().names()]
    return [p for p in run.parameters if p != "lineup"] + axes


def seated_settings(run: RunTables, cells: pl.DataFrame | None = None) -> pl.LazyFrame:
    """Players with their turn-order position and their cell's override values (a join with the cell table)."""
    cells = cell_table(run) if cells is None else cells
    extra = [a for a in setting_keys(run) if a not in run.parameters]
    return run.seated.join(cells.lazy().select("cell_id", *extra), on="cell_id", how="left")


def setting_balance(
    run: RunTables, settings: Settings, position: str = "seat", keys: Sequence[str] | None = None
) -> pl.DataFrame:
    """Win rate per setting and seat (or turn-order position), pooled over lineups, with verdicts (seat_balance)."""
    keys = list(keys if keys is not None else setting_keys(run))
    return seat_balance(seated_settings(run), settings, by=keys, position=position)


def by_lineup(run: RunTables, settings: Settings, position: str = "seat") -> pl.DataFrame:
    """Win rate per setting, lineup and seat (or position), for the robustness of each finding."""
    return setting_balance(run, settings, position, [*setting_keys(run), "lineup"])
