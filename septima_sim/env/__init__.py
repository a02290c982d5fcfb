"""Septima as a step environment: PettingZoo AEC (``env``), Gymnasium single-agent (``SeptimaGym``), and
determinized copies for third-party search (``SeptimaEnv.fork``). See docs/env.md.

Needs the ``env`` extra: ``pip install 'septima-sim[env]'`` (pettingzoo, gymnasium, greenlet).
"""

from __future__ import annotations

try:
    import greenlet  # noqa: F401
    import gymnasium
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(f"septima_sim.env needs the env extra: pip install 'septima-sim[env]' ({exc})") from None

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from septima_sim.env.actions import ActionLayout, IllegalAction
from septima_sim.env.aec import SeptimaEnv, layouts
from septima_sim.env.observation import ENCODING_VERSION, Encoder
from septima_sim.env.single_agent import SeptimaGym

raw_env = SeptimaEnv
GYM_ID = "septima_sim/Septima-v1"
"""``gymnasium.make(GYM_ID, players=..., seat=..., opponents=...)`` makes a ``SeptimaGym``."""
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="septima_sim.env.single_agent:SeptimaGym")


def env(**settings: Any) -> OrderEnforcingWrapper:
    """A PettingZoo AEC environment of one Septima table: ``SeptimaEnv(**settings)`` (players, mode,
    shapeshifting, omens, modules, content, seed, lineup, sink, render_mode) behind PettingZoo's order check."""
    return OrderEnforcingWrapper(SeptimaEnv(**settings))


__all__ = [
    "ENCODING_VERSION",
    "GYM_ID",
    "ActionLayout",
    "Encoder",
    "IllegalAction",
    "SeptimaEnv",
    "SeptimaGym",
    "env",
    "layouts",
    "raw_env",
]
