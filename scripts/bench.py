"""Engine benchmark: games/s and decisions/s of seeded games on one core (median of several runs).

    python scripts/bench.py                      # 4-player Full, random players
    python scripts/bench.py --players 3 --mode basic --games 500 --runs 7
    python scripts/bench.py --lineup heuristic-mix --shapeshifting --omens --games 200
    python scripts/bench.py --profile            # pyinstrument profile of one run
    python scripts/bench.py --events             # with an event sink (a list), as `run --events` plays
    python scripts/bench.py --compare-pure       # compiled (mypyc) / pure Python ratio, random and heuristic-mix

Prints games/s, decisions/s and the peak RSS of this process. Numbers, not assertions: speed is never a test.
`--compare-pure` runs this script in subprocesses, one run each, alternating compiled and SEPTIMA_PURE=1 (so that load
changes on the machine hit both sides alike), and prints both medians, their ratio and the load average.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import resource
import statistics
import subprocess
import sys
import time

import septima_sim
from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import builtin_lineups, make_policy
from septima_sim.players.lineup import Lineup


def one_run(
    config: GameConfig, lineup: Lineup, games: int, first_seed: int, events: bool = False
) -> tuple[float, float]:
    """Play `games` seeded games (lineup rotated over the seats; `events`: each into a list); returns (games/s,
    decisions/s) of this process's CPU time, which other load on the machine barely disturbs (wall time would)."""
    content = load_content()
    decisions = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        policies = [make_policy(name) for name in lineup.seat_personas("lineup", config.players, seed)]
        log: list[dict[str, object]] = []
        result = play_game(config, content, policies, seed, log.append if events else None)
        decisions += result.game["decisions"]  # type: ignore[operator]
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


COMPARE_WORKLOADS = (  # (label, arguments): the two benchmark settings
    ("random players, 4p Full", ["--lineup", "all-random"]),
    ("heuristic-mix, 4p Full + both modules", ["--lineup", "heuristic-mix", "--shapeshifting", "--omens"]),
)


def _median_games_per_s(args: list[str], pure: bool) -> float:
    env = {k: v for k, v in os.environ.items() if k != "SEPTIMA_PURE"} | ({"SEPTIMA_PURE": "1"} if pure else {})
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, env=env, check=True)
    found = re.search(r"games/s \(CPU\) median\s+([0-9.]+)", out.stdout)
    if found is None:
        raise SystemExit(f"error: no games/s in the benchmark's output: {out.stdout[-300:]}")
    return float(found.group(1))


def compare_pure(games: int | None, runs: int) -> None:
    """Compiled vs pure Python on the same seeds: `runs` alternating runs per side, CPU-time medians, the ratio."""
    if not septima_sim.build_info().compiled:
        raise SystemExit(f"error: the compiled build is not running here: {septima_sim.build_info()}")
    print(f"{septima_sim.build_info()}; load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, args in COMPARE_WORKLOADS:
        count = games or (1000 if "all-random" in args else 300)
        extra = [*args, "--games", str(count), "--runs", "1"]
        sides: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(runs):
            for pure in (False, True):
                sides[pure].append(_median_games_per_s(extra, pure=pure))
        compiled_rate, pure_rate = statistics.median(sides[False]), statistics.median(sides[True])
        print(
            f"{label:40} compiled {compiled_rate:7.1f}  pure {pure_rate:7.1f} games/s (CPU)  "
            f"ratio {compiled_rate / pure_rate:4.2f}x"
        )
        for side, values in (("compiled", sides[False]), ("pure", sides[True])):
            print(f"{'':40} {side} runs: {', '.join(f'{x:.0f}' for x in values)}")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--mode", default="full")
    ap.add_argument("--games", type=int, default=None, help="games per run (default 1000; --compare-pure: 1000/300)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lineup", default="all-random", help="a lineup of content/lineups.toml")
    ap.add_argument("--shapeshifting", action="store_true")
    ap.add_argument("--omens", action="store_true")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--events", action="store_true", help="record every game's events (a list sink)")
    ap.add_argument("--compare-pure", action="store_true", help="compiled/pure ratio of the two standard workloads")
    args = ap.parse_args()
    if args.compare_pure:
        compare_pure(args.games, args.runs)
        return
    args.games = args.games or 1000
    config = GameConfig(args.players, args.mode, args.shapeshifting, args.omens).validate()
    lineup = builtin_lineups()[args.lineup]
    if args.profile:
        from pyinstrument import Profiler

        with Profiler() as prof:
            one_run(config, lineup, args.games, 0, args.events)
        print(prof.output_text(unicode=False, color=False, show_all=False))
        return
    one_run(config, lineup, 20, 0)  # warm-up: content, board tables
    gc.freeze()  # as the runner's workers do: imports, content and tables stay out of every collection
    runs = [one_run(config, lineup, args.games, r * args.games, args.events) for r in range(args.runs)]
    gps = statistics.median(r[0] for r in runs)
    dps = statistics.median(r[1] for r in runs)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    modules = [m for m, on in (("shapeshifting", args.shapeshifting), ("omens", args.omens)) if on]
    print(
        f"{args.players}-player {args.mode}{' + ' + ' + '.join(modules) if modules else ''}, lineup {args.lineup}, "
        f"{args.games} games x {args.runs} runs{', events' if args.events else ''}, one core, "
        f"{septima_sim.build_info()}"
    )
    print(f"games/s (CPU) median {gps:7.1f}  (runs: {', '.join(f'{r[0]:.0f}' for r in runs)})")
    print(f"decisions/s   median {dps:7.0f}")
    print(f"peak RSS             {rss:7.1f} MiB")


if __name__ == "__main__":
    main()
