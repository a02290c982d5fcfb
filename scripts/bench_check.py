"""Benchmark `septima-sim baseline` and `septima-sim check` at scale: wall time, CPU time and peak RSS at 10k, 100k
and 1M games.

Usage: python scripts/bench_check.py [--games 10000 100000 1000000] [--pool 64] [--work DIR]

Config: ``bench_report``'s (2-4 players, Full, Shapeshifting off/on, random players: 6 cells of games/6 each,
shards of 1,000 games).
Playing a million real games would take hours on a shared 2-core machine, so each measured command runs in a child
process (``--child``) in which ``runner.play_game`` is replaced by a lookup into ``--pool`` real games per cell (game
seed modulo the pool, the seed column set to the game's own: deterministic, so the check replays the same outcomes);
everything else is the real command: the runner's shard function, its Parquet tables, the baseline file, the check's
pairing, metrics and verdicts. ``--jobs 1`` keeps the substitute in that one process. Wall time, CPU time (user +
system) and peak RSS come from ``os.wait4`` of the child; the 1-minute load average is printed beside each row.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from bench_report import CONFIG, measure  # this folder is on sys.path when run as a script


def child(pool: int, argv: list[str]) -> None:
    """Run the CLI with ``runner.play_game`` answered from ``pool`` real games per game configuration."""
    from septima_sim import cli, runner
    from septima_sim.engine import GameResult, play_game

    real: dict[Any, list[Any]] = {}

    def pooled(config: Any, content: Any, policies: Any, seed: int, on_event: Any = None) -> Any:
        games = real.get(config)
        if games is None:
            games = real[config] = [play_game(config, content, policies, runner.game_seed(1, i)) for i in range(pool)]
        result = games[seed % pool]
        return GameResult({**result.game, "seed": seed}, result.players)  # the game's own seed, as a real game

    runner.play_game = pooled  # type: ignore[attr-defined,assignment]  # the runner's own import, patched
    sys.argv = ["septima-sim", *argv]
    cli.main()


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--pool", type=int, default=64, help="real games per cell the synthetic games repeat")
    parser.add_argument("--work", type=Path, default=Path("/tmp/septima-bench-check"), help="scratch folder")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    print("command\tgames\twall_s\tcpu_s\tpeak_rss_mb\tbaseline_mb\tload_1min")
    for target in args.games:
        cfg = args.work / f"bench-check-{target}.toml"
        cfg.write_text(CONFIG.format(games=-(-target // 6)))
        out = args.work / f"baseline-{target}.json"
        commands = {
            "baseline": ["baseline", str(cfg), "--out", str(out), "--jobs", "1"],
            "check": ["check", "--baseline", str(out), "--jobs", "1"],
        }
        for name, argv in commands.items():
            load = os.getloadavg()[0]
            r = measure([sys.executable, __file__, "--child", str(args.pool), *argv])
            size = out.stat().st_size / 1e6
            print(
                f"{name}\t{-(-target // 6) * 6}\t{r['wall_s']:.1f}\t{r['cpu_s']:.1f}\t{r['peak_rss_mb']:.0f}\t"
                f"{size:.1f}\t{load:.2f}",
                flush=True,
            )
        out.unlink()


if __name__ == "__main__":
    main()
