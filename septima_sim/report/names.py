"""How the report names seats and settings for people: seats by colour (RULINGS S1: seat 0..3 = Green, Orange,
Purple, Gray) and, with Shapeshifting, the animals the seat actually held in the run ("Gray (Goat/Hare)"; after a
swap of tiles by content overrides or ``ablate --arms swap``, the swapped tiles); a setting as a phrase ("at 4
players with Shapeshifting, suspicion.start=1")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from septima_sim.analysis.cells import override_text
from septima_sim.content import ContentError, load_content
from septima_sim.engine.config import COLOURS


class SeatNames:
    """Seat names of one run: colours from the engine; animals from the tiles each seat held in the run's games
    (``players``' ``animals`` column, when every Shapeshifting game dealt the seat the same tiles), else from the
    run's content pack (when it loads), named as the pack names them."""

    def __init__(self, content_dir: str | None, players: pl.LazyFrame | None = None) -> None:
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

    def __call__(self, seat: int, shapeshifting: bool | None = False) -> str:
        if not 0 <= seat < len(COLOURS):
            return f"Seat {seat}"
        colour = COLOURS[seat]
        animals = self.animals.get(colour) if shapeshifting else None
        name = colour.title()
        return f"{name} ({'/'.join(sorted(animals))})" if animals else name


def _held(players: pl.LazyFrame | None) -> dict[int, list[str]]:
    """Seat -> the animal tile ids it held, for the seats dealt the same tiles in every game that dealt tiles."""
    if players is None or "animals" not in players.collect_schema().names():
        return {}
    sets = (
        players.filter(pl.col("animals").list.len() > 0)
        .select("seat", pl.col("animals").list.sort())
        .unique()
        .collect()
    )
    counts = sets.group_by("seat").len()
    single = set(counts.filter(pl.col("len") == 1)["seat"].to_list())
    return {int(s): list(a) for s, a in sets.iter_rows() if s in single}


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
