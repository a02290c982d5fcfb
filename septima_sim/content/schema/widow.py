"""widow.toml: the Black Widow automa of solo mode (W1-W4): her numbers, her effect per action marker, the
Tribulations."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from septima_sim.content.model import WIDOW_EFFECTS
from septima_sim.content.schema.common import (
    CARD_NUMBER,
    ActionId,
    Condition,
    Count,
    Id,
    Provenance,
    Schema,
    Signed,
    Sourced,
    one_of,
)
from septima_sim.content.schema.rules import SUSPICION_BOUND


class Widow(Sourced):
    """Her numbers (W1-W3) and how many Tribulations the player needs (W4)."""

    provenance: Provenance
    suspicion_start: Annotated[int, Field(ge=-SUSPICION_BOUND, le=SUSPICION_BOUND)]
    match_suspicion: Count
    citizens: Count
    spiders: Annotated[int, Field(ge=0, le=10)]
    spider_steps: Count
    spider_suspicion: Count
    trial_win_wisdom: Count
    # at most the Tribulations in the pack (pack.py)
    tribulations_needed: Annotated[int, Field(ge=0, le=CARD_NUMBER)]
    tribulations_needed_shapeshifting: Annotated[int, Field(ge=0, le=CARD_NUMBER)]


class WidowEffect(Schema):
    """One effect of her action marker: a hook of WIDOW_EFFECTS and its amount."""

    effect: Annotated[str, one_of("Widow effect", WIDOW_EFFECTS)]
    amount: Signed = 1


class WidowCard(Sourced):
    """Her effects for one action marker (keyed by the action)."""

    effects: list[WidowEffect] = Field(default_factory=list)
    provenance: Provenance


class Tribulation(Condition, Sourced):
    """A solo end-of-game condition; ``basic`` replaces it in Basic mode."""

    name: str
    basic: Condition | None = None
    provenance: Provenance


class WidowFile(Schema):
    """widow.toml: ``widow`` numbers, ``widow_cards`` keyed by action, ``tribulations`` keyed by id."""

    widow: Widow
    widow_cards: Annotated[dict[ActionId, WidowCard], Field(min_length=1)]
    tribulations: Annotated[dict[Id, Tribulation], Field(min_length=1)]
