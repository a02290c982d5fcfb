"""What a policy may see: public state and its own seat's private information, nothing else.

Hidden from every policy: other seats' Book of Divination goals, the order of every deck and bag (witches, patients,
spells, goals, Septima markers, Omens, the Widow's markers), the random streams and the contents of the citizens' bag
during a trial. Hands are public in Septima (a hand is every card not in the discard pile); cards chosen this turn
are revealed only after all seats chose.

Two implementations of one read-only interface (``PlayerView``):

- ``SealedView`` (the default for any policy): rebuilt from immutable snapshots at every decision; nothing reachable
  from it (attributes or ``gc.get_referents``) is the game, a live state object, hidden information or a random
  stream, so writing to what it hands out changes nothing in the game. Building it costs about 20 us per decision.
- ``LiveView``, for the built-in policies that declare ``live_view = True`` (reviewed code, and the engine's hot
  path: a snapshot per decision would cost the heuristic about half its speed): the same members over the live
  public objects, typed read-only (``SeatState``, ``PatientState``) so mypy rejects a write in ``players/``.

Search players get what they need through an explicit capability, ``Simulator`` (``Policy.attach``), never through
the view.
"""

from __future__ import annotations

import functools
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, Protocol, cast

from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.content.model import Content
    from septima_sim.engine.board import Board
    from septima_sim.engine.decisions import Decision, Policy
    from septima_sim.engine.game import Game
    from septima_sim.engine.results import GameResult
    from septima_sim.engine.state import Patient, Player


class SpellState(Protocol):
    """A spell a seat holds (read-only)."""

    @property
    def idx(self) -> int: ...
    @property
    def ready(self) -> bool: ...
    @property
    def used_turn(self) -> int: ...
    @property
    def active(self) -> bool: ...


class SeatState(Protocol):
    """Everything public about one seat (read-only): ``Player`` in the engine, ``SeatSnapshot`` in a sealed view."""

    @property
    def seat(self) -> int: ...
    @property
    def colour(self) -> str: ...
    @property
    def vertex(self) -> int: ...
    @property
    def suspicion(self) -> int: ...
    @property
    def wisdom(self) -> int: ...
    @property
    def res(self) -> Sequence[int]: ...
    @property
    def charms(self) -> int: ...
    @property
    def potions(self) -> Sequence[int]: ...
    @property
    def hand(self) -> Sequence[bool]: ...
    @property
    def discard(self) -> Sequence[int]: ...
    @property
    def coven(self) -> Sequence[int]: ...
    @property
    def supply(self) -> int: ...
    @property
    def crowd(self) -> int: ...
    @property
    def tracks(self) -> Sequence[int]: ...
    @property
    def healed(self) -> Sequence[int]: ...
    @property
    def spells(self) -> Sequence[SpellState]: ...
    @property
    def ritual_row(self) -> int: ...
    @property
    def ritual_col(self) -> int: ...
    @property
    def ribbons(self) -> int: ...
    @property
    def no_raise(self) -> bool: ...
    @property
    def trials_won(self) -> int: ...
    @property
    def brewed(self) -> Sequence[int]: ...
    @property
    def captures(self) -> int: ...
    @property
    def ingredients_gained(self) -> int: ...


class PatientState(Protocol):
    """A patient on the board (read-only)."""

    @property
    def tile(self) -> int: ...
    @property
    def disease(self) -> int: ...
    @property
    def space(self) -> str: ...
    @property
    def area(self) -> int: ...
    @property
    def angry(self) -> int: ...
    @property
    def healed_by(self) -> int: ...
    @property
    def remedies(self) -> Sequence[int]: ...


