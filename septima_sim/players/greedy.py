"""The greedy player: one-step look-ahead on the heuristic's evaluation (the OSLA tier of a skill ladder).

At every decision it plays each legal option once on a copy of the game in which what the seat cannot see is
re-guessed (``Simulator.branch``), lets the rollout players (balanced for every seat) finish the current moon phase,
and scores the position reached with the heuristic's ``state_value``; the best-scoring option wins (ties: the
heuristic's own option values, then the first).
It looks one moon phase ahead and no further: no matching odds, no trial or season plans beyond the turn.
"""

from __future__ import annotations

from collections.abc import Callable

from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.view import PlayerView
from septima_sim.players.branching import BranchingPlayer
from septima_sim.players.heuristic import HeuristicPolicy

TIE_BREAK = 1e-3
"""Weight of the heuristic's own option values: they only break ties between equal look-ahead scores."""


class GreedyPolicy(BranchingPlayer):
    """Scores the position each option leads to after the current moon phase; plays the best."""

    def __init__(self, evaluator: HeuristicPolicy, rollout: Callable[[], Policy]) -> None:
        super().__init__("greedy", evaluator)
        self.rollout = rollout

    def choose(self, decision: Decision, view: PlayerView) -> int:
        sim = self.simulator()
        best, best_value = 0, float("-inf")
        seed = self._rng.getrandbits(64)  # every option is scored on the same re-guess (common random numbers)
        ties = self.own.values(decision, view) or [0.0] * len(decision.options)
        for i in range(len(decision.options)):
            twin, _ = sim.branch(decision, i, [self.rollout() for _ in range(sim.n_players)], seed, 0, True)
            value = self.own.evaluate(twin) + TIE_BREAK * ties[i]
            if value > best_value:
                best, best_value = i, value
        return best
