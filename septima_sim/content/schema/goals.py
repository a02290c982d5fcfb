"""goals.toml: Book of Divination goals (B32): a condition on a statistic and the Wisdom it scores."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from septima_sim.content.schema.common import Condition, Count, Id, Provenance, Schema, Sourced


class Goal(Condition, Sourced):
    """A goal: fulfilled when ``stat op value``; ``full_only`` goals are left out in Basic mode."""

    name: str
    wisdom: Count
    full_only: bool = False
    provenance: Provenance


class GoalsFile(Schema):
    """goals.toml, keyed by id (enough for 4 players' deals in Basic mode: pack.py)."""

    goals: Annotated[dict[Id, Goal], Field(min_length=1)]
