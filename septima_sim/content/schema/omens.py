"""omens.toml: the Omens module (O1-O5): the dark-half threshold per player count, the deck size and the cards,
each with a bright and a dark half naming a hook of OMEN_HOOKS and that hook's parameters."""

from __future__ import annotations

from typing import Annotated

from pydantic import ConfigDict, Field, ValidationInfo, model_validator

from septima_sim.content.model import OMEN_HOOKS, OMEN_PARAM_KINDS
from septima_sim.content.schema.common import (
    ActionId,
    Count,
    Effect,
    Fault,
    Provenance,
    Schema,
    Signed,
    Sourced,
    id_problem,
    known_ids,
    one_of,
    per_players,
    unknown,
)

PARAMS: tuple[str, ...] = tuple(dict.fromkeys(p for params in OMEN_HOOKS.values() for p in params))
"""Every parameter some hook takes (a half may set only its own hook's)."""


class OmenHalf(Sourced):
    """One half: ``effect`` names a hook; the parameters that hook needs (ints unless OMEN_PARAM_KINDS says)."""

    name: str | None = None
    effect: Annotated[str, one_of("Omen hook", OMEN_HOOKS)]
    provenance: Provenance
    amount: Signed | None = None
    max: Count | None = None
    love_cost: Count | None = None
    other_cost: Count | None = None
    brewed: Count | None = None
    wisdom: Count | None = None
    action: ActionId | None = None
    effects: Annotated[list[Effect], Field(min_length=1)] | None = None
    everyone: list[str] | None = None  # witch ids
    excluded: list[str] | None = None  # witch ids

    @model_validator(mode="after")
    def _params(self, info: ValidationInfo) -> OmenHalf:
        needed = OMEN_HOOKS[self.effect]
        for name in PARAMS:
            given = getattr(self, name) is not None
            if name in needed and not given:
                raise Fault(name, f"missing (hook {self.effect} needs {', '.join(needed)})")
            if given and name not in needed:
                takes = ", ".join(needed) or "no parameters"
                raise Fault(name, f"not a parameter of hook {self.effect} (it takes {takes})")
        witches = known_ids(info.context, "witch")
        for name in needed:
            value = getattr(self, name)
            if OMEN_PARAM_KINDS.get(name) == "witches" and witches is not None:
                for i, w in enumerate(value):
                    if w not in witches:
                        raise Fault((name, i), unknown("witch", w, tuple(witches)))
        return self


class Omen(Sourced):
    """An Omen card: a bright (optional for each player) and a dark (mandatory) half; one card is the Sabbath."""

    name: str | None = None
    bright: OmenHalf
    dark: OmenHalf
    sabbath: bool = False
    provenance: Provenance

    @model_validator(mode="after")
    def _sabbath_hooks(self) -> Omen:
        """The Sabbath's hooks resolve at once at the game end; the others act during a season."""
        for side, half in (("bright", self.bright), ("dark", self.dark)):
            if half.effect.startswith("sabbath_") != self.sabbath:
                rule = "the Sabbath needs a sabbath_* hook" if self.sabbath else "sabbath_* hooks are the Sabbath's"
                raise Fault((side, "effect"), f"{half.effect!r}: {rule}")
        return self


class Omens(Sourced):
    """The ``omens`` table: numbers at the top, the cards keyed by id beside them (``omens.<id>``)."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, Omen] = Field(init=False)

    # O3: total suspicion that turns the next Omen dark, per player count
    threshold: Annotated[dict[str, Count], per_players()]
    deck_size: Annotated[int, Field(ge=1)]  # cards above the Sabbath, one per season end (pack.py)
    provenance: Provenance

    @property
    def cards(self) -> dict[str, Omen]:
        """The Omen cards in file order."""
        return self.__pydantic_extra__ or {}

    @model_validator(mode="after")
    def _deck(self) -> Omens:
        for ident in self.cards:
            problem = id_problem(ident)
            if problem is not None:
                raise Fault(ident, problem)
        sabbaths = sum(c.sabbath for c in self.cards.values())
        if sabbaths != 1:
            raise Fault("*", f"needs exactly one Witches' Sabbath (sabbath = true), got {sabbaths}")
        if len(self.cards) - 1 < self.deck_size:
            raise Fault("deck_size", f"{self.deck_size} cards above the Sabbath, but {len(self.cards) - 1} cards")
        return self


class OmensFile(Schema):
    """omens.toml."""

    omens: Omens
