"""The uniform random player: every legal option equally likely."""

from __future__ import annotations

import random
from typing import ClassVar

from septima_sim.engine.decisions import Decision
from septima_sim.engine.draws import below


class RandomPolicy:
    """Picks uniformly among the legal options, from its seat's own random stream."""

    name = "random"
    live_view: ClassVar[bool] = True  # never reads the view: no snapshot per decision

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def reset(self, seat: int, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, decision: Decision, view: object) -> int:
        return below(self._rng, len(decision.options))
