"""The errors of ``septima-sim sensitivity`` (the CLI turns them into one line and an exit code)."""

from __future__ import annotations

from septima_sim import runner


class SensitivityError(ValueError):
    """A study that cannot run: one line naming the option or file and what is allowed (exit code 2)."""


class SensitivityInterrupted(runner.RunInterrupted):
    """Ctrl-C or SIGTERM: finished samples and shards are kept; the same command with ``--resume`` continues."""
