"""The error of bad ``ablate`` input."""

from __future__ import annotations

from septima_sim import errors


class AblateError(ValueError):
    """Options or an output folder that cannot be used: one line, exit code 2, nothing written."""


def parse_choices(option: str, what: str, text: str, allowed: tuple[str, ...]) -> list[str]:
    """A comma-separated option value (``--kinds witch,animal``) -> the names in the order given, each once;
    AblateError naming an unknown one and the allowed ones."""
    return errors.parse_choices(option, what, text, allowed, AblateError)
