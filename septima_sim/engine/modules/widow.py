"""Solo mode: the Black Widow automa (RULINGS §8, W1-W4; S9 and O3 for the expansion), the ``solo`` module.

Everything she does comes from ``content.widow`` (widow.toml), an assumed design a designer can replace with the
printed solo rules. She takes a seat in turn order, reveals one of her own action markers each turn at the same time
as the player (matching works both ways, W1), applies that marker's effects (W2), moves her two Spiders toward the
player, sends black citizens to the crowd and the chambers (angry for the player), and at the end of the game the
player wins only by meeting enough Tribulations (W4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple

from septima_sim.content.model import Effect
from septima_sim.engine import stats
from septima_sim.engine.draws import shuffle
from septima_sim.engine.modules.base import Module
from septima_sim.engine.modules.spec import Column, ModuleSpec, ReplayPart
from septima_sim.engine.state import TABLE, WIDOW

if TYPE_CHECKING:
    import random

    from septima_sim.content.model import Content
    from septima_sim.engine.board import Board
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player
    from septima_sim.env.fields import Out, Scene, Spec

WIDOW_TOKEN: Final = -4
"""A Widow citizen in the bag or a chamber (counts as angry for the player, B25 with W2)."""


class WidowView(NamedTuple):
    """What a player sees of the Black Widow (her marker deck order stays hidden)."""

    vertex: int
    suspicion: int
    wisdom: int
    card: int  # marker revealed this turn (-1 before the reveal)
    last: int
    spiders: tuple[int, ...]
    crowd: int
    ritual_row: int


class WidowModule(Module):
    """The Widow's state and her turn, at the base flow's hook points."""

    name: ClassVar[str] = "solo"

    __slots__ = (
        "card",
        "crowd",
        "first",
        "last",
        "markers",
        "ritual_row",
        "spiders",
        "supply",
        "suspicion",
        "suspicion_max",
        "trials_won",
        "vertex",
        "wisdom",
    )

    def __init__(self) -> None:
        self.vertex = -1
        self.suspicion = 0
        self.suspicion_max = 0
        self.wisdom = 0
        self.markers: list[int] = []  # her face-down marker deck for the season (top = last)
        self.card = -1  # marker revealed this turn
        self.last = -1  # marker of the previous turn (Remember repeats it)
        self.spiders: list[int] = []  # vertices
        self.supply = 0
        self.crowd = 0
        self.ritual_row = 0  # her blocking marker on the ritual track (in the start column)
        self.trials_won = 0
        self.first = False  # she holds the start player token this season

    def copy(self) -> WidowModule:
        twin = WidowModule()
        twin.vertex, twin.suspicion, twin.suspicion_max, twin.wisdom = (
            self.vertex,
            self.suspicion,
            self.suspicion_max,
            self.wisdom,
        )
        twin.markers, twin.card, twin.last, twin.spiders = list(self.markers), self.card, self.last, list(self.spiders)
        twin.supply, twin.crowd, twin.ritual_row, twin.trials_won = (
            self.supply,
            self.crowd,
            self.ritual_row,
            self.trials_won,
        )
        twin.first = self.first
        return twin

    def place_leaders(self, g: Game) -> None:
        """W1-W2 setup: her leader and her Spiders on the free edge vertices farthest from the player; her
        markers."""
        w = g.content.widow
        self.suspicion = self.suspicion_max = w.suspicion_start
        self.supply = w.citizens
        player = g.s.players[0]
        dist = g.board.dist[player.vertex]
        far = sorted((v for v in g.board.edge_vertices if v not in g.s.occupied), key=lambda v: (-dist[v], v))
        self.vertex = far[0]
        g.s.occupied.add(self.vertex)
        self.spiders = far[1 : 1 + w.spiders]
        self.first = g.rng_setup.random() < 0.5  # B4: the start player is random (the Widow or the player)
        if g.sink is not None:
            g.note("setup", WIDOW, "her leader, Spiders, citizens, suspicion and the start player token")
        self.start_season(g)

    def start_season(self, g: Game) -> None:
        """W1: her action markers (one per card of the mode, Chant included) are shuffled each season."""
        self.markers = list(g.mode_actions)
        shuffle(g.rng_draw, self.markers)
        if g.sink is not None:
            g.note("markers", WIDOW, f"{len(self.markers)} markers shuffled face down", "preparation")

    def reveal(self, g: Game) -> None:
        """W1: she reveals the top marker at the same time as the player."""
        self.card = self.markers.pop()
        if g.sink is not None:
            g.note("reveal", WIDOW, g.action_ids[self.card], "select")

    def before_turns(self, g: Game) -> None:
        if self.first:
            self.resolve(g)

    def after_turns(self, g: Game) -> None:
        if not self.first:
            self.resolve(g)

    def extra_matches(self, g: Game, icon: int) -> int:
        """W1: matching the Widow's marker counts as matching a player."""
        return 1 if g.icon[self.card] == icon else 0

    def resolve(self, g: Game) -> None:
        """Her turn: a match raises her suspicion (W1, W3); then her marker's effects (W2); then her Spiders move 1
        step toward the player's leader and one that ends on it raises the player's suspicion."""
        w = g.content.widow
        p = g.s.players[0]
        card = self.card
        action = g.action_ids[card]
        if g.sink is not None:  # her turn opens with her marker; each change follows as its own event
            g.emit(
                "action",
                WIDOW,
                action=action,
                matched_players=int(g.icon[g.s.played[0]] == g.icon[card]),
                matched_septima=False,  # the Septima's markers apply to the player, not to her (W1)
                matched_other=None,
                cause=f"widow:{action}",
            )
        if g.icon[g.s.played[0]] == g.icon[card]:  # matching works both ways (W1)
            _suspicion(g, self, w.match_suspicion, "match")
        for e in w.cards.get(action, ()):
            _apply(g, self, e, card)
        for i, spider in enumerate(self.spiders):
            self.spiders[i] = _toward(g, spider, p.vertex, w.spider_steps, avoid_occupied=False)
            if g.sink is not None:
                g.emit("spiders", WIDOW, detail=f"spider {i} at {self.spiders[i]}", cause="widow:spider")
            if self.spiders[i] == p.vertex:
                g.raise_suspicion(p, w.spider_suspicion, "widow:spider")

    def end_turn(self, g: Game) -> None:
        self.last = self.card
        self.card = -1
        if g.sink is not None and self.last >= 0:
            g.note("discard", WIDOW, f"{g.action_ids[self.last]} played")

    def end_of_season(self, g: Game) -> None:
        """The start player token passes between the player and the Widow."""
        self.first = not self.first
        if g.sink is not None:
            g.note("start_player", WIDOW, "the Widow" if self.first else "the player")

    def trial_bag(self, g: Game, bag: list[int]) -> None:
        """W2: her citizens in the crowd go into the bag (angry for the player)."""
        bag.extend([WIDOW_TOKEN] * self.crowd)
        self.crowd = 0

    def return_token(self, g: Game, token: int) -> None:
        if token == WIDOW_TOKEN:
            self.crowd += 1

    def judged(self, g: Game, witch: int, chamber: list[int], winner: int, loyal: list[int]) -> None:
        """A conviction with her citizen seated is her win."""
        if winner < 0 and WIDOW_TOKEN in chamber:
            self.trials_won += 1
            _wisdom(g, self, g.content.widow.trial_win_wisdom, "trial")

    def blocks_ritual(self, g: Game, p: Player, row: int, col: int) -> bool:
        """Her ritual marker blocks the cell it stands on (row, start column) for the player."""
        return row == self.ritual_row and col == g.content.ritual.start_column

    def stat(self, g: Game, p: Player, name: str) -> int | None:
        read = _STATS.get(name)
        return None if read is None else read(self, p)

    def public_fields(self, g: Game, out: dict[str, dict[str, object]]) -> None:
        """Her pieces and tracks, her revealed marker, how many face-down markers are left (not which) and whether
        she holds the start player token."""
        out["widow"] = {
            "vertex": self.vertex,
            "wisdom": self.wisdom,
            "suspicion": self.suspicion,
            "supply": self.supply,
            "crowd": self.crowd,
            "ritual_row": self.ritual_row,
            "spiders": list(self.spiders),
            "card": g.action_ids[self.card] if self.card >= 0 else "",
            "markers": len(self.markers),
            "first": self.first,
        }

    def determinize(self, g: Game, seat: int, rng: random.Random) -> None:
        shuffle(rng, self.markers)

    def outcome(self, g: Game) -> tuple[list[int], list[int], list[int]]:
        """W4: the player wins by meeting enough Tribulations (8, or 7 with Shapeshifting)."""
        met = tribulations(g, g.s.players[0])
        if g.sink is not None:
            for t in g.content.widow.tribulations:
                g.emit("tribulation", 0, detail=f"{t.id} {'met' if t.id in met else 'failed'}")
        won = len(met) >= needed(g)
        scores = [g.s.players[0].wisdom, self.wisdom]
        return ([0], [1], scores) if won else ([], [2], scores)

    def game_fields(self, g: Game, row: dict[str, object]) -> None:
        met = tribulations(g, g.s.players[0])
        row["tribulations_met"] = len(met)
        row["tribulations"] = met
        row["tribulations_failed"] = [t.id for t in g.content.widow.tribulations if t.id not in met]
        row["widow_wisdom"] = self.wisdom
        row["widow_suspicion"] = self.suspicion
        row["solo_won"] = bool(row["winner_seats"])

    def table_suspicion(self, g: Game) -> int:
        return self.suspicion

    def public(self, g: Game, seat: int) -> WidowView:
        return WidowView(
            self.vertex,
            self.suspicion,
            self.wisdom,
            self.card,
            self.last,
            tuple(self.spiders),
            self.crowd,
            self.ritual_row,
        )


