"""Solo: win rate against the Black Widow, Tribulations and the Widow's Wisdom."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.analysis.cells import cell_table, with_labels
from septima_sim.analysis.data import collect
from septima_sim.report import charts
from septima_sim.report.fmt import ci_pct, col, pct, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> dict[str, pl.DataFrame] | None:
    if not collect(run.games.select(pl.col("solo").any())).item():
        return None
    solo = analysis.solo_summary(run.games, b.settings)
    solo["win"] = with_labels(solo["win"], cell_table(run))
    lo, hi = b.settings.solo_band
    sec = b.section(
        "solo",
        "Solo (the Black Widow)",
        f"Solo win rate against the target band {pct(lo, 0)}-"
        f"{pct(hi, 0)}, Tribulations met and the Widow's final Wisdom.",
    )
    sec.charts.append(
        Chart(
            "Widow Wisdom",
            "widow_wisdom.png",
            charts.histogram(solo["widow"], "widow_wisdom", "The Widow's final Wisdom", "Wisdom"),
        )
    )
    sec.tables.append(
        table(
            "Win rate",
            solo["win"],
            [
                ("cell", col("label")),
                ("games", col("games", "{:,}".format)),
                ("win rate", lambda r: ci_pct(r, "rate")),
                ("verdict", col("verdict")),
            ],
            b.data("solo", solo["win"]),
        )
    )
    sec.tables.append(
        table(
            "Tribulations met",
            solo["tribulations"],
            [("tribulations met", col("tribulations_met")), ("games", col("games", "{:,}".format))],
        )
    )
    if "failed" in solo:
        sec.tables.append(
            table(
                "Tribulations failed most",
                solo["failed"],
                [
                    ("tribulation", col("tribulations_failed")),
                    ("games failed", col("games", "{:,}".format)),
                    ("share", col("share", pct)),
                ],
                b.data("tribulations_failed", solo["failed"]),
            )
        )
    return solo
