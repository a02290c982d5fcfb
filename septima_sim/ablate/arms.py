"""The arms of ``ablate`` (``--arms``): each component **removed** from the game; where the content can deal it to a
seat on purpose (witches, spells, goals: rules.toml ``[setup.forced*]``), **forced** to each seat in turn; and, for
animals, each pair of colours with their tiles **swapped** (``ablate.swap``). Every arm is played on the same seeds
as the unchanged game."""

from __future__ import annotations

from septima_sim.ablate.errors import parse_choices

REMOVED = "removed"
FORCED = "forced"
SWAP = "swap"
ARMS = (REMOVED, FORCED, SWAP)
"""Every arm, in the order of ``--arms``' help."""
DEFAULT_ARMS = (REMOVED, FORCED)
"""The arms played when ``--arms`` is not given (a swap is asked for: it plays one run per pair of colours)."""


def parse_arms(text: str) -> list[str]:
    """``removed,forced,swap`` -> the arms in the order given; AblateError naming an unknown one and the others."""
    return parse_choices("--arms", "arm", text, ARMS)


def arm_name(seat: int | None) -> str:
    """The ``arm`` column: ``removed``, or ``forced:<seat>`` (0-based seat, as in the run's tables)."""
    return REMOVED if seat is None else f"{FORCED}:{seat}"
