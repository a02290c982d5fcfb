"""The heuristic's values depend on the game in front of it, not on which decisions the same instance answered
before: its per-game memos (goals, building gains) must not go stale. Found by comparing the balanced seat with a
fresh instance at every decision: the goals memo was built empty at a setup decision before goals were dealt, and the
buildings were read once per game, so buildings raised later were never valued."""

from __future__ import annotations

import random

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.engine.decisions import Decision
from septima_sim.engine.game import Game
from septima_sim.engine.view import LiveView, PlayerView
from septima_sim.players import HeuristicPolicy, load_personas, make_policy


class _FreshCheck:
    """Plays as the balanced heuristic and, at every decision, compares its values with those of a new instance
    that answers only this decision."""

    name = "fresh-check"

    def __init__(self, box: list[Game]) -> None:
        self.box = box
        self.weights = load_personas()["balanced"]
        self.inner = HeuristicPolicy("balanced", self.weights)
        self.seat = 0
        self.compared = 0
        self.differ: dict[str, int] = {}

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.inner.reset(seat, random.Random(1))

    def choose(self, decision: Decision, view: PlayerView) -> int:
        live = LiveView(self.box[0], self.seat)  # a test seat: its own view is sealed
        fresh = HeuristicPolicy("balanced", self.weights)
        fresh.reset(self.seat, random.Random(1))
        stream = self.inner._rng.getstate()  # the spell and draft toss-ups draw from the seat's stream: the same
        fresh._rng.setstate(stream)
        values = self.inner.values(decision, live)
        self.inner._rng.setstate(stream)
        if values != fresh.values(decision, LiveView(self.box[0], self.seat)):
            self.differ[decision.kind] = self.differ.get(decision.kind, 0) + 1
        self.compared += 1
        return self.inner.choose(decision, live)


@pytest.mark.parametrize(
    "config", [GameConfig(2, "full"), GameConfig(4, "full", shapeshifting=True, omens=True), GameConfig(3, "basic")]
)
def test_values_do_not_depend_on_earlier_decisions(content: Content, config: GameConfig) -> None:
    for seed in range(3):
        box: list[Game] = []
        check = _FreshCheck(box)
        g = Game(config, content, [check] + [make_policy("balanced") for _ in range(config.players - 1)], seed)
        box.append(g)
        g.play()
        assert check.compared > 50
        assert check.differ == {}, f"seed {seed}: values differ from a fresh instance's at {check.differ}"
