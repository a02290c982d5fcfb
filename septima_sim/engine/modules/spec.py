"""What a rules module declares about itself: one ``ModuleSpec`` per module, collected in ``MODULES``.

Everything outside the engine that needs to know which modules exist (experiment axes, cell ids, the store schema,
regression keys, the CLI flags, analysis and report breakdowns) reads this registry instead of naming modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

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
class ModuleSpec:
    """A module: its name (also ``GameConfig.modules`` entry and the games-table flag column), the short token a cell
    id uses, whether it needs the Full game, the player counts it plays with (``automatic``: on whenever the count
    allows, like the solo opponent), its result columns (one games row, one players row per seat), the fields every
    ``action`` event carries (at their defaults while the module is off), the fields it adds to other events while
    on, and the factory of its per-game ``Module`` object."""

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


MODULES: dict[str, ModuleSpec] = {}
"""Every known module by name, in hook order (the order their hooks run in when several are on)."""


class Columns:
    """What every game's results and action events carry for the registered modules, at the modules-off values."""

    __slots__ = ("action", "game", "player")

    def __init__(self, specs: list[ModuleSpec]) -> None:
        self.game = tuple((c.name, c.default) for s in specs for c in s.game_columns)
        self.player = tuple((c.name, c.default) for s in specs for c in s.player_columns)
        self.action = {c.name: c.default for s in specs for c in s.action_fields}


_COLUMNS: list[Columns] = []
VALIDATED: set[object] = set()
"""Game configurations that passed ``GameConfig.validate`` with the modules registered now (a Game validates its
config, and the games of a cell share one)."""


def columns() -> Columns:
    """The registered modules' columns (computed once per registry change)."""
    if not _COLUMNS:
        _COLUMNS.append(Columns(list(MODULES.values())))
    return _COLUMNS[0]


def register_module(spec: ModuleSpec) -> None:
    """Add a module to ``MODULES`` (a plugin or a test module; the built-in ones register in ``modules/__init__``)."""
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
