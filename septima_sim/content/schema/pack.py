"""The whole pack: every file's schema in one model, plus the checks that span files (what a game of 1-4 players
needs from several files at once)."""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from septima_sim.content.model import INGREDIENTS
from septima_sim.content.schema.actions import ActionsFile
from septima_sim.content.schema.animals import AnimalsFile
from septima_sim.content.schema.buildings import BuildingsFile
from septima_sim.content.schema.common import Fault, Schema, without_ranges
from septima_sim.content.schema.goals import GoalsFile
from septima_sim.content.schema.ingredients import IngredientsFile
from septima_sim.content.schema.map import MapFile
from septima_sim.content.schema.omens import OmensFile
from septima_sim.content.schema.patients import PatientsFile
from septima_sim.content.schema.potions import PotionsFile
from septima_sim.content.schema.ritual import RitualFile
from septima_sim.content.schema.rules import RulesFile
from septima_sim.content.schema.spells import SpellsFile
from septima_sim.content.schema.widow import WidowFile
from septima_sim.content.schema.witches import WitchesFile

FILES: dict[str, type[Schema]] = {
    "rules.toml": RulesFile,
    "ingredients.toml": IngredientsFile,
    "actions.toml": ActionsFile,
    "potions.toml": PotionsFile,
    "patients.toml": PatientsFile,
    "map.toml": MapFile,
    "ritual.toml": RitualFile,
    "spells.toml": SpellsFile,
    "witches.toml": WitchesFile,
    "buildings.toml": BuildingsFile,
    "goals.toml": GoalsFile,
    "animals.toml": AnimalsFile,
    "widow.toml": WidowFile,
    "omens.toml": OmensFile,
}
"""The files of a pack, in reading order, and the schema of each (its top-level names are tree namespaces)."""

NAMESPACE_FILE: dict[str, str] = {ns: file for file, model in FILES.items() for ns in model.model_fields}
"""The file that holds each namespace of the tree (``ritual`` is ritual.toml's, with rules.toml's [ritual] merged)."""

MAX_PLAYERS = 4
"""Deals and per-player tables are sized for the largest game the engine plays."""
CHAMBER_WITCHES = 5
"""Witches drawn besides the players' deals: one per trial chamber per season (4 seasons) and the first chamber."""


class Pack(
    OmensFile,
    WidowFile,
    AnimalsFile,
    GoalsFile,
    BuildingsFile,
    WitchesFile,
    SpellsFile,
    RitualFile,
    MapFile,
    PatientsFile,
    PotionsFile,
    ActionsFile,
    IngredientsFile,
    RulesFile,
):
    """A content tree: each namespace validated by its file's schema, then the limits that span files. The bases are
    FILES backwards: pydantic puts the last base's fields first, so the first error reported is the first in reading
    order. Each table's ``ranges`` (values a sensitivity study may give, ``common.RANGES``) is checked and taken out
    first: the game never reads them."""

    @model_validator(mode="before")
    @classmethod
    def _ranges(cls, data: Any) -> Any:
        return without_ranges(data) if isinstance(data, dict) else data

    @model_validator(mode="after")
    def _playable(self) -> Pack:
        # one card a turn, returned only at the season's end; Collect reads the moon icons of this turn and the next
        basic_hand = sum(1 for a in self.actions.values() if not a.full_only and not a.module)
        moon_turns = len(INGREDIENTS) + self.lunar.extra_icons - 1
        turns = self.game.turns_per_season
        if turns > min(basic_hand, moon_turns):
            raise Fault(
                ("game", "turns_per_season"),
                f"{turns} turns, but a Basic hand holds {basic_hand} cards and the moon track "
                f"{moon_turns + 1} icons (one more than the turns; allowed 1..{min(basic_hand, moon_turns)})",
            )
        unknown = [s for s in self.hunters.enter_seasons if s not in self.game.seasons]
        if unknown:
            raise Fault(("hunters", "enter_seasons"), f"{unknown} are not seasons of game.seasons {self.game.seasons}")
        dealt = self.setup.witches_dealt
        if len(self.witches) < dealt * MAX_PLAYERS + CHAMBER_WITCHES:
            raise Fault(
                ("setup", "witches_dealt"),
                f"{dealt} to each of {MAX_PLAYERS} players and {CHAMBER_WITCHES} for the trial chambers need "
                f"{dealt * MAX_PLAYERS + CHAMBER_WITCHES} witches, witches.toml has {len(self.witches)}",
            )
        for name, what, file, items in (
            ("forced", "witch", "witches.toml", self.witches),
            ("forced_spells", "spell", "spells.toml", self.spells),
            ("forced_goals", "goal", "goals.toml", self.goals),
        ):
            unknown_forced = [w for w in getattr(self.setup, name).values() if w not in items]
            if unknown_forced:
                raise Fault(("setup", name), f"no {what} {unknown_forced[0]!r} in {file}")
        on_board = self.setup.buildings_on_board
        towns = sum(a.town for a in self.map.areas.values())
        if on_board > min(len(self.buildings), towns):
            raise Fault(
                ("setup", "buildings_on_board"),
                f"{on_board} buildings, but {len(self.buildings)} building tiles and {towns} town areas",
            )
        basic_goals = sum(not g.full_only for g in self.goals.values())
        if basic_goals < self.setup.goals_dealt * MAX_PLAYERS:
            raise Fault(
                ("setup", "goals_dealt"),
                f"{self.setup.goals_dealt} to each of {MAX_PLAYERS} players, but goals.toml has {basic_goals} goals "
                "that Basic mode deals",
            )
        season_ends = len(self.game.seasons) - 1
        if self.omens.deck_size < season_ends:
            raise Fault(("omens", "deck_size"), f"{self.omens.deck_size} cards for {season_ends} season ends")
        for key in ("tribulations_needed", "tribulations_needed_shapeshifting"):
            if getattr(self.widow, key) > len(self.tribulations):
                raise Fault(("widow", key), f"more than the {len(self.tribulations)} Tribulations")
        return self
