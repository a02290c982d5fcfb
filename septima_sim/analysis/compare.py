"""Two runs side by side: the same tables as deltas (other minus this run), paired by seed where games match."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import RunTables, Settings, cell_columns, collect, in_cell
from septima_sim.analysis.metrics import wisdom_sources
from septima_sim.analysis.modules import PAIRED_METRICS, per_game
from septima_sim.analysis.paired import independent, paired, summaries
from septima_sim.analysis.stats import Z95, holm, normal_p

_GAME = ["cell_id", "game_index", "seed"]


def _contrasts(
    pa: pl.LazyFrame, pb: pl.LazyFrame, keys: Sequence[str], metrics: Sequence[tuple[str, bool]]
) -> list[dict[str, object]]:
    """Per group (``keys``, starting with cell_id and players) and metric of run ``a``: paired deltas on the games
    both runs share (same cell, index and seed; one cell at a time), else independent (Welch) deltas against the
    same group of run ``b``; groups missing from ``b`` are left out. ``pb`` names its metric columns ``<m>_b``."""
    names = [m for m, _ in metrics]
    sub = [k for k in keys if k not in ("cell_id", "players")]
    sa = summaries(pa, keys, names)
    sb = summaries(pb, [k for k in keys if k != "players"], [f"{m}_b" for m in names])
    other = {tuple(r[k] for k in (*[k for k in keys if k != "players"], "metric")): r for r in sb.iter_rows(named=True)}
    rows: list[dict[str, object]] = []
    for cell in sa["cell_id"].unique().sort().to_list():
        joined = collect(
            in_cell(pa, cell)
            .drop(cell_columns(pa))
            .join(in_cell(pb, cell).drop("cell_id", "players", *cell_columns(pb)), on=["game_index", "seed", *sub])
        )
        for r in sa.filter(pl.col("cell_id") == cell).iter_rows(named=True):
            head = {k: r[k] for k in (*keys, "metric")}
            binary = dict(metrics)[r["metric"]]
            group = joined.filter(*(pl.col(k) == r[k] for k in sub)) if sub else joined
            if group.height:
                m = r["metric"]
                rows.append(
                    head | paired(group[m].to_numpy(), group[f"{m}_b"].to_numpy(), binary=binary) | {"paired": True}
                )
                continue
            match = other.get((cell, *(r[k] for k in sub), f"{r['metric']}_b"))
            if match is not None:
                rows.append(head | independent(r, match) | {"paired": False})
    return rows


def compare_seats(a: RunTables, b: RunTables, settings: Settings) -> pl.DataFrame:
    """Win rate per cell and seat in both runs: delta with 95% interval, paired (McNemar) on shared seeds."""
    keys = ["cell_id", "players", "seat"]
    pa = a.seated.filter(pl.col("players") > 1).select(*_GAME, *cell_columns(a.players), *keys[1:], "won")
    pb = b.seated.filter(pl.col("players") > 1).select(*_GAME, *cell_columns(b.players), *keys[1:], won_b="won")
    table = _adjusted(_contrasts(pa, pb, keys, [("won", True)]), keys)
    return table.drop("metric", strict=False)


def compare_outcomes(a: RunTables, b: RunTables, settings: Settings) -> pl.DataFrame:
    """Per cell and per-game metric: delta of the mean between runs, paired by seed where the games match."""
    names = [m for m, _ in PAIRED_METRICS]
    pa = per_game(a.games).select(*_GAME, *cell_columns(a.games), "players", *names)
    pb = per_game(b.games).select(
        *_GAME, *cell_columns(b.games), "players", *[pl.col(m).alias(f"{m}_b") for m in names]
    )
    return _adjusted(_contrasts(pa, pb, ["cell_id", "players"], PAIRED_METRICS), ["cell_id", "players"])


def _adjusted(rows: list[dict[str, object]], keys: Sequence[str]) -> pl.DataFrame:
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).rename({"a": "this", "b": "other"}).sort(*keys, "metric")
    table = table.with_columns(p_adj=pl.Series(holm(table["p"].fill_nan(1.0).to_list()), dtype=pl.Float64))
    return table


def compare_sources(a: RunTables, b: RunTables) -> pl.DataFrame:
    """Mean Wisdom per source, player count and persona in both runs and the difference."""
    keys = ["players", "policy", "source"]
    sa = wisdom_sources(a.players).select(*keys, this="mean")
    sb = wisdom_sources(b.players).select(*keys, other="mean")
    return sa.join(sb, on=keys).with_columns(delta=pl.col("other") - pl.col("this")).sort(keys)


def compare_components(a: RunTables, b: RunTables, settings: Settings) -> pl.DataFrame:
    """Win-rate and Wisdom effects of each component in both runs, the change and its 95% interval."""
    ca, cb = component_impact(a.players, a.games, settings), component_impact(b.players, b.games, settings)
    if ca.is_empty() or cb.is_empty():
        return pl.DataFrame()
    cols = ["kind", "item", "win_effect", "win_lo", "win_hi", "wisdom_effect", "wisdom_lo", "wisdom_hi"]
    joined = ca.select(cols).join(cb.select(cols), on=["kind", "item"], suffix="_other")
    exprs = []
    for m in ("win", "wisdom"):
        var = ((pl.col(f"{m}_hi") - pl.col(f"{m}_lo")) / (2 * Z95)) ** 2
        var_other = ((pl.col(f"{m}_hi_other") - pl.col(f"{m}_lo_other")) / (2 * Z95)) ** 2
        delta = pl.col(f"{m}_effect_other") - pl.col(f"{m}_effect")
        se = (var + var_other).sqrt()
        exprs += [
            delta.alias(f"{m}_change"),
            (delta - Z95 * se).alias(f"{m}_change_lo"),
            (delta + Z95 * se).alias(f"{m}_change_hi"),
            se.alias(f"_{m}_se"),
        ]
    out = joined.select("kind", "item", *exprs)
    p = [normal_p(d, s) for d, s in out.select("win_change", "_win_se").iter_rows()]
    return (
        out.with_columns(p=pl.Series(p, dtype=pl.Float64))
        .drop("_win_se", "_wisdom_se")
        .sort(pl.col("win_change").abs(), descending=True)
    )


def compare_runs(a: RunTables, b: RunTables, settings: Settings) -> dict[str, pl.DataFrame]:
    """Every comparison table between run ``a`` (this) and run ``b`` (other); deltas are other minus this."""
    return {
        "seats": compare_seats(a, b, settings),
        "outcomes": compare_outcomes(a, b, settings),
        "sources": compare_sources(a, b),
        "components": compare_components(a, b, settings),
    }
