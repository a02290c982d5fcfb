"""The heuristic player: scores every legal option with a transparent, cheap evaluation driven by persona weights.

Each option gets a value in Wisdom units: Wisdom now, the expected Wisdom of what it gains (resources, potions, track
steps, citizens, ritual rows, spells), minus the cost of suspicion and of hunter risk; card choices add the expected
matching bonus (others' hands are public, the Septima's right marker is known) and progress toward the seat's own
Book of Divination goals. It reads only the ``PlayerView`` and never simulates the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from septima_sim.content.model import CRYSTAL, Content, Effect
from septima_sim.engine.board import Board
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.hunters import catch_chance, roll_tail
from septima_sim.engine.stats import player_stat
from septima_sim.engine.view import PatientState, PlayerView, SeatState
from septima_sim.players.weights import Weights

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
_NO_RAISE = frozenset({"chant", "shapeshift"})
"""Cards whose match raises no suspicion (B21b, S2)."""
_PASSIVE_VALUE: dict[str, tuple[str, float]] = {
    "brew_discount": ("brew", 4.0),
    "collect_extra": ("collect", 3.0),
    "heal_extra": ("heal", 3.0),
    "heal_any_track": ("heal", 2.5),
    "move_extra": ("move", 1.5),
    "trial_recall": ("plead", -1.0),
}
"""Passive abilities: the card they help and their rough worth over a game (Wisdom)."""


class _Tables:
    """Static per-content lookups (board features by vertex, recipes, die odds), shared by all seats."""

    __slots__ = (
        "action_ids",
        "board",
        "building_areas",
        "far",
        "heal",
        "ingredients_at",
        "lunar_counts",
        "outcrops_at",
        "recipes",
        "remedy_for_disease",
        "remember",
        "risk_rows",
        "shrine_at",
        "static_pos",
        "tail",
    )

    def __init__(self, content: Content, board: Board) -> None:
        self.board = board
        areas = content.areas
        va = board.vertex_areas
        self.action_ids = tuple(a.id for a in content.actions)
        self.remember = self.action_ids.index("remember") if "remember" in self.action_ids else -1
        self.heal = self.action_ids.index("heal") if "heal" in self.action_ids else -1
        self.ingredients_at = tuple(tuple(areas[a].ingredient for a in vs if areas[a].ingredient >= 0) for vs in va)
        self.outcrops_at = tuple(sum(1 for a in vs if areas[a].outcrop) for vs in va)
        self.shrine_at = tuple(tuple(areas[a].shrine for a in vs if areas[a].shrine) for vs in va)
        self.building_areas = tuple(tuple(a for a in vs if areas[a].town) for vs in va)
        disease_ids = [d.id for d in content.diseases]
        remedy = [-1] * len(disease_ids)
        for i, pot in enumerate(content.potions):
            if pot.kind == "remedy":
                remedy[disease_ids.index(pot.cures)] = i
        self.remedy_for_disease = tuple(remedy)
        self.recipes = tuple(
            tuple((ing, pot.recipe.count(ing)) for ing in sorted(set(pot.recipe))) for pot in content.potions
        )  # per potion: (ingredient, how many)
        self.lunar_counts: dict[tuple[int, int], tuple[int, ...]] = {}
        self.static_pos: dict[tuple[int, int], tuple[float, ...]] = {}  # next lunar pair -> value per vertex
        self.tail = roll_tail(content.rules.hunter_die)  # P(roll >= k), k >= 0
        self.far = 1 + max(max(row) for row in self.board.dist)  # distances 0 .. far - 1
        self.risk_rows: dict[int, tuple[float, ...]] = {}

    def risk(self, suspicion: int) -> tuple[float, ...]:
        """Per distance: the capture chance of a leader at `suspicion` (``hunters.catch_chance``, tabulated)."""
        row = self.risk_rows.get(suspicion)
        if row is None:
            row = self.risk_rows[suspicion] = tuple(catch_chance(self.tail, d, suspicion) for d in range(self.far))
        return row

    def lunar_count(self, lunar: tuple[int, int]) -> tuple[int, ...]:
        """Per vertex: adjacent areas whose ingredient is one of the two lunar ingredients."""
        counts = self.lunar_counts.get(lunar)
        if counts is None:
            counts = self.lunar_counts[lunar] = tuple(
                sum(1 for ing in ings if ing in lunar) for ings in self.ingredients_at
            )
        return counts


ByArea = dict[int, list[PatientState]]
"""Patients by the area they stand next to."""

_TABLES: dict[str, _Tables] = {}
"""Content hash -> static lookups."""
_BUILDING_GAINS: dict[tuple[object, ...], tuple[tuple[str, float], ...]] = {}
"""(persona weights, vertex, buildings next to it) -> (card, what the buildings add) when not 0; kept across games."""
_BUILDING_CARDS = ("collect", "brew", "chant", "recruit", "plead", "remember", "move")
"""Cards a building can strengthen (triggers and the brewing discount)."""
_SHARED: dict[tuple[str, str], tuple[tuple[float, ...], dict[tuple[int, int], float]]] = {}
"""(persona weights, content hash) -> witch values and the suspicion-cost memo, shared by all instances."""


def _tables(view: PlayerView) -> _Tables:
    content = view.content
    t = _TABLES.get(content.hash)
    if t is None:
        t = _TABLES[content.hash] = _Tables(content, view.board)
    return t


class HeuristicPolicy:
    """A scripted player: picks the option with the highest weighted value (ties: the first)."""

    live_view: ClassVar[bool] = True  # built-in, hot path: reads the live view (see engine/view.py)

    __slots__ = (
        "_area_value",
        "_buildings",
        "_c",
        "_fresh",
        "_goals",
        "_hash",
        "_hunt",
        "_hv",
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
    )

    def __init__(self, name: str, weights: Weights) -> None:
        self.name = name
        self.w = weights
        self.seat = 0
        self._rng = random.Random(0)
        self._t: _Tables = None  # type: ignore[assignment]  # set at the first decision of a game
        self._fresh = True
        self._c: Content = None  # type: ignore[assignment]
        self._witch_value: tuple[float, ...] = ()
        self._hash = ""
        # per-decision memos (cleared by every choose)
        self._pv: dict[tuple[int, bool], float] = {}
        self._hv: dict[int, float] = {}
        self._plans: dict[int, float] = {}
        self._hunt: dict[int, int] | None = None  # region -> vertex of its standing hunter
        self._pba: ByArea | None = None
        self._area_value: dict[int, float] | None = None
        self._waiting: list[int] | None = None
        self._static: tuple[float, ...] = ()
        self._wkey = repr(weights)
        self._sus_memo: dict[tuple[int, int], float] = {}
        self._sus_rows: dict[int, list[float]] = {}  # suspicion level -> cost of raising it 0..3 points
        self._buildings: dict[int, int] = {}
        self._goals: list[tuple[str, bool, int, float, tuple[str, ...]]] | None = None
        self._vgains: dict[int, tuple[tuple[str, float], ...]] = {}  # this game's building gains by vertex

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self._rng = rng
        self._fresh = True
        self._goals = None
        self._vgains = {}

    # ------------------------------------------------------------------------------------------------ dispatch
    def choose(self, decision: Decision, view: PlayerView) -> int:
        """Index of the best-valued option."""
        if self._fresh:
            self._fresh = False
            self._t = _tables(view)
            self._c = view.content
            self._buildings = view.buildings
            if self._hash != self._c.hash:
                self._hash = self._c.hash
                key = (self._wkey, self._hash)
                shared = _SHARED.get(key)
                if shared is None:
                    witches = tuple(self._value_witch(self._c, i) for i in range(len(self._c.witches)))
                    shared = _SHARED[key] = (witches, self._sus_memo)
                self._witch_value, self._sus_memo = shared
        if self._pv or self._hv or self._plans:
            self._pv = {}
            self._hv = {}
            self._plans = {}
        self._hunt = self._pba = self._area_value = self._waiting = None
        handler = _HANDLERS.get(decision.kind)
        if handler is None:
            return self._rng.randrange(len(decision.options))
        values = handler(self, decision, view)
        return values.index(max(values))  # ties: the first

    # ------------------------------------------------------------------------------------------------ values
    def _value_witch(self, content: Content, witch: int) -> float:
        """Worth of having a witch in the coven for the rest of a game (persona-dependent)."""
        ab = content.witches[witch].ability
        w = self.w
        if ab.passive:
            card, worth = _PASSIVE_VALUE.get(ab.passive, ("", 1.0))
            return 3.0 + worth + w.biased(card)
        effects = sum(self._effect_value(e, None) for e in ab.effects)
        uses = 3.0 if ab.trigger == "after_trial" else 2.5
        card = ab.trigger.split(":", 1)[1] if ab.trigger.startswith("play:") else ""
        return 3.0 + effects * uses * (1.0 + 0.25 * w.biased(card))

    def _effect_value(self, e: Effect, me: SeatState | None) -> float:
        """Rough Wisdom worth of one content effect."""
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
            if me is None:
                return -e.amount * w.suspicion
            return self._sus_value(me.suspicion, -e.amount) if e.amount < 0 else -self._sus_cost(me.suspicion, e.amount)
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
            return w.potion + 1.5
        if kind == "move":
            return 2.0 * w.position
        if kind == "return_card":
            return 1.5
        if kind == "magic_mirror":
            return 2.0
        return e.amount * 1.0

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

    def _standing(self, view: PlayerView) -> dict[int, int]:
        """Region -> vertex of the standing (active) hunter on its hunter space."""
        hunt = self._hunt
        if hunt is None:
            vertex = self._t.board.hunter_vertex
            hunt = self._hunt = {space: vertex[space] for space, up in view.hunters if up}
        return hunt

    def _capture_p(self, view: PlayerView, vertex: int, suspicion: int) -> float:
        """Probability that the active hunter of the vertex's region catches a leader there (B15)."""
        board = self._t.board
        hunter = self._standing(view).get(board.region_of[vertex])
        if hunter is None:
            return 0.0
        return self._t.risk(suspicion)[board.dist[hunter][vertex]]

    def _heal_value(self, view: PlayerView, me: SeatState, disease: int) -> float:
        """Worth of one heal of `disease`: track step end value, its reward, the all-tracks bonus share."""
        memo = self._hv.get(disease)
        if memo is not None:
            return memo
        d = self._c.diseases[disease]
        step = me.tracks[disease]
        value = self.w.heal
        if step < len(d.rewards):
            value += (d.end_values[step + 1] - d.end_values[step]) + self._effect_value(d.rewards[step], me)
        if step == 0:
            zeros = sum(1 for x in me.tracks if x == 0)
            value += self._c.rules.all_tracks_bonus / zeros
        self._hv[disease] = value
        return value

    def _potion_value(self, view: PlayerView, me: SeatState, potion: int, brewing: bool) -> float:
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
            disease = self._t.remedy_for_disease.index(potion)
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

    def _ingredient_need(self, view: PlayerView, me: SeatState) -> list[float]:
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

    def _brew_plan(self, view: PlayerView, me: SeatState, discount: int) -> float:
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

    def _vertex_gain(self, view: PlayerView, me: SeatState, card: str, vertex: int, patients: ByArea) -> float:
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
            building = self._vgains.get(vertex)
            if building is None:
                building = self._vgains[vertex] = self._building_gains(view, vertex)
            value += sum(x for c, x in building if c == card)
        return value

    def _building_gains(self, view: PlayerView, vertex: int) -> tuple[tuple[str, float], ...]:
        """(card, what the buildings next to `vertex` add to it) for the cards they strengthen."""
        buildings = self._buildings
        key = (self._wkey, vertex, *(buildings.get(a, -1) for a in self._t.building_areas[vertex]))
        gains = _BUILDING_GAINS.get(key)
        if gains is None:
            all_gains = [(card, self._building_gain(view, card, vertex)) for card in _BUILDING_CARDS]
            gains = _BUILDING_GAINS[key] = tuple((card, x) for card, x in all_gains if x)
        return gains

    def _building_gain(self, view: PlayerView, card: str, vertex: int) -> float:
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

    def _position(self, view: PlayerView, me: SeatState, vertex: int, patients: ByArea) -> float:
        """Worth of standing on `vertex` for the coming turns (see ``_positions``)."""
        return self._positions(view, me, (vertex,), patients)[0]

    def _positions(self, view: PlayerView, me: SeatState, vertices: Sequence[int], patients: ByArea) -> list[float]:
        """Worth of standing on each vertex for the coming turns: patients to heal, next turn's lunar ingredients,
        outcrops, minus the risk of the region's standing hunter."""
        t = self._t
        area_value = self._area_value  # worth of the patients of an area, filled lazily
        if area_value is None:
            area_value = self._area_value = {}
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
        remedy = t.remedy_for_disease
        potions = me.potions
        seat = self.seat
        for v in vertices:
            value = static[v]
            if patients:
                for area in vertex_areas[v]:
                    pts = patients.get(area)
                    if pts:
                        worth = area_value.get(area)
                        if worth is None:
                            worth = area_value[area] = sum(
                                2.5 if potions[remedy[pt.disease]] > 0 else 0.5
                                for pt in pts
                                if not pt.healed_by >> seat & 1
                            )
                        value += worth
            hv = standing.get(region_of[v])
            if hv is not None:
                value -= 3.0 * risk[dist[hv][v]]
            out.append(value * scale)
        return out

    def _patients_by_area(self, view: PlayerView) -> ByArea:
        out = self._pba
        if out is None:
            out = self._pba = {}
            for pt in view.patients:
                out.setdefault(pt.area, []).append(pt)
        return out

    def _trial_odds(self, view: PlayerView, chamber: int) -> float:
        """Worth of one more of my citizens seated in a chamber (witch value times a share of the seats)."""
        first, second, seated = view.trial
        if (chamber == 1 and first < 0) or (chamber == 2 and not second):
            return 0.0
        witch = first if chamber == 1 else second[-1]
        mine = sum(1 for s in seated[chamber - 1] if s == self.seat)
        theirs = len(seated[chamber - 1]) - mine
        worth = 3.0 + 0.5 * self._witch_value[witch]
        return self.w.trial * worth / (1.5 + mine + 0.5 * theirs)

    # ------------------------------------------------------------------------------------------------ cards
    def _spots(
        self, view: PlayerView, me: SeatState, verts: list[int], patients: ByArea, heal: bool = True
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
                building = self._vgains.get(v)
                if building is None:
                    building = self._vgains[v] = self._building_gains(view, v)
                for card, extra in building:
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

    def _card_main(self, view: PlayerView, me: SeatState, card: str, spots: dict[str, float]) -> float:
        """Expected worth of a card's main ability (best pre-move vertex)."""
        return self._card_eval(view, me, card, spots)[0]

    def _card_eval(self, view: PlayerView, me: SeatState, card: str, spots: dict[str, float]) -> tuple[float, float]:
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
        if card == "ritual":
            return spot + self._ritual_value(view, me, 1), w.ingredient
        if card == "shapeshift":  # discarded cards back to hand; animal form keeps suspicion from rising
            return 0.8 * len(me.discard) + self._sus_value(me.suspicion, 2), self._sus_value(me.suspicion, 1)
        return spot, 0.5 * spot

    def _crowd_factor(self, view: PlayerView, me: SeatState) -> float:
        """Citizens in the crowd matter for trials, crowd picks and (last season) end scoring."""
        factor = 1.0
        if view.season == len(self._c.rules.seasons) - 1 and 2 <= me.crowd <= 4:
            factor += 0.8 * self.w.season_end
        return factor

    def _ritual_value(self, view: PlayerView, me: SeatState, rows: int) -> float:
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
                value += sum(self._effect_value(e, me) for e in ribbon[1]) - ribbon[0] * w.ingredient
        return value

    def _cards(self, decision: Decision, view: PlayerView) -> list[float]:
        t = self._t
        w = self.w
        me = view.me
        ids = t.action_ids
        players = view.players
        right = view.septima_markers[0]
        occupied = {q.vertex for q in players if q.seat != self.seat}
        verts = [me.vertex] + [v for v in view.board.neighbours[me.vertex] if v not in occupied]
        patients = self._patients_by_area(view)
        options = decision.options
        miss = [1.0] * len(ids)  # P(no other seat plays the card), each guessed uniform over its hand
        for q in players:
            if q.seat != self.seat:
                hand = q.hand
                size = sum(hand)
                if size:
                    f = 1.0 - 1.0 / size
                    for c in options:
                        if hand[c]:
                            miss[c] *= f
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
        last_turn = view.turn == self._c.rules.turns_per_season - 1
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
        for c in decision.options:
            card = ids[c]
            p_other = 1.0 - miss[c]
            septima = c == right
            p_match = 1.0 if septima else p_other
            value = mains[c] + p_match * bonuses[c] * w.match
            if card == above and p_match:
                value += p_match * self._ritual_value(view, me, 1)
            if animal:
                pass  # S4: in animal form suspicion never rises
            elif card not in _NO_RAISE:
                base = 2 if septima else 0
                cost = p_other * sus_cost[base + 1] + (1.0 - p_other) * sus_cost[base] + p_match * capture
                value -= cost * end_factor
            elif last_turn:
                value += 0.5 * w.season_end * self._sus_value(sus, 2)
            if mains[c] > 0.0:  # a persona prefers a card only when it does something now
                value += bias.get(card, 0.0) + goal_bias.get(card, 0.0)
            values.append(value)
        return values

    def _goal_bias(self, view: PlayerView, me: SeatState) -> dict[str, float]:
        """Card biases toward own unmet Book of Divination goals."""
        goals = self._goals
        if goals is None:
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
            value = _stat(self._c, me, stat)
            if (value >= target) if at_least else (value <= target):
                continue
            for card in cards:
                out[card] = out.get(card, 0.0) + bonus
        return out

    # ------------------------------------------------------------------------------------------------ handlers
    def _start_vertex(self, decision: Decision, view: PlayerView) -> list[float]:
        """Leader start: a rich position (ingredient areas, patients, outcrops) away from the hunters."""
        positions = self._positions(view, view.me, decision.options, self._patients_by_area(view))
        ingredients = self._t.ingredients_at
        return [pos + 0.3 * len(ingredients[v]) for v, pos in zip(decision.options, positions, strict=True)]

    def _draft_return(self, decision: Decision, view: PlayerView) -> list[float]:
        return [-self._witch_value[w] for w in decision.options]

    def _premove(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        card_i = view.played[self.seat]
        card = ids[card_i]
        if card == "remember" and me.discard:
            card = ids[me.discard[-1]]
        played = view.played
        others = played.count(card_i) > 1  # my own card is among the played ones
        septima = card_i == view.septima_markers[0]
        no_raise = ids[card_i] in _NO_RAISE or me.no_raise
        raise_by = 0 if no_raise else (1 if others else 0) + (2 if septima else 0)
        gain = card in ("collect", "heal", "ritual")
        if not (raise_by or gain or any(me.potions)):
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

    def _move(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        patients = self._patients_by_area(view)
        values = self._positions(view, me, decision.options, patients)
        if me.vertex in decision.options:  # staying wins ties
            values[decision.options.index(me.vertex)] += 0.01
        return values

    def _ingredient(self, decision: Decision, view: PlayerView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        return [need[i] for i in decision.options]

    def _instead(self, decision: Decision, view: PlayerView) -> list[float]:
        w = self.w
        return [w.ingredient, w.crystal + 0.5 * w.position]

    def _brew(self, decision: Decision, view: PlayerView) -> list[float]:
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

    def _heal(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        patients = {pt.space: pt for pt in view.patients}
        return [self._heal_value(view, me, patients[s].disease) if s else 0.0 for s in decision.options]

    def _track(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        return [self._heal_value(view, me, d) for d in decision.options]

    def _lose_witch(self, decision: Decision, view: PlayerView) -> list[float]:
        return [-self._witch_value[w] for w in decision.options]

    def _recruit(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        witch = decision.context
        if not isinstance(witch, int) or len(me.coven) < self._c.rules.max_witches:
            return [1.0 if o == 1 else 0.0 for o in decision.options]
        worst = min(self._witch_value[x] for x in me.coven)
        gain = self._witch_value[witch] - worst
        return [gain if o == 1 else 0.0 for o in decision.options]

    def _crowd_pick(self, decision: Decision, view: PlayerView) -> list[float]:
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

    def _pay(self, decision: Decision, view: PlayerView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        # declining keeps the resource; paying is for a ribbon (valued when the ritual was chosen)
        return [-need[i] if i >= 0 else -3.0 * self.w.ritual_row for i in decision.options]

    def _charm(self, decision: Decision, view: PlayerView) -> list[float]:
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

    def _spell_use(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        spells = self._c.spells
        out = []
        for i in decision.options:
            if i < 0:
                out.append(0.3)
            else:
                s = spells[me.spells[i].idx]
                out.append(sum(self._effect_value(e, me) for e in s.effects) + (2.0 if s.ongoing else 0.0))
        return out

    def _ready_spell(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        spells = self._c.spells
        return [sum(self._effect_value(e, me) for e in spells[me.spells[i].idx].effects) for i in decision.options]

    def _spell_gain(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        content = self._c
        market = view.spell_market
        elapsed = max(1, view.season * content.rules.turns_per_season + view.turn + 1)
        total = len(content.rules.seasons) * content.rules.turns_per_season
        out = []
        for e, slot in decision.options:
            s = content.spells[market[e][slot]]
            if s.kind == "scoring":
                now = _stat(content, me, s.per)
                projected = now * total / elapsed
                out.append(projected // s.unit * s.amount)
            else:
                uses = (total - elapsed) / 8.0
                value = sum(self._effect_value(x, me) for x in s.effects) * uses
                out.append(value * (1.0 + 0.2 * self.w.biased(s.requires)) + (2.0 if s.ongoing else 0.0))
        return out

    def _potion_use(self, decision: Decision, view: PlayerView) -> list[float]:
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

    def _calming(self, decision: Decision, view: PlayerView) -> list[float]:
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

    def _ritual_bonus(self, decision: Decision, view: PlayerView) -> list[float]:
        need = self._ingredient_need(view, view.me)
        ready = 0.5 * self.w.spell
        return [need[i] if i >= 0 else ready for i in decision.options]

    def _ritual_shift(self, decision: Decision, view: PlayerView) -> list[float]:
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
            out.append(value + (0.05 if when < 0 else 0.0))
        return out

    def _chamber(self, decision: Decision, view: PlayerView) -> list[float]:
        return [self._trial_odds(view, c) for c in decision.options]

    def _remember(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        spots = self._spots(view, me, [me.vertex], self._patients_by_area(view))
        return [self._card_main(view, me, ids[c], spots) for c in decision.options]

    def _return_card(self, decision: Decision, view: PlayerView) -> list[float]:
        me = view.me
        ids = self._t.action_ids
        spots = self._spots(view, me, [me.vertex], self._patients_by_area(view))
        return [self._card_main(view, me, ids[c], spots) + self.w.biased(ids[c]) for c in decision.options]

    def _mirror(self, decision: Decision, view: PlayerView) -> list[float]:
        return [self._witch_value[w] for w in decision.options]

    def _animal(self, decision: Decision, view: PlayerView) -> list[float]:
        """Shapeshift: the animal whose four actions this persona likes best."""
        animals = self._c.animals
        bias = self.w.bias
        return [sum(bias.get(a, 0.0) for a in animals[i].actions) for i in decision.options]

    def _turn_back(self, decision: Decision, view: PlayerView) -> list[float]:
        """Stay an animal (0) while suspicion is worth lowering, else turn back (1) to play any card."""
        sus = view.me.suspicion
        return [self._sus_value(sus, 1) if o == 0 else 0.5 for o in decision.options]

    def _animal_ability(self, decision: Decision, view: PlayerView) -> list[float]:
        """Use the animal's ability (1) rather than not (0); Fox: the best vertex next to a Root area, -1 = stay."""
        if decision.context != "fox":
            return [1.0 if o == 1 else 0.0 for o in decision.options]
        me = view.me
        patients = self._patients_by_area(view)
        here = self._position(view, me, me.vertex, patients)
        gain = self.w.ingredient
        return [here if v < 0 else gain + self._position(view, me, v, patients) for v in decision.options]

    def _omen(self, decision: Decision, view: PlayerView) -> list[float]:
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


def _stat(content: Content, me: SeatState, name: str) -> int:
    """A statistic of the own seat as the engine scores it (0 for those that need the whole game)."""
    value = player_stat(content, me, name)
    return 0 if value is None else value


_HANDLERS = {
    Kind.START_VERTEX: HeuristicPolicy._start_vertex,
    Kind.DRAFT_RETURN: HeuristicPolicy._draft_return,
    Kind.CARD: HeuristicPolicy._cards,
    Kind.PREMOVE: HeuristicPolicy._premove,
    Kind.MOVE: HeuristicPolicy._move,
    Kind.INGREDIENT: HeuristicPolicy._ingredient,
    Kind.INSTEAD: HeuristicPolicy._instead,
    Kind.BREW: HeuristicPolicy._brew,
    Kind.HEAL: HeuristicPolicy._heal,
    Kind.TRACK: HeuristicPolicy._track,
    Kind.LOSE_WITCH: HeuristicPolicy._lose_witch,
    Kind.RECRUIT: HeuristicPolicy._recruit,
    Kind.DISCARD_WITCH: HeuristicPolicy._lose_witch,
    Kind.CROWD_PICK: HeuristicPolicy._crowd_pick,
    Kind.PAY: HeuristicPolicy._pay,
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
