"""Every effect name and passive modifier of the content model is valued by the heuristic (issue #28): a card whose
effect the value model ignores is never taken, so the report would know nothing about it. Each effect kind changes the
value of some state, each passive's amounts change the value of a witch that has it."""

from __future__ import annotations

import dataclasses

import pytest

from septima_sim.content import Content
from septima_sim.content.model import EFFECT_KINDS, PASSIVE_KINDS, Ability, Effect
from septima_sim.engine import GameConfig
from septima_sim.engine.game import Game
from septima_sim.engine.state import SpellCard
from septima_sim.engine.view import LiveView
from septima_sim.players import HeuristicPolicy, load_personas, make_policy

_ARGS = {"ingredient": "any", "potion": "remedy", "passive": "collect_extra"}
"""The argument an effect of each kind needs (the others take none)."""


def _seat(content: Content) -> tuple[HeuristicPolicy, LiveView]:
    """The balanced heuristic on seat 0 of a set-up 4-player Full game: suspicion 3, citizens in supply, a used
    spell (so readying one is worth something), the seat's view prepared as at a decision."""
    config = GameConfig(4, "full", shapeshifting=True, omens=True)
    g = Game(config, content, [make_policy("balanced") for _ in range(4)], 7)
    g.setup()
    me = g.s.players[0]
    me.suspicion, me.supply = 3, 2
    me.spells.append(SpellCard(0))
    me.spells[-1].ready = False
    policy = HeuristicPolicy("balanced", load_personas()["balanced"])
    policy.reset(0, g.rng_setup)
    view = LiveView(g, 0)
    policy.evaluate(view)  # the per-game tables, as at the seat's first decision
    return policy, view


@pytest.mark.parametrize("kind", sorted(EFFECT_KINDS))
def test_every_effect_kind_is_valued(content: Content, kind: str) -> None:
    policy, view = _seat(content)
    amount = -1 if kind == "suspicion" else 1
    effect = Effect(kind, amount, _ARGS.get(kind, ""))
    assert policy._effect_value(effect, view.me) != 0.0, f"{kind} is worth nothing to the heuristic"
    assert policy._effect_value(effect, view.me, view) != 0.0, f"{kind} is worth nothing in this state"
    assert policy._effect_value(effect, None) != 0.0, f"{kind} on a witch or building is worth nothing"


@pytest.mark.parametrize("name", sorted(PASSIVE_KINDS))
def test_every_passive_changes_a_witch_value(content: Content, name: str) -> None:
    policy, _ = _seat(content)
    witch = 0

    def value(amount: int) -> float:
        card = dataclasses.replace(content.witches[witch], ability=Ability(passive=name, amount=amount))
        changed = dataclasses.replace(content, witches=(card, *content.witches[1:]))
        return policy._value_witch(changed, witch)

    assert value(0) != value(1), f"the amount of {name} does not change the value of a witch that has it"


def test_bryn_is_worth_more_than_no_ability(content: Content) -> None:
    """Bryn (seed: as trial winner recalls only 1 loyal citizen, none after crowd picks) keeps citizens: a gain,
    valued above a witch with no ability (it was valued below, so she was never drafted)."""
    policy, _ = _seat(content)
    bryn = next(i for i, w in enumerate(content.witches) if w.id == "bryn")
    blank = dataclasses.replace(content.witches[bryn], ability=Ability())
    witches = tuple(blank if i == bryn else w for i, w in enumerate(content.witches))
    plain = dataclasses.replace(content, witches=witches)
    assert policy._value_witch(content, bryn) > policy._value_witch(plain, bryn)


def test_a_spell_ribbon_ahead_draws_the_ritual_shift_to_its_market(content: Content) -> None:
    """The column decides the element of the next spell (B26): with a spell ribbon ahead, a column is worth the best
    spell of its market; with none left, nothing."""
    policy, view = _seat(content)
    me = view.me
    access = [policy._column_access(view, col, me.ritual_row + 1) for col in range(len(content.ritual.columns))]
    assert all(a > 0.0 for a in access) and len(set(access)) > 1
    for row in content.ritual.ribbons:
        me.ribbons |= 1 << row
    assert policy._column_access(view, me.ritual_col, me.ritual_row + 1) == 0.0


def test_lowering_suspicion_is_worth_what_suspicion_costs_the_seat(content: Content) -> None:
    """Stone Skin and Smoke Screen (suspicion -1) were valued at the persona's plain cost of a point, the least of
    every face-up spell: a point lowered is also a catch chance less with the region's hunter at every turn left in
    the season (B15, B16), and an angry citizen less in the crowd at the trials when it crosses a level (B24)."""
    policy, view = _seat(content)
    me = view.me
    board = policy._t.board
    lower = Effect("suspicion", -1, "")

    def reach(v: int) -> int:
        return board.dist[board.hunter_vertex[board.region_of[v]]][v]

    assert view.hunters
    me.suspicion = 1  # 1 -> 0 adds no angry citizen; within reach of the die (0-3) plus suspicion at 4 steps
    me.vertex = next(v for v in range(len(board.region_of)) if board.region_of[v] and reach(v) == 4)
    near = policy._effect_value(lower, me, view)
    assert near > policy._sus_value(1, 1)
    me.vertex = next(v for v in range(len(board.region_of)) if board.region_of[v] and reach(v) == 0)
    assert policy._effect_value(lower, me, view) == policy._sus_value(1, 1)  # on its space: caught either way
    me.suspicion = 2  # 2 -> 1: one angry citizen less at the trials (the hunter still catches either way)
    me.crowd = 3
    assert policy._effect_value(lower, me, view) > policy._sus_value(2, 1)


def test_a_remedy_reward_does_not_value_its_own_heal_forever(content: Content) -> None:
    """A potion effect is worth the best of its potions now, a Remedy by the heal it allows, and a heal by its track
    reward: a pack whose track reward is a Remedy must not recurse through the heal it values."""
    remedy = Effect("potion", 1, "remedy")
    diseases = tuple(dataclasses.replace(d, rewards=(remedy,) * len(d.rewards)) for d in content.diseases)
    policy, view = _seat(dataclasses.replace(content, diseases=diseases))
    assert all(policy._heal_value(view, view.me, d) > 0.0 for d in range(len(diseases)))
