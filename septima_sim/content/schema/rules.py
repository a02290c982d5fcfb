"""rules.toml: the general numbers, one table per topic (game, setup, suspicion, board, trials, crowd, ritual, end,
hunters, lunar), and the readings of ambiguous rules a designer can switch (readings). Bounds say what the engine
can play; cross-file limits (hand size, witches per player) are in ``pack.py``."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from septima_sim.content.model import READINGS
from septima_sim.content.schema.common import (
    CARD_NUMBER,
    Count,
    Fault,
    Provenance,
    Schema,
    Signed,
    Sourced,
    per_players,
    unknown,
)

SUSPICION_BOUND = 100
"""The suspicion track stays within what the store's Int8 suspicion columns hold."""
FORCED_SEATS = 4
"""Seats a witch, spell or goal can be forced to (0-based; ``pack.MAX_PLAYERS``): a seat not in a game's player
count is ignored."""
REGIONS = 6
"""The board has six regions, each with one hunter space numbered 1..6 (engine ``board.REGIONS``)."""


class Game(Sourced):
    """Seasons in play order and moon phases (turns) per season."""

    # at least one season is a game; names are matched by hunters.enter_seasons
    seasons: Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1, max_length=12)]
    # at most the Basic hand (cards return at the season's end) and the moon icons less one (pack.py)
    turns_per_season: Annotated[int, Field(ge=1)]
    provenance: Provenance

    @model_validator(mode="after")
    def _unique(self) -> Game:
        if len(set(self.seasons)) != len(self.seasons):
            raise Fault("seasons", f"season names must differ, got {self.seasons}")
        return self


class Setup(Sourced):
    """Starting supplies and deals (B5-B6)."""

    loyal_citizens: Count
    witches_dealt: Annotated[int, Field(ge=1, le=10)]  # the deck must hold 4 players' deals (pack.py)
    witches_kept: Annotated[int, Field(ge=1, le=10)]  # a coven starts with at least one witch (abilities, trials)
    max_witches: Annotated[int, Field(ge=1, le=10)]
    goals_dealt: Annotated[int, Field(ge=0, le=10)]  # the goal deck must hold 4 players' deals (pack.py)
    start_crystals: Count
    start_charms: Count
    neutral_crowd: Count
    buildings_on_board: Count  # at most the town areas and the building tiles (pack.py)
    potion_supply: Annotated[int, Field(ge=1, le=CARD_NUMBER)]  # each potion can be brewed at least once
    provenance: Provenance
    # seat ("0".."3") -> witch id dealt to that seat and kept (ablate's "forced" arm); witch ids checked in pack.py
    forced: dict[str, str] = Field(default_factory=dict)
    # seat -> spell id in that seat's hand at the start (Full game), and seat -> goal id dealt to that seat
    forced_spells: dict[str, str] = Field(default_factory=dict)
    forced_goals: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _deal(self) -> Setup:
        for name, what in (("forced", "witch"), ("forced_spells", "spell"), ("forced_goals", "goal")):
            table: dict[str, str] = getattr(self, name)
            for seat in table:
                if not (seat.isdigit() and int(seat) < FORCED_SEATS):
                    raise Fault(name, f"seat {seat!r} is not a seat 0..{FORCED_SEATS - 1}")
            if len(set(table.values())) != len(table):
                raise Fault(name, f"a {what} can be forced to one seat only")
        if self.witches_kept > self.witches_dealt:
            raise Fault("witches_kept", f"{self.witches_kept} kept of {self.witches_dealt} dealt (keep <= dealt)")
        if self.max_witches < self.witches_kept:
            raise Fault("max_witches", f"{self.max_witches} is below the {self.witches_kept} witches kept at setup")
        return self


class Suspicion(Sourced):
    """The suspicion track min..max, the start and the raises (B13); one angry count per level."""

    start: int
    min: Annotated[int, Field(ge=-SUSPICION_BOUND, le=SUSPICION_BOUND)]
    max: Annotated[int, Field(ge=-SUSPICION_BOUND, le=SUSPICION_BOUND)]
    match_player: Count
    match_septima: Count
    ritual_oil: Count
    overflow_wisdom_loss: Count
    angry_by_level: list[Count]  # indexed by level - min, so one value per level
    provenance: Provenance

    @model_validator(mode="after")
    def _track(self) -> Suspicion:
        if self.min >= self.max:
            raise Fault("max", f"the track {self.min}..{self.max} needs max > min")
        if not self.min <= self.start <= self.max:
            raise Fault("start", f"{self.start} is outside the track {self.min}..{self.max}")
        levels = self.max - self.min + 1
        if len(self.angry_by_level) != levels:
            raise Fault("angry_by_level", f"needs {levels} values (levels {self.min}..{self.max})")
        return self


