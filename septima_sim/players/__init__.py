"""Policies that play Septima through the engine's Decision interface."""

from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.registry import UnknownPolicyError, builtin_lineups, make_policy, policy_names

__all__ = ["RandomPolicy", "UnknownPolicyError", "builtin_lineups", "make_policy", "policy_names"]
