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


def exit_code(stop: KeyboardInterrupt) -> int:
    """130 for SIGINT (Ctrl-C), 143 for SIGTERM."""
    return 128 + (signal.SIGTERM if isinstance(stop, Terminated) else signal.SIGINT)


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """Within the block, SIGTERM raises Terminated in the main thread (so the run stops like on Ctrl-C)."""
    if not _main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


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
    """Worker initializer: exit as soon as the driver process (our parent) dies, whatever killed it."""
    if os.getpid() == driver_pid or os.getppid() != driver_pid:
        return  # not a direct child of the driver (in-process, or a dask nanny's worker): nothing to watch
    threading.Thread(target=_watch, args=(driver_pid,), name="septima-exit-with-driver", daemon=True).start()