class PlayerView(Protocol):
    """A read-only window on a game for one seat."""

    @property
    def seat(self) -> int: ...
    @property
    def content(self) -> Content: ...
    @property
    def board(self) -> Board: ...
    @property
    def n_players(self) -> int: ...
    @property
    def full(self) -> bool: ...
    @property
    def me(self) -> SeatState: ...
    @property
    def my_goals(self) -> tuple[int, ...]: ...
    @property
    def players(self) -> Sequence[SeatState]: ...
    @property
    def season(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def step(self) -> str: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    @property
    def played(self) -> tuple[int, ...]: ...
    @property
    def septima_markers(self) -> tuple[int, int]: ...
    @property
    def lunar(self) -> tuple[int, ...]: ...
    @property
    def patients(self) -> Sequence[PatientState]: ...
    @property
    def hunters(self) -> tuple[tuple[int, bool], ...]: ...
    @property
    def trial(self) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]: ...
    @property
    def crowd(self) -> tuple[int, int, tuple[int, ...]]: ...
    @property
    def spell_market(self) -> tuple[tuple[int, int, int], ...]: ...
    @property
    def buildings(self) -> dict[int, int]: ...
    @property
    def witches_out(self) -> tuple[int, ...]: ...
    @property
    def potion_supply(self) -> tuple[int, ...]: ...

    def module(self, name: str) -> object: ...


# ---- the live view (built-in policies) --------------------------------------------------------------------------