_STATS: Final[dict[str, Callable[[WidowModule, Player], int]]] = {
    "wisdom_lead": lambda widow, p: p.wisdom - widow.wisdom,
}
"""The statistics the solo module defines (Tribulations read them), by name."""


def _suspicion(g: Game, state: WidowModule, n: int, cause: str) -> None:
    """Her suspicion moves by n within the track (W3: she never overflows)."""
    r = g.rules
    before = state.suspicion
    state.suspicion = max(r.suspicion_min, min(r.suspicion_max, before + n))
    state.suspicion_max = max(state.suspicion_max, state.suspicion)
    if g.sink is not None and state.suspicion != before:
        g.emit(
            "suspicion_change",
            WIDOW,
            suspicion_before=before,
            suspicion_after=state.suspicion,
            cause=cause,
            detail=f"{state.suspicion - before:+d}",
        )


def _wisdom(g: Game, state: WidowModule, n: int, cause: str) -> None:
    """She gains n Wisdom."""
    state.wisdom += n
    if g.sink is not None and n:
        g.emit("wisdom", WIDOW, wisdom_before=state.wisdom - n, wisdom_after=state.wisdom, cause=cause)


def _toward(g: Game, start: int, target: int, steps: int, avoid_occupied: bool) -> int:
    """Step along a shortest path toward `target` (the lowest-numbered vertex among equals); a leader never ends on
    an occupied vertex (B18)."""
    dist = g.board.dist[target]
    here = start
    for _ in range(steps):
        nxt = [v for v in g.board.neighbours[here] if dist[v] < dist[here]]
        if avoid_occupied:
            nxt = [v for v in nxt if v not in g.s.occupied]
        if not nxt:
            break
        here = min(nxt)
    return here


