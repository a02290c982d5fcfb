"""The heuristic player's view of the spell market (B26, B27): what a face-up spell is worth to take, and what a
ritual column is worth for the next spell ribbon (the column's element decides which market the spell comes from)."""

from __future__ import annotations

import random

from septima_sim.engine.spells import ELEMENTS
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.valuation import Valuation, own_stat

LEAN_SPREAD = 1.6
"""The relative spread of a seat's leaning toward each element's spells in a game (1.6: from 0.2 to 1.8 times their
value), drawn at the start of every game from the seat's own stream (``HeuristicPolicy.reset``)."""


def draw_lean(rng: random.Random) -> tuple[float, ...]:
    """One game's leaning toward the spells of each element (B27): the value of a spell before it is used is rough,
    and a fixed order would walk every seat to the same market and never take a spell valued a little lower."""
    return tuple(1.0 + LEAN_SPREAD * (rng.random() - 0.5) for _ in ELEMENTS)


class SpellMarket(Valuation):
    """Values face-up spells and the ritual columns that lead to them."""

    __slots__ = ()

    def _offer_value(self, view: LiveView, spell: int) -> float:
        """Worth of taking a face-up spell (B27): a scoring spell's projected end Wisdom (the statistic's rate so far,
        half a unit counted so an early zero is not taken for the whole game), or a regular spell's effects times its
        remaining uses, scaled by how often the seat has played the card it requires (an ongoing one +2); both times
        the seat's leaning toward the spell's element this game (``draw_lean``)."""
        me = view.me
        content = self._c
        s = content.spells[spell]
        lean = self._lean[ELEMENTS.index(s.element)]
        elapsed = max(1, view.season * content.rules.turns_per_season + view.turn + 1)
        total = len(content.rules.seasons) * content.rules.turns_per_season
        if s.kind == "scoring":
            projected = (own_stat(content, me, s.per) + 0.5) * total / (elapsed + 1)
            return float(projected // s.unit * s.amount) * lean
        uses = (total - elapsed) / 8.0
        if s.requires:
            card = self._t.action_index.get(s.requires, -1)
            share = (me.played[card] + 1) / (elapsed + 1) if card >= 0 else 0.0
            uses *= min(1.0, 0.5 + len(self._t.action_ids) * share / 2.0)
        value = sum(self._effect_value(x, me, view) for x in s.effects) * uses
        return (value * (1.0 + 0.2 * self.w.biased(s.requires)) + (2.0 if s.ongoing else 0.0)) * lean

    def _column_access(self, view: LiveView, col: int, row: int) -> float:
        """Worth of standing in ritual column `col` for the next spell ribbon at or above `row` not yet entered (B26:
        the spell comes from the column's element, either one on a border column): the best face-up spell of
        those elements, halved per row still to climb; 0 when no spell ribbon is left."""
        me = view.me
        content = self._c
        ribbons = content.ritual.ribbons
        ahead = [
            r
            for r in range(row, len(content.ritual.rows) + 1)
            if r in ribbons and not me.ribbons >> r & 1 and any(e.kind == "gain_spell" for e in ribbons[r][1])
        ]
        if not ahead:
            return 0.0
        market = view.spell_market
        offers = [
            self._offer_value(view, spell)
            for element in content.ritual.columns[col]
            for spell in market[ELEMENTS.index(element)]
            if spell >= 0
        ]
        return max(offers, default=0.0) * 0.5 ** (ahead[0] - row)

    def _shift_gain(self, view: LiveView) -> float:
        """What the Ritual card's sideways shift (B21f) adds toward the next spell: the best neighbouring column's
        access over the current one's (0 when staying is best)."""
        me = view.me
        row = me.ritual_row + 1
        here = self._column_access(view, me.ritual_col, row)
        cols = len(self._c.ritual.columns)
        sides = [self._column_access(view, c, row) for c in (me.ritual_col - 1, me.ritual_col + 1) if 0 <= c < cols]
        return max(0.0, max(sides, default=0.0) - here)
