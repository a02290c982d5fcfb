"""Control inverted around the engine: one game runs in its own greenlet and pauses at each env-driven decision.

The engine drives a game by calling its policies (``Game.ask`` -> ``Policy.choose``). An env-driven seat's policy,
``ExternalSeat``, switches from the game's greenlet back to whoever resumed it, handing over the decision; the next
``Driver.answer`` switches back in with the index chosen, and ``choose`` returns it to the engine. So the engine
stays the one implementation of the rules, unchanged, compiled or not.

Why a greenlet: a switch costs about a microsecond and runs no other code (a thread handoff costs tens of
microseconds, holds an OS thread per paused game and needs locking; decisions as a generator would mean rewriting
every rule that asks as a generator, a second engine). A game abandoned mid-way leaves nothing behind: ``close``, or
dropping the last reference to the driver, raises ``GreenletExit`` at the paused decision, which unwinds the game's
stack. The greenlet holds no reference back to its driver (the game runs a module-level function), so the driver is
freed as soon as its owner drops it. A greenlet belongs to the thread that created it: step an environment in the
thread that made it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import ClassVar, NamedTuple, Protocol

import greenlet

from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.results import GameResult
from septima_sim.engine.view import PlayerView


class Pause(NamedTuple):
    """A decision of an env-driven seat (the environment builds the seat's view itself when it is observed)."""

    decision: Decision


class Replaying(Protocol):
    """A copy that replays recorded answers before it reaches its first own decision (``engine.view._Branch``)."""

    @property
    def done(self) -> bool: ...


class ExternalSeat:
    """The policy of a seat driven from outside the engine: each decision goes to the caller of ``Driver``.

    In a determinized copy (``fork``) it is given `guess`: until the copy reaches the decision it was made at, the
    other seats' cards of that selection, which the forking seat did not see, are chosen uniformly at random. With
    `then`, only the first decision is driven from outside; `then` plays the seat from there on."""

    name = "env"

    def __init__(self, guess: random.Random | None = None, then: Policy | None = None) -> None:
        self.guess = guess
        self.then = then
        self.replay: Replaying | None = None
        self.asked = False

    def reset(self, seat: int, rng: random.Random) -> None:
        if self.then is not None:
            self.then.reset(seat, rng)

    def choose(self, decision: Decision, view: PlayerView) -> int:
        if self.guess is not None and self.replay is not None and not self.replay.done:
            return self.guess.randrange(len(decision.options))
        if self.asked and self.then is not None:
            return self.then.choose(decision, view)
        self.asked = True
        index = greenlet.getcurrent().parent.switch(Pause(decision))
        assert isinstance(index, int)
        return index


class ForkedSeat(ExternalSeat):
    """The forking seat of a determinized copy when a policy plays it on (``then``): that policy reads the live view
    when it is a built-in player (``engine.view.delegating_seats``), a sealed one otherwise, as it would on its own."""

    live_view: ClassVar[bool] = True


def _play(start: Callable[[], GameResult | None]) -> GameResult | None:
    """The body of a game's greenlet (a plain function: the greenlet must not hold its driver)."""
    return start()


class Driver:
    """One game in a greenlet: ``begin`` runs it to the first env-driven decision, ``answer`` to the next; both
    return the pending ``Pause``, or None once the game is over (``result``)."""

    def __init__(self, start: Callable[[], GameResult | None]) -> None:
        self._start: Callable[[], GameResult | None] | None = start
        self._greenlet = greenlet.greenlet(_play)
        self.result: GameResult | None = None
        self.over = False

    def begin(self) -> Pause | None:
        start, self._start = self._start, None
        assert start is not None, "a driver is begun once"
        return self._resume(start)

    def answer(self, index: int) -> Pause | None:
        """Resume the game with the index chosen at the pending decision."""
        return self._resume(index)

    def _resume(self, value: object) -> Pause | None:
        if self.over:
            raise RuntimeError("this game is over (it ended, raised an error or was closed): reset the environment")
        gr = self._greenlet
        try:
            gr.parent = greenlet.getcurrent()
            out = gr.switch(value)
        except greenlet.error as exc:
            raise RuntimeError(
                f"a Septima environment is stepped in the thread that created it (its game runs in a greenlet): {exc}"
            ) from None
        except BaseException:  # the game raised: its greenlet is dead, the error goes to the caller
            self.over = True
            raise
        if isinstance(out, Pause):
            return out
        self.over = True
        self.result = out if isinstance(out, GameResult) else None
        return None

    @property
    def running(self) -> bool:
        """The game is paused at a decision (begun, not over, not closed)."""
        return bool(self._greenlet) and not self._greenlet.dead

    def close(self) -> None:
        """Abandon the game: unwind it at its paused decision (nothing of it stays alive)."""
        gr = self._greenlet
        if gr.dead:
            return
        try:
            gr.parent = greenlet.getcurrent()
            gr.throw(greenlet.GreenletExit)
        except greenlet.error:  # another thread, or interpreter shutdown: the greenlet is freed with its thread
            pass
        self.over = True

    def __del__(self) -> None:
        with contextlib.suppress(RuntimeError):  # interpreter shutdown: greenlet finalizes the paused game itself
            self.close()
