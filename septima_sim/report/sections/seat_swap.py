"""The seat section's "Seat or tiles?" table (issue 30): when the run is the unchanged game of an ablation with the
``swap`` arm (``ablate.swap``), for each pair of colours and cell, what the seat lost or gained with the other
colour's tiles and what its tiles did at the other seat, and which of the two carries the advantage."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from septima_sim.report.ablation import table as ablation
from septima_sim.report.names import SeatNames
from septima_sim.report.page import Table

ALPHA = 0.05


def _value(r: dict[str, object]) -> str:
    lo, hi = r["ci_low"], r["ci_high"]
    return f"{r['effect_win_points']:+.1f} [{lo:.1f}, {hi:.1f}]"


def _clear(rows: list[dict[str, object]]) -> bool:
    return any(float(str(r["p_adj"])) < ALPHA for r in rows)


def verdict(seat_rows: list[dict[str, object]], tile_rows: list[dict[str, object]]) -> str:
    """``the tiles`` (the seats' results move with the tiles, the tiles' do not with the seat), ``the seat``, ``both``
    or ``unclear`` (neither moves clearly: Holm-adjusted p < 0.05)."""
    seat, tiles = _clear(seat_rows), _clear(tile_rows)
    if seat and not tiles:
        return "the tiles"
    if tiles and not seat:
        return "the seat"
    return "both" if seat else "unclear"


def table(run_path: Path, names: SeatNames) -> Table | None:
    """The "Seat or tiles?" table, or None when the run's ablation has no swap rows."""
    folder = ablation.find(run_path)
    frame = ablation.read(folder) if folder is not None else None
    if frame is None:
        return None
    swaps = frame.filter(pl.col("arm").str.starts_with("swap:") & pl.col("effect_win_points").is_not_null())
    out = []
    for (arm, cell), grp in swaps.sort("arm", "cell").group_by("arm", "cell", maintain_order=True):
        first, second = str(arm).removeprefix("swap:").split("-", 1)
        rows = {":".join(str(r["component"]).split(":")[:2]): r for r in grp.to_dicts()}  # seat:A, tiles:A
        cols = []
        for colour, other in ((first, second), (second, first)):
            seat, tiles = rows.get(f"seat:{colour}"), rows.get(f"tiles:{colour}")
            mine = names.animals.get(colour, [])
            label = "/".join(mine) or colour
            cols.append(f"{colour.title()} with {other.title()}'s tiles: {_value(seat)}" if seat else "")
            cols.append(f"{label} at {other.title()}'s seat: {_value(tiles)}" if tiles else "")
        found = verdict(
            [r for k, r in rows.items() if k.startswith("seat:")],
            [r for k, r in rows.items() if k.startswith("tiles:")],
        )
        games = max(int(r["games"]) for r in rows.values())
        out.append([f"{first.title()} <-> {second.title()}", str(cell), f"{games:,}", *cols, found])
    if not out:
        return None
    return Table(
        "Seat or tiles? (ablate --arms swap: the two colours' animal tiles exchanged, same seeds; win-rate points "
        "[95% CI], swapped minus unchanged)",
        ["swap", "cell", "pairs", "seat A", "A's tiles", "seat B", "B's tiles", "advantage follows"],
        out,
    )
