"""Benchmark `septima-sim report` at scale: wall time, CPU time and peak RSS for runs of 10k, 100k and 1M games.

Usage: python scripts/bench_report.py [--games 10000 100000 1000000] [--events] [--compare] [--work DIR]

A small real run (2-4 players, Shapeshifting off/on, random players: 6 cells of ``--seed-games`` games) is played
once with `septima-sim run`; each bigger run is then written from its shards through the real store (same schema,
``store.parquet_bytes`` / ``store.write_atomic`` / ``store.shard_path``, a manifest listing every shard): the seed
games repeat with new game indices and seeds (the same seed for the same index in every cell, so cells stay paired).
Each run is written by a separate process, and each `report` (and with ``--compare`` a `report --compare` of the
run against itself) runs in a subprocess of this small script; wall time, CPU time (user + system) and peak RSS
come from ``os.wait4`` of that child. The machine load (1-minute load
average) is printed beside each row: the numbers are only comparable at similar load.
"""

from __future__ import annotations

import argparse
import copy
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import polars as pl

from septima_sim import store

CONFIG = """
name = "bench-report"
games_per_cell = {games}
seed = 7
shard_size = 1000

[matrix]
players = [2, 3, 4]
mode = ["full"]
shapeshifting = [false, true]
lineup = ["all-random"]
"""
SHARD = 1000


def cli() -> list[str]:
    """The installed console script beside this interpreter, else ``python -m septima_sim.cli``."""
    exe = Path(sys.executable).with_name("septima-sim")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "septima_sim.cli"]


def measure(cmd: list[str]) -> dict[str, float]:
    """Run ``cmd`` as a child; wall seconds, CPU seconds and peak RSS (MB) of that child alone."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {err.strip()}")
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mb": usage.ru_maxrss / 1024}


def seed_run(work: Path, games: int, events: bool) -> Path:
    """Play (once) the small real run the synthetic runs are made from."""
    out = work / f"seed-{games}{'-events' if events else ''}"
    if (out / "manifest.json").is_file() and json.loads((out / "manifest.json").read_text())["status"] == "finished":
        return out
    cfg = work / "bench-report.toml"
    cfg.write_text(CONFIG.format(games=games))
    cmd = [*cli(), "run", str(cfg), "--out", str(out), "--force", "--quiet", "--jobs", "2"]
    subprocess.run(cmd + (["--events"] if events else []), check=True, stdout=subprocess.DEVNULL)
    return out


def synthesize(seed: Path, out: Path, per_cell: int) -> int:
    """Write a run of ``per_cell`` games per cell from the seed run's shards; returns the number of games."""
    if out.exists():
        shutil.rmtree(out)
    manifest = store.read_manifest(seed)
    tables = [t for t in ("games", "players", "events") if (seed / t).is_dir()]
    source = {t: pl.read_parquet(seed / t / "*" / "*.parquet", hive_partitioning=False) for t in tables}
    last = source["games"]["game_index"].max()
    assert isinstance(last, int)
    seed_games = last + 1
    shards: dict[str, object] = {}
    for cell in manifest["cells"]:
        rows = {t: source[t].filter(pl.col("cell_id") == cell) for t in tables}
        for part, start in enumerate(range(0, per_cell, SHARD)):
            size = min(SHARD, per_cell - start)
            origin = start % seed_games
            files = {}
            for t in tables:
                frame = rows[t].filter(pl.col("game_index").is_between(origin, origin + size - 1))
                frame = frame.with_columns(pl.col("game_index") - origin + start)
                if t == "games":  # a new seed per repetition, equal across cells for the same index
                    frame = frame.with_columns(pl.col("seed") + start // seed_games)
                path = store.shard_path(out, t, cell, part)
                sha = store.write_atomic(path, store.parquet_bytes(frame))
                files[t] = {"path": str(path.relative_to(out)), "rows": frame.height, "sha256": sha}
            shards[f"{cell}/{part}"] = {"games": size, "errors": 0, "files": files, "finished": manifest["finished"]}
    new = copy.deepcopy(manifest)
    new["run_id"] = out.name
    new["config"]["games_per_cell"] = per_cell
    new["config"]["shard_size"] = SHARD
    new["shards"] = shards
    store.write_json_atomic(out / "manifest.json", new)
    shutil.copy(seed / "config.toml", out / "config.toml")
    return per_cell * len(manifest["cells"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--seed-games", type=int, default=2000, help="real games per cell played once (6 cells)")
    parser.add_argument("--events", action="store_true", help="runs with the events table (--events)")
    parser.add_argument("--compare", action="store_true", help="also time `report --compare` (the run vs itself)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/septima-bench-report"), help="scratch folder")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    seed = seed_run(args.work, args.seed_games, args.events)
    print("command\tgames\twall_s\tcpu_s\tpeak_rss_mb\tload_1min")
    for target in args.games:
        run = args.work / f"run-{target}{'-events' if args.events else ''}"
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
            # in a child process: the measured report's peak RSS must not include this script's frames
            games = pool.submit(synthesize, seed, run, -(-target // 6)).result()
        commands = {"report": [*cli(), "report", str(run), "--out", str(run / "report")]}
        if args.compare:
            commands["report --compare"] = [*commands["report"], "--compare", str(run)]
        for name, cmd in commands.items():
            load = os.getloadavg()[0]
            r = measure(cmd)
            print(
                f"{name}\t{games}\t{r['wall_s']:.1f}\t{r['cpu_s']:.1f}\t{r['peak_rss_mb']:.0f}\t{load:.2f}", flush=True
            )
        shutil.rmtree(run)


if __name__ == "__main__":
    main()
