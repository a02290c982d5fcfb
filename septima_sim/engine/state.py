"""Plain slotted state records of a game in progress (no behaviour beyond tiny helpers)."""

from __future__ import annotations

from septima_sim.engine.results import SOURCES
from septima_sim.engine.rule_effects import NO_SEAT_EFFECT, SeatEffect

WIDOW = -1
"""The ``seat`` of the Black Widow's events (solo)."""
TABLE = -2
"""The ``seat`` of board-level events (hunters, patients, the witch on trial, Septima markers, the spell market)."""


class SpellCard:
    """A spell a player holds: ready or exhausted, used this turn, ongoing effect active this season."""

    __slots__ = ("active", "idx", "ready", "used_turn")

    def __init__(self, idx: int) -> None:
        self.idx = idx
        self.ready = True
        self.used_turn = -1
        self.active = False

    def copy(self) -> SpellCard:
        twin = SpellCard(self.idx)
        twin.ready, twin.used_turn, twin.active = self.ready, self.used_turn, self.active
        return twin


class Patient:
    """A patient tile on a patient space. ``healed_by`` is a bitmask of seats; ``remedies`` sit on it."""

    __slots__ = ("angry", "area", "disease", "healed_by", "remedies", "space", "tile")

    def __init__(self, tile: int, disease: int, space: str, area: int) -> None:
        self.tile = tile
        self.disease = disease
        self.space = space
        self.area = area
        self.angry = 0
        self.healed_by = 0
        self.remedies: list[int] = []

    def copy(self) -> Patient:
        twin = Patient(self.tile, self.disease, self.space, self.area)
        twin.angry, twin.healed_by, twin.remedies = self.angry, self.healed_by, list(self.remedies)
        return twin


class Player:
    """Everything public about one seat. Book of Divination goals are private: ``GameState.goals`` (``Game.s``)."""

    __slots__ = (
        "brewed",
        "captures",
        "charms",
        "colour",
        "comp",
        "coven",
        "crowd",
        "discard",
        "fx",
        "hand",
        "healed",
        "hunter_rolls",
        "ingredients_gained",
        "matches_players",
        "matches_septima",
        "mirror",
        "no_raise",
        "overflows",
        "played",
        "potions",
        "raised",
        "res",
        "ribbons",
        "ritual_col",
        "ritual_row",
        "seat",
        "spells",
        "spells_gained",
        "src",
        "supply",
        "suspicion",
        "suspicion_max",
        "tracks",
        "trials_won",
        "vertex",
        "wisdom",
        "witches_lost",
        "witches_recruited",
        "witches_start",
    )

    def __init__(self, seat: int, colour: str, n_actions: int, n_potions: int, n_diseases: int) -> None:
        self.seat = seat
        self.colour = colour
        self.vertex = -1
        self.suspicion = 0
        self.suspicion_max = 0
        self.raised = False  # suspicion raised at any time this turn (B15, B16)
        self.no_raise = False  # nothing may raise suspicion this moon phase (a module sets it: S4, animal form)
        self.wisdom = 0
        self.src = [0] * len(SOURCES)
        self.comp: dict[str, int] = {}  # Wisdom by cause id (results: the ``components`` column and the families)
        self.res = [0] * 6  # 5 ingredients + Crystal
        self.charms = 0
        self.potions = [0] * n_potions
        self.hand = [True] * n_actions
        self.discard: list[int] = []
        self.coven: list[int] = []
        self.supply = 0  # loyal citizens in personal supply
        self.crowd = 0  # loyal citizens in the crowd
        self.tracks = [0] * n_diseases
        self.healed = [0] * n_diseases  # patients healed, by disease
        self.spells: list[SpellCard] = []
        self.ritual_row = 0  # 0 = below row 1
        self.ritual_col = 0
        self.ribbons = 0  # bitmask of ribbon rows entered
        self.mirror = -1  # witch borrowed by the Magic Mirror this season
        self.fx: SeatEffect = NO_SEAT_EFFECT  # the rule change in force for this seat this turn (an animal ability)
        # statistics
        self.overflows = 0
        self.captures = 0
        self.hunter_rolls = 0
        self.trials_won = 0
        self.witches_start = 0
        self.witches_lost = 0
        self.witches_recruited = 0
        self.brewed = [0] * n_potions
        self.played = [0] * n_actions
        self.matches_players = 0
        self.matches_septima = 0
        self.spells_gained = 0
        self.ingredients_gained = 0

    def copy(self) -> Player:
        """An independent copy for search players' simulations, field by field (lists copied, spells copied)."""
        twin = Player(self.seat, self.colour, 0, 0, 0)  # a constructor, not __new__: compiled classes need one
        twin.captures = self.captures
        twin.charms = self.charms
        twin.colour = self.colour
        twin.crowd = self.crowd
        twin.fx = self.fx
        twin.hunter_rolls = self.hunter_rolls
        twin.ingredients_gained = self.ingredients_gained
        twin.matches_players = self.matches_players
        twin.matches_septima = self.matches_septima
        twin.mirror = self.mirror
        twin.no_raise = self.no_raise
        twin.overflows = self.overflows
        twin.raised = self.raised
        twin.ribbons = self.ribbons
        twin.ritual_col = self.ritual_col
        twin.ritual_row = self.ritual_row
        twin.seat = self.seat
        twin.spells_gained = self.spells_gained
        twin.supply = self.supply
        twin.suspicion = self.suspicion
        twin.suspicion_max = self.suspicion_max
        twin.trials_won = self.trials_won
        twin.vertex = self.vertex
        twin.wisdom = self.wisdom
        twin.witches_lost = self.witches_lost
        twin.witches_recruited = self.witches_recruited
        twin.witches_start = self.witches_start
        twin.brewed = list(self.brewed)
        twin.comp = dict(self.comp)
        twin.coven = list(self.coven)
        twin.discard = list(self.discard)
        twin.hand = list(self.hand)
        twin.healed = list(self.healed)
        twin.played = list(self.played)
        twin.potions = list(self.potions)
        twin.res = list(self.res)
        twin.spells = [sp.copy() for sp in self.spells]
        twin.src = list(self.src)
        twin.tracks = list(self.tracks)
        return twin

    @property
    def ingredients(self) -> int:
        return self.res[0] + self.res[1] + self.res[2] + self.res[3] + self.res[4]
