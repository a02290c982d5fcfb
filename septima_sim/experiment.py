"""Experiment configs: a TOML matrix of game settings, validated with pydantic and expanded into cells.

A cell is one point of the matrix (player count, mode, modules, the axes the modules own such as the Omen deck,
lineup and one value per override axis).
Its id is built from its parameters, so the same config always yields the same cell ids.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

from septima_sim.content import Content, ContentError, load_content
from septima_sim.engine import ConfigError, GameConfig
from septima_sim.engine.modules import MODULES, Axis, toggled
from septima_sim.players import UnknownPolicyError, builtin_lineups, make_policy
from septima_sim.players.lineup import Lineup, LineupError
from septima_sim.tomlfile import read_toml

MODULE_AXES: tuple[str, ...] = tuple(spec.name for spec in toggled())
"""The modules a matrix switches on and off (``engine.modules.MODULES``, the ones that are not automatic)."""
OWNED: tuple[tuple[str, Axis], ...] = tuple((spec.name, axis) for spec in toggled() for axis in spec.axes)
"""The further axes the toggled modules own (``ModuleSpec.axes``; Omens: ``omen_deck``), each with its module."""
OWNED_AXES: tuple[str, ...] = tuple(axis.name for _, axis in OWNED)
AXES: tuple[str, ...] = ("players", "mode", *MODULE_AXES, *OWNED_AXES, "lineup")
"""The matrix axes, in cell-id order; override paths are further axes."""

Scalar = int | float | bool | str

MAX_GAMES_PER_CELL = 10_000_000
"""Upper bound of ``games_per_cell`` and ``--games`` (a run of more is several runs with other seeds)."""
MAX_SEED = 2**63 - 1
"""Upper bound of the root seed (seeds are stored as Int64)."""
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
"""Run names: letters, digits and ``- _ .``, starting with a letter or digit (they name the run directory)."""
LINEUP_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$"
"""Lineup names: letters, digits, ``-`` and ``_`` (they are part of cell ids, hence of file names)."""
CELL_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")
"""Every cell id, whatever a content pack's Omen ids are: safe as one path component and in a shell command."""

MAX_CELLS = 10_000
"""Upper bound of the cells of one experiment (the product of the matrix axes and override values)."""

LineupName = Annotated[str, Field(pattern=LINEUP_PATTERN)]


def _lineup_shape(value: Any) -> Any:
    """One clear message for a value that is neither form (pydantic would report both union members)."""
    Lineup.parse(value)
    return value


LineupValue = Annotated[
    Annotated[list[str], Field(min_length=1, max_length=4)]
    | Annotated[dict[Literal["pool"], Annotated[list[str], Field(min_length=1)]], Field(min_length=1)],
    BeforeValidator(_lineup_shape),
]
"""A ``[lineups]`` entry: one persona per seat (a list), or ``{ pool = [...] }`` filled by rotation (``Lineup``)."""


class ExperimentError(ValueError):
    """A config that cannot be run: the message names the file, the key and what is allowed."""


def _as_list(value: Any) -> Any:
    return value if isinstance(value, list) else [value]


