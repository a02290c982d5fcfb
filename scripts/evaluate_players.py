"""Evidence for the players (issues 6 and 15): skill ladders, balanced vs search, personas vs three balanced, animal
choices, ismcts speed, and the older strength / style / score-level / speed sections.

Prints a plain-text report; it is not a test. Usage: ``python scripts/evaluate_players.py [--quick] [--only SECTION
...]`` (sections: ladder2, ladder4, search, ismcts-search, personas, animals, ismcts, strength, styles, levels, speed).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scipy.stats import chi2_contingency

from septima_sim.content import Content, load_content
from septima_sim.engine import GameConfig, GameResult, play_game
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.results import row_int
from septima_sim.engine.view import PlayerView
from septima_sim.players import builtin_lineups, make_policy
from septima_sim.players.duel import duel, summarize
from septima_sim.players.ismcts import IsmctsPolicy
from septima_sim.players.lineup import Lineup
from septima_sim.players.search import SearchPolicy

PERSONAS = ("balanced", "healer", "brewer", "advocate", "ritualist", "cautious", "opportunist")


def play(content: Content, config: GameConfig, lineup: Lineup, seed: int) -> tuple[GameResult, list[str]]:
    """One game with the lineup rotated by the seed (seat s plays personas[(s + seed) % len])."""
    names = lineup.seat_personas("lineup", config.players, seed)
    return play_game(config, content, [make_policy(n) for n in names], seed), names


def strength(content: Content, games: int) -> None:
    """balanced against three random players, 4-player Full games, seats rotated."""
    config = GameConfig(4, "full")
    lineup = builtin_lineups()["balanced-vs-random"]
    won = solo = 0
    mine: list[int] = []
    best_random: list[int] = []
    for seed in range(games):
        result, names = play(content, config, lineup, seed)
        row = next(r for r in result.players if names[row_int(r, "seat")] == "balanced")
        won += bool(row["won"])
        solo += bool(row["won"]) and not result.game["tie"]
        mine.append(row_int(row, "wisdom"))
        best_random.append(max(row_int(r, "wisdom") for r in result.players if names[row_int(r, "seat")] != "balanced"))
    print(f"## balanced vs 3 random (4 players, Full, {games} games, seats rotated)")
    print(f"  balanced wins {won / games:.1%} (outright {solo / games:.1%}; target >= 95%)")
    print(f"  mean Wisdom: balanced {statistics.mean(mine):.1f}, best random player {statistics.mean(best_random):.1f}")


def styles(content: Content, games: int) -> None:
    """Each persona in one seat against three balanced players: action mix, heals, suspicion."""
    config = GameConfig(4, "full")
    cards = [a.id for a in content.actions if not a.full_only or config.full]
    table: dict[str, list[int]] = {}
    stats: dict[str, dict[str, float]] = {}
    diseases = [d.id for d in content.diseases]
    for persona in PERSONAS:
        counts = dict.fromkeys(cards, 0)
        heals: list[int] = []
        sus_end: list[int] = []
        sus_max: list[int] = []
        wisdom: list[int] = []
        wins = 0
        for seed in range(games):
            lineup = Lineup((persona, "balanced", "balanced", "balanced"))
            result, names = play(content, config, lineup, seed)
            seat = names.index(persona)
            row = result.players[seat]
            for c in cards:
                counts[c] += row_int(row, f"played_{c}", 0)
            heals.append(sum(row_int(row, f"healed_{d}") for d in diseases))
            sus_end.append(row_int(row, "suspicion_end"))
            sus_max.append(row_int(row, "suspicion_max"))
            wisdom.append(row_int(row, "wisdom"))
            wins += bool(row["won"])
        table[persona] = [counts[c] for c in cards]
        stats[persona] = {
            "heals": statistics.mean(heals),
            "sus_end": statistics.mean(sus_end),
            "sus_max": statistics.mean(sus_max),
            "wisdom": statistics.mean(wisdom),
            "win": wins / games,
        }
    used = [i for i in range(len(cards)) if any(table[p][i] for p in PERSONAS)]
    print(f"\n## persona styles (each persona in one seat vs 3 balanced, 4 players, Full, {games} games)")
    print("  played cards per game:")
    print("  " + f"{'persona':<12}" + "".join(f"{cards[i][:8]:>9}" for i in used))
    for p in PERSONAS:
        print("  " + f"{p:<12}" + "".join(f"{table[p][i] / games:>9.2f}" for i in used))
    chi2, pval, dof, _ = chi2_contingency([[table[p][i] for i in used] for p in PERSONAS])
    print(f"  chi-square over all personas x cards: chi2 = {chi2:.0f}, dof = {dof}, p = {pval:.3g}")
    for p in PERSONAS[1:]:
        c2, pv, _, _ = chi2_contingency([[table[q][i] for i in used] for q in ("balanced", p)])
        print(f"    {p:<12} vs balanced: chi2 = {c2:7.1f}, p = {pv:.3g}")
    print("  " + f"{'persona':<12}{'heals':>7}{'sus end':>9}{'sus max':>9}{'Wisdom':>8}{'wins':>7}")
    for p in PERSONAS:
        s = stats[p]
        print(f"  {p:<12}{s['heals']:>7.2f}{s['sus_end']:>9.2f}{s['sus_max']:>9.2f}{s['wisdom']:>8.1f}{s['win']:>7.1%}")
    top_heal = max(PERSONAS, key=lambda p: stats[p]["heals"])
    low_sus = min(PERSONAS, key=lambda p: stats[p]["sus_end"])
    print(f"  most heals: {top_heal} (expected healer); lowest mean final suspicion: {low_sus} (expected cautious)")


def levels(content: Content, games: int) -> None:
    """Mean winning Wisdom per player count and mode, heuristic-mix lineup rotated over seats."""
    lineup = builtin_lineups()["heuristic-mix"]
    print(f"\n## winning Wisdom (heuristic-mix lineup, {games} games per cell)")
    print(f"  {'players':>7} {'mode':<6}{'mean':>7}{'sd':>6}{'min':>5}{'max':>5}{'ties':>7}")
    for mode in ("full", "basic"):
        for n in (2, 3, 4):
            scores = []
            ties = 0
            for seed in range(games):
                result, _ = play(content, GameConfig(n, mode), lineup, seed)
                scores.append(row_int(result.game, "winning_score"))
                ties += bool(result.game["tie"])
            sd = statistics.stdev(scores)
            print(
                f"  {n:>7} {mode:<6}{statistics.mean(scores):>7.1f}{sd:>6.1f}{min(scores):>5}{max(scores):>5}"
                f"{ties / games:>7.1%}"
            )


def _rates(
    content: Content, config: GameConfig, lineup: Lineup, games: int, runs: int
) -> tuple[list[float], list[float]]:
    """Games/s per run, wall clock and CPU time of this process."""
    wall: list[float] = []
    cpu: list[float] = []
    for r in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        for seed in range(r * games, (r + 1) * games):
            play(content, config, lineup, seed)
        wall.append(games / (time.perf_counter() - t0))
        cpu.append(games / (time.process_time() - c0))
    return wall, cpu


def speed(content: Content, config: GameConfig, games: int, runs: int) -> None:
    """4-player games with the heuristic-mix lineup on one core (median of runs), next to all-random games."""
    wall, cpu = _rates(content, config, builtin_lineups()["heuristic-mix"], games, runs)
    _, random_cpu = _rates(content, config, builtin_lineups()["all-random"], games, runs)
    modules = [m for m in ("shapeshifting", "omens") if getattr(config, m)]
    what = f"{config.players} players, {config.mode}{' + ' + ' + '.join(modules) if modules else ''}"
    print(f"\n## speed (heuristic-mix, {what}, {runs} runs of {games} games, one process)")
    print(f"  games/s: median wall {statistics.median(wall):.1f}, median CPU-time {statistics.median(cpu):.1f}")
    print(f"  (runs, wall: {', '.join(f'{x:.0f}' for x in wall)}; target >= 150)")
    print(f"  all-random lineup, same conditions: median CPU-time {statistics.median(random_cpu):.1f} games/s")


def ladder(players: int, policies: str, games: int, jobs: int) -> None:
    """``septima-sim ladder`` on Full games with both modules: matchup matrix and openskill ratings."""
    print(f"\n## skill ladder, {players} players, Full + Shapeshifting + Omens, {games} games per pair/rotation")
    with tempfile.TemporaryDirectory() as out:
        cmd = [str(Path(sys.executable).parent / "septima-sim"), "ladder", "--players", str(players), "--policies"]
        cmd += [policies, "--games", str(games), "--shapeshifting", "--omens", "--jobs", str(jobs), "--quiet"]
        t0 = time.perf_counter()
        done = subprocess.run([*cmd, "--out", str(Path(out) / "ladder")], capture_output=True, text=True)
        print(done.stdout.rstrip() or done.stderr.rstrip())
        print(f"  ({time.perf_counter() - t0:.0f} s wall, {jobs} jobs)")


def versus_search(content: Content, seeds: int, budget: int) -> None:
    """balanced against search:budget, 2-player Full, each seed in both seatings."""
    t0 = time.process_time()
    r = duel(content, GameConfig(2, "full"), lambda: make_policy("balanced"), lambda: make_policy(f"search:{budget}"),
             range(seeds))  # fmt: skip
    print(f"\n## balanced vs search:{budget} (2 players, Full, {r.games} games, both seatings per seed)")
    print(f"  balanced win share {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] (target >= 35%; "
          f"{time.process_time() - t0:.0f} s CPU)")  # fmt: skip


def personas(content: Content, games: int) -> None:
    """Each persona in one seat against three balanced (4-player Full, seats rotated): win share (ties split)."""
    config = GameConfig(4, "full")
    print(f"\n## personas vs three balanced (4 players, Full, {games} games each, seats rotated; fair 25%)")
    for persona in PERSONAS[1:]:
        shares = []
        for seed in range(games):
            result, names = play(content, config, Lineup((persona, "balanced", "balanced", "balanced")), seed)
            seat, winners = names.index(persona), result.winners
            shares.append(1.0 / len(winners) if seat in winners else 0.0)
        r = summarize(shares)
        print(f"  {persona:<12} {r.share:6.1%} [{r.low:.1%}, {r.high:.1%}]  (target >= 20%)")


def animals(content: Content, games: int) -> None:
    """How often each persona turns into each animal (every seat the same persona, 4 players, Shapeshifting)."""
    ids = [a.id for a in content.animals]
    print(f"\n## animal choices per persona (4 seats of the persona, Full + Shapeshifting, {games} games each)")
    print("  " + f"{'persona':<12}" + "".join(f"{a[:8]:>9}" for a in ids) + f"{'per game':>10}")
    for persona in ("greedy", *PERSONAS):
        counts: collections.Counter[str] = collections.Counter()

        def sink(event: dict[str, object], counts: collections.Counter[str] = counts) -> None:
            if event["kind"] == "shapeshift":
                counts[str(event["form"])] += 1

        n = games // 5 if persona == "greedy" else games
        for seed in range(n):
            policies = [make_policy(persona) for _ in range(4)]
            play_game(GameConfig(4, "full", shapeshifting=True), content, policies, seed, sink)
        total = sum(counts.values()) or 1
        row = "".join(f"{counts[a] / total:>9.0%}" for a in ids)
        print(f"  {persona:<12}{row}{sum(counts.values()) / n:>10.1f}" + (f"  ({n} games)" if n != games else ""))


@contextlib.contextmanager
def timing(*classes: type) -> Iterator[dict[str, list[float]]]:
    """While open, each class's ``choose`` adds up per policy name: CPU seconds, decisions, card decisions."""
    spent: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0, 0])
    originals = {cls: cls.choose for cls in classes}  # type: ignore[attr-defined]
    for cls, original in originals.items():

        def timed(self: Any, decision: Decision, view: PlayerView, original: Any = original) -> int:
            t0 = time.process_time()
            i = original(self, decision, view)
            row = spent[self.name]
            row[0] += time.process_time() - t0
            row[1] += 1
            row[2] += decision.kind == Kind.CARD
            return int(i)

        cls.choose = timed  # type: ignore[attr-defined]
    try:
        yield spent
    finally:
        for cls, original in originals.items():
            cls.choose = original  # type: ignore[attr-defined]


