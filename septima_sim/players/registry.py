"""Name -> policy factory, and the named lineups of ``content/lineups.toml``: how configs refer to players."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from septima_sim.engine.decisions import Policy
from septima_sim.players.heuristic import HeuristicPolicy
from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.search import SearchPolicy
from septima_sim.players.weights import Weights, load_personas

LINEUPS_FILE = Path(__file__).parent.parent / "content" / "lineups.toml"
SEARCH_BUDGET = 200
"""Simulations per card choice of ``search`` without a budget (``search:N`` sets N)."""
SEARCH_FALLBACK = "balanced"
"""The persona a search player delegates every non-card decision to, and that plays its simulations."""
SEARCH_HORIZON = 0
"""Search simulations stop at the end of the current season and score it as if the game ended there."""

POLICIES: dict[str, Callable[[], Policy]] = {"random": RandomPolicy}
"""Built-in persona names and their factories (heuristic personas register here too)."""


def register_personas(personas: dict[str, Weights]) -> None:
    """Register heuristic personas (e.g. from a user's TOML file, see ``weights.load_personas``) by name."""
    for name, weights in personas.items():
        POLICIES[name] = _persona(name, weights)


def _persona(name: str, weights: Weights) -> Callable[[], Policy]:
    """The factory of one heuristic persona."""
    return lambda: HeuristicPolicy(name, weights)


register_personas(load_personas())


class UnknownPolicyError(ValueError):
    """A persona name that no factory is registered for."""


def policy_names() -> list[str]:
    """Every persona name a config or lineup may use (plus ``search:N`` for any budget N)."""
    return sorted([*POLICIES, "search"])


def make_policy(name: str) -> Policy:
    """A fresh policy for the persona ``name``; raises UnknownPolicyError listing the known names."""
    if name == "search" or name.startswith("search:"):
        budget = name.partition(":")[2] or str(SEARCH_BUDGET)
        if not budget.isdigit() or int(budget) < 1:
            raise UnknownPolicyError(f"bad search budget in {name!r}: use search:N with N >= 1 simulations")
        return SearchPolicy(
            int(budget), make_policy(SEARCH_FALLBACK), lambda: make_policy(SEARCH_FALLBACK), SEARCH_HORIZON
        )
    try:
        factory = POLICIES[name]
    except KeyError:
        raise UnknownPolicyError(f"unknown persona {name!r} (known: {', '.join(policy_names())})") from None
    return factory()


def builtin_lineups() -> dict[str, list[str]]:
    """The named lineups shipped in ``content/lineups.toml`` (lineup name -> persona per seat)."""
    with LINEUPS_FILE.open("rb") as f:
        return {name: list(seats) for name, seats in tomllib.load(f).items()}
