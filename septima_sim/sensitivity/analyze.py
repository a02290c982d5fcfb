"""SALib's statistics over the samples, one metric at a time, and the study's noise floor.

Morris (``SALib.analyze.morris``): per group ``mu_star`` (the mean absolute elementary effect: about the change in
the metric across the value's whole range), its bootstrap half-width ``mu_star_conf`` and ``sigma`` (interactions or
curvature). Sobol (``SALib.analyze.sobol``): first-order ``S1`` and total ``ST`` variance shares with their
half-widths. Ranks: 1 = the group that moves the metric most (``mu_star``, or ``ST``).

Noise floor: every sample plays the same seeds, but a value that changes any decision re-deals the rest of those
games, so a metric measured on N games carries the sampling error ``se`` of one sample even when the value does
nothing else. A value that only re-dealt the games would show ``mu_star = 2 se / (sqrt(pi) delta)`` (delta = 2/3,
four levels) or ``ST = se**2 / var``; that is the floor. Below it, a value cannot be told from luck; a value the game
never reads has exactly 0 (its games are identical). ``metric_sd`` is the metric's spread over the samples.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl

from septima_sim.sensitivity.design import LEVELS
from septima_sim.sensitivity.metrics import HEADLINE, Measured, split_key
from septima_sim.sensitivity.params import Param

RESAMPLES = 1000
"""Bootstrap resamples of the confidence half-widths."""
DELTA = LEVELS / (2 * (LEVELS - 1))
"""The Morris step on the unit cube (SALib's ``_compute_delta``)."""
MORRIS_COLUMNS = ("mu_star", "mu_star_conf", "sigma")
SOBOL_COLUMNS = ("S1", "S1_conf", "ST", "ST_conf")


def _order(key: str) -> tuple[int, int, str]:
    name, players = split_key(key)
    return players, HEADLINE.index(name) if name in HEADLINE else len(HEADLINE), name


def metric_keys(measured: list[Measured]) -> tuple[list[str], list[str]]:
    """The metrics every sample measured, and those some sample lacks (not analysed); by player count, the headline
    metrics first, then the components by name (the same order however the samples were read back)."""
    seen = sorted({k for m in measured for k in m}, key=_order)
    complete = [k for k in seen if all(k in m and math.isfinite(m[k][0]) for m in measured)]
    return complete, [k for k in seen if k not in complete]


def _groups(params: list[Param]) -> list[str]:
    return list(dict.fromkeys(p.group for p in params))


def _morris(spec: dict[str, Any], x: np.ndarray, y: np.ndarray, seed: int) -> dict[str, list[float]]:
    from SALib.analyze import morris as morris_analyze  # loaded with the first analysis (with pandas)

    si = morris_analyze.analyze(spec, x, y, num_resamples=RESAMPLES, num_levels=LEVELS, seed=seed)
    return {c: [float(v) for v in np.asarray(si[c], dtype=float)] for c in MORRIS_COLUMNS}


def _sobol(spec: dict[str, Any], y: np.ndarray, groups: int, seed: int) -> dict[str, list[float]]:
    if float(np.var(y)) == 0.0:  # a metric no value moves: no variance to share out
        return {c: [0.0] * groups for c in SOBOL_COLUMNS}
    from SALib.analyze import sobol as sobol_analyze

    si = sobol_analyze.analyze(spec, y, calc_second_order=False, num_resamples=RESAMPLES, seed=seed)
    return {c: [float(v) for v in np.asarray(si[c], dtype=float)] for c in SOBOL_COLUMNS}


def noise_floor(method: str, y: np.ndarray, se: np.ndarray) -> float:
    """The statistic a value would show if it only re-dealt the games (module docstring)."""
    s = float(np.median(se))
    if method == "morris":
        return 2 * s / (math.sqrt(math.pi) * DELTA)
    var = float(np.var(y))
    return s * s / var if var > 0 else 0.0


def _ranks(values: list[float]) -> list[int]:
    """1 for the largest; equal values share the better rank."""
    order = sorted(values, reverse=True)
    return [order.index(v) + 1 for v in values]


def analyze(
    method: str, params: list[Param], spec: dict[str, Any], x: np.ndarray, measured: list[Measured], seed: int
) -> pl.DataFrame:
    """One row per value and metric: the value, its group's statistics and rank, the noise floor (``sensitivity.csv``;
    the statistics of a group are repeated on each of its values' rows)."""
    groups = _groups(params)
    keys, _ = metric_keys(measured)
    rows: list[dict[str, Any]] = []
    for k in keys:
        y = np.array([m[k][0] for m in measured], dtype=float)
        se = np.array([m[k][1] for m in measured], dtype=float)
        stats = _morris(spec, x, y, seed) if method == "morris" else _sobol(spec, y, len(groups), seed)
        rank = _ranks(stats["mu_star" if method == "morris" else "ST"])
        floor, spread = noise_floor(method, y, np.nan_to_num(se)), float(np.std(y))
        name, players = split_key(k)
        for p in params:
            g = groups.index(p.group)
            v = p.value
            rows.append(
                {
                    "parameter": p.path,
                    "group": p.group,
                    "provenance": v.provenance,
                    "low": float(v.low) if v.low is not None else None,
                    "high": float(v.high) if v.high is not None else None,
                    "metric": name,
                    "players": players,
                    **{c: stats[c][g] for c in stats},
                    "rank": rank[g],
                    "value": str(v.value),
                    "choices": " | ".join(map(str, v.choices)) or None,
                    "range_source": v.source,
                    "noise_floor": floor,
                    "metric_sd": spread,
                }
            )
    return pl.DataFrame(rows, infer_schema_length=None)
