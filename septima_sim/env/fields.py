"""What the observation's field writers share: the scene they read, field specs, and small writing helpers."""

from __future__ import annotations

import zlib
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from septima_sim.engine.config import COLOURS
from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import SealedView, SeatSnapshot

Vector = npt.NDArray[np.float32]
MAX_SEATS = len(COLOURS)
"""Seat blocks in every vector (a smaller table leaves the last ones zero)."""
WISDOM_CAP = 200
RESOURCE_CAP = 10
CHARM_CAP = 10
COUNT_CAP = 40
"""Caps of counts with no bound in the rules: Wisdom, resources of one kind, Good Luck Charms, and the statistics
and crowd counts (a count is divided by its cap and clipped at 1; over 12 games of the balanced persona the largest
were 78 Wisdom, 2 of a resource, 6 charms, 18 matches). Potions of one kind are divided by the supply of each
(``rules.potion_supply``), which bounds them."""
CONTEXT_BUCKETS = 32
"""A decision's context (a card, a cause such as ``crowd_pick:potion``, an Omen hook...) is split at ``:`` and each
part hashed (CRC-32) into one of these buckets."""
CONTEXT_INT_CAP = 32
STEPS: tuple[str, ...] = (
    "setup",
    "preparation",
    "select",
    "resolve",
    "hunter",
    "relocation",
    "end_phase",
    "trial",
    "crowd",
    "season_end",
    "game_end",
)
"""The phase steps the flow sets (``GameState.step``); any other step sets the field's last slot."""


class Scene:
    """What the writers read: the view, the decision (None when the seat is not asked) and seat order."""

    __slots__ = ("decision", "n", "relative", "view")

    def __init__(self, view: SealedView, decision: Decision | None) -> None:
        self.view = view
        self.decision = decision
        self.n = view.n_players
        self.relative = {s: (s - view.seat) % self.n for s in range(self.n)}  # absolute seat -> block


Out = dict[int, float]
"""The vector being written, sparse (index -> value; most of a vector is zero, and a dict write is several times
cheaper than a NumPy array's)."""
Writer = Callable[[Out, int, Scene], None]
SeatWriter = Callable[[Out, int, Scene, SeatSnapshot], None]


class Field(NamedTuple):
    """One field of the layout: ``size`` floats from ``offset``."""

    name: str
    offset: int
    size: int
    doc: str


class Spec(NamedTuple):
    """A field before it is placed: its name, size, meaning and how it is written."""

    name: str
    size: int
    doc: str
    write: Writer


class SeatSpec(NamedTuple):
    name: str
    size: int
    doc: str
    write: SeatWriter


# ---- writing helpers -------------------------------------------------------------------------------------------


def one_hot(out: Out, off: int, index: int, size: int) -> None:
    """1 at `index` (nothing when it is outside 0..size-1: -1 = none)."""
    if 0 <= index < size:
        out[off + index] = 1.0


def many_hot(out: Out, off: int, indices: Sequence[int], size: int) -> None:
    for i in indices:
        if 0 <= i < size:
            out[off + i] = 1.0


def counts(out: Out, off: int, values: Sequence[int], cap: int) -> None:
    """Each count divided by `cap`, clipped to [0, 1]."""
    for i, v in enumerate(values):
        if v > 0:
            out[off + i] = v / cap if v < cap else 1.0


def count(out: Out, off: int, value: int, cap: int) -> None:
    if value > 0:
        out[off] = value / cap if value < cap else 1.0


def bucket(token: str) -> int:
    """A context part's bucket (stable across runs and machines)."""
    return zlib.crc32(token.encode()) % CONTEXT_BUCKETS
