"""The baseline file: write it (with a checksum of its outcome data), read it back and validate it fully.

Format (schema version 2): one JSON file; its provenance, the resolved config and, per cell, the games' outcome
columns as one encoded frame (``codec``: zstd Parquet, base64) with the column means for people reading diffs; the
games' seeds once (the same in every cell). Version 1 held every outcome as a JSON list (about 2 GB of memory to load
a million games) and is refused with a hint to regenerate."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from septima_sim import __version__, runner, store
from septima_sim.content import load_content
from septima_sim.engine.results import RULES_VERSION
from septima_sim.experiment import Cell, Experiment, ExperimentError, build, load_experiment
from septima_sim.regression import codec
from septima_sim.regression.errors import RegressionInputError
from septima_sim.regression.outcomes import GAME_COLUMNS, SEAT_COLUMNS, Outcomes, Played, play, shard_tasks

SCHEMA = "septima-sim/balance-baseline"
SCHEMA_VERSION = 2
"""Version of the baseline file format; a file with another version is refused (exit 2)."""


def baseline(
    config_path: Path,
    out_file: Path,
    jobs: int | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    content: Path | None = None,
    backend: str = "local",
    scheduler: str | None = None,
) -> Played:
    """Play a config and write its baseline file (nothing is written if a game raised: check ``errors``); the games
    run on ``backend`` (``runner.parallel_backend``)."""
    try:
        exp = load_experiment(config_path, games=games, seed=seed, content=content)
    except ExperimentError as exc:
        raise RegressionInputError(str(exc)) from None
    with runner.parallel_backend(backend, jobs, scheduler):
        played = play(shard_tasks(exp))
    if not played.errors:
        write_baseline(exp, played.outcomes, out_file)
    return played


def write_baseline(exp: Experiment, outcomes: Outcomes, out_file: Path) -> None:
    """Write the baseline JSON: provenance, config, the seeds once and each cell's encoded outcome frame."""
    cfg = exp.config
    first = outcomes[exp.cells[0].id]
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "package_version": __version__,
        "rules_version": RULES_VERSION,
        "content_hash": load_content(exp.content_dir).hash,
        "config_hash": exp.hash,
        "outcomes_sha256": "",
        "config": exp.resolved(),
        "seeds": {
            "root": cfg.seed,
            "derivation": "SeedSequence(root, spawn_key=(game_index,)), top 63 bits; the same in every cell",
            "games": first.height,
            "data": codec.encode(first.select("seed")),
        },
        "cells": {cell.id: _cell(cell, outcomes[cell.id].drop("game_index", "seed")) for cell in exp.cells},
    }
    data["outcomes_sha256"] = outcomes_checksum(data)
    try:
        store.write_atomic(out_file, (_dump(data) + "\n").encode())
    except OSError as exc:
        raise RegressionInputError(f"cannot write {out_file}: {exc.strerror or exc}") from None


def _cell(cell: Cell, frame: pl.DataFrame) -> dict[str, Any]:
    """One cell's entry: players, games, the mean of every numeric column (for readers) and the encoded frame."""
    numeric = [c for c, dtype in frame.schema.items() if not isinstance(dtype, pl.List)]
    means = frame.select(pl.col(numeric).cast(pl.Float64).mean()).row(0, named=True)
    return {
        "players": cell.players,
        "games": frame.height,
        "means": {column: round(value, 6) for column, value in means.items()},
        "outcomes": codec.encode(frame),
    }


def outcomes_checksum(data: dict[str, Any]) -> str:
    """sha256 of the cells and the seed data of a baseline (canonical JSON: sorted keys, no spaces)."""
    canonical = {"cells": data["cells"], "seeds": data["seeds"]["data"]}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def required_columns(cell: Cell) -> set[str]:
    """The outcome columns a cell of the config implies: every per-game column (``solo_won`` only in solo cells)
    and every per-seat column for each seat."""
    games = {c for c in GAME_COLUMNS if c != "solo_won" or cell.players == 1}
    return games | {f"{c}_{seat}" for c in SEAT_COLUMNS for seat in range(cell.players)}


def _dump(value: Any, indent: int = 0) -> str:
    """JSON with nested objects indented and lists of scalars on one line."""
    if isinstance(value, dict) and value:
        pad = " " * (indent + 1)
        items = ",\n".join(f"{pad}{json.dumps(k)}: {_dump(v, indent + 1)}" for k, v in value.items())
        return "{\n" + items + "\n" + " " * indent + "}"
    return json.dumps(value, separators=(",", ":"))


