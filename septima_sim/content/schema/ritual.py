"""ritual.toml: the ritual track (columns of elements, rows of action icons) and its ribbon rows (B26)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.schema.common import ActionId, Count, Effect, Element, Fault, Provenance, Schema, Sourced
from septima_sim.content.schema.rules import RitualRules


class Ribbon(Schema):
    """A ribbon row: ingredients offered to enter it and its rewards."""

    offering: Count = 0
    rewards: list[Effect] = Field(default_factory=list)


class Ritual(RitualRules, Sourced):
    """The ``ritual`` table: rules.toml's numbers (top_wisdom, offering) and ritual.toml's track."""

    provenance: Provenance
    columns: Annotated[list[Annotated[list[Element], Field(min_length=1)]], Field(min_length=1)]
    start_column: Annotated[int, Field(ge=0)]
    rows: Annotated[list[list[ActionId]], Field(min_length=1)]  # rows[0] is row 1 (bottom)
    # keyed by row number (1 = bottom)
    ribbons: dict[Annotated[str, Field(pattern=r"^[0-9]+$")], Ribbon] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _track(self) -> Ritual:
        for y, cells in enumerate(self.rows):
            if len(cells) != len(self.columns):
                raise Fault(("rows", y), f"needs {len(self.columns)} cells")
        for row in self.ribbons:
            if not 1 <= int(row) <= len(self.rows):
                raise Fault(("ribbons", row), f"row outside the track 1..{len(self.rows)}")
        if self.start_column >= len(self.columns):
            raise Fault("start_column", f"outside the track (columns 0..{len(self.columns) - 1})")
        return self


class RitualFile(Schema):
    """ritual.toml (merged with rules.toml's ``[ritual]`` numbers into one table)."""

    ritual: Ritual
