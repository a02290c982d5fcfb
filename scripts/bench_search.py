"""Where a ``search:N`` seat spends its budget: simulations and CPU per decision kind (issue #28's budget split).

    python scripts/bench_search.py                     # search:10 vs balanced, 2-player Full, 4 games
    python scripts/bench_search.py --budget 50 --games 8 --players 4 --shapeshifting --omens

Seat 0 is ``search:N``, the others ``balanced``; seeds 0..games-1. Prints, per decision kind the search seat was
asked: how many times, how many of them it searched (one simulation or more), its simulations and its CPU time
(``time.process_time`` around each answer), then the CPU per game. One process, one core; numbers, not assertions.
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import PlayerView
from septima_sim.players import make_policy, outcome
from septima_sim.players import search as search_module
from septima_sim.players.search import SearchPolicy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=int, default=10, help="N of search:N")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--mode", default="full")
    ap.add_argument("--shapeshifting", action="store_true")
    ap.add_argument("--omens", action="store_true")
    args = ap.parse_args()
    content = load_content()
    config = GameConfig(args.players, args.mode, shapeshifting=args.shapeshifting, omens=args.omens)
    asked: collections.Counter[str] = collections.Counter()
    searched: collections.Counter[str] = collections.Counter()
    sims: collections.Counter[str] = collections.Counter()
    cpu: dict[str, float] = collections.defaultdict(float)
    current = [""]
    count = [0]
    value = outcome.seat_value
    choose = SearchPolicy.choose

    def counted(result: Any, seat: int) -> float:
        count[0] += 1
        return value(result, seat)

    def timed(self: SearchPolicy, decision: Decision, view: PlayerView) -> int:
        current[0], before, start = decision.kind, count[0], time.process_time()
        try:
            return choose(self, decision, view)
        finally:
            kind = decision.kind
            asked[kind] += 1
            cpu[kind] += time.process_time() - start
            spent = count[0] - before
            sims[kind] += spent
            searched[kind] += spent > 0

    setattr(search_module, "seat_value", counted)  # noqa: B010  (the name the search player calls)
    SearchPolicy.choose = timed  # type: ignore[method-assign]
    start = time.process_time()
    for seed in range(args.games):
        policies = [make_policy(f"search:{args.budget}"), *(make_policy("balanced") for _ in range(args.players - 1))]
        play_game(config, content, policies, seed)
    total = time.process_time() - start
    seat = sum(cpu.values())
    print(f"search:{args.budget} vs balanced, {args.players} players, {args.mode}, {args.games} games")
    print(f"{'kind':<16}{'asked':>8}{'searched':>10}{'sims':>8}{'sims %':>8}{'CPU s':>8}{'CPU %':>7}")
    for kind in sorted(asked, key=lambda k: -cpu[k]):
        share = 100 * sims[kind] / max(1, sum(sims.values()))
        print(
            f"{kind:<16}{asked[kind]:>8}{searched[kind]:>10}{sims[kind]:>8}{share:>7.1f}%"
            f"{cpu[kind]:>8.2f}{100 * cpu[kind] / max(seat, 1e-9):>6.1f}%"
        )
    print(f"CPU per game: {total / args.games:.2f} s (the search seat's decisions {seat / args.games:.2f} s)")


if __name__ == "__main__":
    main()
