"""Fingerprint of many seeded games: one sha256 over their results (and a few event streams).

    python scripts/games_hash.py                 # 1,000 games, mixed settings
    python scripts/games_hash.py --games 200

A refactor that must not change games (same config + seed = same game) prints the same digest before and after.
The games mix player counts 1-4, Basic/Full, Shapeshifting/Omens on and off, random and heuristic players, and a
search player in a few of them (its clones must replay the same); every 50th game also hashes its event stream.
"""

from __future__ import annotations

import argparse
import hashlib
import json

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import make_policy

PERSONAS = ("random", "balanced", "healer", "brewer", "advocate", "ritualist", "cautious", "opportunist")


def settings(i: int) -> tuple[GameConfig, list[str]]:
    """The config and seat personas of game `i` (a fixed mix, by index)."""
    players = 1 + i % 4
    full = i % 5 != 4  # the modules play with the Full game only
    shapeshifting, omens = full and i % 3 == 1, full and i % 7 in (2, 5)
    config = GameConfig(players, "full" if full else "basic", shapeshifting=shapeshifting, omens=omens)
    seats = [PERSONAS[(i * 3 + s) % len(PERSONAS)] for s in range(players)]
    if i % 97 == 13:
        seats[0] = "search:4"
    return config, seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    content = load_content()
    digest = hashlib.sha256()
    for i in range(args.games):
        config, seats = settings(i)
        events: list[dict[str, object]] = []
        sink = events.append if i % 50 == 0 else None
        result = play_game(config, content, [make_policy(name) for name in seats], 1000 + i, sink)
        digest.update(json.dumps([result.game, result.players], sort_keys=True, default=str).encode())
        digest.update(json.dumps(events, sort_keys=True, default=str).encode())
    print(f"{args.games} games: {digest.hexdigest()}")


if __name__ == "__main__":
    main()
