"""Comparison with another run: seat, outcome, source and component deltas."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import DELTA_COLUMNS, ci_num, col, pct, pval, table, value
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables, other: RunTables) -> None:
    cmp = analysis.compare_runs(run, other, b.settings)
    sec = b.section(
        "compare",
        f"Compared with {other.path.name}",
        f"Deltas are {other.path.name} minus "
        f"{run.path.name}. Games with the same cell, index and seed are paired (McNemar / Wilcoxon, "
        "t intervals of the per-game differences); otherwise independent (Welch). Holm-adjusted p-values.",
    )
    seats = cmp["seats"]
    if not seats.is_empty():
        sec.charts.append(
            Chart(
                "Seat win-rate deltas",
                "compare_seats.png",
                charts.forest(
                    [f"{c} seat {s}" for c, s in seats.select("cell_id", "seat").iter_rows()],
                    seats["delta"].to_numpy() * 100,
                    seats["lo"].to_numpy() * 100,
                    seats["hi"].to_numpy() * 100,
                    seats["p_adj"].to_numpy() < b.settings.alpha,
                    "Win rate change by cell and seat",
                    "percentage points",
                ),
            )
        )
        sec.tables.append(
            table(
                "Seat win rates",
                seats.with_columns(metric=pl.lit("won")),
                [
                    ("cell", col("cell_id")),
                    ("seat", col("seat")),
                    ("this", col("this", pct)),
                    ("other", col("other", pct)),
                    *DELTA_COLUMNS,
                    ("paired", col("paired", lambda v: "yes" if v else "no")),
                ],
                b.data("compare_seats", seats),
            )
        )
    if not cmp["outcomes"].is_empty():
        sec.tables.append(
            table(
                "Outcomes",
                cmp["outcomes"],
                [
                    ("cell", col("cell_id")),
                    ("metric", col("metric", lambda v: v.replace("_", " "))),
                    ("this", lambda r: value(r, "this")),
                    ("other", lambda r: value(r, "other")),
                    *DELTA_COLUMNS,
                    ("paired", col("paired", lambda v: "yes" if v else "no")),
                ],
                b.data("compare_outcomes", cmp["outcomes"]),
            )
        )
    b.data("compare_sources", cmp["sources"])
    if not cmp["components"].is_empty():
        comps = cmp["components"].head(20)
        sec.tables.append(
            table(
                "Component effects that moved most (top 20; all in compare_components.csv)",
                comps,
                [
                    ("kind", col("kind")),
                    ("component", col("item")),
                    (
                        "win effect change (points)",
                        lambda r: ci_num(r, "win_change", "win_change_lo", "win_change_hi", 100, True),
                    ),
                    (
                        "Wisdom effect change",
                        lambda r: ci_num(r, "wisdom_change", "wisdom_change_lo", "wisdom_change_hi", sign=True),
                    ),
                    ("p", col("p", pval)),
                ],
            )
        )
        b.data("compare_components", cmp["components"])
