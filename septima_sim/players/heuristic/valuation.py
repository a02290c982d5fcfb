"""The heuristic player's value model: what resources, potions, track steps, witches, positions, trials and ritual
rows are worth in Wisdom units, minus the cost of suspicion and of hunter risk.

``Valuation`` holds the per-player state (persona weights, per-game and per-decision memos) that every scoring
method reads; the card choice and the decision handlers build on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from septima_sim.content.model import CRYSTAL, Content, Effect
from septima_sim.engine.state import Player
from septima_sim.engine.stats import player_stat
from septima_sim.engine.view import LiveView
from septima_sim.players.heuristic.native_weights import NativeWeights, native_weights
from septima_sim.players.heuristic.tables import ByArea, Tables
from septima_sim.players.weights import Weights

_PASSIVE_CARD: dict[str, str] = {
    "brew_discount": "brew",
    "collect_extra": "collect",
    "heal_extra": "heal",
    "heal_any_track": "heal",
    "move_extra": "move",
    "trial_recall": "plead",
}
"""Passive abilities (``PASSIVE_KINDS``): the card each one helps; ``Valuation._passive_use`` values one use."""
PASSIVE_USES = 2.5
"""How often a passive ability or a triggered one helps over the rest of a game, roughly (witch values)."""

_UNSET_RNG = random.Random(0)
"""A player's stream before its first ``reset`` (seeding a new Random per player and game is not free)."""

_BUILDING_GAINS: dict[tuple[object, ...], tuple[tuple[str, float], ...]] = {}
"""(persona weights, vertex, buildings next to it) -> (card, what the buildings add) when not 0; kept across games."""
_BUILDING_CARDS = ("collect", "brew", "chant", "recruit", "plead", "remember", "move")
"""Cards a building can strengthen (triggers and the brewing discount)."""


def own_stat(content: Content, me: Player, name: str) -> int:
    """A statistic of the own seat as the engine scores it (0 for those that need the whole game)."""
    value = player_stat(content, me, name)
    return 0 if value is None else value


