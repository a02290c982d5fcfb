"""Play an experiment into a run directory that may already hold some of its games: a fresh directory is created;
an existing one (a smaller stage of the same experiment, or one left unfinished by an interrupt) is locked, its
config raised to the new number of games, and only the shards it lacks are played (the same shard size keeps every
finished shard's key). Shared by ``ablate`` (sequential stages) and ``tune`` (successive-halving rungs)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tomli_w
from rich.console import Console

from septima_sim import rundir, runner, store
from septima_sim.experiment import Experiment
from septima_sim.run_lock import RunLock, RunLocked


def play_into(
    exp: Experiment,
    run_dir: Path,
    console: Console,
    *,
    on_shard: Callable[[runner.ShardOutput], None] | None = None,
) -> runner.Summary:
    """Play ``exp`` into ``run_dir`` within the caller's ``runner.parallel_backend``; RunError when another process
    writes the directory, RunInterrupted on Ctrl-C/SIGTERM (finished shards are kept)."""
    if (run_dir / "manifest.json").is_file():
        lock = RunLock(run_dir)
        try:
            lock.acquire()
        except RunLocked as exc:
            raise runner.RunError(str(exc)) from None
        try:
            manifest = store.read_manifest(run_dir)
            manifest["config"] = exp.resolved()
            manifest["config_hash"] = exp.hash
            store.write_atomic(run_dir / "config.toml", tomli_w.dumps(exp.resolved()).encode())
            store.remove_partials(run_dir)
        except BaseException:
            lock.release()
            raise
    else:
        manifest, lock = rundir.create_run_dir(exp, run_dir, force=False, events=False)
    try:
        return runner.execute(exp, run_dir, manifest, backend="local", console=console, quiet=True, on_shard=on_shard)
    finally:
        lock.release()


def games_on_disk(run_dir: Path) -> int:
    """Games the finished shards of a run directory hold (0 when there is none yet or its manifest is unreadable)."""
    try:
        return sum(int(s["games"]) for s in store.read_manifest(run_dir)["shards"].values())
    except (store.RunDirError, KeyError, TypeError, ValueError):
        return 0
