"""spells.toml: scoring spells (Wisdom per unit of a statistic at game end) and regular spells (effects) (B27-B28)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from septima_sim.content.model import STATS
from septima_sim.content.schema.common import (
    CARD_NUMBER,
    Count,
    Effect,
    Element,
    Fault,
    Id,
    Provenance,
    Schema,
    Sourced,
    known_ids,
    unknown,
)


class Spell(Sourced):
    """A spell of an element; regular: effects, optionally after playing ``requires``, ``ongoing`` for the season;
    scoring: ``amount`` Wisdom per ``unit`` of statistic ``per``."""

    name: str
    element: Element
    kind: Literal["scoring", "regular"]
    requires: str = ""
    ongoing: bool = False
    effects: list[Effect] = Field(default_factory=list)
    per: str = ""
    unit: Annotated[int, Field(ge=1, le=CARD_NUMBER)] = 1  # a divisor
    amount: Count = 0
    provenance: Provenance

    @model_validator(mode="after")
    def _kind(self, info: ValidationInfo) -> Spell:
        actions = known_ids(info.context, "action")
        if self.requires and actions is not None and self.requires not in actions:
            raise Fault("requires", unknown("action", self.requires, tuple(actions)))
        if self.kind == "scoring" and self.per not in STATS:
            raise Fault("per", unknown("statistic", self.per, STATS))
        if self.kind == "regular" and not self.effects:
            raise Fault("effects", "a regular spell needs effects")
        return self


class SpellsFile(Schema):
    """spells.toml, keyed by id."""

    spells: Annotated[dict[Id, Spell], Field(min_length=1)]
