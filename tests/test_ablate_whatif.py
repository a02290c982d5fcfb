"""Issue 30's what-ifs on planted content: a spell and a goal forced to a seat (engine setup and ``ablate --arms
forced``), a tile pair made stronger and swapped between colours (``--arms swap``: the advantage follows the tiles,
the report says so and names seats by the tiles they held), and the power planner (``plan-games``, games to settle
an unclear verdict)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from septima_sim.ablate.kinds import KINDS
from septima_sim.ablate.variant import write_swap
from septima_sim.analysis import power
from septima_sim.analysis.expansions import registered
from septima_sim.content import load_content
from septima_sim.content.loader import BASE_DIR, content_tree
from septima_sim.engine import GameConfig
from septima_sim.engine.game import Game
from septima_sim.players import RandomPolicy
from septima_sim.report.names import SeatNames
from septima_sim.report.sections.seat_swap import verdict

SCRIPT = Path(sys.executable).parent / "septima-sim"
SLOW = pytest.mark.slow
SPELL, GOAL = "bountiful-harvest", "coven-of-four"
CONFIG = """name = "whatif"
games_per_cell = 10
seed = 11
content = "pack"
[matrix]
players = [{players}]
mode = "full"
shapeshifting = {ss}
lineup = ["all-random"]
"""


def cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False, cwd=cwd, timeout=600
    )


def pack_with(root: Path, edits: list[tuple[str, str, str]], rules: str = "") -> Path:
    """The built-in pack with each (file, old, new) edit made once, and ``rules`` appended to rules.toml."""
    pack = root / "pack"
    shutil.copytree(BASE_DIR, pack)
    for file, old, new in edits:
        text = (pack / file).read_text()
        assert text.count(old) == 1, (file, old)
        (pack / file).write_text(text.replace(old, new))
    with (pack / "rules.toml").open("a", encoding="utf-8") as f:
        f.write(rules)
    return pack


STRONG_CARDS = [
    ("spells.toml", "unit = 5\namount = 2", "unit = 5\namount = 40"),  # Bountiful Harvest: 40 Wisdom per 5
    ("goals.toml", "value = 4\nwisdom = 6", "value = 0\nwisdom = 60"),  # Coven of Four: always met, 60 Wisdom
]
STRONG_TILES = [  # purple's Cat and Owl: 30 citizens instead of 1
    ("animals.toml", "Town area\namount = 1", "Town area\namount = 30"),
    ("animals.toml", "trial chamber\namount = 1", "trial chamber\namount = 30"),
]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_forced_spell_starts_in_the_seats_hand_and_a_forced_goal_is_dealt_to_it(tmp_path: Path, players: int) -> None:
    plain = load_content(None)
    spells, goals = [s.id for s in plain.spells], [g.id for g in plain.goals]
    last = players - 1
    rules = (
        f'\n[setup.forced_spells]\n{last} = "{spells[0]}"\n0 = "{spells[-1]}"\n[setup.forced_goals]\n0 = "{goals[3]}"\n'
    )
    pack = load_content(pack_with(tmp_path, [], rules))
    assert dict(pack.rules.forced_spells) == {last: 0, 0: len(spells) - 1} and pack.rules.forced_goals == ((0, 3),)
    for seed in range(40):
        g = Game(GameConfig(players=players, mode="full"), pack, [RandomPolicy() for _ in range(players)], seed)
        g.setup()
        assert [sp.idx for sp in g.s.players[last].spells][-1:] == [0]
        assert len(spells) - 1 in [sp.idx for sp in g.s.players[0].spells]
        assert all(sp.ready for p in g.s.players for sp in p.spells) and all(p.spells_gained == 0 for p in g.s.players)
        market = [i for row in g.s.market for i in (*row.scoring, *row.deck, row.middle, row.bottom)]
        assert 0 not in market and len(spells) - 1 not in market
        assert 3 in g.s.goals[0] and len(g.s.goals[0]) == pack.rules.goals_dealt
        assert all(3 not in g.s.goals[s] for s in range(1, players)) and 3 not in g.s.goal_deck


def test_forcing_nothing_changes_no_deal(tmp_path: Path) -> None:
    """An empty forced table deals as the built-in pack does (same market, goals, hands)."""
    pack = load_content(pack_with(tmp_path, [], "\n[setup.forced_spells]\n[setup.forced_goals]\n"))
    plain = load_content(None)
    for seed in range(10):
        games = [Game(GameConfig(players=3, mode="full"), c, [RandomPolicy()] * 3, seed) for c in (pack, plain)]
        for g in games:
            g.setup()
        a, b = (g.s for g in games)
        assert a.goals == b.goals and [(r.scoring, r.deck, r.middle) for r in a.market] == [
            (r.scoring, r.deck, r.middle) for r in b.market
        ]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ('[setup.forced_spells]\n0 = "nothing"', "setup.forced_spells: no spell 'nothing' in spells.toml"),
        ('[setup.forced_goals]\n5 = "coven-of-four"', "setup.forced_goals: seat '5' is not a seat 0..3"),
        (
            '[setup.forced_goals]\n0 = "coven-of-four"\n1 = "coven-of-four"',
            "setup.forced_goals: a goal can be forced to one seat only",
        ),
    ],
)
def test_a_bad_forced_spell_or_goal_table_exits_2_with_one_line(tmp_path: Path, rules: str, message: str) -> None:
    proc = cli("rules", "--content", pack_with(tmp_path, [], f"\n{rules}\n"))
    assert proc.returncode == 2
    assert message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_the_planted_spell_and_goal_forced_to_a_seat_raise_its_win_rate(tmp_path: Path) -> None:
    pack_with(tmp_path, STRONG_CARDS)
    (tmp_path / "w.toml").write_text(CONFIG.format(players=2, ss="false"))
    out = tmp_path / "abl"
    args = ["--kinds", "spell,goal", "--only", f"{SPELL},{GOAL}", "--arms", "forced", "--games", "48"]
    done = cli("ablate", "w.toml", *args, "--jobs", "1", "--out", out, "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = pl.read_csv(out / "ablation.csv")
    assert sorted(zip(rows["component"], rows["arm"], strict=True)) == [
        (SPELL, "forced:0"),
        (SPELL, "forced:1"),
        (GOAL, "forced:0"),
        (GOAL, "forced:1"),
    ]
    assert (rows["ci_low"] > 0).all() and rows["flagged"].all()
    for kind, ident, column in (("spell", SPELL, "spells"), ("goal", GOAL, "goals")):
        players = pl.read_parquet(out / "runs" / f"{kind}-{ident}-forced-1" / "players" / "**" / "*.parquet")
        assert players.filter(pl.col("seat") == 1)[column].list.contains(ident).all()


def test_a_swap_variant_gives_each_colour_the_others_tiles(tmp_path: Path) -> None:
    write_swap(None, KINDS["animal"], ("orange", "gray"), tmp_path / "v")
    before, after = content_tree(None)["animals"], content_tree(tmp_path / "v")["animals"]
    moved = {"orange": "gray", "gray": "orange"}
    assert {k: moved.get(v["colour"], v["colour"]) for k, v in before.items()} == {
        k: v["colour"] for k, v in after.items()
    }
    swapped = {a.id: a.colour for a in load_content(tmp_path / "v").animals}
    assert swapped["fox"] == "gray" and swapped["goat"] == "orange" and swapped["serpent"] == "green"


def test_seat_names_follow_the_tiles_the_seats_held() -> None:
    players = pl.LazyFrame(
        {
            "seat": [1, 3, 1, 3, 0],
            "animals": [["goat", "hare"], ["fox", "squirrel"], ["goat", "hare"], ["fox", "squirrel"], []],
        }
    )
    on, off = {"shapeshifting": True}, {"shapeshifting": False}
    names = SeatNames(None, registered(), players)
    assert names(1, on) == "Orange (Goat/Hare)" and names(3, on) == "Gray (Fox/Squirrel)"
    assert names(0, on) == "Green (Serpent/Toad)" and names(1, off) == "Orange"
    assert SeatNames(None, registered())(1, on) == "Orange (Fox/Squirrel)"


@pytest.mark.parametrize(
    ("seat_p", "tile_p", "expected"),
    [(0.01, 0.5, "the tiles"), (0.5, 0.01, "the seat"), (0.01, 0.01, "both"), (0.3, 0.4, "unclear")],
)
def test_seat_or_tiles_verdict(seat_p: float, tile_p: float, expected: str) -> None:
    assert verdict([{"p_adj": seat_p}, {"p_adj": 0.9}], [{"p_adj": tile_p}]) == expected


@pytest.mark.slow
def test_the_advantage_of_a_strengthened_tile_pair_follows_the_tiles_when_swapped(tmp_path: Path) -> None:
    pack_with(tmp_path, STRONG_TILES)
    (tmp_path / "w.toml").write_text(CONFIG.format(players=3, ss="true"))
    out = tmp_path / "abl"
    args = ["--kinds", "animal", "--arms", "swap", "--only", "green-purple", "--games", "320"]
    done = cli("ablate", "w.toml", *args, "--jobs", "1", "--out", out, "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {r["component"]: r for r in pl.read_csv(out / "ablation.csv").iter_rows(named=True)}
    assert set(rows) == {"seat:green", "seat:purple", "tiles:green:serpent+toad", "tiles:purple:cat+owl"}
    assert {r["arm"] for r in rows.values()} == {"swap:green-purple"}
    assert rows["seat:green"]["ci_low"] > 0 and rows["seat:purple"]["ci_high"] < 0  # the strong tiles move the seat
    assert rows["seat:green"]["flagged"] and rows["seat:purple"]["flagged"]
    assert not rows["tiles:purple:cat+owl"]["flagged"]  # the strong tiles do as well at the other seat
    swapped = pl.read_parquet(out / "runs" / "animal-swap-green-purple" / "players" / "**" / "*.parquet")
    assert swapped.filter(pl.col("seat") == 0)["animals"].list.sort().to_list()[0] == ["cat", "owl"]
    status = pl.read_csv(out / "ablation_status.csv")
    assert set(status["component"]) == set(rows) and set(status["provenance"]) == {"seed-expansion"}
    assert "for the green seat with the purple tiles instead of its own" in (out / "ablation.html").read_text()
    report = cli("report", out / "runs" / "base", "--out", tmp_path / "rep")
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    section = html[html.find("Seat or tiles?") :]
    assert "Green with Purple&#39;s tiles: +" in section and "the tiles" in section[: section.find("</table>")]
    swapped_report = cli("report", out / "runs" / "animal-swap-green-purple", "--out", tmp_path / "rep2")
    assert swapped_report.returncode == 0, swapped_report.stderr
    assert "Green (Cat/Owl)" in (tmp_path / "rep2" / "report.html").read_text()


def test_the_power_planner_matches_the_textbook_values() -> None:
    assert power.paired_pairs(0.5) == pytest.approx(33.367, abs=0.01)  # statsmodels TTestPower's value
    assert power.paired_pairs(0.0) is None
    # Cohen's h for 30% against 25%, normal approximation: ((1.960 + 0.842) / 0.1120)^2
    assert power.seat_games(5, 4) == 625
    assert power.component_games(5, 4, 0.25) == pytest.approx(4 * power.component_games(5, 4), abs=4)
    assert power.component_games(5, 4, arms=4) > power.component_games(5, 4)
    assert power.component_games(0.001, 4) is None


def test_more_games_to_settle_an_unclear_estimate() -> None:
    # 3 points from the nearest edge (5): (1.96 * 10 / 2)^2 = 96.04 -> 97 games in all
    assert power.more_to_settle(3.0, 10.0, 50, 5.0) == 47
    assert power.more_to_settle(3.0, 10.0, 200, 5.0) == 0
    assert power.more_to_settle(5.0, 10.0, 50, 5.0) is None  # on the edge: no number of games settles it
    assert power.more_to_settle(7.0, 10.0, 50, 5.0, edges=(0.0,)) == 0


def test_plan_games_prints_the_games_per_question() -> None:
    done = cli("plan-games", "--effect", "5", "--players", "4", "--rate", "0.5")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 3 and lines[0].startswith("4 players: a seat +5 win-rate points off fair (1/4): 625 games")
    assert f"{power.component_games(5, 4, 0.5):,} games per cell" in lines[1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--effect", "0"], "--effect must be between 0 and 100"),
        pytest.param(["--effect", "5", "--rate", "2"], "--rate must be a share of games in (0, 1]", marks=SLOW),
        pytest.param(["--effect", "5", "--scope", "seats"], "--scope: unknown scope 'seats'", marks=SLOW),
        pytest.param(["--effect", "5", "--players", "5"], "--players: unknown player count '5'", marks=SLOW),
    ],
)
def test_plan_games_rejects_bad_input_in_one_line(args: list[str], message: str) -> None:
    bad = cli("plan-games", *args)
    assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


JOHANNA = 'name = "Johanna"\ntrigger = "after_trial"\neffects = [{ effect = "citizen_to_crowd", amount = '
STACKING = [  # Johanna puts 5 citizens into the crowd after each trial; Voice of the People pays 3 per crowd citizen
    ("witches.toml", JOHANNA + "1 }]", JOHANNA + "5 }]"),
    ("spells.toml", 'per = "crowd_loyal"\nunit = 1\namount = 1', 'per = "crowd_loyal"\nunit = 1\namount = 3'),
]


def stacking_pack(root: Path) -> Path:
    """The built-in pack with Johanna and Voice of the People built to stack, both dealt to seat 0."""
    rules = '\n[setup.forced]\n0 = "johanna"\n[setup.forced_spells]\n0 = "voice-of-the-people"\n'
    return pack_with(root, STACKING, rules)


@pytest.mark.slow
def test_two_cards_built_to_stack_show_an_interaction_and_a_control_pair_does_not(tmp_path: Path) -> None:
    stacking_pack(tmp_path)
    assert content_tree(tmp_path / "pack")["witches"]["johanna"]["effects"][0]["amount"] == 5
    (tmp_path / "w.toml").write_text(CONFIG.format(players=2, ss="false"))
    out = tmp_path / "abl"
    ids = "johanna,voice-of-the-people,aylana"
    args = ["--kinds", "witch,spell", "--only", ids, "--arms", "removed", "--pairs", ids, "--games", "64"]
    done = cli("ablate", "w.toml", *args, "--jobs", "1", "--out", out, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {
        (r["component_a"], r["component_b"]): r for r in pl.read_csv(out / "interactions.csv").iter_rows(named=True)
    }
    assert set(rows) == {("johanna", "voice-of-the-people"), ("johanna", "aylana"), ("voice-of-the-people", "aylana")}
    stack = rows["johanna", "voice-of-the-people"]
    assert stack["flagged"] and stack["wisdom_ci_low"] > 0  # more Wisdom together than the two alone
    assert stack["interaction"] == pytest.approx(stack["effect_a"] + stack["effect_b"] - stack["effect_both"])
    assert not rows["johanna", "aylana"]["flagged"] and not rows["voice-of-the-people", "aylana"]["flagged"]
    both = content_tree(out / "variants" / "pair-witch-johanna+spell-voice-of-the-people")
    assert "johanna" not in both["witches"] and "voice-of-the-people" not in both["spells"]
    assert "forced" not in both["setup"] or "johanna" not in both["setup"]["forced"].values()
    assert "they stack (in Wisdom)" in " ".join(done.stderr.split())  # the console wraps its lines
    page = (out / "ablation.html").read_text()
    assert "Interactions (ablate --pairs)" in page and "johanna + spell voice-of-the-people" in page
    report = cli("report", out / "runs" / "base", "--out", tmp_path / "rep")
    assert report.returncode == 0, report.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Interactions (ablate --pairs)" in html and "they stack (in Wisdom)" in html


def test_pairs_option_parsing() -> None:
    from septima_sim.ablate.errors import AblateError
    from septima_sim.ablate.interactions import choose, parse

    assert parse("a, b,a") == ["a", "b"] and parse("top:3") == 3
    for bad in ("a", "top:1", "top:x", ""):
        with pytest.raises(AblateError):
            parse(bad)
    witch, spell = KINDS["witch"], KINDS["spell"]
    assert choose(["a", "b", "c"], {"a": witch, "b": witch, "c": spell}, []) == [
        ((witch, "a"), (witch, "b")),
        ((witch, "a"), (spell, "c")),
        ((witch, "b"), (spell, "c")),
    ]
    assert choose(2, {}, [(witch, "x"), (spell, "y"), (witch, "z")]) == [((witch, "x"), (spell, "y"))]
    with pytest.raises(AblateError, match="no spell/witch 'd' in play"):
        choose(["a", "d"], {"a": witch, "b": spell}, [])


@pytest.mark.slow
def test_an_unknown_pair_member_exits_2_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "w.toml").write_text(CONFIG.format(players=2, ss="false").replace('content = "pack"\n', ""))
    out = tmp_path / "abl"
    proc = cli("ablate", "w.toml", "--kinds", "witch", "--pairs", "johanna,nobody", "--out", out, cwd=tmp_path)
    assert proc.returncode == 2 and "--pairs: no witch 'nobody' in play" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()


SWEEP = """name = "sweep"
games_per_cell = 60
seed = 3
[matrix]
players = [2]
mode = "full"
lineup = ["all-random"]
[overrides]
"witches.aylana.trigger" = ["play:remember", "play:chant"]
"""


@pytest.mark.slow
def test_a_sweep_and_a_comparison_show_the_changed_cards_own_effect_spelled_as_the_pack(tmp_path: Path) -> None:
    (tmp_path / "sweep.toml").write_text(SWEEP)
    (tmp_path / "plain.toml").write_text(SWEEP.split("[overrides]")[0].replace('"sweep"', '"plain"'))
    for name in ("sweep", "plain"):
        done = cli("run", f"{name}.toml", "--out", name, "--jobs", "1", "--quiet", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    done = cli("report", tmp_path / "sweep", "--out", tmp_path / "rep", "--compare", tmp_path / "plain")
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "rep" / "report.html").read_text()
    sweeps = html[html.find("Own effect of the changed card for each value of witches.aylana.trigger") :]
    for value in ("play:remember", "play:chant"):
        assert re.search(rf"witches.aylana.trigger = {value}: Aylana&#39;s holder [+-]\d+\.\d \[", sweeps), value
    assert "Play:Chant" not in html and "Play:Remember" not in html
    compared = html[html.find("Own effect of each changed card, per run and value") :]
    assert "the other run" in compared and "witches.aylana.trigger = as in the pack: Aylana&#39;s holder" in compared


def test_own_effect_names_the_card_and_spells_values_as_the_pack() -> None:
    from septima_sim.analysis.own_effect import card_name, card_of, sentence
    from septima_sim.tune.space import describe

    assert card_of("witches.johanna.trigger") == ("witch", "johanna") and card_of("suspicion.start") is None
    assert card_of("buildings.tavern.wisdom") == ("building", "tavern") and card_name("witches.johanna.x", None) == (
        "Johanna"
    )
    row = {"game_level": False, "win_effect": 2.4, "win_lo": -2.1, "win_hi": 6.8}
    assert sentence("witches.johanna.trigger", "play:chant", "Johanna", row) == (
        "witches.johanna.trigger = play:chant: Johanna's holder +2.4 [-2.1, 6.8]"
    )
    assert describe({"witches.johanna.trigger": "play:chant"}) == "witches.johanna.trigger = play:chant"


def test_unclear_seats_get_the_games_that_would_settle_them_at_the_holm_level() -> None:
    from septima_sim.report.sections.settle import seat_table

    table = pl.DataFrame(
        {
            "setting": ["4 players"] * 4,
            "name": ["Green", "Orange", "Purple", "Gray"],
            "verdict": ["ok", "unclear", "flagged", "unclear"],
            "delta": [0.0, 0.01, 0.06, -0.025],
            "win_rate": [0.25, 0.26, 0.31, 0.225],
            "games": [1600] * 4,
        }
    )
    found = seat_table(table, 0.02, lambda r: str(r["name"]))
    assert found is not None
    rows = {r[1]: r for r in found.rows}
    assert set(rows) == {"Orange", "Gray"}
    # Orange: inside the band, 1 point from its edge: (1.960 * sqrt(.26 * .74) / .01)^2 = 7,391 games in all
    assert rows["Orange"][4:] == ["5,791", "ok"]
    # Gray: 2.5 points off fair (beyond the band), Holm level alpha / 4: (2.498 * sqrt(.225 * .775) / .025)^2 = 1,741
    assert rows["Gray"][4:] == ["141", "flagged"]
