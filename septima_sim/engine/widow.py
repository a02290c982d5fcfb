"""Solo mode: the Black Widow automa (RULINGS §8, W1-W4; S9 and O3 for the expansion).

Everything she does comes from ``content.widow`` (widow.toml), an assumed design a designer can replace with the
printed solo rules. She takes a seat in turn order, reveals one of her own action markers each turn at the same time
as the player (matching works both ways, W1), applies that marker's effects (W2), moves her two Spiders toward the
player, sends black citizens to the crowd and the chambers (angry for the player), and at the end of the game the
player wins only by meeting enough Tribulations (W4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import Effect
from septima_sim.engine import scoring

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

WIDOW_TOKEN = -4
"""A Widow citizen in the bag or a chamber (counts as angry for the player, B25 with W2)."""


class WidowState:
    """The Widow's public state."""

    __slots__ = (
        "card",
        "crowd",
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

    def __init__(self, suspicion: int, citizens: int) -> None:
        self.vertex = -1
        self.suspicion = suspicion
        self.suspicion_max = suspicion
        self.wisdom = 0
        self.markers: list[int] = []  # her face-down marker deck for the season (top = last)
        self.card = -1  # marker revealed this turn
        self.last = -1  # marker of the previous turn (Remember repeats it)
        self.spiders: list[int] = []  # vertices
        self.supply = citizens
        self.crowd = 0
        self.ritual_row = 0  # her blocking marker on the ritual track (in the start column)
        self.trials_won = 0

    def copy(self) -> WidowState:
        twin = WidowState.__new__(WidowState)
        for name in WidowState.__slots__:
            value = getattr(self, name)
            setattr(twin, name, list(value) if isinstance(value, list) else value)
        return twin


def setup(g: Game) -> None:
    """W1-W2 setup: her leader and her Spiders on the free edge vertices farthest from the player; her markers."""
    w = g.content.widow
    state = WidowState(w.suspicion_start, w.citizens)
    g.widow = state
    player = g.players[0]
    dist = g.board.dist[player.vertex]
    far = sorted((v for v in g.board.edge_vertices if v not in g.occupied), key=lambda v: (-dist[v], v))
    state.vertex = far[0]
    g.occupied.add(state.vertex)
    state.spiders = far[1 : 1 + w.spiders]
    g.widow_first = g.rng_setup.random() < 0.5  # B4: the start player is random (the Widow or the player)
    shuffle_markers(g)


def shuffle_markers(g: Game) -> None:
    """W1: her action markers (one per card of the mode, Chant included) are shuffled each season."""
    g.widow.markers = list(g.mode_actions)
    g.rng_draw.shuffle(g.widow.markers)


def reveal(g: Game) -> None:
    """W1: she reveals the top marker at the same time as the player."""
    g.widow.card = g.widow.markers.pop()


def resolve(g: Game) -> None:
    """Her turn: a match raises her suspicion (W1, W3); then her marker's effects (W2); then her Spiders move 1 step
    toward the player's leader and one that ends on it raises the player's suspicion."""
    state, w = g.widow, g.content.widow
    p = g.players[0]
    before = state.suspicion
    card = state.card
    if g.icon[g.played[0]] == g.icon[card]:  # matching works both ways (W1)
        _suspicion(g, w.match_suspicion)
    for e in w.cards.get(g.action_ids[card], ()):
        _apply(g, e, card)
    for i, spider in enumerate(state.spiders):
        state.spiders[i] = _toward(g, spider, p.vertex, w.spider_steps, avoid_occupied=False)
        if state.spiders[i] == p.vertex:
            g.raise_suspicion(p, w.spider_suspicion)
    if g.sink is not None:
        g.emit(
            "action",
            -1,
            action=g.action_ids[card],
            matched_players=int(g.icon[g.played[0]] == g.icon[card]),
            matched_septima=g.icon[card] == g.septima_right,
            matched_other=None,
            form="human",
            suspicion_before=before,
            suspicion_after=state.suspicion,
            wisdom_before=None,
            wisdom_after=state.wisdom,
            detail=f"spiders at {state.spiders}",
        )


def end_turn(g: Game) -> None:
    g.widow.last = g.widow.card
    g.widow.card = -1


def _suspicion(g: Game, n: int) -> None:
    state, r = g.widow, g.rules
    state.suspicion = max(r.suspicion_min, min(r.suspicion_max, state.suspicion + n))
    state.suspicion_max = max(state.suspicion_max, state.suspicion)


def _toward(g: Game, start: int, target: int, steps: int, avoid_occupied: bool) -> int:
    """Step along a shortest path toward `target` (the lowest-numbered vertex among equals); a leader never ends on
    an occupied vertex (B18)."""
    dist = g.board.dist[target]
    here = start
    for _ in range(steps):
        nxt = [v for v in g.board.neighbours[here] if dist[v] < dist[here]]
        if avoid_occupied:
            nxt = [v for v in nxt if v not in g.occupied]
        if not nxt:
            break
        here = min(nxt)
    return here


def _apply(g: Game, e: Effect, card: int) -> None:
    state = g.widow
    kind = e.kind
    if kind == "widow_wisdom":
        state.wisdom += e.amount
    elif kind == "widow_suspicion":
        _suspicion(g, e.amount)
    elif kind == "chase":
        dest = _toward(g, state.vertex, g.players[0].vertex, e.amount, avoid_occupied=True)
        g.occupied.discard(state.vertex)
        state.vertex = dest
        g.occupied.add(dest)
    elif kind == "take_patient":
        for _ in range(e.amount):
            if not g.patients:
                return
            space = min(g.patients, key=_space_number)
            patient = g.patients.pop(space)
            for potion in patient.remedies:
                g.potion_supply[potion] += 1
            g.patient_discard.append(patient.tile)
    elif kind == "widow_citizen":
        n = min(e.amount, state.supply)
        state.supply -= n
        state.crowd += n
    elif kind == "widow_plead":
        seats = g.rules.trial_seats[g.n]
        for _ in range(e.amount):
            if state.crowd and g.chamber1 >= 0 and len(g.seated[1]) < seats:
                state.crowd -= 1
                g.seated[1].append(WIDOW_TOKEN)
    elif kind == "repeat_last":
        last = state.last
        if last >= 0 and last != card:
            for effect in g.content.widow.cards.get(g.action_ids[last], ()):
                if effect.kind != "repeat_last":
                    _apply(g, effect, last)
    elif kind == "block_ritual":
        state.ritual_row = min(len(g.content.ritual.rows), state.ritual_row + e.amount)


def _space_number(space: str) -> tuple[int, str]:
    flag, _, number = space.rpartition("-")
    return int(number), flag


def blocks(g: Game, row: int, col: int) -> bool:
    """Her ritual marker blocks the cell it stands on (row, start column) for the player."""
    return row == g.widow.ritual_row and col == g.content.ritual.start_column


def tribulations(g: Game, p: Player) -> list[str]:
    """W4: the ids of the Tribulations the player met at game end (Basic mode uses a Tribulation's basic form)."""
    met = []
    for t in g.content.widow.tribulations:
        name, op, value = t.basic if (t.basic and not g.full) else t.check
        x = scoring.stat(g, p, name)
        if (x >= value) if op == ">=" else (x <= value):
            met.append(t.id)
    return met


def needed(g: Game) -> int:
    """How many Tribulations the player must meet: all 8, or 7 with Shapeshifting (S9)."""
    w = g.content.widow
    return w.needed_shapeshifting if g.shapeshifting else w.needed
