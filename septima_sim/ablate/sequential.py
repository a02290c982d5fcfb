"""Sequential stopping: a component's games are played in stages and it stops as soon as its effect is clearly
inside or clearly outside the tolerance band, so a budget goes to the components whose verdict is still open.

Rule: ``--games N`` is rounded up to a multiple of 16 (``LOOKS`` stages of N/4, N/2 and N games per cell, played in
shards of N/16 so two workers always share a stage). After each stage every cell's effect gets a t interval at
confidence 1 - alpha/LOOKS (Bonferroni over the looks, so stopping early does not inflate the error rate); the
component stops when, in every cell, that interval lies inside (-tolerance, +tolerance) ("inside band") or beyond
one end of it ("outside band"); a cell with fewer than 20 pairs is never decided early. At the last stage it stops
anyway ("budget spent"). The reported intervals are the ordinary 95% intervals at the games it stopped with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from septima_sim.ablate.effects import Effect
from septima_sim.analysis.stats import t_interval

LOOKS = 3
"""Stages per component: N/4, N/2 and N games per cell."""
SHARDS = 16
"""Shards per cell at the full budget (a stage of N/4 games is 4 shards)."""
MIN_PAIRS = 20
"""A cell with fewer paired games than this is never decided early (its variance estimate is too rough)."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """Games per cell after each stage, and the shard size that divides them all."""

    stages: tuple[int, ...]
    shard_size: int


def schedule(games: int) -> Schedule:
    """The stages for a budget of ``games`` per component and cell (rounded up to a multiple of 16)."""
    shard = max(1, math.ceil(games / SHARDS))
    return Schedule((4 * shard, 8 * shard, 16 * shard), shard)


def verdict(effect: Effect, tolerance: float, alpha: float) -> str | None:
    """``inside`` / ``outside`` the band (-tolerance, +tolerance) by the interim interval, or None (undecided)."""
    s = effect.primary
    if effect.games < MIN_PAIRS or not math.isfinite(s["var"]):
        return None
    lo, hi = t_interval(s["delta"], s["var"], effect.games, level=1 - alpha / LOOKS)
    if -tolerance < lo and hi < tolerance:
        return "inside"
    if lo >= tolerance or hi <= -tolerance:
        return "outside"
    return None


def decide(effects: list[Effect], tolerance: float, wisdom_tolerance: float, alpha: float) -> str | None:
    """The component's stopping verdict: ``inside band``, ``outside band`` or ``decided`` (cells differ) once every
    cell is decided, else None. Player-level effects use ``tolerance`` (win points), shared ones Wisdom."""
    if not effects:
        return None
    found = {verdict(e, tolerance if e.win is not None else wisdom_tolerance, alpha) for e in effects}
    if None in found:
        return None
    return f"{found.pop()} band" if len(found) == 1 else "decided"
