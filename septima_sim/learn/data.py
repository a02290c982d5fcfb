"""Self-play data for the value model: the runner's shards of an experiment, played with every seat recording its
features at each of its card choices; each row is labelled with the seat's final Wisdom margin once the game ends.

A shard runs in a worker (local processes or Dask) like any run's shard: the task carries the content pack's files
and, from the second round of expert iteration on, the model every seat plays ``learned`` with.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from septima_sim import runner
from septima_sim.content.model import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Policy
from septima_sim.learn.features import NAMES
from septima_sim.learn.model import Array, from_json
from septima_sim.players import make_policy
from septima_sim.players.learned import LearnedPolicy, final_margin
from septima_sim.players.recording import Recording
from septima_sim.players.registry import balanced_heuristic

GAME_ID_STEP = 1_000_000
"""Game ids: ``(round * 1000 + cell) * GAME_ID_STEP + game index`` (a cell holds at most a million games)."""


@dataclass(frozen=True, slots=True)
class LearnTask:
    """One shard to play for data; ``model`` is a model's JSON text when every seat plays ``learned`` with it;
    ``base`` + the game index identifies each game across cells and rounds (a multiple of ``GAME_ID_STEP``)."""

    shard: runner.ShardTask
    model: str | None
    base: int
    pairs: bool = False
    """Rows are the seats' looked-ahead choices between two cards (``pair_features``), labelled with the look-ahead's
    value difference, instead of positions labelled with the final margin (``learn --distill``)."""


@dataclass(slots=True)
class Samples:
    """Rows of features with their labels: final margin, win share (ties split), game index and seat."""

    x: Array
    margin: Array
    win: Array
    game: Array
    games: int

    @staticmethod
    def empty(games: int = 0) -> Samples:
        return Samples(np.zeros((0, len(NAMES))), np.zeros(0), np.zeros(0), np.zeros(0), games)

    def join(self, other: Samples) -> Samples:
        if not len(other.margin) or not len(self.margin):  # an empty side may have another row width
            keep = self if len(self.margin) else other
            return Samples(keep.x, keep.margin, keep.win, keep.game, self.games + other.games)
        return Samples(
            np.vstack([self.x, other.x]),
            np.concatenate([self.margin, other.margin]),
            np.concatenate([self.win, other.win]),
            np.concatenate([self.game, other.game]),
            self.games + other.games,
        )

    def where(self, keep: Array) -> Samples:
        return Samples(
            self.x[keep], self.margin[keep], self.win[keep], self.game[keep], len(np.unique(self.game[keep]))
        )


@functools.lru_cache(maxsize=4)
def _learned_factory(model_json: str) -> Callable[[], Policy]:
    model = from_json(json.loads(model_json), "the task's model")
    return lambda: LearnedPolicy(model, balanced_heuristic(), balanced_heuristic)


def _seats(task: LearnTask, index: int) -> list[Policy]:
    if task.model is None:
        return [make_policy(name) for name in task.shard.cell.seat_personas(index)]
    factory = _learned_factory(task.model)
    return [factory() for _ in range(task.shard.cell.players)]


def play_task(task: LearnTask) -> tuple[int, int, Samples]:
    """Play one shard's games: (base, first game index, their labelled rows); a game that raises is skipped."""
    shard = task.shard
    cell = shard.cell
    config = cell.game_config()
    content = runner.cell_content(cell, runner.unpacked(shard.pack) if shard.pack else None)
    xs: list[list[float]] = []
    margin: list[float] = []
    win: list[float] = []
    game: list[float] = []
    played = 0
    for index in range(shard.start, shard.stop):
        if task.pairs:
            played += _play_pairs(task, index, config, content, xs, margin, game)
            win.extend([0.0] * (len(margin) - len(win)))
            continue
        seats = [Recording(p) for p in _seats(task, index)]
        try:
            result = play_game(config, content, seats, runner.game_seed(shard.root_seed, index))
        except Exception:  # a game that raises gives no rows (`run` reports such games)
            continue
        played += 1
        winners = result.winners
        for s, seat in enumerate(seats):
            m = final_margin(result, s)
            share = 1.0 / len(winners) if s in winners else 0.0
            for row in seat.rows:
                xs.append(row)
                margin.append(m)
                win.append(share)
                game.append(float(task.base + index))
    if not xs:
        return task.base, shard.start, Samples.empty(played)
    return (
        task.base,
        shard.start,
        Samples(np.asarray(xs), np.asarray(margin), np.asarray(win), np.asarray(game), played),
    )


def _play_pairs(
    task: LearnTask,
    index: int,
    config: GameConfig,
    content: Content,
    xs: list[list[float]],
    diffs: list[float],
    game: list[float],
) -> int:
    """One game of ``learned`` seats whose looked-ahead two-card choices are written down; 1 if it was played."""
    seats = [p for p in _seats(task, index) if isinstance(p, LearnedPolicy)]
    rows: list[tuple[list[float], float]] = []
    for seat in seats:
        seat.trace = lambda pair, diff: rows.append((pair, diff))
    try:
        play_game(config, content, seats, runner.game_seed(task.shard.root_seed, index))
    except Exception:  # a game that raises gives no rows
        return 0
    for pair, diff in rows:
        xs.append(pair)
        diffs.append(diff)
        game.append(float(task.base + index))
    return 1
