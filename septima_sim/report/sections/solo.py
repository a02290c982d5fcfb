"""Solo: win rate against the Black Widow, Tribulations and the Widow's Wisdom (the solo module's report section,
named by its ``ModuleSpec.report``)."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables, Settings
from septima_sim.analysis.cells import cell_table, with_labels
from septima_sim.analysis.data import collect
from septima_sim.report import charts
from septima_sim.report.fmt import ci_pct, col, pct, table
from septima_sim.report.headlines import Basis, Headline
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables, name: str) -> list[Headline]:
    """The solo module's section (its ``ModuleSpec.report`` hook; ``name``: the module's name, its games flag
    column): added when the run has solo games; returns its headline candidates, one per solo cell."""
    if not collect(run.games.select(pl.col(name).any())).item():
        return []
    solo = analysis.solo_summary(run.games, b.settings, name)
    solo["win"] = with_labels(solo["win"], cell_table(run))
    lo, hi = b.settings.solo_band
    sec = b.section(
        name,
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
            b.data(name, solo["win"]),
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
    return headlines(solo, b.settings)


def headlines(solo: dict[str, pl.DataFrame], settings: Settings) -> list[Headline]:
    """One line per solo cell: the player's win rate against the Widow and its verdict against the target band."""
    lo, hi = settings.solo_band
    return [
        Headline(
            f"Solo ({r.get('label') or r['cell_id']}): the player beats the Widow in {ci_pct(r, 'rate')} of "
            f"{r['games']:,} games: {r['verdict']}",
            "flagged" if str(r["verdict"]).startswith("too") else ("ok" if r["verdict"] == "ok" else "unclear"),
            basis=Basis("solo_win", 1, 100 * min(abs(r["rate"] - lo), abs(r["rate"] - hi))),
        )
        for r in solo["win"].iter_rows(named=True)
    ]
