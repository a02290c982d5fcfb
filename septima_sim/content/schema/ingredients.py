"""ingredients.toml: the five ingredient types (fixed by the engine, INGREDIENTS) and the Crystal supply."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.model import INGREDIENTS
from septima_sim.content.schema.common import CARD_NUMBER, Fault, Provenance, Schema, Sourced, one_of


class Ingredient(Sourced):
    """An ingredient type; its id is one of INGREDIENTS (resources are indexed in that order)."""

    name: str
    provenance: Provenance


class Crystal(Sourced):
    """The wild Crystal and how many are in the supply."""

    id: str = "crystal"
    name: str
    supply: Annotated[int, Field(ge=1, le=CARD_NUMBER)]  # a start crystal per player needs a supply
    provenance: Provenance


IngredientId = Annotated[str, one_of("ingredient", INGREDIENTS)]


class IngredientsFile(Schema):
    """ingredients.toml."""

    ingredients: dict[IngredientId, Ingredient]
    crystal: Crystal

    @model_validator(mode="after")
    def _all_five(self) -> IngredientsFile:
        missing = [i for i in INGREDIENTS if i not in self.ingredients]
        if missing:
            raise Fault(
                "ingredients", f"missing {', '.join(missing)} (the engine uses all of {', '.join(INGREDIENTS)})"
            )
        return self
