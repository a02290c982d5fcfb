"""The run directory: Parquet schema, atomic shard files, the manifest and the readers.

Layout (docs/outputs.md)::

    <run>/manifest.json  config.toml
    <run>/games/cell=<id>/part-<n>.parquet     players/...  events/...  (hive-style, one file per shard)
    <run>/errors/part-<cell>-<n>.parquet
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import polars as pl

from septima_sim.engine.modules import MODULES, flag_columns, owned_axes
from septima_sim.engine.results import FAMILIES, SOURCES

TABLES: tuple[str, ...] = ("games", "players", "events", "errors")
MANIFEST_SCHEMA = "septima-sim-run"
"""The ``schema`` key of every run manifest: what ``--force``, ``--resume`` and ``report`` recognise as a run."""
SCHEMA_VERSION = 3
"""2: the players table gained ``wisdom_from_<family>`` and ``components``, the events table ``cause`` and before/after
values (#13); 3: the events table gained ``changes`` (#26); a run of another version is refused by ``report`` and
``--resume`` (its shards would not mix)."""

COLUMN_TYPES: dict[str, pl.DataType] = {
    "bool": pl.Boolean(),
    "int8": pl.Int8(),
    "int16": pl.Int16(),
    "str": pl.String(),
    "list[str]": pl.List(pl.String()),
    "list[int8]": pl.List(pl.Int8()),
}
"""The store type of each value kind a module column declares (``engine.modules.spec.COLUMN_KINDS``)."""


def _module_columns(table: str, automatic: bool | None = None) -> dict[str, pl.DataType]:
    """The columns the registered modules add to a table (``game``, ``player``, ``action`` or other ``event``
    records), in registry order; ``automatic`` picks the toggled (False) or the automatic (True) modules only."""
    out: dict[str, pl.DataType] = {}
    for spec in MODULES.values():
        if automatic is None or spec.automatic == automatic:
            cols = {
                "game": spec.game_columns,
                "player": spec.player_columns,
                "action": spec.action_fields,
                "event": spec.event_fields,
            }[table]
            out.update((c.name, COLUMN_TYPES[c.kind]) for c in cols)
    return out


_KEYS: dict[str, pl.DataType] = {"run_id": pl.String(), "cell_id": pl.String(), "game_index": pl.Int32()}

GAMES: dict[str, pl.DataType] = {
    **_KEYS,
    "seed": pl.Int64(),
    "players": pl.Int8(),
    "mode": pl.String(),
    **dict.fromkeys(flag_columns(), pl.Boolean()),
    **{axis.name: pl.String() for axis in owned_axes()},
    "lineup": pl.String(),
    **_module_columns("game", automatic=False),
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
    **_module_columns("game", automatic=True),
}
"""games: one row per game; every override axis is appended as a further column named by its dotted path. The
module columns come from ``engine.modules.MODULES``: one flag per module, the axes the modules own (``ModuleSpec.axes``:
``omen_deck``), then the columns each module declares (the toggled modules' after the cell columns, the automatic
ones' last)."""

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
    **{f"wisdom_from_{f}": pl.Int16() for f in FAMILIES},
    "components": pl.List(pl.Struct({"component": pl.String(), "wisdom": pl.Int16()})),
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
    **_module_columns("player"),
}
"""players: one row per (game, seat). ``healed_<disease>``, ``brewed_<potion>``, ``played_<action>`` are Int16.
``wisdom_<source>`` (how the Wisdom was scored) and ``wisdom_from_<family>`` (which kind of component gave it) each
sum to ``wisdom``; ``components`` lists the Wisdom per cause id (``witch:johanna``, ``action:plead``, ...)."""
_COUNT_PREFIXES = ("healed_", "brewed_", "played_", "wisdom_")

EVENTS: dict[str, pl.DataType] = {
    **_KEYS,
    "season": pl.Int8(),
    "turn": pl.Int8(),
    "step": pl.String(),
    "seat": pl.Int8(),
    "kind": pl.String(),
    "cause": pl.String(),
    "action": pl.String(),
    "matched_players": pl.Int8(),
    "matched_septima": pl.Boolean(),
    "matched_other": pl.String(),
    **_module_columns("action"),
    "suspicion_before": pl.Int16(),
    "suspicion_after": pl.Int16(),
    "wisdom_before": pl.Int16(),
    "wisdom_after": pl.Int16(),
    **_module_columns("event"),
    "detail": pl.String(),
    "changes": pl.String(),
}
"""events: one row per engine event (only with ``--events``); keys the engine adds beyond these are dropped.
``changes`` is the JSON text of ``{field: [before, after]}`` for every public field the event changed
(``septima_sim.events.fold`` reads it)."""

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
        if isinstance(sample, dict) and dtype == pl.String():  # a mapping as JSON text (events: ``changes``)
            data[name] = pl.Series(name, [None if v is None else json.dumps(v) for v in values], dtype=dtype)
        elif isinstance(dtype, pl.List) and isinstance(dtype.inner, pl.Struct):
            data[name] = pl.Series(name, values, dtype=dtype)
        elif dtype.is_nested():
            data[name] = _list_series(name, values, dtype)
        else:
            data[name] = pl.Series(name, values, dtype=dtype)
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


def _write_then_rename(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """Write through ``<path>.partial`` then rename over ``path``; the partial file never survives a failure."""
    tmp = path.with_name(path.name + ".partial")
    try:
        with tmp.open("wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_all(f: BinaryIO, data: bytes) -> None:
    f.write(data)


def write_atomic(path: Path, data: bytes) -> str:
    """Write bytes to ``<path>.partial`` then rename over ``path``; returns the sha256 of the data."""
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_then_rename(path, lambda f: _write_all(f, data))
    return hashlib.sha256(data).hexdigest()


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write a JSON document atomically (the manifest is rewritten after every shard)."""
    text = json.dumps(obj, indent=1, sort_keys=True, default=str).encode()
    _write_then_rename(path, lambda f: _write_all(f, text))


class RunDirError(ValueError):
    """A directory that is not a usable septima-sim run (no manifest, a foreign or unreadable one): exit code 2."""


class RunVersionError(RunDirError):
    """A septima-sim run of another table schema version (``SCHEMA_VERSION``): not reported, resumed or rebuilt."""


def is_run_manifest(manifest: object) -> bool:
    """Whether a parsed manifest.json was written by septima-sim (schema key, a version number and shards), of this
    or another schema version (``--force`` may replace either)."""
    return (
        isinstance(manifest, dict)
        and manifest.get("schema") == MANIFEST_SCHEMA
        and isinstance(manifest.get("schema_version"), int)
        and isinstance(manifest.get("shards"), dict)
    )


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The manifest of a run directory; RunDirError if it is missing, unreadable or not a septima-sim manifest."""
    path = run_dir / "manifest.json"
    if not path.is_file():
        raise RunDirError(f"{run_dir}: not a run directory (no manifest.json)")
    manifest = _manifest_json(run_dir)
    if not is_run_manifest(manifest):
        raise RunDirError(
            f"{path}: not a septima-sim run manifest (needs schema {MANIFEST_SCHEMA!r}, version {SCHEMA_VERSION})"
        )
    if manifest["schema_version"] != SCHEMA_VERSION:
        raise RunVersionError(
            f"{path}: a run of table schema {manifest['schema_version']}, this septima-sim reads {SCHEMA_VERSION} "
            "(the tables gained columns): play it again with `septima-sim run`"
        )
    return manifest


def file_sha256(path: Path) -> str | None:
    """The sha256 of a file's bytes, or None if it cannot be read."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def shard_problem(run_dir: Path, shard: dict[str, Any]) -> str | None:
    """What is wrong with a finished shard's files (missing, or bytes that differ from the manifest), or None."""
    for info in shard.get("files", {}).values():
        path = run_dir / info["path"]
        if not path.is_file():
            return f"{info['path']}: missing"
        if file_sha256(path) != info["sha256"]:
            return f"{info['path']}: sha256 differs from the manifest (truncated or modified)"
    return None


@dataclass(frozen=True, slots=True)
class RunDamage:
    """What ``verify_run`` found: one problem per bad shard, and the games missing out of the run's total."""

    problems: list[str]
    missing_games: int
    total_games: int

    @property
    def damaged(self) -> bool:
        return bool(self.problems) or self.missing_games > 0


def verify_run(run_dir: Path) -> RunDamage:
    """Check every finished shard of the manifest against its files' sha256; count the games not (validly) written.

    Raises RunDirError when the directory has no septima-sim manifest at all."""
    manifest = read_manifest(run_dir)
    problems: list[str] = []
    good = 0
    for shard in manifest["shards"].values():
        problem = shard_problem(run_dir, shard)
        if problem is None:
            good += int(shard.get("games", 0))
        else:
            problems.append(problem)
    config = manifest.get("config") or {}
    total = int(config.get("games_per_cell", 0)) * len(manifest.get("cells") or [])
    return RunDamage(problems, max(total - good, 0), total)


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


def scan(run_dir: Path | str, table: str, exclude: frozenset[Path] = frozenset()) -> pl.LazyFrame | None:
    """A lazy frame over one table of a run (hive column ``cell`` included), or None if it has no files; files in
    ``exclude`` (damaged shards) are left out."""
    root = Path(run_dir) / table
    pattern = "*.parquet" if table == "errors" else "cell=*/*.parquet"
    files = sorted(root.glob(pattern))
    kept = [f for f in files if f not in exclude]
    if not kept:
        return None
    source: Path | list[Path] = root / pattern if len(kept) == len(files) else kept
    return pl.scan_parquet(source, hive_partitioning=table != "errors")


def first_error(run_dir: Path | str) -> str:
    """``; first: <error>; replay it with: <command>`` for the first game that raised in a run (by cell and game
    index), to end a "games raised" line; "" when no game raised."""
    errors = scan(run_dir, "errors")
    if errors is None:
        return ""
    first = errors.select("cell_id", "game_index", "error", "replay").sort("cell_id", "game_index").head(1).collect()
    return f"; first: {first['error'][0]}; replay it with: {first['replay'][0]}" if first.height else ""


def damaged_files(run_dir: Path, manifest: dict[str, Any]) -> frozenset[Path]:
    """The files of every shard whose files do not match the manifest (see ``shard_problem``)."""
    return frozenset(
        run_dir / info["path"]
        for shard in manifest["shards"].values()
        if shard_problem(run_dir, shard) is not None
        for info in shard["files"].values()
    )


def load(run_dir: Path | str) -> RunData:
    """Open a run directory: ``septima_sim.load("runs/x").games.filter(...).collect()``. Shards whose files do not
    match the manifest's sha256 are left out (``verify_run`` says which)."""
    run_dir = Path(run_dir)
    if not (run_dir / "manifest.json").is_file():
        raise FileNotFoundError(f"{run_dir}: not a run directory (no manifest.json)")
    manifest = _manifest_json(run_dir)
    bad = damaged_files(run_dir, manifest) if is_run_manifest(manifest) else frozenset()
    games, players = scan(run_dir, "games", bad), scan(run_dir, "players", bad)
    return RunData(
        games if games is not None else pl.LazyFrame(schema=GAMES),
        players if players is not None else pl.LazyFrame(schema=PLAYERS),
        scan(run_dir, "events", bad),
        scan(run_dir, "errors", bad),
        manifest,
    )


def _manifest_json(run_dir: Path) -> dict[str, Any]:
    """The manifest as JSON, however it was written (``read_manifest`` also checks it is a septima-sim one)."""
    path = run_dir / "manifest.json"
    try:
        manifest: dict[str, Any] = json.loads(path.read_bytes())
        return manifest
    except (OSError, ValueError) as exc:
        raise RunDirError(f"{path}: unreadable or truncated manifest ({type(exc).__name__})") from None