def ismcts_speed(content: Content, games: int) -> None:
    """Decisions/s of the ismcts seat and games/s, 2-player Full games against balanced (CPU time)."""
    print("\n## ismcts speed (2 players, Full, vs balanced, CPU time of the ismcts seat)")
    for budget in (50, 200):
        name = f"ismcts:{budget}"
        with timing(IsmctsPolicy) as spent:
            for seed in range(games):
                play_game(GameConfig(2, "full"), content, [make_policy(name), make_policy("balanced")], seed)
        cpu, n, cards = spent[name]
        print(f"  {name}: {n / cpu:.1f} decisions/s, {games / cpu:.3f} games/s ({n / games:.0f} decisions and "
              f"{cards / games:.0f} card choices per game, {1000 * cpu / cards:.0f} ms per card choice all "
              f"included, {games} games)")  # fmt: skip


def ismcts_vs_search(content: Content, seeds: int, ismcts: str, search: str) -> None:
    """ismcts against search, 2-player Full, each seed in both seatings, with each side's CPU per decision."""
    with timing(IsmctsPolicy, SearchPolicy) as spent:
        r = duel(content, GameConfig(2, "full"), lambda: make_policy(ismcts), lambda: make_policy(search),
                 range(SEARCH_SEED0, SEARCH_SEED0 + seeds))  # fmt: skip
    print(f"\n## {ismcts} vs {search} (2 players, Full, {r.games} games, both seatings per seed)")
    print(f"  {ismcts} win share {r.share:.1%} [{r.low:.1%}, {r.high:.1%}] (target: above 50%)")
    for name, (cpu, n, cards) in spent.items():
        print(f"  {name:<10} {cpu / r.games:.2f} s CPU per game, {n / cpu:.0f} decisions/s, "
              f"{1000 * cpu / cards:.0f} ms per card choice (everything it spends, over the card choices)")  # fmt: skip


