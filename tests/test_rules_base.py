"""One focused test per rule id of RULINGS.md sections 1-7 and 11 (base game), named after it.

Each test builds a game, puts the state exactly where the rule applies and calls the engine function that implements
it, with scripted policies (tests/helpers.py) and scripted dice, then asserts exact numbers.
"""

from __future__ import annotations

from helpers import (
    Dice,
    Scripted,
    action,
    area,
    disease,
    first_active,
    goal,
    make_game,
    place,
    pol,
    set_res,
    spell,
    vertex_of,
    witch,
)

from septima_sim.content import INGREDIENTS, Content
from septima_sim.content.model import CRYSTAL
from septima_sim.engine import actions, crowd, hunters, potion_uses, potions, ritual, scoring, spells, trials
from septima_sim.engine.board import REGIONS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.results import SOURCE_INDEX
from septima_sim.engine.state import Patient, Player, SpellCard

HERB, ROOT, BERRY, MUSHROOM, SKULL = (INGREDIENTS.index(i) for i in ("herb", "root", "berry", "mushroom", "skull"))


def src(p: Player, source: str) -> int:
    """Wisdom a player gained from one source (results.SOURCES)."""
    return p.src[SOURCE_INDEX[source]]


_reset_res = set_res


# ------------------------------------------------------------------------------------------------ §1 frame
def test_b1_full_has_nine_cards_basic_eight_without_ritual(content: Content) -> None:
    full = make_game(content, mode="full")
    basic = make_game(content, mode="basic")
    assert [full.action_ids[i] for i in full.mode_actions] == [
        "collect",
        "move",
        "brew",
        "heal",
        "chant",
        "recruit",
        "plead",
        "remember",
        "ritual",
    ]
    assert len(basic.mode_actions) == 8 and action(basic, "ritual") not in basic.mode_actions
    assert all(sum(p.hand) == 9 for p in full.s.players)
    assert all(sum(p.hand) == 8 and not p.hand[action(basic, "ritual")] for p in basic.s.players)
    assert len(full.s.market) == 3 and basic.s.market == []  # no spells in Basic
    # a matched Basic action makes no ritual progress (no ritual track)
    p = basic.s.players[0]
    basic.s.played = [action(basic, "chant")] * 2
    basic.resolve_turn(p)
    assert p.ritual_row == 0


def test_b2_four_seasons_of_five_turns_and_no_end_of_season_after_summer(content: Content) -> None:
    calls: list[tuple[str, int, int]] = []

    class Counting(Game):
        def preparation(self, *args: object, **kwargs: object) -> None:
            calls.append(("prep", self.s.season, -1))
            super().preparation(*args, **kwargs)  # type: ignore[arg-type]

        def moon_phase(self, *args: object, **kwargs: object) -> None:
            calls.append(("moon", self.s.season, self.s.turn))
            super().moon_phase(*args, **kwargs)  # type: ignore[arg-type]

        def end_of_season(self, *args: object, **kwargs: object) -> None:
            calls.append(("end", self.s.season, -1))
            super().end_of_season(*args, **kwargs)  # type: ignore[arg-type]

    from septima_sim.engine.config import GameConfig

    g = Counting(GameConfig(players=3), content, [Scripted() for _ in range(3)], seed=5)
    g.play()
    moons = [(s, t) for k, s, t in calls if k == "moon"]
    assert moons == [(s, t) for s in range(4) for t in range(5)]
    assert [s for k, s, _ in calls if k == "prep"] == [1, 2, 3]  # skipped in Autumn
    assert [s for k, s, _ in calls if k == "end"] == [0, 1, 2]  # skipped after Summer
    assert content.rules.seasons == ("autumn", "winter", "spring", "summer")


def test_b3_tie_broken_by_witches_then_shared(content: Content) -> None:
    g = make_game(content, players=4)
    for p, wisdom, coven in zip(g.s.players, (10, 10, 10, 9), (2, 3, 3, 4), strict=True):
        p.wisdom = wisdom
        p.coven = list(range(coven))
    winners, ranks = scoring.ranking(g)
    assert winners == [1, 2]
    assert ranks == [3, 1, 1, 4]
    g.s.players[2].coven = [0, 1]
    assert scoring.ranking(g) == ([1], [2, 1, 2, 4])


def test_b4_start_player_random_and_passes_clockwise(content: Content) -> None:
    starts = {make_game(content, players=3, seed=s).s.start_player for s in range(30)}
    assert starts == {0, 1, 2}
    g = make_game(content, players=3, seed=1)
    s0 = g.s.start_player
    assert g.s.order == [s0, (s0 + 1) % 3, (s0 + 2) % 3]
    g.end_of_season()
    assert g.s.start_player == (s0 + 1) % 3
    assert g.s.order == [(s0 + 1) % 3, (s0 + 2) % 3, s0]


# ------------------------------------------------------------------------------------------------ §2 setup
def test_b5_player_setup(content: Content) -> None:
    returned: list[int] = []
    starts: list[int] = []

    def draft(d, v) -> int:
        returned.append(d.options[1])
        return d.options[1]

    def start(d, v) -> int:
        starts.append(d.seat)
        return d.options[-1]

    pols = [Scripted(draft_return=draft, start_vertex=start) for _ in range(3)]
    g = make_game(content, players=3, policies=pols, isolate=False)
    edge = set(g.board.edge_vertices)
    for p in g.s.players:
        assert p.supply == 6 and p.crowd == 0
        assert p.suspicion == 2
        assert sum(p.hand) == 9 and p.discard == []
        assert len(p.coven) == 2 and p.witches_start == 2
        assert len(g.s.goals[p.seat]) == 4
        assert p.res == [0, 0, 0, 0, 0, 1]  # 1 Crystal
        assert p.charms == 1
        assert p.vertex in edge
    assert len({p.vertex for p in g.s.players}) == 3
    assert starts == list(reversed(g.s.order))  # leaders placed in reverse turn order
    assert g.s.witch_deck[:3] == list(reversed(returned))  # the third witch goes under the deck
    assert not set(returned) & {w for p in g.s.players for w in p.coven}


def test_b6_board_setup(content: Content) -> None:
    for n, patients in ((2, 4), (3, 5), (4, 6)):
        g = make_game(content, players=n, isolate=False)
        coven = {w for p in g.s.players for w in p.coven}
        assert g.s.chamber1 >= 0 and g.s.chamber1 not in coven and g.s.chamber2 == []
        assert len(g.s.patients) == patients
        assert all(pt.angry == 0 for pt in g.s.patients.values())
        assert g.s.crowd_neutral == 4 and g.s.crowd_angry == 0
        assert len(g.s.buildings) == 4
        assert all(content.areas[a].town for a in g.s.buildings)
        assert len(set(g.s.buildings.values())) == 4
        assert g.s.septima_right != g.s.septima_left
        assert len(g.s.septima_bag) == 7
        assert g.s.crystal_supply == 16 - n


