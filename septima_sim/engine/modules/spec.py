"""What a rules module declares about itself: one ``ModuleSpec`` per module, collected in ``MODULES``.

Everything outside the engine that needs to know which modules exist (experiment axes, cell ids, the store schema,
regression keys, the CLI flags, analysis and report breakdowns) reads this registry instead of naming modules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from septima_sim.engine.results import SOURCES

if TYPE_CHECKING:
    from septima_sim.engine.modules.base import Module

COLUMN_KINDS: Final = frozenset({"bool", "int8", "int16", "str", "list[str]", "list[int8]"})
"""Value kinds a module's result columns may declare (the store maps them to its column types)."""


@dataclass(frozen=True, slots=True)
class Column:
    """A result column a module adds: its name, its value kind (``COLUMN_KINDS``) and its value when the module is off
    (``None`` = null; a list default is copied per row)."""

    name: str
    kind: str
    default: Any = None  # not ``object``: a compiled dataclass cannot resolve that annotation at import


@dataclass(frozen=True, slots=True)
class Component:
    """A family of components that exist only with a module (the analysis ranks them): its name, the list column
    that holds them (per seat in players, or per game in games with ``game_level``), and the content namespace of
    its items (the report reads their provenance there)."""

    name: str
    column: str
    game_level: bool = False
    namespace: str = ""


@dataclass(frozen=True, slots=True)
class ReplayPart:
    """What the replay page shows of a module: the frame's entry ``key`` (null in games without the module), built by
    ``build(fields, content)`` from the module's public fields of owner ``owner`` in the folded event log
    (``septima_sim.events.seat_fields``), JSON-ready, names from the content."""

    key: str
    owner: str
    build: Callable[[dict[str, Any], Any], Any]


@dataclass(frozen=True, slots=True)
class Axis:
    """An experiment axis a module owns besides its on/off switch (Omens: ``omen_deck``). ``name`` is its matrix
    key (``matrix.<name>``), its part of every cell id (after the module tokens, in registry order), the ``Cell``
    attribute and its games column (a String, after the flag columns); ``schema`` is the pydantic type of one matrix
    value and ``default`` the matrix's values when the key is left out; ``off`` is its value in the cells where the
    module is off; ``expand(values, content)`` checks the matrix's values against the content pack and returns the
    cell values (strings safe in a cell id; a bad value raises ValueError with a one-line message). A cell where the
    module is on passes the value to its games as ``GameConfig.options`` (the module reads ``dict(options)``), and
    ``configure(value)``, if given, returns further ``GameConfig`` keyword arguments (Omens: ``omen_deck``)."""

    name: str
    schema: Any
    default: tuple[Any, ...]
    off: str
    expand: Callable[[list[Any], Any], list[str]]
    configure: Callable[[str], dict[str, Any]] | None = None


@dataclass(frozen=True, slots=True)
class ModuleSpec:
    """A module: its name (also ``GameConfig.modules`` entry and the games-table flag column), the short token a cell
    id uses, whether it needs the Full game, the player counts it plays with (``automatic``: on whenever the count
    allows, like the solo opponent), its result columns (one games row, one players row per seat), the fields every
    ``action`` event carries (at their defaults while the module is off), the fields it adds to other events while
    on, and the factory of its per-game ``Module`` object. For the consumers outside the engine: ``title`` (its display
    name), ``axes`` (further experiment axes it owns, ``Axis``: they differ between its off and on cells),
    ``components`` (families the analysis ranks), ``help`` (the CLI flag's help) and ``version`` (of its rules,
    recorded in every run's manifest: ``record``). A module that is not ``automatic`` is an experiment axis, a games
    column and a CLI flag of its name. The hooks the other layers call, each optional: ``observation`` (the fields it
    adds to the step environment's vector), ``summary`` (its line under a played game's text account), ``report``
    (its report section)."""

    name: str
    token: str
    factory: Callable[[], Module]
    full_only: bool = False
    players: tuple[int, ...] = (1, 2, 3, 4)
    automatic: bool = False
    game_columns: tuple[Column, ...] = ()
    player_columns: tuple[Column, ...] = ()
    action_fields: tuple[Column, ...] = ()
    event_fields: tuple[Column, ...] = ()
    title: str = ""
    axes: tuple[Axis, ...] = ()
    components: tuple[Component, ...] = ()
    help: str = ""
    version: str = "1"
    replay: ReplayPart | None = None
    wisdom_sources: tuple[str, ...] = ()
    """Sources of Wisdom the module books under (``Game.gain_wisdom(p, n, source)``) besides the base game's: each
    is a players column ``wisdom_<source>`` (0 while the module is off), and all sources still sum to ``wisdom``."""
    observation: Callable[[Any, Any], list[Any]] | None = None
    """``observation(content, board)``: the fields (``septima_sim.env.fields.Spec``) the module adds to every
    observation vector, written from its public view (``SealedView.modules[name]``), zero while it is off; the
    vector holds them in registry order. None: the module shows only as its flag in the ``modules`` field."""
    summary: Callable[[dict[str, Any]], str] | None = None
    """``summary(game_row)``: the line ``septima-sim play`` prints under its text account of a game with the module
    on (the games row of ``GameResult.game``)."""
    report: str = ""
    """The module's own report section, as ``package.module:function`` (imported by the report only):
    ``function(builder, run, name)`` adds it to the report when the run has games with the module on and returns
    its headline candidates (``septima_sim.report.headlines.Headline``)."""

    def __post_init__(self) -> None:
        have = {c.name for c in self.player_columns}  # (``dataclasses.replace`` passes them in again)
        own = tuple(Column(f"wisdom_{w}", "int16", 0) for w in self.wisdom_sources if f"wisdom_{w}" not in have)
        if own:
            object.__setattr__(self, "player_columns", (*self.player_columns, *own))

    @property
    def cell_axes(self) -> tuple[tuple[str, str], ...]:
        """Each axis the module owns with its value in the cells where the module is off."""
        return tuple((axis.name, axis.off) for axis in self.axes)

    @property
    def toggled(self) -> bool:
        """Switched on and off by the user (an experiment axis and a CLI flag), not by the player count."""
        return not self.automatic

    def record(self, values: Sequence[object]) -> dict[str, object]:
        """What a run's manifest keeps of the module (``manifest["modules"]``): what the analysis and the report
        need to read the run without the module registered, and ``values``, the ones its axis takes in the run."""
        return {
            "name": self.name,
            "version": self.version,
            "title": self.title or self.name.capitalize(),
            "token": self.token,
            "automatic": self.automatic,
            "cell_axes": [list(axis) for axis in self.cell_axes],
            "components": [[c.name, c.column, c.game_level] for c in self.components],
            "values": list(values),
        }


