"""Balance effect of a rules change: the same seeded games played by two versions of the engine (or two content
readings), side by side.

    python scripts/rule_effects.py --old HEAD~1                       # the last commit's effect, 180 games
    python scripts/rule_effects.py --old main --new HEAD --omens      # two revisions, Omens on (random decks)
    python scripts/rule_effects.py --old-override readings.hunter_direction.value=clockwise
    python scripts/rule_effects.py --old HEAD~1 --omens --omen-card golden-cauldron --half bright
    python scripts/rule_effects.py --old HEAD~1 --count 'omen:golden-cauldron'   # how often a cause acts

Each side plays games for every (player count, lineup, seed): by default 2-4 players x all-random, all-balanced,
heuristic-mix x seeds 1-20 = 180 games. ``--old`` / ``--new`` name git revisions (extracted with ``git archive`` into
a temporary folder, so the repository is not touched) or, for ``--new`` by default, this working tree; each side runs
in its own Python process with that tree first on ``PYTHONPATH``. ``--omen-card`` puts one Omen card in the deck at
the season given by the game index (Winter, Spring, Summer in turn) with two fixed filler cards; ``--half`` forces
its half through the O3 threshold (bright: threshold 100; dark: 0).

Prints how many games changed winners (and scores), the seat win rates and the mean winning score of both sides,
per player count and overall, and with ``--count`` how many events of each side name the given text in their cause
or detail. Numbers for a report, never assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LINEUPS = ("all-random", "all-balanced", "heuristic-mix")
FILLERS = ("friendly-hermit", "confused-memories", "paranoia", "wave-of-sympathy")
"""Seed-named cards that fill the deck around ``--omen-card`` (the first two that are not it)."""


def games(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The games both sides play: one per (player count, lineup, seed), with its Omen deck when one is fixed."""
    out = []
    fillers = [c for c in FILLERS if c != args.omen_card][:2]
    for players in args.players:
        for lineup in args.lineups:
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                deck: list[str] = []
                if args.omen_card:
                    deck = list(fillers)
                    deck.insert(seed % 3, args.omen_card)
                out.append({"players": players, "lineup": lineup, "seed": seed, "omen_deck": deck})
    return out


