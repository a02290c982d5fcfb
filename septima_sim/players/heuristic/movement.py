"""Heuristic decision handlers for where the leader stands: start vertex, pre-move, move, and the hunters
(charm reroll against a capture, moving a hunter with a Calming potion)."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.hunters import catch_chance
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.cards import NO_RAISE, CardChoice


class MovementHandlers(CardChoice):
    """Scores movement and hunter decisions."""

    __slots__ = ()

    def _start_vertex(self, decision: Decision, view: LiveView) -> list[float]:
        """Leader start: a rich position (ingredient areas, patients, outcrops) away from the hunters."""
        positions = self._positions(view, view.me, decision.options, self._patients_by_area(view))
        ingredients = self._t.ingredients_at
        return [pos + 0.3 * len(ingredients[v]) for v, pos in zip(decision.options, positions, strict=True)]

    def _premove(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        card_i = view.played[self.seat]
        card = ids[card_i]
        if card == "remember" and me.discard:
            card = ids[me.discard[-1]]
        played = view.played
        others = played.count(card_i) > 1  # my own card is among the played ones
        septima = card_i == view.septima_markers[0]
        no_raise = ids[card_i] in NO_RAISE or me.no_raise
        raise_by = 0 if no_raise else (1 if others else 0) + (2 if septima else 0)
        gain = card in ("collect", "heal", "ritual")
        if not (raise_by or gain or any(n != 0 for n in me.potions)):
            return [1.0 if v == me.vertex else 0.0 for v in decision.options]  # no gain, no risk, no patient to reach
        patients = self._patients_by_area(view)
        values = []
        positions = self._positions(view, me, decision.options, patients)
        for v, position in zip(decision.options, positions, strict=True):
            value = 0.5 * position
            if gain:
                value += self._vertex_gain(view, me, card, v, patients)
            if raise_by:
                value -= self.w.capture * self._capture_p(view, v, min(8, me.suspicion + raise_by))
            values.append(value + (0.01 if v == me.vertex else 0.0))
        return values

    def _move(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        patients = self._patients_by_area(view)
        values = self._positions(view, me, decision.options, patients)
        if me.vertex in decision.options:  # staying wins ties
            values[decision.options.index(me.vertex)] += 0.01
        return values

    def _charm(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        roll = decision.context if isinstance(decision.context, int) else 0
        board = view.board
        region = board.region_of[me.vertex]
        dist = 99
        for space, _standing in view.hunters:
            if space == region:
                dist = board.dist[board.hunter_vertex[space]][me.vertex]
        if roll + me.suspicion < dist:
            return [1.0, 0.0]
        escape = 1.0 - catch_chance(self._t.tail, dist, me.suspicion)
        return [0.0, escape * self.w.capture - self.w.charm]

    def _calming(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        board = view.board
        region = board.region_of[me.vertex]
        hunters = view.hunters
        out = []
        for o in decision.options:
            if o < 0:
                out.append(self._sus_value(me.suspicion, 2))
                continue
            h, space = divmod(o, 10)
            src = hunters[h][0]
            # moving the hunter of my region away removes the risk for now (and lays it down)
            risk = self._capture_p(view, me.vertex, min(8, me.suspicion + 1)) if src == region else 0.0
            out.append(self.w.capture * risk - (1.0 if space == region else 0.0))
        return out
