"""What a Dask cluster costs per shard task, and what N machines would give: plays the same run locally
(``--jobs W``) and on a LocalCluster of W worker processes (``--backend dask``), once with one-game shards (the
per-task overhead dominates) and once with the given shard size (the games dominate), and prints wall times,
games/s and the per-task overhead of the cluster path.

    python scripts/bench_cluster.py [--workers 2] [--games 2000] [--shard 100] [--lineup all-random]

The estimate for N machines of W cores: each task costs the driver about ``overhead`` seconds (scheduling, moving
the shard's Parquet bytes, writing it), so the driver saturates at ``1 / overhead`` tasks per second; below that the
cluster gives about N x the one-machine games/s.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(sys.executable).parent / "septima-sim"
CONFIG = """name = "bench"
games_per_cell = {games}
seed = 1
shard_size = {shard}
[matrix]
players = [4]
lineup = ["{lineup}"]
"""


def timed(args: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    subprocess.run([str(SCRIPT), *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--shard", type=int, default=100)
    parser.add_argument("--lineup", default="all-random")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        results: dict[tuple[int, str], float] = {}
        for shard in (1, opts.shard):
            games = min(opts.games, 400) if shard == 1 else opts.games
            (root / f"s{shard}.toml").write_text(CONFIG.format(games=games, shard=shard, lineup=opts.lineup))
            for backend in ("local", "dask"):
                extra = ["--backend", "dask"] if backend == "dask" else []
                out = f"r-{shard}-{backend}"
                wall = timed(["run", f"s{shard}.toml", "--jobs", str(opts.workers), *extra, "--out", out, "-q"], root)
                results[(shard, backend)] = wall
                print(f"shard {shard:>4} games, {games:>6} games, {backend:>5}: {wall:6.1f} s wall, "
                      f"{games / wall:7.1f} games/s", flush=True)  # fmt: skip
        tasks = min(opts.games, 400)
        overhead = (results[(1, "dask")] - results[(1, "local")]) / tasks
        per_task = results[(1, "dask")] / tasks
        rate = opts.games / results[(opts.shard, "dask")]
        print(f"cluster path: {per_task * 1000:.1f} ms per one-game task in all, {overhead * 1000:+.1f} ms against "
              f"local processes (LocalCluster start-up included)")  # fmt: skip
        limit = 1 / per_task
        print(f"with {opts.shard}-game shards: {rate:.0f} games/s on {opts.workers} workers; 10 such machines: about "
              f"{10 * rate:.0f} games/s, below the driver's limit of about {limit:.0f} tasks/s "
              f"({limit * opts.shard:.0f} games/s at this shard size)")  # fmt: skip


if __name__ == "__main__":
    main()
