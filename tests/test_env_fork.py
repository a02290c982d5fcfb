"""Determinized copies for third-party search (``SeptimaEnv.fork``): a copy is paused at the same decision with the
same observation for the asked seat, re-guesses what that seat cannot see, plays a reproducible future, never
touches the real game and reaches nothing of it; the example search player of docs/env.md plays with it."""

from __future__ import annotations

import gc
import random
import re
import types
from pathlib import Path

import numpy as np
import pytest

from septima_sim.content import Content
from septima_sim.engine.decisions import Kind
from septima_sim.engine.game import Game
from septima_sim.engine.game_state import GameState
from septima_sim.engine.state import Player
from septima_sim.engine.view import Recorder
from septima_sim.env import SeptimaEnv
from septima_sim.players import make_policy
from tests.env_helpers import random_action

DOCS = Path(__file__).resolve().parent.parent / "docs" / "env.md"


def started(content: Content, players: int, steps: int, seed: int = 3, **kw: object) -> SeptimaEnv:
    env = SeptimaEnv(players, content=content, **kw)  # type: ignore[arg-type]
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        env.step(random_action(env.observe(env.agent_selection), rng))
    return env


def until(env: SeptimaEnv, kind: str, seat: int | None = None) -> None:
    """Step randomly to the next decision of `kind` (of `seat`)."""
    rng = random.Random(0)
    while not (env.decision and env.decision.kind == kind and (seat is None or env.decision.seat == seat)):
        env.step(random_action(env.observe(env.agent_selection), rng))


@pytest.mark.parametrize(
    ("players", "steps", "kind", "seat"),
    [
        (2, 0, Kind.DRAFT_RETURN, None),  # before the first checkpoint's moon phase: replayed from setup
        (3, 40, Kind.CARD, 2),  # the last seat of a selection: two hidden cards re-guessed
        (4, 90, Kind.PREMOVE, None),  # inside a turn
        (1, 30, Kind.CARD, 0),  # solo
    ],
)
def test_a_fork_is_paused_at_the_same_decision_with_the_same_observation(
    content: Content, players: int, steps: int, kind: str, seat: int | None
) -> None:
    env = started(content, players, steps, omens=players > 1)
    until(env, kind, seat)
    agent, mine = env.agent_selection, env.observe(env.agent_selection)
    hidden = []
    for seed in range(4):
        fork = env.fork(seed)
        assert fork.agent_selection == agent and fork.decision is not None and env.decision is not None
        assert (fork.decision.kind, fork.decision.options, fork.decision.context) == (
            env.decision.kind,
            env.decision.options,
            env.decision.context,
        )
        theirs = fork.observe(agent)
        assert np.array_equal(theirs["observation"], mine["observation"])
        assert np.array_equal(theirs["action_mask"], mine["action_mask"])
        assert fork._game is not None
        hidden.append((fork._game.s.septima_bag, fork._game.s.witch_deck, fork._game.s.goals))
    real = env._game
    assert real is not None
    assert any(h != (real.s.septima_bag, real.s.witch_deck, real.s.goals) for h in hidden), "nothing was re-guessed"


def test_hidden_cards_of_the_selection_are_re_guessed(content: Content) -> None:
    """At seat 2's card choice the copies' seats 0 and 1 chose their cards afresh (revealed after seat 2 chose)."""
    env = started(content, 3, 40)
    until(env, Kind.CARD, 2)
    real = env._game
    assert real is not None
    guesses = set()
    for seed in range(8):
        fork = env.fork(seed)
        fork.step(random_action(fork.observe(fork.agent_selection), random.Random(0)))
        assert fork._game is not None
        guesses.add(tuple(fork._game.s.played[:2]))
    assert len(guesses) > 1


def test_the_same_seed_plays_the_same_future(content: Content) -> None:
    env = started(content, 3, 70, shapeshifting=True)
    results = []
    for _ in range(2):
        fork = env.fork(11)
        rng = random.Random(1)
        while fork.result is None:
            fork.step(random_action(fork.observe(fork.agent_selection), rng))
        results.append(fork.result.game)
    assert results[0] == results[1]


def test_playing_forks_never_touches_the_real_game(content: Content) -> None:
    """A game in which forks are made and played to their end at many decisions (a third of its card and move
    decisions) has the same events and result as the same game without forks."""
    outcomes, forks = [], 0
    for forking in (False, True):
        events: list[dict[str, object]] = []
        env = SeptimaEnv(2, content=content, omens=True, sink=events.append)
        env.reset(seed=21)
        rng, fork_rng, coin = random.Random(2), random.Random(3), random.Random(4)
        while env.result is None:
            decision = env.decision
            assert decision is not None
            if forking and decision.kind in (Kind.CARD, Kind.MOVE) and coin.random() < 0.3:
                forks += 1
                fork = env.fork(fork_rng.getrandbits(32))
                while fork.result is None:
                    fork.step(random_action(fork.observe(fork.agent_selection), fork_rng))
            env.step(random_action(env.observe(env.agent_selection), rng))
        outcomes.append((events, env.result.game, env.result.players))
    assert forks >= 10
    assert outcomes[0] == outcomes[1]


