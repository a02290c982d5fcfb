"""CI balance regression: a compact baseline of per-game outcomes, and a check that replays its seeds on the current
code and content and compares metric by metric.

Every metric is a per-game quantity (a seat's win, the winning score, the game's decisions...) or a spread of one,
summarised per cell. Baseline and current games share seeds (game ``i`` of the check replays game ``i`` of the
baseline), so each comparison is paired: the delta is the mean per-game difference with a normal 95% interval (a
seeded paired bootstrap for spreads), tested with the exact McNemar test for 0/1 outcomes and a z test otherwise,
Holm-corrected (or BH) across all metrics. Against a declared tolerance the verdict is:

- ``pass``: the interval of the delta lies within ± tolerance (equivalence, TOST-style);
- ``shift``: the delta is significant after correction and its estimate lies outside ± tolerance (exit 1);
- ``inconclusive``: neither; it fails the build only with ``strict``.

Sequential mode plays the games in batches (one shard of every cell at a time) and stops as soon as no metric is
inconclusive; each of the K looks uses level alpha/K (Bonferroni over looks, repeated confidence intervals), so
stopping early keeps the error rates of the fixed design.
"""

from __future__ import annotations

from septima_sim.regression.baseline import (
    SCHEMA,
    SCHEMA_VERSION,
    Baseline,
    baseline,
    outcomes_checksum,
    read_baseline,
    write_baseline,
)
from septima_sim.regression.errors import RegressionInputError
from septima_sim.regression.metrics import EFFECT_OF, MODULE_AXES, Metric, MetricKind, metrics
from septima_sim.regression.outcomes import GAME_COLUMNS, SEAT_COLUMNS, Outcomes, Played, play, shard_tasks
from septima_sim.regression.output import append_step_summary, markdown, write_junit
from septima_sim.regression.tolerances import DEFAULT_TOLERANCES, Tolerances, load_tolerances
from septima_sim.regression.verdict import CheckResult, Row, Verdict, check, compare

__all__ = [
    "DEFAULT_TOLERANCES",
    "EFFECT_OF",
    "GAME_COLUMNS",
    "MODULE_AXES",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SEAT_COLUMNS",
    "Baseline",
    "CheckResult",
    "Metric",
    "MetricKind",
    "Outcomes",
    "Played",
    "RegressionInputError",
    "Row",
    "Tolerances",
    "Verdict",
    "append_step_summary",
    "baseline",
    "check",
    "compare",
    "load_tolerances",
    "markdown",
    "metrics",
    "outcomes_checksum",
    "play",
    "read_baseline",
    "shard_tasks",
    "write_baseline",
    "write_junit",
]
