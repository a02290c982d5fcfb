"""Differences between two settings of the same games: paired by seed (per-game differences) or independent.

A paired table is aggregated by polars in one pass into sufficient statistics per group and metric (count, sums of
both sides, sum and sum of squares of the per-game difference d = b - a, the number of positive and negative d) and
the frequency table of d; the interval is the t interval of the mean of d, the p-value the exact McNemar test for 0/1
outcomes or the Wilcoxon signed-rank test otherwise. Independent groups get a Welch interval and z test."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.data import Frame, collect, collect_all, lazy
from septima_sim.analysis.stats import diff_ci, mcnemar_p, t_interval, wilcoxon_p_counts

F64 = pl.Float64


def _long(frame: Frame, keys: Sequence[str], metrics: Sequence[tuple[str, bool]], suffix: str) -> pl.LazyFrame:
    """One row per (group, metric, game): a, b and d = b - a (rows with a null side dropped)."""
    parts = [
        lazy(frame).select(
            *keys,
            metric=pl.lit(name),
            binary=pl.lit(binary),
            a=pl.col(name).cast(F64),
            b=pl.col(f"{name}{suffix}").cast(F64),
        )
        for name, binary in metrics
    ]
    return pl.concat(parts).drop_nulls(["a", "b"]).with_columns(d=pl.col("b") - pl.col("a"))


def paired_table(
    frame: Frame, keys: Sequence[str], metrics: Sequence[tuple[str, bool]], suffix: str = "_b"
) -> pl.DataFrame:
    """Per group and metric of a table holding each metric for both sides (``m`` and ``m<suffix>``) of the same game:
    n_a, n_b (pairs), a, b (means), delta, lo, hi (t 95% interval of the mean difference) and p."""
    group = [*keys, "metric"]
    long = _long(frame, keys, metrics, suffix)
    d = pl.col("d")
    sums, freq = collect_all(
        long.group_by(group).agg(
            n=pl.len(),
            binary=pl.col("binary").first(),
            sa=pl.col("a").sum(),
            sb=pl.col("b").sum(),
            sd=d.sum(),
            sdd=(d * d).sum(),
            pos=(d > 0).sum(),
            neg=(d < 0).sum(),
        ),
        long.filter(~pl.col("binary")).group_by(*group, "d").agg(count=pl.len()),
    )
    tables = {k: (g["d"].to_list(), g["count"].to_list()) for k, g in freq.partition_by(group, as_dict=True).items()}
    rows = []
    for r in sums.iter_rows(named=True):
        n = r["n"]
        mean = r["sd"] / n
        var = (r["sdd"] - r["sd"] ** 2 / n) / (n - 1) if n > 1 else float("nan")
        lo, hi = t_interval(mean, var, n)
        key = tuple(r[k] for k in group)
        p = mcnemar_p(r["neg"], r["pos"]) if r["binary"] else wilcoxon_p_counts(*tables.get(key, ([], [])))
        head = {k: r[k] for k in group}
        rows.append(head | {"n_a": float(n), "n_b": float(n), "a": r["sa"] / n, "b": r["sb"] / n}
                    | {"delta": mean, "lo": lo, "hi": hi, "p": p})  # fmt: skip
    return pl.DataFrame(rows)


def summaries(frame: Frame, keys: Sequence[str], metrics: Sequence[str]) -> pl.DataFrame:
    """Per group and metric: n, mean and sample variance (for independent comparisons)."""
    parts = [
        lazy(frame).select(*keys, metric=pl.lit(name), x=pl.col(name).cast(F64)).drop_nulls("x") for name in metrics
    ]
    return collect(
        pl.concat(parts).group_by(*keys, "metric").agg(n=pl.len(), mean=pl.col("x").mean(), var=pl.col("x").var())
    )


def independent_row(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    """Welch difference b - a from two summary rows (n, mean, var)."""
    lo, hi, p = diff_ci(a["mean"], a["var"], a["n"], b["mean"], b["var"], b["n"])
    return {"n_a": float(a["n"]), "n_b": float(b["n"]), "a": a["mean"], "b": b["mean"]} | {
        "delta": b["mean"] - a["mean"],
        "lo": lo,
        "hi": hi,
        "p": p,
    }
