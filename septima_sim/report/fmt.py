"""Number formatting for report tables: percentages, intervals, p-values, and the shared column sets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import polars as pl

from septima_sim.report.page import Table

Row = dict[str, Any]
Column = tuple[str, Callable[[Row], str]]


def pct(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or x != x else f"{x * 100:.{digits}f}%"


def num(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None or x != x else f"{x:,.{digits}f}"


def ci_pct(r: Row, rate: str = "win_rate", lo: str = "lo", hi: str = "hi") -> str:
    if r[lo] is None or r[lo] != r[lo]:
        return pct(r[rate])
    return f"{pct(r[rate])} [{r[lo] * 100:.1f}, {r[hi] * 100:.1f}]"


def ci_num(r: Row, value: str = "mean", lo: str = "lo", hi: str = "hi", scale: float = 1.0, sign: bool = False) -> str:
    fmt = "+,.1f" if sign else ",.1f"
    v = r[value]
    if v is None or v != v:
        return "n/a"
    if r[lo] is None or r[lo] != r[lo]:
        return f"{v * scale:{fmt}}"
    return f"{v * scale:{fmt}} [{r[lo] * scale:.1f}, {r[hi] * scale:.1f}]"


def pval(x: float | None) -> str:
    return "n/a" if x is None or x != x else ("<0.001" if x < 0.001 else f"{x:.3f}")


def table(
    title: str, df: pl.DataFrame, columns: list[Column], csv: str | None = None, *, summary: bool = False
) -> Table:
    """Format ``df`` row by row with (header, formatter) pairs; ``summary``: shown in summary.md too."""
    rows = [[f(r) for _, f in columns] for r in df.iter_rows(named=True)]
    return Table(title, [h for h, _ in columns], rows, csv, summary)


def col(name: str, fmt: Callable[[Any], str] = str) -> Callable[[Row], str]:
    return lambda r: fmt(r[name])


SEAT_COLUMNS: list[Column] = [
    ("games", col("games", lambda v: f"{v:,}")),
    ("win rate [95% CI]", ci_pct),
    ("fair", col("fair", pct)),
    ("vs fair (points)", col("delta", lambda v: f"{v * 100:+.1f}")),
    ("p (Holm)", col("p_adj", pval)),
    ("verdict", col("verdict")),
]


RATE_METRICS = frozenset({"tie", "first_player_won", "won"})
"""0/1 metrics: their deltas are shown in percentage points."""


DELTA_COLUMNS: list[Column] = [
    ("delta [95% CI]", lambda r: ci_num(r, "delta", scale=100 if r["metric"] in RATE_METRICS else 1, sign=True)),
    ("p (Holm)", col("p_adj", pval)),
]


def value(r: Row, key: str) -> str:
    return pct(r[key]) if r["metric"] in RATE_METRICS else num(r[key])


def by_metric(long: pl.DataFrame, index: list[str]) -> tuple[list[str], pl.DataFrame]:
    """Long (metric, mean, lo, hi) rows as one text column per metric; rates (``*_rate``) as percentages."""
    text = [
        ci_pct(r, "mean") if r["metric"].endswith("_rate") else ci_num(r)
        for r in long.select("metric", "mean", "lo", "hi").iter_rows(named=True)
    ]
    wide = long.with_columns(text=pl.Series(text, dtype=pl.String))
    metrics = long["metric"].unique(maintain_order=True).to_list()
    return metrics, wide.pivot("metric", index=index, values="text").sort(index)
