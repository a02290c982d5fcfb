"""What the players that branch at any decision (``greedy``, ``ismcts``) share: the seat, its random stream, their
own balanced heuristic (evaluation or prior) and the engine's ``Simulator`` with recording switched on."""

from __future__ import annotations

import random
from typing import ClassVar

from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.view import Simulator
from septima_sim.players.heuristic import HeuristicPolicy

ALWAYS_SEARCHED: frozenset[str] = frozenset({Kind.DRAFT_RETURN, Kind.SPELL_GAIN})
"""Decisions the search players (``search``, ``ismcts``) search besides the card whatever the heuristic's values:
which witches and spells end up in play (issue #28: the heuristic alone left some never taken)."""


def settled(decision: Decision, values: list[float] | None, margin: float) -> int:
    """The heuristic's pick when it is sure: a decision other than the card, the draft and a spell taken
    (``ALWAYS_SEARCHED``) whose best value leads the second by at least `margin`; else -1 (worth searching)."""
    if values is None or decision.kind == Kind.CARD or decision.kind in ALWAYS_SEARCHED:
        return -1
    best = max(values)
    second = max((v for i, v in enumerate(values) if i != values.index(best)), default=best)
    return values.index(best) if best - second >= margin else -1


class BranchingPlayer:
    """Base of the built-in players that call ``Simulator.branch``."""

    live_view: ClassVar[bool] = True  # built-in: reads the live view; gets a Simulator through ``attach``

    def __init__(self, name: str, own: HeuristicPolicy) -> None:
        self.name = name
        self.own = own  # the seat's own heuristic: evaluation (greedy) or prior (ismcts)
        self.seat = 0
        self._rng = random.Random(0)
        self._sim: Simulator | None = None

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self._rng = rng
        self.own.reset(seat, random.Random(rng.getrandbits(64)))

    def attach(self, simulator: Simulator) -> None:
        """The engine's search capability; ``record`` lets it branch at any decision."""
        simulator.record()
        self._sim = simulator

    def simulator(self) -> Simulator:
        sim = self._sim
        assert sim is not None, "the engine attaches a Simulator before the first decision"
        return sim
