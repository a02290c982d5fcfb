"""Seat and turn-order balance per setting (a cell without its lineup: player count, mode, modules, Omen deck and
override values), pooled over lineups, and re-estimated per lineup to say whether a finding depends on skill.

A finding (a seat or turn-order position off fair share) is re-estimated in each lineup of its setting: it *shows*
in a lineup when that lineup's win rate lies on the same side of fair, at least the tolerance away, with a Wilson
95% interval that excludes fair share. Robustness: ``holds at every skill level`` when it shows in every lineup;
``only with weak players`` when it shows only in lineups of random players; ``depends on skill`` otherwise. A run
with one lineup has no robustness to report (None)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.cells import PARAMETERS, cell_table
from septima_sim.analysis.data import RunTables, Settings, collect
from septima_sim.analysis.metrics import seat_balance

HOLDS = "holds at every skill level"
DEPENDS = "depends on skill"
WEAK_ONLY = "only with weak players"
WEAK_POLICIES = frozenset({"random"})
"""Personas that count as weak players: a lineup of only these is a weak lineup."""


def setting_keys(run: RunTables) -> list[str]:
    """The columns a setting is identified by: the cell parameters but the lineup, and the override axes."""
    axes = [a for a in run.override_axes if a in run.games.collect_schema().names()]
    return [p for p in PARAMETERS if p != "lineup"] + axes


def seated_settings(run: RunTables, cells: pl.DataFrame | None = None) -> pl.LazyFrame:
    """Players with their turn-order position and their cell's override values (a join with the cell table)."""
    cells = cell_table(run) if cells is None else cells
    extra = [a for a in setting_keys(run) if a not in PARAMETERS]
    return run.seated.join(cells.lazy().select("cell_id", *extra), on="cell_id", how="left")


def setting_balance(
    run: RunTables, settings: Settings, position: str = "seat", keys: Sequence[str] | None = None
) -> pl.DataFrame:
    """Win rate per setting and seat (or turn-order position), pooled over lineups, with verdicts (seat_balance)."""
    keys = list(keys if keys is not None else setting_keys(run))
    return seat_balance(seated_settings(run), settings, by=keys, position=position)


def weak_lineups(run: RunTables) -> set[str]:
    """Lineups whose every player is a weak persona (random)."""
    table = collect(run.players.group_by("lineup").agg(pl.col("policy").unique()))
    return {lineup for lineup, policies in table.iter_rows() if set(policies) <= WEAK_POLICIES}


def by_lineup(run: RunTables, settings: Settings, position: str = "seat") -> pl.DataFrame:
    """Win rate per setting, lineup and seat (or position), for the robustness of each finding."""
    return setting_balance(run, settings, position, [*setting_keys(run), "lineup"])


def robustness(
    finding: dict[str, object],
    per_lineup: pl.DataFrame,
    keys: Sequence[str],
    weak: set[str],
    position: str,
    tolerance: float,
) -> str | None:
    """The robustness of one finding (a row of ``setting_balance``) across the lineups of its setting."""
    rows = per_lineup.filter(*(pl.col(k).eq_missing(finding[k]) for k in keys), pl.col(position) == finding[position])
    if rows["lineup"].n_unique() < 2:
        return None
    sign = 1 if float(finding["delta"]) >= 0 else -1  # type: ignore[arg-type]
    shows = {
        r["lineup"]: sign * r["delta"] >= tolerance and (r["lo"] > r["fair"] if sign > 0 else r["hi"] < r["fair"])
        for r in rows.iter_rows(named=True)
    }
    if all(shows.values()):
        return HOLDS
    if any(shows.values()) and all(lineup in weak for lineup, s in shows.items() if s):
        return WEAK_ONLY
    return DEPENDS
