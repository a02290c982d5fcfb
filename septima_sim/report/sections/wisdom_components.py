"""Wisdom per game by component: what each witch, building, spell, action, Omen... gave its owner, from the players
table's ``components`` column (Wisdom per cause id)."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis import RunTables
from septima_sim.analysis.data import collect, lazy
from septima_sim.report.fmt import col, num, pct, table
from septima_sim.report.page import Builder

TOP = 40
"""Rows shown in the page (the CSV holds every component)."""


def per_component(players: pl.LazyFrame) -> pl.DataFrame | None:
    """Per player count and component: player-games where it changed Wisdom (`n`), their share, the mean Wisdom it
    gave when it did and over all player-games; None for a run without the column."""
    if "components" not in lazy(players).collect_schema().names():
        return None
    totals = lazy(players).group_by("players").agg(games=pl.len())
    long = (
        lazy(players)
        .select("players", "components")
        .explode("components")
        .drop_nulls("components")
        .unnest("components")
        .group_by("players", "component")
        .agg(n=pl.len(), wisdom=pl.col("wisdom").cast(pl.Int64).sum())
        .join(totals, on="players")
        .with_columns(
            share=pl.col("n") / pl.col("games"),
            mean_when=pl.col("wisdom") / pl.col("n"),
            per_game=pl.col("wisdom") / pl.col("games"),
        )
    )
    return collect(long).sort(["players", pl.col("per_game").abs()], descending=[False, True])


def add(b: Builder, run: RunTables) -> None:
    df = per_component(run.players)
    if df is None or df.is_empty():
        return
    sec = b.section(
        "wisdom-components",
        "Wisdom per game by component",
        "Net Wisdom each component or rule gave the player who owned or used it (the players table's components "
        "column: witch:<id>, building:<id>, spell:<id>, action:<card>, omen:<id>/<half>, end:<scoring step>, ...), "
        "per player-game and, among the player-games where it changed Wisdom at all, per such game.",
    )
    shown = df.group_by("players", maintain_order=True).head(TOP)
    sec.tables.append(
        table(
            f"Wisdom by component (top {TOP} per player count by |Wisdom per player-game|)",
            shown,
            [
                ("players", col("players")),
                ("component", col("component")),
                ("Wisdom per player-game", col("per_game", lambda v: num(v, 2))),
                ("share of player-games", col("share", pct)),
                ("Wisdom when it gave any", col("mean_when", lambda v: num(v, 2))),
            ],
            b.data("wisdom_components", df),
        )
    )
