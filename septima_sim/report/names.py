"""How the report names seats and settings for people: seats by colour (RULINGS S1: seat 0..3 = Green, Orange,
Purple, Gray) and, with Shapeshifting, the colour's animals ("Gray (Goat/Hare)"); a setting as a phrase ("at 4
players with Shapeshifting, suspicion.start=1")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from septima_sim.analysis.cells import override_text
from septima_sim.content import ContentError, load_content
from septima_sim.engine.config import COLOURS


class SeatNames:
    """Seat names of one run: colours from the engine, animals from the run's content pack (when it loads)."""

    def __init__(self, content_dir: str | None) -> None:
        self.animals: dict[str, list[str]] = {}
        try:
            pack = load_content(content_dir)
        except ContentError:
            return
        for animal in pack.animals:
            self.animals.setdefault(animal.colour, []).append(animal.name)

    def __call__(self, seat: int, shapeshifting: bool | None = False) -> str:
        if not 0 <= seat < len(COLOURS):
            return f"Seat {seat}"
        colour = COLOURS[seat]
        animals = self.animals.get(colour) if shapeshifting else None
        name = colour.title()
        return f"{name} ({'/'.join(sorted(animals))})" if animals else name


def setting_phrase(row: Mapping[str, Any], axes: Sequence[str]) -> str:
    """``at 4 players with Shapeshifting and Omens, suspicion.start=1`` (Basic game and fixed Omen decks named)."""
    modules = [m for m, on in (("Shapeshifting", row.get("shapeshifting")), ("Omens", row.get("omens"))) if on]
    deck = row.get("omen_deck")
    if row.get("omens") and deck not in (None, "random", "none"):
        modules[-1] = f"Omens (deck {deck})"
    text = f"at {row['players']} players"
    if row.get("mode") == "basic":
        text += " in the Basic game"
    else:
        text += f" with {' and '.join(modules)}" if modules else " without modules"
    values = [f"{a}={override_text(row[a])}" for a in axes if a in row]
    return text + (f", {', '.join(values)}" if values else "")
