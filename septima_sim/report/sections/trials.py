"""Trials: trials won per seat and the acquittal rate."""

from __future__ import annotations

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report.fmt import ci_num, ci_pct, col, table
from septima_sim.report.page import Builder


def add(b: Builder, run: RunTables) -> None:
    tr = analysis.trials(run.players, run.events, b.settings)
    sec = b.section(
        "trials",
        "Trials",
        "Trials won per player and seat (t intervals)"
        + ("; share of judged witches acquitted (Wilson intervals)." if "acquittal" in tr else "."),
    )
    if "acquittal" in tr:
        sec.tables.append(
            table(
                "Acquittal rate",
                tr["acquittal"],
                [
                    ("players", col("players")),
                    ("witches judged", col("n", "{:,}".format)),
                    ("acquitted", lambda r: ci_pct(r, "rate")),
                ],
                b.data("acquittal", tr["acquittal"]),
            )
        )
    sec.tables.append(
        table(
            "Trials won per player",
            tr["wins"],
            [
                ("players", col("players")),
                ("seat", col("seat")),
                ("player-games", col("n", "{:,}".format)),
                ("mean trials won", ci_num),
            ],
            b.data("trial_wins", tr["wins"]),
        )
    )
