"""Heuristic decision handlers for ingredients, brewing, healing and potion use."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.movement import MovementHandlers


class BrewingHandlers(MovementHandlers):
    """Scores ingredient, brewing, healing and potion decisions."""

    __slots__ = ()

    def _ingredient(self, decision: Decision, view: LiveView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        return [need[i] for i in decision.options]

    def _instead(self, decision: Decision, view: LiveView) -> list[float]:
        w = self.w
        return [w.ingredient, w.crystal + 0.5 * w.position]

    def _brew(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        if decision.context is None:  # brewing: pay the recipe, score the potion
            ingr = self.w.ingredient * 0.5
            out = []
            for k in decision.options:
                if k < 0:
                    out.append(0.0)
                else:
                    recipe = self._c.potions[k].recipe
                    out.append(self._potion_value(view, me, k, True) - len(recipe) * ingr)
            return out
        return [self._potion_value(view, me, k, False) for k in decision.options]

    def _heal(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        patients = {pt.space: pt for pt in view.patients}
        return [self._heal_value(view, me, patients[s].disease) if s else 0.0 for s in decision.options]

    def _track(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        return [self._heal_value(view, me, d) for d in decision.options]

    def _potion_use(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        content = self._c
        w = self.w
        out = []
        for k in decision.options:
            if k < 0:
                out.append(0.0)
                continue
            use = content.potions[k].use
            keep = w.potion
            if use == "ritual-oil":
                ids = self._t.action_ids
                card = ids[view.played[self.seat]]
                gain = 2.0 * w.match if card in ("brew", "heal", "plead", "recruit") else 1.0 * w.match
                out.append(gain - self._sus_cost(me.suspicion, 1) - keep)
            elif use == "calming":
                out.append(self._sus_value(me.suspicion, 2) - keep - 1.0)
            elif use == "love":
                odds = max(self._trial_odds(view, 1), self._trial_odds(view, 2))
                late = view.turn >= content.rules.turns_per_season - 2
                out.append((w.citizen + w.seat * odds / 3.0) * (1.0 if late else 0.5) - keep)
            else:  # flying
                patients = self._patients_by_area(view)
                here = self._position(view, me, me.vertex, patients)
                best = max(self._positions(view, me, range(view.board.n_vertices), patients))
                out.append(best - here - keep - 1.0)
        return out
