"""The sealed view: a policy that walks everything reachable from what it is handed (attributes and
``gc.get_referents``) finds neither the game nor any live state object, another seat's goals, a deck or bag order, or
a random stream; writing to everything it reaches changes nothing in the game. A plugin plays in a process of its
own, where interpreter introspection (``gc.get_referrers``, ``gc.get_objects``, frames) finds only copies."""

from __future__ import annotations

import contextlib
import gc
import pickle
import random
import sys
import textwrap
import types
from collections.abc import Callable
from pathlib import Path

import pytest

import septima_sim.engine.game
from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.game import Game
from septima_sim.engine.modules import Module
from septima_sim.engine.spells import MarketRow
from septima_sim.engine.state import Patient, Player, SpellCard
from septima_sim.engine.view import SEALED_FIELDS, LiveView, PlayerView, SealedView, trusted
from septima_sim.players import HeuristicPolicy, RandomPolicy, Weights, make_policy
from septima_sim.players.isolated import IN_PROCESS_ENV
from septima_sim.plugin_guard import PluginError
from tests.helpers import default_choice

LIVE_TYPES = (Game, Player, Patient, SpellCard, MarketRow, Module, random.Random)
"""Objects that must never be reachable from a sealed view: the game, its live state, its random streams."""
CODE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.CodeType)
TAMPER = 999
COMPILED = not septima_sim.engine.game.__file__.endswith(".py")
"""The engine compiled with mypyc: its functions have no Python frames and its classes cannot be subclassed."""


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


class Spoof(Impostor):
    """Names itself as a built-in player: the package, the class name, the attributes the built-ins declare."""

    __module__ = "septima_sim.players.heuristic.policy"
    __qualname__ = __name__ = "HeuristicPolicy"


class Sneaky(HeuristicPolicy):
    """A subclass of a built-in player (it could override ``choose`` and read what it gets)."""


class LookAlike(type):
    """A metaclass that makes its classes compare equal to, and hash like, the built-in heuristic."""

    def __eq__(cls, other: object) -> bool:
        return True

    def __hash__(cls) -> int:
        return hash(HeuristicPolicy)


class Twin(Impostor, metaclass=LookAlike):
    pass


@pytest.mark.parametrize(
    "spoof",
    [
        pytest.param(Spoof, id="module-spoof"),
        pytest.param(Sneaky, id="subclass", marks=pytest.mark.skipif(COMPILED, reason="compiled: no subclass at all")),
        pytest.param(Twin, id="equal-metaclass"),
    ],
)
def test_trust_is_the_class_identity_not_its_name(content: Content, spoof: type) -> None:
    policy = spoof() if spoof is not Sneaky else Sneaky("sneaky", Weights())
    assert Spoof.__module__ == HeuristicPolicy.__module__ and Twin == HeuristicPolicy  # the spoofs do look built in
    g = Game(GameConfig(2), content, [policy, make_policy("balanced")], 2)
    assert not trusted(policy) and isinstance(g.views[0], SealedView)
    assert getattr(policy, "simulator", None) is None
    assert trusted(g.policies[1]) and isinstance(g.views[1], LiveView)


class Winner(Spoof):
    """The spoof that won 123-23: writes +100 Wisdom to its own seat through the view it gets."""

    __module__ = Spoof.__module__  # every class body sets its own

    def choose(self, decision: Decision, view: PlayerView) -> int:
        with contextlib.suppress(AttributeError):  # the sealed view's seat is read-only
            view.me.wisdom += 100  # type: ignore[misc]
        return super().choose(decision, view)


def test_a_spoofed_plugin_changes_nothing_in_the_game(content: Content) -> None:
    honest = Game(GameConfig(2), content, [Honest(), make_policy("balanced")], 5).play()
    spoofed = Game(GameConfig(2), content, [Winner(), make_policy("balanced")], 5).play()
    assert spoofed.game == honest.game and spoofed.players == honest.players


