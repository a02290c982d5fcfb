"""The one error of the balance gate: bad input (baseline, tolerance file, config), one line, exit code 2."""

from __future__ import annotations


class RegressionInputError(ValueError):
    """A baseline, tolerance file or config that cannot be used: one line, exit code 2."""
