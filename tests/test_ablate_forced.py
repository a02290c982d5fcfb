"""``ablate``'s forced arm: rules.toml ``[setup.forced]`` deals a witch to a seat (engine setup, every seed), the
planted overpowered witch forced to a seat raises that seat's win rate (paired on the same seeds), and a bad forced
table or ``--arms`` is one line on stderr with exit 2."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from septima_sim import store
from septima_sim.content import Content, load_content
from septima_sim.content.loader import BASE_DIR
from septima_sim.engine import GameConfig
from septima_sim.engine.game import Game
from septima_sim.players import RandomPolicy
from septima_sim.report.ablation.table import COLUMNS
from tests.test_ablate import CONFIG, STRONG, planted_pack

SCRIPT = Path(sys.executable).parent / "septima-sim"


def cli(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=False, cwd=cwd, timeout=600
    )


def forced_pack(root: Path, table: str) -> Path:
    """The built-in pack with ``table`` (lines of ``seat = "witch"``) as rules.toml's ``[setup.forced]``."""
    pack = root / "forced-pack"
    shutil.copytree(BASE_DIR, pack)
    with (pack / "rules.toml").open("a", encoding="utf-8") as f:
        f.write(f"\n[setup.forced]\n{table}\n")
    return pack


def test_the_built_in_pack_forces_nothing(content: Content) -> None:
    assert content.rules.forced_witches == ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_forced_witch_is_in_the_seats_coven_at_game_start_in_every_game(tmp_path: Path, players: int) -> None:
    witches = [w.id for w in load_content(None).witches]
    pack = load_content(forced_pack(tmp_path, f'{players - 1} = "{witches[5]}"\n0 = "{witches[0]}"'))
    assert dict(pack.rules.forced_witches) == {players - 1: 5, 0: 0}
    for seed in range(150):
        g = Game(GameConfig(players=players, mode="basic"), pack, [RandomPolicy() for _ in range(players)], seed)
        g.setup()
        assert 5 in g.s.players[players - 1].coven and 5 in g.s.drafted[players - 1]
        assert 0 in g.s.players[0].coven and 0 in g.s.drafted[0]
        others = [w for p in g.s.players[1 : players - 1] for w in p.coven]
        assert 5 not in others and 0 not in others and {0, 5}.isdisjoint(g.s.witch_deck)
        assert g.s.chamber1 not in (0, 5)
        assert all(len(p.coven) == pack.rules.witches_kept for p in g.s.players)


def test_a_seat_outside_the_player_count_is_ignored(tmp_path: Path) -> None:
    pack = load_content(forced_pack(tmp_path, f'3 = "{STRONG}"'))
    plain = load_content(None)
    for seed in range(20):
        games = [
            Game(GameConfig(players=2, mode="basic"), c, [RandomPolicy(), RandomPolicy()], seed) for c in (pack, plain)
        ]
        for g in games:
            g.setup()
        assert [p.coven for p in games[0].s.players] == [p.coven for p in games[1].s.players]


@pytest.mark.slow
def test_the_planted_witch_forced_to_a_seat_raises_that_seats_win_rate(tmp_path: Path) -> None:
    planted_pack(tmp_path)
    (tmp_path / "plant.toml").write_text(CONFIG)
    out = tmp_path / "abl"
    done = cli(
        "ablate",
        "plant.toml",
        "--kinds",
        "witch",
        "--only",
        STRONG,
        "--arms",
        "forced",
        "--games",
        "64",
        "--jobs",
        "2",
        "--out",
        out,
        "--quiet",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    rows = pl.read_csv(out / "ablation.csv")
    assert tuple(rows.columns) == COLUMNS
    assert sorted(rows["arm"].to_list()) == ["forced:0", "forced:1"]
    for r in rows.iter_rows(named=True):
        assert r["component"] == STRONG and r["ci_low"] > 0 and r["effect_win_points"] > 0
    for seat in (0, 1):
        run = store.scan(out / "runs" / f"witch-{STRONG}-forced-{seat}", "players")
        assert run is not None
        held = run.filter(pl.col("seat") == seat).select(pl.col("witches_drafted").list.contains(STRONG)).collect()
        assert held.height > 0 and held.to_series().all()
    detail = pl.read_csv(out / "ablation_detail.csv")
    assert set(detail["arm"]) == {"forced:0", "forced:1"}
    status = pl.read_csv(out / "ablation_status.csv")
    assert set(status["arm"]) == {"forced:0", "forced:1"}
    assert not (out / "runs" / f"witch-{STRONG}").exists()  # no removed arm asked for
    assert "forced:0" in (out / "ablation.html").read_text()


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('0 = "nobody"', "rules.toml: setup.forced: no witch 'nobody' in witches.toml"),
        (f'4 = "{STRONG}"', "rules.toml: setup.forced: seat '4' is not a seat 0..3"),
        (f'x = "{STRONG}"', "rules.toml: setup.forced: seat 'x' is not a seat 0..3"),
        (f'0 = "{STRONG}"\n1 = "{STRONG}"', "rules.toml: setup.forced: a witch can be forced to one seat only"),
        ("0 = 3", "rules.toml: setup.forced.0: Input should be a valid string"),
    ],
)
def test_a_bad_forced_table_exits_2_with_one_line(tmp_path: Path, table: str, message: str) -> None:
    proc = cli("rules", "--content", forced_pack(tmp_path, table))
    assert proc.returncode == 2
    assert message in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


@pytest.mark.slow
def test_an_unknown_arm_exits_2_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(CONFIG.replace('content = "pack"\n', ""))
    out = tmp_path / "abl"
    proc = cli("ablate", "c.toml", "--kinds", "witch", "--arms", "forced,swapped", "--out", out, cwd=tmp_path)
    assert proc.returncode == 2
    assert "--arms: unknown arm 'swapped' (allowed: removed, forced, swap)" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.slow
def test_forced_arm_of_a_kind_that_cannot_be_forced_exits_2(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(CONFIG.replace('content = "pack"\n', ""))
    out = tmp_path / "abl"
    proc = cli("ablate", "c.toml", "--kinds", "building", "--arms", "forced", "--out", out, cwd=tmp_path)
    assert proc.returncode == 2
    assert "no chosen component has that arm" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()


def test_rules_lists_the_forced_witches(tmp_path: Path) -> None:
    """``septima-sim rules`` names every forced seat and witch, and says when nothing is forced."""
    witch = load_content(None).witches[3]
    pack = forced_pack(tmp_path, f'1 = "{witch.id}"')
    forced = cli("rules", "--content", pack)
    assert forced.returncode == 0, forced.stderr
    assert f"seat 1 (Orange): {witch.name} ({witch.id})" in forced.stdout
    plain = cli("rules")
    assert "none (every witch is dealt at random, B5)" in plain.stdout and "seat 1 (Orange)" not in plain.stdout
