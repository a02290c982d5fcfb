"""The expansion modules as the analysis sees them, in one place: each module's boolean axis, its display name, the
axes its off cells do not share with its on cells, and the component families that exist only with it.

Adding a module to the analysis (and the report) means adding one entry here; the engine-side registry can feed
this table later."""

from __future__ import annotations

from dataclasses import dataclass


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


MODULES: tuple[Module, ...] = (
    Module("shapeshifting", "Shapeshifting", kinds=(Kind("animal", "animals", only_when="shapeshifting"),)),
    Module(
        "omens",
        "Omens",
        unpaired_axes=("omen_deck",),
        kinds=(Kind("omen half", "omen_halves", game_level=True, only_when="omens"),),
    ),
)
AXES: tuple[str, ...] = tuple(m.axis for m in MODULES)


def title(axis: str) -> str:
    """The display name of a module axis."""
    return next(m.title for m in MODULES if m.axis == axis)
