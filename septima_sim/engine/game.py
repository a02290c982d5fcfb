"""The game of Septima: the ``Game`` object and the rules every phase shares (asking, suspicion, Wisdom, movement).

``play_game`` is the engine's entry point: a game is a pure function of (config, content, policies, seed).
A ``Game`` holds the per-game state ``s`` (``game_state``), the content tables, the random streams, the policies
and their views, the event sink and the rules modules. The phases are in ``flow`` (setup, seasons, moon phases),
the card abilities in ``actions``, card/witch/spell effects in ``effects``, the trial phase in ``trials`` and the
final scoring in ``scoring``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from septima_sim.content.model import CRYSTAL, INGREDIENTS, Content
from septima_sim.engine import flow
from septima_sim.engine.config import COLOURS, GameConfig
from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.draws import shuffle
from septima_sim.engine.game_state import GameState
from septima_sim.engine.modules import MODULES, BoundHooks, Module
from septima_sim.engine.modules.spec import columns
from septima_sim.engine.public_fields import Owners, changes, public_fields
from septima_sim.engine.results import SOURCE_INDEX, GameResult
from septima_sim.engine.seeds import spawn_words
from septima_sim.engine.state import Player
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
        self.public: Owners = {}  # the public fields as the last event left them (only with a sink: ``emit``)
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
        self.source_index = columns().sources  # the base game's Wisdom sources, then the modules' (Player.src)
        if len(self.source_index) > len(SOURCE_INDEX):
            for p in s.players:
                p.src += [0] * (len(self.source_index) - len(SOURCE_INDEX))
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

    def blind(self, seat: int) -> None:
        """The seat's policy reads no view: the engine stops sealing one at each of its decisions (a seat driven
        from outside the engine, ``septima_sim/env``, whose environment seals a view only when it is observed)."""
        self.sealed[seat] = None
        self.any_sealed = any(v is not None for v in self.sealed)

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
        """Send an event to the sink (callers check ``self.sink`` first to keep the hot path free). Its ``changes``
        hold every public field (``engine.public_fields``) that changed since the previous event, as
        ``{key: [before, after]}``: so each change is in the first event after it, which callers send right after
        the change, with its cause (``septima_sim.events.fold`` rebuilds the state from them)."""
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
        now = public_fields(self)
        record["changes"] = changes(self.public, now)
        self.public = now
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
        citizens, ritual row and column, board...), with its cause and a short text; sent right after the change, so
        its ``changes`` hold it (``emit``). Callers check ``self.sink`` first."""
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
        try:
            p.src[self.source_index[source]] += delta
        except KeyError:
            raise ValueError(
                f"unknown Wisdom source {source!r}: a rules module declares its own in ModuleSpec.wisdom_sources"
            ) from None
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
        before = p.vertex
        self.s.occupied.discard(before)
        p.vertex = vertex
        self.s.occupied.add(vertex)
        if self.sink is not None and vertex != before:
            self.note("leader", p.seat, f"{before} -> {vertex}")

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
        twin.public = {}
        twin.recorder = None
        twin._use_tables(self.tables)
        twin.s = self.s.copy()
        twin.modules = tuple(m.copy() for m in self.modules)
        twin.module_by_name = {m.name: m for m in twin.modules}
        twin.hooks = BoundHooks(twin.modules)
        twin.keeps_discards, twin.action_defaults = self.keeps_discards, self.action_defaults
        twin.source_index = self.source_index
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

    # ------------------------------------------------------------------------------------------------ flow
    # The phases are functions in engine/flow.py; these are the names callers use and subclasses override.
    def setup(self) -> None:
        """B5-B6: the board, the draft and the goals (``flow.setup``)."""
        flow.setup(self)

    def play(self) -> GameResult:
        """B2: the whole game; returns its result (``flow.play``)."""
        return flow.play(self)

    def play_from(
        self, season0: int, turn0: int, forced: dict[int, int] | None = None, last_season: int | None = None
    ) -> GameResult:
        """Play on from moon phase `turn0` of season `season0`, some seats' first cards `forced`, ending after
        `last_season` (``flow.play_from``)."""
        return flow.play_from(self, season0, turn0, forced, last_season)

    def preparation(self) -> None:
        """B9: the start of a season (``flow.preparation``)."""
        flow.preparation(self)

    def moon_phase(self, forced: dict[int, int] | None = None) -> None:
        """B11-B17: one moon phase (``flow.moon_phase``)."""
        flow.moon_phase(self, forced)

    def resolve_turn(self, p: Player) -> None:
        """B12-B14: one seat's turn (``flow.resolve_turn``)."""
        flow.resolve_turn(self, p)

    def suspicion_step(self, p: Player, card: int, others: int, septima: bool, oil: bool) -> None:
        """B13: the suspicion step of a turn (``flow.suspicion_step``)."""
        flow.suspicion_step(self, p, card, others, septima, oil)

    def end_moon_phase(self) -> None:
        """B17: the end of a moon phase (``flow.end_moon_phase``)."""
        flow.end_moon_phase(self)

    def end_of_season(self) -> None:
        """B31: the end of a season (``flow.end_of_season``)."""
        flow.end_of_season(self)


def play_game(
    config: GameConfig,
    content: Content,
    policies: Sequence[Policy],
    seed: int,
    sink: EventSink | None = None,
) -> GameResult:
    """Play one seeded game. Same (config, content, policies, seed) -> same result, always."""
    return Game(config, content, policies, seed, sink).play()
