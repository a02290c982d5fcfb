"""Scripted players: every persona plays, games replay, views hide what a seat may not know, bad personas fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import PlayerView
from septima_sim.players import HeuristicPolicy, PersonaError, builtin_lineups, load_personas, make_policy
from septima_sim.players.registry import policy_names

PERSONAS = sorted(load_personas())
CONTENT_GOALS = 4
"""Goals dealt per seat in the built-in pack (rules.toml goals_dealt)."""


def test_builtin_personas_and_lineups_resolve() -> None:
    for name in ("balanced", "healer", "brewer", "advocate", "ritualist", "cautious", "opportunist"):
        assert name in PERSONAS
        assert isinstance(make_policy(name), HeuristicPolicy)
    assert "random" in policy_names()
    lineups = builtin_lineups()
    for name in ("heuristic-mix", "all-balanced", "balanced-vs-random", "all-random"):
        for persona in lineups[name].personas:
            make_policy(persona)
    assert len(set(lineups["heuristic-mix"].personas)) == 4


def test_unknown_persona_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="balanced"):
        make_policy("balancd")
    assert make_policy("search:30").name == "search:30"
    with pytest.raises(ValueError, match="search:N"):
        make_policy("search:lots")


CONFIGS = [
    GameConfig(2, "full"),
    GameConfig(3, "full"),
    GameConfig(4, "full"),
    GameConfig(2, "basic"),
    GameConfig(3, "basic"),
    GameConfig(4, "basic"),
    GameConfig(4, "full", shapeshifting=True),
    GameConfig(3, "full", omens=True),
    GameConfig(2, "full", shapeshifting=True, omens=True),
    GameConfig(1, "full"),
    GameConfig(1, "full", shapeshifting=True, omens=True),
]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.mode}-s{c.shapeshifting:d}-o{c.omens:d}")
def test_every_persona_plays(content: Content, persona: str, config: GameConfig) -> None:
    n = config.players
    policies = [make_policy(persona)] + [make_policy(PERSONAS[i % len(PERSONAS)]) for i in range(1, n)]
    result = play_game(config, content, policies, seed=n * 7 + len(persona))
    assert result.game["turns"] == 20
    assert len(result.players) == n
    assert result.players[0]["policy"] == persona


def test_same_seed_same_lineup_same_game(content: Content) -> None:
    lineup = builtin_lineups()["heuristic-mix"]

    def run() -> list[dict]:
        events: list[dict] = []
        play_game(GameConfig(4), content, [make_policy(n) for n in lineup.personas], 5, events.append)
        return events

    assert run() == run()


class _Spy:
    """A policy that checks every view it is handed and plays the first option."""

    name = "spy"

    def __init__(self) -> None:
        self.views = 0
        self.seat = -1

    def reset(self, seat: int, rng: object) -> None:
        self.seat = seat

    def choose(self, decision: Decision, view: PlayerView) -> int:
        self.views += 1
        assert view.seat == self.seat == decision.seat
        public = {a for a in dir(view) if not a.startswith("_")}
        for hidden in ("goals", "goal_deck", "witch_deck", "patient_stack", "septima_bag", "deck", "bag", "game"):
            assert hidden not in public
        assert len(view.my_goals) in (0, CONTENT_GOALS) and not hasattr(view, "_game")  # 0 before the deal
        for p in view.players:
            attrs = {a for a in dir(p) if not a.startswith("_")}
            assert not attrs & {"goals", "goals_scored"}
        for row in view.spell_market:  # only face-up cards, never a deck
            assert len(row) == 3 and all(isinstance(x, int) for x in row)
        return 0


def test_view_hides_other_seats_goals_and_deck_order(content: Content) -> None:
    spies = [_Spy() for _ in range(3)]
    play_game(GameConfig(3), content, spies, seed=3)
    assert all(s.views > 50 for s in spies)
    for s in spies:
        assert s.seat >= 0
    # each seat's my_goals is its own hand of goals (dealt after the witch draft), never another seat's
    seen: dict[int, tuple[int, ...]] = {}

    class _Goals(_Spy):
        def choose(self, decision: Decision, view: PlayerView) -> int:
            if decision.kind == "card":
                seen.setdefault(self.seat, view.my_goals)
            return 0

    play_game(GameConfig(2), content, [_Goals(), _Goals()], seed=4)
    assert len(seen[0]) == len(seen[1]) == content.rules.goals_dealt
    assert not set(seen[0]) & set(seen[1])


def test_persona_toml_with_unknown_weight_fails_clearly(tmp_path: Path) -> None:
    bad = tmp_path / "personas.toml"
    bad.write_text('[persona.reckless]\nextends = "balanced"\nsuspicon = 0.1\n')
    with pytest.raises(PersonaError, match=r"reckless.*'suspicon'.*did you mean 'suspicion'"):
        load_personas(bad)
    bad.write_text("[persona.reckless]\nsuspicion = 0.1\n[persona.reckless.bias]\nflying = 2\n")
    with pytest.raises(PersonaError, match="unknown bias action 'flying'"):
        load_personas(bad)


def test_user_persona_file_without_python(tmp_path: Path, content: Content) -> None:
    own = tmp_path / "mine.toml"
    own.write_text("[persona.gambler]\nsuspicion = 0.1\ncapture = 1.0\nmatch = 3.0\nbias = { plead = 1.0 }\n")
    weights = load_personas(own)["gambler"]
    assert weights.match == 3.0 and weights.bias == {"plead": 1.0}
    policy = HeuristicPolicy("gambler", weights)
    result = play_game(GameConfig(2), content, [policy, make_policy("random")], seed=1)
    assert result.players[0]["policy"] == "gambler"
