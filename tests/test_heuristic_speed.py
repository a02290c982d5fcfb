"""What the heuristic player's speed work relies on (issue #19): its compiled copy of a persona's weights holds every
weight, and it reads the live view only (typed as the concrete class, so that compiled code reads it natively)."""

from __future__ import annotations

import random
from dataclasses import fields, make_dataclass

import pytest

from septima_sim.content import Content
from septima_sim.engine import Game, GameConfig
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.view import LiveView, _BranchSeat, _Idle, make_view, sealed_view
from septima_sim.players import HeuristicPolicy, load_personas, make_policy
from septima_sim.players.heuristic.native_weights import NativeWeights, native_weights
from septima_sim.players.random_policy import RandomPolicy
from septima_sim.players.weights import Weights


@pytest.mark.parametrize("name", sorted(load_personas()))
def test_native_weights_hold_every_weight_of_each_persona(name: str) -> None:
    weights = load_personas()[name]
    native = NativeWeights(weights)
    for f in fields(Weights):
        assert getattr(native, f.name) == getattr(weights, f.name), f.name
    assert native.biased("plead") == weights.biased("plead") and native.biased("none") == 0.0


def test_a_weight_the_native_copy_does_not_declare_is_an_error() -> None:
    extended = make_dataclass("Extended", [("courage", float, 1.0)], bases=(Weights,), frozen=True, slots=True)
    with pytest.raises(AttributeError):
        NativeWeights(extended())


def test_native_weights_are_built_once_per_weights_object() -> None:
    weights = load_personas()["balanced"]
    first, key = native_weights(weights)
    again, key_again = native_weights(weights)
    assert first is again and key == key_again == repr(weights)
    other, _ = native_weights(Weights())
    assert other is not first


def test_a_heuristic_player_pickles_as_its_persona() -> None:
    import pickle

    policy = make_policy("healer")
    assert isinstance(policy, HeuristicPolicy)
    copy = pickle.loads(pickle.dumps(policy))
    assert copy.name == "healer" and copy.weights == policy.weights


def test_the_heuristic_refuses_a_sealed_view_with_a_clear_error(content: Content) -> None:
    policy = make_policy("balanced")
    g = Game(GameConfig(2), content, [policy, RandomPolicy()], 1)
    policy.reset(0, random.Random(1))
    with pytest.raises(TypeError, match="live view"):
        policy.choose(Decision(Kind.CARD, 0, (0, 1)), sealed_view(g, 0))


def test_the_engine_s_branch_seats_get_the_live_view(content: Content) -> None:
    """Compiled, a class attribute without ``ClassVar`` is an instance default, invisible on the class: the branch
    seats of a search then got sealed views (and the heuristic inside them would refuse them)."""
    g = Game(GameConfig(2), content, [make_policy("balanced"), RandomPolicy()], 1)
    assert _BranchSeat.live_view is True and _Idle.live_view is True
    assert isinstance(make_view(g, 0, _Idle()), LiveView)
