"""The arms of ``ablate`` (``--arms``): each component **removed** from the game, and, where the content can deal it
to a seat on purpose (witches: rules.toml ``[setup.forced]``), **forced** to each seat in turn. Every arm is played on
the same seeds as the unchanged game."""

from __future__ import annotations

from septima_sim.ablate.errors import AblateError

REMOVED = "removed"
FORCED = "forced"
ARMS = (REMOVED, FORCED)
"""Every arm, in the order of ``--arms``' help."""


def parse_arms(text: str) -> list[str]:
    """``removed,forced`` -> the arms in the order given; AblateError naming an unknown one and the allowed ones."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if not names:
        raise AblateError(f"--arms: give at least one of {', '.join(ARMS)}")
    unknown = [x for x in names if x not in ARMS]
    if unknown:
        raise AblateError(f"--arms: unknown arm {unknown[0]!r} (allowed: {', '.join(ARMS)})")
    return list(dict.fromkeys(names))


def arm_name(seat: int | None) -> str:
    """The ``arm`` column: ``removed``, or ``forced:<seat>`` (0-based seat, as in the run's tables)."""
    return REMOVED if seat is None else f"{FORCED}:{seat}"
