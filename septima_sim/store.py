"""The run directory: Parquet schema, atomic shard files, the manifest and the readers.

Layout (README, Outputs)::

    <run>/manifest.json  config.toml
    <run>/games/cell=<id>/part-<n>.parquet     players/...  events/...  (hive-style, one file per shard)
    <run>/errors/part-<cell>-<n>.parquet
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from septima_sim.engine.results import SOURCES

TABLES: tuple[str, ...] = ("games", "players", "events", "errors")
SCHEMA_VERSION = 1

_KEYS: dict[str, pl.DataType] = {"run_id": pl.String(), "cell_id": pl.String(), "game_index": pl.Int32()}

GAMES: dict[str, pl.DataType] = {
    **_KEYS,
    "seed": pl.Int64(),
    "players": pl.Int8(),
    "mode": pl.String(),
    "shapeshifting": pl.Boolean(),
    "omens": pl.Boolean(),
    "solo": pl.Boolean(),
    "omen_deck": pl.String(),
    "lineup": pl.String(),
    "omen_cards": pl.List(pl.String()),
    "omen_halves": pl.List(pl.String()),
    "winner_seats": pl.List(pl.Int8()),
    "winning_score": pl.Int16(),
    "margin": pl.Int16(),
    "tie": pl.Boolean(),
    "turns": pl.Int16(),
    "decisions": pl.Int32(),
    "start_player": pl.Int8(),
    "buildings": pl.List(pl.String()),
    "rules_version": pl.String(),
    "content_hash": pl.String(),
    "duration_ms": pl.Float32(),
    "tribulations_met": pl.Int8(),
    "tribulations": pl.List(pl.String()),
    "tribulations_failed": pl.List(pl.String()),
    "widow_wisdom": pl.Int16(),
    "widow_suspicion": pl.Int8(),
    "solo_won": pl.Boolean(),
}
"""games: one row per game; every override axis is appended as a further column named by its dotted path."""

_SMALL = pl.Int8()
PLAYERS: dict[str, pl.DataType] = {
    **_KEYS,
    "players": pl.Int8(),
    "seat": pl.Int8(),
    "colour": pl.String(),
    "policy": pl.String(),
    "wisdom": pl.Int16(),
    "rank": pl.Int8(),
    "won": pl.Boolean(),
    **{f"wisdom_{s}": pl.Int16() for s in SOURCES},
    "witches_start": _SMALL,
    "witches_end": _SMALL,
    "witches_lost": _SMALL,
    "witches_recruited": _SMALL,
    "suspicion_end": _SMALL,
    "suspicion_max": _SMALL,
    "overflows": _SMALL,
    "captures": _SMALL,
    "hunter_rolls": _SMALL,
    "trials_won": _SMALL,
    "spells_gained": _SMALL,
    "ritual_row": _SMALL,
    "matches_players": pl.Int16(),
    "matches_septima": pl.Int16(),
    "crowd_end": pl.Int16(),
    "charms_end": pl.Int16(),
    "resources_end": pl.Int16(),
    "witches": pl.List(pl.String()),
    "witches_drafted": pl.List(pl.String()),
    "spells": pl.List(pl.String()),
    "goals": pl.List(pl.String()),
    "goals_scored": pl.List(pl.String()),
    "animals": pl.List(pl.String()),
    "animals_used": pl.List(pl.String()),
    "shapeshifts": _SMALL,
    "turns_in_animal_form": _SMALL,
    "form_end": pl.String(),
}
"""players: one row per (game, seat). ``healed_<disease>``, ``brewed_<potion>``, ``played_<action>`` are Int16."""
_COUNT_PREFIXES = ("healed_", "brewed_", "played_", "wisdom_")

EVENTS: dict[str, pl.DataType] = {
    **_KEYS,
    "season": pl.Int8(),
    "turn": pl.Int8(),
    "step": pl.String(),
    "seat": pl.Int8(),
    "kind": pl.String(),
    "action": pl.String(),
    "matched_players": pl.Int8(),
    "matched_septima": pl.Boolean(),
    "matched_other": pl.String(),
    "form": pl.String(),
    "suspicion_before": pl.Int16(),
    "suspicion_after": pl.Int16(),
    "wisdom_before": pl.Int16(),
    "wisdom_after": pl.Int16(),
    "omen": pl.String(),
    "omen_half": pl.String(),
    "detail": pl.String(),
}
"""events: one row per engine event (only with ``--events``); keys the engine adds beyond these are dropped."""

ERRORS: dict[str, pl.DataType] = {
    **_KEYS,
    "seed": pl.Int64(),
    "error": pl.String(),
    "traceback": pl.String(),
    "replay": pl.String(),
}
"""errors: one row per game that raised, with the command that replays it."""

SCHEMAS: dict[str, dict[str, pl.DataType]] = {"games": GAMES, "players": PLAYERS, "events": EVENTS, "errors": ERRORS}


def override_dtype(values: Iterable[Any]) -> pl.DataType:
    """The column type of an override axis: Int64, Float64, Boolean or String (JSON for lists)."""
    vals = list(values)
    if all(isinstance(v, bool) for v in vals):
        return pl.Boolean()
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return pl.Int64()
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in vals):
        return pl.Float64()
    return pl.String()


def override_value(value: Any) -> Any:
    """How an override value is stored in its column (lists and tables as JSON text)."""
    return json.dumps(value) if isinstance(value, list | dict) else value


def _dtype(table: str, name: str, sample: Any, extra: dict[str, pl.DataType]) -> pl.DataType:
    fixed = SCHEMAS[table].get(name) or extra.get(name)
    if fixed is not None:
        return fixed
    if table == "players" and name.startswith(_COUNT_PREFIXES):
        return pl.Int16()
    if isinstance(sample, bool):
        return pl.Boolean()
    if isinstance(sample, int):
        return pl.Int32()
    if isinstance(sample, float):
        return pl.Float64()
    if isinstance(sample, list):
        return pl.List(pl.String())
    return pl.String()


_SEP = "\x1f"


def _list_series(name: str, values: list[Any], dtype: pl.DataType) -> pl.Series:
    """A list column, built through one joined string per row (much faster than polars' nested-list path)."""
    joined = pl.Series(name, [_SEP.join(map(str, v)) if v else None for v in values], dtype=pl.String())
    empty = pl.Series(name, [v is not None and not v for v in values], dtype=pl.Boolean())
    nested = pl.when(empty).then(pl.lit([], dtype=pl.List(pl.String()))).otherwise(joined.str.split(_SEP))
    return pl.select(nested.alias(name)).to_series().cast(dtype)


def frame(
    table: str, columns: dict[str, list[Any]], rows: int, extra: dict[str, pl.DataType] | None = None
) -> pl.DataFrame:
    """Build a table frame with explicit dtypes: documented columns first (missing ones null), then the rest."""
    extra = extra or {}
    schema_cols = SCHEMAS[table]
    names = list(schema_cols) + [c for c in columns if c not in schema_cols]
    if table == "events":
        names = list(schema_cols)
    data: dict[str, pl.Series] = {}
    for name in names:
        values = columns.get(name, [None] * rows)
        sample = next((v for v in values if v is not None), None)
        dtype = _dtype(table, name, sample, extra)
        data[name] = _list_series(name, values, dtype) if dtype.is_nested() else pl.Series(name, values, dtype=dtype)
    return pl.DataFrame(data, height=rows)


def parquet_bytes(df: pl.DataFrame) -> bytes:
    """A frame as zstd Parquet bytes (built in the worker; the driver only writes them)."""
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd")
    return buf.getvalue()


def shard_path(run_dir: Path, table: str, cell_id: str, part: int) -> Path:
    """Where a shard's file of one table lives."""
    if table == "errors":
        return run_dir / "errors" / f"part-{cell_id}-{part:05d}.parquet"
    return run_dir / table / f"cell={cell_id}" / f"part-{part:05d}.parquet"


def write_atomic(path: Path, data: bytes) -> str:
    """Write bytes to ``<path>.partial`` then rename over ``path``; returns the sha256 of the data."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".partial")
    with tmp.open("wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return hashlib.sha256(data).hexdigest()


def write_json_atomic(path: Path, obj: Any) -> None:
    tmp = path.with_name(path.name + ".partial")
    tmp.write_text(json.dumps(obj, indent=1, sort_keys=True, default=str))
    os.replace(tmp, path)


def read_manifest(run_dir: Path) -> dict[str, Any]:
    return json.loads((run_dir / "manifest.json").read_text())


def remove_partials(run_dir: Path) -> int:
    """Delete temporary files left by a crash; returns how many."""
    stale = list(run_dir.rglob("*.partial"))
    for p in stale:
        p.unlink()
    return len(stale)


@dataclass(frozen=True, slots=True)
class RunData:
    """Lazy frames over a run's tables (``events``/``errors`` are None when the run has none) and its manifest."""

    games: pl.LazyFrame
    players: pl.LazyFrame
    events: pl.LazyFrame | None
    errors: pl.LazyFrame | None
    manifest: dict[str, Any]


def scan(run_dir: Path | str, table: str) -> pl.LazyFrame | None:
    """A lazy frame over one table of a run (hive column ``cell`` included), or None if it has no files."""
    root = Path(run_dir) / table
    pattern = root / "*.parquet" if table == "errors" else root / "cell=*" / "*.parquet"
    if not any(root.glob(str(pattern.relative_to(root)))):
        return None
    return pl.scan_parquet(pattern, hive_partitioning=table != "errors")


def load(run_dir: Path | str) -> RunData:
    """Open a run directory: ``septima_sim.load("runs/x").games.filter(...).collect()``."""
    run_dir = Path(run_dir)
    if not (run_dir / "manifest.json").is_file():
        raise FileNotFoundError(f"{run_dir}: not a run directory (no manifest.json)")
    games, players = scan(run_dir, "games"), scan(run_dir, "players")
    return RunData(
        games if games is not None else pl.LazyFrame(schema=GAMES),
        players if players is not None else pl.LazyFrame(schema=PLAYERS),
        scan(run_dir, "events"),
        scan(run_dir, "errors"),
        read_manifest(run_dir),
    )
