"""The observation encoder: every field changes when the state it encodes changes (and no other field does),
nothing hidden from the seat reaches its vector, and docs/env.md lists the layout the code builds."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from septima_sim.content import Content
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.game import Game
from septima_sim.engine.modules.widow import WidowView
from septima_sim.engine.tables import board_for
from septima_sim.engine.view import PatientSnapshot, SealedView, SeatSnapshot, SpellSnapshot, sealed_view
from septima_sim.env import Encoder, SeptimaEnv, layouts
from septima_sim.env.fields import MAX_SEATS, STEPS
from septima_sim.env.observation import ENCODING_VERSION, STATS
from tests.env_helpers import random_action

DOCS = Path(__file__).resolve().parent.parent / "docs" / "env.md"


def paused(content: Content, players: int, season: int, seed: int = 5, **modules: bool) -> SeptimaEnv:
    """An environment paused at the first decision of season `season` (0 = the first decision of the game)."""
    env = SeptimaEnv(players, content=content, **modules)  # type: ignore[arg-type]
    env.reset(seed=seed)
    rng = random.Random(seed)
    while env._game is not None and env._game.s.season < season:
        env.step(random_action(env.observe(env.agent_selection), rng))
    return env


def sealed(game: Game, seat: int) -> SealedView:
    view = sealed_view(game, seat)
    view.seal(game, seat)
    return view


# ---- mutators: each changes one piece of state in a copy of a view -------------------------------------------

View = SealedView
Mutator = Callable[[View, Decision], Decision]
"""Changes one piece of state in `view`, a fresh copy of the scene's view (in place), or returns a changed decision."""


def with_view(**changes: object) -> Mutator:
    def mutate(view: View, decision: Decision) -> Decision:
        for name, value in changes.items():
            setattr(view, name, value(view) if callable(value) else value)
        return decision

    return mutate


def with_seat(block: int, change: Callable[[SeatSnapshot], SeatSnapshot]) -> Mutator:
    def mutate(view: View, decision: Decision) -> Decision:
        seat = (view.seat + block) % view.n_players
        players = list(view.players)
        players[seat] = change(players[seat])
        view.players = tuple(players)
        view.me = view.players[view.seat]
        return decision

    return mutate


def with_module(name: str, change: Callable[[object], object]) -> Mutator:
    def mutate(view: View, decision: Decision) -> Decision:
        view.modules = {**view.modules, name: change(view.modules[name])}
        return decision

    return mutate


def with_decision(kind: str | None = None, context: object = "keep") -> Mutator:
    def mutate(view: View, decision: Decision) -> Decision:
        ctx = decision.context if context == "keep" else context
        return Decision(kind or decision.kind, decision.seat, decision.options, ctx)

    return mutate


def bump(i: int, size: int) -> int:
    """Another valid index (0 for none)."""
    return (i + 1) % size if i >= 0 else 0


def patient(view: View, **changes: object) -> tuple[PatientSnapshot, ...]:
    first, *rest = view.patients
    return (first._replace(**changes), *rest)


