"""The heuristic player's policy: per-game setup, the per-decision memo reset and the dispatch of each Decision kind
to its scoring handler; the option with the highest value wins (ties: the first)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.view import LiveView, PlayerView
from septima_sim.players.heuristic.market import draw_lean
from septima_sim.players.heuristic.modules import ModuleHandlers
from septima_sim.players.heuristic.tables import tables_for

_SHARED: dict[tuple[str, str], tuple[tuple[float, ...], dict[tuple[int, int], float]]] = {}
"""(persona weights, content hash) -> witch values and the suspicion-cost memo, shared by all instances."""


class UnknownDecisionError(ValueError):
    """A decision kind the heuristic has no handler for (reported as one line: a module's gap, not a game's)."""


class HeuristicPolicy(ModuleHandlers):
    """A scripted player: picks the option with the highest weighted value (ties: the first)."""

    live_view: ClassVar[bool] = True  # built-in, hot path: reads the live view (see engine/view.py)

    __slots__ = ()

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self._rng = rng
        self._lean = draw_lean(rng)
        self._fresh = True
        self._goals = None
        self._buildings = {}
        self._vgains = {}

    def choose(self, decision: Decision, view: PlayerView) -> int:
        """Index of the best-valued option."""
        handler = _HANDLERS.get(decision.kind)
        if handler is None:  # a rules module's own decision: answering at random would pass for a judgement
            raise UnknownDecisionError(
                f"persona {self.name!r} has no rule for the decision kind {decision.kind!r} (a rules module that adds "
                "a decision kind gives the heuristic a handler for it: docs/extending.md, Adding a decision kind)"
            )
        live = _live(view)
        self._prepare(live)
        values = handler(self, decision, live)
        return values.index(max(values))  # ties: the first

    def values(self, decision: Decision, view: PlayerView) -> list[float] | None:
        """The value of every option (Wisdom units), or None for a kind this player has no handler for."""
        handler = _HANDLERS.get(decision.kind)
        if handler is None:
            return None
        live = _live(view)
        self._prepare(live)
        return handler(self, decision, live)

    def evaluate(self, view: PlayerView) -> float:
        """The worth of the seat's position (``Valuation.state_value``), e.g. after a simulated step."""
        live = _live(view)
        self._prepare(live)
        return self.state_value(live)

    def _prepare(self, view: LiveView) -> None:
        """Per-game lookups at the first decision of a game; the per-decision memos cleared (the building gains by
        vertex are checked against the game's buildings again: ``_vertex_gains``)."""
        if self._fresh:
            self._fresh = False
            self._t = tables_for(view)
            self._c = view.content
            if self._hash != self._c.hash:
                self._hash = self._c.hash
                key = (self._wkey, self._hash)
                shared = _SHARED.get(key)
                if shared is None:
                    witches = tuple(self._value_witch(self._c, i) for i in range(len(self._c.witches)))
                    shared = _SHARED[key] = (witches, self._sus_memo)
                self._witch_value, self._sus_memo = shared
        self._buildings_checked = False
        if self._pv or self._hv or self._plans:
            self._pv = {}
            self._hv = {}
            self._plans = {}
        self._hunt = self._pba = self._area_value = self._waiting = None


def _live(view: PlayerView) -> LiveView:
    """The live view the heuristic reads (it is a built-in player: ``engine.view.make_view`` gives it one); typed
    as the concrete class, its members and the seat's ``Player`` are read natively when compiled."""
    if not isinstance(view, LiveView):
        raise TypeError(f"the heuristic player reads the live view of a built-in player, got {type(view).__name__}")
    return view


_HANDLERS: dict[str, Callable[[HeuristicPolicy, Decision, LiveView], list[float]]] = {
    Kind.START_VERTEX: HeuristicPolicy._start_vertex,
    Kind.DRAFT_RETURN: HeuristicPolicy._draft_return,
    Kind.CARD: HeuristicPolicy._cards,
    Kind.PREMOVE: HeuristicPolicy._premove,
    Kind.MOVE: HeuristicPolicy._move,
    Kind.INGREDIENT: HeuristicPolicy._ingredient,
    Kind.INSTEAD: HeuristicPolicy._instead,
    Kind.ALSO_ORDER: HeuristicPolicy._also_order,
    Kind.BREW: HeuristicPolicy._brew,
    Kind.HEAL: HeuristicPolicy._heal,
    Kind.TRACK: HeuristicPolicy._track,
    Kind.LOSE_WITCH: HeuristicPolicy._lose_witch,
    Kind.RECRUIT: HeuristicPolicy._recruit,
    Kind.DISCARD_WITCH: HeuristicPolicy._lose_witch,
    Kind.CROWD_PICK: HeuristicPolicy._crowd_pick,
    Kind.PAY: HeuristicPolicy._pay,
    Kind.DISCOUNT: HeuristicPolicy._discount,
    Kind.CHARM_REROLL: HeuristicPolicy._charm,
    Kind.SPELL_USE: HeuristicPolicy._spell_use,
    Kind.READY_SPELL: HeuristicPolicy._ready_spell,
    Kind.SPELL_GAIN: HeuristicPolicy._spell_gain,
    Kind.POTION_USE: HeuristicPolicy._potion_use,
    Kind.CALMING: HeuristicPolicy._calming,
    Kind.RITUAL_BONUS: HeuristicPolicy._ritual_bonus,
    Kind.RITUAL_SHIFT: HeuristicPolicy._ritual_shift,
    Kind.CHAMBER: HeuristicPolicy._chamber,
    Kind.REMEMBER: HeuristicPolicy._remember,
    Kind.RETURN_CARD: HeuristicPolicy._return_card,
    Kind.MIRROR: HeuristicPolicy._mirror,
    Kind.ANIMAL: HeuristicPolicy._animal,
    Kind.COVER_WITCH: HeuristicPolicy._lose_witch,
    Kind.TURN_BACK: HeuristicPolicy._turn_back,
    Kind.ANIMAL_ABILITY: HeuristicPolicy._animal_ability,
    Kind.OMEN: HeuristicPolicy._omen,
}
"""One scoring method per Decision kind (an unknown kind falls back to a uniform random choice)."""