class _MatrixCore(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    _wrap = field_validator("*", mode="before")(_as_list)


_MODULE_AXIS: Any = (Annotated[list[bool], Field(min_length=1)], [False])


def _owned_field(axis: Axis) -> Any:
    """The matrix field of an axis a module owns: a non-empty list of its ``schema`` values, ``default`` if left
    out."""
    values: Any = list.__class_getitem__(axis.schema)  # a type built at run time (mypy reads no variable as a type)
    return (Annotated[values, Field(min_length=1)], list(axis.default))


_MATRIX_FIELDS: dict[str, Any] = {
    "players": (Annotated[list[Annotated[int, Field(ge=1, le=4)]], Field(min_length=1)], [4]),
    "mode": (Annotated[list[Literal["full", "basic"]], Field(min_length=1)], ["full"]),
    **dict.fromkeys(MODULE_AXES, _MODULE_AXIS),
    **{axis.name: _owned_field(axis) for _, axis in OWNED},
    "lineup": (Annotated[list[LineupName], Field(min_length=1)], ["all-random"]),
}
_MATRIX_DOC = """The axes of an experiment; each takes a list of values (a single value is a one-item list): one boolean
axis per module a user switches (``MODULE_AXES``), then the axes those modules own (``OWNED_AXES``), both read
with ``getattr``, between ``mode`` and ``lineup``."""

if TYPE_CHECKING:

    class Matrix(_MatrixCore):
        players: list[int] = [4]
        mode: list[str] = ["full"]
        lineup: list[str] = ["all-random"]

else:
    Matrix = create_model("Matrix", __base__=_MatrixCore, __doc__=_MATRIX_DOC, **_MATRIX_FIELDS)


class ExperimentConfig(BaseModel):
    """One experiment file (see docs/config.md)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(pattern=NAME_PATTERN)]
    games_per_cell: Annotated[int, Field(gt=0, le=MAX_GAMES_PER_CELL)]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)]
    shard_size: Annotated[int, Field(gt=0, le=MAX_GAMES_PER_CELL)] = 1000
    content: str | None = None
    matrix: Matrix = Matrix()
    lineups: dict[LineupName, LineupValue] = {}
    exclude: list[dict[str, Scalar | list[Scalar]]] = []
    overrides: dict[str, Annotated[list[Any], Field(min_length=1)]] = {}

    @field_validator("overrides", mode="before")
    @classmethod
    def _wrap_overrides(cls, value: Any) -> Any:
        return {k: _as_list(v) for k, v in value.items()} if isinstance(value, dict) else value

    @model_validator(mode="after")
    def _override_combinations(self) -> ExperimentConfig:
        combinations = math.prod(len(values) for values in self.overrides.values())
        if combinations > MAX_CELLS:
            raise ValueError(f"overrides: {combinations:,} combinations of values (at most {MAX_CELLS:,} cells)")
        return self

    @model_validator(mode="after")
    def _exclude_keys(self) -> ExperimentConfig:
        allowed = [*AXES, *self.overrides]
        for i, rule in enumerate(self.exclude):
            for key in rule:
                if key not in allowed:
                    raise ValueError(f"exclude[{i}]: unknown axis {key!r} (allowed: {', '.join(allowed)})")
        return self


@dataclass(frozen=True, slots=True)
class Cell:
    """One point of the matrix; ``seats`` is the lineup before rotation (it fits ``players``)."""

    id: str
    players: int
    mode: str
    modules: frozenset[str]
    """The modules of ``MODULE_AXES`` that are on in this cell."""
    owned: tuple[tuple[str, str], ...]
    """The value of each axis of ``OWNED_AXES`` in this cell (its ``Axis.off`` value where its module is off)."""
    lineup: str
    seats: Lineup
    overrides: tuple[tuple[str, Any], ...]

    def __getattr__(self, name: str) -> Any:
        """A module axis by name (``cell.shapeshifting``: whether that module is on in this cell) or an axis a
        module owns (``cell.omen_deck``: its value in this cell)."""
        if name in MODULE_AXES:
            return name in self.modules
        if name in OWNED_AXES:
            return dict(self.owned)[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def game_config(self) -> GameConfig:
        """The rules of the cell's games: its modules, set up by the values of the axes they own."""
        settings: dict[str, Any] = {}
        options = []
        for (module, axis), (name, value) in zip(OWNED, self.owned, strict=True):
            if module in self.modules:
                options.append((name, value))
                settings.update(axis.configure(value) if axis.configure else {})
        return GameConfig(self.players, self.mode, modules=self.modules, options=tuple(options), **settings)

    def seat_personas(self, game_index: int) -> list[str]:
        """The persona of each seat in game ``game_index``: the lineup rotated by the game index."""
        return self.seats.seat_personas(self.lineup, self.players, game_index)

    def axis_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {"players": self.players, "mode": self.mode}
        values.update((name, name in self.modules) for name in MODULE_AXES)
        values.update(self.owned)
        values.update(lineup=self.lineup)
        values.update(self.overrides)
        return values


@dataclass(frozen=True, slots=True)
class Experiment:
    """A validated config with its cells, content folder and hash."""

    config: ExperimentConfig
    cells: tuple[Cell, ...]
    content_dir: Path | None
    hash: str

    def cell(self, cell_id: str) -> Cell:
        for c in self.cells:
            if c.id == cell_id:
                return c
        raise ExperimentError(f"no cell {cell_id!r} in this run (cells: {', '.join(c.id for c in self.cells)})")

    def module_records(self) -> list[dict[str, object]]:
        """Every registered module as the run's manifest records it (``ModuleSpec.record``), with the values its
        axis takes in this run's cells (an automatic module: whether the player count switches it on)."""
        out = []
        for spec in MODULES.values():
            on = {c.players in spec.players if spec.automatic else spec.name in c.modules for c in self.cells}
            out.append(spec.record(sorted(on)))
        return out

    def resolved(self) -> dict[str, Any]:
        """The config as it runs (CLI options applied, content folder absolute), for config.toml."""
        data = self.config.model_dump(exclude_none=True)
        if self.content_dir is not None:
            data["content"] = str(self.content_dir)
        return data


def _cell_id(
    players: int, mode: str, modules: frozenset[str], owned: tuple[str, ...], lineup: str, ov: tuple[object, ...]
) -> str:
    """``p4-full-ss1-om1-random-heuristic-mix``: each toggled module as its token and 0/1, in registry order, then
    the value of each axis the modules own (the Omen deck)."""
    flags = "".join(f"-{spec.token}{int(spec.name in modules)}" for spec in toggled())
    base = "-".join((f"p{players}-{mode}{flags}", *owned, lineup))
    if not ov:
        return base
    digest = hashlib.sha256(json.dumps(ov, sort_keys=True, default=str).encode()).hexdigest()[:8]
    return f"{base}-x{digest}"


def _excluded(values: dict[str, Any], rules: list[dict[str, Any]]) -> bool:
    return any(all(values[k] in (v if isinstance(v, list) else [v]) for k, v in rule.items()) for rule in rules)


def _format_validation(error: ValidationError) -> str:
    parts = []
    for err in error.errors(include_url=False):
        loc = ".".join(str(x) for x in err["loc"]) or "config"
        msg = err["msg"].removeprefix("Value error, ")
        got = f" (got {err['input']!r})" if err["type"] not in ("missing", "value_error") else ""
        parts.append(f"{loc}: {msg}{got}")
    return "; ".join(parts)


def build(data: dict[str, Any], source: str = "config", base_dir: Path | None = None) -> Experiment:
    """Validate a config mapping and expand it into cells; raises ExperimentError naming ``source`` and the key."""
    try:
        cfg = ExperimentConfig.model_validate(data)
    except ValidationError as exc:
        raise ExperimentError(f"{source}: {_format_validation(exc)}") from None
    content_dir = None
    if cfg.content is not None:
        content_dir = Path(cfg.content)
        if not content_dir.is_absolute() and base_dir is not None:
            content_dir = (base_dir / content_dir).resolve()
    try:
        pack = load_content(content_dir)
        for values in itertools.product(*cfg.overrides.values()):
            combination = dict(zip(cfg.overrides, values, strict=True))
            try:
                load_content(content_dir, combination)
            except ContentError as exc:
                where = ", ".join(f"{k} = {json.dumps(v)}" for k, v in combination.items())
                raise ContentError(f"overrides ({where}): {exc}") from None
    except ContentError as exc:
        raise ExperimentError(f"{source}: {exc}") from None
    lineups = {**builtin_lineups(), **{k: Lineup.parse(v) for k, v in cfg.lineups.items()}}
    for name in cfg.matrix.lineup:
        if name not in lineups:
            raise ExperimentError(f"{source}: matrix.lineup: unknown lineup {name!r} (known: {', '.join(lineups)})")
        for persona in lineups[name].personas:
            try:
                make_policy(persona)
            except UnknownPolicyError as exc:
                raise ExperimentError(f"{source}: lineup {name!r}: {exc}") from None
    m = cfg.matrix
    owned = [_expand(axis, getattr(m, axis.name), pack, source) for _, axis in OWNED]
    switches = [getattr(m, name) for name in MODULE_AXES]
    axes = (m.players, m.mode, *switches, *owned, m.lineup, *cfg.overrides.values())
    size = math.prod(len(axis) for axis in axes)
    if size > MAX_CELLS:
        raise ExperimentError(f"{source}: the matrix has {size:,} cells before exclusions (at most {MAX_CELLS:,})")
    cells = _cells(cfg, lineups, owned, source)
    if not cells:
        raise ExperimentError(f"{source}: the exclude rules leave no cell to play")
    hashed = cfg.model_dump()
    if content_dir is not None:  # as config.toml records it (absolute), so that `run --resume` finds the same hash
        hashed["content"] = str(content_dir)
    digest = hashlib.sha256(json.dumps(hashed, sort_keys=True).encode()).hexdigest()[:16]
    return Experiment(cfg, tuple(cells), content_dir, digest)


def _expand(axis: Axis, values: list[Any], pack: Content, source: str) -> list[str]:
    """The cell values of an axis a module owns, checked against the content pack (``Axis.expand``)."""
    try:
        return axis.expand(values, pack)
    except ValueError as exc:
        raise ExperimentError(f"{source}: matrix.{axis.name}: {exc}") from None


def _cells(cfg: ExperimentConfig, lineups: dict[str, Lineup], owned: list[list[str]], source: str) -> list[Cell]:
    m = cfg.matrix
    paths = list(cfg.overrides)
    cells: dict[str, Cell] = {}
    switches = itertools.product(*(getattr(m, name) for name in MODULE_AXES))
    grid = itertools.product(m.players, m.mode, switches, itertools.product(*owned), m.lineup)
    for (players, mode, on, values, lineup), ov_values in itertools.product(
        grid, itertools.product(*cfg.overrides.values())
    ):
        modules = frozenset(name for name, flag in zip(MODULE_AXES, on, strict=True) if flag)
        # an axis a module owns takes its off value where the module is off
        own = tuple(v if module in modules else axis.off for (module, axis), v in zip(OWNED, values, strict=True))
        ov = tuple(zip(paths, ov_values, strict=True))
        cell = Cell(
            _cell_id(players, mode, modules, own, lineup, ov),
            players,
            mode,
            modules,
            tuple(zip(OWNED_AXES, own, strict=True)),
            lineup,
            lineups[lineup],
            ov,
        )
        if cell.id in cells or _excluded(cell.axis_values(), cfg.exclude):
            continue
        if not CELL_ID.match(cell.id):
            raise ExperimentError(f"{source}: cell id {cell.id!r} is not a safe file name (check the Omen ids)")
        try:
            cell.seats.check_fits(lineup, players)
        except LineupError as exc:
            raise ExperimentError(f"{source}: cell {cell.id}: {exc}") from None
        try:
            cell.game_config().validate()
        except ConfigError as exc:
            raise ExperimentError(f"{source}: cell {cell.id}: {exc}") from None
        cells[cell.id] = cell
    return list(cells.values())


def default_config() -> Path:
    """``configs/default.toml``: inside the installed package, or at the root of a source checkout."""
    here = Path(__file__).resolve().parent
    packaged = here / "configs" / "default.toml"
    return packaged if packaged.is_file() else here.parent / "configs" / "default.toml"


def load_experiment(
    path: Path, *, games: int | None = None, seed: int | None = None, content: Path | None = None
) -> Experiment:
    """Read and validate a config file; CLI options override the file's values."""
    data = read_toml(path, ExperimentError, "config file")
    if games is not None:
        data["games_per_cell"] = games
    if seed is not None:
        data["seed"] = seed
    if content is not None:
        data["content"] = str(content.resolve())
    return build(data, str(path), path.parent)
