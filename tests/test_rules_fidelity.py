"""Rules fidelity (issue #13): the four rule fixes, each named after its rule, and one test per value of each reading
of ``rules.toml [readings]``. Every test puts the game in a state where the old behaviour gives another result."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import polars as pl
import pytest

from septima_sim.content import INGREDIENTS, Content, load_content
from septima_sim.content.model import CRYSTAL, READINGS
from septima_sim.engine import actions, hunters, payment, trials
from septima_sim.engine.config import GameConfig
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.modules.omens import HALVES, OmensModule
from septima_sim.engine.modules.shapeshifting import animal_seat, cover
from septima_sim.engine.modules.widow import WidowModule
from septima_sim.engine.state import Player, SpellCard
from tests.helpers import (
    Scripted,
    action,
    area,
    first_active,
    make_game,
    place,
    script,
    set_res,
    vertex_of,
    witch,
)

HERB, ROOT, BERRY, MUSHROOM, SKULL = (INGREDIENTS.index(i) for i in ("herb", "root", "berry", "mushroom", "skull"))
ENGINE = Path(__file__).parent.parent / "septima_sim" / "engine"


@functools.cache
def reading(name: str, value: str) -> Content:
    """The base pack with one reading switched (through the override path a designer uses)."""
    return load_content(overrides={f"readings.{name}.value": value})


def res(g: Game, p: Player, **amounts: int) -> None:
    set_res(g, p.seat, **amounts)


def used_spell(p: Player) -> SpellCard:
    sp = SpellCard(0)
    sp.ready = False
    p.spells = [sp]
    return sp


# ---- fix 1, B12 / seed 001: an Also bonus before or after the main ability ------------------------------------------


def test_b12_also_ritual_bonus_first_pays_the_offering(content: Content) -> None:
    pol = Scripted(**{Kind.ALSO_ORDER: 1, Kind.RITUAL_BONUS: HERB, Kind.PAY: first_active})
    g = make_game(content, policies=[pol, Scripted()])
    p = g.s.players[0]
    res(g, p)
    p.ritual_row = 5  # row 6 is a ribbon with an offering: nothing to pay it with before the bonus
    actions.ritual(g, p, True, action(g, "ritual"))
    asked = pol.asked(Kind.ALSO_ORDER)
    assert [(d.options, d.context) for d in asked] == [((0, 1), "ritual")]
    assert p.ritual_row == 6 and p.res[HERB] == 0  # the bonus Herb paid the offering (main first: stays on row 5)


def test_b12_also_ritual_main_first_when_chosen(content: Content) -> None:
    g = make_game(content, policies=[Scripted(**{Kind.ALSO_ORDER: 0, Kind.RITUAL_BONUS: HERB}), Scripted()])
    p = g.s.players[0]
    res(g, p)
    p.ritual_row = 5
    actions.ritual(g, p, True, action(g, "ritual"))
    assert p.ritual_row == 5 and p.res[HERB] == 1  # no offering to pay when entering; the Herb comes after


def test_b12_also_order_not_asked_when_no_ribbon_is_entered(content: Content) -> None:
    pol = Scripted(**{Kind.RITUAL_BONUS: HERB})
    g = make_game(content, policies=[pol, Scripted()])
    p = g.s.players[0]
    p.ritual_row = 2  # row 3 has no ribbon: the order cannot matter
    actions.ritual(g, p, True, action(g, "ritual"))
    assert pol.asked(Kind.ALSO_ORDER) == [] and p.ritual_row == 3


def test_b12_also_order_asked_when_remember_copies_ritual(content: Content) -> None:
    ritual = 0
    pol = Scripted(
        **{Kind.REMEMBER: lambda d, v: ritual, Kind.ALSO_ORDER: 1, Kind.RITUAL_BONUS: ROOT, Kind.PAY: first_active}
    )
    g = make_game(content, policies=[pol, Scripted()])
    ritual = action(g, "ritual")
    p = g.s.players[0]
    res(g, p)
    p.discard = [ritual]
    p.ritual_row = 7  # row 8: offering, ready a spell, +5 Wisdom
    actions.remember(g, p, True, action(g, "remember"))
    assert [d.context for d in pol.asked(Kind.ALSO_ORDER)] == ["ritual"]
    assert p.ritual_row == 8 and p.wisdom == 5 and p.res[ROOT] == 0


def test_b12_also_plead_main_first_keeps_the_bonus_citizen_in_the_crowd(content: Content) -> None:
    pol = Scripted(**{Kind.ALSO_ORDER: 0})
    g = make_game(content, policies=[pol, Scripted()])
    p = g.s.players[0]
    p.supply, p.crowd = 5, 0
    actions.plead(g, p, True, action(g, "plead"))
    assert [(d.options, d.context) for d in pol.asked(Kind.ALSO_ORDER)] == [((1, 0), "plead")]
    assert g.s.seated[1] == [] and (p.supply, p.crowd, p.wisdom) == (4, 1, 2)  # bonus first would have seated it


# ---- fix 2, B26: offerings are paid whole or not at all ------------------------------------------------------------


def vengeful(g: Game) -> None:
    """Put the Vengeful Hermit (offerings cost 2) in force."""
    hermit = next(o for o in g.content.omens if o.id == "friendly-hermit")
    g.s.fx = HALVES[hermit.dark.hook](hermit.dark)


def test_b26_vengeful_hermit_offering_unaffordable_costs_nothing(content: Content) -> None:
    g = make_game(content, policies=[Scripted(**{Kind.PAY: first_active}), Scripted()])
    p = g.s.players[0]
    vengeful(g)
    res(g, p, herb=1)
    p.ritual_row = 5
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 5 and p.res[HERB] == 1  # the old loop paid the Herb, then failed on the second item


def test_b26_vengeful_hermit_offering_refused_costs_nothing_paid_whole(content: Content) -> None:
    pol = Scripted()  # declines (-1) when it may
    g = make_game(content, policies=[pol, Scripted()])
    p = g.s.players[0]
    vengeful(g)
    res(g, p, herb=1, root=1)
    p.ritual_row = 5
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 5 and p.res[:2] == [1, 1]
    g.policies[0] = pol = Scripted(**{Kind.PAY: first_active})
    p.res[BERRY] = 1
    actions.ritual(g, p, False, action(g, "ritual"))
    assert p.ritual_row == 6 and p.res[:3] == [0, 0, 1]
    pays = pol.asked(Kind.PAY)
    assert len(pays) == 2 and -1 in pays[0].options and -1 not in pays[1].options  # decline only before paying
    assert {d.context for d in pays} == {"ritual_row:6"}


# ---- fix 3, seed 001: a Crystal pays for any resource; one payment function ------------------------------------


def test_seed001_crystal_pays_for_the_goat_herb(content: Content) -> None:
    g = Game(GameConfig(2, shapeshifting=True), content, [Scripted(**{Kind.ANIMAL_ABILITY: 1}), Scripted()], 0)
    g.setup()
    g.s.buildings = {}
    p = g.s.players[0]
    p.coven = [witch(g, "hazel")]
    goat = next(i for i, a in enumerate(content.animals) if a.id == "goat")
    animal_seat(g, p).form = goat
    cover(g, p, p.coven[0])
    g.module("shapeshifting").start_phase(g)
    ritual = action(g, "ritual")
    g.s.played = [ritual, action(g, "heal")]
    g.module("shapeshifting").reveal(g)
    sp = used_spell(p)
    res(g, p, crystal=1)
    p.ritual_row = 2
    actions.resolve_card(g, p, ritual, False, ritual)
    assert sp.ready and p.res[CRYSTAL] == 0  # the old Goat needed a real Herb


def test_seed001_payment_keeps_the_rest_of_a_cost_payable(content: Content) -> None:
    pol = Scripted(**{Kind.PAY: first_active})
    g = make_game(content, policies=[pol, Scripted()])
    p = g.s.players[0]
    res(g, p, herb=1, root=1, berry=1)
    assert not payment.affordable(p, (HERB, HERB))
    assert payment.pay(g, p, (HERB, payment.ANY), "test")
    assert pol.asked(Kind.PAY)[0].options == (ROOT, BERRY)  # the Herb as "any" would leave the Herb item unpaid
    assert p.res == [0, 0, 1, 0, 0, 0]
    res(g, p, berry=1, crystal=1)
    assert payment.pay(g, p, (HERB, BERRY), "test") and p.res == [0] * 6  # the Crystal stands in for the Herb
    res(g, p, herb=1)
    assert not payment.pay(g, p, (HERB, payment.ANY), "test") and p.res[HERB] == 1  # whole or nothing


def test_seed001_every_ingredient_spend_goes_through_payment() -> None:
    """Only ``payment.pay`` takes resources from a player (``Game.pay_res`` is its primitive)."""
    callers = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("pay_res", "pay_any"):
                callers.append(path.name)
    assert set(callers) == {"payment.py"}


# ---- fix 4, seed 000: Animal form protects from the moment of Shapeshift (Spiders in solo) ------------------------


def test_seed000_animal_form_protects_from_the_shapeshift_on_spiders(content: Content) -> None:
    g = Game(GameConfig(1, shapeshifting=True), content, [Scripted()], 0)
    g.setup()
    g.s.buildings = {}
    p = g.s.players[0]
    p.coven = [witch(g, "hazel")]
    w = g.module("solo")
    assert isinstance(w, WidowModule)
    g.module("shapeshifting").start_phase(g)
    shapeshift = action(g, "shapeshift")
    g.s.played[0], w.card = shapeshift, action(g, "collect")
    p.hand[shapeshift] = False
    w.spiders = [g.board.neighbours[p.vertex][0], w.spiders[1]]
    g.s.septima_right = action(g, "move")  # unmatched: Shapeshift's bonus does not lower suspicion
    p.suspicion = 4
    g.resolve_turn(p)  # human at the start of the phase: shapeshifts now
    assert animal_seat(g, p).form >= 0
    w.resolve(g)  # the Widow after the player: her Spider reaches the (now animal) leader
    assert w.spiders[0] == p.vertex
    assert p.suspicion == 4 and not p.raised  # the old check (form at the phase start) raised it and rolled hunters


# ---- readings: one test per value -------------------------------------------------------------------------------


def test_readings_are_content_listed_and_complete(content: Content) -> None:
    rd = content.rules.readings
    assert {name: getattr(rd, name).allowed for name in READINGS} == READINGS
    assert reading("hunter_direction", "clockwise").hash != content.hash  # a reading is content


def relocate(c: Content) -> list[int]:
    """The hunter spaces after a raised seat in region 3 relocates, with active hunters on spaces 1 and 5."""
    g = make_game(c)
    p = g.s.players[0]
    place(g, p, next(v for v in g.board.edge_vertices if g.board.region_of[v] == 3))
    p.raised = True
    g.s.hunter_space, g.s.hunter_active = [1, 5], [True, True]
    hunters.relocate_hunter(g, p)
    return g.s.hunter_space


def test_reading_hunter_direction_clockwise() -> None:
    assert relocate(reading("hunter_direction", "clockwise")) == [1, 3]  # region 5's (ccw of 3) travels clockwise


def test_reading_hunter_direction_counterclockwise(content: Content) -> None:
    assert content.rules.readings.hunter_direction.value == "counterclockwise"  # seed 001, the default
    assert relocate(content) == [3, 5]  # region 1's travels counterclockwise


def _fox(c: Content, move: object) -> tuple[Game, Player, Scripted]:
    pol = Scripted(**{Kind.MOVE: move, Kind.ANIMAL_ABILITY: lambda d, v: d.options[0]})
    g = Game(GameConfig(2, shapeshifting=True), c, [pol, Scripted()], 0)
    g.setup()
    g.s.buildings = {}
    p = g.s.players[0]
    fox = next(i for i, a in enumerate(c.animals) if a.id == "fox")
    animal_seat(g, p).form = fox
    p.coven = [witch(g, "hazel")]
    cover(g, p, p.coven[0])
    g.module("shapeshifting").start_phase(g)
    move_card = action(g, "move")
    g.s.played = [move_card, action(g, "heal")]
    g.module("shapeshifting").reveal(g)
    return g, p, pol


def _near_root(g: Game, v: int) -> bool:
    return any(g.content.areas[a].ingredient == ROOT for a in g.board.vertex_areas[v])


def test_reading_fox_ability_after_move(content: Content) -> None:
    g, p, pol = _fox(content, lambda d, v: d.options[0])
    start, skulls = p.vertex, p.res[SKULL]
    actions.resolve_card(g, p, action(g, "move"), False, action(g, "move"))
    assert max(g.board.dist[start][v] for v in pol.asked(Kind.MOVE)[0].options) <= 3  # Move's own 3 steps
    assert [d.context for d in pol.asked(Kind.ANIMAL_ABILITY)] == ["fox"]  # then the extra move
    assert _near_root(g, p.vertex) and p.res[SKULL] == skulls + 1


def test_reading_fox_ability_the_move() -> None:
    c = reading("fox_ability", "the-move")
    far: list[int] = []

    def farthest_near_root(d, v) -> int:
        far.append(max(d.options, key=lambda x: (_near_root(g, x), g.board.dist[p.vertex][x])))
        return far[-1]

    g, p, pol = _fox(c, farthest_near_root)
    start, skulls = p.vertex, p.res[SKULL]
    actions.resolve_card(g, p, action(g, "move"), False, action(g, "move"))
    assert g.board.dist[start][far[0]] > 3 and p.vertex == far[0]  # the Move itself goes any number of steps
    assert pol.asked(Kind.ANIMAL_ABILITY) == [] and p.res[SKULL] == skulls + 1


def fly_then_collect(c: Content, use: object = None) -> tuple[Player, Scripted]:
    """A player with a Flying Ointment on a vertex without Herb plays Collect with Herb lunar; the potion flies to a
    Herb vertex (`use`: the POTION_USE rule, default: use it at the first offer)."""
    target = -1
    pol = Scripted(
        **{
            Kind.POTION_USE: use or (lambda d, v: d.options[0]),
            Kind.MOVE: lambda d, v: target if target in d.options else v.me.vertex,
        }
    )
    g = make_game(c, policies=[pol, Scripted()])
    p = g.s.players[0]
    herb_at = [any(g.content.areas[a].ingredient == HERB for a in areas) for areas in g.board.vertex_areas]
    place(g, p, next(v for v in range(len(herb_at)) if not herb_at[v] and v not in g.s.occupied))
    target = next(v for v in range(len(herb_at)) if herb_at[v] and v not in g.s.occupied)
    res(g, p)
    p.potions[g.practical_by_use["flying"]] = 1
    g.s.lunar = [HERB] * 6
    g.s.played = [action(g, "collect"), action(g, "heal")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    return p, pol


def test_reading_practical_potions_after_card() -> None:
    p, pol = fly_then_collect(reading("practical_potions", "after-card"))
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["after"]
    assert p.res[HERB] == 0  # collected where it stood, flew afterwards


def test_reading_practical_potions_own_turn(content: Content) -> None:
    assert content.rules.readings.practical_potions.value == "own-turn"  # seed 001, the default
    p, pol = fly_then_collect(content)
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["before"]
    assert p.res[HERB] >= 1  # flew first, then collected next to Herb


def remember_collect(c: Content) -> Player:
    """Remember copies Collect next to a crystal outcrop and the Market (play:collect: a Mushroom)."""
    collect = 0
    pol = Scripted(**{Kind.REMEMBER: lambda d, v: collect, Kind.INGREDIENT: MUSHROOM})
    g = make_game(c, policies=[pol, Scripted()])
    collect = action(g, "collect")
    p = g.s.players[0]
    place(g, p, vertex_of(g, "northgate", "east-quarry", "river-meadow"))
    market = next(i for i, b in enumerate(c.buildings) if b.id == "market")
    g.s.buildings = {area(g, "northgate"): market}
    res(g, p)
    g.s.lunar = [SKULL] * 6  # nothing lunar next to the leader
    p.discard = [collect]
    remember = action(g, "remember")
    g.s.played = [remember, action(g, "heal")]
    g.s.septima_right = action(g, "move")
    g.resolve_turn(p)
    return p


def test_reading_remember_abilities_card_text(content: Content) -> None:
    assert content.rules.readings.remember_abilities.value == "card-text"  # the default (issue #26)
    p = remember_collect(content)
    assert p.res[CRYSTAL] == 1 and p.res[MUSHROOM] == 0  # Collect's own Crystal comes; the Market follows Remember


def test_reading_remember_abilities_played_card() -> None:
    p = remember_collect(reading("remember_abilities", "played-card"))
    assert p.res[CRYSTAL] == 0 and p.res[MUSHROOM] == 0  # neither the outcrop nor the Market acts for the copy


def test_reading_remember_abilities_copied_card() -> None:
    p = remember_collect(reading("remember_abilities", "copied-card"))
    assert p.res[CRYSTAL] == 1 and p.res[MUSHROOM] == 1  # both act for the copied Collect


def _dragomir_recruited(c: Content) -> int:
    """Seat 0 wins an acquittal of Dragomir (second chamber) under Spiritual Link, recruits him; its suspicion."""
    g = Game(GameConfig(2, omens=True), c, [Scripted(**{Kind.OMEN: 1, Kind.RECRUIT: 1}), Scripted()], 0)
    g.setup()
    g.s.buildings = {}
    for q in g.s.players:
        q.coven = []
        q.crowd, q.supply = 0, 4
    m = g.module("omens")
    assert isinstance(m, OmensModule)
    m.activate(g, next(i for i, o in enumerate(c.omens) if o.id == "spiritual-link"), "bright")
    g.s.crowd_neutral = g.s.crowd_angry = 0
    p = g.s.players[0]
    p.suspicion = 4
    dragomir = witch(g, "dragomir")
    g.s.chamber1 = -1
    trials.judge(g, dragomir, [0, 0])
    assert dragomir in p.coven
    return p.suspicion


def test_reading_spiritual_link_dragomir_two_uses(content: Content) -> None:
    assert _dragomir_recruited(content) == 2  # once through the Omen, once from the coven


def test_reading_spiritual_link_dragomir_one_use() -> None:
    assert _dragomir_recruited(reading("spiritual_link_dragomir", "one-use")) == 3


def _remember_chant(c: Content) -> int:
    """A matched Remember (the Septima shows it) copying Chant from suspicion 4: the suspicion after the turn."""
    chant = 0
    g = make_game(c, policies=[Scripted(**{Kind.REMEMBER: lambda d, v: chant}), Scripted()])
    chant, remember = action(g, "chant"), action(g, "remember")
    p = g.s.players[0]
    p.suspicion, p.discard = 4, [chant]
    g.s.played = [remember, action(g, "heal")]
    g.s.septima_right = remember
    g.resolve_turn(p)
    return p.suspicion


def test_reading_remember_chant_raises(content: Content) -> None:
    assert content.rules.readings.remember_chant.value == "raises"
    assert _remember_chant(content) == 3  # -2 -1 from the copied Chant, +2 for matching the Septima (B21e)


def test_reading_remember_chant_no_raise() -> None:
    assert _remember_chant(reading("remember_chant", "no-raise")) == 1  # the copied bonus: no raise for the match


def _plead_into_chamber_2(c: Content) -> tuple[Game, list[tuple[int, ...]]]:
    """Plead with a witch in the first chamber and none in the second, choosing the second when offered: the game
    and the chamber options asked."""
    pol = Scripted(**{Kind.CHAMBER: lambda d, v: d.options[-1]})
    g = make_game(c, policies=[pol, Scripted()])
    g.s.players[0].crowd = 1
    g.s.chamber2 = []
    actions.plead(g, g.s.players[0], False, action(g, "plead"))
    return g, [d.options for d in pol.asked(Kind.CHAMBER)]


def test_reading_plead_empty_chamber_witch_needed(content: Content) -> None:
    assert content.rules.readings.plead_empty_chamber.value == "witch-needed"
    g, asked = _plead_into_chamber_2(content)
    assert asked == [] and g.s.seated == [[], [0], []]  # the first chamber only (no question)


def test_reading_plead_empty_chamber_any_chamber() -> None:
    g, asked = _plead_into_chamber_2(reading("plead_empty_chamber", "any-chamber"))
    assert asked == [(1, 2)] and g.s.seated == [[], [], [0]]  # the empty second chamber is offered
    g.s.chamber1 = -1  # no witch to judge: the seated citizen waits for one in vain ...
    trials.trial_phase(g, crowd_picks=False)
    assert g.s.seated == [[], [], []] and g.s.players[0].crowd == 1  # ... and is back in the crowd after the trials


# ---- readings through the console script ---------------------------------------------------------------------


def test_readings_listed_by_rules_command() -> None:
    out = script("rules")
    assert out.returncode == 0
    for name in READINGS:
        line = next(x for x in out.stdout.splitlines() if x.split()[:1] == [name])
        assert getattr(load_content().rules.readings, name).value in line


@pytest.mark.parametrize("value", ['"sideways"', "3"])
def test_reading_bad_override_exits_2_with_one_line(tmp_path: Path, value: str) -> None:
    cfg = tmp_path / "exp.toml"
    cfg.write_text(
        'name = "readings"\ngames_per_cell = 1\nseed = 1\n[matrix]\nplayers = [2]\n'
        f'[overrides]\n"readings.hunter_direction.value" = ["clockwise", {value}]\n'
    )
    out = script("run", str(cfg), "--out", str(tmp_path / "run"))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "readings.hunter_direction.value" in lines[0] and "Traceback" not in out.stderr
    assert not (tmp_path / "run").exists()


def test_reading_as_a_sweep_axis_plays_both_readings_on_the_same_seeds(tmp_path: Path) -> None:
    """A designer measures whether a reading matters: an ``[overrides]`` axis over its values is a run with one cell
    per value, on the same seeds, named by the value in the games table; the two readings give other games."""
    cfg = tmp_path / "exp.toml"
    cfg.write_text(
        'name = "readings"\ngames_per_cell = 20\nseed = 3\n[matrix]\nplayers = [4]\nlineup = ["all-random"]\n'
        '[overrides]\n"readings.hunter_direction.value" = ["clockwise", "counterclockwise"]\n'
    )
    out = script("run", str(cfg), "--out", str(tmp_path / "run"), "--quiet", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    games = pl.read_parquet(tmp_path / "run" / "games" / "**" / "*.parquet", hive_partitioning=False)
    column = "readings.hunter_direction.value"
    by_value = {v: g.sort("game_index") for (v,), g in games.group_by(column)}
    assert set(by_value) == {"clockwise", "counterclockwise"}
    a, b = by_value["clockwise"], by_value["counterclockwise"]
    assert a["seed"].to_list() == b["seed"].to_list()  # common random numbers
    assert a.select("winning_score", "margin").rows() != b.select("winning_score", "margin").rows()
