"""The per-game state of a game in progress: plain data with a written-out copy (no rules, no content, no streams).

``Game.s`` holds one ``GameState``; everything here changes during a game and differs between two games of the same
content. The content-derived tables (``engine.tables``), the random streams, the policies and their views, the event
sink and the rules modules (each with its own state and ``copy()``) stay on the ``Game``. A clone of a game is its
shell plus ``s.copy()`` plus copies of the modules (``Game.clone``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine.rule_effects import NO_RULE_EFFECT, RuleEffect
from septima_sim.engine.state import Patient, Player

if TYPE_CHECKING:
    from septima_sim.engine.spells import MarketRow


class GameState:
    """Everything that changes during one game: seats, decks, board, supplies, the calendar and the turn's cards.
    Built empty for `n` seats; ``Game`` deals it (setup)."""

    __slots__ = (
        "buildings",
        "chamber1",
        "chamber2",
        "crowd_angry",
        "crowd_neutral",
        "crystal_supply",
        "decisions",
        "drafted",
        "first_player",
        "fx",
        "goal_deck",
        "goals",
        "goals_scored",
        "hand_actions",
        "hunter_active",
        "hunter_space",
        "lunar",
        "market",
        "occupied",
        "order",
        "patient_discard",
        "patient_stack",
        "patients",
        "played",
        "players",
        "potion_supply",
        "remember_copy",
        "returning_card",
        "season",
        "seated",
        "septima_bag",
        "septima_left",
        "septima_right",
        "start_player",
        "step",
        "turn",
        "witch_box",
        "witch_deck",
        "witches_off",
    )

    def __init__(self, n: int) -> None:
        # seats
        self.players: list[Player] = []  # one public record per seat (Player), in seat order
        self.goals: list[list[int]] = [[] for _ in range(n)]  # private: dealt goal indices per seat
        self.goals_scored: list[list[int]] = [[] for _ in range(n)]  # goals each seat has scored
        self.drafted: list[list[int]] = [[] for _ in range(n)]  # witches kept in the draft, per seat
        self.witches_off: list[list[int]] = [[] for _ in range(n)]  # coven witches whose ability is off, per seat
        # calendar and the current moon phase
        self.decisions = 0  # decisions asked so far (a result column)
        self.season = 0  # 0..3
        self.turn = 0  # 0..4 within the season
        self.step = "setup"  # the phase step now (events, modules)
        self.start_player = 0  # the seat that starts this season
        self.first_player = 0  # the seat that started the game
        self.order: list[int] = []  # seats in turn order this season
        self.played: list[int] = [-1] * n  # card each seat revealed this turn (-1: none)
        self.remember_copy: list[int] = [-1] * n  # the card a seat's Remember copies this turn (-1: none)
        self.hand_actions: tuple[int, ...] = ()  # the cards a hand holds (a module may swap some, S1)
        self.returning_card = -1  # a card that goes back to hand, not to the discard, at the end of a turn (S2)
        self.fx: RuleEffect = NO_RULE_EFFECT  # the rule change in force for everyone (an Omen half)
        # board
        self.occupied: set[int] = set()  # vertices holding a leader
        self.witch_deck: list[int] = []  # witch indices, top = last
        self.witch_box: list[int] = []  # exiled, discarded or returned to the box
        self.chamber1 = -1  # witch on trial in the first chamber (-1: none)
        self.chamber2: list[int] = []  # stack of witches in the second chamber, top = last
        self.seated: list[list[int]] = [[], [], []]  # citizens placed by Plead, per chamber 1 and 2 (seat numbers)
        self.crowd_neutral = 0  # neutral citizens in the crowd
        self.crowd_angry = 0  # angry citizens in the crowd
        self.patient_stack: list[int] = []  # patient tiles to draw, top = last
        self.patient_discard: list[int] = []  # patient tiles that left the board this season
        self.patients: dict[str, Patient] = {}  # patient space -> the patient on it
        self.septima_bag: list[int] = []  # Septima markers still in the bag
        self.septima_left = -1  # the Septima's left marker (next turn's), -1: none
        self.septima_right = -1  # the Septima's right marker (this turn's), -1: none
        self.lunar: list[int] = []  # the lunar track's ingredient icons
        self.hunter_space: list[int] = []  # per hunter: its hunter space 1..6
        self.hunter_active: list[bool] = []  # per hunter: standing (True) or laid down this moon phase
        self.buildings: dict[int, int] = {}  # area index -> building index
        self.market: list[MarketRow] = []  # per element: scoring stack, deck, middle, bottom
        self.goal_deck: list[int] = []  # goal indices not dealt, top = last
        # supplies
        self.potion_supply: list[int] = []  # potions left in the supply, by potion index
        self.crystal_supply = 0  # Crystals left in the supply

    def copy(self) -> GameState:
        """An independent copy, field by field: lists, sets and dicts copied, players, patients and market rows
        through their own ``copy()``; the rule effect and the tuple of hand cards are immutable and shared."""
        twin = GameState(0)  # a constructor, not __new__: compiled classes need one
        twin.players = [p.copy() for p in self.players]
        twin.goals = [list(x) for x in self.goals]
        twin.goals_scored = [list(x) for x in self.goals_scored]
        twin.drafted = [list(x) for x in self.drafted]
        twin.witches_off = [list(x) for x in self.witches_off]
        twin.decisions = self.decisions
        twin.season = self.season
        twin.turn = self.turn
        twin.step = self.step
        twin.start_player = self.start_player
        twin.first_player = self.first_player
        twin.order = list(self.order)
        twin.played = list(self.played)
        twin.remember_copy = list(self.remember_copy)
        twin.hand_actions = self.hand_actions
        twin.returning_card = self.returning_card
        twin.fx = self.fx
        twin.occupied = set(self.occupied)
        twin.witch_deck = list(self.witch_deck)
        twin.witch_box = list(self.witch_box)
        twin.chamber1 = self.chamber1
        twin.chamber2 = list(self.chamber2)
        twin.seated = [list(x) for x in self.seated]
        twin.crowd_neutral = self.crowd_neutral
        twin.crowd_angry = self.crowd_angry
        twin.patient_stack = list(self.patient_stack)
        twin.patient_discard = list(self.patient_discard)
        twin.patients = {space: pt.copy() for space, pt in self.patients.items()}
        twin.septima_bag = list(self.septima_bag)
        twin.septima_left = self.septima_left
        twin.septima_right = self.septima_right
        twin.lunar = list(self.lunar)
        twin.hunter_space = list(self.hunter_space)
        twin.hunter_active = list(self.hunter_active)
        twin.buildings = dict(self.buildings)
        twin.market = [row.copy() for row in self.market]
        twin.goal_deck = list(self.goal_deck)
        twin.potion_supply = list(self.potion_supply)
        twin.crystal_supply = self.crystal_supply
        return twin
