"""The content schemas: override paths are public schema values only, and a value that cannot make a playable
game is refused with one line naming the file, the key and what is allowed; the engine and the schema agree on
the names they share."""

from __future__ import annotations

from typing import Any

import pytest

from septima_sim.content import INGREDIENTS, Content, ContentError, load_content
from septima_sim.content.schema import FILES, NAMESPACE_FILE, Pack
from septima_sim.content.schema.actions import ACTIONS
from septima_sim.content.schema.animals import COLOURS
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.actions import _HANDLERS
from septima_sim.engine.config import COLOURS as SEAT_COLOURS
from septima_sim.players import RandomPolicy


def test_pack_validates_the_files_in_reading_order() -> None:
    assert list(reversed(Pack.__bases__)) == list(FILES.values())
    assert list(dict.fromkeys(NAMESPACE_FILE[ns] for ns in Pack.model_fields)) == list(FILES)


def test_schema_names_match_the_engine() -> None:
    assert set(ACTIONS) == set(_HANDLERS)
    assert COLOURS == SEAT_COLOURS


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        # issue 12: values that cannot make a playable game
        ("game.turns_per_season", 100, "rules.toml: game.turns_per_season: 100 turns, but a Basic hand holds 8"),
        ("game.turns_per_season", 6, "and the moon track 6 icons (one more than the turns; allowed 1..5)"),
        ("game.turns_per_season", [100], "rules.toml: game.turns_per_season: Input should be a valid integer"),
        ("game.turns_per_season", 0, "rules.toml: game.turns_per_season: Input should be greater than or equal to 1"),
        ("game.seasons", [], "rules.toml: game.seasons: List should have at least 1 item"),
        ("setup.loyal_citizens", -1, "rules.toml: setup.loyal_citizens: Input should be greater than or equal to 0"),
        ("widow.spiders", -1, "widow.toml: widow.spiders: Input should be greater than or equal to 0"),
        ("trials.seats.3", 0, "rules.toml: trials.seats.3: Input should be greater than or equal to 1"),
        ("suspicion.start", "2", "rules.toml: suspicion.start: Input should be a valid integer (got '2')"),
        ("suspicion.start", True, "rules.toml: suspicion.start: Input should be a valid integer (got True)"),
        ("suspicion.max", -5, "rules.toml: suspicion.max: the track -1..-5 needs max > min"),
        ("suspicion.angry_by_level", [1, 2], "rules.toml: suspicion.angry_by_level: needs 10 values"),
        ("game.seasons", ["autumn", "autumn"], "rules.toml: game.seasons: season names must differ"),
        ("hunters.enter_seasons", ["monsoon"], "rules.toml: hunters.enter_seasons: ['monsoon'] are not seasons"),
        ("hunters.start_spaces.3", [1, 7], "rules.toml: hunters.start_spaces.3[1]: Input should be less than"),
        ("hunters.start_spaces.3", [1, 1], "rules.toml: hunters.start_spaces: one hunter per space (players 3)"),
        ("crowd.pick_thresholds", [4, 3], "rules.toml: crowd.pick_thresholds: must be increasing"),
        ("setup.witches_kept", 4, "rules.toml: setup.witches_kept: 4 kept of 3 dealt"),
        ("setup.witches_dealt", 6, "rules.toml: setup.witches_dealt: 6 to each of 4 players"),
        ("setup.goals_dealt", 5, "rules.toml: setup.goals_dealt: 5 to each of 4 players"),
        ("setup.buildings_on_board", 7, "rules.toml: setup.buildings_on_board: 7 buildings, but 6 building tiles"),
        ("omens.threshold.4", -1, "omens.toml: omens.threshold.4: Input should be greater than or equal to 0"),
        ("omens.deck_size", 2, "omens.toml: omens.deck_size: 2 cards for 3 season ends"),
        ("widow.tribulations_needed", 9, "widow.toml: widow.tribulations_needed: more than the 8 Tribulations"),
        ("end.resources_per_wisdom", 0, "rules.toml: end.resources_per_wisdom: Input should be greater than"),
        # references and choices
        ("potions.love-potion.recipe", ["skul"], "potions.toml: potions.love-potion.recipe: unknown ingredient 'skul'"),
        ("potions.infection-remedy.cures", "flu", "potions.toml: potions.infection-remedy.cures: unknown disease"),
        ("spells.gust.effects", [{"effect": "move", "steps": -2}], "spells.toml: spells.gust.effects[0].steps"),
        ("witches.aylana.effects", [{"effect": "wisdom", "source": "bank"}], "unknown Wisdom source 'bank'"),
        ("witches.aylana.effects", [{"effect": "crystal", "amount": 0}], "crystal needs amount >= 1, got 0"),
        ("witches.aylana.trigger", "play:dance", "witches.toml: witches.aylana.trigger: unknown action 'dance'"),
        ("animals.fox.colour", "pink", "animals.toml: animals.fox.colour: unknown colour 'pink'"),
        ("animals.fox.actions", ["move"], "animals.toml: animals.fox.actions: List should have at least 4 items"),
        ("omens.paranoia.bright.action", "sing", "omens.toml: omens.paranoia.bright.action: unknown action 'sing'"),
        ("omens.era-of-healing.bright.effect", "offering_cost", "omens.era-of-healing.bright.amount: missing"),
        ("omens.spiritual-link.bright.everyone", ["nobody"], "spiritual-link.bright.everyone[0]: unknown witch"),
        ("ritual.start_column", 9, "ritual.toml: ritual.start_column: outside the track (columns 0..4)"),
        ("map.areas.hospital.q", 1, "map.toml: map.areas.river-meadow: two areas at (1, 0)"),
        ("widow_cards.collect.effects", [{"effect": "fly"}], "widow.toml: widow_cards.collect.effects[0].effect"),
        # provenance per value (issue 26): `assumed` names real fields of an item that comes from a source
        (
            "witches.johanna.assumed",
            ["effekts"],
            "witches.toml: witches.johanna.assumed[0]: unknown field of this item "
            "'effekts' (did you mean effects? allowed: name, trigger, effects, passive, note)",
        ),
        ("witches.johanna.assumed", ["effects", "effects"], "witches.johanna.assumed[1]: 'effects' is listed twice"),
        ("witches.agatha.assumed", ["effects"], "witches.agatha.assumed: the whole item is assumed (provenance = "),
        ("setup.assumed", ["start_crystal"], "rules.toml: setup.assumed[0]: unknown field of this item"),
        ("omens.paranoia.dark.assumed", ["amount", "hook"], "omens.paranoia.dark.assumed[1]: unknown field"),
    ],
)
def test_unplayable_override_names_file_key_and_what_is_allowed(path: str, value: Any, message: str) -> None:
    with pytest.raises(ContentError) as err:
        load_content(overrides={path: value})
    text = str(err.value)
    assert message in text
    assert "\n" not in text


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("_files.game", "names starting with '_' are internal"),
        ("game._secret", "names starting with '_' are internal"),
        ("suspicion", "no such content value (did you mean"),  # a table, not a value
        ("potions.infection-remedy", "no such content value"),
        ("potions.nectar.wisdom", "no such content value"),  # no such item
        ("potions.flying-ointment.wisdon", "did you mean potions.flying-ointment.wisdom"),
    ],
)
def test_override_path_must_be_a_public_schema_value(path: str, message: str) -> None:
    with pytest.raises(ContentError, match=r"^override ") as err:
        load_content(overrides={path: 1})
    assert message in str(err.value)


