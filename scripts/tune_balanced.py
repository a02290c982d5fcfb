"""Tune the `balanced` persona's weights by optimisation (optuna CMA-ES) and keep the result if it is better.

Every trial scales each weight of ``[persona.balanced]`` in ``content/personas.toml`` by a factor 2**x (x in
[-SPAN, SPAN]) and sets the recruit/plead biases, then plays the candidate against the current `balanced` in
2-player Full games, each seed in both seatings (common random numbers, the same seeds for every trial);
``--search-seeds`` adds games against ``search:N`` to the objective. The best trial is confirmed on fresh seeds;
with ``--write`` it replaces the balanced weights (personas extending balanced inherit them) only when the 95%
interval of its share against the old balanced lies above 50%.

Usage: ``python scripts/tune_balanced.py --trials 120 --seeds 150 --confirm 1000 --jobs 2 [--write]``
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence
from functools import partial

import optuna
import tomlkit

from septima_sim.engine import GameConfig
from septima_sim.players import HeuristicPolicy, Weights, load_personas, make_policy
from septima_sim.players.duel import DuelResult, parallel_duel
from septima_sim.players.weights import PERSONAS_FILE

SPAN = 1.5
"""Each weight is searched between 2**-SPAN and 2**SPAN times its current value."""
TUNED_BIAS = ("recruit", "plead")
"""The biases searched (absolute values in [0, 3]); the others stay."""
CONFIRM_SEED0 = 50_000_000
"""Confirmation seeds start here (disjoint from the tuning seeds)."""
FLOATS = tuple(f.name for f in dataclasses.fields(Weights) if f.name not in ("bias", "timing"))


def candidate(base: Weights, params: dict[str, float]) -> Weights:
    """The base weights scaled by 2**x per weight, with the tuned biases set."""
    values = {k: round(getattr(base, k) * 2.0 ** params[k], 3) for k in FLOATS}
    bias = {**base.bias, **{a: round(params[f"bias_{a}"], 3) for a in TUNED_BIAS}}
    return dataclasses.replace(base, **values, bias=bias)


def evaluate(
    weights: Weights, base: Weights, seeds: Sequence[int], jobs: int, opponent: str | None = None
) -> DuelResult:
    """The candidate's share against `balanced` (base weights) or against the named opponent."""
    cand = partial(HeuristicPolicy, "balanced", weights)
    other = partial(make_policy, opponent) if opponent else partial(HeuristicPolicy, "balanced", base)
    return parallel_duel(GameConfig(2, "full"), cand, other, seeds, jobs)


def write(weights: Weights, note: str) -> None:
    """Replace the balanced weights in personas.toml (comments and the other personas kept)."""
    doc = tomlkit.parse(PERSONAS_FILE.read_text())
    table = doc["persona"]["balanced"]
    for k in FLOATS:
        table[k] = getattr(weights, k)
    bias = tomlkit.inline_table()
    bias.update({a: v for a, v in weights.bias.items() if v})
    table["bias"] = bias
    table["description"] = f"Plays for Wisdom with no preference; the reference heuristic. {note}"
    PERSONAS_FILE.write_text(tomlkit.dumps(doc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seeds", type=int, default=150, help="seeds per trial (x2 games, both seatings)")
    parser.add_argument("--search", default="search:50", help="the search opponent of --search-seeds")
    parser.add_argument("--search-seeds", type=int, default=0, help="seeds per trial against --search (expensive)")
    parser.add_argument("--confirm", type=int, default=1000, help="fresh seeds to confirm the best trial on")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="keep the result in personas.toml if it is better")
    args = parser.parse_args()
    base = load_personas()["balanced"]
    seeds = list(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.seeds))
    search_seeds = seeds[: args.search_seeds]
    t0, w0 = time.process_time(), time.perf_counter()

    def objective(trial: optuna.Trial) -> float:
        params = {k: trial.suggest_float(k, -SPAN, SPAN) for k in FLOATS}
        params.update({f"bias_{a}": trial.suggest_float(f"bias_{a}", 0.0, 3.0) for a in TUNED_BIAS})
        weights = candidate(base, params)
        score = evaluate(weights, base, seeds, args.jobs).share
        if search_seeds:
            score = (score + evaluate(weights, base, search_seeds, args.jobs, args.search).share) / 2.0
        return score

    x0 = {k: 0.0 for k in FLOATS} | {f"bias_{a}": base.bias.get(a, 0.0) for a in TUNED_BIAS}
    sampler = optuna.samplers.CmaEsSampler(x0=x0, sigma0=0.4, seed=args.seed)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.optimize(objective, n_trials=args.trials)
    best = candidate(base, study.best_params)
    print(f"{args.trials} trials x {2 * args.seeds} games: best trial {study.best_trial.number}, "
          f"objective {study.best_value:.3f}")  # fmt: skip
    fresh = list(range(CONFIRM_SEED0, CONFIRM_SEED0 + args.confirm))
    vs_old = evaluate(best, base, fresh, args.jobs)
    print(f"confirmation, tuned vs old balanced ({vs_old.games} games, fresh seeds): {vs_old.share:.1%} "
          f"[{vs_old.low:.1%}, {vs_old.high:.1%}]")  # fmt: skip
    cpu = time.process_time() - t0
    print(f"time: {time.perf_counter() - w0:.0f} s wall, {cpu:.0f} s CPU in this process (+ {args.jobs} workers)")
    print("tuned weights:", {k: getattr(best, k) for k in FLOATS}, "bias:", best.bias)
    if args.write:
        if vs_old.low > 0.5:
            note = (
                f"Weights tuned by scripts/tune_balanced.py (CMA-ES, {args.trials} trials x {2 * args.seeds} games); "
                f"vs the previous balanced {vs_old.share:.1%} [{vs_old.low:.1%}, {vs_old.high:.1%}] over "
                f"{vs_old.games} 2-player Full games on fresh seeds."
            )
            write(best, note)
            print("written to", PERSONAS_FILE)
        else:
            print("not written: the interval is not above 50%")


if __name__ == "__main__":
    main()