def seat_mutators(c: Content, block: int) -> dict[str, list[Mutator]]:
    n_actions, n_witches = len(c.actions), len(c.witches)
    spell = SpellSnapshot(3, True, -1, False)

    def add_spell(p: SeatSnapshot) -> SeatSnapshot:
        return p._replace(spells=(*p.spells, spell))

    def spell_flag(**changes: object) -> Callable[[SeatSnapshot], SeatSnapshot]:
        return lambda p: p._replace(spells=(*p.spells, spell._replace(**changes)))

    s = lambda change: with_seat(block, change)  # noqa: E731
    return {
        "seat": [s(lambda p: p._replace(seat=(p.seat + 1) % MAX_SEATS))],
        "turn_position": [with_view(order=lambda v: tuple(reversed(v.order)))],
        "vertex": [s(lambda p: p._replace(vertex=bump(p.vertex, 54)))],
        "suspicion": [s(lambda p: p._replace(suspicion=p.suspicion + 1 if p.suspicion < 8 else 0))],
        "flags": [s(lambda p: p._replace(raised=not p.raised)), s(lambda p: p._replace(no_raise=not p.no_raise))],
        "wisdom": [s(lambda p: p._replace(wisdom=p.wisdom + 7))],
        "resources": [s(lambda p: p._replace(res=(p.res[0] + 1, *p.res[1:])))],
        "charms": [s(lambda p: p._replace(charms=p.charms + 1))],
        "potions": [s(lambda p: p._replace(potions=(p.potions[0] + 1, *p.potions[1:])))],
        "hand": [s(lambda p: p._replace(hand=(not p.hand[0], *p.hand[1:])))],
        "discard": [s(lambda p: p._replace(discard=(*p.discard, 4) if 4 not in p.discard else ()))],
        "revealed": [
            with_view(
                played=lambda v: tuple(
                    bump(x, n_actions) if s_ == (v.seat + block) % v.n_players else x for s_, x in enumerate(v.played)
                )
            )
        ],
        "coven": [s(lambda p: p._replace(coven=(*p.coven, 19) if 19 not in p.coven else ()))],
        "mirror": [s(lambda p: p._replace(mirror=bump(p.mirror, n_witches)))],
        "citizens": [
            s(lambda p: p._replace(supply=p.supply - 1 if p.supply else 1)),
            s(lambda p: p._replace(crowd=p.crowd - 1 if p.crowd else 1)),
        ],
        "tracks": [s(lambda p: p._replace(tracks=(p.tracks[0] + 1, *p.tracks[1:])))],
        "healed": [s(lambda p: p._replace(healed=(p.healed[0] + 1, *p.healed[1:])))],
        "spells": [
            s(add_spell),
            s(spell_flag(ready=False)),
            s(spell_flag(active=True)),
            s(spell_flag(used_turn=2)),
        ],
        "ritual": [
            s(lambda p: p._replace(ritual_row=bump(p.ritual_row, 10))),
            s(lambda p: p._replace(ritual_col=bump(p.ritual_col, 5))),
            s(lambda p: p._replace(ribbons=p.ribbons ^ (1 << min(c.ritual.ribbons)))),
        ],
        "brewed": [s(lambda p: p._replace(brewed=(p.brewed[0] + 1, *p.brewed[1:])))],
        "played": [s(lambda p: p._replace(played=(p.played[0] + 1, *p.played[1:])))],
        "stats": [s(lambda p, name=name: p._replace(**{name: getattr(p, name) + 1})) for name in STATS],  # type: ignore[misc]
    }


