"""Interval estimates, tests and multiple-comparison corrections used by every analysis table.

Every interval of a mean or a proportion is analytic and computed from sufficient statistics (count, sum, sum of
squares) that polars aggregates in one pass, so memory and time do not grow with resamples x games:

- proportions: Wilson score intervals (``wilson``; ``with_wilson`` in ``metrics``);
- means: Student t intervals with the sample variance (``t_interval``, ``mean_ci``);
- paired differences (same seed): the t interval of the mean per-game difference, tested with the exact McNemar
  test for 0/1 outcomes and the Wilcoxon signed-rank test (from the frequency table of the differences) otherwise;
- independent differences: Welch normal intervals (``diff_ci``).

The bootstrap (``bootstrap_replicates``, ``bootstrap_ci``) is kept for statistics with no closed form (spreads,
quantiles); it works in bounded batches and, for large samples, on resamples of a fixed size m whose deviations are
rescaled by sqrt(m / n) (m-out-of-n bootstrap), so its memory and time do not depend on n.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import polars as pl
from scipy import stats

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""
BATCH_ELEMENTS = 2_000_000
"""Bootstrap indices drawn at once (resamples x sample size per batch): about 16 MB."""
MAX_RESAMPLE_SIZE = 50_000
"""Bootstrap resamples larger than this use the m-out-of-n rescaling (m = this)."""


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n trials (NaN, NaN when n is 0); it holds k / n (kept so where
    rounding would put a bound a hair past it, as at 0 of 3)."""
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def t_interval(mean: float, var: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Student t interval of a mean from n, the mean and the sample variance (ddof 1); NaN when n < 2."""
    if n < 2 or mean is None or var is None or not math.isfinite(var):
        return (math.nan, math.nan) if n < 1 or mean is None else (float(mean), float(mean))
    half = float(stats.t.ppf(0.5 + level / 2, n - 1)) * math.sqrt(max(var, 0.0) / n)
    return mean - half, mean + half


def with_t_interval(df: pl.DataFrame, n: str = "n", mean: str = "mean", var: str = "var") -> pl.DataFrame:
    """Add ``lo``/``hi`` (t 95% interval of the mean) from count, mean and sample-variance columns."""
    bounds = [t_interval(m, v, k) for k, m, v in df.select(n, mean, var).iter_rows()]
    return df.with_columns(
        lo=pl.Series([b[0] for b in bounds], dtype=pl.Float64), hi=pl.Series([b[1] for b in bounds], dtype=pl.Float64)
    )


def variance(s: str, ss: str, n: str) -> pl.Expr:
    """Sample variance (ddof 1) from the columns holding the sum, the sum of squares and the count."""
    return (pl.col(ss) - pl.col(s) ** 2 / pl.col(n)) / (pl.col(n) - 1)


def bootstrap_replicates(
    arrays: Sequence[np.ndarray],
    stat: Callable[..., np.ndarray],
    *,
    seed: int = 0,
    resamples: int = 2000,
    max_size: int = MAX_RESAMPLE_SIZE,
) -> np.ndarray:
    """Bootstrap replicates of ``stat`` over paired arrays (resampled with the same indices).

    ``stat`` takes one 2-D array (resamples x size) per input and returns one value per row. Indices are drawn in
    batches of at most ``BATCH_ELEMENTS``; when n exceeds ``max_size`` each resample has size m = ``max_size`` and
    the replicates are rescaled around the full-sample estimate by sqrt(m / n)."""
    n = len(arrays[0])
    m = min(n, max_size)
    rng = np.random.default_rng(seed)
    per_batch = max(1, BATCH_ELEMENTS // m)
    out = []
    for start in range(0, resamples, per_batch):
        idx = rng.integers(0, n, size=(min(per_batch, resamples - start), m))
        out.append(np.asarray(stat(*(a[idx] for a in arrays)), dtype=float))
    reps = np.concatenate(out)
    if m < n:
        full = float(stat(*(a[None, :] for a in arrays))[0])
        reps = full + (reps - full) * math.sqrt(m / n)
    return reps


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    stat: Callable[[np.ndarray], float] = np.mean,
    *,
    seed: int = 0,
    resamples: int = 2000,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``stat`` over ``values`` with a seeded generator (NaN when empty); bounded
    memory (see ``bootstrap_replicates``). Used only where no closed form exists."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return math.nan, math.nan
    if x.size == 1:
        return float(x[0]), float(x[0])

    def rows(sample: np.ndarray) -> np.ndarray:
        return sample.mean(axis=1) if stat is np.mean else np.apply_along_axis(stat, 1, sample)

    boot = bootstrap_replicates([x], rows, seed=seed, resamples=resamples)
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


EXACT_WILCOXON = 50
"""Up to this many non-zero differences the Wilcoxon test is scipy's (exact when there are no ties)."""


def wilcoxon_p(diffs: Sequence[float] | np.ndarray) -> float:
    """Wilcoxon signed-rank test of paired differences (1.0 when every difference is zero)."""
    d = np.asarray(diffs, dtype=float)
    if d.size == 0:
        return math.nan
    if not np.any(d):
        return 1.0
    return float(stats.wilcoxon(d, zero_method="wilcox").pvalue)


def wilcoxon_p_counts(values: Sequence[float], counts: Sequence[int]) -> float:
    """Wilcoxon signed-rank test (zeros dropped) from the frequency table of the paired differences.

    Small samples expand the table and use scipy (exact without ties); larger ones use the normal approximation
    with the tie correction, as scipy does, so the memory is that of the table."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=np.int64)
    keep = (v != 0) & (c > 0)
    v, c = v[keep], c[keep]
    n = int(c.sum())
    if n == 0:
        return 1.0 if len(values) else math.nan
    if n <= EXACT_WILCOXON:
        return wilcoxon_p(np.repeat(v, c))
    mags = np.unique(np.abs(v))
    t = np.array([c[np.abs(v) == a].sum() for a in mags])
    rank = np.cumsum(t) - (t - 1) / 2  # mid-rank of each |difference|
    positive = np.array([c[v == a].sum() for a in mags])
    w = float((positive * rank).sum())
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - float((t**3 - t).sum()) / 48
    if var <= 0:
        return 1.0
    return float(2 * stats.norm.sf(abs(w - mean) / math.sqrt(var)))


def diff_ci(
    mean_a: float, var_a: float, n_a: float, mean_b: float, var_b: float, n_b: float
) -> tuple[float, float, float]:
    """Difference of two independent means b - a with a normal (Welch) 95% interval and its p-value."""
    if n_a < 2 or n_b < 2:
        return math.nan, math.nan, math.nan
    delta = mean_b - mean_a
    se = math.sqrt(var_a / n_a + var_b / n_b)
    return delta - Z95 * se, delta + Z95 * se, normal_p(delta, se)