def test_schema_field_absent_from_the_file_can_be_overridden(content: Content) -> None:
    """``wisdom`` is declared for every potion though only Practical ones set it in potions.toml."""
    changed = load_content(overrides={"potions.infection-remedy.wisdom": 2})
    assert next(p for p in changed.potions if p.id == "infection-remedy").wisdom == 2
    assert changed.hash != content.hash


@pytest.mark.parametrize(
    ("config", "players"),
    [(GameConfig(3, "basic"), 3), (GameConfig(4, "full", shapeshifting=True, omens=True), 4), (GameConfig(1), 1)],
)
def test_the_largest_allowed_turns_per_season_plays(config: GameConfig, players: int) -> None:
    """The bound is what the engine can play (a Basic hand per season, the moon icons less one), in every mode."""
    base = load_content()
    hand = sum(1 for a in base.actions if not a.full_only and not a.module)
    extra = hand - len(INGREDIENTS) + 1  # moon icons so that the hand is the limit
    pack = load_content(overrides={"game.turns_per_season": hand, "lunar.extra_icons": extra})
    result = play_game(config, pack, [RandomPolicy() for _ in range(players)], seed=3)
    assert result.game["turns"] == hand * len(pack.rules.seasons)
    for too_many in ({"game.turns_per_season": hand + 1, "lunar.extra_icons": extra + 1}, {"lunar.extra_icons": 0}):
        with pytest.raises(ContentError, match="turns_per_season"):
            load_content(overrides=too_many)
