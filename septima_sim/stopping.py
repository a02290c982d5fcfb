"""How a run stops: SIGINT and SIGTERM become exceptions in the driver, writes of a finished shard are not cut in
half by them, and worker processes exit when their driver dies (even by SIGKILL, which no handler sees).

Exit codes: 130 after SIGINT (Ctrl-C), 143 after SIGTERM (128 + the signal number, as shells report them).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

PARENT_POLL_SECONDS = 1.0
"""How often a worker checks that its driver is still its parent."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: handled like Ctrl-C (a KeyboardInterrupt), with its own exit code."""


class Interrupted(Exception):
    """A command stopped by SIGINT or SIGTERM once its work was saved: ``str()`` is the one line to print (starting
    with "interrupted" and saying how to continue), ``exit_code`` 130 or 143. Not a KeyboardInterrupt, so it reaches
    the console entry point (``errors.run_main``) through the CLI framework unchanged."""

    def __init__(self, message: str, exit_code: int = 130) -> None:
        super().__init__(message)
        self.exit_code = exit_code


_received: list[int] = []
"""The stop signals (SIGINT, SIGTERM) this process received while ``sigterm_stops`` was active, in order."""


def exit_code(stop: KeyboardInterrupt) -> int:
    """130 for SIGINT (Ctrl-C), 143 for SIGTERM."""
    return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)


def received_exit_code() -> int:
    """The exit code of the last stop signal received (143 after SIGTERM; 130 after SIGINT or when none was seen):
    the CLI framework turns any KeyboardInterrupt, Terminated included, into exit code 130, so the entry point asks
    here which signal it was."""
    return 128 + (_received[-1] if _received else signal.SIGINT)


def _raise_terminated(signum: int, frame: object) -> None:
    _received.append(signum)
    raise Terminated


def _raise_interrupt(signum: int, frame: object) -> None:
    _received.append(signum)
    raise KeyboardInterrupt


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """Within the block, SIGTERM raises Terminated in the main thread (so the run stops like on Ctrl-C) and SIGINT
    KeyboardInterrupt, as by default; both are recorded (``received_exit_code``)."""
    if not _main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    previous_int = signal.getsignal(signal.SIGINT)
    if previous_int is signal.default_int_handler:  # an ignored SIGINT (nohup, a background job) stays ignored
        signal.signal(signal.SIGINT, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        if previous_int is signal.default_int_handler:
            signal.signal(signal.SIGINT, previous_int)


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM wait (they are delivered when it ends): a shard's files and the manifest
    entry naming them are written together or not at all."""
    if not _main_thread():
        yield
        return
    stops = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)


def _watch(driver_pid: int) -> None:
    while os.getppid() == driver_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)  # the driver is gone (killed): nobody will read this worker's results


def exit_with_driver(driver_pid: int) -> None:
    """Worker initializer (loky workers, which the driver starts as its direct children): exit as soon as the driver
    dies, whatever killed it. A worker whose parent is already gone when it gets here (the driver was killed while
    its workers were still starting, e.g. with thousands of them) exits at once instead of living on."""
    if os.getpid() == driver_pid:
        return  # in-process (one job): nothing to watch
    if os.getppid() != driver_pid:
        os._exit(1)  # the driver died before this worker started: nobody will send it work or read its results
    threading.Thread(target=_watch, args=(driver_pid,), name="septima-exit-with-driver", daemon=True).start()
