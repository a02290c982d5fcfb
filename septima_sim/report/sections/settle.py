"""How many more games would settle each "unclear" verdict (issue 30), for the seat table and the causal effects:
the games after which an interval of the same level around the same estimate would clear the band edge nearest to
it (``analysis.power.more_to_settle``; the spread per game as observed so far, so a guide, not a promise)."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable
from pathlib import Path

import polars as pl

from septima_sim.analysis.power import MAX_GAMES, more_to_settle
from septima_sim.analysis.stats import t_interval
from septima_sim.report.page import Table


def _more(n: int | None) -> str:
    return f"{n:,}" if n is not None else f"more than {MAX_GAMES:,} (on the band edge)"


def seat_table(
    by_setting: pl.DataFrame, tolerance: float, name: Callable[[dict[str, object]], str], alpha: float = 0.05
) -> Table | None:
    """The seat verdicts that are unclear: win rate, games so far and more games per cell to settle them (``ok``:
    the 95% interval inside fair ± tolerance; ``flagged``, when the estimate is beyond the band: clear of fair at the
    Holm adjustment's strictest level, alpha / the table's rows)."""
    rows = []
    level = 1 - alpha / max(1, by_setting.height)
    for r in by_setting.filter(pl.col("verdict") == "unclear").iter_rows(named=True):
        delta, rate, games = float(r["delta"]), float(r["win_rate"]), int(r["games"])
        inside = abs(delta) < tolerance
        edges = (-tolerance, tolerance) if inside else (0.0,)
        sd = math.sqrt(rate * (1 - rate))
        more = more_to_settle(delta, sd, games, tolerance, level=0.95 if inside else level, edges=edges)
        towards = "ok" if inside else "flagged"
        rows.append([str(r["setting"]), name(r), f"{rate * 100:.1f}%", f"{games:,}", _more(more), towards])
    if not rows:
        return None
    return Table(
        "Unclear seats: how many more games would settle them",
        ["setting", "seat", "win rate", "games", "more games per cell", "settles as"],
        rows,
    )


def ablation_tolerance(folder: Path) -> float:
    """The band (win points) the ablation in ``folder`` judged its effects by (``ablate.toml``; else the default)."""
    from septima_sim.report.ablation.table import DEFAULT_TOLERANCE, RESOLVED

    try:
        with (folder / RESOLVED).open("rb") as f:
            return float(tomllib.load(f)["tolerance"])
    except (OSError, tomllib.TOMLDecodeError, KeyError, TypeError, ValueError):
        return DEFAULT_TOLERANCE


def causal_table(frame: pl.DataFrame, tolerance: float, wisdom_tolerance: float) -> Table | None:
    """The causal effects whose interval straddles a band edge (neither inside nor beyond it): more paired games
    per cell until it clears the nearest edge (the per-pair spread from the row's interval)."""
    rows = []
    for r in frame.iter_rows(named=True):
        lo, hi, games = r["ci_low"], r["ci_high"], int(r["games"])
        held = r["effect_win_points"] is not None
        band = tolerance if held else wisdom_tolerance
        if lo is None or hi is None or games < 2 or (-band < lo and hi < band) or lo >= band or hi <= -band:
            continue
        effect = float(r["effect_win_points"] if held else r["effect_wisdom"])
        half = t_interval(0.0, 1.0, games)[1]  # the interval's half-width per unit sd
        sd = (float(hi) - float(lo)) / 2 / half
        more = more_to_settle(effect, sd, games, band)
        unit = "points" if held else "Wisdom"
        what = f"{r['kind']} {r['component']}"
        rows.append([what, str(r.get("arm") or "removed"), str(r["cell"]), f"{effect:+.1f} {unit}", f"{games:,}"])
        rows[-1].append(_more(more))
    if not rows:
        return None
    return Table(
        "Unclear causal effects: how many more paired games would settle them",
        ["component", "arm", "cell", "effect", "pairs", "more games per cell"],
        rows,
    )
