"""Branching at any decision (``Simulator.branch``): the replay reaches the real game's public state before the
re-guess, a branch never touches the real game, and the same seed gives the same branch."""

from __future__ import annotations

import random

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.engine.decisions import Decision
from septima_sim.engine.game import Game
from septima_sim.engine.view import LiveView, PlayerView, Simulator
from septima_sim.players import make_policy


def public(g: Game) -> tuple[object, ...]:
    """What every seat can see of a game (plus the searching seat's own goals, seat 0)."""
    seats = tuple(
        (p.vertex, p.suspicion, p.wisdom, tuple(p.res), p.charms, tuple(p.potions), tuple(p.hand), tuple(p.discard),
         tuple(p.coven), p.crowd, tuple(p.tracks), p.ritual_row, p.ritual_col)
        for p in g.s.players
    )  # fmt: skip
    s = g.s
    board = (tuple(sorted(s.patients)), tuple(s.hunter_space), tuple(s.hunter_active), s.chamber1, tuple(s.chamber2))
    return seats, board, tuple(s.played), (s.season, s.turn), tuple(s.goals[0])


class Prober:
    """Seat 0: at every decision branches once and checks the copy where the replay ends (``release``)."""

    name = "prober"

    def __init__(self, game_box: list[Game]) -> None:
        self.box = game_box
        self.sim: Simulator | None = None
        self.inner = make_policy("balanced")
        self.checked = 0
        self.kinds: set[str] = set()

    def reset(self, seat: int, rng: random.Random) -> None:
        self.inner.reset(seat, rng)

    def choose(self, decision: Decision, view: PlayerView) -> int:
        """Branches, then answers as the balanced heuristic (which reads only the live view: the test hands it one)."""
        g = self.box[0]
        sim = Simulator(g, 0)
        before = public(g)
        seen: list[tuple[object, ...]] = []

        def release(copy: Game) -> None:
            if decision.kind != "card":  # a card selection re-guesses at the first hidden card, as it should
                seen.append(public(copy))

        sim.branch(decision, 0, [make_policy("balanced") for _ in range(g.n)], 7, 0, on_release=release)
        assert public(g) == before  # the real game is untouched
        if seen:
            assert seen[0] == before
            self.checked += 1
            self.kinds.add(decision.kind)
        return self.inner.choose(decision, LiveView(self.box[0], 0))  # a test seat: its own view is sealed


@pytest.mark.parametrize("config", [GameConfig(3), GameConfig(2, shapeshifting=True, omens=True), GameConfig(1)])
def test_the_replay_reaches_the_real_public_state(content: Content, config: GameConfig) -> None:
    box: list[Game] = []
    prober = Prober(box)
    g = Game(config, content, [prober] + [make_policy("balanced") for _ in range(config.players - 1)], 5)
    box.append(g)
    Simulator(g, 0).record()
    g.play()
    assert prober.checked > 20 and {"premove", "start_vertex"} <= prober.kinds


class Once(Prober):
    """Seat 0: branches once, at its first pre-move, to the end of the next season; keeps the result."""

    def __init__(self, game_box: list[Game]) -> None:
        super().__init__(game_box)
        self.outcome: object = None

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if decision.kind == "premove" and self.outcome is None:
            _, result = Simulator(self.box[0], 0).branch(decision, 0, [make_policy("balanced") for _ in range(2)], 3, 1)
            assert result is not None
            self.outcome = (result.game, result.players)
        return self.inner.choose(decision, LiveView(self.box[0], 0))  # a test seat: its own view is sealed


def branch_once(content: Content) -> object:
    box: list[Game] = []
    seat = Once(box)
    g = Game(GameConfig(2), content, [seat, make_policy("balanced")], 9)
    box.append(g)
    Simulator(g, 0).record()
    g.play()
    return seat.outcome


def test_the_same_branch_seed_plays_the_same_branch(content: Content) -> None:
    first = branch_once(content)
    assert first is not None and first == branch_once(content)


class PhaseProber(Prober):
    """Seat 0: at each card choice plays the rest of the moon phase on a copy made there, twice on one seed (the
    second time the other seats play the cards they chose the first time)."""

    def choose(self, decision: Decision, view: PlayerView) -> int:
        g = self.box[0]
        if decision.kind == "card":
            sim = Simulator(g, 0)
            before, where = public(g), (g.s.season, g.s.turn)
            cards: dict[int, int] = {}
            first, result = sim.sample_moon_phase(decision, 0, [make_policy("balanced") for _ in range(g.n)], 7, cards)
            assert public(g) == before  # the real game is untouched
            assert set(cards) <= set(range(1, g.n)) and cards  # the other seats chose, and only they were written down
            again, same = sim.sample_moon_phase(decision, 0, [make_policy("balanced") for _ in range(g.n)], 7, cards)
            assert (result is None) == (same is None)
            if result is None:  # stopped at the next card selection, whatever the other seats were asked
                assert (first.season, first.turn) != where and first.step == "select"
                assert public(first._game) == public(again._game)
            self.checked += 1
        return self.inner.choose(decision, LiveView(g, 0))  # a test seat: its own view is sealed


@pytest.mark.parametrize("config", [GameConfig(3), GameConfig(2, shapeshifting=True, omens=True)])
def test_a_moon_phase_copy_stops_at_the_next_selection_and_shares_the_other_cards(
    content: Content, config: GameConfig
) -> None:
    box: list[Game] = []
    prober = PhaseProber(box)
    g = Game(config, content, [prober] + [make_policy("balanced") for _ in range(config.players - 1)], 5)
    box.append(g)
    g.play()
    assert prober.checked > 10 and g.recorder is None  # no checkpoints were needed
