"""Contrasts between settings: the expansion modules on vs off (paired by seed), persona lineups and solo games."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from septima_sim.analysis.data import Settings
from septima_sim.analysis.metrics import seat_balance, with_wilson
from septima_sim.analysis.stats import bootstrap_ci, diff_ci, holm, mcnemar_p, wilcoxon_p

PAIRED_METRICS: tuple[tuple[str, bool], ...] = (
    ("winning_score", False),
    ("margin", False),
    ("decisions", False),
    ("tie", True),
    ("first_player_won", True),
)
"""Per-game metrics compared between settings; the flag marks 0/1 outcomes (McNemar instead of Wilcoxon)."""


def contrast(a: np.ndarray, b: np.ndarray, *, paired: bool, binary: bool, settings: Settings) -> dict[str, float]:
    """Mean of ``b`` minus mean of ``a`` with a 95% interval and p-value.

    Paired: bootstrap interval of the mean difference, McNemar (0/1) or Wilcoxon signed-rank p. Unpaired: Welch."""
    a, b = a.astype(float), b.astype(float)
    out = {"n_a": float(a.size), "n_b": float(b.size), "a": float(a.mean()), "b": float(b.mean())}
    if paired:
        d = b - a
        lo, hi = bootstrap_ci(d, seed=settings.seed, resamples=settings.resamples)
        p = mcnemar_p(int(np.sum(d < 0)), int(np.sum(d > 0))) if binary else wilcoxon_p(d)
    else:
        lo, hi, p = diff_ci(a.mean(), a.var(ddof=1), a.size, b.mean(), b.var(ddof=1), b.size)
    return {**out, "delta": out["b"] - out["a"], "lo": lo, "hi": hi, "p": p}


def per_game(games: pl.DataFrame, players: pl.DataFrame) -> pl.DataFrame:
    """Games with ``first_player_won`` (the start player is among the winners) as a 0/1 column."""
    first = players.filter(pl.col("order") == 0).select("cell_id", "game_index", first_player_won=pl.col("won"))
    return games.join(first, on=["cell_id", "game_index"], how="left")


def module_effects(
    games: pl.DataFrame, players: pl.DataFrame, settings: Settings, overrides: Sequence[str] = ()
) -> pl.DataFrame:
    """Shapeshifting and Omens on vs off: for each module the run varies, pairs of cells equal in every other axis,
    games paired by index (same seed); per-game metrics compared with Holm-adjusted p-values. ``overrides`` names
    the run's override axes (columns of ``games``)."""
    g = per_game(games, players)
    rows: list[dict[str, object]] = []
    for module in ("shapeshifting", "omens"):
        if g[module].n_unique() < 2:
            continue
        others = [c for c in ("players", "mode", "shapeshifting", "omens", "lineup") if c != module]
        others += list(overrides) + ([] if module == "omens" else ["omen_deck"])
        off = g.filter(~pl.col(module))
        on = g.filter(pl.col(module))
        pairs = off.join(on, on=[*others, "game_index", "seed"], suffix="_on")
        for key, grp in pairs.group_by(*others, maintain_order=True):
            setting = dict(zip(others, key, strict=True))
            for metric, binary in PAIRED_METRICS:
                res = contrast(
                    grp[metric].to_numpy(),
                    grp[f"{metric}_on"].to_numpy(),
                    paired=True,
                    binary=binary,
                    settings=settings,
                )
                other = "omens" if module == "shapeshifting" else "shapeshifting"
                head = {
                    "module": module,
                    "players": setting["players"],
                    "other_module_on": bool(setting[other]) if g[other].n_unique() > 1 else None,
                    "setting": _label(setting),
                    "metric": metric,
                }
                rows.append(head | res)
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).rename({"a": "off", "b": "on", "n_a": "pairs"}).drop("n_b")
    table = table.with_columns(p_adj=pl.Series(holm(table["p"].fill_nan(1.0).to_list()), dtype=pl.Float64))
    return table.select(
        "module",
        "players",
        "other_module_on",
        "setting",
        "metric",
        "pairs",
        "off",
        "on",
        "delta",
        "lo",
        "hi",
        "p",
        "p_adj",
    )


def _label(setting: dict[str, object]) -> str:
    """A short readable name for a group of axis values."""
    return ", ".join(f"{k}={v}" for k, v in setting.items() if k != "players")


def persona_matrix(players: pl.DataFrame) -> pl.DataFrame:
    """Win rate of each persona in each lineup and player count, with Wilson intervals and the fair share."""
    multi = players.filter(pl.col("players") > 1)
    table = (
        multi.group_by("players", "lineup", "policy")
        .agg(games=pl.len(), wins=pl.col("won").cast(pl.Int64).sum())
        .with_columns(fair=1.0 / pl.col("players").cast(pl.Float64))
        .sort("players", "lineup", "policy")
    )
    return with_wilson(table).rename({"rate": "win_rate"}).with_columns(delta=pl.col("win_rate") - pl.col("fair"))


def seat_across_lineups(players: pl.DataFrame, settings: Settings) -> pl.DataFrame:
    """Turn-order win rates per lineup: does the seat finding hold whoever sits at the table?"""
    return seat_balance(players, settings, by=("players", "lineup"), position="order")


def has_personas(players: pl.DataFrame) -> bool:
    return players["policy"].n_unique() > 1 or players["lineup"].n_unique() > 1


def solo_summary(games: pl.DataFrame, settings: Settings) -> dict[str, pl.DataFrame]:
    """Solo games: win rate per module setting against the target band, Tribulations met, the Widow's Wisdom."""
    solo = games.filter(pl.col("solo"))
    by: Sequence[str] = ("cell_id",)
    lo, hi = settings.solo_band
    win = with_wilson(
        solo.group_by(*by).agg(games=pl.len(), wins=pl.col("solo_won").cast(pl.Int64).sum()).sort(*by)
    ).with_columns(
        verdict=pl.when(pl.col("hi") < lo)
        .then(pl.lit("too hard"))
        .when(pl.col("lo") > hi)
        .then(pl.lit("too easy"))
        .when((pl.col("lo") >= lo) & (pl.col("hi") <= hi))
        .then(pl.lit("ok"))
        .otherwise(pl.lit("unclear"))
    )
    out = {
        "win": win,
        "tribulations": solo.group_by("tribulations_met").agg(games=pl.len()).sort("tribulations_met"),
        "widow": solo.group_by("widow_wisdom").agg(games=pl.len()).sort("widow_wisdom"),
    }
    if "tribulations_failed" in solo.columns:
        out["failed"] = (
            solo.select(pl.col("tribulations_failed").explode().drop_nulls())
            .group_by("tribulations_failed")
            .agg(games=pl.len())
            .with_columns(share=pl.col("games") / max(solo.height, 1))
            .sort("games", "tribulations_failed", descending=[True, False])
        )
    return out
