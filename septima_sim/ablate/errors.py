"""The error of bad ``ablate`` input."""

from __future__ import annotations


class AblateError(ValueError):
    """Options or an output folder that cannot be used: one line, exit code 2, nothing written."""


def parse_choices(option: str, what: str, text: str, allowed: tuple[str, ...]) -> list[str]:
    """A comma-separated option value (``--kinds witch,animal``) -> the names in the order given, each once;
    AblateError naming an unknown one and the allowed ones."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise AblateError(f"{option}: give at least one of {', '.join(allowed)}")
    unknown = [x for x in names if x not in allowed]
    if unknown:
        raise AblateError(f"{option}: unknown {what} {unknown[0]!r} (allowed: {', '.join(allowed)})")
    return list(dict.fromkeys(names))
