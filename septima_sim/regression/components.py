"""Per-component metrics of the balance check (issue #28): for every witch and spell of the content pack, the win rate
and the Wisdom of the seats that held it (a witch: drafted; a spell: held at the end), over every multiplayer cell
of the config (spells: Full cells), baseline against current.

Each is a ratio (the holders' wins or Wisdom over the number of holders), compared on the paired games of both sides:
per game, the sum over the seats that held the card and their number (``Metric.xw``/``yw``), the delta's standard
error by the delta method. A card held in fewer than ``MIN_HELD`` seat-games on either side cannot be judged: its
metrics are ``untested`` (named in the table, never counted as passing) and stay out of the multiple-testing
correction."""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl

from septima_sim.content import Content
from septima_sim.experiment import Experiment
from septima_sim.regression.metrics import Metric
from septima_sim.regression.outcomes import HOLDER_COLUMNS, Outcomes

COMPONENTS: tuple[tuple[str, str, bool], ...] = (("witch", "witches_drafted", False), ("spell", "spells", True))
"""(kind, the per-seat column that lists them, Full mode only)."""
MIN_HELD = 30
"""Seat-games holding a card, on each side, below which its metrics are untested."""
HOLDER_KINDS: tuple[tuple[str, str], ...] = (("holder_win_rate", "won"), ("holder_wisdom", "wisdom"))
"""(metric kind, the per-seat value it averages over the holders)."""
CELL = "components"
"""The first word of a component metric's id (where a per-cell metric names its cell)."""


def _sums(exp: Experiment, outcomes: Outcomes, column: str, full_only: bool) -> pl.DataFrame | None:
    """Per (cell, game, component held by some seat): the holders' number ``n``, wins and Wisdom, summed over seats
    (None when a cell lacks the holder columns)."""
    parts = []
    for cell in exp.cells:
        if cell.players < 2 or (full_only and cell.mode != "full") or cell.id not in outcomes:
            continue
        frame = outcomes[cell.id]
        for seat in range(cell.players):
            if any(f"{c}_{seat}" not in frame.columns for c in ("won", *HOLDER_COLUMNS)):
                return None
            parts.append(
                frame.select(
                    pl.lit(cell.id).alias("cell"),
                    "game_index",
                    component=pl.col(f"{column}_{seat}").list.unique(),
                    won=pl.col(f"won_{seat}").cast(pl.Float64),
                    wisdom=pl.col(f"wisdom_{seat}").cast(pl.Float64),
                ).explode("component")
            )
    if not parts:
        return None
    rows = pl.concat(parts).drop_nulls("component")
    return rows.group_by("cell", "game_index", "component").agg(
        n=pl.len().cast(pl.Float64), won=pl.sum("won"), wisdom=pl.sum("wisdom")
    )


def component_metrics(exp: Experiment, content: Content, base: Outcomes, cur: Outcomes) -> Iterator[Metric]:
    """For every witch and spell of `content`: its holders' win rate and Wisdom per game, baseline against current,
    on the games both sides played; none when either side lacks the holder columns (a baseline written before)."""
    ids = {"witch": [w.id for w in content.witches], "spell": [s.id for s in content.spells]}
    for kind, column, full_only in COMPONENTS:
        before, now = _sums(exp, base, column, full_only), _sums(exp, cur, column, full_only)
        if before is None or now is None:
            continue
        games = pl.concat(
            [
                pl.DataFrame({"cell": cell.id, "game_index": cur[cell.id]["game_index"]})
                for cell in exp.cells
                if cell.players > 1 and (cell.mode == "full" or not full_only) and cell.id in cur
            ]
        )
        for item in ids[kind]:
            sides = []
            for sums in (before, now):
                held = sums.filter(pl.col("component") == item).drop("component")
                sides.append(games.join(held, on=["cell", "game_index"], how="left").fill_null(0.0))
            x, y = sides
            for metric_kind, value in HOLDER_KINDS:
                yield Metric(
                    f"{CELL} {metric_kind}[{kind} {item}]",
                    metric_kind,
                    x[value].to_numpy(),
                    y[value].to_numpy(),
                    binary=value == "won",
                    xw=x["n"].to_numpy(),
                    yw=y["n"].to_numpy(),
                )
