"""Modules on vs off: paired comparisons of the same seeds with each expansion module off and on."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.analysis.expansions import Module, title
from septima_sim.report import charts
from septima_sim.report.fmt import DELTA_COLUMNS, RATE_METRICS, col, table, value
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> pl.DataFrame:
    mods = analysis.module_effects(run.games, b.settings, run.override_axes, run.toggled)
    if mods.is_empty():
        return mods
    names = [title(run.modules, m) for m in mods["module"].unique(maintain_order=True)]
    sec = b.section(
        "modules",
        "Modules on vs off",
        f"{' and '.join(names)}: the same seeds played with the module "
        "off and on (cells equal in every other setting), so each game is compared with its twin. "
        "Intervals: t intervals of the mean paired difference; p: McNemar (0/1 outcomes) or Wilcoxon "
        "signed-rank, Holm-adjusted. Rates in percentage points.",
    )
    sec.charts.append(Chart("Module effects", "modules.png", _chart(mods, b.settings.alpha, run.modules)))
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


def _chart(mods: pl.DataFrame, alpha: float, modules: tuple[Module, ...]) -> bytes:
    """One panel per metric (points, decisions and rates each on their own axis); rows named by module, player
    count and the setting that makes them distinct."""
    panels = []
    for (metric,), grp in mods.group_by("metric", maintain_order=True):
        scale = 100.0 if metric in RATE_METRICS else 1.0
        unit = "percentage points" if metric in RATE_METRICS else ("decisions" if metric == "decisions" else "points")
        labels = [
            f"{title(modules, m)} {n}p ({s})" if s else f"{title(modules, m)} {n}p"
            for m, n, s in zip(grp["module"], grp["players"], _distinct(grp["setting"].to_list()), strict=True)
        ]
        panels.append(
            (
                f"{str(metric).replace('_', ' ')}: on minus off ({unit})",
                labels,
                grp["delta"].to_numpy() * scale,
                grp["lo"].to_numpy() * scale,
                grp["hi"].to_numpy() * scale,
                grp["p_adj"].to_numpy() < alpha,
            )
        )
    return charts.effect_panels(panels, "Module on minus off (paired by seed)")


def _distinct(settings: list[str]) -> list[str]:
    """Each setting ("k=v, k=v") without the parts every row shares, so labels name only what tells rows apart."""
    parts = [s.split(", ") if s else [] for s in settings]
    common = set.intersection(*(set(p) for p in parts)) if parts else set()
    return [", ".join(x for x in p if x not in common) for p in parts]
