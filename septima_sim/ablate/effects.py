"""Causal effects of one component from common-random-number pairs: game ``i`` of the unchanged game and game ``i``
of the game without the component were dealt from the same seed, so each per-game difference compares the same
table with and without it, never who happened to hold what.

Effect = unchanged minus without (positive: the component helps). Per cell (player count and module mix):

- player-level kinds (witch, spell, goal, animal): the seat that holds it in the unchanged game (for an animal, the
  seat of its colour), paired with the same seat in the same game without it: win rate (points) and Wisdom;
- game-level kinds (building, Omen): every seat's mean Wisdom in the games where it is in play (no seat holds it,
  so there is no holder win rate);
- forced arm (``forced``): the seat the component was forced to, its win rate and Wisdom in the forced game minus
  the same seat's in the same unchanged game (every game of the cell is a pair; positive: it helps the seat);
- detail: each seat's win rate over every paired game, and the winning score (forced arm: forced minus unchanged).

Intervals are the t intervals of the mean per-game difference and p-values the exact McNemar test (wins) or the
Wilcoxon signed-rank test (Wisdom, scores), from ``analysis.paired``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from septima_sim import store
from septima_sim.ablate.kinds import Kind
from septima_sim.analysis.paired import paired

KEYS = ("cell_id", "game_index")
SEAT_KEYS = (*KEYS, "seat")


@dataclass(frozen=True, slots=True)
class Frames:
    """The columns the effects need from one run: one row per (game, seat) and one per game."""

    players: pl.DataFrame
    games: pl.DataFrame


def load(run_dir: Path, kinds: Sequence[Kind] = (), games: int | None = None) -> Frames:
    """A run's players and games (the first ``games`` of each cell when given), narrowed to what ``effects`` reads
    (the list columns of ``kinds`` included)."""
    players, games_lf = store.scan(run_dir, "players"), store.scan(run_dir, "games")
    if players is None or games_lf is None:
        return Frames(pl.DataFrame(), pl.DataFrame())
    pcols = [*SEAT_KEYS, "players", "colour", "won", "wisdom", *(k.column for k in kinds if not k.game_level)]
    needs = [k.needs for k in kinds if k.needs not in (None, "full")]
    gcols = [*KEYS, "players", "mode", "winning_score", *(k.column for k in kinds if k.game_level), *needs]
    have_p, have_g = players.collect_schema().names(), games_lf.collect_schema().names()
    first = pl.col("game_index") < games if games is not None else pl.lit(True)
    return Frames(
        players.filter(first).select(c for c in dict.fromkeys(pcols) if c in have_p).collect(),
        games_lf.filter(first).select(c for c in dict.fromkeys(gcols) if c in have_g).collect(),
    )


def in_play(kind: Kind, frames: Frames) -> Frames:
    """The frames narrowed to the cells where the kind is in play (its ``needs``: the Full game, or a module on)."""
    column = "mode" if kind.needs == "full" else kind.needs
    if column is None or column not in frames.games.columns:
        return frames
    on = pl.col("mode") == "full" if kind.needs == "full" else pl.col(column)
    cells = frames.games.filter(on).select("cell_id").unique()
    return Frames(
        frames.players.join(cells, on="cell_id", how="semi"), frames.games.join(cells, on="cell_id", how="semi")
    )


@dataclass(frozen=True, slots=True)
class Effect:
    """One component in one cell: pairs, the primary effect (holder win points, or Wisdom for shared components)
    with its sample mean/variance (for interim intervals), the Wisdom effect, and the p-value."""

    cell: str
    players: int
    games: int
    win: dict[str, float] | None
    wisdom: dict[str, float]
    label: str = ""
    """The row's ``component`` when it is not the arm's component id (a swap's ``seat:<colour>`` and
    ``tiles:<ids>`` rows)."""

    @property
    def primary(self) -> dict[str, float]:
        """The metric the component is judged on: the holder's win rate, or Wisdom when nobody holds it."""
        return self.win if self.win is not None else self.wisdom


def _stats(a: np.ndarray, b: np.ndarray, *, binary: bool, scale: float = 1.0) -> dict[str, float]:
    out = paired(a, b, binary=binary)
    d = (b.astype(float) - a.astype(float)) * scale
    var = float(d.var(ddof=1)) if d.size > 1 else math.nan
    bound = scale if binary else math.inf  # a difference of 0/1 outcomes lies in [-1, 1]
    return {
        "n": out["n_a"],
        "delta": out["delta"] * scale,
        "lo": max(-bound, out["lo"] * scale),
        "hi": min(bound, out["hi"] * scale),
        "p": out["p"],
        "var": var,
    }


