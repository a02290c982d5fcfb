"""How the report names seats and settings for people: seats by colour (RULINGS S1: seat 0..3 = Green, Orange,
Purple, Gray) and, with the module that has animals on, the colour's animals ("Gray (Goat/Hare)"); a setting as a
phrase ("at 4 players with Shapeshifting, suspicion.start=1"), its modules from the run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from septima_sim.analysis.cells import override_text
from septima_sim.analysis.expansions import Module
from septima_sim.content import ContentError, load_content
from septima_sim.engine.config import COLOURS

ANIMALS = "animals"
"""The players column of the animals a seat played with (a component family of the module that has them)."""


class SeatNames:
    """Seat names of one run: colours from the engine, animals from the run's content pack (when it loads) in the
    rows where the module whose components are the animals is on."""

    def __init__(self, content_dir: str | None, modules: Sequence[Module] = ()) -> None:
        self.flags = [m.axis for m in modules if any(k.column == ANIMALS for k in m.kinds)]
        self.animals: dict[str, list[str]] = {}
        try:
            pack = load_content(content_dir)
        except ContentError:
            return
        for animal in pack.animals:
            self.animals.setdefault(animal.colour, []).append(animal.name)

    def __call__(self, seat: int, row: Mapping[str, Any] | None = None) -> str:
        """The seat's name in a row of a table (its module columns say whether the seat had animals)."""
        if not 0 <= seat < len(COLOURS):
            return f"Seat {seat}"
        colour = COLOURS[seat]
        shapes = row is not None and any(row.get(f) for f in self.flags)
        animals = self.animals.get(colour) if shapes else None
        name = colour.title()
        return f"{name} ({'/'.join(sorted(animals))})" if animals else name


def setting_phrase(row: Mapping[str, Any], axes: Sequence[str], modules: Sequence[Module] = ()) -> str:
    """``at 4 players with Shapeshifting and Omens, suspicion.start=1``: the run's toggled ``modules`` that are on
    (an axis one owns when set: ``Module.detail``), the Basic game named, the swept ``axes``."""
    on = [m.detail(row) for m in modules if not m.automatic and row.get(m.axis)]
    text = f"at {row['players']} players"
    if row.get("mode") == "basic":
        text += " in the Basic game"
    else:
        text += f" with {' and '.join(on)}" if on else " without modules"
    values = [f"{a}={override_text(row[a])}" for a in axes if a in row]
    return text + (f", {', '.join(values)}" if values else "")
