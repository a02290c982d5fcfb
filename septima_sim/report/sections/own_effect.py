"""The table of a changed card's own effect beside the sweep and comparison tables (``analysis.own_effect``)."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis import RunTables, own_effect
from septima_sim.analysis.data import Settings
from septima_sim.report.page import Table


def _rows(frame: pl.DataFrame, content: str | None, with_run: bool) -> list[list[str]]:
    out = []
    for r in frame.iter_rows(named=True):
        path = str(r.get("path") or "")
        line = own_effect.sentence(path, str(r["value"]), own_effect.card_name(path, content), r)
        out.append([*([str(r["run"])] if with_run else []), line, f"{int(r['present']):,}"])
    return out


def sweep_table(run: RunTables, axis: str, settings: Settings) -> Table | None:
    """The changed card's effect for each value of a sweep axis, or None when the axis names no card."""
    frame = own_effect.by_value(run.players, run.games, axis, settings)
    if frame.is_empty():
        return None
    content = run.manifest.get("config", {}).get("content")
    return Table(
        f"Own effect of the changed card for each value of {axis} (holders minus the seats without it, win points "
        "[95% CI]; an association, as in the component section)",
        ["value: effect", "rows holding it"],
        _rows(frame.with_columns(path=pl.lit(axis)), content, with_run=False),
    )


def compare_table(run: RunTables, other: RunTables, settings: Settings) -> Table | None:
    """Each card either run overrides: its own effect for each value in this run and in the other run."""
    frame = own_effect.in_runs([("this run", run), ("the other run", other)], settings)
    if frame.is_empty():
        return None
    content = run.manifest.get("config", {}).get("content")
    return Table(
        "Own effect of each changed card, per run and value (holders minus the seats without it, win points "
        "[95% CI]; an association)",
        ["run", "value: effect", "rows holding it"],
        _rows(frame, content, with_run=True),
    )
