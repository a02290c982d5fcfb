"""Shapeshifting module (expansion rulebook; RULINGS S1-S8): one test per ruling and per animal ability, the
rulebook's Toad example, and invariants over many seeded games with the module on."""

from __future__ import annotations

import pytest

from septima_sim.content import Content
from septima_sim.engine import actions, hunters
from septima_sim.engine.config import GameConfig
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.modules.shapeshifting import animal_seat, cover, uncover
from septima_sim.engine.results import SOURCES
from septima_sim.engine.state import Player
from septima_sim.players import RandomPolicy
from tests.helpers import Scripted, action, place, witch


def ss_game(content: Content, players: int = 4, seed: int = 0, **rules: object) -> Game:
    g = Game(GameConfig(players, shapeshifting=True), content, [Scripted(**rules) for _ in range(players)], seed)
    g.setup()
    g.s.buildings = {}
    for p in g.s.players:
        p.coven = [witch(g, "hazel")]  # a witch whose ability cannot interfere with the rules under test
    return g


def animal(g: Game, animal_id: str) -> int:
    return next(i for i, a in enumerate(g.content.animals) if a.id == animal_id)


def become(g: Game, p: Player, animal_id: str, card_id: str) -> int:
    """Put a player in animal form from the start of this moon phase, playing `card_id`."""
    animal_seat(g, p).form = animal(g, animal_id)
    uncover(g, p)
    if p.coven:
        cover(g, p, p.coven[0])
    g.module("shapeshifting").start_phase(g)
    card = action(g, card_id)
    g.s.played[p.seat] = card
    g.module("shapeshifting").reveal(g)
    return card


def free_vertex(g: Game, p: Player, test) -> int:
    areas = g.content.areas
    return next(
        v
        for v in range(g.board.n_vertices)
        if (v == p.vertex or v not in g.s.occupied) and test([areas[a] for a in g.board.vertex_areas[v]])
    )


# ---- S1 -----------------------------------------------------------------------------------------------------------


def test_s1_shapeshift_replaces_chant_and_colours_get_their_animals(content: Content) -> None:
    g = ss_game(content)
    names = [[g.content.animals[a].id for a in animal_seat(g, p).animals] for p in g.s.players]
    assert names == [["serpent", "toad"], ["fox", "squirrel"], ["cat", "owl"], ["goat", "hare"]]
    for p in g.s.players:
        assert p.hand[action(g, "shapeshift")] and not p.hand[action(g, "chant")]
    assert action(g, "chant") in [g.s.septima_right, g.s.septima_left, *g.s.septima_bag]  # markers unchanged
    assert action(g, "shapeshift") not in [g.s.septima_right, g.s.septima_left, *g.s.septima_bag]


def test_s1_without_the_module_nobody_has_shapeshift(content: Content) -> None:
    g = Game(GameConfig(4), content, [Scripted() for _ in range(4)], 0)
    g.setup()
    assert all(not p.hand[action(g, "shapeshift")] and p.hand[action(g, "chant")] for p in g.s.players)


# ---- S2 -----------------------------------------------------------------------------------------------------------


def test_s2_shapeshift_turns_into_animal_covers_witch_and_returns_discards(content: Content) -> None:
    g = ss_game(content, **{Kind.ANIMAL: lambda d, v: d.options[1]})
    p = g.s.players[0]
    p.coven = [witch(g, "hazel"), witch(g, "mirabel")]
    for card in ("collect", "brew", "heal"):
        p.hand[action(g, card)] = False
        p.discard.append(action(g, card))
    ss = action(g, "shapeshift")
    p.hand[ss] = False
    g.s.played[0] = ss
    actions.resolve_card(g, p, ss, False, ss)
    assert g.content.animals[animal_seat(g, p).form].id == "toad"
    assert animal_seat(g, p).covered == witch(g, "hazel")
    assert p.discard == [] and all(p.hand[action(g, c)] for c in ("collect", "brew", "heal"))
    assert not p.hand[ss]
    g.s.played = [ss, action(g, "move"), action(g, "move"), action(g, "move")]
    g.end_moon_phase()
    assert p.hand[ss] and ss not in p.discard  # Shapeshift returns at the end of the turn
    assert animal_seat(g, p).form >= 0  # the scripted policy does not turn back


def test_s2_covered_witch_ability_is_off(content: Content) -> None:
    g = ss_game(content)
    p = g.s.players[0]
    p.coven = [witch(g, "hazel")]
    from septima_sim.engine.abilities import abilities

    assert list(abilities(g, p))
    cover(g, p, witch(g, "hazel"))
    assert list(abilities(g, p)) == []


