"""The search player's engine support: clones are independent, determinization hides what the seat cannot see,
and a search player plays whole games in every module combination."""

from __future__ import annotations

import random

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.game import Game
from septima_sim.players import RandomPolicy, make_policy


def started(content: Content, config: GameConfig, seed: int = 4) -> Game:
    g = Game(config, content, [RandomPolicy() for _ in range(config.players)], seed)
    g.setup()
    return g


def test_a_clone_is_independent_of_the_game(content: Content) -> None:
    g = started(content, GameConfig(4, shapeshifting=True, omens=True))
    s = g.s
    before = ([p.wisdom for p in s.players], list(s.witch_deck), dict(s.patients), [list(p.res) for p in s.players])
    twin = g.clone([RandomPolicy() for _ in range(4)], 1)
    twin.play_from(0, 0)
    assert max(p.wisdom for p in twin.s.players) > 0
    after = ([p.wisdom for p in s.players], list(s.witch_deck), dict(s.patients), [list(p.res) for p in s.players])
    assert before == after


def test_the_same_clone_seed_plays_the_same_future(content: Content) -> None:
    g = started(content, GameConfig(3, omens=True))
    a = g.clone([RandomPolicy() for _ in range(3)], 9).play_from(0, 0)
    b = g.clone([RandomPolicy() for _ in range(3)], 9).play_from(0, 0)
    assert a.game == b.game and a.players == b.players


def test_determinize_keeps_public_and_own_information_and_reshuffles_the_rest(content: Content) -> None:
    g = started(content, GameConfig(4, omens=True))
    twin = g.clone([RandomPolicy() for _ in range(4)], 2)
    twin.determinize(0, random.Random(5))
    assert twin.s.goals[0] == g.s.goals[0]  # own goals kept
    assert any(twin.s.goals[s] != g.s.goals[s] for s in (1, 2, 3))  # other seats' goals re-guessed
    assert sorted(twin.s.witch_deck) == sorted(g.s.witch_deck) and twin.s.witch_deck != g.s.witch_deck
    deck, twin_deck = g.module("omens").deck, twin.module("omens").deck  # type: ignore[attr-defined]
    assert twin_deck[0] == deck[0] and twin_deck[-1] == deck[-1]  # next card and Sabbath
    assert twin_deck is not deck
    assert twin.s.septima_right == g.s.septima_right and twin.s.septima_left == g.s.septima_left  # face-up markers


def test_play_from_can_stop_after_a_season(content: Content) -> None:
    g = started(content, GameConfig(2))
    result = g.clone([RandomPolicy(), RandomPolicy()], 3).play_from(0, 0, last_season=0)
    assert result.game["winner_seats"]


@pytest.mark.parametrize(
    "config", [GameConfig(2), GameConfig(3, "basic"), GameConfig(2, shapeshifting=True, omens=True), GameConfig(1)]
)
def test_search_player_plays_whole_games(content: Content, config: GameConfig) -> None:
    policies = [make_policy("search:4")] + [make_policy("balanced") for _ in range(config.players - 1)]
    first = play_game(config, content, policies, 12)
    again = play_game(config, content, [make_policy(p.name) for p in policies], 12)
    assert first.game == again.game  # deterministic from the game seed
    assert first.players[0]["policy"] == "search:4"


SHARED = {
    "config",
    "content",
    "rules",
    "tables",
    "board",
    "action_index",
    "potion_index",
    "ingredient_index",
    "practical_by_use",
    "space_order",
    "action_defaults",
    "source_index",
    "hooks",
}
"""Clone attributes shared with the game on purpose: static content, read-only tables (the state ``s`` is checked
field by field)."""


def fields(obj: object) -> dict[str, object]:
    """The instance attributes that are set: ``vars``, or for a compiled (mypyc) class, which has no ``__dict__``,
    the ones its ``__mypyc_attrs__`` names, or for a slotted class its ``__slots__``."""
    names = getattr(type(obj), "__mypyc_attrs__", None) or getattr(type(obj), "__slots__", None)
    if names is None:
        return dict(vars(obj))
    return {n: getattr(obj, n) for n in names if n != "__dict__" and hasattr(obj, n)}


