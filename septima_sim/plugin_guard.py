"""A plugin persona (``py:module:Class`` or an installed entry point) at the boundary where its answers enter the
engine (in the plugin's own process, ``players/isolated_child.py``, or in-process with
``SEPTIMA_PLUGINS_IN_PROCESS=1``): an exception it raises, an answer that is not an index into the options (``-1``,
``True``, ``"0"``, ``1.0``, one past the end) and a decision that takes longer than the limit are the plugin's fault,
named as such (``PluginError``): a game that raised in a batch command (exit 3), bad input in ``play`` (exit 2).
Built-in players are never wrapped, so the check costs them nothing.

The time limit (``SEPTIMA_DECISION_TIMEOUT`` seconds per ``reset`` or ``choose`` call, default 60, 0 = none;
``play --decision-timeout``) is enforced by the parent of an isolated plugin (``players/isolated.py``: it waits for
the answer with ``Connection.poll``, on any thread, and kills a late child). In-process, it is a ``signal.setitimer``
alarm armed around each call, which interrupts the plugin where it is, even inside ``time.sleep`` or a busy loop;
signals are delivered to the main thread only, so in-process under ``--backend dask`` (worker threads) the limit is
not enforced.
"""

from __future__ import annotations

import math
import operator
import os
import random
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.engine.decisions import Decision, Policy
    from septima_sim.engine.view import PlayerView

TIMEOUT_ENV = "SEPTIMA_DECISION_TIMEOUT"
DEFAULT_TIMEOUT = 60.0
"""Seconds a plugin may take per decision (or per ``reset``) unless ``SEPTIMA_DECISION_TIMEOUT`` says otherwise."""
REPEAT_SECONDS = 1.0
"""The alarm fires again this often until the call returns (a plugin that catches it is interrupted again)."""

_timeout_option: float | None = None
"""``play --decision-timeout``: overrides the environment variable in this process."""


class PluginError(ValueError):
    """A plugin persona's own fault (it raised, answered something that is not an option index, or took too long)."""


class _Expired(BaseException):
    """Raised inside the plugin's code by the alarm (a BaseException, so its ``except Exception`` does not eat it)."""


def decision_timeout() -> float:
    """The limit in seconds (0 = none): ``play --decision-timeout``, else ``SEPTIMA_DECISION_TIMEOUT``, else 60."""
    if _timeout_option is not None:
        return _timeout_option
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    return check_timeout(seconds, f"{TIMEOUT_ENV}={text!r}")


def check_timeout(seconds: float, where: str) -> float:
    """A limit must be a finite number of seconds, 0 or more (PluginError naming ``where`` otherwise)."""
    if not math.isfinite(seconds) or seconds < 0:
        raise PluginError(f"{where}: give the seconds a plugin may take per decision, 0 or more (0 = no limit)")
    return seconds


def set_decision_timeout(seconds: float | None) -> None:
    """``play --decision-timeout SECONDS`` (None: back to the environment variable or the default)."""
    global _timeout_option
    _timeout_option = None if seconds is None else check_timeout(seconds, "--decision-timeout")


_armed = False
_handler_installed = False


def _alarm(signum: int, frame: object) -> None:
    if _armed:
        raise _Expired


class _Deadline:
    """Arms the alarm for one plugin call (main thread only; a no-op with no limit or in another thread)."""

    __slots__ = ("on",)

    def __init__(self, seconds: float) -> None:
        self.on = seconds > 0 and threading.current_thread() is threading.main_thread()
        if self.on:
            global _armed, _handler_installed
            if not _handler_installed:
                signal.signal(signal.SIGALRM, _alarm)
                _handler_installed = True
            _armed = True
            signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_SECONDS)

    def stop(self) -> None:
        if self.on:
            global _armed
            signal.setitimer(signal.ITIMER_REAL, 0)
            _armed = False


class PluginPolicy:
    """A plugin's policy behind the boundary checks; ``name`` is the plugin's own (what the games record)."""

    def __init__(self, inner: Policy, entry: str, timeout: float | None = None) -> None:
        self.inner = inner
        self.entry = entry
        self.name = inner.name
        self.timeout = decision_timeout() if timeout is None else timeout

    def _fault(self, what: str) -> PluginError:
        return plugin_fault(self.entry, what)

    def _late(self, call: str) -> PluginError:
        return late(self.entry, self.timeout, call)

    def reset(self, seat: int, rng: random.Random) -> None:
        deadline = _Deadline(self.timeout)
        try:
            self.inner.reset(seat, rng)
        except _Expired:
            raise self._late("reset") from None
        except Exception as exc:
            raise self._fault(f"raised in reset: {type(exc).__name__}: {exc}") from exc
        finally:
            deadline.stop()

    def choose(self, decision: Decision, view: PlayerView) -> int:
        deadline = _Deadline(self.timeout)
        try:
            answer = self.inner.choose(decision, view)
        except _Expired:
            raise self._late(f"choose ({decision.kind} decision)") from None
        except Exception as exc:
            raise self._fault(f"raised in choose ({decision.kind} decision): {type(exc).__name__}: {exc}") from exc
        finally:
            deadline.stop()
        index = answer if type(answer) is int else _integer(answer)
        n = len(decision.options)
        if index is None or not 0 <= index < n:
            raise self._fault(
                f"returned {repr(answer)[:60]} for a {decision.kind} decision with {n} options: choose must return "
                f"an int 0..{n - 1} (an index into decision.options; no negative index, no bool)"
            )
        return index


def plugin_fault(entry: str, what: str) -> PluginError:
    """The one line naming the plugin ``entry`` (its persona name) and what it did."""
    return PluginError(f"plugin persona {entry!r} {what} (a fault of the plugin, not of septima-sim)")


def late(entry: str, timeout: float, call: str) -> PluginError:
    """A plugin call (``reset`` or ``choose (kind decision)``) that took longer than the limit."""
    limit = f"the limit: {TIMEOUT_ENV}, play --decision-timeout"
    return plugin_fault(entry, f"took longer than {timeout:g} s in {call} ({limit})")


def _integer(answer: object) -> int | None:
    """An integer answer of another type (numpy's) as an int; None for bool, float, str, None and the like."""
    if isinstance(answer, bool):
        return None
    try:
        return operator.index(answer)  # type: ignore[arg-type]
    except TypeError:
        return None
