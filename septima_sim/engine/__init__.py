"""The Septima rules engine: pure, deterministic, no I/O."""

from septima_sim.engine.config import ConfigError, GameConfig
from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.game import Game, play_game
from septima_sim.engine.results import GameResult

__all__ = ["ConfigError", "Decision", "Game", "GameConfig", "GameResult", "Kind", "Policy", "play_game"]