def _apply(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    """W2: one effect of her marker, through the ``MARKER_EFFECTS`` registry."""
    MARKER_EFFECTS[e.kind](g, state, e, card)


def _cause(g: Game, card: int) -> str:
    """The cause id of her marker `card`'s changes: ``widow:<action>``."""
    return f"widow:{g.action_ids[card]}"


def _widow_wisdom(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    _wisdom(g, state, e.amount, _cause(g, card))


def _widow_suspicion(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    _suspicion(g, state, e.amount, _cause(g, card))


def _chase(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    """Her leader moves `amount` steps toward the player's leader (never onto an occupied vertex)."""
    dest = _toward(g, state.vertex, g.s.players[0].vertex, e.amount, avoid_occupied=True)
    before = state.vertex
    g.s.occupied.discard(before)
    state.vertex = dest
    g.s.occupied.add(dest)
    if g.sink is not None and dest != before:
        g.note("leader", WIDOW, f"{before} -> {dest}", _cause(g, card))


def _take_patient(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    """The lowest-numbered patient leaves the board (its Remedies back to the supply), `amount` times."""
    for _ in range(e.amount):
        if not g.s.patients:
            return
        space = min(g.s.patients, key=_space_number)
        patient = g.s.patients.pop(space)
        for potion in patient.remedies:
            g.s.potion_supply[potion] += 1
        g.s.patient_discard.append(patient.tile)
        if g.sink is not None:
            g.note("patients", TABLE, f"the Widow takes the patient on {space}", _cause(g, card))


def _widow_citizen(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    n = min(e.amount, state.supply)
    state.supply -= n
    state.crowd += n
    if g.sink is not None and n:
        g.note("citizens", WIDOW, f"{n} from supply to the crowd", _cause(g, card))


def _widow_plead(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    """Her citizens from the crowd into the first trial chamber while it has a witch and a free seat."""
    seats = g.rules.trial_seats[g.n]
    for _ in range(e.amount):
        if state.crowd and g.s.chamber1 >= 0 and len(g.s.seated[1]) < seats:
            state.crowd -= 1
            g.s.seated[1].append(WIDOW_TOKEN)
            if g.sink is not None:
                g.note("citizens", WIDOW, "1 from the crowd into chamber 1", _cause(g, card))


def _repeat_last(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    """Her previous marker's effects again (not its own repeat, nor when it is this marker)."""
    last = state.last
    if last >= 0 and last != card:
        for effect in g.content.widow.cards.get(g.action_ids[last], ()):
            if MARKER_EFFECTS[effect.kind] is not _repeat_last:
                _apply(g, state, effect, last)


def _block_ritual(g: Game, state: WidowModule, e: Effect, card: int) -> None:
    state.ritual_row = min(len(g.content.ritual.rows), state.ritual_row + e.amount)
    if g.sink is not None:
        g.note("ritual_row", WIDOW, f"row {state.ritual_row}", _cause(g, card))


MARKER_EFFECTS: Final[dict[str, Callable[[Game, WidowModule, Effect, int], None]]] = {
    "widow_wisdom": _widow_wisdom,
    "widow_suspicion": _widow_suspicion,
    "chase": _chase,
    "take_patient": _take_patient,
    "widow_citizen": _widow_citizen,
    "widow_plead": _widow_plead,
    "repeat_last": _repeat_last,
    "block_ritual": _block_ritual,
}
"""Her markers' effects by kind (``content.model.WIDOW_EFFECTS``; a test checks both lists agree)."""


def _space_number(space: str) -> tuple[int, str]:
    flag, _, number = space.rpartition("-")
    return int(number), flag


def tribulations(g: Game, p: Player) -> list[str]:
    """W4: the ids of the Tribulations the player met at game end (Basic mode uses a Tribulation's basic form)."""
    met = []
    for t in g.content.widow.tribulations:
        name, op, value = t.basic if (t.basic and not g.full) else t.check
        if stats.meets(g, p, name, op, value):
            met.append(t.id)
    return met


def needed(g: Game) -> int:
    """How many Tribulations the player must meet: all 8, or 7 with Shapeshifting (S9)."""
    w = g.content.widow
    return w.needed_shapeshifting if "shapeshifting" in g.config.modules else w.needed


def replay_frame(w: dict[str, Any], content: object) -> dict[str, Any]:
    """The replay page's Black Widow: her place, tracks, card, Spiders, supply, crowd and markers left."""
    return {
        "vertex": w["vertex"],
        "wisdom": w["wisdom"],
        "suspicion": w["suspicion"],
        "card": w["card"],
        "spiders": list(w["spiders"]),
        "supply": w["supply"],
        "crowd": w["crowd"],
        "ritual_row": w["ritual_row"],
        "markers_left": w["markers"],
    }


def observation_fields(c: Content, b: Board) -> list[Spec]:
    """The observation's Black Widow field (``WidowView``): her leader's vertex, Spiders, suspicion, Wisdom, action
    markers, citizens in the crowd and ritual row."""
    from septima_sim.env.fields import COUNT_CAP, WISDOM_CAP, Spec, count, counts, one_hot  # the step env's layer

    r = c.rules
    n_vertices, n_actions = b.n_vertices, len(c.actions)
    levels = r.suspicion_max - r.suspicion_min + 1
    rows = len(c.ritual.rows)
    spiders = max(1, c.widow.spiders)

    def widow(out: Out, off: int, sc: Scene) -> None:
        v = sc.view.modules.get("solo")
        if not isinstance(v, WidowView):
            return
        one_hot(out, off, v.vertex, n_vertices)
        on_vertex = [0] * n_vertices
        for vertex in v.spiders:
            on_vertex[vertex] += 1
        counts(out, off + n_vertices, on_vertex, spiders)
        o = off + 2 * n_vertices
        one_hot(out, o, v.suspicion - r.suspicion_min, levels)
        count(out, o + levels, v.wisdom, WISDOM_CAP)
        one_hot(out, o + levels + 1, v.card, n_actions)
        one_hot(out, o + levels + 1 + n_actions, v.last, n_actions)
        count(out, o + levels + 1 + 2 * n_actions, v.crowd, COUNT_CAP)
        one_hot(out, o + levels + 2 + 2 * n_actions, v.ritual_row, rows + 1)

    return [
        Spec(
            "widow",
            2 * n_vertices + levels + 2 * n_actions + 2 + rows + 1,
            f"solo, the Black Widow: her leader's vertex, one-hot; her Spiders per vertex (/{spiders}); her suspicion, "
            f"one-hot; her Wisdom (/{WISDOM_CAP}); her marker this turn and last turn, one-hot; her citizens in the "
            f"crowd (/{COUNT_CAP}); her ritual row, one-hot",
            widow,
        )
    ]


def summary_line(game: dict[str, Any]) -> str:
    """The line under ``septima-sim play``'s account of a solo game: the verdict against the Black Widow, the
    Tribulations met and failed, her Wisdom."""
    verdict = "wins against" if game["solo_won"] else "loses to"
    failed: list[str] = game["tribulations_failed"]
    return (
        f"  The player {verdict} the Black Widow: {game['tribulations_met']} Tribulations met "
        f"(failed: {', '.join(failed) or 'none'}); Widow Wisdom {game['widow_wisdom']}."
    )


SPEC: Final = ModuleSpec(
    name="solo",
    token="solo",
    factory=WidowModule,
    players=(1,),
    automatic=True,
    title="Solo",
    game_columns=(
        Column("tribulations_met", "int8"),
        Column("tribulations", "list[str]", []),
        Column("tribulations_failed", "list[str]", []),
        Column("widow_wisdom", "int16"),
        Column("widow_suspicion", "int8"),
        Column("solo_won", "bool"),
    ),
    replay=ReplayPart("widow", "widow", replay_frame),
    observation=observation_fields,
    summary=summary_line,
    report="septima_sim.report.sections.solo:add",
)
