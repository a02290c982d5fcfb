"""scripts/codemods/game_state.py: moves exactly the GameState fields of game receivers to ``.s``, and only once."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from septima_sim.engine.game_state import GameState

SCRIPT = Path(__file__).resolve().parents[1] / "scripts/codemods/game_state.py"

BEFORE = """\
class Watched(Game):
    def end_of_season(self):
        self.step = self.played[0]  # a Game subclass: self is a game


class Other:
    def f(self, g, p, view):
        g.players[0].played = p.played  # a seat's own list stays
        return self._game.season, view.season, g.rules, g.s.turn
"""

AFTER = """\
class Watched(Game):
    def end_of_season(self):
        self.s.step = self.s.played[0]  # a Game subclass: self is a game


class Other:
    def f(self, g, p, view):
        g.s.players[0].played = p.played  # a seat's own list stays
        return self._game.s.season, view.season, g.rules, g.s.turn
"""


@pytest.fixture(scope="module")
def codemod() -> ModuleType:
    pytest.importorskip("libcst")
    spec = importlib.util.spec_from_file_location("codemod_game_state", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_fields_are_the_slots_of_game_state(codemod: ModuleType) -> None:
    declared = getattr(GameState, "__mypyc_attrs__", None) or GameState.__slots__  # compiled: no __slots__
    assert codemod.state_fields(codemod.STATE_FILE) == frozenset(declared)


def test_rewrites_game_receivers_only_and_a_second_run_changes_nothing(
    codemod: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "sample.py"
    source.write_text(BEFORE, encoding="utf-8")
    fields = codemod.state_fields(codemod.STATE_FILE)
    assert codemod.rewrite(source, fields, write=True) == 4
    assert source.read_text(encoding="utf-8") == AFTER
    assert "self.played -> self.s.played" in capsys.readouterr().out
    assert codemod.rewrite(source, fields, write=True) == 0
    assert source.read_text(encoding="utf-8") == AFTER
