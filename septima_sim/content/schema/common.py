"""Pieces every content schema shares: the strict base model, choices with helpful errors, id references, effects.

References to ids of other files (actions, diseases, potions, witches) are checked against the id sets the loader
passes as validation context, so an error is reported at the field that holds the dangling id.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from septima_sim.content.model import (
    EFFECT_KINDS,
    INGREDIENTS,
    PASSIVE_KINDS,
    PROVENANCE_TAGS,
    STATS,
    WISDOM_SOURCES,
)

CARD_NUMBER = 100
"""Bound of a number printed on a card or table: Wisdom and counts are stored as Int16 / Int8 columns."""

ID_PATTERN = r"^[a-z0-9][a-z0-9-]{0,63}$"
"""Every id of a content table (witches, spells, Omens, map areas...): lowercase letters, digits and ``-``, as the
shipped pack uses them. Ids are names, never paths: ``ablate`` and ``tune`` build folder names from them, override
paths and tables carry them."""
_ID = re.compile(ID_PATTERN)


class Schema(BaseModel):
    """Strict TOML types (no int from "3", no int from true), unknown keys refused, read-only after validation."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Fault(ValueError):
    """A check that names a key below the model it runs on (``loc``), so the error points at that key."""

    def __init__(self, loc: str | tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc: tuple[str | int, ...] = (loc,) if isinstance(loc, str) else loc
        self.message = message


RANGES = "ranges"
"""The key of a table's ranges: the values a designer allows its values to take in a sensitivity study (``septima-sim
sensitivity``), written beside them, in any table that has a ``provenance``::

    ranges = { spiders = [1, 4], "effects.0.amount" = [1, 3], value = ["clockwise", "counterclockwise"] }

A key is the dotted path of a value inside the table (list positions as numbers). Its entry is ``[low, high]`` for a
number (two numbers; three or more numbers are a list of choices), or the choices (two or more) for any other value.
Whether each bound makes a playable pack is checked by the study (``content.assumed``)."""


def _number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _value_at(table: dict[str, Any], key: str) -> Any:
    """The value at a dotted path inside a table's raw data (KeyError when there is none or it is a table)."""
    node: Any = table
    for part in key.split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node and part not in ("provenance", RANGES):
            node = node[part]
        else:
            raise KeyError(key)
    if isinstance(node, dict):
        raise KeyError(key)
    return node


def check_ranges(table: dict[str, Any], at: tuple[str | int, ...] = ()) -> None:
    """Every entry of a table's ``ranges`` names one of its values and gives a range or choices that suit it (``at``:
    where the table is, for the error)."""
    ranges = table[RANGES]
    if not isinstance(ranges, dict):
        raise Fault((*at, RANGES), "expected a table of value paths, e.g. ranges = { spiders = [1, 4] }")
    for key, entry in ranges.items():
        where = (*at, RANGES, key)
        try:
            value = _value_at(table, key)
        except KeyError:
            raise Fault(where, f"no value {key!r} in this table") from None
        if not isinstance(entry, list) or len(entry) < 2:
            raise Fault(where, "expected [low, high] or a list of two or more choices")
        if _number(value) and len(entry) == 2:
            low, high = entry
            if not (_number(low) and _number(high) and low < high):
                raise Fault(where, f"expected [low, high] with low < high, got {entry}")
            if isinstance(value, int) and not (isinstance(low, int) and isinstance(high, int)):
                raise Fault(where, f"an integer value takes integer bounds, got {entry}")
        elif any(type(c) is not type(value) for c in entry) or len({repr(c) for c in entry}) != len(entry):
            raise Fault(where, f"expected different choices of the value's type ({type(value).__name__})")


TABLE_DEPTH = 3
"""How deep a table with a provenance sits in a pack's tree: a rules table (``widow``), an item (``witches.johanna``),
an Omen half (``omens.<id>.dark``). Items are never inside lists."""


def without_ranges(node: dict[str, Any], at: tuple[str, ...] = ()) -> dict[str, Any]:
    """A pack's tree with every table's ``ranges`` checked (``check_ranges``) and taken out (the tree itself is not
    changed; tables without one are shared): what the schemas validate and the engine is built from."""
    out: dict[str, Any] | None = None
    if RANGES in node and isinstance(node.get("provenance"), str):
        check_ranges(node, at)
        out = {k: v for k, v in node.items() if k != RANGES}
    if len(at) < TABLE_DEPTH:
        for k, v in (out or node).items():
            if isinstance(v, dict):
                new = without_ranges(v, (*at, k))
                if new is not v:
                    out = out if out is not None else dict(node)
                    out[k] = new
    return out if out is not None else node


def unknown(what: str, value: object, allowed: Iterable[str]) -> str:
    """``unknown ingredient 'mushrom' (did you mean mushroom? allowed: herb, ...)``."""
    allowed = sorted(allowed) if not isinstance(allowed, tuple) else allowed
    near = difflib.get_close_matches(str(value), allowed, n=2)
    hint = f"did you mean {', '.join(near)}? " if near else ""
    return f"unknown {what} {value!r} ({hint}allowed: {', '.join(allowed) or 'none'})"


def one_of(what: str, allowed: Collection[str]) -> AfterValidator:
    """A string that must be one of ``allowed`` (error: unknown <what>, the nearest names and the list)."""
    choices = tuple(allowed) if isinstance(allowed, tuple) else tuple(sorted(allowed))

    def check(value: str) -> str:
        if value not in choices:
            raise ValueError(unknown(what, value, choices))
        return value

    return AfterValidator(check)


def all_of(what: str, allowed: tuple[str, ...]) -> AfterValidator:
    """A list whose every item is one of ``allowed``; the error names the list (``potions.x.recipe``)."""

    def check(values: list[str]) -> list[str]:
        for value in values:
            if value not in allowed:
                raise ValueError(unknown(what, value, allowed))
        return values

    return AfterValidator(check)


def ref(kind: str) -> AfterValidator:
    """An id that must exist among the pack's ``kind`` ids (passed as validation context by the loader)."""

    def check(value: str, info: ValidationInfo) -> str:
        known = (info.context or {}).get(kind)
        if known is not None and value not in known:
            raise ValueError(unknown(kind, value, tuple(known)))
        return value

    return AfterValidator(check)


def id_problem(value: str) -> str | None:
    """Why a content id is not a safe name (None when it is one)."""
    if _ID.match(value):
        return None
    return f"id {value!r} is not a safe name: use lowercase letters, digits and -, at most 64 (pattern {ID_PATTERN})"


def _safe_id(value: str) -> str:
    problem = id_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def known_ids(context: dict[str, Any] | None, kind: str) -> Collection[str] | None:
    """The ids of ``kind`` in the pack being validated (None when a schema is used on its own)."""
    return (context or {}).get(kind)


def per_players(check: Callable[[int], bool] = lambda v: True, rule: str = "") -> AfterValidator:
    """A table keyed by player count: exactly "1", "2", "3" and "4" (the engine plays 1-4 players)."""

    def validate(table: dict[str, Any]) -> dict[str, Any]:
        if sorted(table) != ["1", "2", "3", "4"]:
            raise ValueError(f"needs values for 1, 2, 3 and 4 players, got keys {sorted(table)}")
        bad = [k for k, v in table.items() if not check(v)]
        if bad:
            raise ValueError(f"{rule} (players {', '.join(bad)})")
        return table

    return AfterValidator(validate)


Id = Annotated[str, AfterValidator(_safe_id)]
"""The key of a content table's item (``ID_PATTERN``)."""
Provenance = Annotated[str, one_of("provenance tag", PROVENANCE_TAGS)]


class Sourced(Schema):
    """An item of content with its source: its ``provenance`` field (declared by each item, where its errors are
    reported) tags where it comes from; when only part of it is a stand-in, ``assumed`` names those fields
    (``assumed = ["effects"]``: a seed names the witch and her trigger, her effect is assumed). Each name must be a
    field of the item; a wholly assumed item says ``provenance = "assumed"`` instead."""

    assumed: list[str] = Field(default_factory=list)
    if TYPE_CHECKING:  # each item declares the field itself (pydantic reports fields in declaration order)
        provenance: str

    @model_validator(mode="after")
    def _assumed_fields(self) -> Sourced:
        fields = tuple(name for name in type(self).model_fields if name not in ("provenance", "assumed"))
        for i, name in enumerate(self.assumed):
            if name not in fields:
                raise Fault(("assumed", i), unknown("field of this item", name, fields))
            if name in self.assumed[:i]:
                raise Fault(("assumed", i), f"{name!r} is listed twice")
        if self.assumed and self.provenance == "assumed":
            raise Fault("assumed", 'the whole item is assumed (provenance = "assumed"): list no fields')
        return self


Element = Literal["earth", "air", "fire"]
Ingredient = Annotated[str, one_of("ingredient", INGREDIENTS)]
Stat = Annotated[str, one_of("statistic", STATS)]
ActionId = Annotated[str, ref("action")]
Count = Annotated[int, Field(ge=0, le=CARD_NUMBER)]
Signed = Annotated[int, Field(ge=-CARD_NUMBER, le=CARD_NUMBER)]

_AT_LEAST_ONE = frozenset({"crystal", "charm", "citizen_to_crowd", "crowd_pick", "ready_spell", "return_card"})
_POTION_GROUPS = ("remedy", "practical", "any")


class Effect(Schema):
    """One effect: ``effect`` names a hook of EFFECT_KINDS; amount (steps for move), kind or name, Wisdom source."""

    effect: Annotated[str, one_of("effect", EFFECT_KINDS)]
    amount: Signed | None = None  # wisdom and suspicion may be negative; counts are checked below
    steps: Count | None = None  # move: 0 = any number of steps
    kind: str | None = None  # ingredient: an ingredient or "any"; potion: remedy | practical | any | a potion id
    name: str | None = None  # passive: the modifier
    source: Annotated[str, one_of("Wisdom source", WISDOM_SOURCES)] = "other"

    @model_validator(mode="after")
    def _arguments(self, info: ValidationInfo) -> Effect:
        kind, arg = self.effect, self.arg
        if kind in _AT_LEAST_ONE and self.value < 1:
            raise Fault("amount", f"{kind} needs amount >= 1, got {self.value}")
        if kind == "ingredient" and arg != "any" and arg not in INGREDIENTS:
            raise Fault("kind", unknown("ingredient", arg, ("any", *INGREDIENTS)))
        if kind == "potion":
            potions = known_ids(info.context, "potion")
            if arg not in _POTION_GROUPS and potions is not None and arg not in potions:
                raise Fault("kind", unknown("potion", arg, (*_POTION_GROUPS, *potions)))
        if kind == "passive" and arg not in PASSIVE_KINDS:
            raise Fault("name", unknown("passive", arg, PASSIVE_KINDS))
        return self

    @property
    def value(self) -> int:
        """The amount the engine reads: ``amount``, else ``steps``, else 1."""
        if self.amount is not None:
            return self.amount
        return self.steps if self.steps is not None else 1

    @property
    def arg(self) -> str:
        """The argument the engine reads: ``kind``, else ``name``, else ""."""
        if self.kind is not None:
            return self.kind
        return self.name if self.name is not None else ""


class Condition(Schema):
    """A ``stat op value`` condition (goals, Tribulations): a known statistic compared by >= or <=."""

    stat: Stat
    op: Literal[">=", "<="]
    value: Signed = 0


class Passive(Schema):
    """An ongoing modifier: ``name`` of PASSIVE_KINDS with its amount (trial_recall: ``winner`` and ``after_picks``)."""

    name: Annotated[str, one_of("passive", PASSIVE_KINDS)]
    amount: Count | None = None
    winner: Count | None = None
    after_picks: Count = 0


class AbilityCard(Sourced):
    """A witch or building: either a passive modifier or a trigger (play:<action> | after_trial) with effects."""

    name: str
    trigger: str | None = None
    effects: list[Effect] = Field(default_factory=list)
    passive: Passive | None = None
    provenance: Provenance

    @model_validator(mode="after")
    def _ability(self, info: ValidationInfo) -> AbilityCard:
        if self.passive is not None:
            if self.trigger is not None or self.effects:
                raise Fault("passive", "an ability is either a passive or a trigger with effects, not both")
            return self
        if self.trigger is None:
            raise Fault("trigger", "an ability needs a trigger or a passive")
        if self.trigger.startswith("play:"):
            actions = known_ids(info.context, "action")
            if actions is not None and self.trigger[5:] not in actions:
                raise Fault("trigger", unknown("action", self.trigger[5:], tuple(actions)))
        elif self.trigger != "after_trial":
            raise Fault("trigger", f"unknown trigger {self.trigger!r} (allowed: play:<action>, after_trial)")
        if not self.effects:
            raise Fault("effects", "no effects (a triggered ability needs at least one)")
        return self
