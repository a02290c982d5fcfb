"""Seat balance: win rate per seat, pooled, by turn order and by cell, with verdicts."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import SEAT_COLUMNS, col, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    s = b.settings
    cells = analysis.seat_balance(run.players, s)
    pooled = analysis.seat_balance(run.players, s, by=("players",))
    order = analysis.seat_balance(run.seated, s, by=("players",), position="order")
    sec = b.section(
        "seats",
        "Seat balance",
        f"Win rate per seat against fair share (1 / players). Ties count as a win for each tied seat. Verdict: "
        f"flagged = significantly off fair by at least {s.seat_tolerance * 100:.0f} points (Holm-adjusted exact "
        f"binomial test); ok = the 95% interval lies within fair ± {s.seat_tolerance * 100:.0f} points; unclear = "
        f"more games needed. Turn order counts seats from the start player (0).",
    )
    sec.charts += [
        Chart("Win rate by seat and cell", "seat_heatmap.png", charts.seat_heatmap(cells)),
        Chart("Win rate by seat (all cells pooled)", "seat_winrate.png", charts.seat_bars(pooled, "seat", "seat")),
        Chart("Win rate by turn order", "turn_order.png", charts.seat_bars(order, "order", "pos")),
    ]
    sec.tables += [
        table(
            "By seat, all cells pooled",
            pooled,
            [("players", col("players")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_pooled", pooled),
        ),
        table(
            "By turn order (0 = start player)",
            order,
            [("players", col("players")), ("position", col("order")), *SEAT_COLUMNS],
            b.data("turn_order", order),
        ),
        table(
            "By cell and seat",
            cells,
            [("cell", col("cell_id")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_by_cell", cells),
        ),
    ]
    return pooled, order, cells