def table_mutators(c: Content) -> dict[str, list[Mutator]]:
    n_actions, n_witches, n_spells = len(c.actions), len(c.witches), len(c.spells)
    return {
        "full": [with_view(full=lambda v: not v.full)],
        "modules": [with_view(modules=lambda v: {k: m for k, m in v.modules.items() if k != "omens"})],
        "season": [with_view(season=lambda v: bump(v.season, 4))],
        "turn": [with_view(turn=lambda v: bump(v.turn, 5))],
        "step": [with_view(step=lambda v: STEPS[bump(STEPS.index(v.step), len(STEPS))]), with_view(step="new")],
        "septima_right": [
            with_view(septima_markers=lambda v: (bump(v.septima_markers[0], n_actions), v.septima_markers[1]))
        ],
        "septima_left": [
            with_view(septima_markers=lambda v: (v.septima_markers[0], bump(v.septima_markers[1], n_actions)))
        ],
        "lunar": [with_view(lunar=lambda v: (bump(v.lunar[0], 5), *v.lunar[1:]))],
        "patients": [
            with_view(patients=lambda v: v.patients[1:]),
            with_view(patients=lambda v: patient(v, disease=bump(v.patients[0].disease, 3))),
            with_view(patients=lambda v: patient(v, angry=1 - v.patients[0].angry)),
            with_view(patients=lambda v: patient(v, healed_by=v.patients[0].healed_by ^ 1 << v.seat)),
            with_view(patients=lambda v: patient(v, remedies=(*v.patients[0].remedies, 0))),
        ],
        "hunters": [
            with_view(hunters=lambda v: ((bump(v.hunters[0][0] - 1, 6) + 1, v.hunters[0][1]), *v.hunters[1:])),
            with_view(hunters=lambda v: ((v.hunters[0][0], not v.hunters[0][1]), *v.hunters[1:])),
            with_view(hunters=lambda v: v.hunters[:-1]),
        ],
        "chamber1": [with_view(trial=lambda v: (bump(v.trial[0], n_witches), *v.trial[1:]))],
        "chamber2": [
            with_view(trial=lambda v: (v.trial[0], (*v.trial[1], 17) if 17 not in v.trial[1] else (), v.trial[2]))
        ],
        "seated": [
            with_view(trial=lambda v: (v.trial[0], v.trial[1], ((*v.trial[2][0], v.seat), v.trial[2][1]))),
            with_view(trial=lambda v: (v.trial[0], v.trial[1], (v.trial[2][0], (*v.trial[2][1], -7)))),
        ],
        "crowd": [
            with_view(crowd=lambda v: (v.crowd[0] + 1, v.crowd[1], v.crowd[2])),
            with_view(crowd=lambda v: (v.crowd[0], v.crowd[1] + 1, v.crowd[2])),
        ],
        "spell_market": [
            with_view(
                spell_market=lambda v: (
                    (bump(v.spell_market[0][0], n_spells), *v.spell_market[0][1:]),
                    *v.spell_market[1:],
                )
            ),
            with_view(
                spell_market=lambda v: (
                    *v.spell_market[:2],
                    (*v.spell_market[2][:2], -1 if v.spell_market[2][2] >= 0 else 5),
                )
            ),
        ],
        "buildings": [with_view(buildings=lambda v: {**v.buildings, 0: bump(v.buildings.get(0, -1), 6)})],
        "witches_out": [with_view(witches_out=lambda v: (*v.witches_out, 18) if 18 not in v.witches_out else ())],
        "potion_supply": [with_view(potion_supply=lambda v: (v.potion_supply[0] - 1, *v.potion_supply[1:]))],
        "my_goals": [with_view(my_goals=lambda v: (*v.my_goals, 19) if 19 not in v.my_goals else v.my_goals[1:])],
        "shapeshifting": [
            with_module("shapeshifting", lambda m: m._replace(forms=(bump(m.forms[0], 8), *m.forms[1:]))),  # type: ignore[attr-defined]
            with_module("shapeshifting", lambda m: m._replace(animals=((0, 7), *m.animals[1:]))),  # type: ignore[attr-defined]
        ],
        "omens": [
            with_module("omens", lambda m: m._replace(upcoming=bump(m.upcoming, 19))),  # type: ignore[attr-defined]
            with_module("omens", lambda m: m._replace(card=bump(m.card, 19))),  # type: ignore[attr-defined]
            with_module("omens", lambda m: m._replace(side="dark" if m.side != "dark" else "bright")),  # type: ignore[attr-defined]
        ],
        "decision_kind": [with_decision(kind=Kind.PREMOVE), with_decision(kind=Kind.OMEN)],
        "decision_context": [with_decision(context="crowd_pick:potion"), with_decision(context=3)],
    }


def widow_mutators() -> dict[str, list[Mutator]]:
    def w(**changes: Callable[[WidowView], object]) -> Mutator:
        return with_module("solo", lambda m: m._replace(**{k: f(m) for k, f in changes.items()}))  # type: ignore[attr-defined]

    return {
        "widow": [
            w(vertex=lambda m: bump(m.vertex, 54)),
            w(spiders=lambda m: m.spiders[1:]),
            w(suspicion=lambda m: m.suspicion + 1 if m.suspicion < 8 else 0),
            w(wisdom=lambda m: m.wisdom + 3),
            w(card=lambda m: bump(m.card, 10)),
            w(last=lambda m: bump(m.last, 10)),
            w(crowd=lambda m: m.crowd + 1),
            w(ritual_row=lambda m: bump(m.ritual_row, 10)),
        ]
    }


RESIZE = {"players", "seatK.present"}
"""Fields that change only with the table size (tested apart: a table of another size)."""


def blocks_of(encoder: Encoder, vector: np.ndarray) -> dict[str, np.ndarray]:
    return {f.name: vector[f.offset : f.offset + f.size] for f in encoder.fields}


