"""The heuristic player's card choice: each card's main ability from the best pre-move vertex, the expected
matching bonus (others' hands are public, the Septima's right marker is known), the suspicion it costs and the
progress toward the seat's own Book of Divination goals."""

from __future__ import annotations

from septima_sim.engine.decisions import Decision
from septima_sim.engine.state import Player
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.market import SpellMarket
from septima_sim.players.heuristic.tables import ByArea
from septima_sim.players.heuristic.valuation import own_stat

_GOAL_CARDS: dict[str, tuple[str, ...]] = {
    "witches": ("plead", "recruit"),
    "patients_healed": ("heal", "brew"),
    "diseases_healed": ("heal", "brew"),
    "ritual_row": ("ritual",),
    "suspicion": ("chant",),
    "crowd_loyal": ("recruit",),
    "practical_brewed": ("brew", "collect"),
    "trials_won": ("plead", "recruit"),
    "spells": ("ritual",),
    "resources": ("collect", "move"),
    "charms": ("heal",),
    "potions": ("brew",),
    "ingredients_gained": ("collect",),
}
"""Which cards move a goal's statistic (goals on captures are served by the suspicion cost)."""
NO_RAISE = frozenset({"chant", "shapeshift"})
"""Cards whose match raises no suspicion (B21b, S2)."""


