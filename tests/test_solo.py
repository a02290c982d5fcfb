"""Solo mode against the Black Widow (RULINGS §8 W1-W4, an assumed design kept in widow.toml; S9 for Shapeshifting)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from septima_sim.content import Content, load_content
from septima_sim.engine import trials
from septima_sim.engine.config import GameConfig
from septima_sim.engine.game import Game
from septima_sim.engine.modules import widow
from septima_sim.engine.modules.widow import WidowModule
from septima_sim.engine.results import SOURCES
from septima_sim.players import RandomPolicy
from tests.helpers import Scripted, action, witch


def wd(g: Game) -> WidowModule:
    """The game's Black Widow (the solo module)."""
    w = g.module("solo")
    assert isinstance(w, WidowModule)
    return w


def solo(content: Content, mode: str = "full", shapeshifting: bool = False, seed: int = 0, **rules: object) -> Game:
    g = Game(GameConfig(1, mode, shapeshifting=shapeshifting), content, [Scripted(**rules)], seed)
    g.setup()
    g.s.buildings = {}
    g.s.players[0].coven = [witch(g, "hazel")]
    return g


def test_w1_widow_has_one_marker_per_card_shuffled_each_season(content: Content) -> None:
    g = solo(content)
    assert sorted(wd(g).markers) == sorted(g.mode_actions)
    assert action(g, "chant") in wd(g).markers
    wd(g).reveal(g)
    assert wd(g).card >= 0 and len(wd(g).markers) == 8
    g.preparation()
    assert sorted(wd(g).markers) == sorted(g.mode_actions)
    basic = solo(content, mode="basic")
    assert len(wd(basic).markers) == 8 and action(basic, "ritual") not in wd(basic).markers


def test_w1_matching_the_widow_is_matching_a_player(content: Content) -> None:
    g = solo(content)
    p = g.s.players[0]
    g.s.played[0] = wd(g).card = action(g, "collect")
    g.s.septima_right = action(g, "heal")
    others, septima = g.matched(0, action(g, "collect"))
    assert (others, septima) == (1, False)
    p.suspicion = 2
    g.suspicion_step(p, action(g, "collect"), others, septima, False)
    assert p.suspicion == 3


def test_w1_the_widow_matching_raises_her_suspicion(content: Content) -> None:
    g = solo(content)
    w = wd(g)
    g.s.played[0] = w.card = action(g, "heal")
    w.suspicion = 2
    wd(g).resolve(g)
    assert w.suspicion == 3
    g.s.played[0], w.card = action(g, "collect"), action(g, "heal")
    wd(g).resolve(g)
    assert w.suspicion == 3


def test_w1_septima_markers_still_apply_to_the_player(content: Content) -> None:
    g = solo(content)
    g.s.played[0], wd(g).card = action(g, "plead"), action(g, "move")
    g.s.septima_right = action(g, "plead")
    assert g.matched(0, action(g, "plead")) == (0, True)


@pytest.mark.parametrize(
    ("card", "check"),
    [
        ("collect", lambda g, before: wd(g).wisdom == before["wisdom"] + 2),
        ("brew", lambda g, before: wd(g).wisdom == before["wisdom"] + 2),
        ("chant", lambda g, before: wd(g).suspicion == before["suspicion"] - 2),
        ("recruit", lambda g, before: wd(g).crowd == before["crowd"] + 1),
        ("ritual", lambda g, before: wd(g).ritual_row == before["ritual_row"] + 1),
    ],
)
def test_w2_widow_card_effects(content: Content, card: str, check: Callable[[Game, dict], bool]) -> None:
    g = solo(content)
    w = wd(g)
    g.s.played[0], w.card = action(g, "heal" if card != "heal" else "collect"), action(g, card)
    before = {"wisdom": w.wisdom, "suspicion": w.suspicion, "crowd": w.crowd, "ritual_row": w.ritual_row}
    wd(g).resolve(g)
    assert check(g, before)


def test_w2_widow_move_chases_the_player_and_never_shares_a_vertex(content: Content) -> None:
    g = solo(content)
    w, p = wd(g), g.s.players[0]
    g.s.played[0], w.card = action(g, "heal"), action(g, "move")
    start = g.board.dist[p.vertex][w.vertex]
    wd(g).resolve(g)
    after = g.board.dist[p.vertex][w.vertex]
    assert after == max(1, start - 3) and w.vertex != p.vertex and w.vertex in g.s.occupied


def test_w2_widow_heal_takes_the_lowest_numbered_patient(content: Content) -> None:
    g = solo(content)
    w = wd(g)
    lowest = min(g.s.patients, key=lambda s: (int(s.split("-")[1]), s.split("-")[0]))
    g.s.played[0], w.card = action(g, "collect"), action(g, "heal")
    wd(g).resolve(g)
    assert lowest not in g.s.patients and w.wisdom == 1


