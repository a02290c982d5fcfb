"""A seat that plays as another player and writes down the learned evaluator's features at each of its card choices
(``septima-sim learn``'s self-play data, ``septima_sim/learn/data.py``). It is one of the built-in players
(``players/builtin.py``): only those read the live view (``engine.view.trusted``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.view import LiveView, PlayerView, Simulator, trusted
from septima_sim.learn.features import features
from septima_sim.players.registry import balanced_heuristic


class Recording:
    """A seat that plays as ``inner`` and writes down its features at each of its card choices."""

    live_view: ClassVar[bool] = True  # built-in (this package): it and its inner player read the live view

    def __init__(self, inner: Policy) -> None:
        if not trusted(inner):  # it hands its live view on: only to a built-in player
            raise ValueError(f"a recording seat wraps built-in players only, not {inner.name!r}")
        self.inner = inner
        self.name = inner.name
        self.rows: list[list[float]] = []
        self.evaluator = balanced_heuristic()
        self.attach: Callable[[Simulator], None] | None = getattr(inner, "attach", None)  # a searcher still searches

    def reset(self, seat: int, rng: random.Random) -> None:
        self.inner.reset(seat, rng)  # the inner player's stream is the one it would get without recording
        self.evaluator.reset(seat, random.Random(0))  # evaluation draws nothing
        self.rows = []

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if decision.kind == Kind.CARD and isinstance(view, LiveView):
            self.rows.append(features(view, self.evaluator.evaluate(view)))
        return self.inner.choose(decision, view)
