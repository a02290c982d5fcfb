"""``septima-sim ablate``: causal component effects from common-random-number pairs (issue 16); see docs/ablate.md."""

from septima_sim.ablate.arms import ARMS, parse_arms
from septima_sim.ablate.errors import AblateError
from septima_sim.ablate.kinds import KINDS, Kind, parse_kinds
from septima_sim.ablate.run import AblateInterrupted, Plan, Result, execute, prepare

__all__ = [
    "ARMS",
    "KINDS",
    "AblateError",
    "AblateInterrupted",
    "Kind",
    "Plan",
    "Result",
    "execute",
    "parse_arms",
    "parse_kinds",
    "prepare",
]
