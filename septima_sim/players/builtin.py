"""The classes of the built-in players: reviewed code, the only policies the engine gives the live view and a
``Simulator`` (``engine/view.py``, ``trusted``, compares a policy's class with these by identity). A class that
plays inside a built-in player's search (the ISMCTS walker) is one of them too."""

from __future__ import annotations

from septima_sim.players.greedy import GreedyPolicy
from septima_sim.players.heuristic.policy import HeuristicPolicy
from septima_sim.players.ismcts import IsmctsPolicy
from septima_sim.players.ismcts import _Walker as IsmctsWalker
from septima_sim.players.learned import LearnedPolicy
from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.recording import Recording
from septima_sim.players.search import SearchPolicy

BUILT_IN: tuple[type, ...] = (
    HeuristicPolicy,
    RandomPolicy,
    GreedyPolicy,
    IsmctsPolicy,
    IsmctsWalker,
    SearchPolicy,
    LearnedPolicy,  # learned, learned-fast, vsearch:N
    Recording,  # learn's self-play seats (they record the live view's features)
)
