"""A third module is one engine file + one registration: a tiny module registered only here (through the
``SEPTIMA_MODULES`` environment variable, from a file on ``PYTHONPATH``) flows through ``run`` -> the store ->
``report`` -> ``baseline``/``check`` via the installed console script, as a matrix axis, a cell-id token, a games
flag column, its own result columns and a module in the report (#14); its own axis, observation fields, summary line
and report section come from its spec with no core code naming it (#27)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
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


LEVY = '''
"""Levy: at each end of season every player gains the levy rate in Wisdom; the rate is an axis the module owns."""
import polars as pl

from septima_sim.engine.modules import Axis, Column, Module, ModuleSpec


def rates(values, content):
    bad = [v for v in values if v not in (1, 2, 3)]
    if bad:
        raise ValueError(f"a levy rate is 1, 2 or 3, not {bad[0]!r}")
    return [str(v) for v in values]


class Levy(Module):
    name = "levy"

    def __init__(self):
        self.rate, self.paid = 1, 0

    def copy(self):
        twin = Levy()
        twin.rate, twin.paid = self.rate, self.paid
        return twin

    def setup(self, g):
        self.rate = int(dict(g.config.options).get("levy_rate", "1"))

    def end_of_season(self, g):
        for p in g.s.players:
            g.gain_wisdom(p, self.rate, "other")
            self.paid += self.rate

    def game_fields(self, g, row):
        row["levy_paid"] = self.paid

    def public(self, g, seat):
        return self.rate


def observe(content, board):
    from septima_sim.env.fields import Spec

    def write(out, off, scene):
        rate = scene.view.modules.get("levy")
        if rate is not None:
            out[off] = rate / 3

    return [Spec("levy", 1, "the levy rate (/3)", write)]


def report(b, run, name):
    from septima_sim.report.headlines import Headline

    paid = run.games.filter(pl.col(name)).select(pl.col("levy_paid").sum()).collect().item()
    b.section(name, "Levy collected", f"{paid} Wisdom levied in all.")
    return [Headline(f"Levy: {paid} Wisdom levied", "neutral")]


SPEC = ModuleSpec(
    name="levy",
    token="le",
    factory=Levy,
    title="Levy",
    game_columns=(Column("levy_paid", "int16", 0),),
    axes=(Axis("levy_rate", int, (1,), "0", rates),),
    observation=observe,
    summary=lambda game: f"  The levy took {game['levy_paid']} Wisdom.",
    report="levy_module:report",
)
'''

LEVY_CONFIG = (
    CONFIG.replace("tithe-check", "levy-check")
    .replace("= 40", "= 4")  # games_per_cell and shard_size
    .replace("tithe = [false, true]", "levy = [false, true]\nlevy_rate = [1, 2]")
)


def _levy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console script (or ``python`` for ``-c``) with the Levy module registered through ``SEPTIMA_MODULES``."""
    (cwd / "levy_module.py").write_text(textwrap.dedent(LEVY))
    env = {**os.environ, "PYTHONPATH": str(cwd), "SEPTIMA_MODULES": "levy_module"}
    command = [sys.executable, *args] if args[0] == "-c" else [str(SCRIPT), *args]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False, env=env)


@pytest.mark.slow
def test_a_plugin_axis_and_report_section_need_no_core_code(tmp_path: Path) -> None:
    """A plugin module's own axis (``ModuleSpec.axes``) becomes a matrix key, a part of every cell id, a games
    column and a game setting (``GameConfig.options``); its report hook adds a section and a headline."""
    (tmp_path / "levy.toml").write_text(LEVY_CONFIG)
    done = _levy("run", "levy.toml", "--jobs", "1", "--out", "run", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    games = pl.read_parquet(tmp_path / "run" / "games" / "**" / "*.parquet", hive_partitioning=True)
    paid = sorted(set(games.select("cell_id", "levy", "levy_rate", "levy_paid").iter_rows()))
    assert paid == [
        ("p2-full-ss0-om0-le0-none-0-all-random", False, "0", 0),  # off: one cell, the axis at its off value
        ("p2-full-ss0-om0-le1-none-1-all-random", True, "1", 2 * 3 * 1),  # 2 players x 3 season ends x rate
        ("p2-full-ss0-om0-le1-none-2-all-random", True, "2", 2 * 3 * 2),
    ]
    assert games.columns.index("levy_rate") == games.columns.index("omen_deck") + 1  # the owned axes, in order
    done = _levy("report", "run", "--out", "report", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Levy collected" in (tmp_path / "report" / "report.html").read_text()
    assert "Levy: 72 Wisdom levied" in (tmp_path / "report" / "summary.md").read_text()  # 4 x 6 + 4 x 12


@pytest.mark.slow  # three console-script starts: about 6 s under load
def test_a_plugin_axis_is_checked_and_its_summary_and_observation_fields_show(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text(LEVY_CONFIG.replace("levy_rate = [1, 2]", "levy_rate = [9]"))
    done = _levy("run", "bad.toml", "--out", "run", cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "matrix.levy_rate: a levy rate is 1, 2 or 3, not 9" in done.stderr
    done = _levy("play", "--players", "2", "--module", "levy", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "  The levy took 6 Wisdom." in done.stdout.splitlines()  # the default rate, 1
    probe = (
        "from septima_sim.content import load_content; from septima_sim.env import layouts;"
        "print([f.name for f in layouts(load_content(None))[0].fields])"
    )
    done = _levy("-c", probe, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    names = ast.literal_eval(done.stdout)
    assert names.index("levy") == names.index("omens") + 1  # the modules' fields in registry order
