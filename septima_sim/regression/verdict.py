"""Paired deltas with intervals, corrected p-values and the verdict per metric; the check that replays a
baseline and compares."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Literal

import numpy as np
from scipy import stats

from septima_sim import runner
from septima_sim.analysis.stats import bh, bootstrap_replicates, holm, mcnemar_p, normal_p
from septima_sim.content import load_content
from septima_sim.regression.baseline import Baseline, read_baseline
from septima_sim.regression.components import MIN_HELD, component_metrics
from septima_sim.regression.metrics import Metric, metrics
from septima_sim.regression.outcomes import Outcomes, merge, play, shard_tasks
from septima_sim.regression.tolerances import Tolerances, load_tolerances

Verdict = Literal["pass", "shift", "inconclusive", "untested"]
"""``untested``: a card held in too few games on either side to be judged (``components.MIN_HELD``)."""


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the verdict table."""

    metric: str
    kind: str
    n: int
    baseline: float
    current: float
    delta: float
    lo: float
    hi: float
    p: float
    p_adj: float
    tolerance: float
    verdict: Verdict


def _paired(m: Metric, z: float, resamples: int) -> tuple[float, float, float, float, float, float]:
    """(baseline, current, delta, standard error, lo, hi) of one metric; spreads (no closed form) use a seeded paired
    bootstrap in bounded batches (``bootstrap_replicates``), means the standard error of the per-game differences
    (ratio metrics: the delta method on the paired per-game sums)."""
    if m.xw is not None and m.yw is not None:
        base, cur = float(m.x.sum() / m.xw.sum()), float(m.y.sum() / m.yw.sum())
        u = (m.y - cur * m.yw) / m.yw.mean() - (m.x - base * m.xw) / m.xw.mean()
        se = float(np.std(u, ddof=1) / math.sqrt(len(u)))
    elif m.spread:
        base, cur = float(np.std(m.x, ddof=1)), float(np.std(m.y, ddof=1))
        reps = bootstrap_replicates([m.x, m.y], _sd_change, seed=len(m.x), resamples=resamples)
        se = float(np.std(reps, ddof=1))
    else:
        base, cur = float(m.x.mean()), float(m.y.mean())
        se = float(np.std(m.y - m.x, ddof=1) / math.sqrt(len(m.x)))
    delta = cur - base
    return base, cur, delta, se, delta - z * se, delta + z * se


def _sd_change(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per resample (row): standard deviation of y minus that of x."""
    return np.asarray(np.std(y, axis=1, ddof=1) - np.std(x, axis=1, ddof=1))


def _p_value(m: Metric, delta: float, se: float) -> float:
    if m.binary and m.xw is None:
        d = m.y - m.x
        return mcnemar_p(int((d > 0).sum()), int((d < 0).sum()))
    if se > 0:
        return normal_p(delta, se)
    return 1.0 if delta == 0 else 0.0


def compare(items: Iterable[Metric], tol: Tolerances, looks: int = 1) -> list[Row]:
    """Paired deltas with intervals, corrected p-values and verdicts; ``looks`` > 1 splits alpha over the looks of
    a sequential check (each look uses alpha / looks). Each metric is reduced to its numbers as it arrives, so its
    per-game arrays are freed before the next one is built."""
    alpha = tol.alpha / looks
    z = float(stats.norm.ppf(1 - alpha / 2))
    reduced = []
    untested = []
    for m in items:
        if m.xw is not None and m.held < MIN_HELD:
            untested.append(m)
            continue
        base, cur, delta, se, lo, hi = _paired(m, z, tol.bootstrap_resamples)
        reduced.append((m.id, m.kind, m.held, base, cur, delta, lo, hi, _p_value(m, delta, se)))
    adjusted = (holm if tol.correction == "holm" else bh)([r[-1] for r in reduced]) if reduced else []
    rows = []
    for (metric_id, kind, n, base, cur, delta, lo, hi, p), p_adj in zip(reduced, adjusted, strict=True):
        band = tol.band(metric_id, kind, base)
        verdict: Verdict = "inconclusive"
        if -band <= lo and hi <= band:
            verdict = "pass"
        elif p_adj < alpha and abs(delta) > band:
            verdict = "shift"
        rows.append(Row(metric_id, kind, n, base, cur, delta, lo, hi, p, p_adj, band, verdict))
    return rows + [_untested(m, tol) for m in untested]


def _untested(m: Metric, tol: Tolerances) -> Row:
    """The row of a card held too rarely to judge: its means where it was held at all, no interval, no p-value."""
    nan = float("nan")
    base, cur = (float(v.sum() / w.sum()) if w is not None and w.sum() else nan for v, w in ((m.x, m.xw), (m.y, m.yw)))
    band = tol.band(m.id, m.kind, 0.0 if math.isnan(base) else base)
    return Row(m.id, m.kind, m.held, base, cur, cur - base, nan, nan, nan, nan, band, "untested")


# --------------------------------------------------------------------------------------------- check
@dataclass(slots=True)
class CheckResult:
    """The outcome of a check: verdict rows, games played, failures and the provenance of both sides."""

    rows: list[Row]
    baseline: Baseline
    content_hash: str
    games: int
    games_planned: int
    looks: int
    errors: int = 0
    first_error: str | None = None
    strict: bool = False
    alpha: float = 0.05

    @property
    def shifts(self) -> list[Row]:
        return [r for r in self.rows if r.verdict == "shift"]

    @property
    def exit_code(self) -> int:
        """0 within tolerance, 1 balance shift (or inconclusive with ``strict``), 3 games failed."""
        if self.errors:
            return 3
        if self.shifts or (self.strict and any(r.verdict == "inconclusive" for r in self.rows)):
            return 1
        return 0


def check(
    baseline_file: Path,
    tolerance_file: Path | None = None,
    jobs: int | None = None,
    sequential: bool = False,
    *,
    strict: bool = False,
    content: Path | None = None,
    on_look: Callable[[int, int, list[Row]], None] | None = None,
    backend: str = "local",
    scheduler: str | None = None,
) -> CheckResult:
    """Replay a baseline's config and seeds on the current code and content and compare every metric.

    With ``sequential``, games are played one shard of every cell at a time and the check stops when no metric is
    inconclusive (``on_look`` is told after each batch). The games run on ``backend``, one cluster for every look."""
    tol = load_tolerances(tolerance_file)
    base = read_baseline(baseline_file, content)
    tasks = shard_tasks(base.exp)
    batches = sorted({t.part for t in tasks})
    looks = len(batches) if sequential else 1
    groups = [[t for t in tasks if t.part == part] for part in batches] if sequential else [tasks]
    parts: list[Outcomes] = []
    planned = sum(t.stop - t.start for t in tasks)
    current_content = load_content(base.exp.content_dir)
    result = CheckResult([], base, current_content.hash, 0, planned, looks, strict=strict, alpha=tol.alpha)
    with runner.parallel_backend(backend, jobs, scheduler):
        for look, group in enumerate(groups, 1):
            played = play(group)
            result.errors += played.errors
            result.first_error = result.first_error or played.first_error
            if result.errors:
                break
            base.check_seeds(played.outcomes)
            parts.append(played.outcomes)
            current = merge(parts)
            compared = chain(
                metrics(base.exp, base.outcomes, current),
                component_metrics(base.exp, current_content, base.outcomes, current),
            )
            result.rows = compare(compared, tol, looks)
            result.games = sum(f.height for f in current.values())
            if on_look is not None:
                on_look(look, looks, result.rows)
            if all(r.verdict != "inconclusive" for r in result.rows):  # untested cards stay so with more games
                break
    return result
