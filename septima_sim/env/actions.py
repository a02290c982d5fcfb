"""The environment's fixed action space: one block of actions per decision kind, in ``OPTION_DOMAINS`` order.

A kind's block holds every value its options can take (``engine/decisions.py``: ``OPTION_DOMAINS`` names the parts,
``PARTS`` below turns each part into values for a content pack), so an action always means the same thing: action
``offset[CARD] + 2`` is "play card 2" at any card decision. The action mask of a decision marks the actions of its
options; every other action is illegal there.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from septima_sim.content.model import INGREDIENTS, Content
from septima_sim.engine.board import REGIONS, Board
from septima_sim.engine.crowd_picks import PICKS
from septima_sim.engine.decisions import OPTION_DOMAINS, Decision, Kind
from septima_sim.engine.spells import ELEMENTS

Mask = npt.NDArray[np.int8]


def max_hunters(content: Content) -> int:
    """The most hunters a board holds: the most that start (by player count) plus one per season that adds one."""
    rules = content.rules
    return max(len(v) for v in rules.hunter_start_spaces.values()) + len(rules.hunter_enter_seasons)


PARTS: dict[str, Callable[[Content, Board], tuple[object, ...]]] = {
    "vertex": lambda c, b: tuple(range(b.n_vertices)),
    "witch": lambda c, b: tuple(range(len(c.witches))),
    "action": lambda c, b: tuple(range(len(c.actions))),
    "ingredient": lambda c, b: tuple(range(len(INGREDIENTS))),
    "resource": lambda c, b: tuple(range(len(INGREDIENTS) + 1)),  # the ingredients, then Crystal
    "potion": lambda c, b: tuple(range(len(c.potions))),
    "disease": lambda c, b: tuple(range(len(c.diseases))),
    "animal": lambda c, b: tuple(range(len(c.animals))),
    "crowd_pick": lambda c, b: tuple(range(len(PICKS))),
    "held_spell": lambda c, b: tuple(range(len(c.spells))),  # an index into the seat's spells: at most all of them
    "market_slot": lambda c, b: tuple((e, slot) for e in range(len(ELEMENTS)) for slot in range(3)),
    "hunter_move": lambda c, b: tuple(h * 10 + sp for h in range(max_hunters(c)) for sp in range(1, REGIONS + 1)),
    "ritual_shift": lambda c, b: tuple((when, col) for when in (0, 1) for col in range(len(c.ritual.columns))),
    "chamber": lambda c, b: (1, 2),
    "yes_no": lambda c, b: (0, 1),
    "patient_space": lambda c, b: tuple(sorted(b.patient_spaces)),
    "stop": lambda c, b: (-1,),
    "no_patient": lambda c, b: ("",),
    "no_shift": lambda c, b: ((-1, -1),),
}
"""Each part of an option domain as the values it stands for, from the content pack and the board."""


def all_kinds() -> tuple[str, ...]:
    """Every decision kind the engine defines (the ``Kind`` constants), in ``OPTION_DOMAINS`` order, then any kind
    that declares no domain (``ActionLayout`` refuses those)."""
    kinds = [getattr(Kind, name) for name in dir(Kind) if name.isupper() and isinstance(getattr(Kind, name), str)]
    return tuple(sorted(kinds, key=lambda k: (list(OPTION_DOMAINS).index(k) if k in OPTION_DOMAINS else 1_000, k)))


class IllegalAction(ValueError):
    """An action that is not one of the options of the decision being asked."""


class ActionLayout:
    """The blocks of the action space for one content pack: per kind its offset and values."""

    def __init__(self, content: Content, board: Board) -> None:
        self.kinds = all_kinds()
        undeclared = [k for k in self.kinds if k not in OPTION_DOMAINS]
        if undeclared:
            raise KeyError(f"decision kind {undeclared[0]!r} declares no option domain (engine/decisions.py)")
        self.offset: dict[str, int] = {}
        self.values: dict[str, tuple[object, ...]] = {}
        self._index: dict[str, dict[object, int]] = {}
        size = 0
        for kind in self.kinds:
            values = tuple(dict.fromkeys(v for part in OPTION_DOMAINS[kind] for v in PARTS[part](content, board)))
            self.offset[kind] = size
            self.values[kind] = values
            self._index[kind] = {v: size + i for i, v in enumerate(values)}
            size += len(values)
        self.size = size

    def action(self, kind: str, value: object) -> int:
        """The action that answers a `kind` decision with the option `value`."""
        try:
            return self._index[kind][value]
        except KeyError:
            raise KeyError(f"option {value!r} of a {kind} decision is outside its declared domain") from None

    def mask(self, decision: Decision) -> Mask:
        """1 for the actions of the decision's options, 0 elsewhere."""
        mask = np.zeros(self.size, np.int8)
        for value in decision.options:
            mask[self.action(decision.kind, value)] = 1
        return mask

    def option_index(self, decision: Decision, action: int) -> int:
        """The index in ``decision.options`` that `action` answers; IllegalAction when it answers none."""
        kind = decision.kind
        for i, value in enumerate(decision.options):
            if self._index[kind][value] == action:
                return i
        legal = ", ".join(str(self._index[kind][v]) for v in decision.options)
        raise IllegalAction(f"action {action} is not legal at this {kind} decision (legal: {legal})")

    def describe(self, action: int) -> str:
        """``kind: value`` for an action (logs, rendering)."""
        if not 0 <= action < self.size:
            raise IndexError(f"action {action} is outside 0..{self.size - 1}")
        for kind in reversed(self.kinds):
            start = self.offset[kind]
            if start <= action:
                return f"{kind}: {self.values[kind][action - start]!r}"
        raise AssertionError("unreachable: the first block starts at 0")

    def table(self) -> str:
        """The blocks as a Markdown table (docs/env.md)."""
        lines = ["| kind | actions | size | option values (parts) |", "| --- | ---: | ---: | --- |"]
        for kind in self.kinds:
            start, size = self.offset[kind], len(self.values[kind])
            parts = " + ".join(OPTION_DOMAINS[kind])
            lines.append(f"| `{kind}` | {start}..{start + size - 1} | {size} | {parts} |")
        return "\n".join(lines)