def _overrides(pairs: list[str], half: str | None) -> dict[str, Any]:
    """``key=value`` pairs (values parsed as JSON when they can be) plus the forced Omen half's thresholds."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    if half:
        for n in ("1", "2", "3", "4"):
            out[f"omens.threshold.{n}"] = 100 if half == "bright" else 0
    return out


def worker() -> None:
    """Play the games of a spec (JSON on stdin) with the septima_sim found first on the path; JSON lines out."""
    from septima_sim.content import load_content
    from septima_sim.engine import GameConfig, play_game
    from septima_sim.players import builtin_lineups, make_policy

    spec = json.load(sys.stdin)
    content = load_content(overrides=spec["overrides"])
    lineups = builtin_lineups()
    needle = spec["count"]
    for g in spec["games"]:
        n, name = g["players"], g["lineup"]
        config = GameConfig(
            n, spec["mode"], spec["shapeshifting"], spec["omens"] or bool(g["omen_deck"]), tuple(g["omen_deck"])
        )
        policies = [make_policy(p) for p in lineups[name].seat_personas(name, n, g["seed"])]
        hits = [0]

        def sink(event: dict[str, object], hits: list[int] = hits) -> None:
            if needle in str(event.get("cause", "")) or needle in str(event.get("detail", "")):
                hits[0] += 1

        result = play_game(config, content, policies, g["seed"], sink if needle else None)
        wisdom = [row["wisdom"] for row in result.players]  # one row per seat, in seat order
        print(json.dumps({**g, "winners": result.winners, "wisdom": wisdom, "count": hits[0]}), flush=True)


def _tree(rev: str | None, tmp: Path) -> Path:
    """The source tree of a revision (``git archive`` into `tmp`), or this working tree for None."""
    if rev is None:
        return ROOT
    dest = tmp / rev.replace("/", "_").replace("~", "-").replace("^", "-")
    dest.mkdir()
    archive = dest / "src.tar"
    with archive.open("wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "septima_sim"], stdout=f, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    archive.unlink()
    return dest


def play_side(tree: Path, spec: dict[str, Any]) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree), "SEPTIMA_PURE": "1"}
    out = subprocess.run(
        [sys.executable, __file__, "--worker"], input=json.dumps(spec), capture_output=True, text=True, env=env
    )
    if out.returncode != 0:
        raise SystemExit(f"{tree}: the games failed:\n{out.stderr[-3000:]}")
    return [json.loads(line) for line in out.stdout.splitlines()]


def _groups(rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> Iterator[tuple[str, list[Any]]]:
    for n in sorted({a["players"] for a, _ in rows}):
        yield f"{n} players", [(a, b) for a, b in rows if a["players"] == n]
    yield "all", rows


def report(pairs: list[tuple[dict[str, Any], dict[str, Any]]], counting: bool) -> None:
    head = f"{'games':<11}{'n':>5}{'winners':>9}{'scores':>8}   {'winning score old -> new':<26}"
    print(f"{head}seat win rates old -> new")
    for label, rows in _groups(pairs):
        n = len(rows)
        winners = sum(a["winners"] != b["winners"] for a, b in rows)
        scores = sum(a["wisdom"] != b["wisdom"] for a, b in rows)
        best = [sum(max(side["wisdom"]) for side in sides) / n for sides in zip(*rows, strict=True)]
        seats = max(len(a["wisdom"]) for a, _ in rows)
        rates = []
        for s in range(seats):
            at = [(a, b) for a, b in rows if len(a["wisdom"]) > s]
            old = sum(s in a["winners"] for a, _ in at) / len(at)
            new = sum(s in b["winners"] for _, b in at) / len(at)
            rates.append(f"{s}: {old:.0%}->{new:.0%}")
        line = f"{label:<11}{n:>5}{winners:>9}{scores:>8}   {best[0]:6.2f} -> {best[1]:6.2f} ({best[1] - best[0]:+.2f})"
        print(f"{line:<61}{', '.join(rates)}")
    if counting:
        old = sum(a["count"] for a, _ in pairs)
        new = sum(b["count"] for _, b in pairs)
        print(f"events naming the --count text: old {old}, new {new} ({len(pairs)} games)")


def main() -> None:
    if sys.argv[1:] == ["--worker"]:
        worker()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="git revision of the old side (default: this working tree)")
    ap.add_argument("--new", help="git revision of the new side (default: this working tree)")
    ap.add_argument("--old-override", action="append", default=[], metavar="KEY=VALUE", help="content override")
    ap.add_argument("--new-override", action="append", default=[], metavar="KEY=VALUE", help="content override")
    ap.add_argument("--override", action="append", default=[], metavar="KEY=VALUE", help="override on both sides")
    ap.add_argument("--players", type=lambda s: [int(x) for x in s.split(",")], default=[2, 3, 4])
    ap.add_argument("--lineups", type=lambda s: s.split(","), default=list(LINEUPS))
    ap.add_argument("--seeds", type=int, default=20, help="seeds per player count and lineup")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--mode", default="full", choices=("full", "basic"))
    ap.add_argument("--shapeshifting", action="store_true")
    ap.add_argument("--omens", action="store_true")
    ap.add_argument("--omen-card", help="an Omen card id in every deck (season by game index)")
    ap.add_argument("--half", choices=("bright", "dark"), help="force every Omen's half (O3 threshold)")
    ap.add_argument("--count", default="", help="count events whose cause or detail contains this text")
    args = ap.parse_args()
    if args.old is None and args.new is None and not (args.old_override or args.new_override):
        ap.error("give --old or --new (a git revision) or an --old-override / --new-override")
    base = {
        "games": games(args),
        "mode": args.mode,
        "shapeshifting": args.shapeshifting,
        "omens": args.omens,
        "count": args.count,
    }
    with tempfile.TemporaryDirectory(prefix="rule_effects_") as tmp:
        sides = []
        for rev, extra in ((args.old, args.old_override), (args.new, args.new_override)):
            spec = {**base, "overrides": _overrides(args.override + extra, args.half)}
            sides.append(play_side(_tree(rev, Path(tmp)), spec))
    print(
        f"old: {args.old or 'working tree'} {' '.join(args.old_override)}; "
        f"new: {args.new or 'working tree'} {' '.join(args.new_override)}"
    )
    report(list(zip(*sides, strict=True)), bool(args.count))


if __name__ == "__main__":
    main()