SEEDS_CHECKED_ON_READ = 64
"""Seeds re-derived when a baseline is read (an early error); ``check`` compares every played game's seed too."""


@dataclass(frozen=True, slots=True)
class Baseline:
    """A loaded baseline: its experiment (rebuilt from the stored config), outcomes, game seeds and provenance."""

    path: Path
    exp: Experiment
    outcomes: Outcomes
    seeds: np.ndarray
    meta: dict[str, Any]

    def check_seeds(self, current: Outcomes) -> None:
        """Every played game (``seed`` per ``game_index``) must have the seed of the same game of the baseline."""
        for frame in current.values():
            if not np.array_equal(frame["seed"].to_numpy(), self.seeds[frame["game_index"].to_numpy()]):
                raise RegressionInputError(
                    f"{self.path}: the seed derivation changed since this baseline; regenerate it"
                )


def read_baseline(path: Path, content: Path | None = None) -> Baseline:
    """Load and validate a baseline file; ``content`` replaces the config's content pack (what-if checks)."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise RegressionInputError(f"{path}: cannot read the baseline ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RegressionInputError(f"{path}: not a baseline file (invalid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise RegressionInputError(f"{path}: not a septima-sim baseline file (no schema {SCHEMA!r})")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise RegressionInputError(
            f"{path}: baseline schema version {data.get('schema_version')!r}, this septima-sim reads "
            f"{SCHEMA_VERSION}; regenerate it with `septima-sim baseline CONFIG --out {path}`"
        )
    try:
        _check_sum(path, data)
        config = dict(data["config"])
        if content is not None:
            config["content"] = str(content.resolve())
        exp = build(config, f"{path}: config")
        cells = data["cells"]
        seeds = codec.decode(data["seeds"]["data"])["seed"].to_numpy()
        outcomes = {
            cell_id: codec.decode(cell["outcomes"]).with_row_index("game_index").cast({"game_index": pl.Int32})
            for cell_id, cell in cells.items()
        }
    except ExperimentError as exc:
        raise RegressionInputError(str(exc)) from None
    except RegressionInputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, pl.exceptions.PolarsError) as exc:
        raise RegressionInputError(f"{path}: malformed baseline ({type(exc).__name__}: {exc})") from None
    head = [runner.game_seed(exp.config.seed, i) for i in range(min(len(seeds), SEEDS_CHECKED_ON_READ))]
    if head != seeds[: len(head)].tolist():
        raise RegressionInputError(f"{path}: the seed derivation changed since this baseline; regenerate it")
    if sorted(cells) != sorted(c.id for c in exp.cells):
        raise RegressionInputError(f"{path}: the config's cells no longer match the baseline's; regenerate it")
    _validate(path, exp, seeds, outcomes)
    meta = {k: v for k, v in data.items() if k not in ("cells", "seeds", "config")}
    return Baseline(path, exp, outcomes, seeds, meta)


def _check_sum(path: Path, data: dict[str, Any]) -> None:
    """The outcome data must be exactly what ``baseline`` wrote (its checksum)."""
    stored = data.get("outcomes_sha256")
    if not isinstance(stored, str) or not stored:
        raise RegressionInputError(f"{path}: the baseline has no outcomes checksum; regenerate it")
    if outcomes_checksum(data) != stored:
        raise RegressionInputError(f"{path}: the outcome data does not match its checksum (edited or truncated)")


def _validate(path: Path, exp: Experiment, seeds: np.ndarray, outcomes: Outcomes) -> None:
    """Every cell holds one outcome per game of the config and every column its metrics need."""
    games = exp.config.games_per_cell
    if len(seeds) != games:
        raise RegressionInputError(f"{path}: {len(seeds)} seeds for {games} games per cell")
    for cell in exp.cells:
        frame = outcomes[cell.id]
        if frame.height != games:
            raise RegressionInputError(f"{path}: cell {cell.id} has {frame.height} outcomes for {games} games")
        missing = sorted(required_columns(cell) - set(frame.columns))
        if missing:
            raise RegressionInputError(f"{path}: cell {cell.id} lacks the outcome column(s) {', '.join(missing)}")
