"""buildings.toml: the building tiles (B6, B21g); an ability that applies next to its town area."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from septima_sim.content.schema.common import AbilityCard, Id, Schema


class Building(AbilityCard):
    """A building tile."""


class BuildingsFile(Schema):
    """buildings.toml, keyed by id (at least setup.buildings_on_board of them: pack.py)."""

    buildings: Annotated[dict[Id, Building], Field(min_length=1)]
