"""A persona's weights as a compiled class: the heuristic reads them on every decision, and a compiled (mypyc)
module reads the attributes of a native class directly, where those of the pure-Python ``Weights`` dataclass take a
generic attribute lookup and a float unboxing each time. Built once per ``Weights`` object and shared."""

from __future__ import annotations

from dataclasses import fields
from typing import Final

from septima_sim.players.weights import Weights


class NativeWeights:
    """The same numbers as the ``Weights`` it is built from (every field, checked at construction)."""

    __slots__ = (
        "bias",
        "capture",
        "charm",
        "citizen",
        "crystal",
        "goal",
        "heal",
        "ingredient",
        "match",
        "position",
        "potion",
        "remedy",
        "ritual_row",
        "season_end",
        "seat",
        "spell",
        "suspicion",
        "suspicion_high",
        "timing",
        "trial",
        "wisdom",
    )

    wisdom: float
    ingredient: float
    crystal: float
    charm: float
    potion: float
    remedy: float
    citizen: float
    seat: float
    heal: float
    ritual_row: float
    spell: float
    suspicion: float
    suspicion_high: float
    capture: float
    match: float
    goal: float
    trial: float
    season_end: float
    position: float
    bias: dict[str, float]
    timing: dict[str, tuple[float, ...]]

    def __init__(self, weights: Weights) -> None:
        """Copy every field of `weights`; a field this class does not declare is an error (AttributeError)."""
        for f in fields(weights):
            value = getattr(weights, f.name)
            setattr(self, f.name, dict(value) if f.name in ("bias", "timing") else float(value))

    def biased(self, action: str) -> float:
        """The persona's bias toward playing `action` (0 when none)."""
        return self.bias.get(action, 0.0)

    def timed(self, action: str, turn: int) -> float:
        """Wisdom added to playing `action` at turn `turn` (0-based) of a season (0 past the end of its list)."""
        row = self.timing.get(action)
        return row[turn] if row is not None and turn < len(row) else 0.0


_CACHE_SIZE: Final = 256
_NATIVE: dict[int, tuple[Weights, NativeWeights, str]] = {}
"""id(weights) -> (the weights, kept so the id is not reused; their native copy; their repr as a memo key)."""


def native_weights(weights: Weights) -> tuple[NativeWeights, str]:
    """The native copy of `weights` and its key (``repr``) for memos shared across players, built once per object
    (personas are module-level constants; a tuning run makes many, so the cache is bounded)."""
    entry = _NATIVE.get(id(weights))
    if entry is None or entry[0] is not weights:
        if len(_NATIVE) >= _CACHE_SIZE:
            _NATIVE.clear()
        entry = _NATIVE[id(weights)] = (weights, NativeWeights(weights), repr(weights))
    return entry[1], entry[2]
