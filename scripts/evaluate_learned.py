"""Evidence for the learned player (issue 33): ``learned`` against balanced, 2-player Full games with both modules,
each seed in both seatings, with the CPU per game of each side.

The learned seat's CPU per game is the CPU of a learned-vs-balanced game minus half the CPU of a balanced-vs-balanced
game on the same seed (balanced's own seat), so the rollouts it runs inside its look-ahead count as its own. Prints a
plain-text report; it is not a test. Usage: ``python scripts/evaluate_learned.py [--seeds N] [--seed0 S]
[--players P] [--player NAME] [--candidates C] [--lead L] [--confident X] [--prior W] [--model FILE] [--chooser FILE]
[--evaluator model|heuristic] [--versus A B] [--plausible X] [--uniform] [--card-share S] [--other-share S]
[--close-call M]``. ``--versus A B`` plays A against B head to head (at 4 players two seats each) with each side's CPU
timed on its own decisions.
"""

from __future__ import annotations

import argparse
import os
import time

from septima_sim.content import Content, load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.view import PlayerView
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


def head_to_head(content: Content, config: GameConfig, a: str, b: str, seeds: range) -> None:
    """``a`` against ``b``, each seed in both seatings (at 4 players A B A B and B A B A: each side holds two seats),
    with each side's win share (the share of wins its seats took) and CPU per game: the CPU inside each seat's
    ``choose`` (its rollouts included), timed on the instance."""
    spent = {a: 0.0, b: 0.0}
    n = config.players

    def timed(policy: Policy) -> Policy:
        original = policy.choose

        def choose(decision: Decision, view: PlayerView) -> int:
            t0 = time.process_time()
            i = original(decision, view)
            spent[policy.name] += time.process_time() - t0
            return i

        policy.choose = choose  # type: ignore[method-assign]
        return policy

    shares = []
    for seed in seeds:
        share = 0.0
        for first, second in ((a, b), (b, a)):
            names = [first if s % 2 == 0 else second for s in range(n)]
            winners = play_game(config, content, [timed(make_policy(name)) for name in names], seed).winners
            share += sum(1.0 / len(winners) for s in winners if names[s] == a) / 2
        shares.append(share)
    r = summarize(shares)
    games = 2 * len(seeds)
    print(f"## {a} vs {b} ({n} players, Full, both modules, seeds {seeds.start}..{seeds.stop - 1} in both seatings)")
    print(f"  {a} win share {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] over {games} games (fair: 50%)")
    print(
        f"  CPU per game: {a} {spent[a] / games:.3f} s, {b} {spent[b] / games:.3f} s "
        f"({spent[a] / spent[b]:.2f} of {b}'s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=100, help="seeds, each played in both seatings")
    parser.add_argument("--seed0", type=int, default=33_000, help="first seed (fresh: not the training seeds)")
    parser.add_argument("--candidates", type=int, default=learned.CANDIDATES, help="cards looked ahead")
    parser.add_argument("--lead", type=float, default=learned.CLEAR_LEAD, help="heuristic lead that skips it")
    parser.add_argument(
        "--confident", type=float, default=learned.CONFIDENT, help="chooser value that skips it (inf: never)"
    )
    parser.add_argument("--prior", type=float, default=learned.PRIOR, help="weight of the chooser's value beside it")
    parser.add_argument("--model", help="model file (default: the shipped one)")
    parser.add_argument("--chooser", help="chooser file (default: the shipped one)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--plausible", type=float, default=learned.PLAUSIBLE, help="vsearch: heuristic gap of the cards looked at"
    )
    parser.add_argument(
        "--uniform", action="store_true", help="vsearch: the same look-aheads on every card (no sequential halving)"
    )
    parser.add_argument("--card-share", type=float, default=learned.CARD_SHARE, help="vsearch: budget share at cards")
    close_help = "vsearch: heuristic gap of a close call (0: none searched)"
    parser.add_argument("--close-call", type=float, default=learned.CLOSE_CALL, help=close_help)
    other_help = "vsearch: budget share at the draft, the spells taken and the close calls"
    parser.add_argument("--other-share", type=float, default=learned.OTHER_SHARE, help=other_help)
    parser.add_argument(
        "--evaluator", choices=("model", "heuristic"), default="model", help="heuristic: state_value instead"
    )
    parser.add_argument("--player", default="learned", help="the player set against balanced (e.g. vsearch:20)")
    parser.add_argument("--versus", nargs=2, metavar=("A", "B"), help="A against B instead (e.g. vsearch:50 ismcts:50)")
    args = parser.parse_args()
    if args.model:
        os.environ[learned.MODEL_ENV] = args.model
    if args.chooser:
        os.environ[learned.CHOOSER_ENV] = args.chooser
    if args.evaluator == "heuristic":  # the same look-ahead scored by the heuristic's state_value (greedy's score)
        model = learned.default_model()
        column = NAMES.index("heuristic_value")
        learned.default_model = lambda: _Column(model, column)  # type: ignore[assignment,return-value]
    learned.CANDIDATES, learned.CLEAR_LEAD = args.candidates, args.lead
    learned.CONFIDENT, learned.PRIOR = args.confident, args.prior
    learned.HALVING, learned.PLAUSIBLE = not args.uniform, args.plausible
    learned.OTHER_SHARE, learned.CLOSE_CALL = args.other_share, args.close_call
    learned.CARD_SHARE = args.card_share
    content = load_content()
    config = GameConfig(args.players, "full", modules=frozenset({"shapeshifting", "omens"}))
    n = args.players
    if args.versus:
        head_to_head(content, config, args.versus[0], args.versus[1], range(args.seed0, args.seed0 + args.seeds))
        return

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
            names[seat] = args.player
            cpu, winners = game(names, seed)
            per_seed += (1.0 / len(winners) if seat in winners else 0.0) / 2
            cpu_learned += cpu - base * (n - 1) / n
        cpu_balanced += base / n
        shares.append(per_seed)
    r = summarize(shares)
    games = 2 * args.seeds
    per_learned, per_balanced = cpu_learned / games, cpu_balanced / args.seeds
    print(
        f"## {args.player} vs balanced ({n} players, Full, both modules, seeds {args.seed0}.."
        f"{args.seed0 + args.seeds - 1}"
    )
    print(
        f"   in both seatings: {games} games; candidates {args.candidates}, clear lead {args.lead}, confident "
        f"{args.confident}, prior {args.prior}, evaluator {args.evaluator})"
    )
    target = "target: at least 60%" if n == 2 else f"fair share {1 / n:.0%}: one learned seat among balanced ones"
    print(f"  {args.player} win share {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] ({target})")
    print(
        f"  CPU per game: {args.player} {1000 * per_learned:.1f} ms, balanced {1000 * per_balanced:.1f} ms "
        f"({per_learned / per_balanced:.1f}x; target: at most 3x)"
    )


if __name__ == "__main__":
    main()
