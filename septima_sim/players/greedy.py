"""The greedy player: one-step look-ahead on the heuristic's evaluation (the OSLA tier of a skill ladder).

At every decision it plays each legal option once on a copy of the game in which what the seat cannot see is
re-guessed (``Simulator.branch``), lets the rollout players (balanced for every seat) finish the current moon phase,
and scores the position reached with the heuristic's ``state_value``; the best-scoring option wins (ties: the first).
It looks one moon phase ahead and no further: no matching odds, no trial or season plans beyond the turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.view import PlayerView, Simulator
from septima_sim.players.heuristic import HeuristicPolicy


class GreedyPolicy:
    """Scores the position each option leads to after the current moon phase; plays the best."""

    live_view: ClassVar[bool] = True  # built-in: reads the live view; gets a Simulator through ``attach``

    def __init__(self, evaluator: HeuristicPolicy, rollout: Callable[[], Policy]) -> None:
        self.name = "greedy"
        self.evaluator = evaluator
        self.rollout = rollout
        self.seat = 0
        self._rng = random.Random(0)
        self._sim: Simulator | None = None

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self._rng = rng
        self.evaluator.reset(seat, random.Random(rng.getrandbits(64)))

    def attach(self, simulator: Simulator) -> None:
        """The engine's search capability; ``record`` lets it branch at any decision."""
        simulator.record()
        self._sim = simulator

    def choose(self, decision: Decision, view: PlayerView) -> int:
        sim = self._sim
        assert sim is not None, "the engine attaches a Simulator before the first decision"
        best, best_value = 0, float("-inf")
        seed = self._rng.getrandbits(64)  # every option is scored on the same re-guess (common random numbers)
        for i in range(len(decision.options)):
            twin, _ = sim.branch(decision, i, [self.rollout() for _ in range(sim.n_players)], seed, 0, True)
            value = self.evaluator.evaluate(twin)
            if value > best_value:
                best, best_value = i, value
        return best
