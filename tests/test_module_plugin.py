"""A third module is one engine file + one registration: a tiny module registered only here (through the
``SEPTIMA_MODULES`` environment variable, from a file on ``PYTHONPATH``) flows through ``run`` -> the store ->
``report`` -> ``baseline``/``check`` via the installed console script, as a matrix axis, a cell-id token, a games
flag column, its own result columns and a module in the report (#14)."""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from functools import partial
from pathlib import Path

import polars as pl
import pytest

from tests.helpers import SCRIPT

PLUGIN = '''
"""Tithe: at each end of season every player gains 1 Wisdom; the games row counts the Wisdom paid."""
from septima_sim.engine.modules import Column, Module, ModuleSpec


class Tithe(Module):
    name = "tithe"

    def __init__(self):
        self.paid = 0

    def copy(self):
        twin = Tithe()
        twin.paid = self.paid
        return twin

    def end_of_season(self, g):
        for p in g.s.players:
            g.gain_wisdom(p, 1, "other")
            self.paid += 1

    def game_fields(self, g, row):
        row["tithes_paid"] = self.paid


SPEC = ModuleSpec(
    name="tithe",
    token="ti",
    factory=Tithe,
    title="Tithe",
    game_columns=(Column("tithes_paid", "int16", 0),),
    help="Every player gains 1 Wisdom at each end of season.",
)
'''

