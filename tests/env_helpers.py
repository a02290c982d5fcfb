"""Helpers of the step-environment tests: every playable table, a seeded random agent, an answer-replaying policy."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from septima_sim.engine.config import ConfigError, GameConfig
from septima_sim.engine.decisions import Decision
from septima_sim.env import SeptimaEnv


def tables() -> Iterator[tuple[int, str, bool, bool]]:
    """(players, mode, shapeshifting, omens) for every table the engine plays: each player count, Basic and Full,
    and every mix of the two expansions that the count and mode allow."""
    for players in (1, 2, 3, 4):
        for mode in ("basic", "full"):
            for ss in (False, True):
                for om in (False, True):
                    try:
                        GameConfig(players, mode, ss, om).validate()
                    except ConfigError:
                        continue
                    yield players, mode, ss, om


def table_id(table: tuple[int, str, bool, bool]) -> str:
    players, mode, ss, om = table
    return f"p{players}-{mode}" + ("-ss" if ss else "") + ("-om" if om else "")


def random_action(obs: dict[str, np.ndarray], rng: random.Random) -> int:
    """A legal action drawn uniformly from the mask."""
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.randrange(len(legal))])


def play_out(env: SeptimaEnv, rng: random.Random) -> list[tuple[str, int, object]]:
    """Drive `env` to the end with random legal actions; the decisions answered as (kind, seat, option value)."""
    answers = []
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        decision = env.decision
        assert decision is not None
        action = random_action(obs, rng)
        answers.append((decision.kind, decision.seat, decision.options[env.layout.option_index(decision, action)]))
        env.step(action)
    return answers


class Replay:
    """Answers a seat's decisions from a recorded list shared by all seats (checked against the decision asked)."""

    name = "replay"

    def __init__(self, answers: list[tuple[str, int, object]]) -> None:
        self.answers = answers

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat

    def choose(self, decision: Decision, view: object) -> int:
        kind, seat, value = self.answers.pop(0)
        assert (kind, seat) == (decision.kind, decision.seat), f"asked {decision}, recorded {kind} of seat {seat}"
        return decision.options.index(value)
