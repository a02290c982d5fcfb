"""Sweeps: how the game responds to each override axis of a run (its what-if values), per player count.

For each axis and value: the win rate of every seat (Wilson 95% intervals, against fair share) and the mean winning
score (t 95% interval), pooled over the run's other axes at that player count."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis.cells import cell_table
from septima_sim.analysis.data import RunTables, Settings
from septima_sim.analysis.metrics import seat_balance, summarize


def sweep_response(run: RunTables, settings: Settings) -> dict[str, dict[str, pl.DataFrame]]:
    """Per override axis (dotted path): ``seats`` (players, <axis>, seat, win_rate, lo, hi, fair, delta, p_adj,
    verdict) and ``score`` (players, <axis>, n, mean, lo, hi of the winning score), sorted by value."""
    cells = cell_table(run)
    out: dict[str, dict[str, pl.DataFrame]] = {}
    for axis in run.override_axes:
        if axis not in cells.columns:
            continue
        values = cells.lazy().select("cell_id", axis)
        players = run.players.join(values, on="cell_id", how="left")
        games = run.games.filter(pl.col("players") > 1).select("players", axis, "winning_score")
        out[axis] = {
            "seats": seat_balance(players, settings, by=("players", axis)),
            "score": summarize(games, ("players", axis), {"winning_score": "winning_score"}).drop("metric"),
        }
    return out