class Scene(NamedTuple):
    """A game paused at a seat's decision: the encoder, the game, the seat and the decision."""

    encoder: Encoder
    game: Game
    seat: int
    decision: Decision

    def view(self) -> View:
        """A fresh sealed view of the seat (a copy the mutators may change: a compiled view cannot be copied)."""
        return sealed(self.game, self.seat)


def check(scene: Scene, name: str, mutate: Mutator) -> None:
    """`mutate` changes field `name` and no other, but where one change must move more: a seat's number moves what
    is read by number (its turn position, its revealed card), a new turn order moves every seat's position, and a
    module switched off empties its own field."""
    encoder, decision = scene.encoder, scene.decision
    before = blocks_of(encoder, encoder.encode(scene.view(), decision))
    twin = scene.view()
    twin_decision = mutate(twin, decision)
    after = blocks_of(encoder, encoder.encode(twin, twin_decision))
    changed = {f for f in before if not np.array_equal(before[f], after[f])}
    assert name in changed, f"{name}: the field did not change"
    block = name.partition(".")[0]
    allowed = {
        ".seat": {f"{block}.turn_position", f"{block}.revealed"},
        ".turn_position": {f"seat{k}.turn_position" for k in range(MAX_SEATS)},
        "modules": {"omens"},
    }
    also = next((extra for suffix, extra in allowed.items() if name.endswith(suffix)), set())
    assert changed - (also - {name}) == {name}, f"{name}: other fields changed too: {sorted(changed - also - {name})}"


@pytest.fixture(scope="module")
def scene(content: Content) -> Scene:
    """Seat 1 of 4, at a decision in the third season of a Full game with both expansions."""
    for seed in range(5, 25):  # the first seed whose game reaches such a decision after season 3 begins
        env = paused(content, 4, 2, seed=seed, shapeshifting=True, omens=True)
        while env.decision is None or env.decision.seat != 1 or env.decision.context is None:
            obs = env.observe(env.agent_selection)
            if not obs["action_mask"].any():  # the game ended
                break
            env.step(random_action(obs, random.Random(0)))
        else:
            break
    assert env._game is not None and env._game.s.season >= 2 and env.decision is not None
    at = Scene(env.encoder, env._game, 1, env.decision)
    view = at.view()
    assert view.patients and view.my_goals and view.trial[0] >= 0 and len(view.hunters) >= 2
    return at


@pytest.mark.parametrize("block", [0, 1, 3])
def test_every_seat_field_changes_with_its_state(content: Content, scene: Scene, block: int) -> None:
    for name, mutators in seat_mutators(content, block).items():
        for mutate in mutators:
            check(scene, f"seat{block}.{name}", mutate)


def test_every_table_field_changes_with_its_state(content: Content, scene: Scene) -> None:
    for name, mutators in table_mutators(content).items():
        for mutate in mutators:
            check(scene, name, mutate)


def test_the_widow_field_changes_with_her_state(content: Content) -> None:
    env = paused(content, 1, 1)
    assert env._game is not None and env.decision is not None
    at = Scene(env.encoder, env._game, 0, env.decision)
    widow = at.view().modules["solo"]
    assert isinstance(widow, WidowView) and widow.spiders
    for name, mutators in widow_mutators().items():
        for mutate in mutators:
            check(at, name, mutate)


def test_the_table_size_shows_in_players_and_present(content: Content) -> None:
    vectors = {}
    for players in (2, 3):
        env = paused(content, players, 0)
        assert env._game is not None
        vectors[players] = blocks_of(env.encoder, env.encoder.encode(sealed(env._game, 0), None))
    assert not np.array_equal(vectors[2]["players"], vectors[3]["players"])
    assert vectors[2]["seat2.present"].tolist() == [0.0] and vectors[3]["seat2.present"].tolist() == [1.0]
    assert vectors[3]["seat3.present"].tolist() == [0.0]


def test_every_field_has_a_mutation_test(content: Content, scene: Scene) -> None:
    """A field added to the encoder without a test above fails here."""
    encoder = scene.encoder
    tested = {*table_mutators(content), *widow_mutators(), *RESIZE}
    tested |= {f"seatK.{name}" for name in seat_mutators(content, 0)}
    names = {re.sub(r"^seat\d\.", "seatK.", f.name) for f in encoder.fields}
    assert names == tested


