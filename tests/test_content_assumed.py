"""Assumed values and their ranges (``content.assumed``), values inside lists (``content.values``) and the ``ranges``
a designer writes beside values in a pack (``schema.common.RANGES``); ``septima-sim rules --assumed`` through the
console script."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from septima_sim.content import ContentError, load_content
from septima_sim.content import values as content_values
from septima_sim.content.assumed import POSITIONS, assumed_fields, assumed_values, is_assumed, named_values
from septima_sim.content.loader import BASE_DIR, content_tree, validate
from tests.helpers import script


@pytest.fixture(scope="module")
def found() -> dict[str, object]:
    return {v.path: v for v in assumed_values()}


def pack_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    """A copy of the built-in pack with one text replacement in one file."""
    pack = tmp_path / "pack"
    shutil.copytree(BASE_DIR, pack)
    text = (pack / file).read_text()
    assert old in text
    (pack / file).write_text(text.replace(old, new, 1))
    return pack


# --------------------------------------------------------------------------------------------- values in lists
def test_a_value_inside_a_list_is_set_by_overriding_the_list() -> None:
    tree = content_tree()
    assert content_values.split(tree, "hunters.die.5") == ("hunters.die", (5,))
    assert content_values.split(tree, "witches.hazel.effects.0.amount") == ("witches.hazel.effects", (0, "amount"))
    assert content_values.get(tree, "hunters.die.5") == 3
    ov = content_values.overrides(tree, {"hunters.die.5": 6, "hunters.die.0": 1, "widow.spiders": 2})
    assert ov == {"hunters.die": [1, 1, 1, 2, 2, 6]}  # two positions share one override; an unchanged value is left out
    assert tree["hunters"]["die"] == [0, 1, 1, 2, 2, 3]  # the pack's tree is not changed
    assert load_content(None, ov).rules.hunter_die == (1, 1, 1, 2, 2, 6)


def test_a_table_or_an_unknown_path_is_not_a_value() -> None:
    tree = content_tree()
    with pytest.raises(ContentError, match="is a table"):
        content_values.split(tree, "witches.hazel.effects")
    with pytest.raises(ContentError, match=r"did you mean widow\.spiders"):
        content_values.split(tree, "widow.spidres")
    with pytest.raises(ContentError, match="no such content value"):
        content_values.split(tree, "hunters.die.9")


def test_with_values_copies_only_what_it_changes() -> None:
    tree = content_tree()
    changed = content_values.with_values(tree, {"widow.spiders": 4})
    assert changed["widow"]["spiders"] == 4 and tree["widow"]["spiders"] == 2
    assert changed["witches"] is tree["witches"]
    validate(changed)


# --------------------------------------------------------------------------------------------- the assumed set
def test_every_listed_value_is_assumed_and_no_position_is(found: dict[str, object]) -> None:
    assert len(found) > 150
    assert all(is_assumed(v.provenance) for v in found.values())  # type: ignore[attr-defined]
    assert not [p for p in found if p.startswith(POSITIONS)]
    assert "widow.spiders" in found and "hunters.die.5" in found and "readings.fox_ability.value" in found
    # seed-base numbers are not listed: trials (seed-base table), ritual.top_wisdom (rules.toml's [ritual], seed-base,
    # although ritual.toml's provenance fills the merged table)
    assert "trials.winner_wisdom" not in found and "ritual.top_wisdom" not in found
    assert "ritual.ribbons.8.rewards.1.amount" in found  # ritual.toml's own values are assumed


def test_rule_ranges_are_half_to_double_at_least_one_step_within_the_schema(found: dict[str, object]) -> None:
    def span(path: str) -> tuple[object, object]:
        v = found[path]
        return v.low, v.high  # type: ignore[attr-defined]

    assert span("widow.citizens") == (4, 16)  # 8: half to double
    assert span("hunters.die.5") == (1, 6)  # 3: 1.5 -> 1 .. 6, and a face is at most 6 (REGIONS)
    assert span("witches.hazel.effects.0.amount") == (0, 2)  # 1: at least one step either side
    assert span("omens.spiritual-link.dark.amount") == (-4, -1)  # -2: double to half for a negative number
    assert span("widow.tribulations_needed") == (4, 8)  # 16 would need more than the 8 Tribulations (pack check)
    assert span("spells.healers-oath.unit") == (1, 2)  # a divisor is at least 1
    assert span("hunters.die.0") == (0, 1)  # 0: a face is at least 0
    reading = found["readings.fox_ability.value"]
    assert set(reading.choices) == {"after-move", "the-move"}  # type: ignore[attr-defined]
    tree = content_tree()
    for v in found.values():  # each end loads on its own
        for bound in (v.low, v.high) if v.numeric else v.choices:  # type: ignore[attr-defined]
            validate(content_values.with_values(tree, {v.path: bound}))  # type: ignore[attr-defined]


def test_per_value_provenance_is_read_in_one_place() -> None:
    assert assumed_fields({"provenance": "seed-expansion", "assumed": ["effects"]}) == ("effects",)
    assert assumed_fields({"provenance": "seed-expansion"}) == ()
    assert is_assumed("assumed") and is_assumed("seed-expansion (assumed)") and not is_assumed("seed-base")


def test_named_values_take_the_given_range_and_any_provenance() -> None:
    (winner, spiders, reading) = named_values(
        None, {"trials.winner_wisdom": [0, 20], "widow.spiders": None, "readings.fox_ability.value": None}
    )
    assert (winner.low, winner.high, winner.source, winner.provenance) == (0, 20, "given", "seed-base")
    assert (spiders.low, spiders.high, spiders.source) == (1, 4, "rule")
    assert reading.choices == ("after-move", "the-move")
    with pytest.raises(ContentError, match="does not make a playable pack"):
        named_values(None, {"widow.spiders": [0, 50]})
    with pytest.raises(ContentError, match="not a number or a choice"):
        named_values(None, {"witches.johanna.trigger": None})


# --------------------------------------------------------------------------------------------- ranges in a pack
def test_a_designers_range_beside_the_values_is_used_and_never_played(tmp_path: Path) -> None:
    pack = pack_with(
        tmp_path,
        "widow.toml",
        'provenance = "assumed"\nsuspicion_start',
        'provenance = "assumed"\nranges = { spiders = [1, 3], citizens = [6, 10] }\nsuspicion_start',
    )
    spiders, start = named_values(pack, {"widow.spiders": None, "widow.suspicion_start": None})
    assert (spiders.low, spiders.high, spiders.source) == (1, 3, "pack")
    assert start.source == "rule"
    assert load_content(pack).widow == load_content().widow  # the game never reads the ranges
    with pytest.raises(ContentError, match="no such content value"):
        load_content(pack, {"widow.ranges.spiders": [1, 2]})


@pytest.mark.parametrize(
    ("ranges", "message"),
    [
        ("{ spidrs = [1, 3] }", "widow.toml: widow.ranges.spidrs: no value 'spidrs' in this table"),
        ("{ spiders = [3, 1] }", "widow.toml: widow.ranges.spiders: expected [low, high] with low < high"),
        ("{ spiders = [1.5, 3] }", "widow.toml: widow.ranges.spiders: an integer value takes integer bounds"),
        ("{ spiders = [1] }", "widow.toml: widow.ranges.spiders: expected [low, high] or a list of two or more"),
        ("{ spiders = ['a', 'b', 'c'] }", "widow.ranges.spiders: expected different choices of the value's type (int)"),
        ("[1, 2]", "widow.toml: widow.ranges: expected a table of value paths"),
    ],
)
def test_a_bad_range_is_one_line_naming_the_file_and_key(tmp_path: Path, ranges: str, message: str) -> None:
    pack = pack_with(
        tmp_path,
        "widow.toml",
        'provenance = "assumed"\nsuspicion_start',
        f'provenance = "assumed"\nranges = {ranges}\nsuspicion_start',
    )
    with pytest.raises(ContentError) as err:
        load_content(pack)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_range_on_an_item_names_its_path(tmp_path: Path) -> None:
    pack = pack_with(
        tmp_path,
        "witches.toml",
        'note = "seed: acts right after a trial; effect assumed"',
        'note = "seed: acts right after a trial; effect assumed"\nranges = { "effects.0.amount" = [1, 3] }',
    )
    (johanna,) = named_values(pack, {"witches.johanna.effects.0.amount": None})
    assert (johanna.low, johanna.high, johanna.source, johanna.item) == (1, 3, "pack", "witches.johanna")
    bad = pack_with(
        tmp_path / "b",
        "witches.toml",
        'note = "seed: acts right after a trial; effect assumed"',
        'note = "seed: acts right after a trial; effect assumed"\nranges = { "effects.1.amount" = [1, 3] }',
    )
    with pytest.raises(ContentError, match=r"witches.toml: witches.johanna.ranges.effects.1.amount: no value"):
        load_content(bad)


def test_a_designers_range_that_does_not_load_is_an_error(tmp_path: Path) -> None:
    pack = pack_with(
        tmp_path,
        "widow.toml",
        'provenance = "assumed"\nsuspicion_start',
        'provenance = "assumed"\nranges = { tribulations_needed = [4, 12] }\nsuspicion_start',
    )
    with pytest.raises(ContentError, match=r"widow.tribulations_needed: 12 \(widow.ranges\) does not make a playable"):
        named_values(pack, {"widow.tribulations_needed": None})


# --------------------------------------------------------------------------------------------- the command
@pytest.mark.slow
def test_rules_assumed_lists_every_assumed_value_with_its_range(tmp_path: Path) -> None:
    done = script("rules", "--assumed")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Assumed values: ") and " in " in lines[0]
    widow = next(line for line in lines if line.split()[:1] == ["widow.spiders"])
    assert widow.split()[1:4] == ["2", "1..4", "rule"] and widow.split()[-1] == "assumed"
    assert "Left out: positions" in lines[-1]
    bad = pack_with(
        tmp_path,
        "widow.toml",
        'provenance = "assumed"\nsuspicion_start',
        'provenance = "assumed"\nranges = { spiders = [3, 1] }\nsuspicion_start',
    )
    done = script("rules", "--assumed", "--content", str(bad))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "widow.ranges.spiders" in done.stderr
