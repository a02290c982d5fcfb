"""The cells of a run as people read them: one row per cell with its parameters (player count, mode, modules, Omen
deck, lineup, override values) and a label naming them (``4p full, Shapeshifting, all-random, suspicion.start=1``).

Cell ids stay as they are on disk (an override combination is a hash there); the label is what tables, charts and
headlines show. Read once per run from the games table (a group-by on the cell, so cheap)."""

from __future__ import annotations

import json
from typing import Any

import polars as pl

from septima_sim.analysis.data import RunTables, collect
from septima_sim.analysis.expansions import Module


def override_text(value: Any) -> str:
    """An override value as written in a label: JSON for lists and tables (as stored), else as is."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def label(row: dict[str, Any], overrides: list[str], modules: tuple[Module, ...]) -> str:
    """``4p full, Shapeshifting, Omens (deck a+b+c), all-random, suspicion.start=1``: the run's modules only when on
    (an axis a module owns only when set, ``Module.detail``; a module the player count switches on by its name),
    every override value by its dotted path."""
    parts = [f"{row['players']}p {row['mode']}"]
    parts += [m.axis if m.automatic else m.detail(row) for m in modules if row.get(m.axis)]
    parts.append(str(row["lineup"]))
    parts += [f"{axis}={override_text(row[axis])}" for axis in overrides]
    return ", ".join(parts)


def cell_table(run: RunTables) -> pl.DataFrame:
    """One row per cell: cell_id, games, the parameters, one column per override axis (named by its dotted path),
    and ``label``; sorted by cell id."""
    axes = [a for a in run.override_axes if a in run.games.collect_schema().names()]
    cells = collect(
        run.games.group_by("cell_id")
        .agg(pl.len().alias("games"), *(pl.col(c).first() for c in (*run.parameters, *axes)))
        .sort("cell_id")
    )
    labels = [label(r, axes, run.modules) for r in cells.iter_rows(named=True)]
    return cells.with_columns(label=pl.Series(labels, dtype=pl.String))


def with_labels(table: pl.DataFrame, cells: pl.DataFrame) -> pl.DataFrame:
    """``table`` (with a ``cell_id`` column) with each cell's label as the column after ``cell_id``."""
    if table.is_empty() or "cell_id" not in table.columns:
        return table
    out = table.join(cells.select("cell_id", "label"), on="cell_id", how="left", maintain_order="left")
    order = [c for c in table.columns if c != "label"]
    at = order.index("cell_id") + 1
    return out.select(*order[:at], "label", *order[at:])
