"""Skill robustness: does a finding hold whoever sits at the table? Each finding of a run with more than one lineup
is re-estimated in every lineup of its setting.

A finding *shows* in a lineup when that lineup's estimate lies on the same side as the pooled one, at least the
tolerance away, with a 95% interval that excludes the neutral value (fair share for a seat or turn-order position;
no effect for a component). Verdicts: ``holds at every skill level`` when it shows in every lineup; ``only with
weak players`` when it shows only in lineups of weak personas (random); ``depends on skill`` otherwise. With one
lineup there is nothing to say (None)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import RunTables, Settings, collect

HOLDS = "holds at every skill level"
DEPENDS = "depends on skill"
WEAK_ONLY = "only with weak players"
WEAK_POLICIES = frozenset({"random"})
"""Personas that count as weak players: a lineup of only these is a weak lineup."""


def weak_lineups(run: RunTables) -> set[str]:
    """Lineups whose every player is a weak persona (random)."""
    table = collect(run.players.group_by("lineup").agg(pl.col("policy").unique()))
    return {lineup for lineup, policies in table.iter_rows() if set(policies) <= WEAK_POLICIES}


def verdict(shows: Mapping[str, bool], weak: set[str]) -> str | None:
    """The robustness of a finding from whether it shows in each lineup (None with fewer than two lineups)."""
    if len(shows) < 2:
        return None
    if all(shows.values()):
        return HOLDS
    if any(shows.values()) and all(lineup in weak for lineup, s in shows.items() if s):
        return WEAK_ONLY
    return DEPENDS


def _shows(value: float, lo: float, hi: float, neutral: float, sign: int, tolerance: float) -> bool:
    """On the finding's side of ``neutral``, at least ``tolerance`` away, the interval excluding ``neutral``."""
    return sign * (value - neutral) >= tolerance and (lo > neutral if sign > 0 else hi < neutral)


def seat_robustness(
    finding: Mapping[str, Any],
    per_lineup: pl.DataFrame,
    keys: Sequence[str],
    weak: set[str],
    position: str,
    tolerance: float,
) -> str | None:
    """A seat or turn-order finding (a row of ``fairness.setting_balance``) across the lineups of its setting
    (``per_lineup``: ``fairness.by_lineup``)."""
    rows = per_lineup.filter(*(pl.col(k).eq_missing(finding[k]) for k in keys), pl.col(position) == finding[position])
    sign = 1 if float(finding["delta"]) >= 0 else -1
    shows = {
        r["lineup"]: _shows(r["win_rate"], r["lo"], r["hi"], r["fair"], sign, tolerance)
        for r in rows.iter_rows(named=True)
    }
    return verdict(shows, weak)


def component_robustness(run: RunTables, comps: pl.DataFrame, settings: Settings) -> dict[tuple[str, str], str]:
    """For each flagged component of ``comps`` (component_impact of the whole run): its robustness across the run's
    lineups (the component's effect re-estimated on each lineup's games alone). Empty with one lineup."""
    flagged = comps.filter(pl.col("flagged")) if not comps.is_empty() else comps
    lineups = collect(run.games.select(pl.col("lineup").unique().sort()))["lineup"].to_list()
    if flagged.is_empty() or len(lineups) < 2:
        return {}
    weak = weak_lineups(run)
    per = {
        lineup: component_impact(
            run.players.filter(pl.col("lineup") == lineup), run.games.filter(pl.col("lineup") == lineup), settings
        )
        for lineup in lineups
    }
    out = {}
    for r in flagged.iter_rows(named=True):
        metric, tol = (
            ("wisdom", settings.wisdom_tolerance) if r["game_level"] else ("win", settings.component_tolerance)
        )
        sign = 1 if r[f"{metric}_effect"] >= 0 else -1
        shows = {}
        for lineup, table in per.items():
            row = table.filter(kind=r["kind"], item=r["item"]) if not table.is_empty() else table
            if row.height != 1:
                shows[lineup] = False
                continue
            x = row.row(0, named=True)
            shows[lineup] = _shows(x[f"{metric}_effect"], x[f"{metric}_lo"], x[f"{metric}_hi"], 0.0, sign, tol)
        result = verdict(shows, weak)
        if result is not None:
            out[(r["kind"], r["item"])] = result
    return out
