"""Contrasts between settings: the expansion modules on vs off (paired by seed), persona lineups and solo games."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.data import Frame, Settings, collect, in_cell, lazy
from septima_sim.analysis.expansions import MODULES, Module
from septima_sim.analysis.metrics import seat_balance, with_wilson
from septima_sim.analysis.paired import paired
from septima_sim.analysis.stats import holm

PAIRED_METRICS: tuple[tuple[str, bool], ...] = (
    ("winning_score", False),
    ("margin", False),
    ("decisions", False),
    ("tie", True),
    ("first_player_won", True),
)
"""Per-game metrics compared between settings; the flag marks 0/1 outcomes (McNemar instead of Wilcoxon)."""


def per_game(games: Frame) -> pl.LazyFrame:
    """Games with ``first_player_won`` (the start player is among the winners, ties included)."""
    return lazy(games).with_columns(first_player_won=pl.col("winner_seats").list.contains(pl.col("start_player")))


def _cell_pairs(cells: pl.DataFrame, module: Module, others: list[str], axes: list[str]) -> pl.DataFrame:
    """Pairs of cells equal in every axis of ``others``, one with the module off and one with it on (with the
    values of the module ``axes`` of the on cell)."""
    off = cells.filter(~pl.col(module.axis)).select(*others, off="cell_id")
    on = cells.filter(pl.col(module.axis)).select(*others, on="cell_id", **{f"_{a}": a for a in axes})
    return off.join(on, on=others, nulls_equal=True).sort(*others)


def module_effects(
    games: Frame, settings: Settings, overrides: Sequence[str] = (), modules: Sequence[Module] = MODULES
) -> pl.DataFrame:
    """Each rules module on vs off (``modules``: the run's toggled ones, ``RunTables.toggled``): for each module the
    run varies, pairs of cells equal in every other axis, games paired by index (same seed), one pair of cells at a
    time; per-game metrics compared (t interval of the mean paired difference, McNemar or Wilcoxon) with
    Holm-adjusted p-values. ``overrides`` names the run's override axes (columns of ``games``)."""
    g = per_game(games)
    metrics = [m for m, _ in PAIRED_METRICS]
    present = lazy(games).collect_schema().names()
    modules = [m for m in modules if m.axis in present]
    flags = [m.axis for m in modules]
    owned = [a for m in modules for a in m.unpaired_axes if a in present]
    axes = ["players", "mode", *flags, "lineup", *overrides, *owned]
    cells = collect(g.group_by("cell_id").agg(pl.col(a).first() for a in axes))
    rows: list[dict[str, object]] = []
    for module in modules:
        if cells[module.axis].n_unique() < 2:
            continue
        others = [a for a in axes if a != module.axis and a not in module.unpaired_axes]
        other = next((a for a in flags if a != module.axis and cells[a].n_unique() > 1), None)
        for pair in _cell_pairs(cells, module, others, flags).iter_rows(named=True):
            side = [in_cell(g, pair[k]).select("game_index", "seed", *metrics) for k in ("off", "on")]
            joined = collect(side[0].join(side[1], on=["game_index", "seed"], suffix="_on"))
            head = {
                "module": module.axis,
                "players": pair["players"],
                "other_module_on": bool(pair[f"_{other}"]) if other else None,
                "setting": _label({a: pair[a] for a in others}),
            }
            for metric, binary in PAIRED_METRICS:
                res = paired(joined[metric].to_numpy(), joined[f"{metric}_on"].to_numpy(), binary=binary)
                rows.append(head | {"metric": metric} | res)
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).rename({"a": "off", "b": "on", "n_a": "pairs"}).drop("n_b")
    table = table.with_columns(p_adj=pl.Series(holm(table["p"].fill_nan(1.0).to_list()), dtype=pl.Float64))
    return table.select(
        "module", "players", "other_module_on", "setting", "metric", "pairs", "off", "on", "delta", "lo", "hi", "p",
        "p_adj",
    )  # fmt: skip


def _label(setting: dict[str, object]) -> str:
    """A short readable name for a group of axis values."""
    return ", ".join(f"{k}={v}" for k, v in setting.items() if k != "players")


def persona_matrix(players: Frame) -> pl.DataFrame:
    """Win rate of each persona in each lineup and player count, with Wilson intervals and the fair share."""
    table = collect(
        lazy(players)
        .filter(pl.col("players") > 1)
        .group_by("players", "lineup", "policy")
        .agg(games=pl.len(), wins=pl.col("won").cast(pl.Int64).sum())
        .with_columns(fair=1.0 / pl.col("players").cast(pl.Float64))
        .sort("players", "lineup", "policy")
    )
    return with_wilson(table).rename({"rate": "win_rate"}).with_columns(delta=pl.col("win_rate") - pl.col("fair"))


def seat_across_lineups(players: Frame, settings: Settings) -> pl.DataFrame:
    """Turn-order win rates per lineup: does the seat finding hold whoever sits at the table?"""
    return seat_balance(players, settings, by=("players", "lineup"), position="order")


def has_personas(players: Frame) -> bool:
    """More than one persona or lineup in the run."""
    counts = collect(lazy(players).select(pl.col("policy").n_unique(), pl.col("lineup").n_unique()))
    return counts.row(0) != (1, 1)


def solo_summary(games: Frame, settings: Settings, flag: str) -> dict[str, pl.DataFrame]:
    """Solo games (true in the solo module's flag column ``flag``, its ``ModuleSpec.name``): win rate per module
    setting against the target band, Tribulations met, the Widow's Wisdom."""
    solo = lazy(games).filter(pl.col(flag))
    lo, hi = settings.solo_band
    win = with_wilson(
        collect(
            solo.group_by("cell_id").agg(games=pl.len(), wins=pl.col("solo_won").cast(pl.Int64).sum()).sort("cell_id")
        )
    ).with_columns(
        verdict=pl.when(pl.col("hi") < lo)
        .then(pl.lit("too hard"))
        .when(pl.col("lo") > hi)
        .then(pl.lit("too easy"))
        .when((pl.col("lo") >= lo) & (pl.col("hi") <= hi))
        .then(pl.lit("ok"))
        .otherwise(pl.lit("unclear"))
    )
    out = {
        "win": win,
        "tribulations": collect(solo.group_by("tribulations_met").agg(games=pl.len()).sort("tribulations_met")),
        "widow": collect(solo.group_by("widow_wisdom").agg(games=pl.len()).sort("widow_wisdom")),
    }
    if "tribulations_failed" in solo.collect_schema().names():
        total = max(int(win["games"].sum()), 1)
        out["failed"] = collect(
            solo.select(pl.col("tribulations_failed").explode().drop_nulls())
            .group_by("tribulations_failed")
            .agg(games=pl.len())
            .with_columns(share=pl.col("games") / total)
            .sort("games", "tribulations_failed", descending=[True, False])
        )
    return out
