"""Headline findings: plain-language lines, each with its interval, game count and verdict."""

from __future__ import annotations

import polars as pl

from septima_sim.analysis.expansions import MODULES, title
from septima_sim.report.fmt import Row, ci_num, ci_pct, pct


def _seat_line(r: Row, who: str, note: str = "") -> str:
    return (
        f"{who} wins {ci_pct(r)} at {r['players']} players (fair {pct(r['fair'])}; {r['games']:,} games{note}): "
        f"{r['verdict']}"
    )


def headlines(
    pooled: pl.DataFrame,
    order: pl.DataFrame,
    cells: pl.DataFrame,
    comps: pl.DataFrame,
    mods: pl.DataFrame,
    solo: dict[str, pl.DataFrame] | None,
) -> list[str]:
    """Plain-language findings, each with its interval, game count and verdict."""
    lines = []
    for (_,), grp in pooled.group_by("players", maintain_order=True):
        worst = grp.sort(pl.col("delta").abs(), descending=True).row(0, named=True)
        lines.append(_seat_line(worst, f"Seat {worst['seat']}", "; the seat furthest from fair"))
    lines += [_seat_line(r, "The start player") for r in order.filter(pl.col("order") == 0).iter_rows(named=True)]
    if cells["cell_id"].n_unique() > pooled["players"].n_unique():
        flagged = cells.filter(pl.col("verdict") == "flagged")
        lines.append(
            f"{flagged.height} of {cells.height} seat x cell combinations flagged across "
            f"{cells['cell_id'].n_unique()} cells (Holm-adjusted; see Seat balance)"
        )
    if not comps.is_empty():
        top = comps.filter(pl.col("flagged")).head(5)
        for r in top.iter_rows(named=True):
            lines.append(_component_line(r) + ": flagged")
        if top.is_empty():
            r = comps.row(0, named=True)
            lines.append(f"No component stands out; the largest effect is {_component_line(r)}: ok")
    if not mods.is_empty():
        for r in mods.filter(pl.col("metric") == "winning_score").iter_rows(named=True):
            verdict = "changed" if r["p_adj"] < 0.05 else "no clear change"
            other = next(m.title for m in MODULES if m.axis != r["module"])
            state = r["other_module_on"]
            context = "" if state is None else f" (with {other} {'on' if state else 'off'})"
            lines.append(
                f"{title(r['module'])} on vs off at {r['players']} players{context}: winning score "
                f"{ci_num(r, 'delta', sign=True)} points (paired, {int(r['pairs']):,} seeds): {verdict}"
            )
    if solo is not None:
        for r in solo["win"].iter_rows(named=True):
            lines.append(
                f"Solo ({r['cell_id']}): the player beats the Widow in {ci_pct(r, 'rate')} of "
                f"{r['games']:,} games: {r['verdict']}"
            )
    return lines


def _component_line(r: Row) -> str:
    n = f"{r['present']:,} of {r['present'] + r['absent']:,} player-games"
    if r["game_level"]:
        return (
            f"{r['kind']} {r['item']}: {ci_num(r, 'wisdom_effect', 'wisdom_lo', 'wisdom_hi', sign=True)} Wisdom "
            f"for every player when in play ({n})"
        )
    return (
        f"{r['kind']} {r['item']}: win rate {ci_num(r, 'win_effect', 'win_lo', 'win_hi', 100, True)} points "
        f"when present ({n})"
    )
