"""The expansion modules as the analysis sees them, in one place: each module's boolean axis, its display name, the
axes its off cells do not share with its on cells, and the component families that exist only with it.

Built from the engine's ``MODULES`` registry (its ``ModuleSpec`` declares the title, owned axes and component
families): a module registered there is in the analysis and the report with no change here."""

from __future__ import annotations

from dataclasses import dataclass

from septima_sim.engine.modules import toggled


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
    """An optional module: ``axis`` is its boolean column in games and players."""

    axis: str
    title: str
    unpaired_axes: tuple[str, ...] = ()
    """Axes whose value differs between the module's off and on cells (not matched when pairing them)."""
    kinds: tuple[Kind, ...] = ()


MODULES: tuple[Module, ...] = tuple(
    Module(
        spec.name,
        spec.title or spec.name.capitalize(),
        unpaired_axes=tuple(axis for axis, _ in spec.cell_axes),
        kinds=tuple(Kind(c.name, c.column, game_level=c.game_level, only_when=spec.name) for c in spec.components),
    )
    for spec in toggled()
)
"""The modules a user switches, from the engine's registry (``engine.modules.MODULES``)."""
AXES: tuple[str, ...] = tuple(m.axis for m in MODULES)


def title(axis: str) -> str:
    """The display name of a module axis."""
    return next(m.title for m in MODULES if m.axis == axis)
