"""The game of Septima: setup, the four seasons and their phases, as the rulebook orders them.

``play_game`` is the engine's entry point: a game is a pure function of (config, content, policies, seed).
The card abilities live in ``actions``, card/witch/spell effects in ``effects``, the trial phase in ``trials`` and the
final scoring in ``scoring``; this module holds the flow and the shared rules (suspicion, hunters, movement).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from septima_sim.content.model import CRYSTAL, INGREDIENTS, Content
from septima_sim.engine import actions, effects, hunters, potions, ritual, scoring, spells, trials
from septima_sim.engine.board import REGIONS
from septima_sim.engine.config import COLOURS, GameConfig
from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.draws import below, shuffle
from septima_sim.engine.game_state import GameState
from septima_sim.engine.modules import MODULES, BoundHooks, Module
from septima_sim.engine.modules.spec import columns
from septima_sim.engine.results import SOURCE_INDEX, GameResult
from septima_sim.engine.seeds import spawn_words
from septima_sim.engine.state import TABLE, Patient, Player
from septima_sim.engine.tables import Tables, tables_for
from septima_sim.engine.view import LiveView, Recorder, SealedView, Simulator, make_view, trusted

EventSink = Callable[[dict[str, object]], None]
RESOURCE_NAMES: tuple[str, ...] = (*INGREDIENTS, "crystal")


def random_streams(seed: int) -> tuple[random.Random, random.Random, random.Random, random.Random]:
    """Four independent streams from one game seed: setup, card/tile draws, dice, policies (seeded from
    ``SeedSequence(seed).spawn(4)``, computed by ``seeds.spawn_words``)."""
    a, b, c, d = (random.Random(word) for word in spawn_words(seed, 4))
    return a, b, c, d


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: tests and tools subclass Game to watch it
class Game:
    """A game in progress. Built by ``play_game``; policies see it only through ``PlayerView``."""

    def __init__(
        self,
        config: GameConfig,
        content: Content,
        policies: Sequence[Policy],
        seed: int,
        sink: EventSink | None = None,
    ) -> None:
        self.config = config.validate()
        if len(policies) != config.players:
            raise ValueError(f"{config.players} players need {config.players} policies, got {len(policies)}")
        self.content = content
        self.rules = content.rules
        self.full = config.full
        self.seed = seed
        self.sink = sink
        self.cause = "setup"  # the component or rule acting now: the default cause of a state change (events, Wisdom)
        self.rng_setup, self.rng_draw, self.rng_dice, rng_policy = random_streams(seed)
        self.n = config.players
        self.policies = list(policies)
        self._use_tables(tables_for(content, self.full))
        s = GameState(self.n)  # the per-game state (engine/game_state.py); module state lives on the modules
        s.hand_actions = self.mode_actions
        s.players = [
            Player(seat, COLOURS[seat], len(content.actions), len(content.potions), len(content.diseases))
            for seat in range(self.n)
        ]
        s.potion_supply = [self.rules.potion_supply] * len(content.potions)
        self.s = s
        self.recorder: Recorder | None = None  # set by a searcher that branches at any decision (Simulator.record)
        self._start_policies(rng_policy)
        # rules modules (engine/modules): enabled ones in registry order, and per hook the ones that use it
        self.modules: tuple[Module, ...] = tuple(s.factory() for s in MODULES.values() if s.name in config.modules)
        self.module_by_name = {m.name: m for m in self.modules}
        for m in self.modules:
            m.init(self)
        self.hooks = BoundHooks(self.modules)
        self.keeps_discards = any(m.keeps_discards for m in self.modules)
        self.action_defaults = columns().action

    def _use_tables(self, t: Tables) -> None:
        """The content-derived lookups (shared by every game of the pack and mode, never written to)."""
        self.tables = t
        self.board = t.board
        self.action_ids, self.action_index, self.mode_actions = t.action_ids, t.action_index, t.mode_actions
        self.icon, self.chant, self.play_trigger = t.icon, t.chant, t.play_trigger
        self.potion_index, self.ingredient_index, self.remedy_of = t.potion_index, t.ingredient_index, t.remedy_of
        self.practical_by_use, self.usable_practicals = t.practical_by_use, t.usable_practicals
        self.space_order = t.space_order

    def _start_policies(self, rng: random.Random) -> None:
        """Reset each policy with its seat and its own random stream, give it its view (sealed unless it is a
        built-in that reads the live one) and, when it asks for one (``attach``), the search capability."""
        for s, pol in enumerate(self.policies):
            pol.reset(s, random.Random(rng.getrandbits(64)))
            attach = getattr(pol, "attach", None)
            if attach is not None and trusted(pol):  # a Simulator holds the game: built-in players only
                attach(Simulator(self, s))
        self.views: list[LiveView | SealedView] = [make_view(self, s, p) for s, p in enumerate(self.policies)]
        self.sealed: list[SealedView | None] = [v if isinstance(v, SealedView) else None for v in self.views]
        self.any_sealed = any(v is not None for v in self.sealed)  # the hot path checks this flag first

    def view(self, seat: int) -> LiveView | SealedView:
        """The seat's view as its policy would see it now."""
        sealed = self.sealed[seat]
        if sealed is not None:
            sealed.seal(self, seat)
        return self.views[seat]

    # ------------------------------------------------------------------------------------------------ helpers
    def module(self, name: str) -> Module:
        """The enabled module registered under ``name`` (KeyError when it is off)."""
        return self.module_by_name[name]

    def ask(self, kind: str, seat: int, options: Sequence[Any], context: object = None) -> Any:
        """Ask the seat's policy to choose; a single option is taken without asking."""
        if len(options) == 1:
            return options[0]
        self.s.decisions += 1
        opts = tuple(options)
        if self.any_sealed:
            sealed = self.sealed[seat]
            if sealed is not None:
                sealed.seal(self, seat)
        i = self.policies[seat].choose(Decision(kind, seat, opts, context), self.views[seat])
        if self.recorder is not None:
            self.recorder.trace.append(i)
        return opts[i]

    def ask_or_stop(self, kind: str, seat: int, options: list[Any], stop: Any = -1, context: object = None) -> Any:
        """Ask for one of `options` (not empty: callers leave their loop first, in the hot path) or to stop (`stop`
        is offered last). The step of every "choose again until you stop" loop (brewing, healing, crowd picks,
        spells, potions)."""
        options.append(stop)
        return self.ask(kind, seat, options, context)

    def emit(self, kind: str, seat: int, **fields: object) -> None:
        """Send an event to the sink (callers check ``self.sink`` first to keep the hot path free)."""
        record: dict[str, object] = {
            "season": self.s.season + 1,
            "turn": self.s.turn + 1,
            "step": self.s.step,
            "seat": seat,
            "kind": kind,
            "cause": self.cause,
        }
        if kind == "action":  # the fields modules add to actions, at their values when the module is off
            record.update(self.action_defaults)
        record.update(fields)
        for module_fields in self.hooks.event_fields:
            module_fields(self, record)
        assert self.sink is not None
        self.sink(record)

    def caused(self, cause: str) -> str:
        """Make `cause` the acting component (the default cause of the changes that follow); returns the previous one,
        which the caller puts back (``g.cause = prev``) when its component is done."""
        prev = self.cause
        self.cause = cause
        return prev

    def note(self, kind: str, seat: int, detail: object, cause: str | None = None) -> None:
        """An event for a state change other than Wisdom or suspicion (hand, coven, ingredients, potions, leader,
        citizens, ritual row, board), with its cause. Callers check ``self.sink`` first."""
        self.emit(kind, seat, detail=str(detail), cause=cause or self.cause)

    def gain_wisdom(self, p: Player, amount: int, source: str, cause: str | None = None) -> None:
        """Gain Wisdom, booked under its source (a results column) and its cause (``components``)."""
        if amount:
            self._book_wisdom(p, amount, source, cause)

    def lose_wisdom(self, p: Player, amount: int, source: str = "penalties", cause: str | None = None) -> None:
        """Lose Wisdom, never below 0 (B13: ignore what cannot be paid)."""
        loss = min(amount, p.wisdom)
        if loss:
            self._book_wisdom(p, -loss, source, cause)

    def _book_wisdom(self, p: Player, delta: int, source: str, cause: str | None) -> None:
        """Change a seat's Wisdom by `delta`, booked under `source` and the cause (the acting component unless
        named); an event with before/after when there is a sink."""
        p.wisdom += delta
        p.src[SOURCE_INDEX[source]] += delta
        c = cause or self.cause
        comp = p.comp
        comp[c] = comp.get(c, 0) + delta
        if self.sink is not None:
            self.emit("wisdom", p.seat, wisdom_before=p.wisdom - delta, wisdom_after=p.wisdom, cause=c, detail=source)

    def gain_res(self, p: Player, idx: int, n: int = 1) -> None:
        if idx == CRYSTAL:
            n = min(n, self.s.crystal_supply)
            self.s.crystal_supply -= n
        else:
            p.ingredients_gained += n
        p.res[idx] += n
        if self.sink is not None and n:
            self.note("ingredients", p.seat, f"+{n} {RESOURCE_NAMES[idx]}")

    def pay_res(self, p: Player, idx: int, n: int = 1, cause: str | None = None) -> None:
        """Take resources from a player (Crystals back to the supply); rules pay through ``payment.pay``, which
        names the `cause` (else the acting component)."""
        p.res[idx] -= n
        if idx == CRYSTAL:
            self.s.crystal_supply += n
        if self.sink is not None and n:
            self.note("ingredients", p.seat, f"-{n} {RESOURCE_NAMES[idx]}", cause)

    def choose_ingredient(self, p: Player, options: Sequence[int] = tuple(range(len(INGREDIENTS)))) -> None:
        if options:
            self.gain_res(p, self.ask(Kind.INGREDIENT, p.seat, options))

    def free_vertices(self, p: Player, steps: int) -> list[int]:
        """Vertices the leader may end on within `steps` (-1 = any): unoccupied, plus staying put (B18)."""
        here = p.vertex
        occ = self.s.occupied
        return [v for v in self.board.reach(here, steps) if v == here or v not in occ]

    def move_to(self, p: Player, vertex: int) -> None:
        if self.sink is not None and vertex != p.vertex:
            self.note("leader", p.seat, f"{p.vertex} -> {vertex}")
        self.s.occupied.discard(p.vertex)
        p.vertex = vertex
        self.s.occupied.add(vertex)

    def move_leader(self, p: Player, steps: int) -> None:
        """Move up to `steps` steps (-1 = any number); the end vertex must be free."""
        self.move_to(p, self.ask(Kind.MOVE, p.seat, self.free_vertices(p, steps)))

    def lower_suspicion(self, p: Player, n: int, cause: str | None = None, kind: str = "suspicion_change") -> None:
        """Lower suspicion by n, never below the track's bottom."""
        before = p.suspicion
        p.suspicion = max(self.rules.suspicion_min, before - n)
        if self.sink is not None and p.suspicion != before:
            self._suspicion_event(kind, p, before, cause)

    def _suspicion_event(self, kind: str, p: Player, before: int, cause: str | None) -> None:
        self.emit(
            kind,
            p.seat,
            suspicion_before=before,
            suspicion_after=p.suspicion,
            cause=cause or self.cause,
            detail=f"{p.suspicion - before:+d}",
        )

    def raise_suspicion(self, p: Player, n: int, cause: str | None = None, kind: str = "suspicion_change") -> None:
        """B13: raise one point at a time; a point above the top triggers an overflow instead."""
        if n <= 0 or p.no_raise:  # S4: in animal form suspicion is never raised
            return
        if self.s.fx.uses_on_raise:
            self.s.fx.on_raise(self, p)
        p.raised = True
        top = self.rules.suspicion_max
        before = p.suspicion
        for _ in range(n):
            if p.suspicion < top:
                p.suspicion += 1
                if p.suspicion > p.suspicion_max:
                    p.suspicion_max = p.suspicion
            else:
                p.overflows += 1
                if self.sink is not None:
                    if p.suspicion != before:
                        self._suspicion_event(kind, p, before, cause)
                    self.emit("overflow", p.seat, cause="overflow")
                prev = self.caused("overflow")
                self.lose_witch_or_wisdom(p)
                self.cause = prev
                before = p.suspicion
        if self.sink is not None and p.suspicion != before:
            self._suspicion_event(kind, p, before, cause)

    def lose_witch_or_wisdom(self, p: Player) -> None:
        """Overflow or capture (B13, B15): a witch to the second chamber (2+ witches) or -5 Wisdom;
        then suspicion -1 and the leader may move any number of steps (the cause in force: overflow or capture)."""
        if len(p.coven) >= 2:
            w = self.ask(Kind.LOSE_WITCH, p.seat, p.coven)
            p.coven.remove(w)
            self.s.chamber2.append(w)
            p.witches_lost += 1
            if self.sink is not None:
                self.note("coven", p.seat, f"-{self.content.witches[w].id} to the second chamber")
        else:
            self.lose_wisdom(p, self.rules.overflow_wisdom_loss)
        self.lower_suspicion(p, 1)
        self.move_leader(p, -1)

    def matched(self, seat: int, card: int) -> tuple[int, bool]:
        """How many other seats revealed a card with the same icon, and whether the Septima's right marker shows
        it (B12; S2: Shapeshift carries the Chant icon)."""
        s = self.s
        icon = self.icon
        mine = icon[card]
        others = 0
        played = s.played
        for other in range(self.n):
            if other != seat and played[other] >= 0 and icon[played[other]] == mine:
                others += 1
        for extra_matches in self.hooks.extra_matches:  # W1: matching the Widow = a player
            others += extra_matches(self, mine)
        return others, mine == s.septima_right

    # ------------------------------------------------------------------------------------------------ setup
    def setup(self) -> None:
        """B5-B6: players, witch draft, goals, board, hunters, markers, patients, leaders. A witch forced to a seat
        (rules.toml ``[setup.forced]``) leaves the deck after the shuffle and is one of that seat's dealt witches,
        never given back in the draft."""
        s = self.s
        r, rs, c = self.rules, self.rng_setup, self.content
        s.start_player = s.first_player = below(rs, self.n)
        s.order = [(s.start_player + i) % self.n for i in range(self.n)]
        s.crystal_supply = r.crystal_supply
        for p in s.players:
            p.suspicion = r.suspicion_start
            p.suspicion_max = p.suspicion
            p.supply = r.loyal_citizens
            p.charms = r.start_charms
            p.hand = [i in s.hand_actions for i in range(len(c.actions))]
            self.gain_res(p, CRYSTAL, r.start_crystals)
            p.ritual_col = c.ritual.start_column
        s.witch_deck = list(range(len(c.witches)))
        shuffle(rs, s.witch_deck)
        forced = {seat: w for seat, w in r.forced_witches if seat < self.n}  # [setup.forced]: dealt and kept
        for w in forced.values():
            s.witch_deck.remove(w)
        for seat in s.order:
            p = s.players[seat]
            own = forced.get(seat)
            dealt = [s.witch_deck.pop() for _ in range(r.witches_dealt if own is None else r.witches_dealt - 1)]
            if own is not None:
                dealt.insert(0, own)
            while len(dealt) > r.witches_kept:
                back = self.ask(Kind.DRAFT_RETURN, seat, dealt if own is None else dealt[1:])
                dealt.remove(back)
                s.witch_deck.insert(0, back)  # under the deck
            p.coven = dealt
            p.witches_start = len(dealt)
            s.drafted[seat] = list(dealt)
        s.goal_deck = [i for i, g in enumerate(c.goals) if self.full or not g.full_only]
        shuffle(rs, s.goal_deck)
        for seat in range(self.n):
            s.goals[seat] = [s.goal_deck.pop() for _ in range(r.goals_dealt)]
        s.chamber1 = s.witch_deck.pop()
        s.crowd_neutral = r.neutral_crowd
        towns = [i for i, a in enumerate(c.areas) if a.town]
        tiles = list(range(len(c.buildings)))
        shuffle(rs, tiles)
        for area, b in zip(towns, tiles[: r.buildings_on_board], strict=False):
            s.buildings[area] = b
        icons = list(range(len(INGREDIENTS))) + [below(rs, len(INGREDIENTS)) for _ in range(r.lunar_extra_icons)]
        shuffle(rs, icons)
        s.lunar = icons
        s.patient_stack = list(range(len(c.patients)))
        shuffle(rs, s.patient_stack)
        for start in r.hunter_start_spaces[self.n]:
            s.hunter_space.append(start)
            s.hunter_active.append(True)
        if self.full:
            s.market = spells.setup_market(self)
        for module_setup in self.hooks.setup:
            module_setup(self)
        self.fill_patients()
        self.prepare_septima()
        for seat in reversed(s.order):
            opts = [v for v in self.board.edge_vertices if v not in s.occupied]
            self.move_to(s.players[seat], self.ask(Kind.START_VERTEX, seat, opts))
        for place_leaders in self.hooks.place_leaders:
            place_leaders(self)

    def fill_patients(self) -> None:
        """B9 step 3: draw patients until the board holds 4/5/6, each on its flag's lowest free space."""
        s = self.s
        target = self.rules.patients_on_board[self.n]
        tries = len(s.patient_stack)
        while len(s.patients) < target and s.patient_stack and tries > 0:
            tries -= 1
            tile = s.patient_stack.pop()
            disease, flag = self.content.patients[tile]
            space = next((sp for sp in self.space_order.get(flag, ()) if sp not in s.patients), None)
            if space is None:  # no free space of that colour (assumed): the tile goes to the discard
                s.patient_discard.append(tile)
                continue
            s.patients[space] = Patient(tile, disease, space, self.board.patient_spaces[space])
            if self.sink is not None:
                self.note("patients", TABLE, f"{self.content.diseases[disease].id} patient on {space}")

    def prepare_septima(self) -> None:
        """B9 step 4 / B10: all Septima markers back in the bag, shuffled, two revealed (right = this turn)."""
        self.s.septima_bag = list(self.mode_actions)
        shuffle(self.rng_draw, self.s.septima_bag)
        self.s.septima_right = self.s.septima_bag.pop()
        self.s.septima_left = self.s.septima_bag.pop()
        if self.sink is not None:
            self.note("septima", TABLE, self._septima_markers())

    # ------------------------------------------------------------------------------------------------ flow
    def play(self) -> GameResult:
        """Play the whole game (B2) and return its result."""
        if self.recorder is not None:
            self.recorder.mark(self, True)
        self.setup()
        return self.play_from(0, 0)

    def play_from(
        self, season0: int, turn0: int, forced: dict[int, int] | None = None, last_season: int | None = None
    ) -> GameResult:
        """Play on from the card selection of moon phase `turn0` of season `season0` to the end of the game.
        ``forced`` fixes the card of some seats in that first selection and ``last_season`` ends the game early,
        scoring as if that season were the last (both used by search players on a clone)."""
        seasons = len(self.rules.seasons) if last_season is None else last_season + 1
        for season in range(season0, seasons):
            self.s.season = season
            if season > season0:
                self.preparation()
            for turn in range(turn0 if season == season0 else 0, self.rules.turns_per_season):
                self.s.turn = turn
                self.moon_phase(forced if season == season0 and turn == turn0 else None)
            self.s.step = "trial"
            self.cause = "trial"
            trials.trial_phase(self, crowd_picks=season < seasons - 1)
            if season < seasons - 1:
                self.end_of_season()
        self.s.step = "game_end"
        self.cause = "game_end"
        return scoring.final_result(self)

    def preparation(self) -> None:
        """B9: new witch on trial, angry citizens on staying patients, refill patients, Septima markers."""
        self.s.step = "preparation"
        self.cause = "preparation"
        self.s.turn = 0
        if self.s.witch_deck:
            self.s.chamber1 = self.s.witch_deck.pop()
            if self.sink is not None:
                self.note("witch_on_trial", TABLE, self.content.witches[self.s.chamber1].id)
        for patient in self.s.patients.values():
            patient.angry = 1
        self.fill_patients()
        self.prepare_septima()
        for start_season in self.hooks.start_season:
            start_season(self)

    def clone(self, policies: Sequence[Policy], seed: int) -> Game:
        """An independent copy of the game for simulations (search players): the per-game state copied field by
        field, the shared tables and content kept, the given policies, no event sink, and fresh random streams from
        `seed` (future draws are not the real ones)."""
        twin = Game.__new__(Game)
        twin.config, twin.content, twin.rules, twin.full, twin.n = (
            self.config,
            self.content,
            self.rules,
            self.full,
            self.n,
        )
        twin.seed, twin.sink, twin.cause, twin.policies = self.seed, None, self.cause, list(policies)
        twin.recorder = None
        twin._use_tables(self.tables)
        twin.s = self.s.copy()
        twin.modules = tuple(m.copy() for m in self.modules)
        twin.module_by_name = {m.name: m for m in twin.modules}
        twin.hooks = BoundHooks(twin.modules)
        twin.keeps_discards, twin.action_defaults = self.keeps_discards, self.action_defaults
        base = random.Random(seed)
        twin.rng_setup, twin.rng_draw, twin.rng_dice = (random.Random(base.getrandbits(64)) for _ in range(3))
        twin._start_policies(base)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> None:
        """Replace everything `seat` cannot see by a random guess consistent with what it can: deck and bag
        orders are reshuffled and other seats' goals are redealt from the goals it has not seen (for a clone)."""
        s = self.s
        for pile in (s.witch_deck, s.patient_stack, s.septima_bag):
            shuffle(rng, pile)
        for row in s.market:
            shuffle(rng, row.deck)
        unseen = list(s.goal_deck)
        for other in range(self.n):
            if other != seat:
                unseen.extend(s.goals[other])
        shuffle(rng, unseen)
        for other in range(self.n):
            if other != seat:
                k = len(s.goals[other])
                s.goals[other], unseen = unseen[:k], unseen[k:]
        s.goal_deck = unseen
        for module_determinize in self.hooks.determinize:
            module_determinize(self, seat, rng)

    def card_options(self, p: Player) -> list[int]:
        """B11: the cards in hand a seat may select now; modules (S3: in animal form, the tile's four) and the rule
        effect in force (Broken Memories) may narrow them."""
        opts = [i for i in self.s.hand_actions if p.hand[i]]
        for card_options in self.hooks.card_options:
            opts = card_options(self, p, opts)
        fx = self.s.fx
        return fx.card_options(self, p, opts) if fx.uses_card_options else opts

    def moon_phase(self, forced: dict[int, int] | None = None) -> None:
        """B11-B17: select, resolve (pre-move, card, suspicion, ritual), hunter rolls, relocation, end."""
        s = self.s
        players = s.players
        if self.recorder is not None:
            self.recorder.mark(self, False)
        s.step = "select"
        self.cause = "select"
        for p in players:
            p.raised = False
        for start_phase in self.hooks.start_phase:
            start_phase(self)
        choices = [
            forced[p.seat] if forced and p.seat in forced else self.ask(Kind.CARD, p.seat, self.card_options(p))
            for p in players
        ]
        for seat, card in enumerate(choices):  # reveal
            s.played[seat] = card
            players[seat].hand[card] = False
        for reveal in self.hooks.reveal:
            reveal(self)
        s.step = "resolve"
        for before_turns in self.hooks.before_turns:
            before_turns(self)
        for seat in s.order:
            self.resolve_turn(players[seat])
        for after_turns in self.hooks.after_turns:
            after_turns(self)
        s.step = "hunter"
        self.cause = "hunter"
        for seat in s.order:
            hunters.hunter_roll(self, players[seat])
        s.step = "relocation"
        self.cause = "relocation"
        for seat in s.order:
            hunters.relocate_hunter(self, players[seat])
        self.end_moon_phase()

    def resolve_turn(self, p: Player) -> None:
        """B12-B14 for one seat: optional pre-move, the card, the suspicion step, ritual progress. The ``action``
        event opens the turn; every change the card makes follows as its own event (cause ``action:<card>``, or the
        witch, spell, building... that made it)."""
        seat, card = p.seat, self.s.played[p.seat]
        prev = self.cause
        self.cause = "premove"
        opts = [p.vertex] + [v for v in self.board.neighbours[p.vertex] if v not in self.s.occupied]
        dest = self.ask(Kind.PREMOVE, seat, opts)
        if dest != p.vertex:
            self.move_to(p, dest)
        potions.offer_potions(self, p, before=True)  # reading practical_potions = "own-turn" only
        others, septima = self.matched(seat, card)
        oil = False
        if others == 0 and not septima and not p.no_raise:  # S4: no effect that needs a raise in animal form
            oil = potions.offer_ritual_oil(self, p)
        matched = others > 0 or septima or oil
        p.played[card] += 1
        if others:
            p.matches_players += 1
        if septima:
            p.matches_septima += 1
        if self.sink is not None:
            self.emit(
                "action",
                seat,
                action=self.action_ids[card],
                matched_players=others,
                matched_septima=septima,
                matched_other="ritual-oil" if oil else None,
                cause=self.tables.action_cause[card],
            )
        self.cause = self.tables.action_cause[card]
        actions.resolve_card(self, p, card, matched, card)
        icon = self.icon[card]
        effects.trigger(self, p, self.play_trigger[icon])
        if self.s.fx.uses_on_play:  # Omens: a half that acts when an action is played
            self.s.fx.on_play(self, p, icon)
        if self.full:
            ritual.offer_spells(self, p, icon)
        self.suspicion_step(p, card, others, septima, oil)
        if self.full and matched:
            self.cause = "ritual_progress"
            ritual.ritual_progress(self, p, icon)
        potions.offer_potions(self, p)
        self.cause = prev

    def suspicion_step(self, p: Player, card: int, others: int, septima: bool, oil: bool) -> None:
        """B13: +1 for matching a player, +2 for the Septima (both: +3); a matched Chant (or Shapeshift) raises
        none; Ritual Oil still raises 1. Modules may change it (S4: in animal form, unmatched -1, matched 0)."""
        before = p.suspicion
        r = self.rules
        if self.icon[card] == self.chant:
            raise_by = 0
        else:
            raise_by = (r.match_player if others else 0) + (r.match_septima if septima else 0)
            if others and self.s.fx.uses_match_raise:
                raise_by += self.s.fx.match_raise(self)  # Omens: Suspicious Allies
            if oil:
                raise_by += r.ritual_oil
        for suspicion_change in self.hooks.suspicion_change:
            raise_by = suspicion_change(self, p, bool(others or septima or oil), raise_by)
        overflows = p.overflows
        if raise_by < 0:
            self.lower_suspicion(p, -raise_by, "match", "suspicion")
        else:
            self.raise_suspicion(p, raise_by, "match", "suspicion")
        if self.sink is not None and p.suspicion == before and p.overflows == overflows:
            self.emit(  # the step changed nothing: still one event per seat and turn
                "suspicion",
                p.seat,
                suspicion_before=before,
                suspicion_after=before,
                cause="match",
                detail=f"{raise_by:+d}",
            )

    def end_moon_phase(self) -> None:
        """B17: Septima markers shift, played cards to discard, hunters stand, healed patients leave."""
        s = self.s
        s.step = "end_phase"
        self.cause = "end_phase"
        s.septima_right = s.septima_left
        s.septima_left = s.septima_bag.pop() if s.septima_bag else -1
        sink = self.sink is not None
        if sink:
            self.note("septima", TABLE, self._septima_markers())
        returning = s.returning_card
        for seat, p in enumerate(s.players):
            card = s.played[seat]
            if card == returning:
                p.hand[card] = True  # S2: Shapeshift returns to hand at the end of the turn
                if sink:
                    self.note("hand", seat, f"+{self.action_ids[card]}")
            else:
                p.discard.append(card)
            s.played[seat] = -1
            s.remember_copy[seat] = -1
            for sp in p.spells:
                sp.used_turn = -1
        for end_turn in self.hooks.end_turn:
            end_turn(self)
        if sink and not all(s.hunter_active):
            self.note("hunters", TABLE, "all hunters stand")
        for h in range(len(s.hunter_active)):
            s.hunter_active[h] = True
        for space in [sp for sp, pt in s.patients.items() if pt.healed_by]:
            patient = s.patients.pop(space)
            for potion in patient.remedies:
                s.potion_supply[potion] += 1
            s.patient_discard.append(patient.tile)
            if sink:
                self.note("patients", TABLE, f"healed patient leaves {space}")

    def _septima_markers(self) -> str:
        """The Septima's two revealed markers (right = this turn's), for an event."""
        ids = self.action_ids
        right = ids[self.s.septima_right] if self.s.septima_right >= 0 else "-"
        left = ids[self.s.septima_left] if self.s.septima_left >= 0 else "-"
        return f"right {right}, left {left}"

    def end_of_season(self) -> None:
        """B31: patients under the stack, season advances (new hunter in Winter and Summer), start player passes,
        cards return to hand, spell market refreshes; ongoing spells and the Magic Mirror end."""
        s = self.s
        s.step = "season_end"
        self.cause = "season_end"
        sink = self.sink is not None
        shuffle(self.rng_draw, s.patient_discard)
        s.patient_stack[:0] = s.patient_discard
        s.patient_discard = []
        next_season = self.rules.seasons[s.season + 1]
        if next_season in self.rules.hunter_enter_seasons:
            taken = set(s.hunter_space)
            free = [sp for sp in range(1, REGIONS + 1) if sp not in taken]
            if free:
                s.hunter_space.append(free[0])
                s.hunter_active.append(True)
                if sink:
                    self.note("hunters", TABLE, f"hunter {len(s.hunter_space) - 1} enters on space {free[0]}")
        s.start_player = (s.start_player + 1) % self.n
        s.order = [(s.start_player + i) % self.n for i in range(self.n)]
        for p in s.players:
            if not self.keeps_discards:  # S6: with Shapeshifting, step 4 is skipped for everyone
                for card in p.discard:
                    p.hand[card] = True
                if sink and p.discard:
                    self.note("hand", p.seat, f"+{len(p.discard)} cards back from the discard")
                p.discard = []
            p.mirror = -1
            for sp in p.spells:
                sp.active = False
        if self.full:
            spells.refresh_market(self)
        if sink:
            self.emit("season_end", TABLE, detail=self.rules.seasons[s.season], cause="season_end")
        for end_of_season in self.hooks.end_of_season:  # step 6: the next Omen takes effect
            end_of_season(self)


def play_game(
    config: GameConfig,
    content: Content,
    policies: Sequence[Policy],
    seed: int,
    sink: EventSink | None = None,
) -> GameResult:
    """Play one seeded game. Same (config, content, policies, seed) -> same result, always."""
    return Game(config, content, policies, seed, sink).play()
