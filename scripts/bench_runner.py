"""Benchmark `septima-sim run`: games/s with --jobs 1 vs --jobs 2, peak RSS and bytes per game per table.

Usage: python scripts/bench_runner.py [--games 10000 100000] [--jobs 1 2] [--events]

Each run is a subprocess (4 players, Full, random players, one cell); peak RSS is the largest process among the
driver and its workers (ru_maxrss of the children, reaped after each run).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = """
name = "bench"
games_per_cell = 1000
seed = 1
shard_size = 1000

[matrix]
players = [4]
mode = ["full"]
lineup = ["all-random"]
"""


def bench(games: int, jobs: int, events: bool, root: Path) -> dict[str, float]:
    """One run in a subprocess; returns games/s, peak RSS (MB) and bytes per game per table."""
    cfg = root / "bench.toml"
    cfg.write_text(CONFIG)
    out = root / f"run-{games}-{jobs}"
    cmd = [sys.executable, "-m", "septima_sim.cli", "run", str(cfg), "--games", str(games), "--jobs", str(jobs)]
    cmd += ["--out", str(out), "--quiet"] + (["--events"] if events else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    row = {"games": games, "jobs": jobs, "seconds": seconds, "games_per_s": games / seconds, "peak_rss_mb": rss_mb}
    for table in ("games", "players", "events"):
        size = sum(p.stat().st_size for p in (out / table).rglob("*.parquet")) if (out / table).exists() else 0
        row[f"{table}_bytes_per_game"] = size / games
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--events", action="store_true", help="also log events (bigger output)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = [bench(g, j, args.events, Path(tmp)) for g in args.games for j in args.jobs]
    keys = list(results[0])
    print("\t".join(keys))
    for r in results:
        print("\t".join(f"{r[k]:.1f}" if isinstance(r[k], float) else str(r[k]) for k in keys))
    by = {(r["games"], r["jobs"]): r["games_per_s"] for r in results}
    for g in args.games:
        if (g, 1) in by and (g, 2) in by:
            print(f"{g} games: --jobs 2 / --jobs 1 = {by[(g, 2)] / by[(g, 1)]:.2f}x")


if __name__ == "__main__":
    main()
