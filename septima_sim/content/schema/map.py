"""map.toml: the hexagonal areas of the board (axial q, r), their ingredient and features, and patient spaces."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.schema.common import Element, Fault, Id, Ingredient, Provenance, Schema, Sourced


class Area(Schema):
    """One area: position, printed ingredient, features (river, town, hospital, outcrop, shrine element)."""

    q: Annotated[int, Field(ge=-10, le=10)]
    r: Annotated[int, Field(ge=-10, le=10)]
    ingredient: Ingredient | None = None
    river: bool = False
    town: bool = False
    hospital: bool = False
    outcrop: bool = False
    shrine: Element | None = None
    # "<flag>-<number>": patients of that flag colour fill the spaces in number order
    patient_spaces: list[Annotated[str, Field(pattern=r"^[a-z]+-[0-9]+$")]] = Field(default_factory=list)


class Map(Sourced):
    """The board: areas keyed by id, no two at the same position."""

    provenance: Provenance
    areas: Annotated[dict[Id, Area], Field(min_length=1)]

    @model_validator(mode="after")
    def _positions(self) -> Map:
        seen: set[tuple[int, int]] = set()
        for ident, a in self.areas.items():
            if (a.q, a.r) in seen:
                raise Fault(("areas", ident), f"two areas at ({a.q}, {a.r})")
            seen.add((a.q, a.r))
        return self


class MapFile(Schema):
    """map.toml."""

    map: Map
