"""Plugins play in a process of their own (``players/isolated.py``, issue 27): the same games as in-process, their
output and faults reach the user as before, a hanging one is stopped on any thread, a crashing one is one line naming
it, and the child never outlives its parent, even killed with SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import polars as pl
import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import make_policy
from septima_sim.players.isolated import IN_PROCESS_ENV, IsolatedPolicy
from septima_sim.plugin_guard import PluginError
from tests.helpers import SCRIPT, reaped

BOTS = textwrap.dedent(
    """
    import os
    import signal
    import sys
    import time


    class Drawer:
        name = "drawer"

        def reset(self, seat, rng):
            self.rng = rng

        def choose(self, decision, view):
            return self.rng.randrange(len(decision.options))


    class Talker(Drawer):
        def reset(self, seat, rng):
            print(f"hello from seat {seat}")
            print("a warning on stderr", file=sys.stderr)
            super().reset(seat, rng)


    class Quitter(Drawer):
        def choose(self, decision, view):
            os._exit(3)


    class Segfault(Drawer):
        def choose(self, decision, view):
            os.kill(os.getpid(), signal.SIGKILL)


    class Sleeper(Drawer):
        def choose(self, decision, view):
            time.sleep(3600)


    class Idle(Drawer):
        def reset(self, seat, rng):
            print(os.getpid(), flush=True)


    class Busy(Drawer):
        def reset(self, seat, rng):
            print(os.getpid(), flush=True)
            while True:
                pass
    """
)
CHILD_EXIT_SECONDS = 10.0
"""How long an orphaned child may take to notice (it checks every 0.25 s)."""


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "isobots.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "isobots", raising=False)
    return tmp_path


def septima(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(folder), **env}
    return subprocess.run(
        [str(SCRIPT), *args], cwd=folder, capture_output=True, text=True, env=environment, timeout=300
    )


def one_line(done: subprocess.CompletedProcess[str], bot: str) -> str:
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"error: plugin persona 'py:isobots:{bot}' "), done.stderr
    return done.stderr


CONFIGS = [GameConfig(3), GameConfig(2, shapeshifting=True, omens=True), GameConfig(1)]
"""Three seats (two of the same plugin: two instances in one child), the modules' public views, solo's Widow."""


@pytest.mark.parametrize("config", CONFIGS, ids=["3p", "modules", "solo"])
def test_an_isolated_plugin_plays_the_same_games_as_in_process(
    bots: Path, content: Content, monkeypatch: pytest.MonkeyPatch, config: GameConfig
) -> None:
    """The plugin draws from an exact copy of its seat's stream, and sees a copy of the view: same games, seat by
    seat, with or without isolation."""
    seats = ["py:isobots:Drawer", "balanced", "py:isobots:Drawer"][: config.players]

    def games() -> list[object]:
        return [play_game(config, content, [make_policy(s) for s in seats], seed).players for seed in (1, 2)]

    isolated = games()
    assert isinstance(make_policy("py:isobots:Drawer"), IsolatedPolicy)
    monkeypatch.setenv(IN_PROCESS_ENV, "1")
    assert games() == isolated


def test_a_hanging_plugin_is_stopped_on_any_thread_and_its_process_killed(bots: Path, content: Content) -> None:
    """The limit is the parent's ``poll``, not a signal: it holds on a worker thread (Dask's), and the child is
    killed; the policy's next game starts a fresh one."""
    policy = IsolatedPolicy("py:isobots:Sleeper", timeout=0.5)
    child = policy._slot[0]
    assert child is not None
    failure: list[BaseException] = []

    def play() -> None:
        try:
            play_game(GameConfig(2), content, [policy, make_policy("random")], 1)
        except PluginError as exc:
            failure.append(exc)

    worker = threading.Thread(target=play)
    worker.start()
    worker.join(30)
    assert failure and "took longer than 0.5 s in choose (draft_return decision)" in str(failure[0])
    assert child.proc.poll() == -signal.SIGKILL
    policy.reset(0, random.Random(1))  # the same policy plays its next game in a fresh child
    fresh = policy._slot[0]
    assert fresh is not None and fresh.proc.pid != child.proc.pid and fresh.proc.poll() is None


def test_a_plugin_prints_and_fails_as_in_process_through_the_console_script(bots: Path) -> None:
    """What the plugin prints reaches the user's streams; a crash of its process is one line naming it, exit 2."""
    done = septima(bots, "play", "--players", "2", "--lineup", "py:isobots:Talker,py:isobots:Talker")
    assert done.returncode == 0, done.stderr
    assert "hello from seat 0" in done.stdout and "hello from seat 1" in done.stdout
    assert done.stderr.count("a warning on stderr") == 2
    line = one_line(septima(bots, "play", "--players", "2", "--lineup", "py:isobots:Quitter,random"), "Quitter")
    assert "crashed in choose (draft_return decision): its process exited with code 3" in line


