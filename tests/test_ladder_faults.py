"""``ladder`` under faults, through the installed console script (issue 34): games that raised exit 3 with the
replay command of the first (D3), never an empty table with exit 0; two entries that record the same policy name
are refused before anything is written (D5), and a plugin with its own name is rated under its entry; the tables of
the same games are the same bytes (D17); a full disk names the command that finishes the ladder, in one line (D14,
D15); a plugin stuck in a decision fails its games after the limit (D24)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import polars as pl
import pytest

from septima_sim import ladder
from tests.helpers import ENOSPC_AFTER, SCRIPT

BOTS = textwrap.dedent(
    """
    import time


    class Raiser:
        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            raise RuntimeError("boom")


    class Named:
        name = "named-bot"

        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            return 0


    class Balanced(Named):
        name = "balanced"


    class Last(Named):
        name = "last-bot"

        def choose(self, decision, view):
            return len(decision.options) - 1


    class Sleeper(Named):
        def choose(self, decision, view):
            time.sleep(3600)
    """
)


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    (tmp_path / "bots.py").write_text(BOTS)
    return tmp_path


def septima(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(folder), **env}
    command = [str(SCRIPT), *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, env=environment, timeout=600)


def lad(folder: Path, policies: str, out: str, *extra: str, **env: str) -> subprocess.CompletedProcess[str]:
    return septima(
        folder, "ladder", "--policies", policies, "--games", "4", "--jobs", "1", "--out", out, "-q", *extra, **env
    )


@pytest.mark.slow
def test_games_that_raised_exit_3_with_the_replay_command_of_the_first(bots: Path) -> None:
    done = lad(bots, "random,py:bots:Raiser", "lad")
    assert done.returncode == 3, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("4 game(s) raised (no table written): see ")
    assert "PluginError: plugin persona 'py:bots:Raiser' raised in choose" in done.stderr
    replay = shlex.split(done.stderr.rstrip().split("replay it with: ")[1])
    again = septima(bots, *replay[1:])
    assert again.returncode == 2 and "plugin persona 'py:bots:Raiser'" in again.stderr
    assert not (bots / "lad" / "matchups.csv").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("policies", "both"),
    [
        ("search:1,search:01", "search:1 and search:01"),
        ("random,py:bots:Balanced,balanced", "py:bots:Balanced and balanced"),
    ],
    ids=["alias", "plugin-named-like-a-persona"],
)
def test_entries_that_record_the_same_name_are_refused_before_anything_is_written(
    bots: Path, policies: str, both: str
) -> None:
    done = lad(bots, policies, "lad")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert both in done.stderr and "could not be told apart" in done.stderr
    assert not (bots / "lad").exists()


@pytest.mark.slow
def test_a_plugin_with_its_own_name_is_rated_under_its_entry_and_the_tables_are_the_same_bytes(bots: Path) -> None:
    done = lad(bots, "random,py:bots:Named", "lad")
    assert done.returncode == 0, done.stderr
    table = pl.read_csv(bots / "lad" / "matchups.csv")
    assert table.select("a", "b", "games").rows() == [("random", "py:bots:Named", 4)]
    assert sorted(pl.read_csv(bots / "lad" / "ratings.csv")["policy"]) == ["py:bots:Named", "random"]
    first = {f: (bots / "lad" / f).read_bytes() for f in ("matchups.csv", "ratings.csv")}
    for _ in range(3):  # a rerun finds every game played and computes the tables again
        assert lad(bots, "random,py:bots:Named", "lad").returncode == 0
        assert {f: (bots / "lad" / f).read_bytes() for f in first} == first


@pytest.mark.slow
def test_matchup_intervals_add_in_a_fixed_order(bots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policies = "random,py:bots:Named,py:bots:Last"  # fast players; 3 seats: 900 games, intervals over games
    done = septima(bots, "ladder", "--players", "3", "--policies", policies, "--games", "300", "--out", "l", "-q")
    assert done.returncode == 0, done.stderr
    monkeypatch.syspath_prepend(str(bots))
    monkeypatch.delitem(sys.modules, "bots", raising=False)  # another test's bots.py may be imported already
    run_dir, names = bots / "l" / "runs" / "ladder-p3", ladder.recorded_names(policies.split(","))
    tables = {ladder.matchups(run_dir, policies.split(","), 3, names).write_csv() for _ in range(20)}
    assert len(tables) == 1  # a group_by in whatever order the threads finish gave two different ci_low here


@pytest.mark.slow
def test_a_full_disk_names_the_command_that_finishes_the_ladder(tmp_path: Path) -> None:
    args = ["ladder", "--policies", "random,greedy", "--games", "40", "--jobs", "2", "--out", str(tmp_path / "l")]
    inject = [sys.executable, "-c", ENOSPC_AFTER, "fsync", "5", *args, "-q"]
    done = subprocess.run(inject, capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Warning" not in done.stderr and "run --resume" not in done.stderr
    assert "No space left on device" in done.stderr and "then run the ladder again: septima-sim ladder " in done.stderr
    command = shlex.split(done.stderr.rstrip().removesuffix(")").split("then run the ladder again: ")[1])
    assert command[-2:] == ["--out", str(tmp_path / "l")] and "random,greedy" in command
    again = subprocess.run([str(SCRIPT), *command[1:], "-q"], capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert pl.read_csv(tmp_path / "l" / "matchups.csv")["games"].to_list() == [40]


@pytest.mark.slow
def test_a_plugin_stuck_in_a_decision_fails_its_games_after_the_limit(bots: Path) -> None:
    done = septima(
        bots, "ladder", "--policies", "random,py:bots:Sleeper", "--games", "4", "--jobs", "2", "--out", "lad", "-q",
        SEPTIMA_DECISION_TIMEOUT="1",
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "plugin persona 'py:bots:Sleeper' took longer than 1 s in choose" in done.stderr
