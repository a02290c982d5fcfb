"""Engine benchmark: games/s and decisions/s of seeded games on one core (median of several runs).

    python scripts/bench.py                      # 4-player Full, random players
    python scripts/bench.py --players 3 --mode basic --games 500 --runs 7
    python scripts/bench.py --lineup heuristic-mix --shapeshifting --omens --games 200
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
from septima_sim.players import builtin_lineups, make_policy


def one_run(config: GameConfig, lineup: list[str], games: int, first_seed: int) -> tuple[float, float]:
    """Play `games` seeded games (lineup rotated over the seats); returns (games/s, decisions/s) of this process's
    CPU time, which other load on the machine barely disturbs (wall time would)."""
    content = load_content()
    decisions = 0
    k = len(lineup)
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        policies = [make_policy(lineup[(s + seed) % k]) for s in range(config.players)]
        result = play_game(config, content, policies, seed)
        decisions += result.game["decisions"]  # type: ignore[operator]
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--mode", default="full")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--lineup", default="all-random", help="a lineup of content/lineups.toml")
    ap.add_argument("--shapeshifting", action="store_true")
    ap.add_argument("--omens", action="store_true")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    config = GameConfig(args.players, args.mode, args.shapeshifting, args.omens).validate()
    lineup = builtin_lineups()[args.lineup]
    if args.profile:
        from pyinstrument import Profiler

        with Profiler() as prof:
            one_run(config, lineup, args.games, 0)
        print(prof.output_text(unicode=False, color=False, show_all=False))
        return
    one_run(config, lineup, 20, 0)  # warm-up: content, board tables
    runs = [one_run(config, lineup, args.games, r * args.games) for r in range(args.runs)]
    gps = statistics.median(r[0] for r in runs)
    dps = statistics.median(r[1] for r in runs)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    modules = [m for m, on in (("shapeshifting", args.shapeshifting), ("omens", args.omens)) if on]
    print(
        f"{args.players}-player {args.mode}{' + ' + ' + '.join(modules) if modules else ''}, lineup {args.lineup}, "
        f"{args.games} games x {args.runs} runs, one core"
    )
    print(f"games/s (CPU) median {gps:7.1f}  (runs: {', '.join(f'{r[0]:.0f}' for r in runs)})")
    print(f"decisions/s   median {dps:7.0f}")
    print(f"peak RSS             {rss:7.1f} MiB")


if __name__ == "__main__":
    main()
