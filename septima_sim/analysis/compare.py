"""Two runs side by side: the same tables as deltas (other minus this run), paired by seed where games match."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import RunTables, Settings
from septima_sim.analysis.metrics import wisdom_sources
from septima_sim.analysis.modules import PAIRED_METRICS, contrast, per_game
from septima_sim.analysis.stats import Z95, holm, normal_p

_GAME = ["cell_id", "game_index", "seed"]


def _paired_games(a: RunTables, b: RunTables) -> pl.DataFrame:
    """Games of ``a`` joined to the games of ``b`` with the same cell, index and seed."""
    return per_game(a.games, a.players).join(per_game(b.games, b.players), on=_GAME, suffix="_b")


def compare_seats(a: RunTables, b: RunTables, settings: Settings) -> pl.DataFrame:
    """Win rate per cell and seat in both runs: delta with 95% interval, paired (McNemar) on shared seeds."""
    keys = ["cell_id", "players", "seat"]
    pa = a.players.filter(pl.col("players") > 1).select(*_GAME, *keys[1:], "won")
    pb = b.players.filter(pl.col("players") > 1).select(*_GAME, "seat", won_b="won")
    paired = pa.join(pb, on=[*_GAME, "seat"])
    rows = []
    for key, grp in pa.group_by(keys, maintain_order=True):
        both = paired.filter(*(pl.col(k) == v for k, v in zip(keys, key, strict=True)))
        if both.height:
            res = contrast(
                both["won"].to_numpy(), both["won_b"].to_numpy(), paired=True, binary=True, settings=settings
            )
        else:
            other = pb.filter(pl.col("cell_id") == key[0], pl.col("seat") == key[2])
            if not other.height:
                continue
            res = contrast(
                grp["won"].to_numpy(), other["won_b"].to_numpy(), paired=False, binary=True, settings=settings
            )
        rows.append(dict(zip(keys, key, strict=True)) | res | {"paired": bool(both.height)})
    return _adjusted(rows)


def compare_outcomes(a: RunTables, b: RunTables, settings: Settings) -> pl.DataFrame:
    """Per cell and per-game metric: delta of the mean between runs, paired by seed where the games match."""
    paired = _paired_games(a, b)
    ga, gb = per_game(a.games, a.players), per_game(b.games, b.players)
    rows = []
    for (cell, players), grp in ga.group_by("cell_id", "players", maintain_order=True):
        both = paired.filter(pl.col("cell_id") == cell)
        other = gb.filter(pl.col("cell_id") == cell)
        if not other.height:
            continue
        for metric, binary in PAIRED_METRICS:
            if both.height:
                res = contrast(
                    both[metric].to_numpy(),
                    both[f"{metric}_b"].to_numpy(),
                    paired=True,
                    binary=binary,
                    settings=settings,
                )
            else:
                res = contrast(
                    grp[metric].to_numpy(), other[metric].to_numpy(), paired=False, binary=binary, settings=settings
                )
            rows.append({"cell_id": cell, "players": players, "metric": metric} | res | {"paired": bool(both.height)})
    return _adjusted(rows)


def _adjusted(rows: list[dict[str, object]]) -> pl.DataFrame:
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).rename({"a": "this", "b": "other"})
    return table.with_columns(p_adj=pl.Series(holm(table["p"].fill_nan(1.0).to_list()), dtype=pl.Float64))


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
