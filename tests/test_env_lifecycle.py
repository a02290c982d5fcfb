"""Control inversion leaves nothing behind: the game runs in a greenlet (no thread, no process), and a game closed,
reset, dropped or garbage-collected mid-way is unwound: its greenlet is dead and nothing of it stays alive."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import threading
import weakref

import greenlet
import pytest

from septima_sim.content import Content
from septima_sim.engine.decisions import Decision
from septima_sim.env import SeptimaEnv, SeptimaGym
from tests.env_helpers import random_action


def live_greenlets() -> list[greenlet.greenlet]:
    """Greenlets begun and not finished, besides the one running this test."""
    me = greenlet.getcurrent()
    return [g for g in gc.get_objects() if isinstance(g, greenlet.greenlet) and g and not g.dead and g is not me]


def midway(env: SeptimaEnv, steps: int = 40) -> weakref.ref[object]:
    """Play `steps` random decisions of a new game; a weak reference that dies with the game: to an env-driven
    seat's policy, which only the game holds (a compiled Game takes no weak reference itself)."""
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        env.step(random_action(env.observe(env.agent_selection), rng))
    game = env._game
    assert game is not None
    return weakref.ref(game.policies[0])


@pytest.fixture
def baseline() -> tuple[int, int]:
    gc.collect()
    return threading.active_count(), len(live_greenlets())


def test_no_thread_is_started(content: Content, baseline: tuple[int, int]) -> None:
    env = SeptimaEnv(4, content=content, shapeshifting=True, omens=True)
    midway(env)
    assert threading.active_count() == baseline[0]
    assert len(live_greenlets()) == baseline[1] + 1  # the paused game
    env.close()


def test_close_unwinds_the_game(content: Content, baseline: tuple[int, int]) -> None:
    env = SeptimaEnv(3, content=content)
    game = midway(env)
    env.close()
    env.close()  # closing twice is fine
    gc.collect()
    assert game() is None
    assert len(live_greenlets()) == baseline[1]


def test_reset_abandons_the_game_in_progress(content: Content, baseline: tuple[int, int]) -> None:
    env = SeptimaEnv(2, content=content)
    first = midway(env)
    second = midway(env, 10)
    gc.collect()
    assert first() is None and second() is not None
    assert len(live_greenlets()) == baseline[1] + 1
    env.close()


def test_dropping_the_environment_unwinds_the_game(content: Content, baseline: tuple[int, int]) -> None:
    env = SeptimaEnv(2, content=content)
    game = midway(env)
    del env
    gc.collect()
    assert game() is None
    assert len(live_greenlets()) == baseline[1]


def test_an_environment_in_a_reference_cycle_is_collected(content: Content, baseline: tuple[int, int]) -> None:
    env = SeptimaEnv(2, content=content)
    game = midway(env)
    env.me = env  # type: ignore[attr-defined]  # a cycle through the environment: only the collector frees it
    del env
    gc.collect()
    assert game() is None
    assert len(live_greenlets()) == baseline[1]


def test_gym_close_and_forks_leave_nothing(content: Content, baseline: tuple[int, int]) -> None:
    gym_env = SeptimaGym(players=2, opponents=["balanced"], content=content)
    obs, _ = gym_env.reset(seed=8)
    gym_env.step(random_action(obs, random.Random(0)))
    env = SeptimaEnv(2, content=content)
    midway(env, 15)
    forks = [env.fork(seed) for seed in range(3)]
    assert len(live_greenlets()) == baseline[1] + 5
    gym_env.close()
    del forks
    env.close()
    gc.collect()
    assert len(live_greenlets()) == baseline[1]


def test_an_error_in_the_game_reaches_the_caller(content: Content, baseline: tuple[int, int]) -> None:
    class Broken:
        name = "broken"

        def reset(self, seat: int, rng: random.Random) -> None:
            pass

        def choose(self, decision: Decision, view: object) -> int:
            raise ZeroDivisionError("a policy bug")

    env = SeptimaEnv(2, content=content, lineup=[None, lambda: Broken()])
    with pytest.raises(ZeroDivisionError, match="a policy bug"):
        env.reset(seed=1)
        for _ in range(200):
            env.step(random_action(env.observe(env.agent_selection), random.Random(1)))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(random_action(env.observe(env.agent_selection), random.Random(1)))
    env.close()
    gc.collect()
    assert len(live_greenlets()) == baseline[1]


@pytest.mark.slow
def test_exit_with_a_paused_game_is_quiet() -> None:
    """A script that leaves an environment paused mid-game exits 0 and prints nothing."""
    code = (
        "import random\n"
        "from septima_sim.env import SeptimaEnv\n"
        "from tests.env_helpers import random_action\n"
        "env = SeptimaEnv(2)\n"
        "env.reset(seed=1)\n"
        "for _ in range(20):\n"
        "    env.step(random_action(env.observe(env.agent_selection), random.Random(0)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
