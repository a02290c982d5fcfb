"""Evidence for the scripted players (issue 6): strength, persona styles, score levels and speed.

Prints a plain-text report; it is not a test. Usage: ``python scripts/evaluate_players.py [--games N] [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scipy.stats import chi2_contingency

from septima_sim.content import Content, load_content
from septima_sim.engine import GameConfig, GameResult, play_game
from septima_sim.players import builtin_lineups, make_policy
from septima_sim.players.lineup import Lineup

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
        row = next(r for r in result.players if names[r["seat"]] == "balanced")
        won += bool(row["won"])
        solo += bool(row["won"]) and not result.game["tie"]
        mine.append(row["wisdom"])
        best_random.append(max(r["wisdom"] for r in result.players if names[r["seat"]] != "balanced"))
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
                counts[c] += int(row.get(f"played_{c}", 0))
            heals.append(sum(int(row[f"healed_{d}"]) for d in diseases))
            sus_end.append(int(row["suspicion_end"]))
            sus_max.append(int(row["suspicion_max"]))
            wisdom.append(int(row["wisdom"]))
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
                scores.append(int(result.game["winning_score"]))
                ties += bool(result.game["tie"])
            sd = statistics.stdev(scores)
            print(
                f"  {n:>7} {mode:<6}{statistics.mean(scores):>7.1f}{sd:>6.1f}{min(scores):>5}{max(scores):>5}"
                f"{ties / games:>7.1%}"
            )


def search_duel(content: Content, games: int, budget: int) -> None:
    """search:budget against balanced, head to head in 2-player Full games, seats alternating."""
    lineup = Lineup((f"search:{budget}", "balanced"))
    share = 0.0
    t0 = time.perf_counter()
    for seed in range(games):
        result, names = play(content, GameConfig(2, "full"), lineup, seed)
        winners = result.game["winner_seats"]
        seat = names.index(lineup.personas[0])
        share += 1.0 / len(winners) if seat in winners else 0.0  # type: ignore[arg-type]
    print(f"\n## search:{budget} vs balanced (2 players, Full, {games} games, seats alternating)")
    print(f"  search win share {share / games:.1%} ({time.perf_counter() - t0:.0f} s)")


def _rates(content: Content, config: GameConfig, lineup: Lineup, games: int, runs: int) -> tuple[list, list]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games for the strength test")
    parser.add_argument("--quick", action="store_true", help="fewer games everywhere")
    parser.add_argument("--search", type=int, default=0, metavar="N", help="also play N games search vs balanced")
    parser.add_argument("--budget", type=int, default=50, help="search simulations per card choice")
    args = parser.parse_args()
    content = load_content()
    scale = 4 if args.quick else 1
    strength(content, args.games // scale)
    styles(content, 200 // scale)
    levels(content, 200 // scale)
    speed(content, GameConfig(4, "full"), 200 // scale, 5)
    speed(content, GameConfig(4, "full", shapeshifting=True, omens=True), 200 // scale, 5)
    if args.search:
        search_duel(content, args.search, args.budget)


if __name__ == "__main__":
    main()
