"""The lock of a run directory: one writer at a time.

A writer (``run``, ``run --resume``) holds ``<run>/.lock``, a file holding its pid, created exclusively. A second
writer finds the file and refuses, naming the holder; a lock whose pid is no longer alive (the writer was killed) is
stale and taken over.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

LOCK_NAME = ".lock"


class RunLocked(ValueError):
    """Another live process writes this run directory: exit code 2."""


def _alive(pid: int) -> bool:
    """Whether a process with this pid exists (signal 0 probes without sending anything)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def holder(run_dir: Path) -> int | None:
    """The pid of the live process holding the run directory's lock, or None (no lock, or a stale one)."""
    try:
        text = (run_dir / LOCK_NAME).read_text().strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        text = ""
    pid = int(text) if text.isdigit() else -1
    return pid if pid != os.getpid() and _alive(pid) else None


class RunLock:
    """Context manager holding ``<run>/.lock`` for this process; RunLocked if a live process holds it."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / LOCK_NAME

    def acquire(self) -> None:
        """Create the lock with this process's pid in one step (a hard link of a file already holding the pid), so
        a second writer never sees an empty lock and mistakes it for a stale one."""
        mine = self.path.with_name(f"{LOCK_NAME}.{os.getpid()}")
        mine.write_text(f"{os.getpid()}\n")
        try:
            for _ in range(2):
                try:
                    os.link(mine, self.path)
                except FileExistsError:
                    pid = holder(self.path.parent)
                    if pid is not None:
                        raise RunLocked(
                            f"{self.path.parent} is being written by process {pid} (lock file {self.path}); "
                            "wait for it to finish or stop it"
                        ) from None
                    self.path.unlink(missing_ok=True)  # stale: its writer is gone
                    continue
                return
            raise RunLocked(f"{self.path.parent}: another process took the lock {self.path} at the same moment")
        finally:
            mine.unlink(missing_ok=True)

    def release(self) -> None:
        try:
            if self.path.read_text().strip() == str(os.getpid()):
                self.path.unlink()
        except OSError:
            pass

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()
