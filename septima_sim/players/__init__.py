"""Policies that play Septima through the engine's Decision interface."""

from septima_sim.players.random_policy import RandomPolicy

__all__ = ["RandomPolicy"]
