"""potions.toml: Remedies (cure a disease) and Practical potions (a use the engine implements), with recipes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from septima_sim.content.model import INGREDIENTS
from septima_sim.content.schema.common import (
    Count,
    Fault,
    Id,
    Provenance,
    Schema,
    Signed,
    Sourced,
    all_of,
    known_ids,
    unknown,
)

USES: tuple[str, ...] = ("calming", "flying", "love", "ritual-oil")
"""Practical potion uses the engine implements."""


class Potion(Sourced):
    """A potion: kind, what it cures or its use, its recipe (ingredients paid) and the Wisdom for brewing it."""

    name: str
    kind: Literal["remedy", "practical"]
    cures: str = ""  # remedy: a disease id of patients.toml
    use: str = ""  # practical: one of USES
    # ingredients paid: a potion costs something
    recipe: Annotated[list[str], Field(min_length=1, max_length=10), all_of("ingredient", INGREDIENTS)]
    wisdom: Count = 0
    suspicion: Signed | None = None  # calming: suspicion change when used
    provenance: Provenance

    @model_validator(mode="after")
    def _kind(self, info: ValidationInfo) -> Potion:
        diseases = known_ids(info.context, "disease")
        if self.kind == "remedy" and diseases is not None and self.cures not in diseases:
            raise Fault("cures", unknown("disease", self.cures, tuple(diseases)))
        if self.kind == "practical" and self.use not in USES:
            raise Fault("use", unknown("practical use", self.use, USES))
        return self


class PotionsFile(Schema):
    """potions.toml, keyed by id; a pack needs its calming potion (its suspicion is a rule, B21e)."""

    potions: Annotated[dict[Id, Potion], Field(min_length=1)]

    @model_validator(mode="after")
    def _calming(self) -> PotionsFile:
        if "calming-potion" not in self.potions:
            raise Fault("potions", "missing 'calming-potion' (its suspicion change is read as a rule)")
        return self
