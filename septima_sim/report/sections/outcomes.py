"""Outcomes: scores, margins, ties, game length and decisions per cell."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.analysis.cells import cell_table, with_labels
from septima_sim.analysis.data import collect_all
from septima_sim.report import charts
from septima_sim.report.fmt import by_metric, col, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> None:
    out = analysis.outcomes(run.games, b.settings)
    sec = b.section(
        "outcomes",
        "Outcomes",
        "Scores, margins, ties, game length and decisions per cell (means with "
        "t 95% intervals; tie rate with a Wilson interval).",
    )
    sec.charts.append(
        Chart(
            "Score and margin distributions",
            "distributions.png",
            charts.distributions(*collect_all(_counts(run.players, "wisdom"), _counts(run.games, "margin"))),
        )
    )
    metrics, pivot = by_metric(out, ["cell_id", "players", "n"])
    cells = cell_table(run)
    pivot = with_labels(pivot, cells)
    sec.tables.append(
        table(
            "Per cell",
            pivot,
            [
                ("cell", col("label")),
                ("games", col("n", lambda v: f"{v:,}")),
                *[(m.replace("_", " "), col(m)) for m in metrics],
            ],
            b.data("outcomes", with_labels(out, cells)),
        )
    )


def _counts(frame: pl.LazyFrame, column: str) -> pl.LazyFrame:
    """How many rows have each value of ``column`` per player count (multiplayer games only)."""
    return (
        frame.filter(pl.col("players") > 1)
        .group_by("players", pl.col(column).alias("value"))
        .agg(count=pl.len())
        .sort("players", "value")
    )
