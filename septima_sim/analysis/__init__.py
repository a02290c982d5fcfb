"""Analysis of a run: polars tables with intervals, tests and verdicts (usable from Python and by the report).

>>> from septima_sim.analysis import open_run, Settings, seat_balance
>>> run = open_run("runs/default-20260101-120000")
>>> seat_balance(run.players, Settings())
"""

from septima_sim.analysis.compare import compare_runs
from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import RunDataError, RunTables, Settings, open_run
from septima_sim.analysis.metrics import (
    card_mix,
    match_rates,
    outcomes,
    seat_balance,
    suspicion,
    suspicion_by_turn,
    trials,
    wisdom_sources,
)
from septima_sim.analysis.modules import (
    has_personas,
    module_effects,
    persona_matrix,
    seat_across_lineups,
    solo_summary,
)
from septima_sim.analysis.stats import bh, bootstrap_ci, holm, wilson

__all__ = [
    "RunDataError",
    "RunTables",
    "Settings",
    "bh",
    "bootstrap_ci",
    "card_mix",
    "compare_runs",
    "component_impact",
    "has_personas",
    "holm",
    "match_rates",
    "module_effects",
    "open_run",
    "outcomes",
    "persona_matrix",
    "seat_across_lineups",
    "seat_balance",
    "solo_summary",
    "suspicion",
    "suspicion_by_turn",
    "trials",
    "wilson",
    "wisdom_sources",
]
