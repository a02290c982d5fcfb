"""End to end against catanatron: `septima-sim run` of 300 4-player Full games with both modules and heuristic-mix
players (`--jobs 1`) vs catanatron playing 300 games of 4 `WeightedRandomPlayer`, each as a whole process (start-up,
imports, config/content load, writing and the end-of-run table included on our side; start-up and imports on
catanatron's).

    python scripts/bench_vs_catanatron.py                    # 5 alternating runs per side
    python scripts/bench_vs_catanatron.py --runs 7 --games 300 --catanatron-python /tmp/catvenv/bin/python

Both sides are timed the same way: wall time, and CPU time (user + system) of the child process from
``getrusage(RUSAGE_CHILDREN)``; runs alternate so that load changes on the machine hit both alike. Prints the medians,
games/s and our ratio to catanatron (the issue's target is 5x), with the load average before and after. Numbers, not
assertions: speed is never a test.

catanatron is not a dependency of this project: install it in a separate venv (`python3 -m venv /tmp/catvenv &&
/tmp/catvenv/bin/pip install catanatron`); without it the script measures our side only and says so.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = """name = "vs-catanatron"
games_per_cell = {games}
seed = 1
shard_size = {games}

[matrix]
players = [4]
mode = ["full"]
shapeshifting = [true]
omens = [true]
lineup = ["heuristic-mix"]
"""

CATANATRON = """
import sys
from catanatron.game import Game
from catanatron.models.player import Color
from catanatron.players.weighted_random import WeightedRandomPlayer
for i in range(int(sys.argv[1])):
    Game([WeightedRandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)], seed=i).play()
"""


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of one child process run to completion (its output discarded; a failure stops the script)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd[:3])} ... exited {done.returncode}: {done.stderr.strip()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def catanatron_available(python: Path) -> bool:
    """Whether `python` exists and imports catanatron."""
    if not python.exists():
        return False
    return subprocess.run([str(python), "-c", "import catanatron"], capture_output=True, check=False).returncode == 0


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--catanatron-python",
        type=Path,
        default=Path(os.environ.get("CATANATRON_PYTHON", "/tmp/catvenv/bin/python")),
        help="a Python with catanatron installed (default: $CATANATRON_PYTHON or /tmp/catvenv/bin/python)",
    )
    args = ap.parse_args()
    ours = Path(sys.executable).with_name("septima-sim")
    has_cat = catanatron_available(args.catanatron_python)
    if not has_cat:
        print(f"catanatron not found at {args.catanatron_python}: measuring septima-sim only (see --help)")
    print(f"load average before: {load()} ({os.cpu_count()} cores)")
    sides: dict[str, list[tuple[float, float]]] = {"septima-sim": [], "catanatron": []}
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "vs-catanatron.toml"
        config.write_text(CONFIG.format(games=args.games))
        run = [str(ours), "run", str(config), "--jobs", "1", "--out", str(Path(tmp) / "run"), "--force"]
        cat = [str(args.catanatron_python), "-c", CATANATRON, str(args.games)]
        for _ in range(args.runs):
            sides["septima-sim"].append(timed(run))
            if has_cat:
                sides["catanatron"].append(timed(cat))
    medians: dict[str, tuple[float, float]] = {}
    for side, values in sides.items():
        if not values:
            continue
        wall = statistics.median(v[0] for v in values)
        cpu = statistics.median(v[1] for v in values)
        medians[side] = (wall, cpu)
        runs = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in values)
        print(
            f"{side:12} {args.games} games: wall {wall:6.2f} s  CPU {cpu:6.2f} s  "
            f"({args.games / wall:6.1f} / {args.games / cpu:6.1f} games/s)  runs wall/CPU: {runs}"
        )
    if len(medians) == 2:
        (ow, oc), (cw, cc) = medians["septima-sim"], medians["catanatron"]
        print(f"septima-sim / catanatron games/s: {cw / ow:.2f}x wall, {cc / oc:.2f}x CPU (target 5x)")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
