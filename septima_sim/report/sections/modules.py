"""Modules on vs off: paired comparisons of the same seeds with each expansion module off and on."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import DELTA_COLUMNS, RATE_METRICS, col, table, value
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> pl.DataFrame:
    mods = analysis.module_effects(run.games, b.settings, run.override_axes)
    if mods.is_empty():
        return mods
    sec = b.section(
        "modules",
        "Modules on vs off",
        "Shapeshifting and Omens: the same seeds played with the module "
        "off and on (cells equal in every other setting), so each game is compared with its twin. "
        "Intervals: t intervals of the mean paired difference; p: McNemar (0/1 outcomes) or Wilcoxon "
        "signed-rank, Holm-adjusted. Rates in percentage points.",
    )
    labels = [f"{m} {n}p: {x.replace('_', ' ')}" for m, n, x in mods.select("module", "players", "metric").iter_rows()]
    scale = mods["metric"].is_in(list(RATE_METRICS)).cast(pl.Float64).to_numpy() * 99 + 1
    sec.charts.append(
        Chart(
            "Module effects",
            "modules.png",
            charts.forest(
                labels,
                mods["delta"].to_numpy() * scale,
                mods["lo"].to_numpy() * scale,
                mods["hi"].to_numpy() * scale,
                mods["p_adj"].to_numpy() < b.settings.alpha,
                "Module on minus off (paired by seed)",
                "difference (points; rates in percentage points)",
            ),
        )
    )
    sec.tables.append(
        table(
            "Paired comparisons",
            mods,
            [
                ("module", col("module")),
                ("players", col("players")),
                ("other settings", col("setting")),
                ("metric", col("metric", lambda v: v.replace("_", " "))),
                ("pairs", col("pairs", lambda v: f"{int(v):,}")),
                ("off", lambda r: value(r, "off")),
                ("on", lambda r: value(r, "on")),
                *DELTA_COLUMNS,
            ],
            b.data("modules", mods),
        )
    )
    return mods
