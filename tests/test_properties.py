"""Invariants checked after every turn of many random games (2-4 players, Full and Basic).

``CheckedGame`` overrides the flow methods of ``Game`` to call the engine and then assert the invariants of RULINGS:
suspicion in -1..8 (B13); at most 4 witches (B25); loyal citizens conserved (supply + crowd + seated == 6, the bag
exists only inside a judgement); no two leaders on one vertex at turn end (B18); Wisdom >= 0 at all times (B13);
Crystals and potions conserved; each card played at most once per season unless a card effect (Vision of the Past)
returned it (B17, B31); 20 turns in 4 seasons (B2); at the end the Wisdom sources sum to the total.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from septima_sim.content import Content
from septima_sim.content.model import CRYSTAL
from septima_sim.engine.config import GameConfig
from septima_sim.engine.game import Game
from septima_sim.engine.results import SOURCES
from septima_sim.engine.state import Player
from septima_sim.players import RandomPolicy


class CheckedGame(Game):
    """A game that asserts the invariants after every turn and every Wisdom change."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.turns_played: list[tuple[int, int]] = []
        self.plays: list[Counter[int]] = [Counter() for _ in range(self.n)]
        self.returns: list[Counter[int]] = [Counter() for _ in range(self.n)]
        self.counting_season = -1

    # -- Wisdom never below 0, at any time
    def gain_wisdom(self, p: Player, amount: int, source: str, cause: str | None = None) -> None:
        super().gain_wisdom(p, amount, source, cause)
        assert p.wisdom >= 0, f"seat {p.seat} wisdom {p.wisdom} after +{amount} ({source})"

    def lose_wisdom(self, p: Player, amount: int, source: str = "penalties", cause: str | None = None) -> None:
        super().lose_wisdom(p, amount, source, cause)
        assert p.wisdom >= 0, f"seat {p.seat} wisdom {p.wisdom} after -{amount}"

    # -- per turn
    def moon_phase(self, *args: object, **kwargs: object) -> None:
        if self.s.season != self.counting_season:
            self.counting_season = self.s.season
            self.plays = [Counter() for _ in range(self.n)]
            self.returns = [Counter() for _ in range(self.n)]
        hands = [list(p.hand) for p in self.s.players]
        super().moon_phase(*args, **kwargs)  # type: ignore[arg-type]
        self.turns_played.append((self.s.season, self.s.turn))
        for s, p in enumerate(self.s.players):
            card = p.discard[-1]
            assert hands[s][card], f"seat {s} played card {card} that was not in hand"
            self.plays[s][card] += 1
            for c, (before, after) in enumerate(zip(hands[s], p.hand, strict=True)):
                if after and not before:  # returned to hand during the turn (Vision of the Past)
                    self.returns[s][c] += 1
            for c, n in self.plays[s].items():
                assert n <= 1 + self.returns[s][c], f"seat {s} played card {c} {n} times in season {self.s.season}"
        self.check()
        vertices = [p.vertex for p in self.s.players]
        assert len(set(vertices)) == self.n, f"two leaders share a vertex at turn end: {vertices}"
        assert self.s.occupied == set(vertices)

    def preparation(self, *args: object, **kwargs: object) -> None:
        self.check()  # after the previous trial phase and end of season
        super().preparation(*args, **kwargs)  # type: ignore[arg-type]
        self.check()

    def check(self) -> None:
        r = self.rules
        seated = Counter(s for chamber in self.s.seated for s in chamber)
        for p in self.s.players:
            assert r.suspicion_min <= p.suspicion <= r.suspicion_max, f"seat {p.seat} suspicion {p.suspicion}"
            assert len(p.coven) <= r.max_witches, f"seat {p.seat} has {len(p.coven)} witches"
            assert p.supply >= 0 and p.crowd >= 0
            assert p.supply + p.crowd + seated[p.seat] == r.loyal_citizens, f"seat {p.seat} citizens not conserved"
            assert p.wisdom >= 0
            assert all(x >= 0 for x in p.res) and all(x >= 0 for x in p.potions) and p.charms >= 0
        assert self.s.crystal_supply + sum(p.res[CRYSTAL] for p in self.s.players) == 16
        on_patients = Counter(pot for pt in self.s.patients.values() for pot in pt.remedies)
        for i in range(len(self.content.potions)):
            held = sum(p.potions[i] for p in self.s.players)
            assert self.s.potion_supply[i] + held + on_patients[i] == r.potion_supply, f"potion {i} not conserved"
        assert len(self.s.patients) <= r.patients_on_board[self.n]
        assert len(self.s.hunter_space) == len(set(self.s.hunter_space)) <= 4
        assert self.s.crowd_angry == 0 or self.s.step == "trial"


def play_checked(content: Content, players: int, mode: str, seed: int) -> CheckedGame:
    g = CheckedGame(GameConfig(players=players, mode=mode), content, [RandomPolicy() for _ in range(players)], seed)
    result = g.play()
    g.check()
    assert g.turns_played == [(s, t) for s in range(4) for t in range(5)]
    assert result.game["turns"] == 20
    for row, p in zip(result.players, g.s.players, strict=True):
        assert sum(row[f"wisdom_{s}"] for s in SOURCES) == row["wisdom"] == p.wisdom  # type: ignore[misc]
        assert row["wisdom_penalties"] <= 0  # type: ignore[operator]
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["full", "basic"])
def test_invariants_seeded_games(content: Content, players: int, mode: str) -> None:
    """250 seeded games per (players, mode): 1500 games."""
    for seed in range(250):
        play_checked(content, players, mode, seed)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**63 - 1), players=st.integers(2, 4), mode=st.sampled_from(["full", "basic"]))
def test_invariants_hypothesis(content: Content, seed: int, players: int, mode: str) -> None:
    play_checked(content, players, mode, seed)
