"""The error of bad ``ablate`` input."""

from __future__ import annotations


class AblateError(ValueError):
    """Options or an output folder that cannot be used: one line, exit code 2, nothing written."""
