"""Differences between two settings of the same games: paired by seed (per-game differences) or independent.

Paired comparisons are made one pair of cells at a time (the games of two cells joined by index and seed, a few
narrow columns), so memory is bounded by the largest cell, never by the run. The interval is the t interval of the
mean per-game difference d = b - a, the p-value the exact McNemar test for 0/1 outcomes or the Wilcoxon signed-rank
test (from the frequency table of d) otherwise. Independent groups get a Welch interval and z test from per-group
count, mean and variance aggregated by polars."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from septima_sim.analysis.data import Frame, collect, lazy
from septima_sim.analysis.stats import diff_ci, mcnemar_p, t_interval, wilcoxon_p_counts


def paired(a: np.ndarray, b: np.ndarray, *, binary: bool) -> dict[str, float]:
    """Mean of ``b`` minus mean of ``a`` over paired games: n_a, n_b, a, b, delta, lo, hi (t 95%), p."""
    a, b = a.astype(float), b.astype(float)
    keep = ~(np.isnan(a) | np.isnan(b))
    a, b = a[keep], b[keep]
    n = a.size
    if n == 0:
        nan = math.nan
        return {"n_a": 0.0, "n_b": 0.0, "a": nan, "b": nan, "delta": nan, "lo": nan, "hi": nan, "p": nan}
    d = b - a
    mean = float(d.mean())
    lo, hi = t_interval(mean, float(d.var(ddof=1)) if n > 1 else math.nan, n)
    if binary:
        p = mcnemar_p(int((d < 0).sum()), int((d > 0).sum()))
    else:
        values, counts = np.unique(d, return_counts=True)
        p = wilcoxon_p_counts(values.tolist(), counts.tolist())
    return {"n_a": float(n), "n_b": float(n), "a": float(a.mean()), "b": float(b.mean())} | {
        "delta": mean,
        "lo": lo,
        "hi": hi,
        "p": p,
    }


def summaries(frame: Frame, keys: Sequence[str], metrics: Sequence[str]) -> pl.DataFrame:
    """Per group and metric: n, mean and sample variance (for independent comparisons)."""
    parts = [
        lazy(frame).select(*keys, metric=pl.lit(name), x=pl.col(name).cast(pl.Float64)).drop_nulls("x")
        for name in metrics
    ]
    return collect(
        pl.concat(parts).group_by(*keys, "metric").agg(n=pl.len(), mean=pl.col("x").mean(), var=pl.col("x").var())
    )


def independent(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    """Welch difference b - a from two summary rows (n, mean, var)."""
    lo, hi, p = diff_ci(a["mean"], a["var"], a["n"], b["mean"], b["var"], b["n"])
    return {"n_a": float(a["n"]), "n_b": float(b["n"]), "a": a["mean"], "b": b["mean"]} | {
        "delta": b["mean"] - a["mean"],
        "lo": lo,
        "hi": hi,
        "p": p,
    }
