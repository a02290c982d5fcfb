"""The arms of ``ablate`` (``--arms``): each component **removed** from the game, and, where the content can deal it
to a seat on purpose (witches: rules.toml ``[setup.forced]``), **forced** to each seat in turn. Every arm is played on
the same seeds as the unchanged game."""

from __future__ import annotations

from septima_sim.ablate.errors import parse_choices

REMOVED = "removed"
FORCED = "forced"
ARMS = (REMOVED, FORCED)
"""Every arm, in the order of ``--arms``' help."""


def parse_arms(text: str) -> list[str]:
    """``removed,forced`` -> the arms in the order given; AblateError naming an unknown one and the allowed ones."""
    return parse_choices("--arms", "arm", text, ARMS)


def arm_name(seat: int | None) -> str:
    """The ``arm`` column: ``removed``, or ``forced:<seat>`` (0-based seat, as in the run's tables)."""
    return REMOVED if seat is None else f"{FORCED}:{seat}"
