"""The replay viewer: one game as a self-contained HTML page (board, seats, events, final scores).

``write_play_page`` records a game from (config, content, policies, seed) and writes its page; ``write_game_page``
does the same for game INDEX of a cell of a run (what ``septima-sim play --replay ... --format html`` and the report's
example-game links use).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.engine.decisions import Policy
from septima_sim.engine.modules import MODULES, toggled
from septima_sim.replay.page import render_page, write_page
from septima_sim.replay.snapshot import Recording, record_game

__all__ = ["Recording", "game_title", "record_game", "render_page", "write_game_page", "write_play_page"]


def game_title(config: GameConfig, seed: int, where: str = "") -> str:
    """A one-line description of the game for the page title, e.g. ``4 players · Full · Shapeshifting · seed 3``."""
    table = [s.title.lower() for s in MODULES.values() if s.automatic and s.name in config.modules]  # e.g. solo
    parts = [table[0] if table else f"{config.players} players", config.mode.capitalize()]
    parts.extend(spec.title or spec.name for spec in toggled() if spec.name in config.modules)
    parts.append(f"seed {seed}")
    if where:
        parts.append(where)
    return " · ".join(parts)


def write_play_page(
    config: GameConfig, content: Content, policies: Sequence[Policy], seed: int, out_path: Path, where: str = ""
) -> Path:
    """Play one seeded game (the same game as ``play_game``) and write its replay page to ``out_path``."""
    recording = record_game(config, content, policies, seed)
    return write_page(recording, game_title(config, seed, where), out_path)


def write_game_page(run_dir: Path, cell_id: str, game_index: int, out_path: Path) -> Path:
    """Write the replay page of game ``game_index`` of cell ``cell_id`` of a run (raises ``runner.RunError`` when
    the run, cell or index does not exist)."""
    from septima_sim.runner import replay

    config, content, policies, seed = replay(Path(run_dir), cell_id, game_index)
    return write_play_page(config, content, policies, seed, out_path, f"{cell_id}:{game_index}")