def effects(kind: Kind, ident: str, base: Frames, without: Frames, by: str = "cell_id") -> list[Effect]:
    """The component's effect in every cell where it was in play in the unchanged game and has pairs (``by =
    "players"``: the cells of each player count pooled, for a target judged per player count)."""
    if base.players.is_empty() or without.players.is_empty():
        return []
    if kind.game_level:
        if kind.column not in base.games.columns:
            return []
        in_play = base.games.filter(pl.col(kind.column).list.contains(ident)).select(*KEYS, "players")
        mean_b = base.players.group_by(KEYS).agg(w_b=pl.col("wisdom").cast(pl.Float64).mean())
        mean_a = without.players.group_by(KEYS).agg(w_a=pl.col("wisdom").cast(pl.Float64).mean())
        pairs = in_play.join(mean_b, on=KEYS).join(mean_a, on=KEYS)
    else:
        if kind.column not in base.players.columns:
            return []
        holders = base.players.filter(pl.col(kind.column).list.contains(ident))
        pairs = holders.select(*SEAT_KEYS, "players", won_b="won", w_b="wisdom").join(
            without.players.select(*SEAT_KEYS, won_a="won", w_a="wisdom"), on=SEAT_KEYS
        )
    return per_cell(pairs, by, game_level=kind.game_level)


def forced(seat: int, base: Frames, arm: Frames, by: str = "cell_id") -> list[Effect]:
    """The forced arm's effect in every cell with that seat: the seat's win (and Wisdom) in the game where the
    component was forced to it minus the same seat's in the same unchanged game (positive: it helps the seat)."""
    if base.players.is_empty() or arm.players.is_empty():
        return []
    at = pl.col("seat") == seat
    pairs = (
        base.players.filter(at)
        .select(*SEAT_KEYS, "players", won_a="won", w_a="wisdom")
        .join(arm.players.filter(at).select(*SEAT_KEYS, won_b="won", w_b="wisdom"), on=SEAT_KEYS)
    )
    return per_cell(pairs, by, game_level=False)


def per_cell(pairs: pl.DataFrame, by: str, *, game_level: bool) -> list[Effect]:
    """Effects of paired rows (``*_b`` minus ``*_a``: win and Wisdom, or Wisdom only for shared components)."""
    out = []
    order = SEAT_KEYS if not game_level else KEYS
    for (cell,), grp in pairs.sort(*dict.fromkeys((by, *order))).group_by(by, maintain_order=True):
        if grp.height < 2:
            continue
        wisdom = _stats(grp["w_a"].to_numpy(), grp["w_b"].to_numpy(), binary=False)
        win = None
        if not game_level:
            win = _stats(grp["won_a"].to_numpy(), grp["won_b"].to_numpy(), binary=True, scale=100.0)
        out.append(Effect(str(cell), int(grp["players"][0]), grp.height, win, wisdom))
    return sorted(out, key=lambda e: e.cell)


def detail(base: Frames, without: Frames) -> list[dict[str, object]]:
    """Per cell: each seat's win-rate effect (points) over every paired game, and the winning score's effect."""
    rows: list[dict[str, object]] = []
    seats = base.players.select(*SEAT_KEYS, "players", "colour", won_b="won").join(
        without.players.select(*SEAT_KEYS, won_a="won"), on=SEAT_KEYS
    )
    for (cell, seat), grp in seats.sort(SEAT_KEYS).group_by("cell_id", "seat", maintain_order=True):
        s = _stats(grp["won_a"].to_numpy(), grp["won_b"].to_numpy(), binary=True, scale=100.0)
        rows.append(_row(str(cell), int(grp["players"][0]), f"seat {seat} ({grp['colour'][0]}) win points", s))
    scores = base.games.select(*KEYS, "players", s_b="winning_score").join(
        without.games.select(*KEYS, s_a="winning_score"), on=KEYS
    )
    for (cell,), grp in scores.sort(KEYS).group_by("cell_id", maintain_order=True):
        s = _stats(grp["s_a"].to_numpy(), grp["s_b"].to_numpy(), binary=False)
        rows.append(_row(str(cell), int(grp["players"][0]), "winning score", s))
    return rows


def _row(cell: str, players: int, metric: str, s: dict[str, float]) -> dict[str, object]:
    return {
        "players": players,
        "cell": cell,
        "metric": metric,
        "games": int(s["n"]),
        "effect": s["delta"],
        "ci_low": s["lo"],
        "ci_high": s["hi"],
        "p": s["p"],
    }
