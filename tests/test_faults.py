"""Faults, each in a subprocess: SIGTERM/SIGINT stop a run cleanly (workers gone, manifest ``interrupted``, exit
143/130) and resume loses nothing; after SIGKILL of the driver its workers exit within 30 s; damaged shards are
replayed by --resume and refused by report; a second writer is locked out; a truncated manifest is rebuilt; a full
disk is bad input (exit 2) with no ``*.partial`` left; a crash exits 70."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pytest

import septima_sim
from septima_sim import store
from septima_sim.run_lock import holder
from tests.helpers import SCRIPT, reaped, script

CONFIG = """
name = "f"
games_per_cell = {games}
seed = 11
shard_size = 20

[matrix]
players = [2, 4]
"""


cli = script


def start(*args: str) -> subprocess.Popen[str]:
    """The script in the background, in its own session (so a test can clean up the whole group)."""
    return subprocess.Popen(
        [str(SCRIPT), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )


def rows(run_dir: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    data = septima_sim.load(run_dir)
    games = data.games.drop("run_id", "duration_ms", "cell").sort("cell_id", "game_index").collect()
    players = data.players.drop("run_id", "cell").sort("cell_id", "game_index", "seat").collect()
    return games, players


def wait_for_shards(run_dir: Path, count: int, proc: subprocess.Popen[str], timeout: float = 120) -> None:
    """Until the manifest lists ``count`` finished shards (the run is busy and its workers are up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"the run ended early: {proc.communicate()}"
        with contextlib.suppress(OSError, ValueError):
            if len(json.loads((run_dir / "manifest.json").read_text())["shards"]) >= count:
                return
        time.sleep(0.02)
    raise AssertionError("the run did not get going")


def descendants(pid: int) -> set[int]:
    """Every live process whose ancestry leads to ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(stat.parent.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    """The pids that still run (zombies count as gone)."""
    live = set()
    for pid in pids:
        with contextlib.suppress(OSError, IndexError):
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                live.add(pid)
    return live


def wait_gone(pids: set[int], timeout: float) -> set[int]:
    deadline = time.monotonic() + timeout
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return config_for(300, tmp_path_factory.mktemp("cfg"))


@pytest.fixture(scope="module")
def finished(config_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean run of the config, never changed (tests damage copies of it)."""
    out = tmp_path_factory.mktemp("ref") / "run"
    done = cli("run", str(config_file), "--jobs", "1", "--out", str(out), "-q")
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def reference(finished: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    return rows(finished)


def copy(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["TERM", "INT"])
def test_signal_stops_cleanly_and_resume_loses_nothing(
    signum: int, code: int, config_file: Path, reference: tuple[pl.DataFrame, pl.DataFrame], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    with reaped(start("run", str(config_file), "--jobs", "2", "--out", str(out), "-q")) as proc:
        wait_for_shards(out, 3, proc)
        workers = descendants(proc.pid)
        assert workers, "no worker processes found"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == code, err
        assert f"--resume {out}" in err and "Traceback" not in err
        assert not wait_gone(workers, 10), "worker processes outlived the run"
    manifest = store.read_manifest(out)
    assert manifest["status"] == "interrupted" and len(manifest["shards"]) < 30
    assert not list(out.rglob("*.partial")) and not (out / ".lock").exists()
    done = cli("run", "--resume", str(out), "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert store.read_manifest(out)["status"] == "finished"
    games, players = rows(out)
    assert games.equals(reference[0]) and players.equals(reference[1])


def config_for(games: int, folder: Path) -> Path:
    """The fault config with this many games per cell, written in ``folder``."""
    path = folder / f"f{games}.toml"
    path.write_text(CONFIG.format(games=games))
    return path


@pytest.mark.slow
def test_sigkill_of_the_driver_takes_its_workers_down_within_30s(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with reaped(start("run", str(config_for(20000, tmp_path)), "--jobs", "2", "--out", str(out), "-q")) as proc:
        wait_for_shards(out, 2, proc)
        workers = descendants(proc.pid)
        assert workers
        os.kill(proc.pid, signal.SIGKILL)  # the driver only: no handler runs, nobody tells the workers
        proc.wait()
        assert not wait_gone(workers, 30), "workers still alive 30 s after the driver was killed"


@pytest.mark.slow
def test_truncated_shard_is_replayed_by_resume(
    finished: Path, reference: tuple[pl.DataFrame, pl.DataFrame], tmp_path: Path
) -> None:
    out = copy(finished, tmp_path / "run")
    manifest = store.read_manifest(out)
    shard = next(iter(manifest["shards"].values()))
    victim = out / shard["files"]["players"]["path"]
    victim.write_bytes(victim.read_bytes()[:100])
    assert store.verify_run(out).problems == [
        f"{shard['files']['players']['path']}: " + ("sha256 differs from the manifest (truncated or modified)")
    ]
    done = cli("run", "--resume", str(out), "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert not store.verify_run(out).damaged
    games, players = rows(out)
    assert games.equals(reference[0]) and players.equals(reference[1])


@pytest.mark.slow
def test_report_refuses_a_deleted_shard_unless_allow_partial(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert cli("run", str(config_for(60, tmp_path)), "--jobs", "1", "--out", str(out), "-q").returncode == 0
    manifest = store.read_manifest(out)
    shards = list(manifest["shards"].values())
    for shard in shards[:2]:
        (out / shard["files"]["games"]["path"]).unlink()
    refused = cli("report", str(out))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert refused.stderr.count("\n") == 1
    assert shards[0]["files"]["games"]["path"] in refused.stderr and "(and 1 more)" in refused.stderr
    assert not (out / "report").exists()
    partial = cli("report", str(out), "--allow-partial", "--out", str(tmp_path / "rep"))
    assert partial.returncode == 0, partial.stderr
    first = (tmp_path / "rep" / "summary.md").read_text().splitlines()[0]
    assert "40 of 120 games are missing" in first
    assert "40 of 120 games are missing" in (tmp_path / "rep" / "report.html").read_text()


@pytest.mark.slow
def test_concurrent_resume_is_locked_out_and_a_stale_lock_is_taken_over(finished: Path, tmp_path: Path) -> None:
    out = copy(finished, tmp_path / "run")
    manifest = store.read_manifest(out)
    manifest["shards"] = dict(list(manifest["shards"].items())[:5])
    manifest["status"] = "interrupted"
    store.write_json_atomic(out / "manifest.json", manifest)
    with reaped(start("run", "--resume", str(out), "--jobs", "1", "-q")) as first:
        deadline = time.monotonic() + 60
        while holder(out) != first.pid and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(first.pid, signal.SIGSTOP)  # holds the lock for as long as the second one needs to try
        try:
            second = cli("run", "--resume", str(out), "--jobs", "1", "-q")
        finally:
            os.kill(first.pid, signal.SIGCONT)
        assert second.returncode == 2 and f"being written by process {first.pid}" in second.stderr
        assert second.stderr.count("\n") == 1
        first.communicate(timeout=120)
        assert first.returncode == 0
    assert store.read_manifest(out)["status"] == "finished" and not (out / ".lock").exists()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (out / ".lock").write_text(f"{dead.pid}\n")  # a writer that died without cleaning up
    done = cli("run", "--resume", str(out), "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated", "missing"])
def test_resume_rebuilds_a_truncated_or_missing_manifest(
    damage: str, finished: Path, reference: tuple[pl.DataFrame, pl.DataFrame], tmp_path: Path
) -> None:
    out = copy(finished, tmp_path / "run")
    first = store.read_manifest(out)
    kept = dict(list(first["shards"].items())[:7])
    for key, shard in first["shards"].items():  # as if killed after 7 shards
        if key not in kept:
            for info in shard["files"].values():
                (out / info["path"]).unlink()
    manifest = out / "manifest.json"
    if damage == "truncated":
        manifest.write_bytes(manifest.read_bytes()[:300])
    else:
        manifest.unlink()
    done = cli("run", "--resume", str(out), "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    rebuilt = store.read_manifest(out)
    assert rebuilt["status"] == "finished" and not store.verify_run(out).damaged
    for key, shard in kept.items():
        assert rebuilt["shards"][key]["files"]["games"]["sha256"] == shard["files"]["games"]["sha256"]
    games, players = rows(out)
    assert games.equals(reference[0]) and players.equals(reference[1])


@contextlib.contextmanager
def small_disk(path: Path, size: str, read_only: bool = False) -> Iterator[bool]:
    """A tmpfs of ``size`` mounted at ``path``; yields False where mounting is not allowed."""
    path.mkdir()
    options = f"size={size}" + (",ro" if read_only else "")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True)
    try:
        yield mounted.returncode == 0
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", "-l", str(path)], check=False)


ENOSPC_AT_FSYNC = """
import errno, os, sys
from septima_sim import store
from septima_sim.run_lock import holder
from tests.helpers import SCRIPT, reaped, script
calls = {"n": 0}
def fsync(fd):
    calls["n"] += 1
    if calls["n"] > 6:
        raise OSError(errno.ENOSPC, "No space left on device")
store.os.fsync = fsync
from septima_sim.cli import main
sys.argv = ["septima-sim", *sys.argv[1:]]
main()
"""


@pytest.mark.slow
def test_disk_full_is_bad_input_and_leaves_no_partial_file(config_file: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    out = disk / "run"
    with small_disk(disk, "96k") as mounted:
        args = ["run", str(config_file), "--jobs", "1", "--out", str(out), "-q"]
        if mounted:
            done = cli(*args)
        else:  # no tmpfs here: the same failure injected at the write
            done = subprocess.run(
                [sys.executable, "-c", ENOSPC_AT_FSYNC, *args], capture_output=True, text=True, check=False
            )
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "No space left on device" in done.stderr
        assert "Traceback" not in done.stderr
        assert not list(disk.rglob("*.partial")) and not (out / ".lock").exists()
        if mounted:  # some space freed: resume finishes the run (the manifest was never left half-written)
            subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True)
        resumed = cli("run", "--resume", str(out), "--jobs", "1", "-q")
        assert resumed.returncode == 0, resumed.stderr
        assert not store.verify_run(out).damaged


def test_read_only_disk_is_bad_input(config_file: Path, tmp_path: Path) -> None:
    disk = tmp_path / "ro"
    with small_disk(disk, "1m", read_only=True) as mounted:
        if not mounted:
            pytest.skip("cannot mount a read-only tmpfs here (needs root)")
        done = cli("run", str(config_file), "--out", str(disk / "run"), "-q")
        assert done.returncode == 2 and "Read-only file system" in done.stderr
        assert done.stderr.count("\n") == 1 and not list(disk.iterdir())


CRASH = """
import sys
import septima_sim.rules_summary as rules_summary
def broken(content):
    raise RuntimeError("injected bug")
rules_summary.summary = broken
from septima_sim.cli import main
sys.argv = ["septima-sim", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("debug", [False, True], ids=["plain", "debug"])
def test_a_crash_exits_70_with_the_debug_hint(debug: bool) -> None:
    args = [sys.executable, "-c", CRASH, *(["--debug"] if debug else []), "rules"]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    assert done.returncode == 70
    last = done.stderr.splitlines()[-1]
    assert "RuntimeError: injected bug" in last and "--debug" in last
    assert ("Traceback" in done.stderr) is debug
    if not debug:
        assert done.stderr.count("\n") == 1


KILLED_AT_FSYNC = """
import os, signal, sys
from septima_sim import store
calls, at = {"n": 0}, int(sys.argv[1])
real = store.os.fsync
def fsync(fd):
    calls["n"] += 1
    if calls["n"] == at:
        os.kill(os.getpid(), signal.SIGKILL)  # no handler, no cleanup: like a kill -9 or a power cut
    real(fd)
store.os.fsync = fsync
from septima_sim.cli import main
sys.argv = ["septima-sim", *sys.argv[2:]]
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("at", [1, 2, 3, 4], ids=["config", "config-rename", "manifest", "manifest-rename"])
def test_a_kill_while_the_run_folder_is_made_leaves_none_or_a_resumable_one(
    config_file: Path, tmp_path: Path, at: int
) -> None:
    """The run folder is built beside its place and renamed in whole (issue 34): a SIGKILL at any fsync of its
    making leaves no folder (`run` starts afresh) or a whole one (`run --resume` finishes it), never a stuck one."""
    out = tmp_path / "run"
    args = ["run", str(config_file), "--jobs", "1", "--out", str(out), "-q"]
    killed = subprocess.run([sys.executable, "-c", KILLED_AT_FSYNC, str(at), *args], capture_output=True, check=False)
    assert killed.returncode == -signal.SIGKILL
    if out.exists():
        assert (out / "config.toml").is_file() and (out / "manifest.json").is_file()
        done = cli("run", "--resume", str(out), "--jobs", "1", "-q")
    else:
        done = cli(*args)
    assert done.returncode == 0, done.stderr
    assert not store.verify_run(out).damaged
