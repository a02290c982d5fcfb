"""A whole game plays for every player count and mode, and the same seed replays identically."""

from __future__ import annotations

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import RandomPolicy


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["full", "basic"])
def test_game_plays_to_the_end(content: Content, players: int, mode: str) -> None:
    result = play_game(GameConfig(players, mode), content, [RandomPolicy() for _ in range(players)], seed=11)
    assert result.game["turns"] == 20
    assert len(result.players) == players
    assert sum(r["won"] for r in result.players) == len(result.game["winner_seats"]) >= 1


def test_same_seed_same_game(content: Content) -> None:
    def run() -> list[dict]:
        events: list[dict] = []
        play_game(GameConfig(4), content, [RandomPolicy() for _ in range(4)], 99, events.append)
        return events

    first, second = run(), run()
    assert first == second and len(first) > 100