@pytest.mark.slow
def test_a_plugin_killed_by_a_signal_and_a_hanging_one_are_one_line(bots: Path) -> None:
    line = one_line(septima(bots, "play", "--players", "2", "--lineup", "py:isobots:Segfault,random"), "Segfault")
    assert "its process was killed by SIGKILL" in line
    done = septima(bots, "play", "-p", "2", "--lineup", "py:isobots:Sleeper,random", "--decision-timeout", "0.5")
    assert "took longer than 0.5 s in choose (draft_return decision)" in one_line(done, "Sleeper")


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting for a reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state not in ("Z", "X")


PARENT = """
import random, sys, time
from septima_sim.players import make_policy
policy = make_policy(sys.argv[1])
policy.reset(0, random.Random(1))
time.sleep(3600)
"""


@pytest.mark.parametrize("bot", ["Idle", "Busy"])
def test_the_child_exits_when_its_parent_is_killed(bots: Path, bot: str) -> None:
    """kill -9 of the parent: an idle child sees its pipe close, a busy one (a plugin in an endless loop) is ended
    by its watchdog thread. No orphan."""
    env = {**os.environ, "PYTHONPATH": str(bots), "SEPTIMA_DECISION_TIMEOUT": "0"}
    command = [sys.executable, "-c", PARENT, f"py:isobots:{bot}"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env, cwd=bots, start_new_session=True)
    with reaped(proc):
        assert proc.stdout is not None
        child = int(proc.stdout.readline())
        assert plugin_processes(bots) == [child]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + CHILD_EXIT_SECONDS
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child)


RUN = """name = "iso"
games_per_cell = 6
seed = 5
shard_size = 2
[matrix]
players = [2]
lineup = ["mine"]
[lineups]
mine = ["py:isobots:Drawer", "balanced"]
"""


@pytest.mark.slow
def test_run_with_two_jobs_gives_the_same_rows_isolated_and_in_process(bots: Path) -> None:
    """``run --jobs 2`` (loky workers, each with its own plugin child) writes the rows of the in-process run."""
    (bots / "c.toml").write_text(RUN)
    rows: list[pl.DataFrame] = []
    for env in ({}, {IN_PROCESS_ENV: "1"}):
        out = f"run{len(rows)}"
        done = septima(bots, "run", "c.toml", "--jobs", "2", "--out", out, "--quiet", **env)
        assert done.returncode == 0, done.stderr
        players = pl.read_parquet(bots / out / "players" / "**" / "*.parquet", hive_partitioning=True)
        rows.append(players.drop("run_id").sort("game_index", "seat"))
    assert rows[0].height == 12 and set(rows[0]["policy"]) == {"drawer", "balanced"}
    assert rows[0].equals(rows[1])


@pytest.mark.slow
def test_a_hanging_plugin_fails_its_games_on_dask_worker_threads(bots: Path) -> None:
    """``--backend dask`` plays on worker threads, where no alarm signal arrives: the parent's poll stops the plugin
    there too (every game an error row naming it, exit 3), and no plugin process is left behind."""
    pytest.importorskip("dask.distributed")
    (bots / "c.toml").write_text(RUN.replace("py:isobots:Drawer", "py:isobots:Sleeper").replace("= 6", "= 4"))
    args = ("run", "c.toml", "--backend", "dask", "--jobs", "2", "--out", "d", "--quiet")
    done = septima(bots, *args, SEPTIMA_DECISION_TIMEOUT="1")
    assert done.returncode == 3, done.stderr
    errors = pl.read_parquet(bots / "d" / "errors" / "*.parquet")
    assert errors.height == 4
    assert errors["error"].str.contains("'py:isobots:Sleeper' took longer than 1 s in choose").all()
    deadline = time.monotonic() + CHILD_EXIT_SECONDS
    while plugin_processes(bots) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not plugin_processes(bots)


def plugin_processes(folder: Path) -> list[int]:
    """The live plugin processes started in ``folder`` (their working directory)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if b"septima_sim.players.isolated_child" in cmdline.read_bytes():
                pid = int(cmdline.parent.name)
                if alive(pid) and Path(os.readlink(cmdline.parent / "cwd")) == folder:
                    found.append(pid)
        except (OSError, ValueError):
            continue
    return found
