"""What a study says, in a designer's terms, for the page, the command's summary and ``report --sensitivity``.

- ``size``: how much a value (its group) moves a metric across its range, in the metric's units: Morris ``mu_star``;
  Sobol ``sqrt(12 ST) x`` the metric's spread (a straight-line effect over a uniform range). ``noise``: the size a
  value would show if it only re-dealt the games (``analyze``'s floor, in the same units).
- A value *drives* a metric when its size exceeds the noise.
- A finding whose estimate lies a margin M from the edge of its verdict *depends on* the values whose size exceeds
  both M and the noise; it *holds across the assumed ranges* when none does and the noise is below M; when the noise
  is above M and no value exceeds it, the study cannot tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from septima_sim.sensitivity.errors import SensitivityError
from septima_sim.sensitivity.metrics import HEADLINE, unit

TOP = 3
"""Values named in a "depends on" note."""


def read(study: Path) -> pl.DataFrame:
    """A study's ``sensitivity.csv``; SensitivityError when the folder has none."""
    path = study / "sensitivity.csv"
    if not path.is_file():
        raise SensitivityError(f"--sensitivity {study}: no sensitivity.csv (run septima-sim sensitivity first)")
    try:
        return pl.read_csv(path, infer_schema_length=None)
    except (OSError, pl.exceptions.PolarsError) as exc:
        raise SensitivityError(f"--sensitivity {study}: cannot read sensitivity.csv ({exc})") from None


def incomplete(study: Path, table: pl.DataFrame) -> set[str]:
    """The metrics (``<name>@<players>``) that some samples measured but the study could not analyse (a component
    not seen in every sample): ``samples.parquet``'s metric columns missing from ``sensitivity.csv``."""
    try:
        columns = pl.read_parquet_schema(study / "samples.parquet")
    except (OSError, pl.exceptions.PolarsError):
        return set()
    analysed = (
        {f"{m}@{n}" for m, n in table.select("metric", "players").unique().iter_rows()} if table.height else set()
    )
    return {c for c in columns if "@" in c and not c.endswith(" se")} - analysed


def sizes(table: pl.DataFrame) -> pl.DataFrame:
    """One row per group, metric and player count: its values, provenance, ``size``, ``noise`` and their ratio."""
    if table.is_empty():
        return pl.DataFrame()
    if "mu_star" in table.columns:
        size, noise = pl.col("mu_star"), pl.col("noise_floor")
    else:
        size = (12 * pl.col("ST").clip(lower_bound=0)).sqrt() * pl.col("metric_sd")
        noise = (12 * pl.col("noise_floor")).sqrt() * pl.col("metric_sd")
    return (
        table.group_by("group", "metric", "players", maintain_order=True)
        .agg(
            parameters=pl.col("parameter"),
            provenance=pl.col("provenance").first(),
            size=size.first(),
            noise=noise.first(),
        )
        .with_columns(
            ratio=pl.when(pl.col("noise") > 0)
            .then(pl.col("size") / pl.col("noise"))
            .otherwise(pl.when(pl.col("size") > 0).then(float("inf")).otherwise(0.0))
        )
    )


@dataclass(frozen=True, slots=True)
class Note:
    """A finding's sensitivity: ``holds``, ``depends`` (on ``values``) or ``unclear``, and its text."""

    verdict: str
    text: str
    values: tuple[str, ...] = ()


def _amount(v: float, metric: str) -> str:
    return f"{v:.1f} {unit(metric)}"


def note(sized: pl.DataFrame, metric: str, players: int | None, margin: float) -> Note | None:
    """The note of a finding on ``metric`` (at ``players``, or the largest over every count the study measured)
    whose estimate lies ``margin`` from the edge of its verdict; None when the study did not measure it."""
    if sized.is_empty():
        return None
    rows = sized.filter(pl.col("metric") == metric)
    if players is not None:
        rows = rows.filter(pl.col("players") == players)
    if rows.is_empty():
        return None
    per = rows.group_by("group", maintain_order=True).agg(pl.col("size").max(), pl.col("noise").max())
    noise = float(per["noise"].to_numpy().max())
    threat = per.filter((pl.col("size") > margin) & (pl.col("size") > pl.col("noise"))).sort("size", descending=True)
    if not threat.is_empty():
        named = threat.head(TOP)
        parts = [f"{g} (moves it {_amount(s, metric)})" for g, s in named.select("group", "size").iter_rows()]
        more = f" and {threat.height - TOP} more" if threat.height > TOP else ""
        return Note("depends", "depends on: " + ", ".join(parts) + more, tuple(named["group"].to_list()))
    if noise >= margin:
        return Note(
            "unclear",
            f"sensitivity unclear: the study's noise ({_amount(noise, metric)}) exceeds this finding's margin "
            f"({_amount(margin, metric)})",
        )
    return Note("holds", "holds across the assumed ranges")


def matter_most(sized: pl.DataFrame, top: int = 15) -> pl.DataFrame:
    """The values that drive at least one metric beyond the noise, most first (by their largest ratio of size to
    noise), with the metrics they drive most: the list to replace with printed values first."""
    if sized.is_empty():
        return pl.DataFrame()
    driving = sized.filter(pl.col("ratio") > 1).sort("ratio", descending=True)
    if driving.is_empty():
        return pl.DataFrame()
    ranked = driving.group_by("group", maintain_order=True).agg(
        parameters=pl.col("parameters").first(),
        provenance=pl.col("provenance").first(),
        ratio=pl.col("ratio").max(),
        drives=pl.len(),
        metrics=pl.struct("metric", "players", "size", "ratio").head(TOP),
    )
    return ranked.sort(["ratio", "drives"], descending=True).head(top)


def drives_text(metrics: list[dict[str, object]]) -> str:
    """``worst_seat at 4p (6.1 points, 2.3x noise), ...``."""
    parts = []
    for m in metrics:
        ratio = float(str(m["ratio"]))
        shown = "no noise" if math.isinf(ratio) else f"{ratio:.1f}x noise"
        size = float(str(m["size"]))
        parts.append(f"{m['metric']} at {m['players']}p ({_amount(size, str(m['metric']))}, {shown})")
    return "; ".join(parts)


def top_values(sized: pl.DataFrame, metric: str, players: int, n: int = 10) -> pl.DataFrame:
    """The ``n`` groups that move one metric most, with size and noise."""
    rows = sized.filter((pl.col("metric") == metric) & (pl.col("players") == players))
    return rows.sort("size", descending=True).head(n)


def summary(table: pl.DataFrame, top: int = 3) -> list[str]:
    """Lines for the terminal: per headline metric and player count, the values that move it most (beyond the
    noise), or that none does."""
    sized = sizes(table)
    if sized.is_empty():
        return ["no metric was measured in every sample"]
    lines = []
    for name, players in sized.select("metric", "players").unique(maintain_order=True).iter_rows():
        if name not in HEADLINE:
            continue
        rows = top_values(sized, name, players, top).filter(pl.col("ratio") > 1)
        noise = float(
            sized.filter((pl.col("metric") == name) & (pl.col("players") == players))["noise"].to_numpy().max()
        )
        if rows.is_empty():
            lines.append(f"{name} at {players}p: no value moves it beyond the noise ({_amount(noise, name)})")
            continue
        parts = ", ".join(f"{g} ({_amount(s, name)})" for g, s in rows.select("group", "size").iter_rows())
        lines.append(f"{name} at {players}p: {parts}; noise {_amount(noise, name)}")
    return lines
