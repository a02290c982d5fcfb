"""A plugin persona's faults are the plugin's, through the installed console script (issue 34, D11, D12, D24): an
exception in ``reset`` or ``choose``, an answer that is not an index into the options (``-1``, ``True``, ``"0"``,
``0.0``, ``None``, one past the end) and a decision slower than the limit end ``play`` with exit 2 and one line
naming the plugin, and are a game that raised (exit 3) in a batch command; never "internal error". Built-in players
are not wrapped (the check costs them nothing)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import polars as pl
import pytest

from septima_sim.players import make_policy
from septima_sim.players.heuristic import HeuristicPolicy
from septima_sim.players.isolated import IN_PROCESS_ENV, IsolatedPolicy
from septima_sim.plugin_guard import PluginPolicy
from tests.helpers import SCRIPT

BOTS = textwrap.dedent(
    """
    import time

    import numpy


    class Bot:
        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            return self.answer(decision)


    class Raiser(Bot):
        def choose(self, decision, view):
            raise RuntimeError("boom")


    class ResetRaiser(Bot):
        def reset(self, seat, rng):
            raise RuntimeError("boom in reset")


    class Negative(Bot):
        def answer(self, decision):
            return -1


    class TrueBot(Bot):
        def answer(self, decision):
            return True


    class PastTheEnd(Bot):
        def answer(self, decision):
            return len(decision.options)


    class Text(Bot):
        def answer(self, decision):
            return "0"


    class Real(Bot):
        def answer(self, decision):
            return 0.0


    class Nothing(Bot):
        def answer(self, decision):
            return None


    class NumpyLast(Bot):
        def answer(self, decision):
            return numpy.int64(len(decision.options) - 1)


    class Sleeper(Bot):
        def choose(self, decision, view):
            time.sleep(3600)


    class ResetSleeper(Bot):
        def reset(self, seat, rng):
            time.sleep(3600)


    class Stubborn(Bot):
        def choose(self, decision, view):
            while True:
                try:
                    time.sleep(3600)
                except Exception:
                    pass
    """
)
FAULTS = {
    "Raiser": "raised in choose (draft_return decision): RuntimeError: boom",
    "ResetRaiser": "raised in reset: RuntimeError: boom in reset",
    "Negative": "returned -1 for a draft_return decision with 3 options: choose must return an int 0..2",
    "TrueBot": "returned True for a draft_return decision",
    "PastTheEnd": "returned 3 for a draft_return decision with 3 options",
    "Text": "returned '0' for a draft_return decision",
    "Real": "returned 0.0 for a draft_return decision",
    "Nothing": "returned None for a draft_return decision",
}


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    (tmp_path / "bots.py").write_text(BOTS)
    return tmp_path


def septima(folder: Path, *args: str, timeout: float = 300, **env: str) -> subprocess.CompletedProcess[str]:
    """The console script in ``folder`` with the plugins importable (and ``env`` added)."""
    environment = {**os.environ, "PYTHONPATH": str(folder), **env}
    command = [str(SCRIPT), *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, env=environment, timeout=timeout)


def plugin_line(done: subprocess.CompletedProcess[str], bot: str) -> str:
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: plugin persona 'py:bots:{bot}' ") and "internal error" not in done.stderr
    assert "a fault of the plugin" in done.stderr
    return done.stderr


EVERYDAY = ("Raiser", "Negative")
"""One exception and one bad index run in the everyday tier; the other faults with the slow tests."""


@pytest.mark.parametrize("bot", [pytest.param(b, marks=[] if b in EVERYDAY else [pytest.mark.slow]) for b in FAULTS])
def test_a_plugin_fault_ends_play_with_exit_2_naming_the_plugin(bots: Path, bot: str) -> None:
    done = septima(bots, "play", "--players", "2", "--lineup", f"py:bots:{bot},random")
    assert FAULTS[bot] in plugin_line(done, bot)


@pytest.mark.slow
def test_an_integer_of_another_type_is_a_valid_answer(bots: Path) -> None:
    done = septima(bots, "play", "--players", "2", "--lineup", "py:bots:NumpyLast,random")
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_slow_decision_fails_play_after_the_limit(bots: Path) -> None:
    t0 = time.monotonic()
    done = septima(bots, "play", "--players", "2", "--lineup", "py:bots:Sleeper,random", "--decision-timeout", "1")
    assert "took longer than 1 s in choose (draft_return decision)" in plugin_line(done, "Sleeper")
    done = septima(bots, "play", "-p", "2", "--lineup", "py:bots:ResetSleeper,random", SEPTIMA_DECISION_TIMEOUT="1")
    assert "took longer than 1 s in reset" in plugin_line(done, "ResetSleeper")
    done = septima(bots, "play", "-p", "2", "--lineup", "py:bots:Stubborn,random", SEPTIMA_DECISION_TIMEOUT="1")
    assert "took longer than 1 s" in plugin_line(done, "Stubborn")  # it catches Exception: not the alarm
    assert time.monotonic() - t0 < 120


@pytest.mark.parametrize("value", ["soon", *(pytest.param(v, marks=pytest.mark.slow) for v in ("-1", "nan", "inf"))])
def test_a_bad_decision_timeout_is_bad_input(bots: Path, value: str) -> None:
    done = septima(bots, "play", "-p", "2", "--lineup", "py:bots:Negative,random", SEPTIMA_DECISION_TIMEOUT=value)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "SEPTIMA_DECISION_TIMEOUT" in done.stderr and "Traceback" not in done.stderr


RUN = """name = "plug"
games_per_cell = 4
seed = 5
shard_size = 2
[matrix]
players = [2]
lineup = ["mine"]
[lineups]
mine = ["py:bots:{bot}", "random"]
"""


@pytest.mark.slow
@pytest.mark.parametrize(("bot", "jobs"), [("Negative", "1"), ("Sleeper", "2")])
def test_plugin_faults_are_games_that_raised_in_a_run(bots: Path, bot: str, jobs: str) -> None:
    (bots / "c.toml").write_text(RUN.format(bot=bot))
    done = septima(bots, "run", "c.toml", "--jobs", jobs, "--out", "run", "--quiet", SEPTIMA_DECISION_TIMEOUT="1")
    assert done.returncode == 3, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    errors = pl.read_parquet(bots / "run" / "errors" / "*.parquet")
    assert errors.height == 4 and errors["error"].str.starts_with(f"PluginError: plugin persona 'py:bots:{bot}'").all()
    replay = septima(bots, *shlex.split(errors.sort("game_index")["replay"][0])[1:], "--decision-timeout", "1")
    plugin_line(replay, bot)  # the replay command of a game that raised gives the plugin's fault in one line


def test_only_plugins_play_behind_the_guard_in_processes_of_theirs(bots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(bots))
    monkeypatch.delitem(sys.modules, "bots", raising=False)  # another test's bots.py may be imported already
    assert isinstance(make_policy("balanced"), HeuristicPolicy)
    assert not any(isinstance(make_policy(name), PluginPolicy) for name in ("random", "greedy", "search:2", "ismcts"))
    isolated = make_policy("py:bots:Negative")
    assert isinstance(isolated, IsolatedPolicy) and isolated.name == "py:bots:Negative"
    monkeypatch.setenv(IN_PROCESS_ENV, "1")
    guarded = make_policy("py:bots:Negative")
    assert isinstance(guarded, PluginPolicy) and guarded.name == "py:bots:Negative"
