"""What isolating a plugin persona in its own process costs (``players/isolated.py``, docs/extending.md).

    python scripts/bench_plugins.py                     # 2-player games, 20 per setting, 5 child starts
    python scripts/bench_plugins.py --players 4 --games 40 --starts 10

- child start: ``make_policy("py:...")`` on a new thread, which has no child yet (a fresh interpreter importing the
  package and the plugin), wall time, median of ``--starts``; later games of the same thread reuse the child;
- round trip: ``choose`` on one captured card decision and its sealed view (a 4-player game's), repeated; the best
  of 5 batches (the least disturbed by other load on the machine);
- per decision in games: the same seeded games (a plugin answering at random from its own stream, ``balanced``
  elsewhere), played isolated and in-process (``SEPTIMA_PLUGINS_IN_PROCESS=1``); the wall-time difference divided
  by the plugin's decisions is the cost per decision in play: the round trip (pickling the decision and sealed view,
  the pipe both ways, the child's unpickling) plus waking the other process, which a loaded machine makes dearer.
  Wall time, since the child's CPU time is not this process's, best of 3 runs; the games are checked identical.

Numbers, not assertions: speed is never a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.view import PlayerView
from septima_sim.players import make_policy
from septima_sim.players.isolated import IN_PROCESS_ENV

PLUGIN = textwrap.dedent(
    """
    class Counted:
        name = "counted"

        def __init__(self):
            self.asked = 0

        def reset(self, seat, rng):
            self.rng = rng

        def choose(self, decision, view):
            self.asked += 1
            return self.rng.randrange(len(decision.options))
    """
)


def play(players: int, games: int, isolated: bool, runs: int = 3) -> tuple[float, list[tuple[object, object]]]:
    """Best wall seconds of ``runs`` to play ``games`` seeded games with the plugin in seat 0, and their results."""
    if isolated:
        os.environ.pop(IN_PROCESS_ENV, None)
    else:
        os.environ[IN_PROCESS_ENV] = "1"
    content = load_content()
    make_policy("py:benchplug:Counted")  # the child is started before the clock
    best = float("inf")
    results: list[tuple[object, object]] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        results = []
        for seed in range(games):
            seats = [make_policy("py:benchplug:Counted")] + [make_policy("balanced") for _ in range(players - 1)]
            result = play_game(GameConfig(players), content, seats, seed)
            results.append((result.game, result.players))
        best = min(best, time.perf_counter() - t0)
    return best, results


class Capture:
    """Keeps the first card decision (and the sealed view it came with) of a seat, answering at random."""

    name = "capture"

    def __init__(self) -> None:
        self.kept: tuple[Decision, PlayerView] | None = None

    def reset(self, seat: int, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if self.kept is None and decision.kind == Kind.CARD:
            self.kept = (decision, view)
        return self.rng.randrange(len(decision.options))


def round_trip(calls: int = 500, batches: int = 5) -> float:
    """Best seconds per ``choose`` round trip of an isolated plugin on one card decision."""
    capture = Capture()
    play_game(GameConfig(4), load_content(), [capture] + [make_policy("random") for _ in range(3)], 1)
    assert capture.kept is not None
    decision, view = capture.kept
    os.environ.pop(IN_PROCESS_ENV, None)
    plugin = make_policy("py:benchplug:Counted")
    plugin.reset(0, random.Random(1))
    best = float("inf")
    for _ in range(batches):
        t0 = time.perf_counter()
        for _ in range(calls):
            plugin.choose(decision, view)
        best = min(best, (time.perf_counter() - t0) / calls)
    return best


def decisions(players: int, games: int) -> int:
    """How many decisions seat 0 answers in those games (the in-process plugin counts them)."""
    os.environ[IN_PROCESS_ENV] = "1"
    content = load_content()
    total = 0
    for seed in range(games):
        plugin = make_policy("py:benchplug:Counted")
        seats = [plugin] + [make_policy("balanced") for _ in range(players - 1)]
        play_game(GameConfig(players), content, seats, seed)
        total += plugin.inner.asked  # type: ignore[attr-defined]
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--starts", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    (folder / "benchplug.py").write_text(PLUGIN)
    sys.path.insert(0, str(folder))

    starts = []
    for _ in range(args.starts):
        thread = threading.Thread(target=make_policy, args=("py:benchplug:Counted",))  # a new thread: a new child
        t0 = time.perf_counter()
        thread.start()
        thread.join()
        starts.append(time.perf_counter() - t0)
    median, best = statistics.median(starts) * 1e3, min(starts) * 1e3
    print(f"child start: {median:.0f} ms median, {best:.0f} ms best of {args.starts}")
    print(f"round trip, one card decision: {round_trip() * 1e6:.0f} us")

    n = decisions(args.players, args.games)
    inside, expected = play(args.players, args.games, isolated=False)
    isolated, got = play(args.players, args.games, isolated=True)
    assert got == expected, "isolated games differ from in-process ones"
    print(f"{args.games} games, {n} plugin decisions: in-process {inside:.2f} s, isolated {isolated:.2f} s")
    print(f"per decision in games: {(isolated - inside) / n * 1e6:.0f} us")


if __name__ == "__main__":
    main()
