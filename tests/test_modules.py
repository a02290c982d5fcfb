"""Rules modules behind one interface: a module registered only here plays through the same hooks as the built-in
ones, adds its result columns to every game, and the registries of effect objects match the content's ids."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from septima_sim.content import Content
from septima_sim.content.model import ANIMAL_ABILITIES, OMEN_HOOKS
from septima_sim.engine import ConfigError, GameConfig, play_game
from septima_sim.engine.game import Game
from septima_sim.engine.modules import (
    MODULES,
    Axis,
    Column,
    Module,
    ModuleSpec,
    register_module,
    unregister_module,
)
from septima_sim.engine.modules.omens import HALVES
from septima_sim.engine.modules.shapeshifting import ABILITIES
from septima_sim.engine.state import Player
from septima_sim.players import RandomPolicy

ENGINE = Path(__file__).parent.parent / "septima_sim" / "engine"


class Tithe(Module):
    """A test module: at each end of season every player gains 1 Wisdom (source ``other``) and the game counts it."""

    name: ClassVar[str] = "tithe"

    def __init__(self) -> None:
        self.paid = 0

    def copy(self) -> Tithe:
        twin = Tithe()
        twin.paid = self.paid
        return twin

    def end_of_season(self, g: Game) -> None:
        for p in g.s.players:
            g.gain_wisdom(p, 1, "other")
            self.paid += 1

    def game_fields(self, g: Game, row: dict[str, object]) -> None:
        row["tithes_paid"] = self.paid

    def player_fields(self, g: Game, p: Player, row: dict[str, object]) -> None:
        row["tithe"] = len(g.rules.seasons) - 1


TITHE = ModuleSpec(
    name="tithe",
    token="ti",
    factory=Tithe,
    game_columns=(Column("tithes_paid", "int16", 0),),
    player_columns=(Column("tithe", "int8", 0),),
)


@pytest.fixture
def tithe() -> Iterator[ModuleSpec]:
    register_module(TITHE)
    yield TITHE
    unregister_module("tithe")


@pytest.mark.parametrize(
    ("axis", "message"),
    [
        ("Rate", "axis 'Rate' is not lowercase letters"),
        ("omen_deck", "axis 'omen_deck' is taken by module omens"),
        ("omens", "axis 'omens' is taken by module omens"),
        ("lineup", "axis 'lineup' is taken by the experiment matrix"),
    ],
)
def test_an_axis_a_module_owns_has_a_safe_name_no_one_else_has(axis: str, message: str) -> None:
    owned = Axis(axis, int, (1,), "0", lambda values, content: [str(v) for v in values])
    with pytest.raises(ValueError, match=message):
        register_module(ModuleSpec(name="levy", token="le", factory=Tithe, axes=(owned,)))
    assert "levy" not in MODULES


def test_a_game_option_belongs_to_an_enabled_module() -> None:
    axis = MODULES["omens"].axes[0].name
    assert GameConfig(2, modules=frozenset({"omens"}), options=((axis, "random"),)).validate()
    with pytest.raises(ConfigError, match=f"option '{axis}' belongs to no enabled module"):
        GameConfig(2, options=((axis, "random"),)).validate()


def _random(n: int) -> list[RandomPolicy]:
    return [RandomPolicy() for _ in range(n)]


def test_a_module_registered_in_a_test_plays_through_the_hooks(content: Content, tithe: ModuleSpec) -> None:
    off = play_game(GameConfig(3), content, _random(3), 21)
    on = play_game(GameConfig(3, modules=frozenset({"tithe"})), content, _random(3), 21)
    assert off.game["tithe"] is False and on.game["tithe"] is True  # the flag column of every registered module
    assert off.game["tithes_paid"] == 0 and on.game["tithes_paid"] == 3 * 3  # defaults when off, filled when on
    seasons = len(content.rules.seasons) - 1
    for before, after in zip(off.players, on.players, strict=True):
        assert before["tithe"] == 0 and after["tithe"] == seasons
        # random players' options never depend on Wisdom: the same game, plus the tithe
        assert after["wisdom_other"] == before["wisdom_other"] + seasons
        # (a loss never takes Wisdom below 0, B13, so one more Wisdom can mean a bigger penalty: count it apart)
        net = after["wisdom"] - after["wisdom_penalties"]
        assert net == before["wisdom"] - before["wisdom_penalties"] + seasons


def test_module_state_is_copied_for_search_clones(content: Content, tithe: ModuleSpec) -> None:
    g = Game(GameConfig(2, modules=frozenset({"tithe"})), content, _random(2), 3)
    g.setup()
    twin = g.clone(_random(2), 1)
    twin.end_of_season()
    assert twin.module("tithe") is not g.module("tithe")
    assert twin.module("tithe").paid == 2 and g.module("tithe").paid == 0  # type: ignore[attr-defined]


class Tax(Tithe):
    """Tithe booked under a Wisdom source of its own (``"tithe"``), or, as ``Stray``, under one it did not declare."""

    source = "tithe"

    def copy(self) -> Tax:
        return type(self)()

    def end_of_season(self, g: Game) -> None:
        for p in g.s.players:
            g.gain_wisdom(p, 1, self.source)


class Stray(Tax):
    source = "bribes"


@pytest.mark.parametrize("factory", [Tax, Stray])
def test_a_module_adds_a_wisdom_source(content: Content, factory: type[Tax]) -> None:
    spec = ModuleSpec(name="tax", token="tx", factory=factory, wisdom_sources=("tithe",))
    register_module(spec)
    try:
        assert "wisdom_tithe" in {c.name for c in spec.player_columns}  # a players column, in the store's schema
        if factory is Stray:
            with pytest.raises(ValueError, match=r"unknown Wisdom source 'bribes'.*wisdom_sources"):
                play_game(GameConfig(2, modules=frozenset({"tax"})), content, _random(2), 21)
            return
        off = play_game(GameConfig(2), content, _random(2), 21)
        on = play_game(GameConfig(2, modules=frozenset({"tax"})), content, _random(2), 21)
        seasons = len(content.rules.seasons) - 1
        for before, after in zip(off.players, on.players, strict=True):
            assert before["wisdom_tithe"] == 0 and after["wisdom_tithe"] == seasons
            sources = [k for k in after if k.startswith("wisdom_") and not k.startswith("wisdom_from_")]
            assert sum(after[k] for k in sources) == after["wisdom"]  # still a partition of the seat's Wisdom
    finally:
        unregister_module("tax")


def test_config_names_modules_and_checks_them() -> None:
    assert GameConfig(4, "full", True, False).modules == {"shapeshifting"}
    assert GameConfig(4, modules=frozenset({"omens"})).omens
    assert GameConfig(1).modules == {"solo"}  # on by itself for one player
    with pytest.raises(ConfigError, match="unknown module 'tithe'"):
        GameConfig(2, modules=frozenset({"tithe"})).validate()
    with pytest.raises(ConfigError, match="Full game only"):
        GameConfig(2, "basic", omens=True).validate()
    with pytest.raises(ConfigError, match="plays with"):
        GameConfig(2, modules=frozenset({"solo"})).validate()


def test_registries_of_effect_objects_match_the_content_ids() -> None:
    assert set(HALVES) == set(OMEN_HOOKS)
    assert set(ABILITIES) == ANIMAL_ABILITIES
    assert list(MODULES)[:3] == ["shapeshifting", "solo", "omens"]


NOT_RULES = ("omens.py", "config.py", "results.py", "decisions.py")
"""The re-export for experiment.py, the config flags, the Wisdom sources and the decision kinds."""


def _base_rules_files() -> list[Path]:
    return [p for p in ENGINE.glob("*.py") if p.name not in NOT_RULES]


def test_the_base_rules_never_branch_on_a_module() -> None:
    """No ``g.omen == ...`` / ``p.ability == ...`` comparisons and no ``if g.shapeshifting`` flags outside
    engine/modules: the base rules reach modules only through hooks and rule effects."""
    names = set(MODULES) | {"widow", "omen"}
    found = []
    for path in _base_rules_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in names:
                found.append(f"{path.name}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Constant) and node.value in names:
                found.append(f"{path.name}:{node.lineno} {node.value!r}")
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "ability":
                found.append(f"{path.name}:{node.lineno} compares .ability")
    assert not found, found
