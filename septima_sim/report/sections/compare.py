"""Comparison with another run: seat, outcome, source and component deltas (this run minus the other run), the
cells paired by their parameters and the cells that had no counterpart."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import DELTA_COLUMNS, Row, ci_num, col, pct, pval, table, value
from septima_sim.report.page import Builder, Chart
from septima_sim.report.sections import own_effect

_PAIRED = ("paired", col("paired", lambda v: "yes" if v else "no (Welch)"))


def _pair(r: Row) -> str:
    """The pair of cells a row compares: one label when both runs' cells read the same."""
    return r["label"] if r["label"] == r["other_label"] else f"{r['label']} vs {r['other_label']}"


_CELL = ("cells", _pair)


def add(b: Builder, run: RunTables, other: RunTables, components: pl.DataFrame | None = None) -> None:
    """``components``: this run's component_impact table when the report already has it (computed once)."""
    cmp = analysis.compare_runs(run, other, b.settings, components)
    sec = b.section(
        "compare",
        f"Compared with {other.path.name}",
        f"delta = this run ({run.path.name}) − the other run ({other.path.name}), in every table and chart below. "
        "Cells are paired by their parameters (players, mode, modules, lineup, Omen deck, and the override values "
        "both runs have); within a pair, games with the same index and seed are paired (McNemar / Wilcoxon, "
        "t intervals of the per-game differences), otherwise the cells are compared as independent groups "
        "(Welch). Holm-adjusted p-values. Cells without a counterpart are listed at the end.",
    )
    pairs = cmp["pairs"]
    if pairs.height:
        sec.tables.append(
            table(
                "Cells compared",
                pairs,
                [("this run", col("label")), ("the other run", col("other_label"))],
                b.data("compare_pairs", pairs),
            )
        )
    seats = cmp["seats"]
    if not seats.is_empty():
        sec.charts.append(
            Chart(
                "Seat win-rate deltas (this run − the other run)",
                "compare_seats.png",
                charts.forest(
                    [f"{_pair(r)}: {charts.seat_name(r['seat'])}" for r in seats.iter_rows(named=True)],
                    seats["delta"].to_numpy() * 100,
                    seats["lo"].to_numpy() * 100,
                    seats["hi"].to_numpy() * 100,
                    seats["p_adj"].to_numpy() < b.settings.alpha,
                    "Win rate, this run − the other run, by cell and seat",
                    "percentage points",
                ),
            )
        )
        sec.tables.append(
            table(
                "Seat win rates",
                seats.with_columns(metric=pl.lit("won")),
                [
                    _CELL,
                    ("seat", col("seat", charts.seat_name)),
                    ("this run", col("this", pct)),
                    ("other run", col("other", pct)),
                    *DELTA_COLUMNS,
                    _PAIRED,
                ],
                b.data("compare_seats", seats),
                summary=True,
            )
        )
    if not cmp["outcomes"].is_empty():
        sec.tables.append(
            table(
                "Outcomes",
                cmp["outcomes"],
                [
                    _CELL,
                    ("metric", col("metric", lambda v: v.replace("_", " "))),
                    ("this run", lambda r: value(r, "this")),
                    ("other run", lambda r: value(r, "other")),
                    *DELTA_COLUMNS,
                    _PAIRED,
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
    own = own_effect.compare_table(run, other, b.settings)
    sec.tables += [own] if own is not None else []
    unpaired = cmp["unpaired"]
    sec.tables.append(
        table(
            f"Cells without a counterpart ({unpaired.height}; not compared)",
            unpaired,
            [("run", col("run")), ("cell", col("label")), ("games", col("games", "{:,}".format))],
            b.data("compare_unpaired", unpaired),
            summary=True,
        )
    )