class Valuation:
    """The per-player state and the value of things (Wisdom units) under the persona weights."""

    __slots__ = (
        "_area_value",
        "_buildings",
        "_buildings_checked",
        "_c",
        "_fresh",
        "_goals",
        "_hash",
        "_hunt",
        "_hv",
        "_lean",
        "_pba",
        "_plans",
        "_pv",
        "_rng",
        "_static",
        "_sus_memo",
        "_sus_rows",
        "_t",
        "_vgains",
        "_waiting",
        "_witch_value",
        "_wkey",
        "name",
        "seat",
        "w",
        "weights",
    )

    def __init__(self, name: str, weights: Weights) -> None:
        self.name = name
        self.weights = weights
        native, self._wkey = native_weights(weights)
        self.w: NativeWeights = native  # read on every decision: a compiled class
        self.seat = 0
        self._rng = _UNSET_RNG  # every game's own stream comes with ``reset``
        self._t: Tables = None  # type: ignore[assignment]  # set at the first decision of a game
        self._fresh = True
        self._c: Content = None  # type: ignore[assignment]
        self._witch_value: tuple[float, ...] = ()
        self._lean: tuple[float, ...] = (1.0, 1.0, 1.0)  # per element: this game's leaning (``market.draw_lean``)
        self._hash = ""
        # per-decision memos (cleared by every choose)
        self._pv: dict[tuple[int, bool], float] = {}
        self._hv: dict[int, float] = {}
        self._plans: dict[int, float] = {}
        self._hunt: dict[int, int] | None = None  # region -> vertex of its standing hunter
        self._pba: ByArea | None = None
        self._area_value: list[float] | None = None
        self._waiting: list[int] | None = None
        self._static: tuple[float, ...] = ()
        self._sus_memo: dict[tuple[int, int], float] = {}
        self._sus_rows: dict[int, list[float]] = {}  # suspicion level -> cost of raising it 0..3 points
        self._buildings: dict[int, int] = {}  # the buildings _vgains was computed for
        self._buildings_checked = False  # per decision: _vgains checked against the game's buildings
        self._goals: list[tuple[str, bool, int, float, tuple[str, ...]]] | None = None
        self._vgains: dict[int, tuple[tuple[str, float], ...]] = {}  # this game's building gains by vertex

    def __reduce__(self) -> tuple[Any, ...]:
        """A policy pickles as its persona (name and weights): unpickled, it is a fresh player, and ``reset`` starts
        every game anyway. (Compiled, the default reduction would call the constructor without arguments.)"""
        return type(self), (self.name, self.weights)

    def _value_witch(self, content: Content, witch: int) -> float:
        """Worth of having a witch in the coven for the rest of a game (persona-dependent)."""
        ab = content.witches[witch].ability
        w = self.w
        if ab.passive:
            worth = self._passive_use(content, ab.passive, ab.amount, ab.amount2) * PASSIVE_USES
            return 3.0 + worth + w.biased(_PASSIVE_CARD.get(ab.passive, ""))
        effects = sum(self._effect_value(e, None) for e in ab.effects)
        uses = 3.0 if ab.trigger == "after_trial" else PASSIVE_USES
        card = ab.trigger.split(":", 1)[1] if ab.trigger.startswith("play:") else ""
        return 3.0 + effects * uses * (1.0 + 0.25 * w.biased(card))

    def _passive_use(self, content: Content, name: str, amount: int, amount2: int) -> float:
        """Wisdom one use of a passive modifier (``PASSIVE_KINDS``) is worth, from its amounts: ingredients not paid
        (brew_discount), more lunar ingredients (collect_extra), more patients healed (heal_extra), a heal on any track
        (heal_any_track), more steps (move_extra), loyal citizens kept as trial winner and after crowd picks
        (trial_recall: the rules' recalls minus the ability's)."""
        w = self.w
        if name == "brew_discount":
            return amount * 0.8 * w.ingredient
        if name == "collect_extra":
            return amount * 0.6 * w.ingredient
        if name == "heal_extra":
            return amount * 1.2 * w.heal
        if name == "heal_any_track":
            return amount * w.heal
        if name == "move_extra":
            return amount * 1.5 * w.position
        if name == "trial_recall":
            rules = content.rules
            kept = max(0, rules.winner_recall - amount) + max(0, rules.recall_after_picks - amount2)
            return kept * 0.15 * w.citizen
        return 0.0

    def state_value(self, view: LiveView) -> float:
        """Worth of the seat's position in Wisdom units: Wisdom, the end value of resources, charms and track steps,
        potions, citizens in the crowd and seated, the coven, ritual rows and spells, minus the cost of the
        suspicion it holds (the one-step look-ahead of ``greedy`` scores the position a choice leads to)."""
        me = view.me
        w = self.w
        res = me.res
        value = me.wisdom * w.wisdom + 0.6 * (w.ingredient * sum(res[:5]) + w.crystal * res[CRYSTAL])
        value += me.charms * w.charm + me.crowd * w.citizen + view.full * me.ritual_row * w.ritual_row
        value += sum(n * self._potion_value(view, me, k, False) for k, n in enumerate(me.potions) if n)
        value += sum(
            d.end_values[min(step, len(d.end_values) - 1)] for d, step in zip(self._c.diseases, me.tracks, strict=True)
        )
        value += 0.5 * sum(self._witch_value[x] for x in me.coven) + w.spell * len(me.spells)
        seated = view.trial[2]
        value += w.seat * 0.3 * sum(1 for chamber in seated for s in chamber if s == self.seat)
        return value - self._sus_cost(0, max(0, me.suspicion))

    def _effect_value(self, e: Effect, me: Player | None, view: LiveView | None = None) -> float:
        """Rough Wisdom worth of one content effect (for the seat `me` of `view` now; a witch's or building's, for
        the rest of a game, without them)."""
        w = self.w
        kind = e.kind
        if kind == "wisdom":
            return e.amount * w.wisdom
        if kind == "ingredient":
            return w.ingredient
        if kind == "crystal":
            return e.amount * w.crystal
        if kind == "charm":
            return e.amount * w.charm
        if kind == "suspicion":
            if me is None:  # a witch's or building's, for the rest of a game: at a middle suspicion level
                return -e.amount * w.suspicion * (1.0 + w.suspicion_high)
            if e.amount >= 0:
                return -self._sus_cost(me.suspicion, e.amount)
            if view is None:
                return self._sus_value(me.suspicion, -e.amount)
            return self._sus_relief(view, me, -e.amount)
        if kind == "citizen_to_crowd":
            return e.amount * w.citizen * (1.0 if me is None or me.supply > 0 else 0.0)
        if kind == "crowd_pick":
            return e.amount * 1.0
        if kind == "ready_spell":
            if me is not None and not any(not sp.ready for sp in me.spells):
                return 0.0
            return e.amount * w.spell * 0.5
        if kind == "gain_spell":
            return w.spell
        if kind == "potion":
            if me is None or view is None:
                return w.potion + 1.5
            # the seat takes the one of the effect's potions worth most to it now (a Remedy whose patient waits...)
            supply = view.potion_supply
            worth = [self._potion_value(view, me, k, False) for k in self._t.potion_group[e.arg] if supply[k] > 0]
            return max(worth, default=0.0)
        if kind == "move":  # a free move: a better vertex for the next cards
            return 3.0 * w.position + 0.25 * w.ingredient
        if kind == "return_card":
            return e.amount * 1.5
        if kind == "magic_mirror":
            return 2.0
        if kind == "passive":  # an ongoing spell's modifier, for the rest of the season
            return 1.5 * self._passive_use(self._c, e.arg, e.amount, 0)
        return 0.0  # an effect name this model does not know adds nothing (test_heuristic_values checks each)

    def _sus_cost(self, level: int, n: int) -> float:
        """Cost of raising suspicion n points from `level` (points above the top overflow)."""
        memo = self._sus_memo.get((level, n))
        if memo is not None:
            return memo
        w = self.w
        cost = 0.0
        top = 8
        for k in range(n):
            s = level + k
            if s >= top:
                cost += w.capture
            else:
                cost += w.suspicion * (1.0 + w.suspicion_high * max(0, s - 4))
        self._sus_memo[level, n] = cost
        return cost

    def _sus_value(self, level: int, n: int) -> float:
        """Worth of lowering suspicion n points from `level` (floor -1)."""
        drop = min(n, level + 1)
        if drop <= 0:
            return 0.0
        return self._sus_cost(level - drop, drop)

    def _sus_relief(self, view: LiveView, me: Player, n: int) -> float:
        """Worth of lowering the seat's suspicion n points now, from what those points cost it in this state: the
        persona's own cost of them (``_sus_value``); the catch chance they add at a raise with the hunter of the
        leader's region (B15: it moves die + suspicion steps from its space; B16: a raise brings one to a region
        without) times a catch, at every turn left in the season (the points stay until its trials); and the angry
        citizens they add to the crowd at the season's trials (B24), each one a seat in the chamber the seat's loyal
        citizens may not get (their share of the crowd)."""
        level = me.suspicion
        drop = min(n, level + 1)
        if drop <= 0:
            return 0.0
        w = self.w
        value = self._sus_value(level, drop)
        if view.hunters:  # the region's hunter, or the one its first raise brings there (B16), from its space
            board = self._t.board
            risk = self._t.risk
            far = board.dist[board.hunter_vertex[board.region_of[me.vertex]]][me.vertex]
            turns = self._c.rules.turns_per_season - view.turn  # the points stay until the season's trials
            value += turns * w.capture * (risk(level + 1)[far] - risk(level + 1 - drop)[far])
        rules = self._c.rules
        angry = rules.angry_by_level
        low = rules.suspicion_min
        fewer = angry[level - low] - angry[level - drop - low]
        if fewer:
            neutral, angry_now, loyal = view.crowd
            crowd = neutral + angry_now + sum(loyal)
            value += fewer * w.trial * w.seat * (me.crowd + 1) / (crowd + 1)
        return value

    def _standing(self, view: LiveView) -> dict[int, int]:
        """Region -> vertex of the standing (active) hunter on its hunter space."""
        hunt = self._hunt
        if hunt is None:
            vertex = self._t.board.hunter_vertex
            hunt = self._hunt = {space: vertex[space] for space, up in view.hunters if up}
        return hunt

    def _capture_p(self, view: LiveView, vertex: int, suspicion: int) -> float:
        """Probability that the active hunter of the vertex's region catches a leader there (B15)."""
        board = self._t.board
        hunter = self._standing(view).get(board.region_of[vertex])
        if hunter is None:
            return 0.0
        return self._t.risk(suspicion)[board.dist[hunter][vertex]]

    def _heal_value(self, view: LiveView, me: Player, disease: int) -> float:
        """Worth of one heal of `disease`: track step end value, its reward, the all-tracks bonus share."""
        memo = self._hv.get(disease)
        if memo is not None:
            return memo
        d = self._c.diseases[disease]
        step = me.tracks[disease]
        value = self._hv[disease] = self.w.heal  # provisional: a reward that values a heal again (a Remedy) stops
        if step < len(d.rewards):
            value += (d.end_values[step + 1] - d.end_values[step]) + self._effect_value(d.rewards[step], me, view)
        if step == 0:
            zeros = sum(1 for x in me.tracks if x == 0)
            value += self._c.rules.all_tracks_bonus / zeros
        self._hv[disease] = value
        return value

    def _potion_value(self, view: LiveView, me: Player, potion: int, brewing: bool) -> float:
        """Worth of a potion in hand (plus its brewing Wisdom when `brewing`)."""
        memo = self._pv.get((potion, brewing))
        if memo is not None:
            return memo
        w = self.w
        pot = self._c.potions[potion]
        value = w.potion
        if brewing:
            value += pot.wisdom * w.wisdom
        if pot.kind == "remedy":
            disease = self._t.disease_of_remedy[potion]
            waiting = self._waiting
            if waiting is None:
                waiting = self._waiting = [0] * len(self._c.diseases)
                for pt in view.patients:
                    if not pt.healed_by >> self.seat & 1:
                        waiting[pt.disease] += 1
            held = me.potions[potion]
            if waiting[disease] > held:
                value += w.remedy + 0.5 * self._heal_value(view, me, disease)
            else:
                value += 0.3 * w.remedy / (1 + held)
        elif pot.use == "calming":
            value += 0.5 * self._sus_value(me.suspicion, 2)
        elif pot.use == "love":
            value += 0.5 * w.seat
        self._pv[potion, brewing] = value
        return value

    def _ingredient_need(self, view: LiveView, me: Player) -> list[float]:
        """Worth of one more of each resource (5 ingredients + Crystal) toward the recipes."""
        w = self.w
        need = [w.ingredient] * 5 + [w.crystal]
        res = me.res
        for k, recipe in enumerate(self._t.recipes):
            missing = [i for i, n in recipe if res[i] < n]
            if missing and len(missing) <= 2:
                share = 0.25 * self._potion_value(view, me, k, True) / len(missing)
                for i in missing:
                    need[i] += share
        return need

    def _brew_plan(self, view: LiveView, me: Player, discount: int) -> float:
        """Value of the best greedy Brew (up to the rule's maximum) from the current resources."""
        key = discount
        memo = self._plans.get(key)
        if memo is not None:
            return memo
        res = list(me.res)
        total = 0.0
        if sum(res) + discount >= 2:
            supply = view.potion_supply
            recipes = self._t.recipes
            brewed = [0] * len(recipes)
            half = 0.5 * self.w.ingredient
            candidates: Sequence[int] = range(len(recipes))
            for _ in range(self._c.rules.brew_max):
                best, best_v, best_gaps = -1, 0.0, 0
                budget = res[CRYSTAL] + discount
                feasible = []  # resources only shrink: later rounds look at these alone
                for k in candidates:
                    recipe = recipes[k]
                    if supply[k] <= brewed[k]:
                        continue
                    gaps = 0
                    for ing, n in recipe:
                        if res[ing] < n:
                            gaps += n - res[ing]
                    if gaps > budget:
                        continue
                    feasible.append(k)
                    v = self._potion_value(view, me, k, True) / (1 + brewed[k]) - half * len(recipe)
                    if v > best_v:
                        best, best_v, best_gaps = k, v, gaps
                if best < 0:
                    break
                candidates = feasible
                total += best_v
                brewed[best] += 1
                waive = min(discount, best_gaps)
                discount -= waive
                for ing, n in recipes[best]:
                    res[ing] = max(0, res[ing] - n)
                res[CRYSTAL] -= best_gaps - waive
        self._plans[key] = total
        return total

    def _vertex_gain(self, view: LiveView, me: Player, card: str, vertex: int, patients: ByArea) -> float:
        """What standing on `vertex` adds to playing `card` now (Collect lunar gains, Heal targets, shrines...)."""
        t = self._t
        w = self.w
        value = 0.0
        if card == "collect":
            turn = view.turn
            n = t.lunar_count((view.lunar[turn], view.lunar[turn + 1]))[vertex]
            value = n * w.ingredient + t.outcrops_at[vertex] * w.crystal
        elif card == "heal":
            gains = []
            for area in view.board.vertex_areas[vertex]:
                for pt in patients.get(area, ()):
                    if not pt.healed_by >> self.seat & 1 and me.potions[t.remedy_for_disease[pt.disease]] > 0:
                        gains.append(self._heal_value(view, me, pt.disease))
            gains.sort(reverse=True)
            value = sum(gains[:2])
        elif card == "ritual" and t.shrine_at[vertex]:
            value = 0.5 * w.spell if any(not sp.ready for sp in me.spells) else 0.0
        if t.building_areas[vertex]:
            value += sum(x for c, x in self._vertex_gains(view, vertex) if c == card)
        return value

    def _vertex_gains(self, view: LiveView, vertex: int) -> tuple[tuple[str, float], ...]:
        """The building gains next to `vertex`, memoised per game and recomputed when a building was raised (the
        game's buildings are compared once per decision, at the first lookup)."""
        if not self._buildings_checked:
            self._buildings_checked = True
            buildings = view.buildings
            if buildings != self._buildings:
                self._buildings = buildings
                self._vgains = {}
        gains = self._vgains.get(vertex)
        if gains is None:
            gains = self._vgains[vertex] = self._building_gains(view, vertex)
        return gains

    def _building_gains(self, view: LiveView, vertex: int) -> tuple[tuple[str, float], ...]:
        """(card, what the buildings next to `vertex` add to it) for the cards they strengthen."""
        buildings = self._buildings
        key = (self._wkey, vertex, *(buildings.get(a, -1) for a in self._t.building_areas[vertex]))
        gains = _BUILDING_GAINS.get(key)
        if gains is None:
            all_gains = [(card, self._building_gain(view, card, vertex)) for card in _BUILDING_CARDS]
            gains = _BUILDING_GAINS[key] = tuple((card, x) for card, x in all_gains if x)
        return gains

    def _building_gain(self, view: LiveView, card: str, vertex: int) -> float:
        """What the buildings next to `vertex` add to playing `card` (B21g)."""
        value = 0.0
        buildings = self._buildings
        trig = "play:" + card
        for area in self._t.building_areas[vertex]:
            b = buildings.get(area)
            if b is not None:
                ab = self._c.buildings[b].ability
                if ab.trigger == trig:
                    value += sum(self._effect_value(e, None) for e in ab.effects)
                elif ab.passive == "brew_discount" and card == "brew":
                    value += 1.5
        return value

    def _position(self, view: LiveView, me: Player, vertex: int, patients: ByArea) -> float:
        """Worth of standing on `vertex` for the coming turns (see ``_positions``)."""
        return self._positions(view, me, (vertex,), patients)[0]

    def _positions(self, view: LiveView, me: Player, vertices: Sequence[int], patients: ByArea) -> list[float]:
        """Worth of standing on each vertex for the coming turns: patients to heal, next turn's lunar ingredients,
        outcrops, minus the risk of the region's standing hunter."""
        t = self._t
        area_value = self._area_value  # per area: worth of its patients (0 without), once per decision
        if area_value is None:
            remedy = t.remedy_for_disease
            potions = me.potions
            seat = self.seat
            area_value = self._area_value = [0.0] * t.n_areas
            for area, pts in patients.items():
                area_value[area] = sum(
                    2.5 if potions[remedy[pt.disease]] > 0 else 0.5 for pt in pts if not pt.healed_by >> seat & 1
                )
            turn = view.turn
            lunar = view.lunar
            nxt = (lunar[turn + 1], lunar[turn + 2]) if turn + 2 < len(lunar) else (lunar[0], lunar[1])
            static = t.static_pos.get(nxt)
            if static is None:
                static = t.static_pos[nxt] = tuple(
                    0.6 * t.outcrops_at[v] + sum(0.6 if ing in nxt else 0.2 for ing in t.ingredients_at[v])
                    for v in range(len(t.outcrops_at))
                )
            self._static = static
        static = self._static
        board = t.board
        vertex_areas = board.vertex_areas
        region_of = board.region_of
        dist = board.dist
        standing = self._standing(view)
        sus = me.suspicion + 1
        risk = t.risk(sus)
        scale = self.w.position
        out = []
        for v in vertices:
            value = static[v]
            if patients:
                for area in vertex_areas[v]:
                    worth = area_value[area]
                    if worth:  # adding 0 would change nothing
                        value += worth
            hv = standing.get(region_of[v])
            if hv is not None:
                value -= 3.0 * risk[dist[hv][v]]
            out.append(value * scale)
        return out

    def _patients_by_area(self, view: LiveView) -> ByArea:
        out = self._pba
        if out is None:
            out = self._pba = {}
            for pt in view.patients:
                here = out.get(pt.area)
                if here is None:
                    out[pt.area] = [pt]
                else:
                    here.append(pt)
        return out

    def _trial_odds(self, view: LiveView, chamber: int) -> float:
        """Worth of one more of my citizens seated in a chamber (witch value times a share of the seats)."""
        first, second, seated = view.trial
        if (chamber == 1 and first < 0) or (chamber == 2 and not second):
            return 0.0
        witch = first if chamber == 1 else second[-1]
        mine = sum(1 for s in seated[chamber - 1] if s == self.seat)
        theirs = len(seated[chamber - 1]) - mine
        worth = 3.0 + 0.5 * self._witch_value[witch]
        return self.w.trial * worth / (1.5 + mine + 0.5 * theirs)

    def _crowd_factor(self, view: LiveView, me: Player) -> float:
        """Citizens in the crowd matter for trials, crowd picks and (last season) end scoring."""
        factor = 1.0
        if view.season == len(self._c.rules.seasons) - 1 and 2 <= me.crowd <= 4:
            factor += 0.8 * self.w.season_end
        return factor

    def _ritual_value(self, view: LiveView, me: Player, rows: int) -> float:
        """Worth of advancing `rows` rows up the ritual track (ribbons included)."""
        if not view.full:
            return 0.0
        track = self._c.ritual
        w = self.w
        value = 0.0
        row = me.ritual_row
        for _ in range(rows):
            if row >= len(track.rows):
                value += self._c.rules.ritual_top_wisdom * w.wisdom
                continue
            row += 1
            value += w.ritual_row
            ribbon = track.ribbons.get(row)
            if ribbon is not None and not me.ribbons >> row & 1:
                value += sum(self._effect_value(e, me, view) for e in ribbon[1]) - ribbon[0] * w.ingredient
        return value
