"""Game flow per cell: lead changes, when the winner is decided, comebacks, final score spread (with intervals)."""

from __future__ import annotations

from septima_sim.analysis import RunTables
from septima_sim.analysis.flow import game_flow
from septima_sim.report.fmt import by_metric, col, table
from septima_sim.report.page import Builder

_HEADERS = {
    "lead_changes": "lead changes",
    "decided_turn": "decided from turn",
    "comeback_rate": "comeback rate",
    "score_spread": "score spread",
}


def add(b: Builder, run: RunTables) -> None:
    """The flow table of every multiplayer cell (only the score spread when the run has no events)."""
    flow = game_flow(run.players, run.events)
    if flow.is_empty():
        return
    intro = (
        "Per cell, from the running Wisdom of each seat after each turn (events): how often the sole leader changes, "
        "the turn from which the final winner stays ahead to the end (turns + 1: decided by end-of-game scoring), "
        "how often the winner was behind at half-time (comeback rate, Wilson interval), and the final Wisdom of the "
        "best seat minus the worst (score spread); t intervals for the means."
    )
    if run.events is None:
        intro = "Final Wisdom of the best seat minus the worst (t interval). Run with --events for lead changes, the "
        intro += "turn the winner is decided and comebacks."
    sec = b.section("flow", "Game flow", intro)
    metrics, pivot = by_metric(flow, ["players", "cell_id", "n"])
    sec.tables.append(
        table(
            "Per cell",
            pivot,
            [
                ("players", col("players")),
                ("cell", col("cell_id")),
                ("games", col("n", lambda v: f"{v:,}")),
                *[(_HEADERS[m], col(m)) for m in metrics],
            ],
            b.data("flow", flow),
        )
    )
