"""actions.toml: the action cards (B1) with their printed numbers; the ids are the actions the engine implements."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, ValidationInfo, model_validator

from septima_sim.content.schema.common import (
    CARD_NUMBER,
    Count,
    Fault,
    Provenance,
    Schema,
    Signed,
    Sourced,
    known_ids,
    one_of,
    unknown,
)

ACTIONS: tuple[str, ...] = (
    "collect",
    "move",
    "brew",
    "heal",
    "chant",
    "recruit",
    "plead",
    "remember",
    "ritual",
    "shapeshift",
)
"""Action ids the engine has a handler for (``engine.actions``; a test checks both lists agree). The engine also
looks up chant, remember and shapeshift by id, so every one of them must be in a pack."""
MODULES: tuple[str, ...] = ("", "shapeshifting")
"""Modules that may add a card ("" = the base game)."""


class Action(Sourced):
    """An action card: its bonus rule (B12), Full-only or module card, the icon it carries, its numbers."""

    name: str
    bonus: Literal["also", "instead", "strengthen"]
    full_only: bool = False
    module: Annotated[str, one_of("module", MODULES)] = ""
    icon: str = ""  # the action whose icon the card carries (Shapeshift: chant)
    provenance: Provenance
    steps: Count | None = None  # move: steps of the main action
    max: Annotated[int, Field(ge=1, le=CARD_NUMBER)] | None = None  # brew: potions, heal: patients per action
    discount: Count | None = None  # brew bonus: ingredients fewer
    suspicion: Signed | None = None  # chant: suspicion change of the main action
    bonus_suspicion: Signed | None = None  # chant / shapeshift: suspicion change of the bonus
    wisdom: Count | None = None  # plead: Wisdom of the main action

    @model_validator(mode="after")
    def _icon(self, info: ValidationInfo) -> Action:
        actions = known_ids(info.context, "action")
        if self.icon and actions is not None and self.icon not in actions:
            raise Fault("icon", unknown("action", self.icon, tuple(actions)))
        return self


class ActionsFile(Schema):
    """actions.toml: every implemented action, keyed by id."""

    actions: dict[Annotated[str, one_of("action", ACTIONS)], Action]

    @model_validator(mode="after")
    def _complete(self) -> ActionsFile:
        missing = [a for a in ACTIONS if a not in self.actions]
        if missing:
            raise Fault("actions", f"missing action cards {', '.join(missing)} (the engine plays all of {ACTIONS})")
        return self