def test_observations_are_in_bounds_over_many_games(content: Content) -> None:
    """Every value lies in [0, 1]; the caps are rarely reached (a count at its cap reads 1.0: it is clipped)."""
    for players, seed in ((1, 1), (2, 2), (4, 3)):
        env = SeptimaEnv(players, content=content, shapeshifting=True, omens=True)
        env.reset(seed=seed)
        rng = random.Random(seed)
        space = env.observation_space(env.possible_agents[0])
        while env.agents:
            obs, _, term, _, _ = env.last()
            assert space.contains(obs)
            env.step(None if term else random_action(obs, rng))


# ---- nothing hidden leaks ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4])
def test_determinized_copies_give_the_same_vector(content: Content, players: int) -> None:
    """A copy of the game in which everything seat s cannot see is re-guessed (other seats' goals, every deck and
    bag order, the Omen deck, the Widow's markers) gives s the very same vector; the copies do differ."""
    env = paused(content, players, 1, omens=True)
    game, decision = env._game, env.decision
    assert game is not None and decision is not None
    for seat in range(players):
        asked = decision if decision.seat == seat else None
        mine = env.encoder.encode(sealed(game, seat), asked)
        for k in range(3):
            twin = game.clone(list(game.policies), k)
            twin.determinize(seat, random.Random(k))
            assert twin.s.septima_bag != game.s.septima_bag or twin.s.patient_stack != game.s.patient_stack
            assert np.array_equal(env.encoder.encode(sealed(twin, seat), asked), mine)


def test_other_seats_goals_reach_only_their_own_vector(content: Content) -> None:
    env = paused(content, 3, 1)
    game = env._game
    assert game is not None
    before = [env.encoder.encode(sealed(game, s), None) for s in range(3)]
    game.s.goals[2], game.s.goal_deck = (
        game.s.goal_deck[: len(game.s.goals[2])],
        game.s.goal_deck[len(game.s.goals[2]) :],
    )
    after = [env.encoder.encode(sealed(game, s), None) for s in range(3)]
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    assert not np.array_equal(before[2], after[2])


def test_a_card_chosen_this_selection_stays_hidden_until_the_reveal(content: Content) -> None:
    """Two games alike but for seat 0's card this turn: at seat 1's and seat 2's card decisions every seat's
    observation and info is the same; after the reveal they differ."""
    envs = []
    for pick in (0, -1):
        env = paused(content, 3, 0, seed=12)
        rng = random.Random(12)
        while not (env.decision is not None and env.decision.kind == Kind.CARD and env.decision.seat == 0):
            env.step(random_action(env.observe(env.agent_selection), rng))
        legal = np.flatnonzero(env.action_mask())
        assert len(legal) > 1
        env.step(int(legal[pick]))
        envs.append(env)
    a, b = envs
    for _ in range(2):  # seats 1 and 2 choose their cards (the same ones in both games)
        assert a.decision is not None and b.decision is not None and a.decision.kind == Kind.CARD
        for agent in a.agents:
            assert np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])
            assert a.infos[agent] == b.infos[agent]
        action = int(np.flatnonzero(a.action_mask())[0])
        a.step(action)
        b.step(action)
    assert any(not np.array_equal(a.observe(x)["observation"], b.observe(x)["observation"]) for x in a.agents)


# ---- the layout -------------------------------------------------------------------------------------------------


def test_docs_list_the_layout_the_code_builds(content: Content) -> None:
    encoder, actions = layouts(content)
    text = DOCS.read_text()
    assert encoder.table() in text, "docs/env.md: paste the table of `python -m septima_sim.env` (observation)"
    assert actions.table() in text, "docs/env.md: paste the table of `python -m septima_sim.env` (actions)"
    assert f"ENCODING_VERSION = {ENCODING_VERSION}" in text and encoder.version in text


def test_version_names_the_layout(content: Content) -> None:
    encoder = layouts(content)[0]
    assert encoder.version.startswith(f"{ENCODING_VERSION}-")
    other = dataclasses.replace(content, goals=content.goals[:-1])
    assert Encoder(other, board_for(content)).version != encoder.version
