"""Seat balance: win rate per seat per setting (a cell without its lineup), by turn order, per cell (named by its
parameters and override values) and pooled, with verdicts."""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from septima_sim.analysis import RunTables
from septima_sim.analysis.cells import cell_table, with_labels
from septima_sim.analysis.expansions import Module
from septima_sim.analysis.fairness import by_lineup, setting_balance, setting_keys
from septima_sim.analysis.metrics import seat_balance
from septima_sim.analysis.skill import weak_lineups
from septima_sim.engine.config import COLOURS
from septima_sim.report import charts
from septima_sim.report.fmt import SEAT_COLUMNS, ci_pct, col, pct, table
from septima_sim.report.names import SeatNames, setting_phrase
from septima_sim.report.page import Builder, Chart, Table
from septima_sim.report.sections import seat_swap, settle


@dataclass(frozen=True, slots=True)
class SeatTables:
    """What the headlines need: win rate per setting and seat, and per setting and turn-order position; the cell
    table (labels); the setting columns; the seat names; the seat band; with more than one lineup, the same per
    lineup and the weak (random-only) lineups."""

    by_setting: pl.DataFrame
    order: pl.DataFrame
    cells: pl.DataFrame
    keys: list[str]
    names: SeatNames
    axes: list[str]
    """The swept settings besides the player count, the mode and the modules (named in setting phrases)."""
    modules: tuple[Module, ...]
    tolerance: float
    lineup_seat: pl.DataFrame | None
    lineup_order: pl.DataFrame | None
    weak: set[str]


def add(b: Builder, run: RunTables) -> SeatTables:
    s = b.settings
    cells_table = cell_table(run)
    keys = setting_keys(run)
    axes = [k for k in keys if k not in run.parameters]  # the other (swept) settings
    names = SeatNames(run.manifest.get("config", {}).get("content"), run.modules, run.players)
    by_setting = _named(setting_balance(run, s), keys, axes, names, run.modules)
    order = _named(setting_balance(run, s, "order"), keys, axes, names, run.modules)
    cells = with_labels(seat_balance(run.players, s), cells_table)
    pooled = seat_balance(run.players, s, by=("players",))
    sec = b.section(
        "seats",
        "Seat balance",
        f"Win rate per seat against fair share (1 / players). Seats are named by colour (seat 0..3 = Green, "
        f"Orange, Purple, Gray) and, with Shapeshifting, by the colour's animals. A setting is a cell without its "
        f"lineup (lineups pooled). Ties count as a win for each tied seat. Verdict: flagged = significantly off "
        f"fair by at least {s.seat_tolerance * 100:.0f} points (Holm-adjusted exact binomial test); ok = the 95% "
        f"interval lies within fair ± {s.seat_tolerance * 100:.0f} points; unclear = more games needed. Turn "
        f"order counts seats from the start player (0).",
    )
    sec.charts += [
        Chart(
            "Win rate by seat and cell", "seat_heatmap.png", charts.seat_heatmap(cells.with_columns(cell_id="label"))
        ),
        Chart("Win rate by seat (all cells pooled)", "seat_winrate.png", charts.seat_bars(pooled, "seat", "seat")),
        Chart("Win rate by turn order", "turn_order.png", charts.seat_bars(order, "order", "pos")),
    ]
    sec.tables += [
        _wide(by_setting, keys),
        table(
            "By setting and seat",
            by_setting,
            [("setting", col("setting")), ("seat", col("name")), *SEAT_COLUMNS],
            b.data("seats_by_setting", by_setting),
        ),
        table(
            "By setting and turn order (0 = start player)",
            order,
            [("setting", col("setting")), ("position", col("order")), *SEAT_COLUMNS],
            b.data("turn_order", order),
        ),
        table(
            "By cell and seat",
            cells,
            [("cell", col("label")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_by_cell", cells),
        ),
        table(
            "By seat, all cells pooled",
            pooled,
            [("players", col("players")), ("seat", col("seat")), *SEAT_COLUMNS],
            b.data("seats_pooled", pooled),
        ),
    ]
    sec.tables += [t for t in (seat_swap.table(run.path, names), _unclear(by_setting, s.seat_tolerance, s.alpha)) if t]
    lineup_seat = lineup_order = None
    weak: set[str] = set()
    if cells_table["lineup"].n_unique() > 1:
        lineup_seat, lineup_order = by_lineup(run, s), by_lineup(run, s, "order")
        weak = weak_lineups(run)
        named = _named(lineup_seat, keys, axes, names, run.modules)
        sec.tables.append(
            table(
                "Skill robustness: by setting, seat and lineup",
                named,
                [("setting", col("setting")), ("lineup", col("lineup")), ("seat", col("name")), *SEAT_COLUMNS],
                b.data("seats_by_lineup", named),
            )
        )
    return SeatTables(
        by_setting, order, cells_table, keys, names, axes, run.modules, s.seat_tolerance, lineup_seat, lineup_order,
        weak,
    )  # fmt: skip


def _wide(by_setting: pl.DataFrame, keys: list[str]) -> Table:
    """One row per setting: games and each seat's win rate [95% CI] (flagged seats marked), fair share."""
    seats = range(max(by_setting["seat"].to_list(), default=-1) + 1)
    rows = []
    for _, grp in by_setting.group_by(keys, maintain_order=True):
        first = grp.row(0, named=True)
        cells = {
            r["seat"]: ci_pct(r) + (" flagged" if r["verdict"] == "flagged" else "") for r in grp.iter_rows(named=True)
        }
        rows.append(
            [
                first["setting"],
                f"{max(grp['games'].to_list()):,}",
                pct(first["fair"]),
                *(cells.get(s, "") for s in seats),
            ]
        )
    return Table(
        "Per setting: win rate by seat",
        ["setting", "games", "fair", *(COLOURS[s].title() if s < len(COLOURS) else f"seat {s}" for s in seats)],
        rows,
        "seats_by_setting.csv",
        summary=True,
    )


def _named(
    table: pl.DataFrame, keys: list[str], axes: list[str], names: SeatNames, modules: tuple[Module, ...]
) -> pl.DataFrame:
    """The table with ``setting`` (a phrase naming it) and, per seat, ``name`` (colour and animals)."""
    rows = table.select(keys).iter_rows(named=True)
    phrases = [setting_phrase(r, axes, modules).removeprefix("at ") for r in rows]
    out = table.with_columns(setting=pl.Series(phrases, dtype=pl.String))
    if "seat" in table.columns:
        seat_names = [names(r["seat"], r) for r in table.iter_rows(named=True)]
        out = out.with_columns(name=pl.Series(seat_names, dtype=pl.String))
    return out


def _unclear(by_setting: pl.DataFrame, tolerance: float, alpha: float) -> Table | None:
    return settle.seat_table(by_setting, tolerance, lambda r: str(r["name"]), alpha)