# ------------------------------------------------------------------------------------------------ §3 preparation
def test_b9_preparation(content: Content) -> None:
    g = make_game(content, players=2)
    g.s.season = 1
    g.s.chamber1 = -1
    top = g.s.witch_deck[-1]
    red = [i for i, (_, flag) in enumerate(content.patients) if flag == "red"]
    blue = [i for i, (_, flag) in enumerate(content.patients) if flag == "blue"]
    stay = Patient(red[0], content.patients[red[0]][0], "red-1", g.board.patient_spaces["red-1"])
    stay.angry = 3  # angry citizens from before are removed, then exactly one is put on a staying patient
    g.s.patients = {"red-1": stay}
    g.s.patient_stack = [blue[0], red[2], red[1]]  # drawn from the end: red[1], red[2], blue[0]
    g.preparation()
    assert g.s.chamber1 == top
    assert stay.angry == 1
    assert set(g.s.patients) == {"red-1", "red-2", "red-3", "blue-1"}  # lowest-numbered free space of its flag
    assert g.s.patients["red-2"].tile == red[1] and g.s.patients["red-3"].tile == red[2]
    assert g.s.patients["blue-1"].tile == blue[0]
    assert all(g.s.patients[s].angry == 0 for s in ("red-2", "red-3", "blue-1"))
    assert len(g.s.septima_bag) == 7 and g.s.septima_right != g.s.septima_left


def test_b10_septima_markers_one_per_card_right_is_now(content: Content) -> None:
    for mode, n in (("full", 9), ("basic", 8)):
        g = make_game(content, mode=mode)
        markers = [*g.s.septima_bag, g.s.septima_right, g.s.septima_left]
        assert sorted(markers) == list(g.mode_actions) and len(markers) == n
        right, left, nxt = g.s.septima_right, g.s.septima_left, g.s.septima_bag[-1]
        g.end_moon_phase()
        assert (g.s.septima_right, g.s.septima_left) == (left, nxt)
        g.s.played = [right, right]
        assert g.matched(0, right) == (1, False)  # the old right marker no longer matches
        assert g.matched(0, left) == (0, True)


# ------------------------------------------------------------------------------------------------ §4 moon phase
def test_b11_selection_is_secret_and_from_hand(content: Content) -> None:
    seen: list[tuple] = []

    def pick(d, v) -> int:
        seen.append(v.played)
        return d.options[-1]

    pols = [Scripted(card=pick) for _ in range(2)]
    g = make_game(content, policies=pols)
    brew = action(g, "brew")
    g.s.players[0].hand[brew] = False
    g.moon_phase()
    assert seen == [(-1, -1), (-1, -1)]  # nothing revealed while choosing
    options = pol(g, 0).asked(Kind.CARD)[0].options
    assert brew not in options and len(options) == 8
    for p in g.s.players:
        played = p.discard[-1]
        assert not p.hand[played] and p.played[played] == 1


def test_b12_matching_and_premove(content: Content) -> None:
    g = make_game(content, players=3)
    brew, chant, heal = action(g, "brew"), action(g, "chant"), action(g, "heal")
    g.s.septima_right = heal
    g.s.played = [brew, brew, chant]
    assert g.matched(0, brew) == (1, False)
    assert g.matched(2, chant) == (0, False)
    g.s.played = [heal, heal, heal]
    assert g.matched(0, heal) == (2, True)
    # the optional pre-move: stay or 1 step to a free neighbouring vertex
    p, q = g.s.players[0], g.s.players[1]
    v = vertex_of(g, "hospital", "northgate", "river-meadow")
    place(g, p, v)
    place(g, q, g.board.neighbours[v][0])
    g.s.played = [brew, chant, heal]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    premove = pol(g, 0).asked(Kind.PREMOVE)[0].options
    assert set(premove) == {v, *g.board.neighbours[v]} - {q.vertex}


