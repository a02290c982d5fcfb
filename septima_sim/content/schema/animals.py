"""animals.toml: the Shapeshifting module's animal tiles (S7): four actions and an ability hook with parameters."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.model import ANIMAL_ABILITIES
from septima_sim.content.schema.common import (
    ActionId,
    Count,
    Fault,
    Id,
    Ingredient,
    Provenance,
    Schema,
    Sourced,
    one_of,
)

COLOURS: tuple[str, ...] = ("green", "orange", "purple", "gray")
"""Player colours (engine ``config.COLOURS``): each player takes the animals of their colour."""


class Animal(Sourced):
    """An animal tile: ``actions`` leftmost first (the ability applies with the leftmost one)."""

    name: str
    colour: Annotated[str, one_of("colour", COLOURS)]
    actions: Annotated[list[ActionId], Field(min_length=4, max_length=4)]  # a tile shows four actions (S3)
    ability: Annotated[str, one_of("animal ability", ANIMAL_ABILITIES)]
    picks: Count | None = None  # Serpent: crowd picks instead of Remember's main
    bonus_picks: Count = 0  # Serpent: instead of Remember's bonus
    max: Count | None = None  # Squirrel: extra lunar ingredients at most
    amount: Count | None = None  # Cat, Owl: citizens
    ingredient: Ingredient | None = None  # Toad, Goat: the ingredient waived or spent
    gain: Ingredient | None = None  # Fox, Hare: the ingredient gained
    near: Ingredient | None = None  # Fox: the printed ingredient to end next to
    provenance: Provenance

    @model_validator(mode="after")
    def _one_ingredient(self) -> Animal:
        if self.ingredient is not None and self.gain is not None:
            raise Fault("gain", "an animal names one ingredient: 'ingredient' or 'gain', not both")
        return self

    @property
    def count(self) -> int:
        """The ability's number the engine reads (picks, else max, else amount, else 0)."""
        for value in (self.picks, self.max, self.amount):
            if value is not None:
                return value
        return 0


class AnimalsFile(Schema):
    """animals.toml, keyed by id."""

    animals: Annotated[dict[Id, Animal], Field(min_length=1)]
