"""Component impact: for every witch, animal, spell, divination goal, building and Omen half, how a player's win rate
and Wisdom differ when the component is present versus absent.

Differences are computed within each cell (same player count and modules) and pooled across cells with weights
n_present * n_absent / n, so a component common at one player count is not credited with that count's scores.
Win-rate intervals are Agresti-Caffo (each group's variance from (wins + 1) / (n + 2), so a rare component that never
or always wins still gets an honest, wide interval); Wisdom intervals are normal (Welch). p-values are
Benjamini-Hochberg adjusted over every component of the table, and components seen in fewer than
``Settings.min_component_rows`` rows are never flagged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.data import Frame, Settings, collect, in_cell, lazy
from septima_sim.analysis.expansions import MODULES, Kind, Module
from septima_sim.analysis.metrics import with_wilson
from septima_sim.analysis.stats import Z95, bh, normal_p, variance

BASE_KINDS: tuple[Kind, ...] = (
    Kind("witch", "witches_drafted"),
    Kind("spell", "spells"),
    Kind("divination goal", "goals"),
    Kind("building", "buildings", game_level=True),
)
"""The families of the base game. Game-level components are shared by every seat: they are judged on Wisdom, not on
win rate."""


def kinds(modules: Sequence[Module] = MODULES) -> tuple[Kind, ...]:
    """The families of the base game and of ``modules`` (a run's: ``RunTables.modules``)."""
    return (*BASE_KINDS, *(kind for module in modules for kind in module.kinds))


def _rows(players: Frame, games: Frame, kind: Kind, cell: str | None = None) -> pl.LazyFrame | None:
    """Per-row sufficient statistics (cell_id, rows n, wins, Wisdom sum s and sum of squares ss) with the items of
    one kind, or None when the run has no such column. Player-level kinds: one row per player; game-level kinds:
    one row per game of ``cell``, its seats summed (so the list column is never joined onto every seat)."""
    rows = lazy(players).filter(pl.col("players") > 1)
    if kind.only_when is not None:
        rows = rows.filter(pl.col(kind.only_when))
    won, wisdom = pl.col("won").cast(pl.Float64), pl.col("wisdom").cast(pl.Float64)
    if kind.game_level:
        if cell is None:
            raise ValueError("game-level components are aggregated one cell at a time")
        if kind.column not in lazy(games).collect_schema().names():
            return None
        per_game = (
            in_cell(rows, cell)
            .group_by("game_index")
            .agg(n=pl.len(), wins=won.sum(), s=wisdom.sum(), ss=(wisdom**2).sum())
        )
        items = in_cell(games, cell).select("game_index", kind.column)
        return per_game.join(items, on="game_index").select(pl.lit(cell).alias("cell_id"), pl.exclude("game_index"))
    if kind.column not in rows.collect_schema().names():
        return None
    return rows.select("cell_id", kind.column, n=pl.lit(1, pl.UInt32), wins=won, s=wisdom, ss=wisdom**2)


def _strata(players: Frame, games: Frame, kind: Kind, cells: list[str]) -> pl.DataFrame | None:
    """The per (cell, item) sums of one kind; game-level kinds are aggregated one cell at a time (memory bounded
    by the largest cell's games)."""
    if not kind.game_level:
        rows = _rows(players, games, kind)
        return None if rows is None else collect(_stratified(rows, kind.column))
    parts = []
    for cell in cells:
        rows = _rows(players, games, kind, cell)
        if rows is None:
            return None
        parts.append(collect(_stratified(rows, kind.column)))
    return pl.concat(parts, how="vertical_relaxed") if parts else None


def _stratified(rows: pl.LazyFrame, column: str) -> pl.LazyFrame:
    """Per (cell, item): present and absent counts, win and Wisdom sums and sums of squares."""
    sums = {"wins": pl.col("wins").sum(), "s": pl.col("s").sum(), "ss": pl.col("ss").sum()}
    totals = rows.group_by("cell_id").agg(N=pl.col("n").sum(), **{k.upper(): v for k, v in sums.items()})
    present = (
        rows.with_columns(pl.col(column).list.unique())
        .explode(column)
        .drop_nulls(column)
        .group_by("cell_id", pl.col(column).alias("item"))
        .agg(n1=pl.col("n").sum(), **{f"{k}1": v for k, v in sums.items()})
    )
    return present.join(totals, on="cell_id").with_columns(
        n0=pl.col("N") - pl.col("n1"),
        wins0=pl.col("WINS") - pl.col("wins1"),
        s0=pl.col("S") - pl.col("s1"),
        ss0=pl.col("SS") - pl.col("ss1"),
    )


def _pooled(strata: pl.LazyFrame) -> pl.LazyFrame:
    """Pool per-cell differences (present minus absent) of win rate and mean Wisdom per item."""
    p1, p0 = pl.col("wins1") / pl.col("n1"), pl.col("wins0") / pl.col("n0")
    q1 = (pl.col("wins1") + 1) / (pl.col("n1") + 2)  # Agresti-Caffo: never a zero variance
    q0 = (pl.col("wins0") + 1) / (pl.col("n0") + 2)
    m1, m0 = pl.col("s1") / pl.col("n1"), pl.col("s0") / pl.col("n0")

    usable = strata.filter(pl.col("n1") >= 2, pl.col("n0") >= 2).with_columns(
        w=pl.col("n1") * pl.col("n0") / pl.col("N"),
        d_win=p1 - p0,
        v_win=q1 * (1 - q1) / (pl.col("n1") + 2) + q0 * (1 - q0) / (pl.col("n0") + 2),
        d_wis=m1 - m0,
        v_wis=variance("s1", "ss1", "n1") / pl.col("n1") + variance("s0", "ss0", "n0") / pl.col("n0"),
    )
    wsum = pl.col("w").sum()
    return usable.group_by("item").agg(
        present=pl.col("n1").sum(),
        absent=pl.col("n0").sum(),
        wins_present=pl.col("wins1").sum(),
        wins_absent=pl.col("wins0").sum(),
        wisdom_present=pl.col("s1").sum() / pl.col("n1").sum(),
        wisdom_absent=pl.col("s0").sum() / pl.col("n0").sum(),
        win_effect=(pl.col("w") * pl.col("d_win")).sum() / wsum,
        win_se=(pl.col("w") ** 2 * pl.col("v_win")).sum().sqrt() / wsum,
        wisdom_effect=(pl.col("w") * pl.col("d_wis")).sum() / wsum,
        wisdom_se=(pl.col("w") ** 2 * pl.col("v_wis")).sum().sqrt() / wsum,
    )


def component_impact(
    players: Frame, games: Frame, settings: Settings, modules: Sequence[Module] = MODULES
) -> pl.DataFrame:
    """One row per component of the base game and of ``modules`` (the run's): rows present/absent, raw win rates
    (Wilson), the pooled win-rate and Wisdom effects with 95% intervals, BH-adjusted p-values, ``flagged`` and
    ``too_few`` (not flagged, and its interval is wider than ± the tolerance: too few games to tell it from no effect
    or rank it). Sorted with ``too_few`` rows last, then by the bound of the interval nearest zero (in tolerances; 0
    when the interval holds zero), then by p-value: never by a point estimate alone."""
    cells = collect(lazy(games).select(pl.col("cell_id").unique().sort()))["cell_id"].to_list()
    parts = []
    for kind in kinds(modules):
        strata = _strata(players, games, kind, cells)
        if strata is None or strata.is_empty():
            continue
        pooled = _pooled(strata.lazy())
        parts.append(pooled.with_columns(kind=pl.lit(kind.name), game_level=pl.lit(kind.game_level)))
    table = collect(pl.concat(parts, how="vertical_relaxed")) if parts else pl.DataFrame()
    if table.is_empty():
        return pl.DataFrame()
    table = with_wilson(table, "wins_present", "present", "present_").rename({"present_rate": "win_rate_present"})
    table = with_wilson(table, "wins_absent", "absent", "absent_").rename({"absent_rate": "win_rate_absent"})
    table = table.with_columns(
        win_lo=pl.col("win_effect") - Z95 * pl.col("win_se"),
        win_hi=pl.col("win_effect") + Z95 * pl.col("win_se"),
        wisdom_lo=pl.col("wisdom_effect") - Z95 * pl.col("wisdom_se"),
        wisdom_hi=pl.col("wisdom_effect") + Z95 * pl.col("wisdom_se"),
    )
    # Player-level components are judged on win rate; game-level ones (shared by every seat) on Wisdom.
    game = pl.col("game_level")
    table = table.with_columns(
        _eff=pl.when(game).then("wisdom_effect").otherwise("win_effect"),
        _se=pl.when(game).then("wisdom_se").otherwise("win_se"),
        _tol=pl.when(game).then(pl.lit(settings.wisdom_tolerance)).otherwise(pl.lit(settings.component_tolerance)),
    )
    p = [normal_p(eff, se) for eff, se in table.select("_eff", "_se").iter_rows()]
    p_adj = bh([1.0 if math.isnan(x) else x for x in p])
    table = table.with_columns(p=pl.Series(p, dtype=pl.Float64), p_adj=pl.Series(p_adj, dtype=pl.Float64))
    half = Z95 * pl.col("_se")
    table = table.with_columns(
        flagged=(pl.col("p_adj") < settings.alpha)
        & (pl.col("_eff").abs() >= pl.col("_tol"))
        & (pl.col("present") >= settings.min_component_rows),
    )
    table = table.with_columns(
        too_few=~pl.col("flagged") & ((half > pl.col("_tol")) | pl.col("_se").is_nan()),
        # the interval's bound nearest zero (0 when the interval holds zero), in tolerances: what is ranked
        _size=((pl.col("_eff").abs() - half).clip(0.0) / pl.col("_tol")).fill_nan(0.0),
    )
    return table.sort(
        ["too_few", "_size", "p_adj", "kind", "item"], descending=[False, True, False, False, False], nulls_last=True
    ).drop("_eff", "_se", "_tol", "_size", "win_se", "wisdom_se")
