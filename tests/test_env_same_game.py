"""Same game, either way: a game driven step by step through the environment and the same game played by the
engine with the same answers give the same events and the same result, at every table (players, mode, modules)."""

from __future__ import annotations

import random

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.env import SeptimaEnv
from tests.env_helpers import Replay, play_out, table_id, tables

TABLES = list(tables())


@pytest.mark.parametrize("table", TABLES, ids=[table_id(t) for t in TABLES])
def test_env_driven_game_is_the_engine_game(content: Content, table: tuple[int, str, bool, bool]) -> None:
    players, mode, ss, om = table
    seed = 100 + len(table_id(table)) * players
    env_events: list[dict[str, object]] = []
    env = SeptimaEnv(players, mode, ss, om, content=content, sink=env_events.append)
    env.reset(seed=seed)
    answers = play_out(env, random.Random(seed))
    assert env.result is not None
    engine_events: list[dict[str, object]] = []
    queue = list(answers)
    result = play_game(
        GameConfig(players, mode, ss, om), content, [Replay(queue) for _ in range(players)], seed, engine_events.append
    )
    assert not queue, "the engine asked fewer decisions than the environment"
    assert len(answers) == result.game["decisions"]
    assert env_events == engine_events
    assert env.result.game == result.game
    label = [{k: v for k, v in row.items() if k != "policy"} for row in result.players]  # who played: a label
    assert [{k: v for k, v in row.items() if k != "policy"} for row in env.result.players] == label
    kinds = {kind for kind, _, _ in answers}
    assert len(kinds) >= 8, f"a game this short tests little: {sorted(kinds)}"


def test_every_table_is_covered() -> None:
    """The tables above are every playable mix: 4 player counts x Basic/Full x the expansions the Full game has."""
    assert len(TABLES) == 4 * (1 + 4)
