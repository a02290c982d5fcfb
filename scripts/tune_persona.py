"""Tune a persona that ``extends`` balanced (optuna CMA-ES) so that it competes, and keep it only if its style holds.

Only the weights and biases the persona's own table in ``content/personas.toml`` sets are searched, each scaled by
2**x (x in [-SPAN, SPAN]) around its current value. Every trial plays the candidate in one seat against three
`balanced` in 4-player Full games (seat rotated by the seed, the same seeds for every trial; fair share 25%, ties
split). The best trial is confirmed on fresh seeds, where its style is tested too: chi-square of the persona's
played-card mix against the three balanced seats' mix in the same games. With ``--write`` its table is updated only
when the confirmed share is at least ``--target`` and the style is still significant (p < 0.05).

Usage: ``python scripts/tune_persona.py cautious --trials 30 --seeds 300 --confirm 1000 --jobs 1 [--write]``
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import tomllib
import warnings
from collections.abc import Sequence

import optuna
import tomlkit
from joblib import Parallel, delayed
from scipy.stats import chi2_contingency

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.results import row_int
from septima_sim.players import HeuristicPolicy, Weights, load_personas, make_policy
from septima_sim.players.duel import summarize
from septima_sim.players.weights import PERSONAS_FILE

SPAN = 1.0
"""Each of the persona's own weights is searched between 2**-SPAN and 2**SPAN times its current value."""
CONFIRM_SEED0 = 70_000_000
"""Confirmation seeds start here (disjoint from the tuning seeds)."""
STYLE_P = 0.05
"""The persona's card mix must still differ from balanced's at this level."""

Game = tuple[float, list[int], list[int]]
"""One game: the persona's share of the win, its played cards and the three balanced seats' played cards."""


def own_keys(name: str) -> tuple[list[str], list[str]]:
    """The weights and the bias actions the persona's own table sets."""
    with PERSONAS_FILE.open("rb") as f:
        table = tomllib.load(f)["persona"][name]
    weights = [k for k in table if k not in ("description", "extends", "bias", "timing")]
    return weights, list(table.get("bias", {}))


def candidate(base: Weights, params: dict[str, float]) -> Weights:
    """The persona's weights with each searched one scaled by 2**x."""
    values = {k: round(getattr(base, k) * 2.0**x, 3) for k, x in params.items() if not k.startswith("bias_")}
    bias = {**base.bias} | {
        k[5:]: round(base.bias[k[5:]] * 2.0**x, 3) for k, x in params.items() if k.startswith("bias_")
    }
    return dataclasses.replace(base, **values, bias=bias)


def chunk(name: str, weights: Weights, seeds: Sequence[int]) -> list[Game]:
    """The candidate in seat ``seed % 4`` against three balanced, one game per seed."""
    content = load_content()
    config = GameConfig(4, "full")
    cards = [a.id for a in content.actions]
    games = []
    for seed in seeds:
        seat = seed % 4
        policies = [make_policy("balanced") for _ in range(4)]
        policies[seat] = HeuristicPolicy(name, weights)
        result = play_game(config, content, policies, seed)
        winners = result.winners
        rows = result.players
        mine = [row_int(rows[seat], f"played_{c}", 0) for c in cards]
        theirs = [sum(row_int(r, f"played_{c}", 0) for r in rows if r["seat"] != seat) for c in cards]
        games.append((1.0 / len(winners) if seat in winners else 0.0, mine, theirs))
    return games


def play(name: str, weights: Weights, seeds: Sequence[int], jobs: int) -> list[Game]:
    parts = Parallel(n_jobs=jobs)(delayed(chunk)(name, weights, list(seeds[i::jobs])) for i in range(jobs))
    return [g for part in parts for g in part]


def style_p(games: Sequence[Game]) -> float:
    """p-value of the chi-square test: the persona's card mix against the balanced seats' mix."""
    mine = [sum(g[1][i] for g in games) for i in range(len(games[0][1]))]
    theirs = [sum(g[2][i] for g in games) for i in range(len(games[0][2]))]
    used = [i for i in range(len(mine)) if mine[i] or theirs[i]]
    return float(chi2_contingency([[mine[i] for i in used], [theirs[i] for i in used]])[1])


