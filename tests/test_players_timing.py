"""The heuristic's card timing table (``timing`` in personas.toml): loading, inheritance, what it adds to a card
choice, and the fit that distils it from search's values (``septima_sim.players.timing_fit``)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.game import Game
from septima_sim.engine.view import LiveView, PlayerView
from septima_sim.players import HeuristicPolicy, PersonaError, Weights, load_personas, make_policy
from septima_sim.players.timing_fit import fit, with_correction


def test_timing_loads_per_turn_and_personas_inherit_it(tmp_path: Path) -> None:
    own = tmp_path / "mine.toml"
    own.write_text(
        '[persona.early]\nextends = "balanced"\ntiming = { plead = [5.0, 0, 0, 0, -5] }\n'
        '[persona.later]\nextends = "early"\ntiming = { collect = [1, 2] }\n'
    )
    personas = load_personas(own)
    early, later = personas["early"], personas["later"]
    assert early.timing["plead"] == (5.0, 0.0, 0.0, 0.0, -5.0)
    assert early.timed("plead", 0) == 5.0 and early.timed("plead", 4) == -5.0 and early.timed("plead", 7) == 0.0
    assert later.timing["plead"] == early.timing["plead"] and later.timed("collect", 1) == 2.0
    assert later.timed("collect", 3) == 0.0 and later.timed("brew", 0) == early.timed("brew", 0)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("timing = { plead = 3 }", r"timing\.plead must be a list of numbers"),
        ("timing = { plead = [] }", r"timing\.plead must be a list of numbers"),
        ('timing = { plead = [1, "x"] }', r"timing\.plead\[1\] must be a number"),
        ("timing = { flying = [1] }", "unknown timing action 'flying'"),
        ("timing = 2", "'timing' must be a table"),
    ],
)
def test_a_malformed_timing_table_fails_clearly(tmp_path: Path, line: str, message: str) -> None:
    bad = tmp_path / "personas.toml"
    bad.write_text(f"[persona.odd]\n{line}\n")
    with pytest.raises(PersonaError, match=message):
        load_personas(bad)


class _Compare:
    """Seat 0: at every card choice, values the options with and without a timing table on the live game, and
    checks that the difference is exactly the table's entry for each card at this turn; plays as the plain one."""

    name = "timing-probe"

    def __init__(self, box: list[Game], plain: Weights, timed: Weights) -> None:
        self.box = box
        self.plain = HeuristicPolicy("balanced", plain)
        self.timed = HeuristicPolicy("balanced", timed)
        self.weights = (plain, timed)
        self.turns: set[int] = set()

    def reset(self, seat: int, rng: random.Random) -> None:
        self.plain.reset(seat, random.Random(1))
        self.timed.reset(seat, random.Random(1))

    def choose(self, decision: Decision, view: PlayerView) -> int:
        g = self.box[0]
        live = LiveView(g, 0)  # a test seat: its own view is sealed
        if decision.kind == Kind.CARD:
            a = self.plain.values(decision, live)
            b = self.timed.values(decision, live)
            assert a is not None and b is not None
            ids = [g.content.actions[c].id for c in decision.options]
            before, after = self.weights
            expected = [after.timed(card, live.turn) - before.timed(card, live.turn) for card in ids]
            assert [y - x for x, y in zip(a, b, strict=True)] == pytest.approx(expected)
            self.turns.add(live.turn)
        return self.plain.choose(decision, live)


def test_timing_adds_its_entry_to_each_card_at_each_turn(content: Content) -> None:
    balanced = load_personas()["balanced"]
    plain = dataclasses.replace(balanced, timing={})
    timed = dataclasses.replace(balanced, timing={"plead": (7.0, -1.0, 0.5, 2.0, -3.0), "collect": (0.0, 4.0)})
    box: list[Game] = []
    probe = _Compare(box, plain, timed)
    g = Game(GameConfig(2, "full"), content, [probe, make_policy("balanced")], 11)
    box.append(g)
    g.play()
    assert probe.turns == set(range(content.rules.turns_per_season))


def test_a_large_early_timing_makes_the_card_the_first_played(content: Content) -> None:
    """Behaviour, not just arithmetic: +50 Wisdom on Plead at the first turn of a season and it is played then."""
    balanced = load_personas()["balanced"]
    eager = dataclasses.replace(balanced, timing={"plead": (50.0, 0.0, 0.0, 0.0, 0.0)})
    plead = [a.id for a in content.actions].index("plead")
    played: list[tuple[int, int]] = []
    _play_with_cards(content, eager, played)
    first = [card for turn, card in played if turn == 0]
    assert first and all(card == plead for card in first)


def _play_with_cards(content: Content, weights: Weights, played: list[tuple[int, int]]) -> None:
    """Plays seat 0 with `weights` and records (turn, card) of each of its card choices."""
    box: list[Game] = []

    class Seat:
        name = "eager"

        def __init__(self) -> None:
            self.inner = HeuristicPolicy("eager", weights)

        def reset(self, seat: int, rng: random.Random) -> None:
            self.inner.reset(seat, rng)

        def choose(self, decision: Decision, view: PlayerView) -> int:
            live = LiveView(box[0], 0)
            index = self.inner.choose(decision, live)
            if decision.kind == Kind.CARD:
                played.append((live.turn, decision.options[index]))
            return index

    g = Game(GameConfig(2, "full"), content, [Seat(), make_policy("balanced")], 3)
    box.append(g)
    g.play()


def test_the_fit_recovers_known_card_timing() -> None:
    """Synthetic search values q = a*h + b[card, turn] + noise: the fit returns a and, per turn, the differences of b
    between cards (a constant per turn is not identified: it changes no choice)."""
    rng = np.random.default_rng(5)
    actions, turns, a = 4, 3, 0.02
    b = rng.normal(0.0, 0.1, size=(actions, turns))
    rows = []
    for _ in range(3000):
        turn = int(rng.integers(turns))
        options = tuple(sorted(rng.choice(actions, size=int(rng.integers(2, actions + 1)), replace=False).tolist()))
        h = rng.normal(0.0, 3.0, size=len(options))
        q = a * h + np.array([b[c, turn] for c in options]) + rng.normal(0.0, 0.02, size=len(options)) + 0.5
        rows.append((options, h.tolist(), q.tolist(), turn))
    fitted_a, correction = fit(rows, 1e-6, actions, turns)
    assert fitted_a == pytest.approx(a, rel=0.02)
    truth = b / a
    for t in range(turns):
        assert correction[:, t] - correction[0, t] == pytest.approx(truth[:, t] - truth[0, t], abs=0.3)
    with pytest.raises(ValueError, match="do not rise"):
        fit([(o, h, [-x for x in h], t) for o, h, _, t in rows], 1e-6, actions, turns)


def test_a_correction_adds_to_the_table_and_drops_rows_that_become_zero() -> None:
    base = dataclasses.replace(Weights(), timing={"plead": (1.0, 1.0), "brew": (0.5, 0.0)})
    correction = np.array([[0.25, -0.25], [-1.0, -1.0], [-0.5, 0.0]])
    new = with_correction(base, correction, ["collect", "plead", "brew"])
    assert new.timing == {"collect": (0.25, -0.25)}
