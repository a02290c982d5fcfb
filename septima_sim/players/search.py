"""The search player: determinized Monte Carlo over the card to play each turn, the draft, the spells taken and
every other decision its fallback heuristic is not sure about.

At each card selection it spreads a budget of simulations over the legal cards; each simulation copies the game,
re-guesses everything the seat cannot see (deck orders, other seats' goals), plays the card, lets rollout players
(the registry uses the balanced persona for every seat) play on to a horizon (the registry: the end of the current
season, scored as if the game ended there; None = the real end), and scores the seat's share of the win, ties broken
by the Wisdom margin. The card with the best mean wins.

Budget split: the whole budget at a card choice; ``OTHER_SHARE`` of it over every option at the draft (the witch
given back) and at a spell taken from the market; and ``OTHER_SHARE`` of it per turn for the decisions where the
fallback's two best options are within ``MARGIN`` Wisdom of each other, each searched over the fallback's ``WIDTH``
best options within ``MARGIN`` of its best, the first close calls of the turn first (``Simulator.branch``: the copy
replays the moon phase's answers up to the decision, answers it with the option, then plays on). Every other
decision is the fallback persona's (its best-valued option). ``search:200`` = 200 simulations per card choice, 50 per
other searched decision, 50 per turn for close calls. ``scripts/bench_search.py`` measures the split
(docs/players.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.view import PlayerView, Simulator
from septima_sim.players.branching import ALWAYS_SEARCHED
from septima_sim.players.outcome import seat_value
from septima_sim.players.random_policy import RandomPolicy

SEARCHED = ALWAYS_SEARCHED
"""Decisions searched whatever the fallback's values (which cards end up in play: issue #28)."""
OTHER_SHARE = 0.25
"""The share of the budget spent at a searched decision other than the card choice."""
MARGIN = 1.0
"""Wisdom within which the fallback's two best options leave a decision to the search."""
WIDTH = 2
"""A close call searches the fallback's best options within ``MARGIN`` of its best, at most this many (a move has
dozens of vertices within a Wisdom of each other: searching them all spent most of the budget on moves)."""


class SearchPolicy:
    """Monte Carlo card choice, draft, spell choice and close calls, with a heuristic for the rest."""

    def __init__(
        self,
        budget: int,
        fallback: Policy,
        rollout: Callable[[], Policy] = RandomPolicy,
        horizon: int | None = None,
    ) -> None:
        if budget < 1:
            raise ValueError(f"a search budget must be at least 1 simulation, got {budget}")
        self.budget = budget
        self.fallback = fallback
        self.rollout = rollout
        self.horizon = horizon
        self.name = f"search:{budget}"
        self.seat = 0
        self._rng = random.Random(0)
        self._sim: Simulator | None = None
        self._pool = 0  # simulations left for this turn's close calls (``_other``)
        self.trace: Callable[[Decision, PlayerView, list[float]], None] | None = None
        """If set, called at each card choice with the mean value of every option (``scripts/distill_timing.py``)."""

    live_view: ClassVar[bool] = True  # built-in: its fallback persona reads the live view (see engine/view.py)

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self._rng = rng
        self._pool = self._turn_pool()  # the setup's close calls
        self.fallback.reset(seat, random.Random(rng.getrandbits(64)))

    def attach(self, simulator: Simulator) -> None:
        """The engine's search capability for this seat in this game (``engine.view.Simulator``); ``record`` lets
        it branch at any decision."""
        simulator.record()
        self._sim = simulator

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if decision.kind != Kind.CARD:
            return self._other(decision, view)
        self._pool = self._turn_pool()  # the close calls of this turn share it
        options = decision.options
        per_option = max(1, self.budget // len(options))
        totals = []
        for card in options:
            total = 0.0
            for _ in range(per_option):
                total += self._simulate(card)
            totals.append(total)
        if self.trace is not None:
            self.trace(decision, view, [t / per_option for t in totals])
        return totals.index(max(totals))  # ties: the first

    def _other(self, decision: Decision, view: PlayerView) -> int:
        """A decision other than the card: searched over every option when it is one of ``SEARCHED``; a close call
        of the fallback (its two best values within ``MARGIN``) searched over its ``WIDTH`` best options within
        ``MARGIN`` while this turn's pool of close-call simulations lasts; else the fallback's best-valued option."""
        n = len(decision.options)
        values_of = getattr(self.fallback, "values", None)
        values: list[float] | None = values_of(decision, view) if values_of is not None and n > 1 else None
        if values is None:
            return self.fallback.choose(decision, view)
        share = max(1, int(self.budget * OTHER_SHARE))
        candidates = sorted(range(n), key=lambda i: -values[i])  # stable: ties keep the first first
        if decision.kind not in SEARCHED:
            top = values[candidates[0]]
            candidates = [i for i in candidates[:WIDTH] if top - values[i] < MARGIN]
            cost = max(1, share // len(candidates)) * len(candidates)
            if len(candidates) < 2 or self._pool < cost:
                return candidates[0]
            self._pool -= cost
        per_option = max(1, share // len(candidates))
        sim = self._sim
        assert sim is not None, "the engine attaches a Simulator before the first decision"
        totals = []
        for i in candidates:
            total = 0.0
            for _ in range(per_option):
                policies = [self.rollout() for _ in range(sim.n_players)]
                _, result = sim.branch(decision, i, policies, self._rng.getrandbits(64), self.horizon)
                assert result is not None, "a branch that is not one turn long plays to its horizon"
                total += seat_value(result, self.seat)
            totals.append(total)
        return candidates[totals.index(max(totals))]

    def _turn_pool(self) -> int:
        """Simulations the close calls of one turn share: ``OTHER_SHARE`` of the budget (one close call at least)."""
        return max(WIDTH, int(self.budget * OTHER_SHARE))

    def _simulate(self, card: int) -> float:
        sim = self._sim
        assert sim is not None, "the engine attaches a Simulator before the first decision"
        result = sim.sample_continuation(
            card, [self.rollout() for _ in range(sim.n_players)], self._rng.getrandbits(64), self.horizon
        )
        return seat_value(result, self.seat)
