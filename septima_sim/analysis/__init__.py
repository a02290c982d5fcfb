"""Analysis of a run: polars tables with intervals, tests and verdicts (usable from Python and by the report).

>>> from septima_sim.analysis import open_run, Settings, seat_balance
>>> run = open_run("runs/default-20260101-120000")
>>> seat_balance(run.players, Settings())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_FROM: dict[str, tuple[str, ...]] = {
    "compare": ("compare_runs",),
    "components": ("component_impact",),
    "data": ("RunDataError", "RunTables", "Settings", "open_run"),
    "metrics": (
        "card_mix",
        "match_rates",
        "outcomes",
        "seat_balance",
        "suspicion",
        "suspicion_by_turn",
        "trials",
        "wisdom_sources",
    ),
    "modules": ("has_personas", "module_effects", "persona_matrix", "seat_across_lineups", "solo_summary"),
    "stats": ("bh", "bootstrap_ci", "holm", "wilson"),
}
"""Submodule -> the names this package re-exports from it, imported at first use (PEP 562): importing one
submodule, such as ``run_summary`` at the end of ``septima-sim run``, no longer loads scipy and every other one."""
_MODULE_OF = {name: module for module, names in _FROM.items() for name in names}


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its submodule on first access."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


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
