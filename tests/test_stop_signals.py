"""Stopping outside the run loop, through the installed console script (issue 34, D13 and the orphan workers):
SIGTERM exits 143 and SIGINT 130 with the "interrupted" line wherever it arrives (here: ``play`` waiting for a
plugin's decision; the CLI framework alone would turn both into a silent 130), and loky workers exit when their
driver is killed, even while they are still starting (a worker whose parent died before its start exits at once)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from tests.helpers import SCRIPT, tune_text

SLEEPER = textwrap.dedent(
    """
    import time


    class Sleeper:
        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            open("deciding", "w").close()
            time.sleep(3600)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_a_signal_while_a_plugin_decides_exits_with_the_interrupted_line(
    tmp_path: Path, signum: int, code: int
) -> None:
    (tmp_path / "sleeper.py").write_text(SLEEPER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    args = [str(SCRIPT), "play", "--players", "2", "--lineup", "py:sleeper:Sleeper,random"]
    proc = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "deciding").exists():  # the plugin sleeps in its first decision
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.01)
        proc.send_signal(signum)
    finally:
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and err == "interrupted\n", err


def session(sid: int) -> list[int]:
    """The live processes of a session (the driver started its own; its workers stay in it)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z" and int(fields[3]) == sid:
                found.append(int(stat.parent.name))
    return found


def children(pid: int) -> int:
    count = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            count += int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid
    return count


@pytest.mark.slow
def test_workers_exit_when_the_driver_is_killed_while_they_start(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(tune_text("orphans", trials=2))
    args = [str(SCRIPT), "tune", "t.toml", "--jobs", "16", "--out", "t", "--quiet"]
    proc = subprocess.Popen(args, cwd=tmp_path, start_new_session=True, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while children(proc.pid) < 8:  # workers are being started: most have not run their initializer yet
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 90
        while session(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not session(proc.pid), "workers outlived their killed driver"
    finally:
        for pid in session(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
