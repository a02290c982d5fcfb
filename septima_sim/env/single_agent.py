"""Septima as a Gymnasium environment for one learning seat: the other seats are played by the engine.

Each ``step`` answers one decision of the learning seat; the other seats' decisions happen inside the engine,
played by the lineup given (persona names, ``py:module:Class`` plugins, or Policy factories). Observation and
action space are the AEC environment's (``aec.SeptimaEnv``). The reward is the seat's win share at the end, 0
before. An action outside the mask ends the episode at once with ``illegal_reward`` and ``info["illegal_action"]``
(the game is abandoned); ``action_masks()`` gives the mask for masked learners.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from septima_sim.content import Content
from septima_sim.env.actions import IllegalAction, Mask
from septima_sim.env.aec import Observation, Seat, SeptimaEnv, agent_name


class SeptimaGym(gymnasium.Env[Observation, np.int64]):
    """One learning seat (`seat`) against `opponents` (one per other seat in seat order, or one for all)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  # Env declares it so

    def __init__(
        self,
        players: int = 2,
        seat: int = 0,
        opponents: Sequence[Seat] = ("balanced",),
        mode: str = "full",
        shapeshifting: bool = False,
        omens: bool = False,
        modules: Iterable[str] = (),
        content: Content | None = None,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        forkable: bool = True,
    ) -> None:
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, got {seat}")
        others = list(opponents) * (players - 1) if len(opponents) == 1 else list(opponents)
        if len(others) != players - 1 or any(o is None for o in others):
            raise ValueError(f"give one opponent per other seat ({players - 1}) or one for all, got {len(opponents)}")
        lineup: list[Seat] = [*others[:seat], None, *others[seat:]]
        self.env = SeptimaEnv(
            players,
            mode,
            shapeshifting,
            omens,
            modules,
            content,
            lineup=lineup,
            render_mode=render_mode,
            forkable=forkable,
        )
        self.seat = seat
        self.agent = agent_name(seat)
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.observation_space = self.env.observation_space(self.agent)
        self.action_space = self.env.action_space(self.agent)
        self._over = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game: `seed` is its game seed; without one, the next draw of ``np_random``."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.env.reset(seed=game_seed)
        self._over = False
        return self.env.observe(self.agent), {"game_seed": game_seed}

    def step(self, action: np.int64 | int) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset")
        try:
            self.env.step(int(action))
        except IllegalAction as exc:
            obs = self.env.observe(self.agent)
            self.env.close()
            self._over = True
            return obs, self.illegal_reward, True, False, {"illegal_action": True, "error": str(exc)}
        obs = self.env.observe(self.agent)
        if self.env.terminations[self.agent]:
            self._over = True
            return obs, float(self.env.rewards[self.agent]), True, False, dict(self.env.infos[self.agent])
        return obs, 0.0, False, False, {}

    def action_masks(self) -> Mask:
        """The legal actions now (sb3-contrib's MaskablePPO reads this method)."""
        if self._over:
            return np.zeros(self.env.layout.size, np.int8)
        return self.env.action_mask()

    def render(self) -> str | None:
        return self.env.render()

    def close(self) -> None:
        self.env.close()
        self._over = True
