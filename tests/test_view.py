"""The sealed view: a policy that walks everything reachable from what it is handed (attributes and
``gc.get_referents``) finds neither the game nor any live state object, another seat's goals, a deck or bag order, or
a random stream; writing to everything it reaches changes nothing in the game."""

from __future__ import annotations

import gc
import random
import types
from collections.abc import Callable

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision
from septima_sim.engine.game import Game
from septima_sim.engine.modules import Module
from septima_sim.engine.spells import MarketRow
from septima_sim.engine.state import Patient, Player, SpellCard
from septima_sim.engine.view import LiveView, PlayerView, SealedView
from septima_sim.players import RandomPolicy, make_policy
from tests.helpers import default_choice

LIVE_TYPES = (Game, Player, Patient, SpellCard, MarketRow, Module, random.Random)
"""Objects that must never be reachable from a sealed view: the game, its live state, its random streams."""
CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.CodeType)
TAMPER = 999


def reachable(root: object, static: tuple[object, ...]) -> list[object]:
    """Every object reachable from `root` through attributes and gc.get_referents (classes and code not followed;
    the static content and board are reached but not entered: they are shared, read-only data)."""
    seen = {id(root)}
    stack = [root]
    out: list[object] = []
    while stack:
        obj = stack.pop()
        out.append(obj)
        if isinstance(obj, CODE) or any(obj is s for s in static):
            continue
        children = list(gc.get_referents(obj))
        for name in getattr(type(obj), "__slots__", ()):
            children.append(getattr(obj, name, None))
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return out


def tamper(obj: object) -> int:
    """Write to an object every way it allows; returns how many writes went through."""
    writes = 0
    if isinstance(obj, list):
        obj.append(TAMPER)
        obj.reverse()
        writes += 1
    elif isinstance(obj, dict):
        for key in list(obj):
            obj[key] = TAMPER
        obj[TAMPER] = TAMPER
        writes += 1
    elif isinstance(obj, set):
        obj.add(TAMPER)
        writes += 1
    names = list(getattr(type(obj), "__slots__", ())) + list(getattr(obj, "__dict__", {}))
    for name in names:
        try:
            setattr(obj, name, TAMPER)
            writes += 1
        except (AttributeError, TypeError):
            pass
    return writes


class Cheat:
    """Chooses what the honest policy would (deciding first), then walks and vandalises everything it can reach."""

    name = "honest"

    def __init__(self, game_objects: Callable[[], list[object]]) -> None:
        self.seat = -1
        self.found: list[str] = []
        self.writes = 0
        self.walked = 0
        self._hidden = game_objects

    def reset(self, seat: int, rng: random.Random) -> None:
        self.seat = seat

    def choose(self, decision: Decision, view: PlayerView) -> int:
        choice = decision.options.index(default_choice(decision, view))
        assert isinstance(view, SealedView)
        hidden = {id(x) for x in self._hidden()}
        static = (view.content, view.board)
        objects = reachable(view, static)
        self.walked = max(self.walked, len(objects))
        for obj in objects:
            if isinstance(obj, LIVE_TYPES) or id(obj) in hidden:
                self.found.append(f"{type(obj).__name__} at {decision.kind}")
        for obj in objects:
            if not isinstance(obj, CODE) and not any(obj is s for s in static):
                self.writes += tamper(obj)
        return choice


class Honest:
    name = "honest"

    def reset(self, seat: int, rng: random.Random) -> None:
        pass

    def choose(self, decision: Decision, view: PlayerView) -> int:
        return decision.options.index(default_choice(decision, view))


@pytest.mark.parametrize("config", [GameConfig(2), GameConfig(3, shapeshifting=True, omens=True), GameConfig(1)])
def test_a_cheat_reaches_nothing_live_or_hidden_and_changes_nothing(content: Content, config: GameConfig) -> None:
    games: list[Game] = []

    def hidden() -> list[object]:
        """The live game's hidden parts: decks, bags, every seat's goals (a cheat's own are copied to it)."""
        g = games[0]
        out: list[object] = [g.s.witch_deck, g.s.patient_stack, g.s.septima_bag, g.s.goal_deck, g.s.goals, *g.s.goals]
        out += [row.deck for row in g.s.market]
        return out

    class Recorded(Game):
        def setup(self) -> None:
            games.append(self)
            super().setup()

    n = config.players
    cheat = Cheat(hidden)
    honest = Recorded(config, content, [Honest() for _ in range(n)], 31).play()
    games.clear()
    cheated = Recorded(config, content, [cheat] + [Honest() for _ in range(n - 1)], 31).play()
    assert cheat.walked > 50 and cheat.writes > 100  # it did reach and write to its snapshots
    assert not cheat.found, cheat.found[:5]
    assert cheated.game == honest.game and cheated.players == honest.players


def test_built_in_players_read_the_live_view_and_others_a_sealed_one(content: Content) -> None:
    g = Game(GameConfig(3), content, [make_policy("balanced"), RandomPolicy(), Honest()], 2)
    assert isinstance(g.views[0], LiveView) and isinstance(g.views[1], LiveView)
    assert isinstance(g.views[2], SealedView)


def test_search_uses_the_simulator_not_the_view(content: Content) -> None:
    policies = [make_policy("search:2"), make_policy("balanced")]
    result = play_game(GameConfig(2), content, policies, 7)
    assert result.players[0]["policy"] == "search:2"
    assert not hasattr(LiveView, "sample_continuation") and not hasattr(SealedView, "sample_continuation")


class Impostor(Honest):
    """A plugin that claims the built-ins' privileges: the live view and the search capability."""

    live_view = True

    def __init__(self) -> None:
        super().__init__()
        self.simulator: object = None

    def attach(self, simulator: object) -> None:
        self.simulator = simulator


def test_a_plugin_cannot_claim_the_live_view_or_the_simulator(content: Content) -> None:
    impostor = Impostor()
    g = Game(GameConfig(2), content, [impostor, RandomPolicy()], 2)
    assert isinstance(g.views[0], SealedView) and impostor.simulator is None
