"""Heuristic decision handlers for spells, the ritual track and cards taken back (Remember, return a card)."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.witches import WitchHandlers

SPELL_SPREAD = 3.0
"""Wisdom within which two face-up spells are a toss-up when one is taken."""
SPELL_TRY = 0.2
"""The share of spell gains at which any face-up spell is taken (the value model cannot tell the worth of a spell it
never saw played: without it, the spells it values lowest would never be held and never measured)."""


class SpellHandlers(WitchHandlers):
    """Scores spell, ritual and remembered-card decisions."""

    __slots__ = ()

    def _spell_use(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        spells = self._c.spells
        out = []
        for i in decision.options:
            if i < 0:
                out.append(0.3)
            else:
                s = spells[me.spells[i].idx]
                out.append(sum(self._effect_value(e, me, view) for e in s.effects) + (2.0 if s.ongoing else 0.0))
        return out

    def _ready_spell(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        spells = self._c.spells
        return [
            sum(self._effect_value(e, me, view) for e in spells[me.spells[i].idx].effects) for i in decision.options
        ]

    def _spell_gain(self, decision: Decision, view: LiveView) -> list[float]:
        """The face-up spell to take (B27): its value, rough before the spell is used, so spells within
        ``SPELL_SPREAD`` Wisdom of each other are a toss-up; at ``SPELL_TRY`` of the gains any face-up spell (the
        seat's own stream draws both)."""
        market = view.spell_market
        rng = self._rng
        if rng.random() < SPELL_TRY:  # any face-up spell, whatever its value
            pick = int(rng.random() * len(decision.options))
            return [float(i == pick) for i in range(len(decision.options))]
        return [self._offer_value(view, market[e][slot]) + SPELL_SPREAD * rng.random() for e, slot in decision.options]

    def _ritual_bonus(self, decision: Decision, view: LiveView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        ready = 0.5 * self.w.spell
        return [need[i] if i >= 0 else ready for i in decision.options]

    def _also_order(self, decision: Decision, view: LiveView) -> list[float]:
        """Also bonus before the main ability when it enables it: Plead (a citizen to seat), Ritual with nothing to
        pay the ribbon's offering with, Recruit (Cat) when the leader is not next to a Town yet (the move pick may
        bring it there; the picks cost no citizen); otherwise the main ability first."""
        me = view.me
        if decision.context == "recruit":
            areas = self._c.areas
            first = not any(areas[a].town for a in view.board.vertex_areas[me.vertex])
        else:
            first = decision.context == "plead" or not any(me.res)
        return [float(o == (1 if first else 0)) for o in decision.options]

    def _ritual_shift(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        track = self._c.ritual
        ids = self._t.action_ids
        hand = {ids[i] for i, h in enumerate(me.hand) if h}
        row = me.ritual_row + (0 if decision.options[-1][0] == 1 else 1)
        out = []
        for when, col in decision.options:
            c = me.ritual_col if col < 0 else col
            value = 0.0
            for r in range(row, min(row + 3, len(track.rows))):
                if track.rows[r][c] in hand:
                    value += 1.0 / (1 + r - row)
            out.append(value + self._column_access(view, c, row) + (0.05 if when < 0 else 0.0))
        return out

    def _pay(self, decision: Decision, view: LiveView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        # declining keeps the resource; paying is for a ribbon (valued when the ritual was chosen)
        return [-need[i] if i >= 0 else -3.0 * self.w.ritual_row for i in decision.options]

    def _discount(self, decision: Decision, view: LiveView) -> list[float]:
        """A discount keeps one resource unpaid: the one worth most toward the recipes (a Crystal is wild)."""
        need = self._ingredient_need(view, view.me)
        return [need[i] for i in decision.options]

    def _remember(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        spots = self._spots(view, me, [me.vertex], self._patients_by_area(view))
        return [self._card_main(view, me, ids[c], spots) for c in decision.options]

    def _return_card(self, decision: Decision, view: LiveView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        spots = self._spots(view, me, [me.vertex], self._patients_by_area(view))
        return [self._card_main(view, me, ids[c], spots) + self.w.biased(ids[c]) for c in decision.options]
