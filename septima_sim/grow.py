"""Play an experiment into a run directory that may already hold some of its games: a fresh directory is created;
an existing one (a smaller stage of the same experiment, or one left unfinished by an interrupt) is reopened like
``run --resume`` (locked; a truncated or missing manifest rebuilt from the shard files), its config raised to the new
number of games, and only the shards it lacks are played (the same shard size keeps every finished shard's key).
Games played with another content pack are never mixed in. Shared by ``ablate`` (sequential stages) and ``tune``
(successive-halving rungs)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w
from rich.console import Console

from septima_sim import rundir, runner, store
from septima_sim.content.loader import content_hash
from septima_sim.experiment import Experiment
from septima_sim.run_lock import RunLock


def play_into(
    exp: Experiment,
    run_dir: Path,
    console: Console,
    *,
    on_shard: Callable[[runner.ShardOutput], None] | None = None,
) -> runner.Summary:
    """Play ``exp`` into ``run_dir`` within the caller's ``runner.parallel_backend``; RunError when another process
    writes the directory, RunInterrupted on Ctrl-C/SIGTERM (finished shards are kept)."""
    return play_many_into([(exp, run_dir)], console, on_shard=on_shard)[0]


def play_many_into(
    runs: list[tuple[Experiment, Path]],
    console: Console,
    *,
    on_shard: Callable[[runner.ShardOutput], None] | None = None,
) -> list[runner.Summary]:
    """``play_into`` for several runs whose shards play as one stream of tasks (``runner.execute_many``: the trials
    of a ``tune`` batch fill the workers together)."""
    plans: list[runner.RunPlan] = []
    locks: list[RunLock] = []
    try:
        for exp, run_dir in runs:
            manifest, lock = _opened(exp, run_dir)
            locks.append(lock)
            plans.append(runner.RunPlan(exp, run_dir, manifest))
        return runner.execute_many(plans, backend="local", console=console, quiet=True, on_shard=on_shard)
    finally:
        for lock in locks:
            lock.release()


def _opened(exp: Experiment, run_dir: Path) -> tuple[dict[str, Any], RunLock]:
    """The run directory of ``exp``, created, or reopened and raised to its games (RunError for other settings)."""
    if not (run_dir / "config.toml").is_file():
        return rundir.create_run_dir(exp, run_dir, force=False, events=False)
    before, manifest, lock = rundir.open_for_resume(run_dir, same_config=False)
    try:
        content = content_hash(exp.content_dir)
        if _but_games(before) != _but_games(exp) or manifest.get("content_hash") != content:
            raise runner.RunError(
                f"{run_dir} holds games of other settings or another content pack (content hash "
                f"{manifest.get('content_hash')}, now {content}): start again in a new output folder"
            )
        manifest["config"] = exp.resolved()
        manifest["config_hash"] = exp.hash
        store.write_atomic(run_dir / "config.toml", tomli_w.dumps(exp.resolved()).encode())
    except BaseException:
        lock.release()
        raise
    return manifest, lock


def games_on_disk(run_dir: Path) -> int:
    """Games the finished shards of a run directory hold (0 when there is none yet or its manifest is unreadable)."""
    try:
        return sum(int(s["games"]) for s in store.read_manifest(run_dir)["shards"].values())
    except (store.RunDirError, KeyError, TypeError, ValueError):
        return 0


def _but_games(exp: Experiment) -> dict[str, object]:
    """An experiment's settings except the number of games (what growing a run may change) and where its content
    pack lies (a moved folder; the pack itself is compared by its content hash)."""
    return {k: v for k, v in exp.resolved().items() if k not in ("games_per_cell", "content")}