def test_b12_unmatched_resolves_main_only_matched_adds_bonus(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    heal = action(g, "heal")
    actions.heal(g, p, False, heal)
    assert p.charms == 1
    actions.heal(g, p, True, heal)
    assert p.charms == 2  # Heal bonus (Also): 1 Good Luck Charm


def _suspicion_after(content: Content, start: int, others: int, septima: bool, card: str = "brew") -> int:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion = start
    g.suspicion_step(p, action(g, card), others, septima, False)
    return p.suspicion


def test_b13_matching_a_player_adds_one(content: Content) -> None:
    assert _suspicion_after(content, 2, 1, False) == 3
    assert _suspicion_after(content, 2, 2, False) == 3  # two matching players still +1


def test_b13_matching_the_septima_adds_two(content: Content) -> None:
    assert _suspicion_after(content, 2, 0, True) == 4


def test_b13_matching_both_adds_three(content: Content) -> None:
    assert _suspicion_after(content, 2, 1, True) == 5
    # the same through the whole resolution of a played card
    g = make_game(content)
    p = g.s.players[0]
    brew = action(g, "brew")
    g.s.played = [brew, brew]
    g.s.septima_right = brew
    g.resolve_turn(p)
    assert p.suspicion == 5 and p.raised


def test_b13_unmatched_adds_nothing(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    g.s.played = [action(g, "brew"), action(g, "heal")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    assert p.suspicion == 2 and not p.raised


def test_b13_raise_is_applied_one_point_at_a_time(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion, p.wisdom = 7, 10
    p.coven = [witch(g, "morgana")]
    g.raise_suspicion(p, 3)  # 7 -> 8, overflow (-5 Wisdom, 8 -> 7), 7 -> 8
    assert p.suspicion == 8 and p.overflows == 1 and p.wisdom == 5


def test_b13_overflow_one_witch_costs_five(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion, p.wisdom = 8, 7
    p.coven = [witch(g, "morgana")]
    g.raise_suspicion(p, 1)
    assert p.wisdom == 2 and p.suspicion == 7
    assert p.coven == [witch(g, "morgana")] and g.s.chamber2 == []
    assert src(p, "penalties") == -5  # counted as a penalty
    # the leader may then move any number of steps
    moves = pol(g, 0).asked(Kind.MOVE)
    assert set(moves[-1].options) == set(g.free_vertices(p, -1))
    assert len(moves[-1].options) == g.board.n_vertices - 1


def test_b13_overflow_wisdom_never_below_zero(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion, p.wisdom = 8, 3
    g.raise_suspicion(p, 1)
    assert p.wisdom == 0 and p.suspicion == 7


def test_b13_overflow_two_witches_sends_one_to_second_chamber(content: Content) -> None:
    g = make_game(content, policies=[Scripted(lose_witch=lambda d, v: d.options[1]), Scripted()])
    p = g.s.players[0]
    a, b = witch(g, "hazel"), witch(g, "rowan")
    p.suspicion, p.wisdom, p.coven = 8, 7, [a, b]
    g.s.chamber2 = [witch(g, "wren")]
    g.raise_suspicion(p, 1)
    assert p.coven == [a] and g.s.chamber2 == [witch(g, "wren"), b]  # stacked on top
    assert p.wisdom == 7 and p.suspicion == 7 and p.witches_lost == 1


def test_b13_suspicion_floor_is_minus_one(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion = 0
    g.lower_suspicion(p, 2)
    assert p.suspicion == -1


def test_b14_matched_player_advances_only_into_a_cell_showing_the_action(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    rows = content.ritual.rows
    assert p.ritual_col == 2 and rows[0][2] == "chant"
    ritual.ritual_progress(g, p, action(g, "brew"))
    assert p.ritual_row == 0
    ritual.ritual_progress(g, p, action(g, "chant"))
    assert p.ritual_row == 1
    # through the turn: matched Remember advances into a Remember cell (row 2, column 2); unmatched never does
    remember = action(g, "remember")
    assert rows[1][2] == "remember"
    g.s.played = [remember, action(g, "heal")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    assert p.ritual_row == 1
    g.s.played = [remember, remember]
    g.resolve_turn(p)
    assert p.ritual_row == 2


def test_b14_advancing_from_the_top_row_gives_four_wisdom(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.ritual_row = len(content.ritual.rows)
    ritual.ritual_progress(g, p, action(g, "brew"))
    assert p.wisdom == 4 and p.ritual_row == 10


def _hunter_setup(content: Content, suspicion_gap: int = 2) -> tuple[Game, int, int]:
    """Seat 0 in region 1 at distance d from hunter 0 (space 1) with suspicion d - gap; returns (game, d, v)."""
    g = make_game(content)
    p = g.s.players[0]
    hv = g.board.hunter_vertex[1]
    cands = [v for v in range(g.board.n_vertices) if g.board.region_of[v] == 1 and g.board.dist[hv][v] >= 3]
    v = max(cands, key=lambda x: (g.board.dist[hv][x], -x))
    place(g, p, v)
    d = g.board.dist[hv][v]
    g.s.hunter_space, g.s.hunter_active = [1], [True]
    p.suspicion = d - suspicion_gap
    p.raised = True
    p.coven = [witch(g, "hazel")]
    p.wisdom = 9
    return g, d, v


def test_b15_hunter_catches_exactly_when_die_plus_suspicion_reaches(content: Content) -> None:
    die = content.rules.hunter_die
    g, d, _ = _hunter_setup(content)
    g.rng_dice = Dice(die.index(1))  # 1 + (d - 2) = d - 1: one short
    hunters.hunter_roll(g, g.s.players[0])
    p = g.s.players[0]
    assert p.captures == 0 and p.wisdom == 9 and p.suspicion == d - 2 and p.hunter_rolls == 1
    g, d, _ = _hunter_setup(content)
    g.rng_dice = Dice(die.index(2))  # 2 + (d - 2) = d: reaches the leader
    hunters.hunter_roll(g, g.s.players[0])
    p = g.s.players[0]
    assert p.captures == 1 and p.wisdom == 4 and p.suspicion == d - 3
    assert g.s.hunter_space == [1]  # back on its start space


def test_b15_capture_with_two_witches_sends_one_to_second_chamber(content: Content) -> None:
    g, _, _ = _hunter_setup(content)
    p = g.s.players[0]
    p.coven = [witch(g, "hazel"), witch(g, "rowan")]
    g.rng_dice = Dice(content.rules.hunter_die.index(3))
    hunters.hunter_roll(g, p)
    assert p.captures == 1 and len(p.coven) == 1 and len(g.s.chamber2) == 1 and p.wisdom == 9


def test_b15_no_roll_without_raise_or_without_active_hunter(content: Content) -> None:
    g, _, _ = _hunter_setup(content)
    p = g.s.players[0]
    g.rng_dice = Dice()
    p.raised = False
    hunters.hunter_roll(g, p)
    p.raised = True
    g.s.hunter_active = [False]  # lying down
    hunters.hunter_roll(g, p)
    g.s.hunter_active = [True]
    g.s.hunter_space = [4]  # not in the leader's region
    hunters.hunter_roll(g, p)
    assert g.rng_dice.calls == 0 and p.hunter_rolls == 0


def test_b15_good_luck_charm_rerolls(content: Content) -> None:
    die = content.rules.hunter_die
    g, _, _ = _hunter_setup(content, suspicion_gap=3)  # needs a 3

    def reroll(dec, v) -> int:
        return 1 if dec.context < 3 else 0

    g.policies[0] = Scripted(charm_reroll=reroll)
    p = g.s.players[0]
    p.charms = 2
    g.rng_dice = Dice(die.index(1), die.index(3))
    hunters.hunter_roll(g, p)
    assert p.charms == 1 and p.captures == 1 and g.rng_dice.calls == 2


def test_b16_relocation_pulls_the_first_active_hunter_lying_down(content: Content) -> None:
    """Seed 001: the active hunter travels counterclockwise to your region (regions are numbered counterclockwise,
    so the one that comes is the first found clockwise, at lower numbers), lying down."""
    g = make_game(content)
    p = g.s.players[0]
    v = next(v for v in g.board.edge_vertices if g.board.region_of[v] == 3)
    place(g, p, v)
    p.raised = True
    g.s.hunter_space, g.s.hunter_active = [5, 1], [True, True]
    hunters.relocate_hunter(g, p)
    assert g.s.hunter_space == [5, 3] and g.s.hunter_active == [True, False]
    g.s.hunter_space, g.s.hunter_active = [5, 1], [True, False]  # an inactive hunter is skipped
    hunters.relocate_hunter(g, p)
    assert g.s.hunter_space == [3, 1] and g.s.hunter_active == [False, False]
    # no relocation when the region already holds a hunter, or without a raise
    g.s.hunter_space, g.s.hunter_active = [3, 5], [False, True]
    hunters.relocate_hunter(g, p)
    assert g.s.hunter_space == [3, 5]
    g.s.hunter_space, g.s.hunter_active = [1], [True]
    p.raised = False
    hunters.relocate_hunter(g, p)
    assert g.s.hunter_space == [1]


def test_b17_end_of_moon_phase(content: Content) -> None:
    g = make_game(content)
    brew, chant = action(g, "brew"), action(g, "chant")
    g.s.played = [brew, chant]
    g.s.players[0].hand[brew] = g.s.players[1].hand[chant] = False
    g.s.hunter_active = [False]
    remedy = g.potion_index["infection-remedy"]
    inf = disease(g, "infected")
    g.s.patients = {
        "red-1": Patient(0, inf, "red-1", g.board.patient_spaces["red-1"]),
        "red-2": Patient(1, inf, "red-2", g.board.patient_spaces["red-2"]),
    }
    g.s.patients["red-1"].healed_by = 1
    g.s.patients["red-1"].remedies = [remedy]
    g.s.potion_supply[remedy] = 5
    left = g.s.septima_left
    g.end_moon_phase()
    assert g.s.septima_right == left
    assert g.s.players[0].discard == [brew] and g.s.players[1].discard == [chant]
    assert not g.s.players[0].hand[brew]  # cards come back only at end of season
    assert g.s.played == [-1, -1]
    assert g.s.hunter_active == [True]
    assert list(g.s.patients) == ["red-2"] and g.s.patient_discard == [0]
    assert g.s.potion_supply[remedy] == 6


def test_b18_leader_cannot_end_on_an_occupied_vertex(content: Content) -> None:
    g = make_game(content)
    p, q = g.s.players
    v = vertex_of(g, "hospital", "northgate", "river-meadow")
    place(g, p, v)
    place(g, q, g.board.neighbours[v][0])
    assert q.vertex not in g.free_vertices(p, 1)
    assert q.vertex not in g.free_vertices(p, -1)
    assert p.vertex in g.free_vertices(p, 1)
    g.move_leader(p, -1)
    assert len(g.s.occupied) == 2


# ------------------------------------------------------------------------------------------------ §5 actions
def _collect_game(content: Content) -> tuple[Game, int]:
    g = make_game(content, policies=[Scripted(ingredient=SKULL), Scripted()])
    p = g.s.players[0]
    place(g, p, vertex_of(g, "east-quarry", "bone-field", "river-meadow"))  # berry+outcrop, skull, herb
    g.s.turn = 1
    g.s.lunar = [SKULL, BERRY, HERB, ROOT, MUSHROOM, SKULL]  # turn 2: berry and herb are lunar
    return g, action(g, "collect")


def test_b19_collect_lunar_ingredients_and_outcrop(content: Content) -> None:
    g, collect = _collect_game(content)
    p = g.s.players[0]
    actions.collect(g, p, False, collect)
    assert p.res == [1, 0, 1, 0, 0, 2]  # herb, berry, Crystal from the outcrop (+1 at start)
    g, collect = _collect_game(content)
    p = g.s.players[0]
    actions.collect(g, p, True, collect)
    assert p.res == [1, 0, 1, 0, 1, 2]  # bonus: the adjacent non-lunar skull


def test_b20_move_up_to_three_steps_and_one_ingredient(content: Content) -> None:
    g = make_game(content, policies=[Scripted(move=lambda d, v: max(d.options)), Scripted()])
    p = g.s.players[0]
    start = vertex_of(g, "hospital", "northgate", "river-meadow")
    place(g, p, start)
    _reset_res(g, 0)
    actions.move(g, p, False, action(g, "move"))
    options = pol(g, 0).asked(Kind.MOVE)[0].options
    within = {v for v in range(g.board.n_vertices) if g.board.dist[start][v] <= 3} - (g.s.occupied - {p.vertex})
    assert set(options) == within
    assert g.board.dist[start][p.vertex] <= 3
    assert sum(p.res) == 1 and p.res[CRYSTAL] == 0
    kinds = pol(g, 0).asked(Kind.INGREDIENT)[0].options
    here = {content.areas[a].ingredient for a in g.board.vertex_areas[p.vertex]} - {-1}
    assert here <= set(kinds) and HERB in kinds  # river-meadow next to the start


def test_b20_move_instead_any_steps_and_a_crystal(content: Content) -> None:
    g = make_game(content, policies=[Scripted(instead=1), Scripted()])
    p = g.s.players[0]
    _reset_res(g, 0)
    actions.move(g, p, True, action(g, "move"))
    options = pol(g, 0).asked(Kind.MOVE)[0].options
    assert len(options) == g.board.n_vertices - 1  # anywhere but the other leader's vertex
    assert p.res == [0, 0, 0, 0, 0, 1] and pol(g, 0).asked(Kind.INGREDIENT) == []


def test_b21_brew_bonus_pays_one_ingredient_less(content: Content) -> None:
    g = make_game(content, policies=[Scripted(brew=first_active), Scripted()])
    p = g.s.players[0]
    brew = action(g, "brew")
    _reset_res(g, 0, berry=1)
    actions.brew(g, p, False, brew)
    assert sum(p.potions) == 0 and p.res[BERRY] == 1  # unmatched: Berry alone brews nothing
    flying = g.potion_index["flying-ointment"]
    g.policies[0] = Scripted(brew=flying)
    actions.brew(g, p, True, brew)
    assert p.potions[flying] == 1 and p.res[BERRY] == 0
    assert p.wisdom == 3 and src(p, "brewing") == 3  # a Practical potion scores 3 when brewed
    assert g.s.potion_supply[flying] == 5


def test_b21_brew_up_to_three_with_crystal_wild_and_limited_supply(content: Content) -> None:
    g = make_game(content, policies=[Scripted(brew=first_active), Scripted()])
    p = g.s.players[0]
    infection = g.potion_index["infection-remedy"]
    _reset_res(g, 0, herb=1, crystal=1)
    actions.brew(g, p, False, action(g, "brew"))
    # only the Infection Remedy (Herb + Crystal for the Mushroom) or Herb-based recipes are payable; one brewed
    assert sum(p.potions) == 1 and p.res == [0, 0, 0, 0, 0, 0]
    _reset_res(g, 0, herb=5, root=5, berry=5, mushroom=5, skull=5)
    p.potions = [0] * len(p.potions)
    g.s.potion_supply[infection] = 0
    actions.brew(g, p, False, action(g, "brew"))
    assert sum(p.potions) == 3 and p.potions[infection] == 0
    assert len(pol(g, 0).asked(Kind.BREW)) == 4  # 1 + 3 asks: never a 4th potion in one action


def _heal_game(content: Content) -> tuple[Game, Patient]:
    g = make_game(content, policies=[Scripted(heal=first_active), Scripted(heal=first_active)])
    p = g.s.players[0]
    place(g, p, vertex_of(g, "east-quarry", "northgate", "river-meadow"))
    inf = disease(g, "infected")
    patient = Patient(0, inf, "red-2", g.board.patient_spaces["red-2"])
    patient.angry = 1
    g.s.patients = {"red-2": patient}
    p.potions[g.potion_index["infection-remedy"]] = 2
    return g, patient


def test_b21a_heal_places_remedy_removes_angry_and_advances_track(content: Content) -> None:
    g, patient = _heal_game(content)
    p = g.s.players[0]
    remedy = g.potion_index["infection-remedy"]
    inf = disease(g, "infected")
    actions.heal(g, p, False, action(g, "heal"))
    assert patient.remedies == [remedy] and patient.angry == 0 and patient.healed_by == 1
    assert p.potions[remedy] == 1 and p.tracks[inf] == 1 and p.healed[inf] == 1
    assert p.res[CRYSTAL] == 2  # Infected step 1 reward: 1 Crystal, at once
    assert p.charms == 1  # unmatched: no charm
    actions.heal(g, p, False, action(g, "heal"))  # the same patient cannot be healed twice by one player
    assert p.potions[remedy] == 1 and p.tracks[inf] == 1
    q = g.s.players[1]
    place(g, q, vertex_of(g, "northgate", "eastwatch", "east-quarry"))
    q.potions[remedy] = 1
    actions.heal(g, q, False, action(g, "heal"))  # another player may heal it too
    assert patient.healed_by == 0b11 and patient.remedies == [remedy, remedy]


def test_b21a_heal_at_most_two_patients(content: Content) -> None:
    g, _ = _heal_game(content)
    p = g.s.players[0]
    place(g, p, vertex_of(g, "hospital", "northgate", "river-meadow"))
    inf = disease(g, "infected")
    for space in ("red-1", "blue-1", "yellow-1"):
        g.s.patients[space] = Patient(0, inf, space, g.board.patient_spaces[space])
    p.potions[g.potion_index["infection-remedy"]] = 4
    actions.heal(g, p, True, action(g, "heal"))
    assert sum(1 for pt in g.s.patients.values() if pt.healed_by) == 2
    assert p.tracks[inf] == 2 and p.charms == 2  # matched: + 1 Good Luck Charm


def test_b21b_chant_lowers_two_bonus_one_more(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.suspicion = 5
    actions.chant(g, p, False, action(g, "chant"))
    assert p.suspicion == 3
    actions.chant(g, p, True, action(g, "chant"))
    assert p.suspicion == 0


def test_b21b_matched_chant_raises_none(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    chant = action(g, "chant")
    p.suspicion = 5
    g.s.played = [chant, chant]
    g.s.septima_right = chant
    g.resolve_turn(p)
    assert p.suspicion == 2 and not p.raised


def test_b21c_recruit_sends_a_citizen_bonus_one_crowd_pick(content: Content) -> None:
    g = make_game(content, policies=[Scripted(crowd_pick=3), Scripted()])  # pick 3 = suspicion -1
    p = g.s.players[0]
    recruit = action(g, "recruit")
    actions.recruit(g, p, False, recruit)
    assert (p.supply, p.crowd, p.suspicion) == (5, 1, 2)
    actions.recruit(g, p, True, recruit)
    assert (p.supply, p.crowd, p.suspicion) == (4, 2, 1)
    assert crowd.PICKS[3] == "suspicion"


def test_b21d_plead_gives_two_wisdom_without_citizen(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    actions.plead(g, p, False, action(g, "plead"))
    assert p.wisdom == 2 and src(p, "plead") == 2
    assert g.s.seated == [[], [], []] and p.crowd == 0 and p.supply == 6


def test_b21d_plead_seats_a_citizen_bonus_sends_one_first(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    plead = action(g, "plead")
    p.supply, p.crowd = 5, 1
    actions.plead(g, p, False, plead)
    assert g.s.seated[1] == [0] and (p.supply, p.crowd, p.wisdom) == (5, 0, 2)
    actions.plead(g, p, True, plead)  # the bonus citizen enters the crowd first and can be seated at once
    assert g.s.seated[1] == [0, 0] and (p.supply, p.crowd, p.wisdom) == (4, 0, 4)
    g.s.chamber2 = [witch(g, "hazel")]
    g.policies[0] = Scripted(chamber=2)
    p.crowd = 1
    actions.plead(g, p, False, plead)  # any chamber
    assert g.s.seated[2] == [0]


def test_b21e_remember_matching_judged_on_remember(content: Content) -> None:
    g = make_game(content, policies=[Scripted(remember=lambda d, v: action_chant), Scripted()])
    action_chant = action(g, "chant")
    p = g.s.players[0]
    remember = action(g, "remember")
    p.discard = [action_chant]
    p.suspicion = 5
    p.coven = [witch(g, "aylana"), witch(g, "mirabel")]  # Remember trigger applies, the copied Chant's does not
    g.s.played = [remember, remember]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    # copied Chant main -2 and bonus -1 (matched on Remember), then +1 for matching a player (not a Chant)
    assert p.suspicion == 3 and p.raised
    assert p.wisdom == 2  # Aylana's +2; Mirabel (play:chant) does not trigger
    assert g.s.remember_copy[0] == action_chant


def test_b21e_remember_unmatched_even_if_copied_card_is_played_by_others(content: Content) -> None:
    g = make_game(content, policies=[Scripted(remember=lambda d, v: action(g, "heal")), Scripted()])
    p = g.s.players[0]
    p.discard = [action(g, "heal")]
    g.s.played = [action(g, "remember"), action(g, "heal")]
    g.s.septima_right = action(g, "heal")
    g.resolve_turn(p)
    assert p.suspicion == 2 and p.charms == 1  # no raise, no Heal bonus


def test_b21f_ritual_advances_without_icon_and_shifts(content: Content) -> None:
    g = make_game(content, policies=[Scripted(ritual_shift=lambda d, v: d.options[1]), Scripted()])
    p = g.s.players[0]
    p.ritual_row = 2  # row 3, column 1 shows "plead": no icon needed
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 3 and p.ritual_col == 1  # shifted before advancing
    g.policies[0] = Scripted(ritual_bonus=HERB)
    _reset_res(g, 0)
    actions.ritual(g, p, True, action(g, "ritual"))
    assert p.ritual_row == 4 and p.ritual_col == 1 and p.res[HERB] == 1


def test_b21f_ritual_bonus_can_ready_a_spell(content: Content) -> None:
    g = make_game(content, policies=[Scripted(ritual_bonus=-1), Scripted()])
    p = g.s.players[0]
    p.ritual_row = 2
    p.spells = [SpellCard(spell(g, "stone-skin"))]
    p.spells[0].ready = False
    actions.ritual(g, p, True, action(g, "ritual"))
    assert p.spells[0].ready


def test_b21g_witch_building_and_outcrop_apply_to_the_same_action(content: Content) -> None:
    g = make_game(content, policies=[Scripted(ingredient=MUSHROOM), Scripted()])
    p = g.s.players[0]
    place(g, p, vertex_of(g, "northgate", "east-quarry", "river-meadow"))
    market = next(i for i, b in enumerate(content.buildings) if b.id == "market")
    g.s.buildings = {area(g, "northgate"): market}
    p.coven = [witch(g, "isolde")]
    g.s.lunar = [HERB, BERRY, ROOT, ROOT, ROOT, ROOT]
    collect = action(g, "collect")
    g.s.played = [collect, action(g, "brew")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    # herb + berry (lunar), Crystal (outcrop) + Crystal (Isolde) + start Crystal, Mushroom (Market)
    assert p.res == [1, 0, 1, 1, 0, 3]


def test_b21g_building_needs_adjacency(content: Content) -> None:
    g = make_game(content, policies=[Scripted(ingredient=MUSHROOM), Scripted()])
    p = g.s.players[0]
    place(g, p, vertex_of(g, "east-quarry", "bone-field", "river-meadow"))
    market = next(i for i, b in enumerate(content.buildings) if b.id == "market")
    g.s.buildings = {area(g, "northgate"): market}
    g.s.lunar = [ROOT] * 6
    g.s.played = [action(g, "collect"), action(g, "brew")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    assert p.res[MUSHROOM] == 0


# ------------------------------------------------------------------------------------------------ §6 ritual, spells
def test_b26_ribbons_and_offerings(content: Content) -> None:
    g = make_game(content, policies=[Scripted(pay=first_active), Scripted()])
    p = g.s.players[0]
    _reset_res(g, 0)
    p.ritual_row = 1
    actions.ritual(g, p, False, action(g, "ritual"))  # row 2: gain a spell, no offering
    assert p.ritual_row == 2 and len(p.spells) == 1
    p.ritual_row = 5
    actions.ritual(g, p, False, action(g, "ritual"))  # row 6 needs an offering: nothing to pay
    assert p.ritual_row == 5 and len(p.spells) == 1
    p.res[HERB] = 1
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 6 and len(p.spells) == 2 and p.res[HERB] == 0
    p.ritual_row = 7
    p.res[ROOT] = 1
    p.spells[0].ready = False
    actions.ritual(g, p, False, action(g, "ritual"))  # row 8: offering, ready 1 spell, +5 Wisdom
    assert p.ritual_row == 8 and p.wisdom == 5 and p.spells[0].ready and p.res[ROOT] == 0
    p.ritual_row = 10
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 10 and p.wisdom == 9


def test_b26_track_geometry(content: Content) -> None:
    r = content.ritual
    assert r.columns == (("earth",), ("earth", "air"), ("air",), ("air", "fire"), ("fire",))
    assert len(r.rows) == 10 and r.start_column == 2
    assert sorted(r.ribbons) == [2, 4, 6, 8, 10]
    assert [r.ribbons[k][0] for k in (2, 4, 6, 8, 10)] == [0, 0, 1, 1, 1]


def test_b27_spell_market_slots(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    row = spells.MarketRow([101, 102], [1, 2, 3, 4, 5])
    assert (row.middle, row.bottom) == (5, 4)
    g.s.market = [row, row, row]
    p.ritual_col = 0
    g.policies[0] = Scripted(spell_gain=(0, 1))
    spells.gain_spell(g, p)  # middle: a new middle is revealed
    assert p.spells[-1].idx == 5 and (row.middle, row.bottom) == (3, 4)
    g.policies[0] = Scripted(spell_gain=(0, 2))
    spells.gain_spell(g, p)  # bottom: the middle slides down, a new middle is revealed
    assert p.spells[-1].idx == 4 and (row.middle, row.bottom) == (2, 3)
    g.policies[0] = Scripted(spell_gain=(0, 0))
    spells.gain_spell(g, p)
    spells.gain_spell(g, p)  # scoring: top, then the other; then the slot stays empty
    assert [s.idx for s in p.spells[-2:]] == [102, 101] and row.scoring == []
    g.s.market = [row]
    spells.refresh_market(g)  # end of season: bottom discarded, middle slides down, new middle
    assert (row.middle, row.bottom) == (1, 2)


def test_b27_border_column_offers_both_elements(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.ritual_col = 1
    spells.gain_spell(g, p)
    elements = {e for e, _ in pol(g, 0).asked(Kind.SPELL_GAIN)[0].options}
    assert elements == {0, 1}


def test_b28_spell_once_per_turn_even_if_readied(content: Content) -> None:
    g = make_game(content, policies=[Scripted(spell_use=first_active), Scripted()])
    p = g.s.players[0]
    p.spells = [SpellCard(spell(g, "stone-skin"))]
    p.suspicion = 4
    brew = action(g, "brew")
    ritual.offer_spells(g, p, brew)
    assert p.suspicion == 3 and not p.spells[0].ready
    p.spells[0].ready = True
    ritual.offer_spells(g, p, brew)
    assert p.suspicion == 3 and len(pol(g, 0).asked(Kind.SPELL_USE)) == 1
    g.s.played = [brew, brew]
    g.end_moon_phase()
    ritual.offer_spells(g, p, brew)  # next turn it may be used again
    assert p.suspicion == 2


def test_b28_spell_requiring_an_action_and_ongoing_spells(content: Content) -> None:
    g = make_game(content, policies=[Scripted(spell_use=first_active), Scripted()])
    p = g.s.players[0]
    p.spells = [SpellCard(spell(g, "root-growth"))]  # requires Collect
    ritual.offer_spells(g, p, action(g, "brew"))
    assert p.spells[0].ready and pol(g, 0).log == []
    ritual.offer_spells(g, p, action(g, "collect"))
    assert not p.spells[0].ready
    p.spells = [SpellCard(spell(g, "cauldron-blaze"))]  # ongoing
    ritual.offer_spells(g, p, action(g, "brew"))
    assert p.spells[0].active
    p.spells[0].ready, p.spells[0].used_turn = True, -1
    n = len(pol(g, 0).log)
    ritual.offer_spells(g, p, action(g, "brew"))
    assert len(pol(g, 0).log) == n  # cannot be active twice


# ------------------------------------------------------------------------------------------------ §7 trials, end
def test_b24_trial_phase_angry_citizens_and_order(content: Content) -> None:
    g = make_game(content, players=3)
    for p, s in zip(g.s.players, (8, 4, -1), strict=True):
        p.suspicion = s
    levels = dict(zip(range(-1, 9), content.rules.angry_by_level, strict=True))
    assert levels == {-1: 0, 0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 4}
    inf = disease(g, "infected")
    g.s.patients = {
        "red-1": Patient(7, inf, "red-1", g.board.patient_spaces["red-1"]),
        "red-2": Patient(8, inf, "red-2", g.board.patient_spaces["red-2"]),
    }
    g.s.patients["red-1"].angry = 1
    g.s.chamber1 = 11
    g.s.chamber2 = [12, 13]
    judged: list[tuple[int, int]] = []
    angry: list[int] = []  # the angry crowd as each judgement starts (hooks, not a monkeypatch: compiled callers
    g.hooks.trial_bag = (lambda game, bag: angry.append(game.s.crowd_angry),)  # call trials.judge directly)
    g.hooks.judged = (lambda game, w, chamber, winner, loyal: judged.append((w, angry[-1])),)
    trials.trial_phase(g, crowd_picks=False)
    assert judged == [(11, 4 + 2 + 0 + 1), (13, 7), (12, 7)]  # first chamber, then the second from the top
    assert list(g.s.patients) == ["red-2"] and g.s.patient_discard == [7]
    assert g.s.crowd_angry == 0 and g.s.crowd_neutral == 4  # angry leave, neutral stay


def _judge_game(content: Content, *policies: Scripted) -> Game:
    g = make_game(content, policies=list(policies) or None)
    g.s.crowd_neutral = g.s.crowd_angry = 0
    g.sink = [].append  # the events: g.sink.__self__ (a compiled Game takes no attributes of a test's own)
    return g


def test_b25_acquittal_winner_gains_three_recruits_and_recalls_two(content: Content) -> None:
    g = _judge_game(content)
    p = g.s.players[0]
    p.coven = [witch(g, "hazel")]
    p.supply, p.crowd = 3, 3
    g.s.crowd_angry = 2
    w = witch(g, "rowan")
    trials.judge(g, w, [])
    assert p.wisdom == 3 and src(p, "trials") == 3 and p.trials_won == 1
    assert p.coven == [witch(g, "hazel"), w]
    assert (p.supply, p.crowd) == (5, 1)
    assert g.s.crowd_angry == 2  # drawn citizens return to the crowd (angry leave only after the last trial)


def test_b25_conviction_when_loyal_do_not_outnumber_angry(content: Content) -> None:
    g = _judge_game(content)
    p = g.s.players[0]
    p.supply, p.crowd = 3, 3
    g.s.crowd_angry = 3
    w = witch(g, "rowan")
    trials.judge(g, w, [])
    assert p.wisdom == 0 and p.trials_won == 0 and w in g.s.witch_box and w not in p.coven
    assert (p.supply, p.crowd) == (3, 3)


def test_b25_tie_goes_to_the_citizen_seated_first(content: Content) -> None:
    g = _judge_game(content)
    g.s.players[0].crowd, g.s.players[0].supply = 1, 5
    g.s.players[1].crowd, g.s.players[1].supply = 0, 5
    trials.judge(g, witch(g, "rowan"), [1])  # seat 1's citizen was placed by Plead
    assert g.s.players[1].trials_won == 1 and g.s.players[0].trials_won == 0
    assert g.s.players[1].supply == 6  # recalls its seated citizen


def test_b25_seats_limit_the_draw(content: Content) -> None:
    g = _judge_game(content)
    g.s.players[0].crowd, g.s.players[0].supply = 0, 4
    g.s.crowd_angry = 10
    trials.judge(g, witch(g, "rowan"), [0, 0])
    assert "loyal 2 angry 4" in g.sink.__self__[-1]["detail"]  # type: ignore[union-attr]  # 6 seats for 2 players: 2 seated + 4 drawn
    assert g.s.players[0].crowd == 2 and g.s.crowd_angry == 10


def test_b25_winner_at_four_witches_discards_one(content: Content) -> None:
    g = _judge_game(content, Scripted(discard_witch=lambda d, v: d.options[0]), Scripted())
    p = g.s.players[0]
    four = [witch(g, x) for x in ("hazel", "wren", "corvin", "silas")]
    p.coven = list(four)
    p.crowd = 1
    w = witch(g, "rowan")
    trials.judge(g, w, [])
    assert p.coven == [*four[1:], w] and four[0] in g.s.witch_box


def _picks_taken(content: Content, loyal: int, mode: str = "full") -> tuple[int, set[int], int]:
    g = make_game(content, mode=mode, policies=[Scripted(crowd_pick=first_active), Scripted()])
    p = g.s.players[0]
    p.crowd, p.supply = loyal, 6 - loyal
    g.s.chamber1 = -1  # no trial: only the crowd picks
    trials.trial_phase(g, crowd_picks=True)
    picks = [d for d in pol(g, 0).asked(Kind.CROWD_PICK)]
    chosen = {first_active(d, None) for d in picks}
    return len(picks), chosen, p.crowd


def test_b29_crowd_picks_3456_give_1234(content: Content) -> None:
    for loyal, k in ((2, 0), (3, 1), (4, 2), (5, 3), (6, 4)):
        asked, chosen, left = _picks_taken(content, loyal)
        assert asked == k and len(chosen) == k  # all different
        assert left == (loyal - 1 if k else loyal)  # recall 1 after taking any


def test_b29_no_picks_after_the_last_trial(content: Content) -> None:
    g = make_game(content)
    g.s.players[0].crowd = 6
    g.s.chamber1 = -1
    trials.trial_phase(g, crowd_picks=False)
    assert pol(g, 0).log == [] and g.s.players[0].crowd == 6


def test_b31_end_of_season(content: Content) -> None:
    g = make_game(content)
    g.s.season = 0
    g.s.patient_stack = [1, 2]
    g.s.patient_discard = [3, 4]
    g.s.hunter_space = [2]
    g.s.hunter_active = [False]
    p = g.s.players[0]
    brew, chant = action(g, "brew"), action(g, "chant")
    p.discard = [brew, chant]
    p.hand[brew] = p.hand[chant] = False
    row = g.s.market[0]
    middle = row.middle
    s0 = g.s.start_player
    g.end_of_season()
    assert sorted(g.s.patient_stack[:2]) == [3, 4] and g.s.patient_stack[2:] == [1, 2]  # under the stack
    assert g.s.hunter_space == [2, 1] and g.s.hunter_active[1]  # Winter: lowest-numbered empty space
    assert g.s.start_player == (s0 + 1) % 2
    assert p.discard == [] and p.hand[brew] and p.hand[chant]
    assert row.bottom == middle
    g.s.season = 1  # entering Spring: no new hunter
    g.end_of_season()
    assert len(g.s.hunter_space) == 2
    g.s.season = 2  # entering Summer
    g.end_of_season()
    assert g.s.hunter_space == [2, 1, 3]


def test_b32_loyal_citizens_3_4_score_3_and_5_plus_7(content: Content) -> None:
    for loyal, points in ((2, 0), (3, 3), (4, 3), (5, 7), (6, 7)):
        g = make_game(content)
        for p in g.s.players:
            p.crowd, p.charms = loyal, 0
            _reset_res(g, p.seat)
            g.s.goals[p.seat] = []
        scoring.score_end(g)
        assert g.s.players[0].wisdom == points and src(g.s.players[0], "loyal_citizens") == points


def test_b32_end_scoring_items(content: Content) -> None:
    g = make_game(content)
    p = g.s.players[0]
    p.coven = [0, 1, 2]
    p.healed = [2, 2, 1]  # 5 patients healed
    p.tracks = [2, 3, 1]
    p.charms = 2
    p.potions = [1, 0, 0, 1, 0, 0, 0]
    _reset_res(g, 0, herb=2, skull=2, crystal=1)
    g.s.goals[0] = [goal(g, x) for x in ("coven-of-four", "strong-coven", "healer", "master-healer")]
    scoring.score_end(g)
    got = {k: src(p, k) for k in ("divination", "patients", "charms", "potions", "resources")}
    # 3 witches -> the best 3 of the fulfilled goals (strong-coven 3, healer 3, master-healer 5)
    assert got == {"divination": 11, "patients": 3 + 5 + 1 + 6, "charms": 4, "potions": 2, "resources": 2}
    assert p.wisdom == 11 + 15 + 4 + 2 + 2


def test_b33_hunters(content: Content) -> None:
    assert content.rules.hunter_die == (0, 1, 1, 2, 2, 3)
    for n, start in ((2, [1]), (3, [1, 2]), (4, [1, 2])):
        g = make_game(content, players=n)
        assert g.s.hunter_space == start and all(g.s.hunter_active)
    g = make_game(content, players=4)
    b = g.board
    for r in range(1, REGIONS + 1):
        assert b.hunter_vertex[r] in b.edge_vertices and b.region_of[b.hunter_vertex[r]] == r
    for n, total in ((2, 3), (4, 4)):
        from septima_sim.engine.config import GameConfig

        game = Game(GameConfig(players=n), content, [Scripted() for _ in range(n)], seed=3)
        game.play()
        assert len(game.s.hunter_space) == total


# ------------------------------------------------------------------------------------------------ §11 content
def test_content11_ingredients_potions_and_names(content: Content) -> None:
    assert INGREDIENTS == ("herb", "root", "berry", "mushroom", "skull")
    assert {p.id: p.kind for p in content.potions} == {
        "infection-remedy": "remedy",
        "paralysis-remedy": "remedy",
        "blindness-remedy": "remedy",
        "calming-potion": "practical",
        "flying-ointment": "practical",
        "love-potion": "practical",
        "ritual-oil": "practical",
    }
    assert {p.cures for p in content.potions if p.kind == "remedy"} == {d.id for d in content.diseases}
    assert {d.id for d in content.diseases} == {"blind", "infected", "paralyzed"}
    assert all(p.wisdom == 3 for p in content.potions if p.kind == "practical")


def test_content11_recipes(content: Content) -> None:
    recipe = {p.id: sorted(INGREDIENTS[i] for i in p.recipe) for p in content.potions}
    assert recipe["infection-remedy"] == ["herb", "mushroom"]
    assert recipe["flying-ointment"] == ["berry", "mushroom"]
    assert recipe["paralysis-remedy"] == ["berry", "root"]
    assert len(recipe["love-potion"]) == 3 and "mushroom" in recipe["love-potion"]
    for pid in ("blindness-remedy", "calming-potion", "ritual-oil"):
        assert len(recipe[pid]) == 2 and "mushroom" not in recipe[pid]


def test_content11_toad_example_recipes(content: Content) -> None:
    """The Toad brews with no Mushrooms: 1 Berry -> Flying Ointment, 1 Herb -> Infection Remedy,
    Berry + Root -> Paralysis Remedy (seed-expansion example)."""

    def without_mushroom(pid: str) -> list[str]:
        pot = next(p for p in content.potions if p.id == pid)
        return sorted(INGREDIENTS[i] for i in pot.recipe if INGREDIENTS[i] != "mushroom")

    assert without_mushroom("flying-ointment") == ["berry"]
    assert without_mushroom("infection-remedy") == ["herb"]
    assert without_mushroom("paralysis-remedy") == ["berry", "root"]


def test_content11_alchemists_gift_holds(content: Content) -> None:
    """Alchemist's Gift: Love Potion from any 3, every other potion from any 2; with the Toad exactly Infection Remedy,
    Flying Ointment and Love Potion cost 1 less (so exactly they contain a Mushroom)."""
    sizes = {p.id: len(p.recipe) for p in content.potions}
    assert sizes.pop("love-potion") == 3 and set(sizes.values()) == {2}
    with_mushroom = {p.id for p in content.potions if INGREDIENTS.index("mushroom") in p.recipe}
    assert with_mushroom == {"infection-remedy", "flying-ointment", "love-potion"}


def test_content11_map_features(content: Content) -> None:
    areas = content.areas
    assert any(a.river for a in areas)
    assert any(a.ingredient == ROOT for a in areas)
    assert sum(a.town for a in areas) >= 4
    assert any(a.outcrop for a in areas)
    assert sorted(a.shrine for a in areas if a.shrine) == ["air", "earth", "fire"]
    assert sum(a.hospital for a in areas) == 1
    spaces = [s for a in areas for s in a.patient_spaces]
    flags = {s.rsplit("-", 1)[0] for s in spaces}
    assert flags == {flag for _, flag in content.patients}
    for flag in flags:
        assert sorted(int(s.rsplit("-", 1)[1]) for s in spaces if s.startswith(flag + "-")) == [1, 2, 3]


def test_content11_named_witches_and_spells(content: Content) -> None:
    ids = {w.id for w in content.witches}
    assert {"aylana", "tommy", "edith", "dragomir", "johanna", "bryn"} <= ids and len(ids) == 20
    spells = {s.id: s for s in content.spells}
    assert "magic-mirror" in spells and spells["vision-of-the-past"].element == "fire"
    for element in ("earth", "air", "fire"):
        kinds = [s.kind for s in content.spells if s.element == element]
        assert kinds.count("scoring") == 2 and kinds.count("regular") == 6


def test_content11_assumed_cards_never_raise_suspicion(content: Content) -> None:
    effects = [e for w in content.witches for e in w.ability.effects]
    effects += [e for b in content.buildings for e in b.ability.effects]
    effects += [e for s in content.spells for e in s.effects]
    effects += [e for d in content.diseases for e in d.rewards]
    assert all(e.amount <= 0 for e in effects if e.kind == "suspicion")


def test_content11_named_witch_abilities(content: Content) -> None:
    """Aylana/Tommy trigger on Remember, Edith heals any track, Dragomir lowers suspicion after a trial,
    Johanna acts after a trial, Bryn recalls 1 as winner and none after crowd picks."""
    g = _judge_game(content)
    p = g.s.players[0]
    p.coven = [witch(g, "bryn"), witch(g, "dragomir")]
    p.crowd, p.supply, p.suspicion = 3, 3, 4
    trials.judge(g, witch(g, "rowan"), [])
    assert (p.supply, p.crowd) == (4, 2)  # Bryn: recalls only 1
    assert p.suspicion == 3  # Dragomir
    p.crowd = 3
    g.s.chamber1 = -1
    g.policies[0] = Scripted(crowd_pick=first_active)
    trials.trial_phase(g, crowd_picks=True)
    assert p.crowd == 3 and len(pol(g, 0).asked(Kind.CROWD_PICK)) == 1  # Bryn: no recall after picks
    assert content.witches[witch(g, "aylana")].ability.trigger == "play:remember"
    assert content.witches[witch(g, "tommy")].ability.trigger == "play:remember"
    assert content.witches[witch(g, "johanna")].ability.trigger == "after_trial"
    g2, _ = _heal_game(content)
    g2.policies[0] = Scripted(heal=first_active, track=disease(g2, "blind"))
    q = g2.s.players[0]
    q.coven = [witch(g2, "edith")]
    actions.heal(g2, q, False, action(g2, "heal"))
    assert q.tracks[disease(g2, "blind")] == 1 and q.tracks[disease(g2, "infected")] == 0
    assert q.healed[disease(g2, "infected")] == 1


def test_content11_ritual_oil_treats_action_as_matched_and_still_raises_one(content: Content) -> None:
    g = make_game(
        content, policies=[Scripted(potion_use=lambda d, v: oil if d.context == "before" else -1), Scripted()]
    )
    oil = g.potion_index["ritual-oil"]
    p = g.s.players[0]
    p.potions[oil] = 1
    heal = action(g, "heal")
    g.s.played = [heal, action(g, "brew")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    assert p.charms == 2  # the Heal bonus applied
    assert p.suspicion == 3 and p.raised  # +1 for the oil
    assert p.potions[oil] == 0 and g.s.potion_supply[oil] == 7  # used: back to the supply (6 + this one)


def test_content11_practical_potions_in_own_turn(content: Content) -> None:
    g = make_game(content, policies=[Scripted(potion_use=first_active, calming=-1), Scripted()])
    calming, flying, love = (g.potion_index[x] for x in ("calming-potion", "flying-ointment", "love-potion"))
    p = g.s.players[0]
    p.potions[calming] = p.potions[flying] = p.potions[love] = 1
    p.suspicion, p.supply, p.crowd = 4, 6, 0
    potions.offer_potions(g, p)
    assert [d.options[0] for d in pol(g, 0).asked(Kind.POTION_USE)] == sorted([calming, flying, love])
    assert p.suspicion == 2  # Calming: -2
    assert len(pol(g, 0).asked(Kind.MOVE)[-1].options) == g.board.n_vertices - 1  # Flying: any steps
    assert (p.supply, p.crowd, g.s.seated[1]) == (5, 0, [0])  # Love: a citizen to the crowd, then into a chamber
    assert sum(p.potions) == 0


def test_content11_calming_potion_can_lay_a_hunter_down_elsewhere(content: Content) -> None:
    g = make_game(content, policies=[Scripted(calming=0 * 10 + 4), Scripted()])
    p = g.s.players[0]
    potion_uses.POTION_USES["calming"](g, p)
    assert g.s.hunter_space == [4] and g.s.hunter_active == [False] and p.suspicion == 2
