"""Engine benchmark: games/s and decisions/s of seeded games on one core (median of several runs).

    python scripts/bench.py                      # 4-player Full, random players
    python scripts/bench.py --players 3 --mode basic --games 500 --runs 7
    python scripts/bench.py --profile            # pyinstrument profile of one run

Prints games/s, decisions/s and the peak RSS of this process. Numbers, not assertions: speed is never a test.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import RandomPolicy


def one_run(config: GameConfig, games: int, first_seed: int) -> tuple[float, float]:
    content = load_content()
    decisions = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        result = play_game(config, content, [RandomPolicy() for _ in range(config.players)], seed)
        decisions += result.game["decisions"]  # type: ignore[operator]
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--mode", default="full")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    config = GameConfig(args.players, args.mode).validate()
    if args.profile:
        from pyinstrument import Profiler

        with Profiler() as prof:
            one_run(config, args.games, 0)
        print(prof.output_text(unicode=False, color=False, show_all=False))
        return
    one_run(config, 20, 0)  # warm-up: content, board tables
    runs = [one_run(config, args.games, r * args.games) for r in range(args.runs)]
    gps = statistics.median(r[0] for r in runs)
    dps = statistics.median(r[1] for r in runs)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.players}-player {args.mode}, random players, {args.games} games x {args.runs} runs, one core")
    print(f"games/s      median {gps:8.1f}  (runs: {', '.join(f'{r[0]:.0f}' for r in runs)})")
    print(f"decisions/s  median {dps:8.0f}")
    print(f"peak RSS     {rss:8.1f} MiB")


if __name__ == "__main__":
    main()