SEARCH_SEED0 = 1000
"""First seed of the ismcts-vs-search section."""
SECTIONS = (
    "ladder2",
    "ladder4",
    "search",
    "ismcts-search",
    "personas",
    "animals",
    "ismcts",
    "strength",
    "styles",
    "levels",
    "speed",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games for the strength test")
    parser.add_argument("--quick", action="store_true", help="small budgets everywhere (minutes, not hours)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS), help="sections to print")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of the ladders")
    args = parser.parse_args()
    content = load_content()
    q = args.quick
    scale = 4 if q else 1
    run = set(args.only)
    if "ladder2" in run:
        top = "search:50,ismcts:20" if q else "search:50,ismcts:50"
        ladder(2, f"random,greedy,balanced,{top}", 10 if q else 100, args.jobs)
    if "ladder4" in run:
        top = "search:50,ismcts:20" if q else "search:50,ismcts:50"
        ladder(4, f"random,greedy,balanced,{top}", 2 if q else 20, args.jobs)
    if "search" in run:
        versus_search(content, 20 if q else 200, 200)
    if "personas" in run:
        personas(content, 100 if q else 1000)
    if "animals" in run:
        animals(content, 25 if q else 100)
    if "ismcts" in run:
        ismcts_speed(content, 1 if q else 4)
    if "ismcts-search" in run:
        ismcts_vs_search(content, 5 if q else 100, "ismcts:50", "search:50")
        ismcts_vs_search(content, 5 if q else 100, "ismcts:25", "search:50")
    if "strength" in run:
        strength(content, args.games // scale)
    if "styles" in run:
        styles(content, 200 // scale)
    if "levels" in run:
        levels(content, 200 // scale)
    if "speed" in run:
        speed(content, GameConfig(4, "full"), 200 // scale, 5)
        speed(content, GameConfig(4, "full", shapeshifting=True, omens=True), 200 // scale, 5)


if __name__ == "__main__":
    main()
