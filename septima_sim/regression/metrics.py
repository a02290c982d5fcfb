"""The compared quantities: per-game values of every metric of every cell, baseline and current paired by game
index, plus the module effects (on minus off)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
import polars as pl

from septima_sim.analysis.expansions import AXES
from septima_sim.engine.modules import MODULES
from septima_sim.experiment import Cell, Experiment
from septima_sim.regression.outcomes import Outcomes

MODULE_AXES: tuple[str, ...] = AXES
"""Boolean axes whose on-minus-off effect (paired by game index) is compared when the config has both values."""
EFFECT_OF: tuple[str, ...] = ("winning_score", "decisions")

MetricKind = Literal[
    "win_rate",
    "solo_win_rate",
    "winning_score",
    "winning_score_sd",
    "margin",
    "turns",
    "decisions",
    "tie_rate",
    "suspicion_end",
    "capture_rate",
    "effect_winning_score",
    "effect_decisions",
    "holder_win_rate",
    "holder_wisdom",
]


@dataclass(frozen=True, slots=True)
class Metric:
    """One compared quantity: per-game values in the baseline (``x``) and now (``y``), paired by game index. A ratio
    metric (``xw`` and ``yw`` set: the holders of a card, ``regression.components``) compares ``sum(x) / sum(xw)``
    with ``sum(y) / sum(yw)``: per game, the sum of a value over the seats that held the card and their number."""

    id: str
    kind: str
    x: np.ndarray
    y: np.ndarray
    spread: bool = False
    binary: bool = False
    xw: np.ndarray | None = None
    yw: np.ndarray | None = None

    @property
    def held(self) -> int:
        """A ratio metric's denominator on its rarer side (seat-games holding the card); games otherwise."""
        if self.xw is None or self.yw is None:
            return len(self.x)
        return int(min(self.xw.sum(), self.yw.sum()))


def _seat_mean(frame: pl.DataFrame, column: str, expr: Callable[[pl.Expr], pl.Expr] = lambda e: e) -> pl.Series:
    cols = [c for c in frame.columns if c.rsplit("_", 1)[0] == column]
    return frame.select(pl.mean_horizontal(expr(pl.col(c)).cast(pl.Float64) for c in cols)).to_series()


def _series(frame: pl.DataFrame, kind: str, seat: int = 0) -> pl.Series | None:
    """The per-game values of a metric kind in one cell (None when the cell has no such column)."""
    column = {
        "win_rate": f"won_{seat}",
        "solo_win_rate": "solo_won",
        "winning_score": "winning_score",
        "winning_score_sd": "winning_score",
        "margin": "margin",
        "turns": "turns",
        "decisions": "decisions",
        "tie_rate": "tie",
    }.get(kind)
    if kind == "suspicion_end":
        return _seat_mean(frame, "suspicion_end")
    if kind == "capture_rate":
        return _seat_mean(frame, "captures", lambda e: e > 0)
    return frame[column] if column in frame.columns else None


_CELL_KINDS: tuple[str, ...] = tuple(
    k for k in get_args(MetricKind) if k != "win_rate" and not k.startswith(("effect_", "holder_"))
)
"""Per-cell metric kinds (per-seat win rates, module effects and per-component metrics are built separately)."""
_BINARY = {"win_rate", "solo_win_rate", "tie_rate"}


def _metric(metric_id: str, kind: str, x: pl.Series | None, y: pl.Series | None) -> Metric | None:
    """A metric from two per-game series (None when a side lacks it or no game is paired)."""
    if x is None or y is None or not len(x):
        return None
    spread, binary = kind.endswith("_sd"), kind in _BINARY
    return Metric(metric_id, kind, x.to_numpy().astype(float), y.to_numpy().astype(float), spread, binary)


def metrics(exp: Experiment, base: Outcomes, cur: Outcomes) -> Iterator[Metric]:
    """Every metric of every cell, plus module effects, on the games both sides played (paired by index), one at a
    time: only one metric's per-game arrays exist at once, whatever the number of games."""
    return (m for m in _candidates(exp, base, cur) if m is not None)


def _candidates(exp: Experiment, base: Outcomes, cur: Outcomes) -> Iterator[Metric | None]:
    pairs: dict[str, tuple[pl.DataFrame, pl.DataFrame]] = {}
    for cell in exp.cells:
        if cell.id in cur:
            joined = base[cell.id].join(cur[cell.id].select("game_index"), on="game_index")
            pairs[cell.id] = (joined, cur[cell.id].join(joined.select("game_index"), on="game_index"))
    for cell in exp.cells:
        if cell.id not in pairs:
            continue
        b, c = pairs[cell.id]
        if cell.players > 1:
            for seat in range(cell.players):
                won = (_series(b, "win_rate", seat), _series(c, "win_rate", seat))
                yield _metric(f"{cell.id} win_rate[seat {seat}]", "win_rate", *won)
        for kind in _CELL_KINDS:
            yield _metric(f"{cell.id} {kind}", kind, _series(b, kind), _series(c, kind))
    for axis in MODULE_AXES:
        for on in exp.cells:
            off = _module_off(exp, on, axis)
            if off is None or on.id not in pairs or off.id not in pairs:
                continue
            n = min(pairs[on.id][0].height, pairs[off.id][0].height)
            for of in EFFECT_OF:
                sides = [(_series(pairs[on.id][i], of), _series(pairs[off.id][i], of)) for i in (0, 1)]
                if all(a is not None and b is not None for a, b in sides):
                    xs, ys = (a[:n] - b[:n] for a, b in sides)  # type: ignore[index]
                    yield _metric(f"{on.id} effect[{axis}] on {of}", f"effect_{of}", xs, ys)


def _module_off(exp: Experiment, on: Cell, axis: str) -> Cell | None:
    """The cell equal to ``on`` but with module ``axis`` off (None if ``on`` has it off or the config lacks it);
    the axes the module owns take their off values (``ModuleSpec.cell_axes``: Omens off = Omen deck ``none``)."""
    if axis not in on.modules:
        return None
    want = {**on.axis_values(), axis: False, **dict(MODULES[axis].cell_axes)}
    return next((c for c in exp.cells if c.axis_values() == want), None)
