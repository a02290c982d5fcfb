"""Interval estimates, tests and multiple-comparison corrections used by every analysis table.

Proportions get Wilson intervals, means bootstrap percentile intervals (seeded numpy generator, so the same data gives
the same interval), paired comparisons by seed use the exact sign (McNemar) test for 0/1 outcomes and the Wilcoxon
signed-rank test for scores.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from scipy import stats

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (NaN, NaN when n is 0)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    stat: Callable[[np.ndarray], float] = np.mean,
    *,
    seed: int = 0,
    resamples: int = 2000,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``stat`` over ``values`` with a seeded generator (NaN when empty)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return math.nan, math.nan
    if x.size == 1:
        return float(x[0]), float(x[0])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, size=(resamples, x.size))
    boot = np.apply_along_axis(stat, 1, x[idx]) if stat is not np.mean else x[idx].mean(axis=1)
    tail = (1 - level) / 2
    lo, hi = np.quantile(boot, [tail, 1 - tail])
    return float(lo), float(hi)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (family-wise error), in the input order."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out.tolist()


def bh(pvalues: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg adjusted p-values (false discovery rate), in the input order."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    ranked = p[order] * m / np.arange(1, m + 1)
    adjusted = np.minimum(1.0, np.minimum.accumulate(ranked[::-1])[::-1])
    out = np.empty(m)
    out[order] = adjusted
    return out.tolist()


def binom_p(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial test of k successes in n trials against rate p."""
    return float(stats.binomtest(int(k), int(n), p).pvalue) if n > 0 else math.nan


def normal_p(delta: float, se: float) -> float:
    """Two-sided p-value of a normal z statistic delta / se."""
    if not se > 0:
        return math.nan
    return float(2 * stats.norm.sf(abs(delta) / se))


def mcnemar_p(only_a: int, only_b: int) -> float:
    """Exact McNemar test on the discordant pairs of a paired 0/1 comparison."""
    n = only_a + only_b
    return binom_p(only_a, n, 0.5) if n else 1.0


def wilcoxon_p(diffs: Sequence[float] | np.ndarray) -> float:
    """Wilcoxon signed-rank test of paired differences (1.0 when every difference is zero)."""
    d = np.asarray(diffs, dtype=float)
    if d.size == 0:
        return math.nan
    if not np.any(d):
        return 1.0
    return float(stats.wilcoxon(d, zero_method="wilcox").pvalue)


def diff_ci(mean_a: float, var_a: float, n_a: int, mean_b: float, var_b: float, n_b: int) -> tuple[float, float, float]:
    """Difference of two independent means b - a with a normal (Welch) 95% interval and its p-value."""
    if n_a < 2 or n_b < 2:
        return math.nan, math.nan, math.nan
    delta = mean_b - mean_a
    se = math.sqrt(var_a / n_a + var_b / n_b)
    return delta - Z95 * se, delta + Z95 * se, normal_p(delta, se)
