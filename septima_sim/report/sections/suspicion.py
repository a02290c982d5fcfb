"""Suspicion and hunters: overflow, capture and witch-loss rates per seat, suspicion across the year."""

from __future__ import annotations

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import by_metric, col, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> None:
    sus = analysis.suspicion(run.players, b.settings)
    sec = b.section(
        "suspicion",
        "Suspicion and hunters",
        "Per seat: how often a player overflowed the suspicion "
        "track, was captured or lost a witch (Wilson intervals), and mean suspicion and witches lost "
        "(t intervals).",
    )
    if run.events is not None:
        sec.charts.append(
            Chart(
                "Suspicion across the year",
                "suspicion.png",
                charts.suspicion_line(analysis.suspicion_by_turn(run.players, run.events)),
            )
        )
    metrics, pivot = by_metric(sus, ["players", "seat", "n"])
    sec.tables.append(
        table(
            "Per seat",
            pivot,
            [("players", col("players")), ("seat", col("seat")), *[(m.replace("_", " "), col(m)) for m in metrics]],
            b.data("suspicion", sus),
        )
    )
