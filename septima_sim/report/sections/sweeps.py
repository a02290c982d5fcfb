"""Sweeps: the response of seat balance and winning score to each override axis, per player count."""

from __future__ import annotations

import re

import polars as pl

from septima_sim.analysis import RunTables
from septima_sim.analysis.cells import override_text
from septima_sim.analysis.sweeps import sweep_response
from septima_sim.report import charts
from septima_sim.report.fmt import SEAT_COLUMNS, ci_num, col, table
from septima_sim.report.page import Builder, Chart
from septima_sim.report.sections import own_effect


def slug(axis: str) -> str:
    """A file-name-safe form of an axis path (the axis itself is user data)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", axis).strip("._") or "axis"


def add(b: Builder, run: RunTables) -> dict[str, dict[str, pl.DataFrame]]:
    response = sweep_response(run, b.settings)
    if not response:
        return response
    sec = b.section(
        "sweeps",
        "Sweeps",
        "How the game responds to each override value of the run: win rate per seat (Wilson 95% intervals, fair "
        "share dashed) and the mean winning score (t 95% interval), per player count, pooled over the run's other "
        "axes. Verdicts as in Seat balance (Holm-adjusted over each axis's table).",
    )
    for i, (axis, tables) in enumerate(response.items(), start=1):
        name = f"sweep_{i}_{slug(axis)}"
        seats, score = tables["seats"], tables["score"]
        sec.charts.append(Chart(f"Response to {axis}", f"{name}.png", charts.sweep_response(seats, score, axis)))
        sec.tables += [
            table(
                f"Win rate by seat for each value of {axis}",
                seats,
                [("players", col("players")), (axis, col(axis, override_text)), ("seat", col("seat")), *SEAT_COLUMNS],
                b.data(f"{name}_seats", seats),
            ),
            table(
                f"Winning score for each value of {axis}",
                score,
                [("players", col("players")), (axis, col(axis, override_text)), ("games", col("n", "{:,}".format)),
                 ("winning score [95% CI]", ci_num)],
                b.data(f"{name}_score", score),
            ),
        ]  # fmt: skip
        own = own_effect.sweep_table(run, axis, b.settings)
        sec.tables += [own] if own is not None else []
    return response
