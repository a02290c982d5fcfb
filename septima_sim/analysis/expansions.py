"""The rules modules as the analysis sees them, in one place: each module's boolean axis, its display name, the
axes its off cells do not share with its on cells (with their value there), and the component families that exist
only with it.

Read from the run: its manifest records every module it was made with (``ModuleSpec.record``), so a run made with a
plugin module reads the same without the plugin registered. A run made before the manifest kept them reads the
engine's live registry (``engine.modules.MODULES``) instead."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from septima_sim.engine.modules import MODULES as SPECS


@dataclass(frozen=True, slots=True)
class Kind:
    """One family of components: the list column that holds them, its table and the rows it applies to."""

    name: str
    column: str
    game_level: bool = False
    only_when: str | None = None
    """A boolean column that must be true for the row to count (the module the component belongs to)."""


@dataclass(frozen=True, slots=True)
class Module:
    """A rules module of a run: ``axis`` is its boolean column in games and players (its name)."""

    axis: str
    title: str
    unpaired_axes: tuple[str, ...] = ()
    """Axes whose value differs between the module's off and on cells (not matched when pairing them)."""
    kinds: tuple[Kind, ...] = ()
    automatic: bool = False
    """Switched on by the player count (the solo opponent), not an experiment axis."""
    off_values: tuple[tuple[str, str], ...] = ()
    """Each unpaired axis with its value in the cells where the module is off."""
    version: str = "1"

    def detail(self, row: Mapping[str, Any]) -> str:
        """The module's name in a label for a row where it is on: ``Omens (deck a+b+c)`` when an axis it owns has a
        value set in the row (neither its off value nor ``random``), else its title."""
        word = [
            f"{axis.rsplit('_', 1)[-1]} {row[axis]}"
            for axis, off in self.off_values
            if row.get(axis) not in (None, off, "random")
        ]
        return f"{self.title} ({', '.join(word)})" if word else self.title


def _from_record(rec: Mapping[str, Any]) -> Module:
    name = str(rec["name"])
    axes = tuple((str(a), str(off)) for a, off in rec.get("cell_axes", ()))
    kinds = tuple(Kind(str(k), str(col), bool(level), only_when=name) for k, col, level in rec.get("components", ()))
    return Module(
        name,
        str(rec.get("title") or name.capitalize()),
        unpaired_axes=tuple(a for a, _ in axes),
        kinds=kinds,
        automatic=bool(rec.get("automatic", False)),
        off_values=axes,
        version=str(rec.get("version", "1")),
    )


def registered() -> tuple[Module, ...]:
    """The modules of the engine's live registry (the runner's side: a baseline check plays its games now)."""
    return tuple(_from_record(spec.record([])) for spec in SPECS.values())


def run_modules(manifest: Mapping[str, Any]) -> tuple[Module, ...]:
    """The modules a run was made with, toggled ones first (the order of its games columns)."""
    recorded = manifest.get("modules")
    mods = registered() if recorded is None else tuple(_from_record(r) for r in recorded)
    return tuple(m for m in mods if not m.automatic) + tuple(m for m in mods if m.automatic)


def toggled(modules: tuple[Module, ...]) -> tuple[Module, ...]:
    """The modules a user switches (experiment axes)."""
    return tuple(m for m in modules if not m.automatic)


def title(modules: tuple[Module, ...], axis: str) -> str:
    """The display name of a module axis."""
    return next((m.title for m in modules if m.axis == axis), axis)


MODULES: tuple[Module, ...] = toggled(registered())
"""The modules a user switches, from the engine's live registry (what a run made now has)."""
AXES: tuple[str, ...] = tuple(m.axis for m in MODULES)
