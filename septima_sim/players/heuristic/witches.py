"""Heuristic decision handlers for the coven and the crowd: losing or recruiting witches, crowd picks, trial
chambers, the Magic Mirror."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.brewing import BrewingHandlers

DRAFT_SPREAD = 2.0
"""Wisdom within which two dealt witches are a toss-up in the draft."""


class WitchHandlers(BrewingHandlers):
    """Scores witch, crowd and trial decisions."""

    __slots__ = ()

    def _lose_witch(self, decision: Decision, view: LiveView) -> list[float]:
        return [-self._witch_value[w] for w in decision.options]

    def _draft_return(self, decision: Decision, view: LiveView) -> list[float]:
        """The dealt witch to give back (B5): the least valued, with witches within ``DRAFT_SPREAD`` Wisdom of each
        other a toss-up (the seat's own stream draws it): the value of a witch before the game is rough, and a fixed
        order would never keep the witch valued last."""
        rng = self._rng
        return [-self._witch_value[w] + DRAFT_SPREAD * rng.random() for w in decision.options]

    def _recruit(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        witch = decision.context
        if not isinstance(witch, int) or len(me.coven) < self._c.rules.max_witches:
            return [1.0 if o == 1 else 0.0 for o in decision.options]
        worst = min(self._witch_value[x] for x in me.coven)
        gain = self._witch_value[witch] - worst
        return [gain if o == 1 else 0.0 for o in decision.options]

    def _crowd_pick(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        w = self.w
        need = self._ingredient_need(view, me)
        cheapest = min((need[i] for i in range(6) if me.res[i] > 0), default=0.0)
        out = []
        for pick in decision.options:
            if pick == 0:
                best = max(self._potion_value(view, me, k, False) for k in range(len(self._c.potions)))
                out.append(best - cheapest)
            elif pick == 1:
                out.append(max(need[:5]))
            elif pick == 2:
                out.append(2.0 * w.position)
            elif pick == 3:
                out.append(self._sus_value(me.suspicion, 1) * (1.0 + 0.5 * w.season_end))
            elif pick == 4:
                out.append(0.5 * w.spell - cheapest)
            else:
                out.append(0.0)
        return out

    def _chamber(self, decision: Decision, view: LiveView) -> list[float]:
        return [self._trial_odds(view, c) for c in decision.options]

    def _mirror(self, decision: Decision, view: LiveView) -> list[float]:
        return [self._witch_value[w] for w in decision.options]