class CardChoice(SpellMarket):
    """Values the cards of a hand (the CARD decision) and what a card's main ability is worth."""

    __slots__ = ()

    def _spots(
        self, view: LiveView, me: Player, verts: list[int], patients: ByArea, heal: bool = True
    ) -> dict[str, float]:
        """Best pre-move vertex gain per card that has one: Collect (lunar areas, outcrops), Heal (patients I hold
        the Remedy for; skipped when ``heal`` is False, i.e. Heal is not a card being valued), Ritual (shrines) and
        building triggers, in one pass over the candidate vertices."""
        t = self._t
        w = self.w
        turn = view.turn
        lunar = view.lunar[turn], view.lunar[turn + 1]
        heal_at: dict[int, list[float]] = {}  # area -> worth of each patient I can heal there
        if heal and patients:
            potions = me.potions
            worth = {d: self._heal_value(view, me, d) for d, r in enumerate(t.remedy_for_disease) if potions[r] > 0}
            if worth:
                seat = self.seat
                for area, pts in patients.items():
                    for pt in pts:
                        x = worth.get(pt.disease)
                        if x is not None and not pt.healed_by >> seat & 1:
                            heal_at.setdefault(area, []).append(x)
        vertex_areas = view.board.vertex_areas
        exhausted = any(not sp.ready for sp in me.spells)
        out: dict[str, float] = {"collect": 0.0, "heal": 0.0, "ritual": 0.0}
        lunar_n = t.lunar_count(lunar)
        outcrops = t.outcrops_at
        for v in verts:
            value = lunar_n[v] * w.ingredient + outcrops[v] * w.crystal
            if t.building_areas[v]:
                for card, extra in self._vertex_gains(view, v):
                    if card == "collect":
                        value += extra
                    elif extra > out.get(card, 0.0):
                        out[card] = extra
            if value > out["collect"]:
                out["collect"] = value
            if heal_at:
                gains = [x for a in vertex_areas[v] for x in heal_at.get(a, ())]
                if gains:
                    gains.sort(reverse=True)
                    value = sum(gains[:2])
                    if value > out["heal"]:
                        out["heal"] = value
            if exhausted and t.shrine_at[v]:
                out["ritual"] = 0.5 * w.spell
        return out

    def _card_main(self, view: LiveView, me: Player, card: str, spots: dict[str, float]) -> float:
        """Expected worth of a card's main ability (best pre-move vertex)."""
        return self._card_eval(view, me, card, spots)[0]

    def _card_eval(self, view: LiveView, me: Player, card: str, spots: dict[str, float]) -> tuple[float, float]:
        """(worth of the card's main ability from the best pre-move vertex, extra worth when matched: Also /
        Instead / strengthen)."""
        w = self.w
        spot = spots.get(card, 0.0)
        if card == "plead":
            best = max(self._trial_odds(view, 1), self._trial_odds(view, 2))
            main = spot + 2.0 * w.wisdom + (w.seat * best / 3.0 if me.crowd > 0 else 0.0)
            return main, (w.citizen if me.supply > 0 else 0.0)
        if card == "remember":
            return spot, 0.5 * spot
        if card == "chant":
            return spot + self._sus_value(me.suspicion, 2), self._sus_value(me.suspicion - 2, 1)
        if card == "heal":
            return spot, w.charm
        if card == "recruit":
            return spot + (w.citizen * self._crowd_factor(view, me) if me.supply > 0 else 0.0), 1.5
        if card == "brew":
            main = spot + self._brew_plan(view, me, 0)
            # one ingredient less in total: saves an ingredient, or enables a first potion
            return main, (w.ingredient if main > 0 else (2.0 * w.ingredient if sum(me.res) else 0.0))
        if card == "collect":
            return spot, w.ingredient
        if card == "move":
            return w.ingredient + 3.0 * w.position, max(0.0, w.crystal - w.ingredient) + 2.0 * w.position
        if card == "ritual":  # a row up, and the shift toward a better spell market
            return spot + self._ritual_value(view, me, 1) + self._shift_gain(view), w.ingredient
        if card == "shapeshift":  # discarded cards back to hand; animal form keeps suspicion from rising
            return 0.8 * len(me.discard) + self._sus_value(me.suspicion, 2), self._sus_value(me.suspicion, 1)
        return spot, 0.5 * spot

    def _cards(self, decision: Decision, view: LiveView) -> list[float]:
        t = self._t
        w = self.w
        me = view.me
        ids = t.action_ids
        players = view.players
        right = view.septima_markers[0]
        occupied = {q.vertex for q in players if q.seat != self.seat}
        verts = [me.vertex] + [v for v in view.board.neighbours[me.vertex] if v not in occupied]
        patients = self._patients_by_area(view)
        options: tuple[int, ...] = decision.options  # action indexes (typed: compiled, read natively)
        miss = [1.0] * len(ids)  # P(no other seat plays the card), each guessed uniform over its hand
        for q in players:
            if q.seat != self.seat:
                hand = q.hand
                size = sum(1 for h in hand if h)  # a generator: compiled, a native loop (not builtins.sum)
                if size:
                    f = 1.0 - 1.0 / size
                    for c in options:
                        if hand[c]:
                            miss[c] = miss[c] * f  # a float product (``*=`` on a list item is generic)
        remember = t.remember
        copies = [c for c in set(me.discard) if c != remember] if remember in options else []
        evaluated = (*options, *copies)
        spots = self._spots(view, me, verts, patients, heal=t.heal in evaluated)
        mains = [0.0] * len(ids)
        bonuses = [0.0] * len(ids)
        for c in evaluated:
            if c != remember:
                card = ids[c]
                mains[c], bonuses[c] = self._card_eval(view, me, card, spots)
        if copies:
            mains[remember] = max(mains[c] for c in copies)
            bonuses[remember] = 0.5 * max(bonuses[c] for c in copies)
        goal_bias = self._goal_bias(view, me)
        bias = w.bias
        timing = bool(w.timing)
        turn = view.turn
        last_turn = turn == self._c.rules.turns_per_season - 1
        sus = me.suspicion
        risk_here = self._capture_p(view, me.vertex, sus + 1)
        sus_cost = self._sus_rows.get(sus)
        if sus_cost is None:
            sus_cost = self._sus_rows[sus] = [self._sus_cost(sus, k) for k in range(4)]
        track = self._c.ritual
        above = track.rows[me.ritual_row][me.ritual_col] if view.full and me.ritual_row < len(track.rows) else ""
        capture = risk_here * w.capture
        end_factor = 1.0 + 0.5 * w.season_end if last_turn else 1.0
        animal = me.no_raise  # S4: in animal form suspicion never rises
        values = []
        for c in options:
            card = ids[c]
            p_other = 1.0 - miss[c]
            septima = c == right
            p_match = 1.0 if septima else p_other
            value = mains[c] + p_match * bonuses[c] * w.match
            if card == above and p_match:
                value += p_match * self._ritual_value(view, me, 1)
            if animal:
                pass  # S4: in animal form suspicion never rises
            elif card not in NO_RAISE:
                base = 2 if septima else 0
                cost = p_other * sus_cost[base + 1] + (1.0 - p_other) * sus_cost[base] + p_match * capture
                value -= cost * end_factor
            elif last_turn:
                value += 0.5 * w.season_end * self._sus_value(sus, 2)
            if mains[c] > 0.0:  # a persona prefers a card only when it does something now
                value += bias.get(card, 0.0) + goal_bias.get(card, 0.0)
            if timing:  # when in the season the card is worth playing (distilled from search, docs/players.md)
                value += w.timed(card, turn)
            values.append(value)
        return values

    def _goal_bias(self, view: LiveView, me: Player) -> dict[str, float]:
        """Card biases toward own unmet Book of Divination goals."""
        goals = self._goals
        if goals is None:
            if not view.my_goals:  # not dealt yet (the first decisions of setup)
                return {}
            content = self._c
            goals = self._goals = []
            for g in view.my_goals:
                goal = content.goals[g]
                cards = _GOAL_CARDS.get(goal.stat, ())
                if cards:
                    bonus = self.w.goal * goal.wisdom * 0.2
                    goals.append((goal.stat, goal.op == ">=", goal.value, bonus, cards))
        out: dict[str, float] = {}
        for stat, at_least, target, bonus, cards in goals:
            value = own_stat(self._c, me, stat)
            if (value >= target) if at_least else (value <= target):
                continue
            for card in cards:
                out[card] = out.get(card, 0.0) + bonus
        return out
