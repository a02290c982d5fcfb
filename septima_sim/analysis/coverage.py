"""Coverage (issue #28): for every witch and spell (and every player-chosen module component), in how many of a
lineup's games some seat chose it. A component the players never take leaves the report's findings about it resting
on a handful of games; ``rare`` names those, so the report can say so at the top.

``available`` counts the lineup's multiplayer games where the component's kind is in play (its module on; spells in
Full mode only); ``chosen`` the games in which at least one seat held it (a witch: drafted; a spell: held at the end).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import polars as pl

from septima_sim.analysis.components import kinds
from septima_sim.analysis.data import Frame, collect, lazy
from septima_sim.analysis.expansions import MODULES, Kind, Module

RARE_RATE = 0.01
"""A component chosen in fewer than this share of the games where it was available is named in the warning."""
FULL_ONLY = frozenset({"spell"})
"""Kinds that exist in Full mode only."""
COLUMNS = ("kind", "component", "lineup", "games", "available", "chosen", "chosen_rate")


def chosen_kinds(modules: Sequence[Module] = MODULES) -> tuple[Kind, ...]:
    """The kinds a seat chooses, of the base game and of ``modules`` (game-level components such as buildings and
    Omens are dealt, not chosen; goals are dealt too)."""
    return tuple(k for k in kinds(modules) if not k.game_level and k.name != "divination goal")


def coverage(
    players: Frame, universe: Mapping[str, Iterable[str]] | None = None, modules: Sequence[Module] = MODULES
) -> pl.DataFrame:
    """One row per (kind, component, lineup): the ``COLUMNS``. ``universe`` lists every component of each kind
    (the content pack's ids), so a component no seat ever chose gets a row with 0; without it, only the components
    seen in the run. ``modules``: the run's (``RunTables.modules``)."""
    rows = lazy(players).filter(pl.col("players") > 1)
    names = rows.collect_schema().names()
    if "lineup" not in names:
        return pl.DataFrame(schema=dict.fromkeys(COLUMNS, pl.Utf8))
    game = ["lineup", "cell_id", "game_index"]
    games = collect(rows.group_by("lineup").agg(games=pl.struct("cell_id", "game_index").n_unique()))
    parts = []
    for kind in chosen_kinds(modules):
        if kind.column not in names:
            continue
        applies = rows
        if kind.only_when is not None:
            applies = applies.filter(pl.col(kind.only_when))
        if kind.name in FULL_ONLY:
            applies = applies.filter(pl.col("mode") == "full")
        available = collect(applies.group_by("lineup").agg(available=pl.struct("cell_id", "game_index").n_unique()))
        chosen = collect(
            applies.select(*game, pl.col(kind.column).alias("component"))
            .explode("component")
            .drop_nulls("component")
            .unique()
            .group_by("lineup", "component")
            .agg(chosen=pl.len())
        )
        items = sorted(set(universe.get(kind.name, ())) if universe else set()) or sorted(
            chosen["component"].unique().to_list()
        )
        grid = available.join(pl.DataFrame({"component": items}, schema={"component": pl.Utf8}), how="cross")
        part = grid.join(chosen, on=["lineup", "component"], how="left").with_columns(
            pl.col("chosen").fill_null(0), kind=pl.lit(kind.name)
        )
        parts.append(part)
    if not parts:
        return pl.DataFrame(schema=dict.fromkeys(COLUMNS, pl.Utf8))
    table = pl.concat(parts, how="vertical_relaxed").join(games, on="lineup")
    table = table.with_columns(chosen_rate=pl.col("chosen") / pl.col("available").clip(1))
    return table.select(COLUMNS).sort("kind", "component", "lineup")


def rare(table: pl.DataFrame, rate: float = RARE_RATE) -> pl.DataFrame:
    """The rows of components chosen in fewer than `rate` of the games where they were available."""
    if table.is_empty():
        return table
    return table.filter(pl.col("available") > 0, pl.col("chosen_rate") < rate)


def warning(table: pl.DataFrame, rate: float = RARE_RATE) -> str | None:
    """One sentence naming every component a lineup chose in fewer than `rate` of its games, per lineup, or None."""
    few = rare(table, rate)
    if few.is_empty():
        return None
    parts = []
    for (lineup,), group in few.sort("lineup", "kind", "component").group_by("lineup", maintain_order=True):
        names = ", ".join(f"{r['kind']} {r['component']} ({r['chosen']})" for r in group.iter_rows(named=True))
        games = int(group["available"].max())  # type: ignore[arg-type]  # an integer column's maximum
        parts.append(f"{lineup!s} (of {games:,} games): {names}")
    return (
        f"Players rarely or never chose these components (fewer than {rate:.0%} of the games where they were "
        "available; games in brackets), so the findings about them rest on that many games: " + "; ".join(parts) + "."
    )
