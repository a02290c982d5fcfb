"""Player plugins: ``py:module:Class`` personas and the ``septima_sim.policies`` entry-point group."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

from septima_sim.players import UnknownPolicyError, make_policy, policy_names

PLUGIN = textwrap.dedent(
    '''
    """A test persona: always the last legal option."""


    class LastOption:
        def __init__(self):
            self.seat = -1

        def reset(self, seat, rng):
            self.seat = seat

        def choose(self, decision, view):
            return len(decision.options) - 1


    class Named(LastOption):
        name = "last-named"


    class NotAPolicy:
        pass


    class Broken:
        def __init__(self):
            raise RuntimeError("boom")
    '''
)


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder on sys.path holding the module ``lastplug`` and an installed distribution registering it."""
    (tmp_path / "lastplug.py").write_text(PLUGIN)
    dist = tmp_path / "lastplug-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: lastplug\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[septima_sim.policies]\nlast-installed = lastplug:LastOption\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_py_plugin_is_instantiated_and_named(plugin_path: Path) -> None:
    policy = make_policy("py:lastplug:LastOption")
    assert policy.name == "py:lastplug:LastOption"
    assert make_policy("py:lastplug:Named").name == "last-named"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("py:lastplug", "use py:module:Class"),
        ("py:no_such_module_xyz:Cls", "cannot import"),
        ("py:lastplug:Missing", "has no 'Missing'"),
        ("py:lastplug:NotAPolicy", "is not a Policy"),
        ("py:lastplug:Broken", "could not be created: RuntimeError: boom"),
    ],
)
def test_bad_plugins_are_unknown_personas(plugin_path: Path, name: str, message: str) -> None:
    with pytest.raises(UnknownPolicyError, match=message):
        make_policy(name)


def test_installed_entry_point_persona(plugin_path: Path) -> None:
    assert "last-installed" in policy_names()
    assert make_policy("last-installed").name == "last-installed"


@pytest.mark.slow
def test_plugin_plays_a_run_through_the_console_script(plugin_path: Path, tmp_path: Path) -> None:
    """A config lineup names a plugin and an installed persona; worker processes import them from PYTHONPATH."""
    config = tmp_path / "plug.toml"
    config.write_text(
        'name = "plug"\ngames_per_cell = 6\nseed = 3\n[matrix]\nplayers = [2]\nlineup = ["mine"]\n'
        '[lineups]\nmine = ["py:lastplug:LastOption", "last-installed"]\n'
    )
    script = Path(sys.executable).parent / "septima-sim"
    env = {**os.environ, "PYTHONPATH": f"{plugin_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = subprocess.run(
        [str(script), "run", str(config), "--out", str(tmp_path / "run"), "--jobs", "2", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    players = pl.scan_parquet(str(tmp_path / "run" / "players" / "**" / "*.parquet"), hive_partitioning=True).collect()
    assert sorted(set(players["policy"])) == ["last-installed", "py:lastplug:LastOption"]
    assert players.height == 12


@pytest.mark.slow
def test_play_lineup_names_one_persona_per_seat(plugin_path: Path) -> None:
    """``play --lineup a,b`` seats the personas in order; a wrong count or an unknown name is exit 2, one line."""
    script = Path(sys.executable).parent / "septima-sim"
    env = {**os.environ, "PYTHONPATH": f"{plugin_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}

    def play(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(script), "play", *args], capture_output=True, text=True, env=env, check=False)

    out = play("--players", "2", "--seed", "3", "--lineup", "py:lastplug:LastOption,balanced")
    assert out.returncode == 0, out.stderr
    assert "seat 0 (green, py:lastplug:LastOption)" in out.stdout and "seat 1 (orange, balanced)" in out.stdout
    for lineup, message in (("random,random,random", "lists 3 personas for 2 player(s)"), ("random,nobody", "nobody")):
        bad = play("--players", "2", "--lineup", lineup)
        assert bad.returncode == 2 and message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_play_solo_takes_one_persona_or_a_plugin_for_its_seat(plugin_path: Path) -> None:
    """Solo has one seat: ``--lineup balanced`` and ``--lineup py:module:Class`` name its persona; a lineup name
    still works, an unknown persona is exit 2, one line."""
    script = Path(sys.executable).parent / "septima-sim"
    env = {**os.environ, "PYTHONPATH": f"{plugin_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}

    def solo(lineup: str) -> subprocess.CompletedProcess[str]:
        args = [str(script), "play", "--players", "1", "--seed", "3", "--lineup", lineup]
        return subprocess.run(args, capture_output=True, text=True, env=env, check=False)

    for lineup in ("balanced", "py:lastplug:LastOption", "all-balanced"):
        out = solo(lineup)
        assert out.returncode == 0, out.stderr
        assert f"seat 0 (green, {lineup.removeprefix('all-')})" in out.stdout
    bad = solo("balancd")
    assert bad.returncode == 2 and "unknown persona 'balancd'" in bad.stderr and len(bad.stderr.splitlines()) == 1