def test_w2_widow_plead_seats_her_citizen_and_remember_repeats(content: Content) -> None:
    g = solo(content)
    w = wd(g)
    w.crowd = 2
    g.s.played[0], w.card = action(g, "collect"), action(g, "plead")
    wd(g).resolve(g)
    assert g.s.seated[1] == [widow.WIDOW_TOKEN] and w.crowd == 1
    wd(g).end_turn(g)
    w.card = action(g, "remember")
    wd(g).resolve(g)
    assert g.s.seated[1] == [widow.WIDOW_TOKEN] * 2 and w.crowd == 0


def test_w2_spider_ending_on_the_player_raises_suspicion(content: Content) -> None:
    g = solo(content)
    w, p = wd(g), g.s.players[0]
    w.spiders = [g.board.neighbours[p.vertex][0], w.spiders[1]]
    g.s.played[0], w.card = action(g, "heal"), action(g, "collect")
    p.suspicion = 2
    wd(g).resolve(g)
    assert w.spiders[0] == p.vertex and p.suspicion == 3 and p.raised


def test_w2_widow_citizens_count_as_angry_and_a_conviction_is_her_win(content: Content) -> None:
    g = solo(content)
    w, p = wd(g), g.s.players[0]
    g.s.crowd_neutral = g.s.crowd_angry = 0
    p.crowd, p.supply = 2, 4
    w.crowd = 3
    trials.judge(g, g.s.chamber1, [])
    assert w.trials_won == 1 and w.wisdom == 3  # 3 Widow vs 2 loyal: convicted
    assert p.trials_won == 0 and w.crowd == 3 and p.crowd == 2


def test_w3_widow_suspicion_starts_at_2_and_stays_on_the_track(content: Content) -> None:
    g = solo(content)
    w = wd(g)
    assert w.suspicion == 2
    for _ in range(3):
        g.s.played[0], w.card = action(g, "collect"), action(g, "chant")
        wd(g).resolve(g)
    assert w.suspicion == -1


def test_w4_all_eight_tribulations_needed_seven_with_shapeshifting(content: Content) -> None:
    g = solo(content)
    assert widow.needed(g) == 8 and len(content.widow.tribulations) == 8
    assert widow.needed(solo(content, shapeshifting=True)) == 7


def test_w4_tribulations_are_checked_at_game_end(content: Content) -> None:
    g = solo(content)
    p = g.s.players[0]
    p.healed = [1, 1, 1]
    p.coven = [witch(g, "hazel"), witch(g, "isolde"), witch(g, "rowan")]
    p.trials_won = 2
    p.brewed[g.practical_by_use["love"]] = 4
    p.ritual_row = 6
    p.suspicion = 2
    g.s.goals_scored[0] = [0, 1]
    p.wisdom, wd(g).wisdom = 10, 9
    assert len(widow.tribulations(g, p)) == 8
    p.suspicion = 3
    assert "low-suspicion" not in widow.tribulations(g, p)


def test_w4_basic_mode_replaces_the_ritual_tribulation(content: Content) -> None:
    g = solo(content, mode="basic")
    p = g.s.players[0]
    p.crowd = 5
    assert "ritual-row-six" in widow.tribulations(g, p)


def test_s9_widow_keeps_chant_and_it_matches_shapeshift(content: Content) -> None:
    g = solo(content, shapeshifting=True)
    assert action(g, "chant") in wd(g).markers and action(g, "shapeshift") not in wd(g).markers
    wd(g).card = action(g, "chant")
    g.s.played[0] = action(g, "shapeshift")
    assert g.matched(0, action(g, "shapeshift"))[0] == 1


def test_widow_and_player_alternate_the_start_token(content: Content) -> None:
    g = solo(content)
    first = wd(g).first
    g.end_of_season()
    assert wd(g).first is not first


def test_widow_design_comes_from_content() -> None:
    changed = load_content(overrides={"widow.spiders": 0, "widow_cards.collect.effects": []})
    g = Game(GameConfig(1), changed, [Scripted()], 0)
    g.setup()
    assert wd(g).spiders == []
    g.s.played[0], wd(g).card = action(g, "heal"), action(g, "collect")
    wd(g).resolve(g)
    assert wd(g).wisdom == 0


@pytest.mark.parametrize(
    ("mode", "shapeshifting", "omens"),
    [
        ("full", False, False),
        ("basic", False, False),
        ("full", True, False),
        ("full", False, True),
        ("full", True, True),
    ],
)
def test_solo_games_keep_the_invariants(content: Content, mode: str, shapeshifting: bool, omens: bool) -> None:
    for seed in range(80):
        g = Game(GameConfig(1, mode, shapeshifting, omens), content, [RandomPolicy()], seed)
        result = g.play()
        row = result.players[0]
        assert sum(row[f"wisdom_{s}"] for s in SOURCES) == row["wisdom"] >= 0
        assert -1 <= row["suspicion_end"] <= 8 and row["witches_end"] <= 4
        assert row["crowd_end"] + g.s.players[0].supply == content.rules.loyal_citizens
        assert wd(g).vertex != g.s.players[0].vertex
        assert result.game["tribulations_met"] == len(result.game["tribulations"])
        assert result.game["solo_won"] == (result.game["tribulations_met"] >= widow.needed(g))
