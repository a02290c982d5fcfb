"""Head-to-head evidence for tuning and evaluating players: two policies in 2-player games, each seed played in both
seatings (common random numbers), win share with ties counted half and a t interval over seeds."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scipy.stats import t as student_t

from septima_sim.content import Content, load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Policy

Factory = Callable[[], Policy]


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Win share of the first policy over ``seeds`` seeds x 2 seatings, with a 95% t interval over seeds."""

    share: float
    low: float
    high: float
    games: int


def _share(result_winners: Sequence[int], seat: int) -> float:
    return 1.0 / len(result_winners) if seat in result_winners else 0.0


def duel(content: Content, config: GameConfig, a: Factory, b: Factory, seeds: Sequence[int]) -> DuelResult:
    """`a` against `b`: every seed played with `a` in seat 0 and again in seat 1; the per-seed mean is one sample."""
    return summarize(seed_shares(content, config, a, b, seeds))


def seed_shares(content: Content, config: GameConfig, a: Factory, b: Factory, seeds: Sequence[int]) -> list[float]:
    """`a`'s share of each seed's two games (`a` in seat 0, then in seat 1)."""
    per_seed = []
    for seed in seeds:
        first = play_game(config, content, [a(), b()], seed).winners
        second = play_game(config, content, [b(), a()], seed).winners
        per_seed.append((_share(first, 0) + _share(second, 1)) / 2.0)
    return per_seed


def parallel_duel(config: GameConfig, a: Factory, b: Factory, seeds: Sequence[int], jobs: int) -> DuelResult:
    """``duel`` on the built-in content with the seeds split over ``jobs`` joblib workers (the factories must pickle:
    a ``functools.partial`` of a class, not a lambda). The same result as one process."""
    from joblib import Parallel, delayed  # tuning scripts only: a run does not import joblib

    parts = Parallel(n_jobs=jobs)(delayed(_chunk)(config, a, b, list(seeds[i::jobs])) for i in range(jobs))
    return summarize([x for part in parts for x in part])


def _chunk(config: GameConfig, a: Factory, b: Factory, seeds: Sequence[int]) -> list[float]:
    return seed_shares(load_content(), config, a, b, seeds)


def summarize(per_seed: Sequence[float]) -> DuelResult:
    """Mean and 95% t interval of per-seed win shares (each seed is two games)."""
    n = len(per_seed)
    mean = statistics.fmean(per_seed)
    if n < 2:
        return DuelResult(mean, 0.0, 1.0, 2 * n)
    half = float(student_t.ppf(0.975, n - 1)) * statistics.stdev(per_seed) / math.sqrt(n)
    return DuelResult(mean, max(0.0, mean - half), min(1.0, mean + half), 2 * n)
