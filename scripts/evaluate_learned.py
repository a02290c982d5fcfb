"""Evidence for the learned player (issue 33): ``learned`` against balanced, 2-player Full games with both modules,
each seed in both seatings, with the CPU per game of each side.

The learned seat's CPU per game is the CPU of a learned-vs-balanced game minus half the CPU of a balanced-vs-balanced
game on the same seed (balanced's own seat), so the rollouts it runs inside its look-ahead count as its own. Prints a
plain-text report; it is not a test. Usage: ``python scripts/evaluate_learned.py [--seeds N] [--seed0 S]
[--candidates C] [--lead L] [--model FILE] [--evaluator model|heuristic]``.
"""

from __future__ import annotations

import argparse
import os
import time

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Policy
from septima_sim.learn.features import NAMES
from septima_sim.learn.model import Array, ValueModel
from septima_sim.players import learned, make_policy
from septima_sim.players.duel import summarize


class _Column:
    """A stand-in model whose value is one feature column (``--evaluator heuristic``)."""

    def __init__(self, model: ValueModel, column: int) -> None:
        self.pack_hash = model.pack_hash
        self.column = column

    def predict(self, x: Array) -> Array:
        return x[:, self.column]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=100, help="seeds, each played in both seatings")
    parser.add_argument("--seed0", type=int, default=33_000, help="first seed (fresh: not the training seeds)")
    parser.add_argument("--candidates", type=int, default=learned.CANDIDATES, help="cards looked ahead")
    parser.add_argument("--lead", type=float, default=learned.CLEAR_LEAD, help="heuristic lead that skips it")
    parser.add_argument("--model", help="model file (default: the shipped one)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--evaluator", choices=("model", "heuristic"), default="model", help="heuristic: state_value instead"
    )
    args = parser.parse_args()
    if args.model:
        os.environ[learned.MODEL_ENV] = args.model
    if args.evaluator == "heuristic":  # the same look-ahead scored by the heuristic's state_value (greedy's score)
        model = learned.default_model()
        column = NAMES.index("heuristic_value")
        learned.default_model = lambda: _Column(model, column)  # type: ignore[assignment,return-value]
    learned.CANDIDATES, learned.CLEAR_LEAD = args.candidates, args.lead
    content = load_content()
    config = GameConfig(args.players, "full", modules=frozenset({"shapeshifting", "omens"}))
    n = args.players

    def game(names: list[str], seed: int) -> tuple[float, list[int]]:
        policies: list[Policy] = [make_policy(name) for name in names]
        t0 = time.process_time()
        winners = play_game(config, content, policies, seed).winners
        return time.process_time() - t0, winners

    shares: list[float] = []
    cpu_learned = cpu_balanced = 0.0
    for seed in range(args.seed0, args.seed0 + args.seeds):
        base, _ = game(["balanced"] * n, seed)
        per_seed = 0.0
        for seat in (0, n - 1):
            names = ["balanced"] * n
            names[seat] = "learned"
            cpu, winners = game(names, seed)
            per_seed += (1.0 / len(winners) if seat in winners else 0.0) / 2
            cpu_learned += cpu - base * (n - 1) / n
        cpu_balanced += base / n
        shares.append(per_seed)
    r = summarize(shares)
    games = 2 * args.seeds
    per_learned, per_balanced = cpu_learned / games, cpu_balanced / args.seeds
    print(f"## learned vs balanced ({n} players, Full, both modules, seeds {args.seed0}..{args.seed0 + args.seeds - 1}")
    print(
        f"   in both seatings: {games} games; candidates {args.candidates}, clear lead {args.lead}, "
        f"evaluator {args.evaluator})"
    )
    target = "target: at least 60%" if n == 2 else f"fair share {1 / n:.0%}: one learned seat among balanced ones"
    print(f"  learned win share {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] ({target})")
    print(
        f"  CPU per game: learned {1000 * per_learned:.1f} ms, balanced {1000 * per_balanced:.1f} ms "
        f"({per_learned / per_balanced:.1f}x; target: at most 3x)"
    )


if __name__ == "__main__":
    main()
