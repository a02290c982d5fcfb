"""Where Wisdom comes from: mean Wisdom per source, player count and persona."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import col, num, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> None:
    src = analysis.wisdom_sources(run.players)
    sec = b.section(
        "sources",
        "Where Wisdom comes from",
        "Mean Wisdom per player by source (the sources sum to the "
        "final Wisdom; penalties from overflow and capture are negative).",
    )
    sec.charts.append(Chart("Wisdom by source", "wisdom_sources.png", charts.stacked_sources(src)))
    pivot = src.with_columns(pl.col("mean").round(2)).pivot("source", index=["players", "policy", "n"], values="mean")
    names = [c for c in pivot.columns if c not in ("players", "policy", "n")]
    sec.tables.append(
        table(
            "Mean Wisdom by source",
            pivot,
            [
                ("players", col("players")),
                ("persona", col("policy")),
                *[(n, col(n, lambda v: num(v, 2))) for n in names],
            ],
            b.data("wisdom_sources", src),
        )
    )