class LiveView:
    """``PlayerView`` over the live game, for policies with ``live_view = True``: public members only."""

    __slots__ = ("_game", "_lunar", "_players", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat
        self._players: tuple[Player, ...] = ()
        self._lunar: tuple[int, ...] = ()

    # static information
    @property
    def content(self) -> Content:
        return self._game.content

    @property
    def board(self) -> Board:
        return self._game.board

    @property
    def n_players(self) -> int:
        return self._game.n

    @property
    def full(self) -> bool:
        return self._game.full

    # own private information
    @property
    def me(self) -> Player:
        return self._game.s.players[self.seat]

    @property
    def my_goals(self) -> tuple[int, ...]:
        return tuple(self._game.s.goals[self.seat])

    # public information
    @property
    def players(self) -> tuple[Player, ...]:
        if not self._players:  # the seats never change during a game
            self._players = tuple(self._game.s.players)
        return self._players

    @property
    def season(self) -> int:
        return self._game.s.season

    @property
    def turn(self) -> int:
        return self._game.s.turn

    @property
    def step(self) -> str:
        return self._game.s.step

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(self._game.s.order)

    @property
    def played(self) -> tuple[int, ...]:
        """Cards revealed this turn (-1 before the reveal)."""
        return tuple(self._game.s.played)

    @property
    def septima_markers(self) -> tuple[int, int]:
        """(right, left): this turn's Septima action and next turn's."""
        return self._game.s.septima_right, self._game.s.septima_left

    @property
    def lunar(self) -> tuple[int, ...]:
        """The moon track's ingredient icons (fixed at setup, B19)."""
        if not self._lunar:
            self._lunar = tuple(self._game.s.lunar)
        return self._lunar

    @property
    def patients(self) -> tuple[Patient, ...]:
        return tuple(self._game.s.patients.values())

    @property
    def hunters(self) -> tuple[tuple[int, bool], ...]:
        """(hunter space 1..6, standing) per hunter."""
        g = self._game
        active = g.s.hunter_active
        return tuple([(space, active[h]) for h, space in enumerate(g.s.hunter_space)])

    @property
    def trial(self) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
        """(first chamber witch, second chamber stack, seated citizens of chambers 1 and 2)."""
        g = self._game
        return g.s.chamber1, tuple(g.s.chamber2), (tuple(g.s.seated[1]), tuple(g.s.seated[2]))

    @property
    def crowd(self) -> tuple[int, int, tuple[int, ...]]:
        """(neutral, angry, loyal per seat) citizens in the crowd."""
        g = self._game
        return g.s.crowd_neutral, g.s.crowd_angry, tuple(p.crowd for p in g.s.players)

    @property
    def spell_market(self) -> tuple[tuple[int, int, int], ...]:
        """Face-up spells per element: (top scoring spell, middle, bottom); -1 = empty."""
        return tuple((r.scoring[-1] if r.scoring else -1, r.middle, r.bottom) for r in self._game.s.market)

    @property
    def buildings(self) -> dict[int, int]:
        return dict(self._game.s.buildings)

    @property
    def witches_out(self) -> tuple[int, ...]:
        """Witches exiled or discarded to the box (face up)."""
        return tuple(self._game.s.witch_box)

    @property
    def potion_supply(self) -> tuple[int, ...]:
        return tuple(self._game.s.potion_supply)

    def module(self, name: str) -> object:
        """The public state of an enabled rules module (``Module.public``: e.g. ``OmensView``, ``WidowView``), or
        None when the module is off."""
        m = self._game.module_by_name.get(name)
        return m.public(self._game, self.seat) if m is not None else None


# ---- the sealed view (every other policy) -------------------------------------------------------------------------


class SpellSnapshot(NamedTuple):
    idx: int
    ready: bool
    used_turn: int
    active: bool


class SeatSnapshot(NamedTuple):
    """A seat's public state at one decision (immutable)."""

    seat: int
    colour: str
    vertex: int
    suspicion: int
    suspicion_max: int
    raised: bool
    no_raise: bool
    wisdom: int
    src: tuple[int, ...]
    res: tuple[int, ...]
    charms: int
    potions: tuple[int, ...]
    hand: tuple[bool, ...]
    discard: tuple[int, ...]
    coven: tuple[int, ...]
    supply: int
    crowd: int
    tracks: tuple[int, ...]
    healed: tuple[int, ...]
    spells: tuple[SpellSnapshot, ...]
    ritual_row: int
    ritual_col: int
    ribbons: int
    mirror: int
    overflows: int
    captures: int
    hunter_rolls: int
    trials_won: int
    witches_start: int
    witches_lost: int
    witches_recruited: int
    brewed: tuple[int, ...]
    played: tuple[int, ...]
    matches_players: int
    matches_septima: int
    spells_gained: int
    ingredients_gained: int

    @property
    def ingredients(self) -> int:
        return sum(self.res[:5])


def seat_snapshot(p: Player) -> SeatSnapshot:
    """A seat's public state, copied."""
    return SeatSnapshot(
        p.seat,
        p.colour,
        p.vertex,
        p.suspicion,
        p.suspicion_max,
        p.raised,
        p.no_raise,
        p.wisdom,
        tuple(p.src),
        tuple(p.res),
        p.charms,
        tuple(p.potions),
        tuple(p.hand),
        tuple(p.discard),
        tuple(p.coven),
        p.supply,
        p.crowd,
        tuple(p.tracks),
        tuple(p.healed),
        tuple(SpellSnapshot(sp.idx, sp.ready, sp.used_turn, sp.active) for sp in p.spells),
        p.ritual_row,
        p.ritual_col,
        p.ribbons,
        p.mirror,
        p.overflows,
        p.captures,
        p.hunter_rolls,
        p.trials_won,
        p.witches_start,
        p.witches_lost,
        p.witches_recruited,
        tuple(p.brewed),
        tuple(p.played),
        p.matches_players,
        p.matches_septima,
        p.spells_gained,
        p.ingredients_gained,
    )


class PatientSnapshot(NamedTuple):
    tile: int
    disease: int
    space: str
    area: int
    angry: int
    healed_by: int
    remedies: tuple[int, ...]


class SealedView:
    """``PlayerView`` as plain immutable values copied from the game at one decision (``seal``)."""

    __slots__ = (
        "board",
        "buildings",
        "content",
        "crowd",
        "full",
        "hunters",
        "lunar",
        "me",
        "modules",
        "my_goals",
        "n_players",
        "order",
        "patients",
        "played",
        "players",
        "potion_supply",
        "season",
        "seat",
        "septima_markers",
        "spell_market",
        "step",
        "trial",
        "turn",
        "witches_out",
    )

    def __init__(self, seat: int, content: Content, board: Board, n_players: int, full: bool) -> None:
        """The static parts (``sealed_view(game, seat)``); ``seal`` fills the rest at each decision."""
        self.seat = seat
        self.content: Content = content  # static and public (read-only content: see content/model.py)
        self.board: Board = board  # static and public, shared by every game of the content pack
        self.n_players = n_players
        self.full = full
        self.lunar: tuple[int, ...] = ()
        self.my_goals: tuple[int, ...] = ()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as plain data (a plugin's process gets a copy, ``players/isolated.py``): the content pack and the
        values of ``SEALED_FIELDS``; the board is derived from the pack again (``unpickle_sealed``)."""
        values = (self.seat, self.n_players, self.full, *(getattr(self, name) for name in SEALED_FIELDS))
        return (unpickle_sealed, (self.content, values))

    def module(self, name: str) -> object:
        """The public state of an enabled rules module, or None when the module is off."""
        modules: dict[str, object] = self.modules
        return modules.get(name)

    def seal(self, g: Game, seat: int) -> None:
        """Copy the game's public state and `seat`'s own hidden information (its goals). Every member is written
        again (a policy may have written to its copy; the engine never reads it)."""
        s = g.s
        self.seat = seat
        self.content, self.board, self.n_players, self.full = g.content, g.board, g.n, g.full
        self.lunar = tuple(s.lunar)
        self.my_goals = tuple(s.goals[seat])
        self.players = tuple(seat_snapshot(p) for p in s.players)
        self.me = self.players[seat]
        self.season, self.turn, self.step = s.season, s.turn, s.step
        self.order = tuple(s.order)
        self.played = tuple(s.played)
        self.septima_markers = (s.septima_right, s.septima_left)
        self.patients = tuple(
            PatientSnapshot(pt.tile, pt.disease, pt.space, pt.area, pt.angry, pt.healed_by, tuple(pt.remedies))
            for pt in s.patients.values()
        )
        live = LiveView(g, seat)  # the same public values, read once and kept (the live view is not)
        self.hunters, self.trial, self.crowd = live.hunters, live.trial, live.crowd
        self.spell_market = live.spell_market
        self.buildings = dict(s.buildings)
        self.witches_out = tuple(s.witch_box)
        self.potion_supply = tuple(s.potion_supply)
        self.modules = {m.name: m.public(g, seat) for m in g.modules}


SEALED_FIELDS: Final = (
    "lunar",
    "my_goals",
    "players",
    "me",
    "season",
    "turn",
    "step",
    "order",
    "played",
    "septima_markers",
    "patients",
    "hunters",
    "trial",
    "crowd",
    "spell_market",
    "buildings",
    "witches_out",
    "potion_supply",
    "modules",
)
"""The members ``seal`` writes at each decision besides the static ones: what a pickled view carries."""


def sealed_view(game: Game, seat: int) -> SealedView:
    """The sealed view of ``seat`` in ``game`` (its static parts; ``seal`` fills the rest at each decision)."""
    return SealedView(seat, game.content, game.board, game.n, game.full)


def unpickle_sealed(content: Content, values: tuple[object, ...]) -> SealedView:
    """A sealed view from its pickled values (``SealedView.__reduce__``), its board derived from the content pack."""
    from septima_sim.engine.tables import board_for

    seat, n_players, full = cast(int, values[0]), cast(int, values[1]), cast(bool, values[2])
    view = SealedView(seat, content, board_for(content), n_players, full)
    for name, value in zip(SEALED_FIELDS, values[3:], strict=True):
        setattr(view, name, value)
    return view


@functools.cache
def built_in_policies() -> tuple[type, ...]:
    """The classes of the built-in players (``players/builtin.py``) and of the engine's own checkpoint seats: the
    only ones that may read the live view or get a ``Simulator``. Listed there, not registered by anyone: no plugin
    can add itself (the players import the engine, hence the late import)."""
    from septima_sim.players.builtin import BUILT_IN

    return (*BUILT_IN, _Idle)


def delegating_seats() -> dict[type, str]:
    """Seats of the project's own layers that hand decisions on to a policy they hold (class -> the attribute holding
    it): the step environment's ``ForkedSeat`` (its ``then`` plays a forked seat on). Listed here, not registered by
    anyone; read from the loaded modules only, since no such seat exists before the environment is imported (a game
    without it imports nothing more)."""
    driver = sys.modules.get("septima_sim.env.driver")
    seat = getattr(driver, "ForkedSeat", None) if driver is not None else None
    return {seat: "then"} if isinstance(seat, type) else {}


def trusted(policy: Policy) -> bool:
    """Whether the policy is a built-in player, decided by the identity of its class (``is``, never its name,
    ``__module__`` or any attribute it declares: a plugin can set those; a subclass of a built-in is not trusted
    either). The engine's seat of a branch, and a delegating seat (``delegating_seats``), are trusted when the
    policy they wrap is."""
    cls = type(policy)
    if cls is _BranchSeat:
        return trusted(cast("_BranchSeat", policy).inner)
    attr = next((a for known, a in delegating_seats().items() if cls is known), None)
    if attr is not None:
        return trusted(getattr(policy, attr))
    return any(cls is known for known in built_in_policies())


def make_view(game: Game, seat: int, policy: Policy) -> LiveView | SealedView:
    """The view a policy gets: live for a built-in policy that declares ``live_view = True``, else sealed."""
    if trusted(policy) and getattr(type(policy), "live_view", False) is True:
        return LiveView(game, seat)
    return sealed_view(game, seat)


# ---- the search capability ----------------------------------------------------------------------------------------


SEASON_END_STEPS: Final = frozenset({"trial", "crowd", "season_end"})
"""Steps after a season's last moon phase that a game scored at that season's end skips in part (``flow.play_from``:
crowd picks and the end of season happen only before another season)."""


class Simulator:
    """What a search player may do with the game besides looking: play possible futures on a copy in which
    everything its seat cannot see is re-guessed (``Game.determinize``). The engine hands it to a policy that has
    an ``attach(simulator)`` method, once per game; the real game is never touched."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    @property
    def n_players(self) -> int:
        return self._game.n

    def sample_continuation(
        self, card: int, policies: Sequence[Policy], seed: int, seasons: int | None = None
    ) -> GameResult:
        """At this seat's card decision: play one possible future, this seat playing `card` now and `policies`
        deciding everything else; to the end of the game, or scored as if it ended after `seasons` more season
        ends (0 = this season)."""
        g = self._game
        twin = g.clone(policies, seed)
        twin.determinize(self.seat, random.Random(seed))
        return twin.play_from(g.s.season, g.s.turn, {self.seat: card}, self.last_season(seasons))

    def sample_moon_phase(
        self, decision: Decision, index: int, policies: Sequence[Policy], seed: int, cards: dict[int, int]
    ) -> tuple[LiveView, GameResult | None]:
        """At this seat's card `decision`: ``branch(decision, index, policies, seed, None, True)`` at the cost of one
        copy, made now (no checkpoint per moon phase, no replay: a card selection changes nothing before every seat
        has chosen, so the copy plays the selection again with this seat's card fixed). It stops at the next card
        selection, after the season's end when this was its last moon phase. Returns the seat's view of the copy
        there, and the result when the game ended first. `cards` holds the other seats' cards of this selection in
        the copy: when empty they choose and it is filled in, else they play those (the copies of one `seed` are the
        same game up to the reveal: the decision's other options need not ask them again)."""
        g = self._game
        rng = random.Random(seed)
        assert decision.kind == Kind.CARD and decision.seat == self.seat, "a card decision of this seat"
        run = _Branch(self.seat, decision, index, [], rng, True)
        run.done = run.free = True  # nothing to replay: the copy is re-guessed now
        run.where = (g.s.season, g.s.turn)
        run.cards = None if cards else cards
        twin = g.clone([_BranchSeat(run, p) for p in policies], rng.getrandbits(64))
        twin.determinize(self.seat, rng)
        run.game = twin
        try:
            result: GameResult | None = twin.play_from(
                g.s.season, g.s.turn, {**cards, self.seat: decision.options[index]}
            )
        except _Stop:
            result = None
        return LiveView(twin, self.seat), result

    def record(self) -> None:
        """Keep what ``branch`` needs (a checkpoint per moon phase and the answers since): call it in ``attach``."""
        if self._game.recorder is None:
            self._game.recorder = Recorder()

    def branch(
        self,
        decision: Decision,
        index: int,
        policies: Sequence[Policy],
        seed: int,
        seasons: int | None = None,
        one_turn: bool = False,
        on_release: Callable[[Game], None] | None = None,
    ) -> tuple[LiveView, GameResult | None]:
        """At this seat's `decision` (any kind; ``record`` must have been called): play one possible future in which
        the seat answers `index` now and `policies` decide everything after, on a copy where what the seat cannot
        see is re-guessed. It runs to the end of the game, or is scored as if it ended after `seasons` more season
        ends (0 = this season); with `one_turn` it stops at the end of the current moon phase (result None). Returns
        the seat's view of the copy where it stopped, and the result when the (shortened) game ended. `on_release`
        sees the copy where the replay ends, before the re-guess (tests check it equals the real game there)."""
        run = self.fork(decision, index, policies, seed, one_turn, on_release)
        result = run.play(self.last_season(seasons))
        assert run.game is not None
        return LiveView(run.game, self.seat), result

    def fork(
        self,
        decision: Decision,
        index: int | None,
        policies: Sequence[Policy],
        seed: int,
        one_turn: bool = False,
        on_release: Callable[[Game], None] | None = None,
    ) -> _Branch:
        """The copy ``branch`` plays, built but not started: its ``play`` replays the answers since the last
        checkpoint and plays on. With `index` None the seat's own policy in `policies` answers `decision` too (the
        step environment's determinized copies, ``septima_sim/env/fork.py``, run ``play`` where they can pause). The
        copy holds no reference to this game."""
        g = self._game
        rec = g.recorder
        assert rec is not None and rec.snapshot is not None, "call Simulator.record() in attach"
        rng = random.Random(seed)
        run = _Branch(self.seat, decision, index, list(rec.trace), rng, one_turn)
        run.on_release = on_release
        run.where = (-1, -1) if rec.at_setup else (g.s.season, g.s.turn)
        run.start = None if rec.at_setup else rec.where
        twin = rec.snapshot.clone([_BranchSeat(run, p) for p in policies], rng.getrandbits(64))
        for stream, state in zip((twin.rng_setup, twin.rng_draw, twin.rng_dice), rec.states, strict=True):
            stream.setstate(state)  # type: ignore[arg-type]
        run.game = twin
        return run

    def last_season(self, seasons: int | None) -> int | None:
        """The last season a copy plays when it is scored after `seasons` more season ends (None: the real end). At
        a decision of the season's end (trial, crowd picks, end of season) the copy plays one season more: a copy
        whose last season is this one skips those steps, and its replay would never reach the decision."""
        g = self._game
        if seasons is None:
            return None
        if g.s.step in SEASON_END_STEPS:
            seasons += 1
        return min(len(g.rules.seasons) - 1, g.s.season + seasons)


# ---- branching at any decision (replay from the last checkpoint) --------------------------------------------------


class Recorder:
    """What a searcher needs to branch at any decision, not only at a card selection: a copy of the game at the
    start of the current moon phase (or before setup) with the exact state of its random streams, and every answer
    given since. ``Simulator.branch`` replays those answers on a copy to reach the decision being asked, then
    re-guesses what the seat cannot see."""

    __slots__ = ("at_setup", "snapshot", "states", "trace", "where")

    def __init__(self) -> None:
        self.snapshot: Game | None = None
        self.states: tuple[object, ...] = ()
        self.at_setup = True
        self.where = (0, 0)
        self.trace: list[int] = []

    def mark(self, game: Game, at_setup: bool) -> None:
        """A checkpoint: called by the engine before setup and at the start of every moon phase."""
        self.snapshot = game.clone([_Idle() for _ in range(game.n)], 0)
        self.states = (game.rng_setup.getstate(), game.rng_draw.getstate(), game.rng_dice.getstate())
        self.at_setup = at_setup
        self.where = (game.s.season, game.s.turn)
        self.trace.clear()


class _Idle:
    """The seats of a checkpoint copy (never asked: every branch clones the copy with its own policies)."""

    name = "idle"
    live_view: ClassVar[bool] = True  # ClassVar: compiled, a plain class attribute would be an instance default

    def reset(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, decision: Decision, view: PlayerView) -> int:
        raise AssertionError("a checkpoint copy is never played")


class _Stop(Exception):
    """Ends a branch at the end of the moon phase it started in."""


class _Branch:
    """One branch: replays the recorded answers, answers `index` at the searching seat's decision (its own policy
    does when `index` is None), re-guesses the hidden information there, then lets `policies` play on."""

    def __init__(
        self,
        sim_seat: int,
        decision: Decision,
        index: int | None,
        trace: list[int],
        rng: random.Random,
        one_turn: bool,
    ) -> None:
        self.me = sim_seat
        self.index = index
        self.trace = trace
        self.cursor = 0
        self.rng = rng
        self.free = False  # the hidden information is re-guessed
        self.done = False  # the searched decision is reached: `policies` decide from here
        self.kind = decision.kind
        self.hide_cards = decision.kind == Kind.CARD  # other seats' choices of this selection are not revealed yet
        self.one_turn = one_turn
        self.where = (-1, -1)
        self.start: tuple[int, int] | None = None  # the checkpoint's moon phase (None: before setup)
        self.game: Game | None = None
        self.on_release: Callable[[Game], None] | None = None
        self.cards: dict[int, int] | None = None  # filled in with the other seats' cards of the first selection

    def play(self, last_season: int | None) -> GameResult | None:
        """Replay from the checkpoint and play on: the result, or None when a `one_turn` branch stopped."""
        g = self.game
        assert g is not None
        try:
            if self.start is None:
                g.setup()
                return g.play_from(0, 0, None, last_season)
            return g.play_from(*self.start, None, last_season)
        except _Stop:
            return None

    def release(self) -> None:
        """Leave the replay: re-guess the hidden information and reseed the copy's random streams. The recorded
        answers are blanked (only their count is read from here on): the copy keeps nothing its seat did not see,
        such as another seat's card of this selection."""
        g = self.game
        assert g is not None
        if self.on_release is not None:
            self.on_release(g)
        self.free = True
        self.trace = [-1] * len(self.trace)
        g.determinize(self.me, self.rng)
        for stream in (g.rng_setup, g.rng_draw, g.rng_dice):
            stream.seed(self.rng.getrandbits(64))

    def answer(self, decision: Decision, inner: Policy, view: PlayerView) -> int:
        """The answer of a seat of the copy: the recorded one, `index` at the searching seat's decision, else its
        policy's. Other seats' cards of the selection being searched were not revealed: they choose again."""
        if not self.done:
            if self.cursor < len(self.trace):
                self.cursor += 1
                if self.hide_cards and decision.kind == Kind.CARD and decision.seat != self.me:
                    if not self.free:
                        self.release()
                    return inner.choose(decision, view)
                assert not self.free, "only hidden cards follow the re-guess"
                return self.trace[self.cursor - 1]
            assert decision.seat == self.me and decision.kind == self.kind, "the replay reaches the searched decision"
            self.done = True
            if not self.free:
                self.release()
            if self.index is None:
                return inner.choose(decision, view)
            return self.index
        g = self.game
        if self.one_turn and g is not None and g.s.step == "select" and (g.s.season, g.s.turn) != self.where:
            raise _Stop
        i = inner.choose(decision, view)
        if self.cards is not None and decision.kind == Kind.CARD:
            self.cards[decision.seat] = decision.options[i]
        return i


class _BranchSeat:
    """A seat of a branch: replayed answers first, then its policy."""

    live_view: ClassVar[bool] = True  # engine code: its policy reads the live view of the copy (ClassVar: see _Idle)

    def __init__(self, branch: _Branch, inner: Policy) -> None:
        self.branch = branch
        self.inner = inner
        self.name = inner.name

    def reset(self, seat: int, rng: random.Random) -> None:
        self.inner.reset(seat, rng)

    def choose(self, decision: Decision, view: PlayerView) -> int:
        return self.branch.answer(decision, self.inner, view)