SPIES = textwrap.dedent(
    """
    import gc
    import random
    import sys
    import types

    from septima_sim.engine.game import Game
    from septima_sim.engine.modules import Module
    from septima_sim.engine.spells import MarketRow
    from septima_sim.engine.state import Patient, Player, SpellCard
    from tests.helpers import default_choice

    GAME_TYPES = (Game, Player, Patient, SpellCard, MarketRow, Module)
    LIVE_TYPES = (*GAME_TYPES, random.Random)


    class Spy:
        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            found = self.look(decision, view)
            if found:
                raise LookupError("reached " + ", ".join(sorted(set(found))))
            return decision.options.index(default_choice(decision, view))


    class Referrers(Spy):
        def look(self, decision, view):
            found, seen, stack = [], set(), [view, decision]
            while stack and len(seen) < 20_000:
                obj = stack.pop()
                for ref in gc.get_referrers(obj):
                    if id(ref) not in seen and not isinstance(ref, types.FrameType) and ref is not stack:
                        seen.add(id(ref))
                        stack.append(ref)
                        if isinstance(ref, LIVE_TYPES):
                            found.append(type(ref).__name__)
            return found


    class Frames(Spy):
        def look(self, decision, view):
            found, frame = [], sys._getframe(1)
            while frame is not None:
                found += [type(v).__name__ for v in frame.f_locals.values() if isinstance(v, LIVE_TYPES)]
                frame = frame.f_back
            return found


    class Everything(Spy):
        def look(self, decision, view):  # its process has random streams of its own (its copy, the stdlib's)
            return [type(obj).__name__ for obj in gc.get_objects() if isinstance(obj, GAME_TYPES)]
    """
)
"""Plugins that look for the game outside the view: through who refers to what they were handed, up the call stack,
or among every object the collector tracks; they raise naming what they reached."""


@pytest.mark.parametrize("how", ["Referrers", "Frames", "Everything"])
def test_introspection_does_not_reach_the_game(
    content: Content, how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin plays in a process of its own (``players/isolated.py``; docs/extending.md, "What a plugin sees"):
    ``gc.get_referrers``, ``gc.get_objects`` and frame walking there find copies, never the game. The same spies,
    played in-process (``SEPTIMA_PLUGINS_IN_PROCESS=1``, unsafe), do reach it (the compiled engine has no frames to
    walk): what the isolation closes."""
    (tmp_path / "spies.py").write_text(SPIES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(Path(__file__).parent.parent))  # the spies import tests.helpers
    name = f"py:spies:{how}"
    Game(GameConfig(2), content, [make_policy(name), RandomPolicy()], 5).play()
    monkeypatch.setenv(IN_PROCESS_ENV, "1")
    monkeypatch.delitem(sys.modules, "spies", raising=False)
    if how == "Frames" and COMPILED:
        Game(GameConfig(2), content, [make_policy(name), RandomPolicy()], 5).play()
        return
    with pytest.raises(PluginError, match=f"plugin persona '{name}' raised in choose .*LookupError: reached .*Game"):
        Game(GameConfig(2), content, [make_policy(name), RandomPolicy()], 5).play()


def test_the_environments_forked_seat_is_trusted_only_as_far_as_the_policy_it_hands_on_to() -> None:
    """``ForkedSeat`` (the step environment's forking seat; ``then`` plays it on) reads the live view only when
    ``then`` is a built-in player: a plugin handed to a fork gets a sealed view, as everywhere; the environment's
    plain seat is not trusted (it needs no view)."""
    pytest.importorskip("greenlet")
    from septima_sim.env.driver import ExternalSeat, ForkedSeat

    class Plugin:
        name = "plugin"
        live_view = True

        def reset(self, seat: int, rng: object) -> None: ...

        def choose(self, decision: object, view: object) -> int:
            return 0

    assert trusted(ForkedSeat(then=make_policy("balanced"))) and not trusted(ExternalSeat())
    assert not trusted(ForkedSeat(then=Plugin()))


STATIC_FIELDS = ("seat", "content", "board", "n_players", "full")


@pytest.mark.parametrize("config", [GameConfig(3, shapeshifting=True, omens=True), GameConfig(1)], ids=["mods", "solo"])
def test_the_sealed_view_and_the_decision_pickle_as_plain_data(content: Content, config: GameConfig) -> None:
    """A plugin's process gets pickled copies (compiled classes too): every member of the view comes back equal, its
    board derived from the pack, and so does the decision."""
    kept: list[tuple[Decision, SealedView]] = []

    class Keeper(Honest):
        def choose(self, decision: Decision, view: PlayerView) -> int:
            assert isinstance(view, SealedView)
            copy = pickle.loads(pickle.dumps((decision, view)))
            kept.append(copy)
            for name in (*STATIC_FIELDS, *SEALED_FIELDS):
                assert getattr(copy[1], name) == getattr(view, name), name
            assert (copy[0].kind, copy[0].seat, copy[0].options, copy[0].context) == (
                decision.kind,
                decision.seat,
                decision.options,
                decision.context,
            )
            return super().choose(decision, view)

    seats: list[Policy] = [Keeper(), *(RandomPolicy() for _ in range(config.players - 1))]
    Game(config, content, seats, 3).play()
    assert len(kept) > 20 and all(view.module("solo" if config.players == 1 else "omens") for _, view in kept)
    if not COMPILED:  # the pure class lists its members: a new one must be carried by the pickle too
        assert set(SealedView.__slots__) == {*STATIC_FIELDS, *SEALED_FIELDS}
