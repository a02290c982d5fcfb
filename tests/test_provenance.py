"""Provenance per value (issue #26): an item from a source whose trigger, effect or numbers are stand-ins names
those fields (``assumed = [...]`` beside ``provenance``); ``septima-sim rules`` counts fully and partly assumed
items, and every output that marks assumed content marks partly assumed content with its parts."""

from __future__ import annotations

from septima_sim.content import Content
from septima_sim.content import provenance as sourced
from septima_sim.content.loader import content_tree
from septima_sim.report.headlines import _component_line
from tests.helpers import script


def test_johanna_is_partly_assumed_her_effect(content: Content) -> None:
    """Seed 000 names Johanna and when she acts (right after a trial); her effect is a stand-in."""
    johanna = next(w for w in content.witches if w.id == "johanna")
    assert johanna.provenance == "seed-expansion" and content.assumed["witches.johanna"] == ("effects",)
    assert "witches.bryn" not in content.assumed  # her whole ability is the seed's
    assert sourced.assumed_parts(content_tree()["witches"]["johanna"]) == "effects"


def test_omen_card_notes_name_their_assumed_halves() -> None:
    omens = content_tree()["omens"]
    assert sourced.assumed_parts(omens["paranoia"]) == "bright half"  # Serenity is wholly assumed
    assert sourced.assumed_parts(omens["friendly-hermit"]) == "bright: effect, amount; dark: effect, amount"
    assert sourced.assumed_parts(omens["era-of-healing"]) == ""
    assert sourced.note("seed-expansion", "bright half") == "partly assumed: bright half"
    assert sourced.note("assumed", "") == "assumed content" and sourced.note("seed-base", "") == ""


def test_rules_command_counts_fully_and_partly_assumed_items(content: Content) -> None:
    out = script("rules")
    assert out.returncode == 0, out.stderr
    fully = sum(counts.get("assumed", 0) for counts in content.provenance.values())
    assert f"{fully} items fully assumed, {len(content.assumed)} partly assumed:" in out.stdout
    witches = next(line for line in out.stdout.splitlines() if line.strip().startswith("witches.toml:"))
    assert "johanna (effects)" in witches and "aylana (effects)" in witches
    row = next(line for line in out.stdout.splitlines() if line.split()[:1] == ["witches.toml"])
    assert row.split()[-1] == "4"  # the partly column: Aylana, Tommy, Dragomir, Johanna


def test_a_component_headline_carries_its_note() -> None:
    row = {"kind": "witch", "item": "johanna", "present": 22, "absent": 278, "game_level": False,
           "win_effect": 0.359, "win_lo": 0.19, "win_hi": 0.528, "note": "partly assumed: effects"}  # fmt: skip
    assert _component_line(row).startswith("witch johanna (partly assumed: effects): win rate +35.9")
