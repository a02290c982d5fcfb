"""The ablation's files: ``ablation.csv`` (one row per component and cell, issue 16's columns), the per-seat and
winning-score detail, each component's status (how many games, why it stopped, or why it could not be removed) and
the self-contained ``ablation.html``.

Flags: Holm-adjusted p (over every row of ``ablation.csv``) below alpha and an effect at least the tolerance (win
points; Wisdom for shared components, whose ``ci_low``/``ci_high`` are then the Wisdom interval).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import polars as pl

from septima_sim.analysis import Settings
from septima_sim.analysis.stats import holm
from septima_sim.report.ablation import page
from septima_sim.report.ablation.table import COLUMNS, CSV, DETAIL, STATUS

if TYPE_CHECKING:
    from septima_sim.ablate.run import Outcome, Plan


def _nan(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else x


def effects_frame(outcomes: list[Outcome], tolerance: float, settings: Settings) -> pl.DataFrame:
    """``ablation.csv``'s rows, largest holder effect first (shared components after, by Wisdom)."""
    rows: list[dict[str, object]] = []
    pvalues: list[float] = []
    for o in outcomes:
        for e in o.effects:
            prim = e.primary
            rows.append(
                {
                    "kind": o.component.kind.name,
                    "component": e.label or o.component.id,
                    "arm": o.component.arm,
                    "players": e.players,
                    "cell": e.cell,
                    "games": e.games,
                    "effect_win_points": _nan(e.win["delta"]) if e.win else None,
                    "ci_low": _nan(prim["lo"]),
                    "ci_high": _nan(prim["hi"]),
                    "effect_wisdom": _nan(e.wisdom["delta"]),
                    "_tol": tolerance if e.win else settings.wisdom_tolerance,
                    "_eff": prim["delta"],
                }
            )
            pvalues.append(prim["p"] if math.isfinite(prim["p"]) else 1.0)
    if not rows:
        return pl.DataFrame(schema=dict.fromkeys(COLUMNS, pl.String))
    frame = pl.DataFrame(rows).with_columns(p_adj=pl.Series(holm(pvalues), dtype=pl.Float64))
    frame = frame.with_columns(
        flagged=(pl.col("p_adj") < settings.alpha) & (pl.col("_eff").abs() >= pl.col("_tol")),
        _size=pl.col("effect_win_points").abs().fill_null(-1.0),
    )
    return frame.sort(["_size", "effect_wisdom"], descending=True, nulls_last=True).select(COLUMNS)


def detail_frame(outcomes: list[Outcome]) -> pl.DataFrame:
    rows = [
        {"kind": o.component.kind.name, "component": o.component.id, "arm": o.component.arm, **r}
        for o in outcomes
        for r in o.detail
    ]
    return (
        pl.DataFrame(rows)
        if rows
        else pl.DataFrame(schema={"kind": pl.String, "component": pl.String, "arm": pl.String})
    )


def status_frame(outcomes: list[Outcome]) -> pl.DataFrame:
    """One row per component and arm (a swap: one per row label it wrote, ``seat:<colour>``, ``tiles:<ids>``)."""
    return pl.DataFrame(
        [
            {
                "kind": o.component.kind.name,
                "component": label,
                "arm": o.component.arm,
                "provenance": o.component.provenance,
                "assumed": o.component.assumed,
                "games": o.games,
                "status": o.status,
            }
            for o in outcomes
            for label in dict.fromkeys(e.label for e in o.effects if e.label) or [o.component.id]
        ],
        schema={
            "kind": pl.String,
            "component": pl.String,
            "arm": pl.String,
            "provenance": pl.String,
            "assumed": pl.String,
            "games": pl.Int64,
            "status": pl.String,
        },
    )


def write(plan: Plan, outcomes: list[Outcome], settings: Settings) -> None:
    """Write the CSV files and the page into the ablation folder."""
    effects_frame(outcomes, plan.tolerance, settings).write_csv(plan.out / CSV, float_precision=4)
    detail_frame(outcomes).write_csv(plan.out / DETAIL, float_precision=4)
    status_frame(outcomes).write_csv(plan.out / STATUS)
    page.write(plan.out, plan.tolerance)