class Board(Sourced):
    """Patients kept on the board per player count (B9)."""

    patients: Annotated[dict[str, Count], per_players()]
    provenance: Provenance


class Trials(Sourced):
    """Trial chambers and the winner's reward (B21-B22)."""

    seats: Annotated[
        dict[str, Annotated[int, Field(ge=1, le=CARD_NUMBER)]], per_players()
    ]  # a chamber needs at least 1 seat
    winner_wisdom: Count
    winner_recall: Count
    provenance: Provenance


class Crowd(Sourced):
    """Crowd picks after the trials (B29) and what a pick gives."""

    # loyal citizens in the crowd for 1, 2, ... different picks; positive and increasing
    pick_thresholds: Annotated[list[Annotated[int, Field(ge=1, le=CARD_NUMBER)]], Field(min_length=1, max_length=5)]
    recall_after_picks: Count
    move_steps: Count
    suspicion: Signed  # added to suspicion by the pick (negative lowers)
    provenance: Provenance

    @model_validator(mode="after")
    def _increasing(self) -> Crowd:
        if self.pick_thresholds != sorted(self.pick_thresholds):
            raise Fault("pick_thresholds", f"must be increasing positive numbers, got {self.pick_thresholds}")
        return self


class RitualRules(Schema):
    """The ritual numbers of rules.toml (the track itself is ritual.toml, which shares the ``ritual`` table)."""

    top_wisdom: Count
    offering: Count  # documents the printed offering; each ribbon row carries its own (ritual.toml)


class End(Sourced):
    """Game-end scoring (B32)."""

    # [at_least, points] pairs: the last pair whose at_least the crowd reaches scores
    loyal_scores: list[Annotated[list[Count], Field(min_length=2, max_length=2)]]
    charm_wisdom: Count
    potion_wisdom: Count
    resources_per_wisdom: Annotated[int, Field(ge=1, le=CARD_NUMBER)]  # a divisor
    all_tracks_bonus: Count
    provenance: Provenance


class Hunters(Sourced):
    """The hunter die, start spaces per player count and the seasons a new hunter enters (B15)."""

    die: Annotated[list[Annotated[int, Field(ge=0, le=REGIONS)]], Field(min_length=1)]  # steps per face
    # each space is a region 1..6 and holds one hunter
    start_spaces: Annotated[
        dict[str, Annotated[list[Annotated[int, Field(ge=1, le=REGIONS)]], Field(max_length=REGIONS)]],
        per_players(lambda v: len(set(v)) == len(v), "one hunter per space"),
    ]
    enter_seasons: list[str]  # season names of game.seasons (pack.py)
    provenance: Provenance


class Lunar(Sourced):
    """The moon track: one icon per ingredient plus ``extra_icons`` random ones."""

    extra_icons: Annotated[int, Field(ge=0, le=10)]
    provenance: Provenance


class Reading(Sourced):
    """One reading: the value in force, the values a designer may choose (the engine plays each, ``READINGS``), its
    provenance and a one-line description."""

    value: str
    allowed: Annotated[list[str], Field(min_length=1)]
    provenance: Provenance
    description: Annotated[str, Field(min_length=1, max_length=300)]  # one line in ``septima-sim rules``


class Readings(Schema):
    """[readings]: one table per reading the engine knows (``content.model.READINGS``), all of them required."""

    hunter_direction: Reading
    fox_ability: Reading
    practical_potions: Reading
    remember_abilities: Reading
    spiritual_link_dragomir: Reading
    remember_chant: Reading
    plead_empty_chamber: Reading

    @model_validator(mode="after")
    def _known(self) -> Readings:
        for name, engine in READINGS.items():
            r: Reading = getattr(self, name)
            for value in r.allowed:
                if value not in engine:
                    raise Fault((name, "allowed"), unknown(f"{name} reading", value, engine))
            if r.value not in r.allowed:
                raise Fault((name, "value"), unknown(f"{name} reading", r.value, tuple(r.allowed)))
        return self


class RulesFile(Schema):
    """The tables of rules.toml (``ritual`` is shared with ritual.toml and validated in ``pack.py``)."""

    game: Game
    setup: Setup
    suspicion: Suspicion
    board: Board
    trials: Trials
    crowd: Crowd
    end: End
    hunters: Hunters
    lunar: Lunar
    readings: Readings
