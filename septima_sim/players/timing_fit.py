"""The fit behind ``scripts/distill_timing.py``: what balanced should add to each card at each turn of a season to
choose its card as a searcher does.

At each card choice d of a searching seat, q[d, i] is search's mean simulated value of option i and h[d, i]
balanced's value of it (Wisdom units). The within-decision ridge least-squares fit

    q[d, i] = a * h[d, i] + b[card_i, turn_d] + c[d] + noise

(c[d] one constant per decision, removed by centring each decision) gives b / a: Wisdom per card and turn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from septima_sim.players.weights import Weights

Row = tuple[tuple[int, ...], list[float], list[float], int]
"""One search card choice: (action indexes of the options, balanced's values, search's mean values, turn)."""


def fit(rows: Sequence[Row], ridge: float, actions: int, turns: int) -> tuple[float, np.ndarray]:
    """(a, b / a as an [action, turn] array) of the fit above over ``actions`` action indexes and ``turns`` turns per
    season; ``ridge`` shrinks b, never a. Raises ValueError when
    search's values do not rise with balanced's (a <= 0: too few or too noisy choices)."""
    n = actions * turns
    xtx = np.zeros((1 + n, 1 + n))
    xty = np.zeros(1 + n)
    for options, h, q, turn in rows:
        if len(options) < 2:
            continue
        x = np.zeros((len(options), 1 + n))
        x[:, 0] = h
        for i, action in enumerate(options):
            x[i, 1 + action * turns + turn] = 1.0
        x -= x.mean(axis=0)  # the per-decision constant c[d]
        y = np.asarray(q) - np.mean(q)
        xtx += x.T @ x
        xty += x.T @ y
    penalty = ridge * np.eye(1 + n)
    penalty[0, 0] = 0.0  # balanced's own value is not shrunk
    beta = np.linalg.solve(xtx + penalty, xty)
    a = float(beta[0])
    if a <= 0.0:
        raise ValueError(f"search's values do not rise with balanced's (a = {a:.4f}); collect more games")
    return a, beta[1:].reshape(actions, turns) / a


def with_correction(base: Weights, correction: np.ndarray, action_ids: Sequence[str]) -> Weights:
    """The base weights with ``correction`` (rows in the order of ``action_ids``, the content's actions) added to
    their timing table, rounded to 0.01 Wisdom."""
    timing = dict(base.timing)
    turns = correction.shape[1]
    for i, action in enumerate(action_ids):
        row = [round(base.timed(action, t) + float(correction[i, t]), 2) for t in range(turns)]
        if any(row):
            timing[action] = tuple(row)
        else:
            timing.pop(action, None)
    return dataclasses.replace(base, timing=timing)
