"""Targets in the designer's words, measured on a run's games: a loss for the optimiser and, on confirmation, an
interval with a verdict.

- ``seat_fairness``: the metric is the worst seat's distance from fair share (1/players) in win-rate points; each
  seat's Wilson interval must lie within fair ± band.
- ``first_player``: the start player's win rate (Wilson interval) within target ± band.
- ``skill_gap``: persona ``stronger`` ahead of ``weaker`` (ties half) in games where both sit, as points above 50.
- ``winning_score`` / ``game_length`` (decisions per game; every game has 20 turns): the mean (bootstrap interval)
  between low and high.
- ``component``: the component's causal effect (the same games without it, ``tune.component``) within target ±
  band, in win-rate points of the seat holding it (Wisdom for buildings and Omens); t interval of the paired mean.

Verdicts: **pass** when the interval lies inside the target, **fail** when it lies outside, **unclear** otherwise.
Losses are 0 at the ideal and 1 at the edge of a band (range targets: 0 inside, growing by the range's width outside);
``excess`` is how far beyond acceptable, which a constraint target turns into a penalty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from septima_sim.analysis.stats import bootstrap_ci, wilson
from septima_sim.tune.schema import FirstPlayer, Range, SeatFairness, SkillGap, Targets

CONSTRAINT_PENALTY = 100.0
"""Objective penalty per unit of a constraint target's excess (it must hold before anything is traded off)."""


@dataclass(frozen=True, slots=True)
class Measure:
    """One target at one player count: the metric, its 95% interval, games, verdict and loss."""

    target: str
    players: int
    metric: float
    ci_low: float
    ci_high: float
    games: int
    verdict: str
    loss: float
    excess: float


def band_verdict(lo: float, hi: float, low: float, high: float) -> str:
    """pass: the interval inside [low, high]; fail: entirely outside; unclear otherwise."""
    if low <= lo and hi <= high:
        return "pass"
    if hi < low or lo > high:
        return "fail"
    return "unclear"


def _seat_fairness(t: SeatFairness, players: pl.DataFrame, n: int) -> Measure:
    fair, band = 1 / n, t.band / 100
    seats = (
        players.filter(pl.col("players") == n).group_by("seat").agg(k=pl.col("won").cast(pl.Int64).sum(), m=pl.len())
    )
    worst, d_lo, d_hi, games = 0.0, 0.0, 0.0, 0
    for _seat, k, m in seats.iter_rows():
        lo, hi = wilson(k, m)
        rate = k / m
        worst = max(worst, abs(rate - fair))
        d_lo = max(d_lo, 0.0 if lo <= fair <= hi else min(abs(lo - fair), abs(hi - fair)))
        d_hi = max(d_hi, abs(lo - fair), abs(hi - fair))
        games = max(games, m)
    verdict = "pass" if d_hi <= band else "fail" if d_lo > band else "unclear"
    loss = worst / band
    return Measure("seat_fairness", n, 100 * worst, 100 * d_lo, 100 * d_hi, games, verdict, loss, max(0.0, loss - 1))


def _rate_measure(name: str, k: float, m: int, n: int, centre: float, band: float) -> Measure:
    lo, hi = wilson(k, m)
    rate = k / m if m else math.nan
    loss = abs(rate - centre) / band
    verdict = band_verdict(lo, hi, centre - band, centre + band)
    return Measure(name, n, 100 * rate, 100 * lo, 100 * hi, m, verdict, loss, max(0.0, loss - 1))


def _first_player(t: FirstPlayer, games: pl.DataFrame, n: int) -> Measure:
    mine = games.filter(pl.col("players") == n)
    k = mine.select(pl.col("winner_seats").list.contains(pl.col("start_player")).sum()).item()
    centre = t.target / 100 if t.target is not None else 1 / n
    return _rate_measure("first_player", k, mine.height, n, centre, t.band / 100)


def _skill_gap(t: SkillGap, players: pl.DataFrame, n: int) -> Measure:
    seats = players.filter(pl.col("players") == n).select("cell_id", "game_index", "policy", "rank")
    strong = seats.filter(pl.col("policy") == t.stronger)
    weak = seats.filter(pl.col("policy") == t.weaker)
    pairs = strong.join(weak, on=["cell_id", "game_index"], suffix="_w").with_columns(
        score=pl.when(pl.col("rank") < pl.col("rank_w"))
        .then(1.0)
        .when(pl.col("rank") == pl.col("rank_w"))
        .then(0.5)
        .otherwise(0.0)
    )
    per_game = pairs.group_by("cell_id", "game_index").agg(pl.col("score").mean())
    m = per_game.height
    k = float(per_game["score"].sum()) if m else 0.0
    lo, hi = wilson(k, m)
    gap = (k / m - 0.5) * 100 if m else math.nan
    lo, hi = (lo - 0.5) * 100, (hi - 0.5) * 100
    verdict = "pass" if lo >= t.min else "fail" if hi < t.min else "unclear"
    loss = max(0.0, t.min - gap) / max(t.min, 1.0) if m else math.inf
    return Measure("skill_gap", n, gap, lo, hi, m, verdict, loss, loss)


def _range(name: str, column: str, t: Range, games: pl.DataFrame, n: int, with_ci: bool) -> Measure:
    values = games.filter(pl.col("players") == n)[column].cast(pl.Float64).to_numpy()
    mean = float(values.mean()) if values.size else math.nan
    lo, hi = bootstrap_ci(values) if with_ci else (mean, mean)
    loss = max(0.0, t.low - mean, mean - t.high) / (t.high - t.low)
    return Measure(name, n, mean, lo, hi, int(values.size), band_verdict(lo, hi, t.low, t.high), loss, loss)


def counts(targets: Targets, base_players: list[int]) -> dict[str, list[int]]:
    """The player counts each target is judged at: its own ``players`` or every count of the base (no solo for
    seat, start-player and skill targets)."""
    out = {}
    for name, t in targets.named().items():
        chosen = t.players or [n for n in base_players if n > 1 or name in ("winning_score", "game_length")]
        out[name] = sorted(set(chosen))
    return out


def measure(
    targets: Targets, at: dict[str, list[int]], players: pl.DataFrame, games: pl.DataFrame, *, with_ci: bool = False
) -> list[Measure]:
    """Every target at every player count it is judged at."""
    out = []
    for name, t in targets.named().items():
        for n in at[name]:
            if isinstance(t, SeatFairness):
                out.append(_seat_fairness(t, players, n))
            elif isinstance(t, FirstPlayer):
                out.append(_first_player(t, games, n))
            elif isinstance(t, SkillGap):
                out.append(_skill_gap(t, players, n))
            elif isinstance(t, Range):
                column = "winning_score" if name == "winning_score" else "decisions"
                out.append(_range(name, column, t, games, n, with_ci))
    return out


def losses(targets: Targets, measures: list[Measure]) -> dict[str, float]:
    """Each target's loss: its worst player count."""
    out: dict[str, float] = {}
    for m in measures:
        out[m.target] = max(out.get(m.target, 0.0), m.loss)
    return out


def objective(targets: Targets, measures: list[Measure]) -> float:
    """The value to minimise: weighted losses of the soft targets plus a large penalty per unit of a constraint
    target's excess."""
    total = 0.0
    named = targets.named()
    worst_excess: dict[str, float] = {}
    for m in measures:
        worst_excess[m.target] = max(worst_excess.get(m.target, 0.0), m.excess)
    for name, loss in losses(targets, measures).items():
        t = named[name]
        total += CONSTRAINT_PENALTY * worst_excess[name] if t.constraint else t.weight * loss
    return total
