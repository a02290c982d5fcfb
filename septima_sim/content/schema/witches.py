"""witches.toml: the witch deck (B5); each witch has a triggered or a passive ability."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from septima_sim.content.schema.common import AbilityCard, Id, Schema


class Witch(AbilityCard):
    """A witch card; ``note`` says what the seeds give and what is assumed."""

    note: str = ""


class WitchesFile(Schema):
    """witches.toml, keyed by id (enough for 4 players' deals: pack.py)."""

    witches: Annotated[dict[Id, Witch], Field(min_length=1)]
