"""Personas and lineups: win rate per persona and lineup, turn order across lineups."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import SEAT_COLUMNS, col, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> None:
    if not analysis.has_personas(run.players):
        return
    matrix = analysis.persona_matrix(run.players)
    robust = analysis.seat_across_lineups(run.seated, b.settings)
    sec = b.section(
        "personas",
        "Personas and lineups",
        "Win rate of each persona in each lineup (fair share "
        "1 / players), and whether the turn-order finding holds across lineups.",
    )
    cells = matrix.with_columns(
        row=pl.format("{}p {}", "players", "lineup"),
        col=pl.col("policy"),
        value=pl.col("delta") * 100,
        text=pl.format("{}%", (pl.col("win_rate") * 100).round(1)),
    )
    sec.charts.append(
        Chart(
            "Persona x lineup",
            "personas.png",
            charts.heatmap(
                cells,
                cells["row"].unique(maintain_order=True).to_list(),
                sorted(cells["col"].unique().to_list()),
                "Win rate by persona and lineup (colour: points above or below fair)",
                "points vs fair share",
            ),
        )
    )
    sec.tables += [
        table(
            "Persona win rates",
            matrix,
            [("players", col("players")), ("lineup", col("lineup")), ("persona", col("policy")), *SEAT_COLUMNS[:4]],
            b.data("personas", matrix),
        ),
        table(
            "Turn order across lineups",
            robust,
            [("players", col("players")), ("lineup", col("lineup")), ("position", col("order")), *SEAT_COLUMNS],
            b.data("turn_order_by_lineup", robust),
        ),
    ]