CONFIG = """
name = "tithe-check"
games_per_cell = 40
seed = 7
shard_size = 40

[matrix]
players = [2]
tithe = [false, true]
lineup = ["all-random"]
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONPATH": str(cwd / "plugins"), "SEPTIMA_MODULES": "tithe_module"}
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, check=False, env=env)


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "tithe_module.py").write_text(textwrap.dedent(PLUGIN))
    (tmp_path / "tithe.toml").write_text(CONFIG)
    return tmp_path


@pytest.mark.slow
def test_a_registered_module_flows_through_run_report_baseline_and_check(workdir: Path) -> None:
    done = _cli("run", "tithe.toml", "--jobs", "2", "--out", "run", "--quiet", cwd=workdir)
    assert done.returncode == 0, done.stderr
    games = pl.read_parquet(workdir / "run" / "games" / "**" / "*.parquet", hive_partitioning=True)
    cells = sorted(games["cell_id"].unique())
    assert cells == ["p2-full-ss0-om0-ti0-none-all-random", "p2-full-ss0-om0-ti1-none-all-random"]
    on = games.filter(pl.col("tithe"))
    off = games.filter(~pl.col("tithe"))
    assert on.height == off.height == 40
    assert set(on["tithes_paid"]) == {2 * 3} and set(off["tithes_paid"]) == {0}  # 2 players x 3 season ends

    done = _cli("report", "run", "--out", "report", cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert "Tithe" in (workdir / "report" / "report.html").read_text()

    done = _cli("baseline", "tithe.toml", "--out", "base.json", "--jobs", "2", "--games", "30", cwd=workdir)
    assert done.returncode == 0, done.stderr
    done = _cli("check", "--baseline", "base.json", "--jobs", "2", cwd=workdir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ti1-none-all-random effect[tithe] on winning_score" in done.stdout  # its on-minus-off effect is a metric


def test_the_module_is_a_cli_flag_and_an_unknown_one_is_bad_input(workdir: Path) -> None:
    done = _cli("play", "--players", "2", "--module", "tithe", "--format", "jsonl", cwd=workdir)
    assert done.returncode == 0, done.stderr
    game = json.loads(done.stdout.splitlines()[-1])["game"]
    assert game["tithe"] is True and game["tithes_paid"] == 6
    done = _cli("play", "--module", "tithee", cwd=workdir)
    assert done.returncode == 2 and "unknown module 'tithee'" in done.stderr and "tithe" in done.stderr
    bad = {**os.environ, "SEPTIMA_MODULES": "no_such_plugin_xyz"}
    done = subprocess.run([str(SCRIPT), "play"], capture_output=True, text=True, check=False, env=bad)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "SEPTIMA_MODULES" in done.stderr


def _without_plugin(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console script with neither the plugin on the path nor ``SEPTIMA_MODULES``."""
    env = {k: v for k, v in os.environ.items() if k not in ("SEPTIMA_MODULES", "PYTHONPATH")}
    umask = partial(os.umask, 0o022)  # files are written with the ordinary mode: 0644 here
    return subprocess.run(
        [str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, check=False, env=env, preexec_fn=umask
    )


@pytest.mark.slow
def test_a_run_is_reported_with_its_own_modules_when_the_plugin_is_gone(workdir: Path) -> None:
    done = _cli("run", "tithe.toml", "--jobs", "1", "--out", "run", "--quiet", cwd=workdir)
    assert done.returncode == 0, done.stderr
    recorded = json.loads((workdir / "run" / "manifest.json").read_text())["modules"]
    tithe = next(m for m in recorded if m["name"] == "tithe")
    assert tithe["title"] == "Tithe" and tithe["values"] == [False, True] and tithe["version"] == "1"

    done = _without_plugin("report", "run", "--out", "report", cwd=workdir)
    assert done.returncode == 0, done.stderr
    modes = {f.relative_to(workdir).as_posix(): f.stat().st_mode & 0o777 for f in (workdir / "report").rglob("*")}
    assert {m for name, m in modes.items() if (workdir / name).is_file()} == {0o644}, modes  # umask 022: 0644
    settings = pl.read_csv(workdir / "report" / "tables" / "seats_by_setting.csv")
    assert sorted(set(zip(settings["tithe"], settings["setting"], strict=True))) == [
        (False, "2 players without modules"),
        (True, "2 players with Tithe"),
    ]  # the on and off cells stay apart, each named
    assert set(settings.group_by("tithe").agg(pl.col("games").first())["games"]) == {40}
    modules = pl.read_csv(workdir / "report" / "tables" / "modules.csv")
    assert set(modules["module"]) == {"tithe"}
    html = (workdir / "report" / "report.html").read_text()
    assert "Tithe on vs off" in html and "2p full, Tithe, all-random" in html


def test_a_module_installed_as_an_entry_point_is_registered(workdir: Path) -> None:
    dist = workdir / "plugins" / "tithe_module-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tithe-module\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[septima_sim.modules]\ntithe = tithe_module:SPEC\n")
    env = {**os.environ, "PYTHONPATH": str(workdir / "plugins")}
    env.pop("SEPTIMA_MODULES", None)
    args = [str(SCRIPT), "play", "--players", "2", "--module", "tithe", "--format", "jsonl"]
    done = subprocess.run(args, cwd=workdir, capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["game"]["tithes_paid"] == 6
    (dist / "entry_points.txt").write_text("[septima_sim.modules]\ntithe = tithe_module:NOPE\n")
    done = subprocess.run(args, cwd=workdir, capture_output=True, text=True, check=False, env=env)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "septima_sim.modules" in done.stderr and "NOPE" in done.stderr


ORACLE = '''
"""Oracle: at each end of season every player answers a decision kind of the module's own."""
from septima_sim.engine.modules import Module, ModuleSpec


class Oracle(Module):
    name = "oracle"

    def copy(self):
        return Oracle()

    def end_of_season(self, g):
        for p in g.s.players:
            g.ask("oracle_question", p.seat, [0, 1])


SPEC = ModuleSpec(name="oracle", token="or", factory=Oracle, title="Oracle")
'''


def test_the_heuristic_refuses_a_decision_kind_it_does_not_know_in_one_line(workdir: Path) -> None:
    (workdir / "plugins" / "oracle_module.py").write_text(textwrap.dedent(ORACLE))
    env = {**os.environ, "PYTHONPATH": str(workdir / "plugins"), "SEPTIMA_MODULES": "oracle_module"}
    args = [str(SCRIPT), "play", "--players", "2", "--module", "oracle", "--format", "jsonl"]

    def play(lineup: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*args, "--lineup", lineup], capture_output=True, text=True, check=False, env=env)

    random = play("random,random")
    assert random.returncode == 0, random.stderr  # the random player answers any kind
    done = play("balanced,balanced")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "'oracle_question'" in done.stderr and "balanced" in done.stderr and "Traceback" not in done.stderr