MODULES: dict[str, ModuleSpec] = {}
"""Every known module by name, in hook order (the order their hooks run in when several are on)."""


class Columns:
    """What every game's results and action events carry for the registered modules, at the modules-off values."""

    __slots__ = ("action", "game", "player", "sources")

    def __init__(self, specs: list[ModuleSpec]) -> None:
        self.game = tuple((c.name, c.default) for s in specs for c in s.game_columns)
        extra = [src for s in specs for src in s.wisdom_sources if src not in SOURCES]
        booked = {f"wisdom_{src}" for src in extra}  # written from Player.src, with the base game's sources
        self.player = tuple((c.name, c.default) for s in specs for c in s.player_columns if c.name not in booked)
        self.action = {c.name: c.default for s in specs for c in s.action_fields}
        self.sources = {src: i for i, src in enumerate((*SOURCES, *dict.fromkeys(extra)))}
        """Every Wisdom source to its index in ``Player.src``: the base game's, then the modules'."""


_COLUMNS: list[Columns] = []
VALIDATED: set[object] = set()
"""Game configurations that passed ``GameConfig.validate`` with the modules registered now (a Game validates its
config, and the games of a cell share one)."""


def toggled() -> list[ModuleSpec]:
    """The modules a user switches on (experiment axes, cell-id tokens, CLI flags), in registry order."""
    return [s for s in MODULES.values() if s.toggled]


def owned_axes() -> list[Axis]:
    """The experiment axes the toggled modules own (``ModuleSpec.axes``), in registry order: their order in cell
    ids, the matrix and the games table."""
    return [axis for s in toggled() for axis in s.axes]


def flag_columns() -> list[str]:
    """The games table's module columns (true when the module was on): the toggled modules, then the automatic ones
    (the order of the columns in every run's games files)."""
    return [s.name for s in toggled()] + [s.name for s in MODULES.values() if s.automatic]


def columns() -> Columns:
    """The registered modules' columns (computed once per registry change)."""
    if not _COLUMNS:
        _COLUMNS.append(Columns(list(MODULES.values())))
    return _COLUMNS[0]


MATRIX_AXES: Final = ("players", "mode", "lineup")
"""The experiment matrix's own axes (no module's name or axis may take one)."""
NAME_PATTERN: Final = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
"""A module's name and token: they become a games column, a matrix axis, a CLI value and part of cell ids."""


def register_module(spec: ModuleSpec) -> None:
    """Add a module to ``MODULES`` (a plugin or a test module; the built-in ones register in ``modules/__init__``).
    Raises ValueError for a name or token that is not a safe identifier or is taken, or an unknown column kind."""
    named = [("name", spec.name), ("token", spec.token), *(("Wisdom source", w) for w in spec.wisdom_sources)]
    named += [("axis", axis.name) for axis in spec.axes]
    for what, value in named:
        if not NAME_PATTERN.match(value):
            raise ValueError(f"module {spec.name!r}: {what} {value!r} is not lowercase letters, digits and _")
    for axis in spec.axes:
        if axis.name in MATRIX_AXES or axis.name == spec.name:
            raise ValueError(f"module {spec.name}: axis {axis.name!r} is taken by the experiment matrix")
    for other in MODULES.values():
        if other.name != spec.name and spec.token == other.token:
            raise ValueError(f"module {spec.name}: token {spec.token!r} is taken by module {other.name}")
        taken = {other.name, *(axis.name for axis in other.axes)} if other.name != spec.name else set()
        for axis in spec.axes:
            if axis.name in taken:
                raise ValueError(f"module {spec.name}: axis {axis.name!r} is taken by module {other.name}")
    for col in (*spec.game_columns, *spec.player_columns, *spec.action_fields, *spec.event_fields):
        if col.kind not in COLUMN_KINDS:
            raise ValueError(f"module {spec.name}: column {col.name} has unknown kind {col.kind!r}")
    MODULES[spec.name] = spec
    _COLUMNS.clear()
    VALIDATED.clear()


def unregister_module(name: str) -> None:
    """Remove a module from ``MODULES`` (tests registering a module of their own clean up with this)."""
    MODULES.pop(name, None)
    _COLUMNS.clear()
    VALIDATED.clear()
