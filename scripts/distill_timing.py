"""Distil search's card timing into the `balanced` persona: the ``timing`` table of ``content/personas.toml``.

Why: balanced values a card by what it does now, so it plays a card whose worth does not depend on the turn (Plead's
2 Wisdom) as early as any other, where a searcher keeps it and plays first what is worth most early (Collect,
Recruit) or only late (Brew on the last turn of a season). ``search:N`` (built on the current balanced: its rollouts
and fallback) plays 2-player Full games against balanced; at each of its card choices the script records the mean
simulated value of every card next to balanced's own value of it. A within-decision ridge least-squares fit

    q[d, i] = a * h[d, i] + b[card_i, turn_d] + c[d] + noise

(h balanced's value in Wisdom units, q search's mean value, c[d] one constant per decision) gives, in Wisdom units,
what balanced should add to a card at each turn of a season to choose as search does: b / a. The round's candidate
is the current table plus that correction. It is checked on fresh seeds against ``search:--check-budget`` built on
the candidate itself (the way the shipped search is built) next to the current balanced against the search built on
it, on the same seeds; with ``--write`` it replaces balanced's ``timing`` only if it scores higher.

Usage: ``python scripts/distill_timing.py --budget 200 --seeds 150 --ridge 10 --check 200 --jobs 2 [--write]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from functools import partial

import tomlkit
from joblib import Parallel, delayed

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.view import PlayerView
from septima_sim.players import HeuristicPolicy, Weights, load_personas
from septima_sim.players.duel import DuelResult, parallel_duel
from septima_sim.players.registry import SEARCH_HORIZON
from septima_sim.players.search import SearchPolicy
from septima_sim.players.timing_fit import Row, fit, with_correction
from septima_sim.players.weights import PERSONAS_FILE

CHECK_SEED0 = 60_000_000
"""Check seeds start here (disjoint from the collection seeds)."""


def searcher(weights: Weights, budget: int, fallback: HeuristicPolicy | None = None) -> SearchPolicy:
    """``search:budget`` built on a balanced with these weights (fallback and rollouts), as the registry builds it."""
    own = fallback or HeuristicPolicy("balanced", weights)
    return SearchPolicy(budget, own, partial(HeuristicPolicy, "balanced", weights), SEARCH_HORIZON)


def collect(weights: Weights, budget: int, seeds: Sequence[int], modules: bool) -> list[Row]:
    """Every card choice of the searching seat in 2-player Full games against balanced, both seatings per seed."""
    content = load_content()
    config = GameConfig(2, "full", shapeshifting=modules, omens=modules)
    rows: list[Row] = []
    for seed in seeds:
        for seat in (0, 1):
            own = HeuristicPolicy("balanced", weights)  # the search's fallback: its values are balanced's
            search = searcher(weights, budget, own)

            def trace(decision: Decision, view: PlayerView, q: list[float], h: HeuristicPolicy = own) -> None:
                values = h.values(decision, view)
                assert values is not None, "balanced values every card choice"
                rows.append((tuple(decision.options), values, q, view.turn))

            search.trace = trace
            seats: list[Policy] = [search, HeuristicPolicy("balanced", weights)]
            play_game(config, content, seats if seat == 0 else seats[::-1], seed)
    return rows


def check(weights: Weights, budget: int, seeds: Sequence[int], jobs: int) -> DuelResult:
    """Balanced with these weights against the search built on them (2-player Full, both seatings per seed)."""
    me = partial(HeuristicPolicy, "balanced", weights)
    return parallel_duel(GameConfig(2, "full"), me, partial(searcher, weights, budget), seeds, jobs)


def write(weights: Weights, note: str) -> None:
    """Replace balanced's timing table in personas.toml (comments and the other personas kept)."""
    doc = tomlkit.parse(PERSONAS_FILE.read_text())
    table = doc["persona"]["balanced"]
    timing = tomlkit.table()
    for action, row in weights.timing.items():
        timing[action] = tomlkit.array(str(list(row)))
    timing.comment(note)
    table["timing"] = timing
    PERSONAS_FILE.write_text(tomlkit.dumps(doc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", type=int, default=200, help="simulations per card choice of the recorded search")
    parser.add_argument("--seeds", type=int, default=150, help="seeds to record (x2 games, both seatings)")
    parser.add_argument("--modules-seeds", type=int, default=0, help="more seeds with Shapeshifting and Omens")
    parser.add_argument("--ridge", type=float, default=10.0, help="ridge penalty on the card x turn terms")
    parser.add_argument("--check", type=int, default=100, help="fresh seeds of the check (x2 games)")
    parser.add_argument("--check-budget", type=int, default=50, help="the search budget of the check")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="keep the candidate in personas.toml if it scores higher")
    args = parser.parse_args()
    base = load_personas()["balanced"]
    w0 = time.perf_counter()
    seeds = list(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.seeds))
    more = list(range(args.seed * 1_000_000 + 500_000, args.seed * 1_000_000 + 500_000 + args.modules_seeds))
    jobs = [delayed(collect)(base, args.budget, seeds[i :: args.jobs], False) for i in range(args.jobs)]
    jobs += [delayed(collect)(base, args.budget, more[i :: args.jobs], True) for i in range(args.jobs) if more]
    rows = [r for part in Parallel(n_jobs=args.jobs)(jobs) for r in part]
    content = load_content()
    ids = [action.id for action in content.actions]
    a, correction = fit(rows, args.ridge, len(ids), content.rules.turns_per_season)
    print(f"{len(rows)} card choices of search:{args.budget} recorded ({time.perf_counter() - w0:.0f} s); "
          f"search's value per Wisdom of balanced's: a = {a:.4f}")  # fmt: skip
    print("correction (Wisdom added per turn of the season):")
    for i, action in enumerate(ids):
        print(f"  {action:10s}", " ".join(f"{x:+6.2f}" for x in correction[i]))
    candidate = with_correction(base, correction, ids)
    fresh = list(range(CHECK_SEED0 + args.seed * 10_000, CHECK_SEED0 + args.seed * 10_000 + args.check))
    old = check(base, args.check_budget, fresh, args.jobs)
    new = check(candidate, args.check_budget, fresh, args.jobs)
    print(f"check ({old.games} games, fresh seeds, each against search:{args.check_budget} built on itself): "
          f"current {old.share:.1%} [{old.low:.1%}, {old.high:.1%}], candidate {new.share:.1%} "
          f"[{new.low:.1%}, {new.high:.1%}]; {time.perf_counter() - w0:.0f} s wall")  # fmt: skip
    print("candidate timing:", {k: list(v) for k, v in candidate.timing.items()})
    if args.write:
        if new.share > old.share:
            note = (
                f"distilled from search:{args.budget} by scripts/distill_timing.py ({len(rows)} card choices); "
                f"vs search:{args.check_budget} on itself {old.share:.1%} -> {new.share:.1%} ({new.games} games)"
            )
            write(candidate, note)
            print("written to", PERSONAS_FILE)
        else:
            print("not written: the candidate does not score higher")


if __name__ == "__main__":
    main()
