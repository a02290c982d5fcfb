"""Tune the `ismcts` player's parameters (exploration, rollout depth, prior weight and temperature, the margin that
decides which decisions are searched, the value scale) with optuna TPE against an opponent (default `search:50`),
and keep them in ``content/ismcts.toml`` with their provenance.

Every trial plays ``ismcts:N`` with the trial's parameters against ``--opponent`` in 2-player Full games, each seed
in both seatings (the same seeds for every trial). The best trial and the current parameters are then both played on
fresh seeds; with ``--write`` the best replaces the current ones when it scores at least as well there.

Usage: ``python scripts/tune_ismcts.py --iterations 50 --opponent search:50 --trials 12 --seeds 25 --confirm 50
--jobs 2 [--write]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial

import optuna
import tomlkit

from septima_sim.engine import GameConfig
from septima_sim.players import make_policy
from septima_sim.players.duel import DuelResult, parallel_duel
from septima_sim.players.ismcts import PARAMS_FILE, IsmctsParams, IsmctsPolicy, load_params
from septima_sim.players.registry import balanced_heuristic

CONFIRM_SEED0 = 60_000_000
"""Confirmation seeds start here (disjoint from the tuning seeds)."""


def evaluate(params: IsmctsParams, iterations: int, opponent: str, seeds: Sequence[int], jobs: int) -> DuelResult:
    """ismcts with `params` against the opponent."""
    player = partial(IsmctsPolicy, f"ismcts:{iterations}", iterations, 0, params, balanced_heuristic)
    return parallel_duel(GameConfig(2, "full"), player, partial(make_policy, opponent), seeds, jobs)


def write(params: IsmctsParams, source: str) -> None:
    """The parameters and their provenance into content/ismcts.toml (comments kept)."""
    doc = tomlkit.parse(PARAMS_FILE.read_text())
    for key, value in params.model_dump().items():
        doc["ismcts"][key] = round(value, 3) if isinstance(value, float) else value
    doc["provenance"]["source"] = source
    PARAMS_FILE.write_text(tomlkit.dumps(doc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=50, help="ismcts iterations per card choice while tuning")
    parser.add_argument("--opponent", default="search:50", help="the persona ismcts plays against")
    parser.add_argument("--trials", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=10, help="seeds per trial (x2 games, both seatings)")
    parser.add_argument("--confirm", type=int, default=30, help="fresh seeds for best vs current parameters")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="keep the best parameters if they do at least as well")
    args = parser.parse_args()
    seeds = list(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.seeds))
    w0 = time.perf_counter()

    def objective(trial: optuna.Trial) -> float:
        params = IsmctsParams(
            exploration=trial.suggest_float("exploration", 0.05, 3.0, log=True),
            rollout_seasons=trial.suggest_int("rollout_seasons", 0, 1),
            prior_weight=trial.suggest_float("prior_weight", 0.0, 5.0),
            prior_temperature=trial.suggest_float("prior_temperature", 0.3, 10.0, log=True),
            margin=trial.suggest_float("margin", 0.0, 3.0),
            other_share=trial.suggest_float("other_share", 0.0, 0.5),
            reuse_visits=trial.suggest_int("reuse_visits", 0, 20),
            value_scale=trial.suggest_float("value_scale", 0.0, 30.0),
        )
        return evaluate(params, args.iterations, args.opponent, seeds, args.jobs).share

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.seed))
    current = load_params()
    study.enqueue_trial(current.model_dump())
    study.optimize(objective, n_trials=args.trials)
    best = IsmctsParams(**study.best_params)
    fresh = list(range(CONFIRM_SEED0, CONFIRM_SEED0 + args.confirm))
    new = evaluate(best, args.iterations, args.opponent, fresh, args.jobs)
    old = evaluate(current, args.iterations, args.opponent, fresh, args.jobs)
    print(f"{args.trials} trials x {2 * args.seeds} games of ismcts:{args.iterations} vs {args.opponent}: best {best}")
    for label, r in (("best", new), ("current", old)):
        print(f"  {label:<8} on fresh seeds ({r.games} games): {r.share:.1%} [{r.low:.1%}, {r.high:.1%}]")
    print(f"time: {time.perf_counter() - w0:.0f} s wall with {args.jobs} workers")
    if args.write and new.share >= old.share:
        day = datetime.now(UTC).date().isoformat()
        write(
            best,
            f"scripts/tune_ismcts.py on {day}: TPE, {args.trials} trials x {2 * args.seeds} 2-player Full games of "
            f"ismcts:{args.iterations} vs {args.opponent}; on {new.games} fresh games {new.share:.1%} "
            f"[{new.low:.1%}, {new.high:.1%}] vs {old.share:.1%} for the previous values",
        )
        print("written to", PARAMS_FILE)
    elif args.write:
        print("not written: the previous parameters did better on fresh seeds")


if __name__ == "__main__":
    main()
