"""How the report names seats and settings for people: seats by colour (RULINGS S1: seat 0..3 = Green, Orange,
Purple, Gray) and, with the module that has animals on, the animals the seat actually held in the run ("Gray
(Goat/Hare)"; after a swap of tiles by content overrides or ``ablate --arms swap``, the swapped tiles); a setting as a
phrase ("at 4 players with Shapeshifting, suspicion.start=1"), its modules from the run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from septima_sim.analysis.cells import override_text
from septima_sim.analysis.expansions import Module
from septima_sim.content import ContentError, load_content
from septima_sim.engine.config import COLOURS

ANIMALS = "animals"
"""The players column of the animals a seat played with (a component family of the module that has them)."""


class SeatNames:
    """Seat names of one run: colours from the engine; animals, in the rows where the module whose components are
    the animals is on, from the tiles each seat held in the run's games (``players``' ``animals`` column, when every
    game that dealt tiles dealt the seat the same ones), else from the run's content pack (when it loads)."""

    def __init__(
        self, content_dir: str | None, modules: Sequence[Module] = (), players: pl.LazyFrame | None = None
    ) -> None:
        self.flags = [m.axis for m in modules if any(k.column == ANIMALS for k in m.kinds)]
        self.animals: dict[str, list[str]] = {}
        self.tile_names: dict[str, str] = {}
        try:
            pack = load_content(content_dir)
        except ContentError:
            pack = None
        for animal in pack.animals if pack is not None else ():
            self.animals.setdefault(animal.colour, []).append(animal.name)
            self.tile_names[animal.id] = animal.name
        for seat, held in _held(players).items():
            if seat < len(COLOURS):
                self.animals[COLOURS[seat]] = [self.tile(t) for t in held]

    def tile(self, ident: str) -> str:
        """An animal tile's name (``Fox``) from its id."""
        return self.tile_names.get(ident, ident.replace("-", " ").title())

    def __call__(self, seat: int, row: Mapping[str, Any] | None = None) -> str:
        """The seat's name in a row of a table (its module columns say whether the seat had animals)."""
        if not 0 <= seat < len(COLOURS):
            return f"Seat {seat}"
        colour = COLOURS[seat]
        shapes = row is not None and any(row.get(f) for f in self.flags)
        animals = self.animals.get(colour) if shapes else None
        name = colour.title()
        return f"{name} ({'/'.join(sorted(animals))})" if animals else name


def _held(players: pl.LazyFrame | None) -> dict[int, list[str]]:
    """Seat -> the animal tile ids it held, for the seats dealt the same tiles in every game that dealt tiles."""
    if players is None or ANIMALS not in players.collect_schema().names():
        return {}
    sets = players.filter(pl.col(ANIMALS).list.len() > 0).select("seat", pl.col(ANIMALS).list.sort()).unique().collect()
    counts = sets.group_by("seat").len()
    single = set(counts.filter(pl.col("len") == 1)["seat"].to_list())
    return {int(s): list(a) for s, a in sets.iter_rows() if s in single}


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