def test_s2_matched_shapeshift_lowers_one_and_raises_none(content: Content) -> None:
    g = ss_game(content, players=2)
    ss = action(g, "shapeshift")
    g.s.played = [ss, ss]
    g.s.septima_right = action(g, "chant")  # matches the player and the Septima
    p = g.s.players[0]
    p.suspicion = 5
    p.coven = [witch(g, "hazel"), witch(g, "isolde")]
    others, septima = g.matched(0, ss)
    assert (others, septima) == (1, True)
    actions.resolve_card(g, p, ss, True, ss)
    g.suspicion_step(p, ss, others, septima, False)
    assert p.suspicion == 4 and not p.raised


def test_s2_shapeshift_matches_septima_chant_marker_and_chant_abilities_apply(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    p.coven = [witch(g, "isolde"), witch(g, "mirabel")]  # Isolde gets covered; Mirabel: Chant -> 1 Wisdom
    ss = action(g, "shapeshift")
    g.s.played = [ss, action(g, "move")]
    g.s.septima_right = action(g, "chant")
    p.hand[ss] = False
    g.resolve_turn(p)
    assert p.matches_septima == 1
    assert p.wisdom == 1  # Mirabel's Chant ability triggered by Shapeshift


# ---- S3 -----------------------------------------------------------------------------------------------------------


def test_s3_animal_form_selects_only_the_tile_actions(content: Content) -> None:
    g = ss_game(content)
    p = g.s.players[1]
    animal_seat(g, p).form = animal(g, "fox")
    g.module("shapeshifting").start_phase(g)
    opts = g.card_options(p)
    assert sorted(g.action_ids[i] for i in opts) == ["heal", "move", "plead", "remember"]
    p.hand[action(g, "plead")] = False
    assert "plead" not in [g.action_ids[i] for i in g.card_options(p)]


def test_s3_ability_only_with_the_leftmost_action(content: Content) -> None:
    g = ss_game(content)
    p = g.s.players[1]
    become(g, p, "fox", "move")
    assert p.fx.id == "move_to_ingredient"
    become(g, p, "fox", "heal")
    assert p.fx.id == ""


def test_s3_rules_apply_only_when_the_phase_starts_in_animal_form(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    g.module("shapeshifting").start_phase(g)  # human at the start of the phase
    animal_seat(g, p).form = animal(g, "toad")  # shapeshifted during the phase
    g.raise_suspicion(p, 2)
    assert p.suspicion == 4  # human rules still apply this turn


# ---- S4 -----------------------------------------------------------------------------------------------------------


def test_s4_animal_unmatched_lowers_one_matched_does_not_raise(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    card = become(g, p, "toad", "move")
    p.suspicion = 3
    g.suspicion_step(p, card, 0, False, False)
    assert p.suspicion == 2
    g.suspicion_step(p, card, 1, True, False)  # matched a player and the Septima: would be +3
    assert p.suspicion == 2 and not p.raised


def test_s4_nothing_raises_suspicion_in_animal_form_so_no_hunter_roll(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    become(g, p, "toad", "move")
    p.suspicion = 8
    g.raise_suspicion(p, 3)  # would overflow
    assert p.suspicion == 8 and p.overflows == 0 and not p.raised
    hunters.hunter_roll(g, p)
    assert p.hunter_rolls == 0


def test_s4_ritual_oil_needs_a_raise_so_it_is_unavailable(content: Content) -> None:
    g = ss_game(content, players=2, **{Kind.POTION_USE: lambda d, v: d.options[0]})
    p = g.s.players[0]
    oil = g.practical_by_use["ritual-oil"]
    p.potions[oil] = 1
    card = become(g, p, "toad", "move")
    g.s.played[1] = action(g, "heal")
    g.s.septima_right = action(g, "plead")
    p.hand[card] = False
    g.resolve_turn(p)
    assert p.potions[oil] == 1  # not offered, not used


# ---- S5 -----------------------------------------------------------------------------------------------------------


def test_s5_forced_turn_back_without_tile_actions_in_hand(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    become(g, p, "toad", "brew")
    for card in ("brew", "ritual", "move", "remember"):
        p.hand[action(g, card)] = False
    g.s.played = [action(g, "brew"), action(g, "heal")]
    g.end_moon_phase()
    assert animal_seat(g, p).form == -1 and animal_seat(g, p).covered == -1


def test_s5_a_player_may_choose_to_turn_back(content: Content) -> None:
    g = ss_game(content, players=2, **{Kind.TURN_BACK: 1})
    p = g.s.players[0]
    become(g, p, "toad", "brew")
    g.s.played = [action(g, "brew"), action(g, "heal")]
    g.end_moon_phase()
    assert animal_seat(g, p).form == -1


def test_s5_staying_an_animal_is_allowed(content: Content) -> None:
    g = ss_game(content, players=2, **{Kind.TURN_BACK: 0})
    p = g.s.players[0]
    become(g, p, "toad", "brew")
    g.s.played = [action(g, "brew"), action(g, "heal")]
    g.end_moon_phase()
    assert g.content.animals[animal_seat(g, p).form].id == "toad"


# ---- S6 -----------------------------------------------------------------------------------------------------------


def test_s6_end_of_season_returns_no_cards(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    p.hand[action(g, "brew")] = False
    p.discard = [action(g, "brew")]
    g.end_of_season()
    assert p.discard == [action(g, "brew")] and not p.hand[action(g, "brew")]


# ---- S7: the eight animals ----------------------------------------------------------------------------------------


def test_s7_toad_rulebook_example(content: Content) -> None:
    """Toad next to a river: 1 Berry brews a Flying Ointment (3 Wisdom), 1 Herb an Infection Remedy, 1 Berry and
    1 Root a Paralysis Remedy."""
    brews = iter(["flying-ointment", "infection-remedy", "paralysis-remedy"])
    g = ss_game(content, players=2, **{Kind.BREW: lambda d, v: g.potion_index[next(brews)]})
    p = g.s.players[0]
    place(g, p, free_vertex(g, p, lambda areas: any(a.river for a in areas) and not any(a.town for a in areas)))
    card = become(g, p, "toad", "brew")
    p.res = [1, 1, 2, 0, 0, 0]  # herb, root, berry, mushroom, skull, crystal
    actions.resolve_card(g, p, card, False, card)
    assert p.res == [0, 0, 0, 0, 0, 0]
    assert p.wisdom == 3
    for name in ("flying-ointment", "infection-remedy", "paralysis-remedy"):
        assert p.potions[g.potion_index[name]] == 1


def test_s7_toad_away_from_river_pays_mushrooms(content: Content) -> None:
    g = ss_game(content, players=2)
    p = g.s.players[0]
    place(g, p, free_vertex(g, p, lambda areas: not any(a.river for a in areas)))
    become(g, p, "toad", "brew")
    from septima_sim.engine import potions

    p.res = [0, 0, 1, 0, 0, 0]
    assert p.fx.waived_ingredient(g, p) == -1
    assert not potions.can_pay(p, g.potion_index["flying-ointment"], g, 0, -1)


def test_s7_serpent_takes_two_crowd_picks_instead_of_remember_and_one_more_when_matched(content: Content) -> None:
    g = ss_game(content, players=2, **{Kind.ANIMAL_ABILITY: 1, Kind.CROWD_PICK: lambda d, v: d.options[0]})
    p = g.s.players[0]
    card = become(g, p, "serpent", "remember")
    p.discard = [action(g, "plead")]
    actions.resolve_card(g, p, card, False, card)
    assert len(g.policies[0].asked(Kind.CROWD_PICK)) == 2 and p.wisdom == 0  # Plead not copied
    g.policies[0].log.clear()
    actions.resolve_card(g, p, card, True, card)
    assert len(g.policies[0].asked(Kind.CROWD_PICK)) == 3


def test_s8_serpent_remember_still_triggers_aylana(content: Content) -> None:
    g = ss_game(content, players=2, **{Kind.ANIMAL_ABILITY: 1})
    p = g.s.players[0]
    p.coven = [witch(g, "aylana"), witch(g, "hazel")]
    card = become(g, p, "serpent", "remember")
    uncover(g, p)
    cover(g, p, witch(g, "hazel"))
    p.hand[card] = False
    g.s.played[1] = action(g, "heal")
    g.s.septima_right = action(g, "plead")
    g.resolve_turn(p)
    assert p.wisdom == 2  # Aylana: 2 Wisdom when you play Remember


def test_s7_goat_spends_a_herb_to_ready_a_spell(content: Content) -> None:
    g = ss_game(content, players=4, **{Kind.ANIMAL_ABILITY: 1})
    p = g.s.players[3]
    from septima_sim.engine.state import SpellCard

    sp = SpellCard(0)
    sp.ready = False
    p.spells = [sp]
    p.res[0] = 1
    card = become(g, p, "goat", "ritual")
    actions.resolve_card(g, p, card, False, card)
    assert sp.ready and p.res[0] == 0


def test_s7_hare_gains_a_root_per_patient_healed(content: Content) -> None:
    g = ss_game(content, players=4, **{Kind.HEAL: lambda d, v: d.options[0]})
    p = g.s.players[3]
    hospital = g.board.area_by_id["hospital"]
    place(g, p, g.board.area_vertices[hospital][0])
    here = [pt for pt in g.s.patients.values() if pt.area in g.board.vertex_areas[p.vertex]]
    assert here, "the hospital holds patients at setup"
    for pt in here:
        p.potions[g.remedy_of[pt.disease]] += 1
    card = become(g, p, "hare", "heal")
    roots = p.res[1]
    actions.resolve_card(g, p, card, False, card)
    healed = sum(p.healed)
    assert healed >= 1 and p.res[1] - roots >= healed  # 1 Root per patient (track rewards may add more)


def test_s7_fox_moves_next_to_root_and_gains_a_skull(content: Content) -> None:
    g = ss_game(content, players=4, **{Kind.ANIMAL_ABILITY: lambda d, v: d.options[0]})
    p = g.s.players[1]
    card = become(g, p, "fox", "move")
    skulls = p.res[4]
    actions.resolve_card(g, p, card, False, card)
    assert p.res[4] == skulls + 1
    assert any(g.content.areas[a].ingredient == 1 for a in g.board.vertex_areas[p.vertex])


def test_s7_squirrel_adds_one_of_each_lunar_type_at_most_two(content: Content) -> None:
    g = ss_game(content, players=4)
    p = g.s.players[1]
    g.s.turn = 0
    g.s.lunar = [0, 1, 2, 3, 4, 0]  # herb and root are lunar
    v = free_vertex(g, p, lambda areas: {a.ingredient for a in areas} >= {0, 1} and not any(a.outcrop for a in areas))
    place(g, p, v)
    card = become(g, p, "squirrel", "collect")
    before = list(p.res)
    actions.resolve_card(g, p, card, False, card)
    gained = [p.res[i] - before[i] for i in range(6)]
    base = [sum(1 for a in g.board.vertex_areas[v] if g.content.areas[a].ingredient == i) for i in range(5)]
    assert gained[0] == base[0] + 1 and gained[1] == base[1] + 1


def test_s7_cat_recruits_one_more_next_to_a_town(content: Content) -> None:
    g = ss_game(content, players=4)
    p = g.s.players[2]
    place(g, p, free_vertex(g, p, lambda areas: any(a.town for a in areas)))
    card = become(g, p, "cat", "recruit")
    actions.resolve_card(g, p, card, False, card)
    assert p.crowd == 2
    place(g, p, free_vertex(g, p, lambda areas: not any(a.town for a in areas)))
    actions.resolve_card(g, p, card, False, card)
    assert p.crowd == 3


def test_s7_owl_seats_one_more_citizen(content: Content) -> None:
    g = ss_game(content, players=4)
    p = g.s.players[2]
    p.crowd, p.supply = 2, 4
    card = become(g, p, "owl", "plead")
    actions.resolve_card(g, p, card, False, card)
    assert p.crowd == 0 and g.s.seated[1] == [2, 2] and p.wisdom == 2


# ---- invariants over many seeded games -----------------------------------------------------------------------------


class Watched(Game):
    """A game that checks the module's invariants at every step of every turn."""

    def resolve_turn(self, p: Player) -> None:
        before = p.suspicion
        if animal_seat(self, p).in_animal:
            card = self.s.played[p.seat]
            tiles = self.module("shapeshifting").tiles  # type: ignore[attr-defined]
            assert card in tiles[animal_seat(self, p).form], "played a card outside the tile in animal form"
        super().resolve_turn(p)
        if animal_seat(self, p).in_animal:
            assert p.suspicion <= before and not p.raised

    def end_of_season(self) -> None:
        hands = [list(p.hand) for p in self.s.players]
        super().end_of_season()
        assert hands == [list(p.hand) for p in self.s.players], "cards returned at the end of a season"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_module_invariants_over_seeded_games(content: Content, players: int) -> None:
    shapeshifts = 0
    for seed in range(120):
        g = Watched(GameConfig(players, shapeshifting=True), content, [RandomPolicy() for _ in range(players)], seed)
        result = g.play()
        shapeshifts += sum(r["shapeshifts"] for r in result.players)
        for row in result.players:
            assert row["played_chant"] == 0
            assert sum(row[f"wisdom_{s}"] for s in SOURCES) == row["wisdom"]
            assert -1 <= row["suspicion_end"] <= 8
    assert shapeshifts > 100
