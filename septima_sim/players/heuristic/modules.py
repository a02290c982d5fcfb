"""Heuristic decision handlers for the expansion modules: Shapeshifting (animal form, turning back, animal
abilities) and Omens."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.spells import SpellHandlers


class ModuleHandlers(SpellHandlers):
    """Scores Shapeshifting and Omen decisions."""

    __slots__ = ()

    def _animal(self, decision: Decision, view: LiveView) -> list[float]:
        """Shapeshift: the animal whose four actions are worth most now (S3: in animal form only they can be
        played). Each action is valued as a card from here (``_card_main``) plus the persona's bias; the best two
        count fully, the others half, and the leftmost action's ability adds half of that action's worth."""
        animals = self._c.animals
        me = view.me
        bias = self.w.bias
        known = set(self._t.action_ids)
        occupied = {q.vertex for q in view.players if q.seat != self.seat}
        verts = [me.vertex] + [v for v in view.board.neighbours[me.vertex] if v not in occupied]
        spots = self._spots(view, me, verts, self._patients_by_area(view))
        out = []
        for i in decision.options:
            worth = [
                self._card_main(view, me, a, spots) + bias.get(a, 0.0) if a in known else 0.0
                for a in animals[i].actions
            ]
            ranked = sorted(worth, reverse=True)
            out.append(sum(ranked[:2]) + 0.5 * sum(ranked[2:]) + 0.5 * max(0.0, worth[0]))
        return out

    def _turn_back(self, decision: Decision, view: LiveView) -> list[float]:
        """Stay an animal (0) while suspicion is worth lowering, else turn back (1) to play any card."""
        sus = view.me.suspicion
        return [self._sus_value(sus, 1) if o == 0 else 0.5 for o in decision.options]

    def _animal_ability(self, decision: Decision, view: LiveView) -> list[float]:
        """Use the animal's ability (1) rather than not (0); Fox: the best vertex next to a Root area, -1 = stay."""
        if decision.context != "fox":
            return [1.0 if o == 1 else 0.0 for o in decision.options]
        me = view.me
        patients = self._patients_by_area(view)
        here = self._position(view, me, me.vertex, patients)
        gain = self.w.ingredient
        return [here if v < 0 else gain + self._position(view, me, v, patients) for v in decision.options]

    def _omen(self, decision: Decision, view: LiveView) -> list[float]:
        """Omen choices: mark the least valuable witch; take bright effects; the best free potion; spend the least
        valuable Remedy."""
        opts = decision.options
        if decision.context == "exile_witch":
            return [-self._witch_value[w] for w in opts]
        if set(opts) <= {0, 1}:
            return [float(o) for o in opts]
        me = view.me
        values = [self._potion_value(view, me, k, False) if k >= 0 else 0.0 for k in opts]
        return values if -1 in opts else [-v for v in values]
