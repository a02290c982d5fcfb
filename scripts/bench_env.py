"""Per-decision cost of driving games through the step environment against engine-driven play (docs/env.md).

    python scripts/bench_env.py                          # 4-player Full, 40 games per setting, median of 3 runs
    python scripts/bench_env.py --players 2 --shapeshifting --omens --games 100 --runs 5

Every setting plays the same seeded games with the same uniformly random answers (the streams the built-in random
player would draw from), so the costs compare like with like: CPU time (``time.process_time``: other load on the
machine barely disturbs it) per decision asked.

- engine: the engine calls the built-in random player (``play_game``; it reads no view, so none is sealed);
- env, no observe: ``SeptimaEnv.step`` with the action of the chosen option, no observation built (the cost of the
  inverted control alone: greenlet switches and bookkeeping);
- env, no observe, no fork: the same with ``forkable=False`` (no checkpoint copy per moon phase for ``fork``);
- env + observe: ``observe(agent)`` (vector and mask) before every step, as a learner does;
- gym, 1 seat vs random: ``SeptimaGym`` with the built-in random player in the other seats, observing before every
  step; per decision of the whole table (the learning seat's steps and the engine's own decisions);
- the parts: encoding one observation, one action mask, and a greenlet round trip next to a thread handoff (why the
  environment uses a greenlet).

Numbers, not assertions: speed is never a test.
"""

from __future__ import annotations

import argparse
import queue
import random
import statistics
import threading
import time
from collections.abc import Callable

import greenlet

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.draws import below
from septima_sim.engine.game import random_streams
from septima_sim.engine.view import sealed_view
from septima_sim.env import SeptimaEnv, SeptimaGym
from septima_sim.players import RandomPolicy


def seat_streams(seed: int, players: int) -> list[random.Random]:
    """The random streams the engine hands each seat's policy in game `seed` (``Game._start_policies``)."""
    rng = random_streams(seed)[3]
    return [random.Random(rng.getrandbits(64)) for _ in range(players)]


def engine_run(config: GameConfig, games: int) -> tuple[float, int]:
    content = load_content()
    decisions, start = 0, time.process_time()
    for seed in range(games):
        result = play_game(config, content, [RandomPolicy() for _ in range(config.players)], seed)
        decisions += int(str(result.game["decisions"]))
    return time.process_time() - start, decisions


def env_run(config: GameConfig, games: int, observe: bool, forkable: bool = True) -> tuple[float, int]:
    """The games of ``engine_run``: each seat answers from the stream its RandomPolicy would have had."""
    env = SeptimaEnv(config.players, config.mode, config.shapeshifting, config.omens, forkable=forkable)
    decisions, start = 0, time.process_time()
    for seed in range(games):
        streams = seat_streams(seed, config.players)
        env.reset(seed=seed)
        while env.result is None:
            if observe:
                env.observe(env.agent_selection)
            decision = env.decision
            assert decision is not None
            env.step(env.action(decision.options[below(streams[decision.seat], len(decision.options))]))
            decisions += 1
    return time.process_time() - start, decisions


def gym_run(config: GameConfig, games: int) -> tuple[float, int]:
    """The same games again: seat 0 learns (answering from its RandomPolicy stream), the engine's random players
    sit in the other seats."""
    gym_env = SeptimaGym(config.players, 0, ["random"], config.mode, config.shapeshifting, config.omens)
    decisions, start = 0, time.process_time()
    for seed in range(games):
        stream = seat_streams(seed, config.players)[0]
        gym_env.reset(seed=seed)
        game = gym_env.env._game
        assert game is not None
        over = False
        while not over:
            gym_env.env.observe(gym_env.agent)
            decision = gym_env.env.decision
            assert decision is not None
            action = gym_env.env.action(decision.options[below(stream, len(decision.options))])
            _, _, over, _, _ = gym_env.step(action)
        decisions += game.s.decisions
    return time.process_time() - start, decisions


def parts(config: GameConfig) -> dict[str, float]:
    """Microseconds per call of the pieces of one env-driven decision."""
    env = SeptimaEnv(config.players, config.mode, config.shapeshifting, config.omens)
    env.reset(seed=1)
    rng = random.Random(1)
    for _ in range(60):
        decision = env.decision
        assert decision is not None
        env.step(env.action(decision.options[rng.randrange(len(decision.options))]))
    game, decision = env._game, env.decision
    assert game is not None and decision is not None
    view = sealed_view(game, decision.seat)
    out = {
        "seal a view": timed(lambda: view.seal(game, decision.seat)),
        "encode an observation": timed(lambda: env.encoder.encode(view, decision)),
        "action mask": timed(lambda: env.layout.mask(decision)),
    }
    out["greenlet round trip"] = greenlet_round_trip()
    out["thread round trip"] = thread_round_trip()
    env.close()
    return out


def timed(call: Callable[[], object], n: int = 2000) -> float:
    start = time.process_time()
    for _ in range(n):
        call()
    return (time.process_time() - start) / n * 1e6


def greenlet_round_trip(n: int = 100_000) -> float:
    def child(x: int) -> None:
        main = greenlet.getcurrent().parent
        while True:
            x = main.switch(x + 1)

    g = greenlet.greenlet(child)
    start = time.process_time()
    value = g.switch(0)
    for _ in range(n):
        value = g.switch(value)
    elapsed = time.process_time() - start
    g.throw(greenlet.GreenletExit)
    return elapsed / n * 1e6


def thread_round_trip(n: int = 20_000) -> float:
    """A handoff to a worker thread and back (wall time: the CPU time of two threads is not one's)."""
    ask: queue.SimpleQueue[int | None] = queue.SimpleQueue()
    answer: queue.SimpleQueue[int] = queue.SimpleQueue()

    def worker() -> None:
        while (x := ask.get()) is not None:
            answer.put(x + 1)

    th = threading.Thread(target=worker)
    th.start()
    start = time.perf_counter()
    for i in range(n):
        ask.put(i)
        answer.get()
    elapsed = time.perf_counter() - start
    ask.put(None)
    th.join()
    return elapsed / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--mode", default="full", choices=["full", "basic"])
    ap.add_argument("--shapeshifting", action="store_true")
    ap.add_argument("--omens", action="store_true")
    ap.add_argument("--games", type=int, default=40, help="games per setting and run (default 40)")
    ap.add_argument("--runs", type=int, default=3, help="runs per setting; the median is printed (default 3)")
    args = ap.parse_args()
    config = GameConfig(args.players, args.mode, args.shapeshifting, args.omens).validate()
    settings: list[tuple[str, Callable[[], tuple[float, int]]]] = [
        ("engine", lambda: engine_run(config, args.games)),
        ("env, no observe", lambda: env_run(config, args.games, observe=False)),
        ("env, no observe, no fork", lambda: env_run(config, args.games, observe=False, forkable=False)),
        ("env + observe", lambda: env_run(config, args.games, observe=True)),
        ("gym, 1 seat vs random", lambda: gym_run(config, args.games)),
    ]
    print(
        f"{config.players} players, {config.mode}, modules {sorted(config.modules) or '-'}; {args.games} games x "
        f"{args.runs} runs; CPU microseconds per decision, median"
    )
    base = 0.0
    for label, run in settings:
        per = []
        for _ in range(args.runs):
            seconds, decisions = run()
            per.append(seconds / decisions * 1e6)
        median = statistics.median(per)
        base = base or median
        print(f"  {label:26s} {median:8.1f} us   x{median / base:.2f}")
    print("parts, microseconds per call:")
    for label, us in parts(config).items():
        print(f"  {label:26s} {us:8.2f} us")


if __name__ == "__main__":
    main()
