"""greedy and ismcts: every answer is one of the options (all decision kinds, every module), the same seed plays
the same game, budgets parse, and the ismcts parameters load from content with their bounds checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.results import GameResult
from septima_sim.engine.view import PlayerView
from septima_sim.players import UnknownPolicyError, builtin_lineups, make_policy
from septima_sim.players.branching import ALWAYS_SEARCHED
from septima_sim.players.greedy import GreedyPolicy
from septima_sim.players.ismcts import IsmctsParams, IsmctsPolicy, load_params, settled, smooth_value
from septima_sim.players.registry import balanced_heuristic

SEARCH = IsmctsPolicy._search
CONFIGS = [GameConfig(2), GameConfig(3, "basic"), GameConfig(2, shapeshifting=True, omens=True), GameConfig(1)]


@pytest.mark.parametrize("name", ["greedy", "ismcts:3"])
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p-{c.mode}-s{c.shapeshifting:d}")
def test_every_answer_is_a_legal_option(
    content: Content, config: GameConfig, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = GreedyPolicy if name == "greedy" else IsmctsPolicy
    answers: list[tuple[str, int, int]] = []
    original = cls.choose

    def checked(self: object, decision: Decision, view: PlayerView) -> int:
        i = original(self, decision, view)  # type: ignore[arg-type]
        answers.append((decision.kind, len(decision.options), i))
        return i

    monkeypatch.setattr(cls, "choose", checked)
    policies = [make_policy(name)] + [make_policy("balanced") for _ in range(config.players - 1)]
    result = play_game(config, content, policies, 21)
    assert result.players[0]["policy"] == name
    assert answers and all(0 <= i < n for _, n, i in answers)
    kinds = {k for k, _, _ in answers}
    assert {"card", "premove"} <= kinds and len(kinds) >= 5  # searched at every kind it is asked, not only cards


@pytest.mark.parametrize("name", ["greedy", "ismcts:4"])
def test_the_same_seed_plays_the_same_game(content: Content, name: str) -> None:
    config = GameConfig(3, shapeshifting=True, omens=True)
    games = [
        play_game(config, content, [make_policy(name), make_policy("balanced"), make_policy(name)], 8) for _ in range(2)
    ]
    assert games[0].game == games[1].game and games[0].players == games[1].players


def test_budgets_parse_and_bad_budgets_are_refused() -> None:
    assert make_policy("ismcts:50").name == "ismcts:50"
    timed = make_policy("ismcts:20ms")
    assert isinstance(timed, IsmctsPolicy) and timed.milliseconds == 20 and timed.iterations == 0
    assert isinstance(make_policy("ismcts"), IsmctsPolicy)
    for bad in ("ismcts:0", "ismcts:x", "ismcts:-3", "ismcts:5s", "ismcts:ms"):
        with pytest.raises(UnknownPolicyError, match="ismcts:N"):
            make_policy(bad)


def test_a_millisecond_budget_plays_a_game(content: Content) -> None:
    result = play_game(GameConfig(2), content, [make_policy("ismcts:1ms"), make_policy("balanced")], 2)
    assert result.players[0]["policy"] == "ismcts:1ms"


def test_parameters_load_from_content_and_bounds_are_checked(tmp_path: Path) -> None:
    params = load_params()
    assert params.exploration >= 0 and params.prior_temperature > 0
    bad = tmp_path / "ismcts.toml"
    bad.write_text("[ismcts]\nexploration = -1\n")
    with pytest.raises(ValidationError):
        load_params(bad)
    bad.write_text("[ismcts]\nexploraton = 1\n")
    with pytest.raises(ValidationError):
        load_params(bad)


def test_every_skill_tier_has_a_lineup_for_one_to_four_players() -> None:
    lineups = builtin_lineups()
    tiers = {"all-random": "random", "all-greedy": "greedy", "all-balanced": "balanced"}
    tiers |= {
        "all-search": "search:50",
        "all-ismcts": "ismcts:50",
        "all-learned": "learned",
        "all-vsearch": "vsearch:50",
    }
    for name, persona in tiers.items():
        lineup = lineups[name]
        assert lineup.pool and set(lineup.personas) == {persona}
        for players in range(1, 5):
            assert lineup.seat_personas(name, players, 3) == [persona] * players
        make_policy(persona)


def _searches(content: Content, params: IsmctsParams, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The decision kinds ismcts:4 with `params` runs a search at, over one 2-player Full game against balanced."""
    searched: list[str] = []
    original = SEARCH

    def counted(self: IsmctsPolicy, decision: Decision, *args: object) -> object:
        searched.append(decision.kind)
        return original(self, decision, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(IsmctsPolicy, "_search", counted)
    player = IsmctsPolicy("ismcts:4", 4, 0, params, balanced_heuristic)
    play_game(GameConfig(2), content, [player, make_policy("balanced")], 5)
    return searched


def test_the_budget_goes_where_the_heuristic_is_unsure(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    base = load_params().model_dump() | {"reuse_visits": 0, "other_share": 1.0}
    everywhere = _searches(content, IsmctsParams(**base | {"margin": 1000.0}), monkeypatch)
    cards_only = _searches(content, IsmctsParams(**base | {"margin": 0.0}), monkeypatch)
    no_share = _searches(content, IsmctsParams(**base | {"margin": 1000.0, "other_share": 0.0}), monkeypatch)
    assert len(everywhere) > len(cards_only)
    assert "card" in everywhere and len(set(everywhere)) >= 4  # every unsettled kind is searched
    # margin 0: the heuristic is sure of every decision but the card, the draft and a spell taken (always searched)
    assert cards_only and {"card"} <= set(cards_only) <= {"card", *ALWAYS_SEARCHED}
    assert no_share and set(no_share) == {"card"}  # other_share 0: only card choices spend the budget


def test_a_later_decision_of_the_turn_reuses_the_tree(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    base = load_params().model_dump() | {"margin": 1000.0, "other_share": 1.0}
    fresh = _searches(content, IsmctsParams(**base | {"reuse_visits": 0}), monkeypatch)
    reused = _searches(content, IsmctsParams(**base | {"reuse_visits": 1}), monkeypatch)
    assert fresh.count("card") == reused.count("card") and len(reused) < len(fresh)


def test_settled_only_for_a_non_card_decision_with_a_clear_best() -> None:
    values = [1.0, 3.0, 2.5]
    assert settled(Decision(Kind.BREW, 0, (0, 1, 2)), values, 0.4) == 1
    assert settled(Decision(Kind.BREW, 0, (0, 1, 2)), values, 0.6) == -1
    assert settled(Decision(Kind.CARD, 0, (0, 1, 2)), values, 0.4) == -1
    assert settled(Decision(Kind.BREW, 0, (0, 1, 2)), None, 0.4) == -1
    assert settled(Decision(Kind.BREW, 0, (0, 1)), [2.0, 2.0], 0.1) == -1  # a tie is searched
    assert settled(Decision(Kind.DRAFT_RETURN, 0, (0, 1, 2)), values, 0.4) == -1  # which cards are in play
    assert settled(Decision(Kind.SPELL_GAIN, 0, ((0, 1), (0, 2))), [1.0, 3.0], 0.4) == -1


def test_the_smooth_value_grows_with_the_wisdom_margin() -> None:
    def result(mine: int, other: int) -> GameResult:
        seats = [{"seat": 0, "wisdom": mine}, {"seat": 1, "wisdom": other}]
        return GameResult({"winner_seats": [0 if mine >= other else 1]}, seats)  # type: ignore[list-item]

    values = [smooth_value(result(m, 20), 0, 5.0) for m in (10, 19, 20, 21, 30)]
    assert values == sorted(set(values)) and values[2] == 0.5 and values[0] > 0.0 and values[-1] < 1.0
