"""Golden playthroughs: seeded games recorded as JSON lines (``septima-sim play --format jsonl``) are replayed and
diffed line by line: the base game (random players), Shapeshifting, solo with both modules, and a heuristic lineup
with both modules (so a drift in the personas shows too). The Omens golden lives in ``test_omens.py``.

A difference means the engine now plays these seeds differently. If the change is intended (a rules fix, new content,
a new event field), regenerate the files and say so in the commit message:

    SEPTIMA_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/test_golden.py

The content pack's hash (``game.content_hash`` in the last line) is left out of the comparison: it changes with any edit
of any content file, including files these games never read; a content change that alters play shows in the events.

(Equivalently: ``septima-sim play --players 2 --mode full --seed 1 --format jsonl > tests/golden/p2_full_seed1.jsonl``
and likewise for the other files, adding ``--shapeshifting``, ``--omens`` and ``--lineup`` as the name says).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.players import builtin_lineups, make_policy
from septima_sim.playout import play_one

GOLDEN_DIR = Path(__file__).parent / "golden"
# (players, mode, seed, shapeshifting, omens, lineup)
GAMES = [
    (2, "full", 1, False, False, "all-random"),
    (3, "basic", 2, False, False, "all-random"),
    (4, "full", 3, False, False, "all-random"),
    (4, "full", 5, True, False, "all-random"),
    (1, "full", 6, True, True, "all-random"),
    (4, "full", 8, True, True, "heuristic-mix"),
]
REGEN = os.environ.get("SEPTIMA_REGEN_GOLDEN") == "1"


def golden_path(players: int, mode: str, seed: int, ss: bool, om: bool, lineup: str) -> Path:
    modules = "".join(tag for tag, on in (("_ss", ss), ("_om", om)) if on)
    who = "" if lineup == "all-random" else f"_{lineup}"
    return GOLDEN_DIR / f"p{players}_{mode}{modules}{who}_seed{seed}.jsonl"


def replay(content: Content, players: int, mode: str, seed: int, ss: bool, om: bool, lineup: str) -> list[str]:
    """The lines ``septima-sim play --format jsonl`` prints for this game (the same function, in process)."""
    policies = [make_policy(n) for n in builtin_lineups()[lineup].seat_personas(lineup, players, seed)]
    lines: list[str] = []
    play_one(GameConfig(players, mode, ss, om), content, policies, seed, "jsonl", lines.append)
    return lines


IGNORED = ("content_hash",)


def normalise(line: str) -> str:
    """The line without the fields that are not part of the playthrough (see the module docstring)."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return line
    if isinstance(record.get("game"), dict):
        for key in IGNORED:
            record["game"].pop(key, None)
    return json.dumps(record, sort_keys=True)


def _changed(want: object, got: object, path: str) -> list[str]:
    """The paths where two JSON values differ (dicts compared key by key, lists item by item)."""
    if isinstance(want, dict) and isinstance(got, dict):
        return [c for k in sorted(set(want) | set(got)) for c in _changed(want.get(k), got.get(k), f"{path}.{k}")]
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        return [c for i, (w, g) in enumerate(zip(want, got, strict=True)) for c in _changed(w, g, f"{path}[{i}]")]
    return [] if want == got else [f"{path.lstrip('.')}: {want!r} -> {got!r}"]


def first_difference(expected: list[str], actual: list[str]) -> str:
    """A readable account of the first differing line (and which fields differ), or '' when equal."""
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if normalise(want) != normalise(got):
            try:
                fields = "; ".join(_changed(json.loads(want), json.loads(got), ""))[:1500]
            except json.JSONDecodeError:
                fields = ""
            return f"first difference at line {i + 1}: {fields}\n  golden: {want[:400]}\n  now:    {got[:400]}"
    if len(expected) != len(actual):
        common = min(len(expected), len(actual))
        return f"same first {common} lines, but {len(expected)} lines golden vs {len(actual)} now"
    return ""


@pytest.mark.parametrize("game", GAMES, ids=lambda g: golden_path(*g).stem)
def test_golden_playthrough(content: Content, game: tuple) -> None:
    path = golden_path(*game)
    lines = replay(content, *game)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        pytest.skip(f"regenerated {path.name} ({len(lines)} lines)")
    assert path.exists(), f"{path} missing: run SEPTIMA_REGEN_GOLDEN=1 pytest tests/test_golden.py"
    expected = path.read_text(encoding="utf-8").splitlines()
    diff = first_difference(expected, lines)
    assert not diff, f"{path.name} differs; if intended, regenerate with SEPTIMA_REGEN_GOLDEN=1\n{diff}"


def test_golden_matches_the_cli(content: Content) -> None:
    """The in-process replay prints exactly what the command line prints."""
    game = GAMES[-1]
    players, mode, seed, _, _, lineup = game
    args = ["play", "--players", str(players), "--mode", mode, "--seed", str(seed), "--format", "jsonl"]
    args += ["--shapeshifting", "--omens", "--lineup", lineup]
    out = subprocess.run([sys.executable, "-m", "septima_sim.cli", *args], capture_output=True, text=True, check=True)
    diff = first_difference(out.stdout.splitlines(), replay(content, *game))
    assert not diff, diff


def test_first_difference_reports_the_line() -> None:
    assert first_difference(['{"a": 1}', '{"b": 2}'], ['{"a": 1}', '{"b": 3}']).startswith(
        "first difference at line 2: b: 2 -> 3"
    )
    assert "2 lines golden vs 1 now" in first_difference(["x", "y"], ["x"])
    assert first_difference(["x"], ["x"]) == ""
