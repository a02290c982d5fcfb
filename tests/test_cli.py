"""The command line: play is reproducible in both formats, rules lists the pack, bad input exits 2 in one line."""

from __future__ import annotations

import json
import subprocess

import pytest

from septima_sim.engine.results import SOURCES
from tests.helpers import script


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed console script."""
    return script(*args)


@pytest.mark.slow
def test_play_text_is_reproducible() -> None:
    first, second = run("play", "--players", "3", "--seed", "5"), run("play", "--players", "3", "--seed", "5")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "Game over after 20 turns" in first.stdout
    assert "S4 T5" in first.stdout


@pytest.mark.slow
def test_play_jsonl_ends_with_game_end_record() -> None:
    out = run("play", "--players", "2", "--seed", "3", "--mode", "basic", "--format", "jsonl")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert lines[-1]["kind"] == "game_end"
    final = lines[-1]
    for row in final["players"]:
        assert sum(row[f"wisdom_{s}"] for s in SOURCES) == row["wisdom"]
    assert all(e["kind"] != "action" or e["action"] != "ritual" for e in lines[:-1])  # Basic: no Ritual card
    assert sum(e["kind"] == "action" for e in lines) == 2 * 20


@pytest.mark.slow
def test_rules_lists_provenance() -> None:
    out = run("rules")
    assert out.returncode == 0
    assert "witches    20" in out.stdout and "assumed" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("play", "--players", "5"), "players must be 1..4"),
        (("play", "--mode", "party"), "mode must be 'full' or 'basic'"),
        (("play", "--format", "xml"), "--format must be text or jsonl"),
        (("play", "--content", "/nonexistent"), "not a directory"),
    ],
)
@pytest.mark.slow
def test_bad_input_exits_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


@pytest.mark.slow
def test_play_with_lineup_modules_and_solo() -> None:
    out = run("play", "--players", "1", "--lineup", "all-balanced", "--shapeshifting", "--omens", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "the Black Widow" in out.stdout and "(green, balanced)" in out.stdout
    four = run("play", "--lineup", "heuristic-mix", "--seed", "3")
    for persona in ("balanced", "healer", "brewer", "advocate"):
        assert f", {persona}): " in four.stdout


@pytest.mark.slow
def test_play_unknown_lineup_exits_2() -> None:
    out = run("play", "--lineup", "nope")
    assert out.returncode == 2 and "unknown lineup 'nope'" in out.stderr


@pytest.mark.parametrize("command", ["", "play", "run", "report", "ladder", "check", "ablate", "tune", "sensitivity"])
def test_help_shows_boolean_options_as_flags(command: str) -> None:
    """No ``<bool>`` after a flag (it reads as if it took a value); the module flags come with their negative."""
    out = run(*filter(None, [command]), "--help")
    assert out.returncode == 0, out.stderr
    assert "--help" in out.stdout and "<bool>" not in out.stdout
    if command in ("play", "ladder"):
        assert "--no-shapeshifting" in out.stdout and "--no-omens" in out.stdout
