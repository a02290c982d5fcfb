"""The ismcts player: information-set Monte Carlo tree search over every decision kind, its budget spent where
the choice matters.

Budget: the full budget at every card choice; ``other_share`` of it at the draft and at every spell taken
(``branching.ALWAYS_SEARCHED``) and at any other decision where the balanced heuristic's two best options are within
``margin`` Wisdom units of each other (or it has no values for the kind); a decision the heuristic is sure about is
its pick (the prior's argmax).

Each searched decision gets a fresh tree whose nodes are the searching seat's own decisions (the information sets it
can tell apart: the kind and options it is asked, after the option it took). One iteration re-guesses everything the
seat cannot see (``Simulator.branch``: deck orders, other seats' goals, cards not yet revealed), walks down the tree
choosing by UCB with a progressive bias toward the heuristic's prior (``prior_weight * P(option) / (1 + visits)``,
P a softmax of the balanced heuristic's option values), adds one node, and lets the balanced heuristic play every
seat on to the rollout horizon (``rollout_seasons`` more season ends). Inside the tree, too, a decision the heuristic
is sure about (by the same margin) is not a node: the heuristic answers it. The value of a rollout is the logistic of
the seat's Wisdom margin over the best other seat in units of ``value_scale`` (0: the share of the win plus 0.01 per
point of margin, as ``search``). The most visited root option is played; a later decision of the same turn whose
information set the tree already visited ``reuse_visits`` times takes that node's most visited option.

``ismcts:N`` spends N iterations per searched decision (deterministic from the game seed); ``ismcts:Nms`` spends N
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

from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.results import GameResult
from septima_sim.engine.view import PlayerView
from septima_sim.players.branching import BranchingPlayer, settled
from septima_sim.players.heuristic import HeuristicPolicy
from septima_sim.players.outcome import seat_margin, seat_value

PARAMS_FILE = Path(__file__).resolve().parent.parent / "content" / "ismcts.toml"


class IsmctsParams(BaseModel):
    """The tunable parameters (``[ismcts]`` of ``content/ismcts.toml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    exploration: float = Field(0.7, ge=0.0, le=10.0)
    rollout_seasons: int = Field(0, ge=0, le=3)
    prior_weight: float = Field(1.0, ge=0.0, le=100.0)
    prior_temperature: float = Field(2.0, gt=0.0, le=100.0)
    margin: float = Field(1.0, ge=0.0, le=1000.0)
    other_share: float = Field(0.25, ge=0.0, le=1.0)
    reuse_visits: int = Field(8, ge=0, le=1_000_000)
    value_scale: float = Field(0.0, ge=0.0, le=1000.0)


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


def smooth_value(result: GameResult, seat: int, scale: float) -> float:
    """A smooth value of a (shortened) game: the logistic of the seat's Wisdom margin over the best other seat in
    units of `scale` Wisdom; it tells a near miss from a rout, so fewer rollouts separate two options."""
    return 1.0 / (1.0 + math.exp(-seat_margin(result, seat) / scale))


def triage(
    heuristic: HeuristicPolicy, decision: Decision, view: PlayerView, margin: float
) -> tuple[int, list[float] | None]:
    """The answer that needs no search (the only option, or the heuristic's pick when it is ``settled``) or -1, and
    the heuristic's option values."""
    if len(decision.options) == 1:
        return 0, None
    values = heuristic.values(decision, view)
    return settled(decision, values, margin), values


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
        p = self.params
        sure, values = triage(self.heuristic, decision, view, p.margin)
        if sure >= 0:
            return sure
        key = (self.last, decision.kind, decision.options)
        child = self.node.children.get(key)
        if child is None:
            if self.expanded:
                self.in_tree = False
                return self.heuristic.choose(decision, view)
            self.expanded = True
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
        self._cursor: tuple[Node, int] | None = None
        self._players: list[HeuristicPolicy] = []

    def reset(self, seat: int, rng: random.Random) -> None:
        super().reset(seat, rng)
        self._cursor = None  # the tree node and option of this seat's last searched answer

    def choose(self, decision: Decision, view: PlayerView) -> int:
        p = self.params
        sure, values = triage(self.own, decision, view, p.margin)
        if sure >= 0:
            return sure
        n_opts = len(decision.options)
        if decision.kind != Kind.CARD:
            reused = self._reuse(decision)
            if reused >= 0:
                return reused
        share = 1.0 if decision.kind == Kind.CARD else p.other_share
        iterations = round(self.iterations * share)
        ms = self.milliseconds * share
        if iterations < 1 and ms <= 0.0:
            self._cursor = None
            return values.index(max(values)) if values is not None else self.own.choose(decision, view)
        root = self._search(decision, Node(prior_of(values, n_opts, p.prior_temperature)), iterations, ms)
        best = max(range(n_opts), key=lambda i: (root.visits[i], root.value[i]))
        self._cursor = (root, best)
        return best

    def _reuse(self, decision: Decision) -> int:
        """The answer the last search already found for this information set (its node below the last answer, visited
        at least ``reuse_visits`` times): the most visited option there; -1 when there is none."""
        cursor, self._cursor = self._cursor, None
        if cursor is None or self.params.reuse_visits < 1:
            return -1
        node, last = cursor
        child = node.children.get((last, decision.kind, decision.options))
        if child is None or child.n < self.params.reuse_visits:
            return -1
        best = max(range(len(decision.options)), key=lambda i: (child.visits[i], child.value[i]))
        self._cursor = (child, best)
        return best

    def _search(self, decision: Decision, root: Node, iterations: int, ms: float) -> Node:
        """`iterations` iterations (or `ms` milliseconds of wall time) from `root`, the tree at `decision`."""
        sim = self.simulator()
        p = self.params
        players = self._players
        if len(players) != sim.n_players + 1:  # rollout players of every seat, then the walker's: reset by each copy
            players = self._players = [self.heuristic() for _ in range(sim.n_players + 1)]
        deadline = time.perf_counter() + ms / 1000.0 if self.milliseconds else 0.0
        done = 0
        while (done < iterations) if not deadline else (done == 0 or time.perf_counter() < deadline):
            done += 1
            first = root.select(p.exploration, p.prior_weight)
            walker = _Walker(root, first, p, players[-1])
            policies: list[Policy] = list(players[:-1])
            policies[self.seat] = walker
            _, result = sim.branch(decision, first, policies, self._rng.getrandbits(64), p.rollout_seasons)
            assert result is not None
            v = seat_value(result, self.seat) if not p.value_scale else smooth_value(result, self.seat, p.value_scale)
            for node, i in walker.path:
                node.update(i, v)
        return root
