"""The ismcts player: information-set Monte Carlo tree search over every decision kind.

Each decision gets a fresh tree whose nodes are the searching seat's own decisions (the information sets it can
tell apart: the kind and options it is asked, after the option it took). One iteration re-guesses everything the seat
cannot see (``Simulator.branch``: deck orders, other seats' goals, cards not yet revealed), walks down the tree
choosing by UCB with a progressive bias toward the heuristic's prior (``prior_weight * P(option) / (1 + visits)``,
P a softmax of the balanced heuristic's option values), adds one node, and lets the balanced heuristic play every
seat on to the rollout horizon (``rollout_seasons`` more season ends). The value is the seat's share of the win
plus 0.01 per point of Wisdom margin over the best other seat. The most visited root option is played.

``ismcts:N`` spends N iterations per decision (deterministic from the game seed); ``ismcts:Nms`` spends N
milliseconds of wall time (not reproducible: it depends on the machine's speed). Parameters live in
``content/ismcts.toml``.
"""

from __future__ import annotations

import math
import random
import time
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.view import PlayerView
from septima_sim.players.branching import BranchingPlayer
from septima_sim.players.heuristic import HeuristicPolicy
from septima_sim.players.outcome import seat_value

PARAMS_FILE = Path(__file__).resolve().parent.parent / "content" / "ismcts.toml"


class IsmctsParams(BaseModel):
    """The tunable parameters (``[ismcts]`` of ``content/ismcts.toml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    exploration: float = Field(0.7, ge=0.0, le=10.0)
    rollout_seasons: int = Field(0, ge=0, le=3)
    prior_weight: float = Field(1.0, ge=0.0, le=100.0)
    prior_temperature: float = Field(2.0, gt=0.0, le=100.0)


@cache
def load_params(path: Path | None = None) -> IsmctsParams:
    """The parameters of ``content/ismcts.toml`` (or another file of the same shape), read once."""
    with (path or PARAMS_FILE).open("rb") as f:
        return IsmctsParams(**tomllib.load(f)["ismcts"])


class Node:
    """An information set of the searching seat: visits and summed values per option, and the prior."""

    __slots__ = ("children", "n", "prior", "total", "value", "visits")

    def __init__(self, prior: list[float]) -> None:
        self.prior = prior
        self.n = 0
        self.visits = [0] * len(prior)
        self.value = [0.0] * len(prior)
        self.total = 0.0
        self.children: dict[tuple[object, ...], Node] = {}

    def select(self, c: float, bias: float) -> int:
        """UCB with progressive bias; an unvisited option starts at the node's mean value."""
        n = self.n
        log_n = math.log(n + 1)
        mean = self.total / n if n else 0.5
        best, best_score = 0, float("-inf")
        for i, prior in enumerate(self.prior):
            k = self.visits[i]
            q = self.value[i] / k if k else mean
            score = q + c * math.sqrt(log_n / (k + 1)) + bias * prior / (k + 1)
            if score > best_score:
                best, best_score = i, score
        return best

    def update(self, i: int, v: float) -> None:
        self.n += 1
        self.visits[i] += 1
        self.value[i] += v
        self.total += v


def prior_of(values: list[float] | None, n: int, temperature: float) -> list[float]:
    """Softmax of the heuristic's option values (uniform when it has none)."""
    if values is None:
        return [1.0 / n] * n
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [x / total for x in weights]


class _Walker:
    """The searching seat inside one iteration: walks the tree, adds one node, then plays the heuristic."""

    live_view: ClassVar[bool] = True

    def __init__(self, root: Node, first: int, params: IsmctsParams, heuristic: HeuristicPolicy) -> None:
        self.name = "ismcts-walker"
        self.node = root
        self.last = first
        self.params = params
        self.heuristic = heuristic
        self.path: list[tuple[Node, int]] = [(root, first)]
        self.expanded = False
        self.in_tree = True

    def reset(self, seat: int, rng: random.Random) -> None:
        self.heuristic.reset(seat, rng)

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if not self.in_tree:
            return self.heuristic.choose(decision, view)
        key = (self.last, decision.kind, decision.options)
        child = self.node.children.get(key)
        if child is None:
            if self.expanded:
                self.in_tree = False
                return self.heuristic.choose(decision, view)
            self.expanded = True
            p = self.params
            values = self.heuristic.values(decision, view)
            child = self.node.children[key] = Node(prior_of(values, len(decision.options), p.prior_temperature))
        i = child.select(self.params.exploration, self.params.prior_weight)
        self.path.append((child, i))
        self.node, self.last = child, i
        return i


class IsmctsPolicy(BranchingPlayer):
    """Information-set MCTS at every decision, with the balanced heuristic as prior and rollout policy."""

    def __init__(
        self,
        name: str,
        iterations: int,
        milliseconds: int,
        params: IsmctsParams,
        heuristic: Callable[[], HeuristicPolicy],
    ) -> None:
        if iterations < 1 and milliseconds < 1:
            raise ValueError("an ismcts budget needs at least 1 iteration or 1 ms")
        super().__init__(name, heuristic())
        self.iterations = iterations
        self.milliseconds = milliseconds
        self.params = params
        self.heuristic = heuristic

    def choose(self, decision: Decision, view: PlayerView) -> int:
        sim = self.simulator()
        p = self.params
        n_opts = len(decision.options)
        root = Node(prior_of(self.own.values(decision, view), n_opts, p.prior_temperature))
        deadline = time.perf_counter() + self.milliseconds / 1000.0 if self.milliseconds else 0.0
        done = 0
        while (done < self.iterations) if not deadline else (done == 0 or time.perf_counter() < deadline):
            done += 1
            first = root.select(p.exploration, p.prior_weight)
            walker = _Walker(root, first, p, self.heuristic())
            policies: list[Policy] = [self.heuristic() for _ in range(sim.n_players)]
            policies[self.seat] = walker
            _, result = sim.branch(decision, first, policies, self._rng.getrandbits(64), p.rollout_seasons)
            assert result is not None
            v = seat_value(result, self.seat)
            for node, i in walker.path:
                node.update(i, v)
        return max(range(n_opts), key=lambda i: (root.visits[i], root.value[i]))