def test_a_clone_copies_every_field_and_shares_no_mutable_state(content: Content) -> None:
    g = started(content, GameConfig(4, shapeshifting=True, omens=True))
    twin = g.clone([RandomPolicy() for _ in range(4)], 1)
    assert set(fields(twin)) == set(fields(g))
    for name, value in fields(g).items():
        if isinstance(value, (list, dict, set)) and name not in SHARED:
            assert getattr(twin, name) is not value, name
    assert twin.s is not g.s and set(fields(twin.s)) == set(fields(g.s)) and len(fields(g.s)) > 30
    for name, value in fields(g.s).items():  # the per-game state: every field copied, every container a new one
        if name not in ("players", "patients", "market"):  # records without __eq__: checked one by one below
            assert getattr(twin.s, name) == value, name
        if isinstance(value, (list, dict, set)):
            assert getattr(twin.s, name) is not value, name
    assert all(a is not b for a, b in zip(g.s.patients.values(), twin.s.patients.values(), strict=True))
    assert all(a is not b and a.deck == b.deck for a, b in zip(g.s.market, twin.s.market, strict=True))
    for mine, theirs in zip(g.s.players, twin.s.players, strict=True):
        assert mine is not theirs and mine.res is not theirs.res and mine.coven == theirs.coven
    assert all(a is not b for a, b in zip(g.modules, twin.modules, strict=True) if a.copy() is not a)


@pytest.mark.slow
def test_search_player_searches_the_draft_spells_and_close_calls(
    content: Content, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #28: search:N branches at the draft and at every spell taken (whatever the heuristic's values) and at
    decisions where the heuristic's two best options are within ``MARGIN``, and there only its ``WIDTH`` best options
    within ``MARGIN`` of its best; a decision it is sure about is the heuristic's pick, never searched."""
    from septima_sim.engine.view import Simulator
    from septima_sim.players import search

    searched: dict[str, int] = {}  # decisions searched, by kind
    seen: list[object] = []  # the decisions searched (kept alive: their ids stay unique)
    ids: set[int] = set()
    branch = Simulator.branch

    options: list[int] = []  # the option of every branch, in order

    def counted(self: Simulator, decision, *args, **kwargs):  # type: ignore[no-untyped-def]
        options.append(args[0])
        if id(decision) not in ids:
            ids.add(id(decision))
            seen.append(decision)
            searched[decision.kind] = searched.get(decision.kind, 0) + 1
        return branch(self, decision, *args, **kwargs)

    monkeypatch.setattr(Simulator, "branch", counted)
    sure: list[str] = []
    other = search.SearchPolicy._other

    def watched(self: search.SearchPolicy, decision, view):  # type: ignore[no-untyped-def]
        values = self.fallback.values(decision, view)  # type: ignore[attr-defined]
        before, branched = sum(searched.values()), len(options)
        pick = other(self, decision, view)
        top = [*sorted(values or [0.0], reverse=True), float("-inf")]
        if decision.kind not in search.SEARCHED and top[0] - top[1] >= search.MARGIN:
            assert sum(searched.values()) == before  # sure: not searched
            sure.append(decision.kind)
        elif decision.kind not in search.SEARCHED and values:
            close = sorted(range(len(values)), key=lambda i: -values[i])[: search.WIDTH]
            assert set(options[branched:]) <= {i for i in close if top[0] - values[i] < search.MARGIN}
        return pick

    monkeypatch.setattr(search.SearchPolicy, "_other", watched)
    config = GameConfig(4, "full", shapeshifting=True, omens=True)
    for seed in range(2):
        play_game(config, content, [make_policy("search:4") for _ in range(4)], seed)
    assert searched.get("draft_return", 0) == 8  # every seat's draft, both games
    assert searched.get("spell_gain", 0) > 0 and sure
    assert len(searched) > 3  # close calls of other kinds too
