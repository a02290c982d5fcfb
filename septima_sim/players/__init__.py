"""Policies that play Septima through the engine's Decision interface."""

from septima_sim.players.heuristic import HeuristicPolicy, UnknownDecisionError
from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.registry import (
    UnknownPolicyError,
    builtin_lineups,
    make_policy,
    policy_names,
    register_personas,
)
from septima_sim.players.weights import PersonaError, Weights, load_personas

__all__ = [
    "HeuristicPolicy",
    "PersonaError",
    "RandomPolicy",
    "UnknownDecisionError",
    "UnknownPolicyError",
    "Weights",
    "builtin_lineups",
    "load_personas",
    "make_policy",
    "policy_names",
    "register_personas",
]