def write(name: str, weights: Weights, keys: Sequence[str], bias: Sequence[str], note: str) -> None:
    """The persona's own weights into personas.toml (comments and the other personas kept)."""
    doc = tomlkit.parse(PERSONAS_FILE.read_text())
    table = doc["persona"][name]
    for k in keys:
        table[k] = getattr(weights, k)
    for a in bias:
        table["bias"][a] = weights.bias[a]
    table["description"] = f"{str(table['description']).split(' Tuned by')[0]} {note}"
    PERSONAS_FILE.write_text(tomlkit.dumps(doc))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("persona", help="a persona of content/personas.toml that extends balanced")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seeds", type=int, default=300, help="4-player games per trial")
    parser.add_argument("--confirm", type=int, default=1000, help="fresh 4-player games to confirm the best on")
    parser.add_argument("--target", type=float, default=0.20, help="share vs three balanced needed to write")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="keep the result if it reaches --target with its style")
    args = parser.parse_args()
    personas = load_personas()
    if args.persona not in personas or args.persona == "balanced":
        parser.error(f"--persona must name a persona other than balanced, got {args.persona!r}")
    base = personas[args.persona]
    keys, bias = own_keys(args.persona)
    bias = [a for a in bias if base.bias.get(a)]  # a zero bias stays zero (scaling cannot move it)
    seeds = list(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.seeds))
    t0, w0 = time.process_time(), time.perf_counter()

    def objective(trial: optuna.Trial) -> float:
        params = {k: trial.suggest_float(k, -SPAN, SPAN) for k in keys}
        params |= {f"bias_{a}": trial.suggest_float(f"bias_{a}", -SPAN, SPAN) for a in bias}
        return summarize([g[0] for g in play(args.persona, candidate(base, params), seeds, args.jobs)]).share

    x0 = {k: 0.0 for k in keys} | {f"bias_{a}": 0.0 for a in bias}
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=FutureWarning, module="optuna")  # x0/sigma0 spelling in optuna 4.9
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.CmaEsSampler(x0=x0, sigma0=0.4, seed=args.seed)
    )
    study.enqueue_trial(x0)  # the current weights are trial 0
    study.optimize(objective, n_trials=args.trials)
    best = candidate(base, study.best_params)
    print(f"{args.persona}: {args.trials} trials x {args.seeds} 4-player games vs three balanced; current "
          f"{study.trials[0].value:.1%}, best trial {study.best_trial.number} {study.best_value:.1%}")  # fmt: skip
    fresh = list(range(CONFIRM_SEED0, CONFIRM_SEED0 + args.confirm))
    confirmed = {}
    for label, weights in (("current", base), ("best", best)):
        games = play(args.persona, weights, fresh, args.jobs)
        r, p = summarize([g[0] for g in games]), style_p(games)
        confirmed[label] = (r, p)
        print(f"  {label:<8} on {r.games // 2} fresh games: {r.share:.1%} [{r.low:.1%}, {r.high:.1%}], "
              f"card mix vs balanced chi-square p = {p:.2g}")  # fmt: skip
    print("  weights:", {k: getattr(best, k) for k in keys}, "bias:", {a: best.bias[a] for a in bias})
    cpu = time.process_time() - t0
    print(f"time: {time.perf_counter() - w0:.0f} s wall, {cpu:.0f} s CPU in this process (+ {args.jobs} workers)")
    r, p = confirmed["best"]
    if args.write:
        if r.share >= args.target and p < STYLE_P:
            note = (
                f"Tuned by scripts/tune_persona.py (CMA-ES, {args.trials} trials x {args.seeds} games): vs three "
                f"balanced {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] over {r.games // 2} 4-player Full games, card "
                f"mix vs balanced p = {p:.2g}."
            )
            write(args.persona, best, keys, bias, note)
            print("written to", PERSONAS_FILE)
        else:
            print(f"not written: share below {args.target:.0%} or style no longer significant")


if __name__ == "__main__":
    main()