def reachable(roots: list[object], static: tuple[object, ...]) -> list[object]:
    """Everything reachable from `roots`: gc.get_referents and slots, and where that walk stops short, the
    closures, defaults and bound objects of functions and the locals of frames (a paused greenlet's frames are a
    root). Classes, modules and code are not entered (they reach every global); nor are the shared, read-only
    `static` objects (content, board)."""
    seen = {id(r) for r in roots}
    stack, out = list(roots), []
    while stack:
        obj = stack.pop()
        out.append(obj)
        if isinstance(obj, (type, types.ModuleType, types.CodeType)) or any(obj is x for x in static):
            continue
        if isinstance(obj, types.FunctionType):
            children = [*(c.cell_contents for c in obj.__closure__ or ()), obj.__defaults__, obj.__kwdefaults__]
        elif isinstance(obj, types.MethodType):
            children = [obj.__self__, obj.__func__]
        elif isinstance(obj, types.FrameType):
            children = [obj.f_back, *obj.f_locals.values()]
        else:
            children = list(gc.get_referents(obj))
            children += [getattr(obj, name, None) for name in getattr(type(obj), "__slots__", ())]
        for child in children:
            if id(child) not in seen:
                seen.add(id(child))
                stack.append(child)
    return out


def test_nothing_of_the_real_game_is_reachable_from_a_fork(content: Content) -> None:
    env = started(content, 3, 40, omens=True)
    until(env, Kind.CARD, 2)
    real = env._game
    assert real is not None and real.recorder is not None
    live = {id(real), id(real.s), id(real.recorder), id(real.recorder.snapshot), id(real.rng_draw), id(real.rng_dice)}
    live |= {id(p) for p in real.s.players} | {id(real.s.goals), id(real.s.septima_bag), id(real.s.witch_deck)}
    fork = env.fork(5, policies={0: make_policy("balanced")})
    assert fork._game is not None and (fork._game.seed, fork.game_seed) == (5, 5)  # not the real game's seed
    assert fork._driver is not None
    paused_frames = fork._driver._greenlet.gr_frame  # the copy's game, paused: its frames and their locals
    objects = reachable([fork, paused_frames], (content, fork._game.board))
    assert not [o for o in objects if id(o) in live]
    games = [o for o in objects if isinstance(o, Game)]
    assert games and all(g is fork._game or g is getattr(fork._game.recorder, "snapshot", None) for g in games)
    states = [o for o in objects if isinstance(o, GameState | Player)]
    assert states and not [o for o in states if id(o) in live]
    recorders = [o for o in objects if isinstance(o, Recorder)]
    assert all(r is fork._game.recorder and not r.trace for r in recorders)
    traces = [o for o in objects if type(o).__name__ == "_Branch"]
    assert traces and all(set(t.trace) <= {-1} for t in traces), "the recorded answers were not blanked"


def test_seasons_cut_the_copy_short(content: Content) -> None:
    env = started(content, 2, 20)
    season = env._game.s.season  # type: ignore[union-attr]
    fork = env.fork(1, policies={0: make_policy("random"), 1: make_policy("random")}, seasons=0)
    fork.step(random_action(fork.observe(fork.agent_selection), random.Random(0)))
    assert fork.result is not None and fork._game is not None and fork._game.s.season == season
    assert fork.agents == [env.agent_selection] and sum(fork.rewards.values()) <= 1


def test_policies_play_their_seats_in_the_copy(content: Content) -> None:
    env = started(content, 3, 30)
    asked = env.agent_selection
    fork = env.fork(2, policies={s: make_policy("balanced") for s in range(3) if f"seat_{s}" != asked})
    assert fork.possible_agents == [asked]
    rng = random.Random(0)
    while fork.result is None:
        assert fork.agent_selection == asked
        fork.step(random_action(fork.observe(asked), rng))


def test_forks_of_forks_and_the_errors(content: Content) -> None:
    env = started(content, 2, 10)
    fork = env.fork(1)
    with pytest.raises(RuntimeError, match="next moon phase"):
        fork.fork(2)
    rng = random.Random(0)
    turn = fork._game.s.turn  # type: ignore[union-attr]
    while fork._game is not None and fork._game.s.turn == turn:
        fork.step(random_action(fork.observe(fork.agent_selection), rng))
    again = fork.fork(3)
    assert again.agent_selection == fork.agent_selection
    finished = started(content, 1, 0)
    while finished.result is None:
        finished.step(random_action(finished.observe(finished.agent_selection), rng))
    with pytest.raises(RuntimeError, match="pending decision"):
        finished.fork(1)


def docs_example() -> dict[str, object]:
    """The search player of docs/env.md ("Searching from your own player"), run as written."""
    text = DOCS.read_text()
    section = text[text.index("## Searching from your own player") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), str(DOCS), "exec"), namespace)
    return namespace


@pytest.mark.slow
def test_the_docs_search_player_plays_legal_reproducible_moves(content: Content) -> None:
    namespace = docs_example()
    player_class = namespace["FlatMonteCarlo"]
    choices = []
    for _ in range(2):
        env = SeptimaEnv(2, content=content, lineup=[None, "balanced"])
        env.reset(seed=7)
        player = player_class(rollouts=2, seed=1)  # type: ignore[operator]
        made = []
        for _ in range(3):
            action = player.act(env)
            assert env.action_mask()[action] == 1
            made.append(action)
            env.step(action)
        choices.append(made)
    assert choices[0] == choices[1]


def test_an_environment_made_unforkable_says_so(content: Content) -> None:
    env = SeptimaEnv(2, content=content, forkable=False)
    env.reset(seed=1)
    assert env._game is not None and env._game.recorder is None
    with pytest.raises(RuntimeError, match="forkable=False"):
        env.fork(1)
