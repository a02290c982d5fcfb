"""Play one candidate: an ordinary experiment (the base matrix with the candidate's values as single-value
``[overrides]``) through the project's runner into its own run directory, and read its games back with polars.

Every trial plays game indices 0..N-1 of the same root seed (common random numbers). A later rung of successive
halving raises N in the same run directory: the shards already played are kept and only the new ones are played.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from septima_sim import store
from septima_sim.engine.modules.spec import flag_columns
from septima_sim.experiment import Experiment, ExperimentError, build
from septima_sim.grow import play_many_into
from septima_sim.tune.schema import TuneConfig, TuneError

PLAYER_COLUMNS = ("cell_id", "game_index", "players", "seat", "colour", "policy", "won", "rank")
GAME_COLUMNS = ("cell_id", "game_index", "players", "start_player", "winner_seats", "winning_score", "decisions")


@dataclass(frozen=True, slots=True)
class Played:
    """A candidate's games: one row per seat and one per game, and how many games raised."""

    players: pl.DataFrame
    games: pl.DataFrame
    errors: int


def experiment(
    cfg: TuneConfig,
    *,
    name: str,
    games: int,
    seed: int,
    overrides: dict[str, Any],
    shard_size: int | None = None,
    source: str = "tune",
    content: str | None = None,
) -> Experiment:
    """The run config of one candidate (``overrides`` empty = the untouched baseline; ``content`` another pack, e.g.
    the component target's pack without the component)."""
    data: dict[str, Any] = {
        "name": name,
        "games_per_cell": games,
        "seed": seed,
        "shard_size": shard_size or cfg.budget.shard_size(),
        "matrix": cfg.base.model_dump(),
        "lineups": cfg.lineups,
        "overrides": {path: [value] for path, value in overrides.items()},
    }
    if content or cfg.content is not None:
        data["content"] = content or cfg.content
    try:
        return build(data, source)
    except ExperimentError as exc:
        raise TuneError(str(exc).replace(f"{source}: matrix.", f"{source}: base.")) from None


def play(exp: Experiment, run_dir: Path, console: Console) -> Played:
    """Play the experiment into ``run_dir``: a fresh run directory, or the same one grown to more games (or left
    unfinished by an interrupted tune), keeping the shards it holds (``grow.play_into``)."""
    return play_many([(exp, run_dir)], console)[0]


def play_many(runs: list[tuple[Experiment, Path]], console: Console) -> list[Played]:
    """``play`` for the trials of a batch, their shards one stream of tasks (``grow.play_many_into``)."""
    summaries = play_many_into(runs, console)
    return [read(run_dir, summary.errors) for (_, run_dir), summary in zip(runs, summaries, strict=True)]


def read(run_dir: Path, errors: int = 0) -> Played:
    """The columns the targets need, from a run directory's Parquet (no rows when every game raised)."""
    players = store.scan(run_dir, "players")
    games = store.scan(run_dir, "games")
    if players is None or games is None:
        return Played(pl.DataFrame(schema=PLAYER_COLUMNS), pl.DataFrame(schema=GAME_COLUMNS), errors)
    return Played(
        _columns(players, PLAYER_COLUMNS, CARD_COLUMNS),
        _columns(games, GAME_COLUMNS, ("buildings", *flag_columns())),
        errors,
    )


CARD_COLUMNS = ("wisdom", "witches_drafted", "spells", "goals", "animals")
"""Read too where the run has them: what a changed card's own effect needs (``analysis.own_effect``)."""


def _columns(frame: pl.LazyFrame, needed: tuple[str, ...], optional: tuple[str, ...]) -> pl.DataFrame:
    have = frame.collect_schema().names()
    return frame.select(*needed, *(c for c in optional if c in have)).collect()
