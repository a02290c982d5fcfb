"""What a study measures in each sample, per player count of the config, with the sampling error of one sample
(the standard error that sets the study's noise floor, ``analyze``):

- ``worst_seat``: the seat furthest from fair share (1/players), in win-rate points (2-4 players);
- ``start_player``: the start player's win rate, in percent (2-4 players);
- ``winning_score``: the winner's mean Wisdom; ``game_length``: decisions per game (every game has 20 turns);
- ``solo_win``: the solo player's win rate against the Widow, in percent (solo games);
- ``hunter_capture``: the share of hunter rolls that capture, in percent;
- ``component:<kind>:<id>`` (``--metrics components`` for all of them): each component's association effect as the
  report measures it (``analysis.components``): win-rate points when present, or Wisdom for a building or Omen half
  shared by every seat.

A metric is keyed ``<name>@<players>``; a sample's metrics are (value, standard error) pairs.
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from septima_sim.analysis import Settings, open_run
from septima_sim.analysis.components import component_impact, kinds
from septima_sim.analysis.data import RunTables, collect
from septima_sim.analysis.stats import Z95
from septima_sim.sensitivity.errors import SensitivityError

HEADLINE = ("worst_seat", "start_player", "winning_score", "game_length", "solo_win", "hunter_capture")
COMPONENTS = "components"
COMPONENT = "component"
UNITS = {
    "worst_seat": "points",
    "start_player": "%",
    "winning_score": "Wisdom",
    "game_length": "decisions",
    "solo_win": "%",
    "hunter_capture": "%",
}
Measured = dict[str, tuple[float, float]]


def parse(spec: str | None) -> tuple[str, ...]:
    """``--metrics``: names of HEADLINE, ``components`` (every component effect) or ``component:<kind>:<id>``."""
    if spec is None:
        return (*HEADLINE, COMPONENTS)
    names = [x.strip() for x in spec.split(",") if x.strip()]
    for name in names:
        if name not in (*HEADLINE, COMPONENTS) and not (name.startswith(f"{COMPONENT}:") and name.count(":") == 2):
            allowed = ", ".join((*HEADLINE, COMPONENTS, "component:<kind>:<id>"))
            raise SensitivityError(f"--metrics: unknown metric {name!r} (allowed: {allowed})")
    if not names:
        raise SensitivityError("--metrics: name at least one metric")
    return tuple(dict.fromkeys(names))


def key(name: str, players: int) -> str:
    return f"{name}@{players}"


def split_key(metric: str) -> tuple[str, int]:
    name, _, players = metric.rpartition("@")
    return name, int(players)


SHARED_KINDS = frozenset(k.name.replace(" ", "-") for k in kinds() if k.game_level)
"""Component kinds every seat shares (buildings, Omen halves): judged on Wisdom, not on a holder's win rate."""


def unit(name: str) -> str:
    """The unit of a metric's values (components: win-rate points, or Wisdom for shared ones)."""
    if name.startswith(f"{COMPONENT}:"):
        return "Wisdom" if name.split(":")[1] in SHARED_KINDS else "points"
    return UNITS[name]


def component_name(kind: str, item: str) -> str:
    """``component:divination-goal:healer``: the metric of a component (``analysis.components`` kind names)."""
    return f"{COMPONENT}:{kind.replace(' ', '-')}:{item}"


def _rate(hits: float, n: float) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    p = hits / n
    return 100 * p, 100 * math.sqrt(p * (1 - p) / n)


def _mean(values: pl.Series) -> tuple[float, float]:
    x = values.cast(pl.Float64).to_numpy()
    if x.size == 0:
        return math.nan, math.nan
    sd = float(x.std(ddof=1)) if x.size > 1 else 0.0
    return float(x.mean()), sd / math.sqrt(x.size)


def _at(run: RunTables, n: int, wanted: tuple[str, ...]) -> Measured:
    players = collect(run.players.filter(pl.col("players") == n).select("seat", "won", "captures", "hunter_rolls"))
    columns = ["start_player", "winner_seats", "winning_score", "decisions"]
    games = collect(
        run.games.filter(pl.col("players") == n).select(
            *columns, *(c for c in ("solo_won",) if c in run.games.collect_schema().names())
        )
    )
    out: Measured = {}
    g = games.height
    if n > 1 and "worst_seat" in wanted:
        rates = players.group_by("seat").agg(pl.col("won").cast(pl.Float64).mean())["won"].to_list()
        fair = 1 / n
        out["worst_seat"] = (100 * max(abs(r - fair) for r in rates), 100 * math.sqrt(fair * (1 - fair) / g))
    if n > 1 and "start_player" in wanted:
        starts = games.select(pl.col("winner_seats").list.contains(pl.col("start_player")).sum()).item()
        out["start_player"] = _rate(float(starts), g)
    if "winning_score" in wanted:
        out["winning_score"] = _mean(games["winning_score"].cast(pl.Float64))
    if "game_length" in wanted:
        out["game_length"] = _mean(games["decisions"].cast(pl.Float64))
    if n == 1 and "solo_win" in wanted and "solo_won" in games.columns:
        out["solo_win"] = _rate(float(games["solo_won"].cast(pl.Int64).sum()), g)
    if "hunter_capture" in wanted:
        rolls = float(players["hunter_rolls"].cast(pl.Int64).sum())
        out["hunter_capture"] = _rate(float(players["captures"].cast(pl.Int64).sum()), rolls)
    if n > 1 and any(w == COMPONENTS or w.startswith(f"{COMPONENT}:") for w in wanted):
        out.update(_components(run, n, wanted))
    return out


def _components(run: RunTables, n: int, wanted: tuple[str, ...]) -> Measured:
    """Each component's association effect at ``n`` players (win points, or Wisdom when shared) and its error."""
    at = pl.col("players") == n
    table = component_impact(run.players.filter(at), run.games.filter(at), Settings(), run.modules)
    out: Measured = {}
    for r in table.iter_rows(named=True):
        name = component_name(r["kind"], r["item"])
        if COMPONENTS not in wanted and name not in wanted:
            continue
        if r["game_level"]:
            value, lo, hi = r["wisdom_effect"], r["wisdom_lo"], r["wisdom_hi"]
        else:
            value, lo, hi = 100 * r["win_effect"], 100 * r["win_lo"], 100 * r["win_hi"]
        out[name] = (float(value), float(hi - lo) / (2 * Z95))
    return out


def measure(run_dir: Path, wanted: tuple[str, ...]) -> Measured:
    """A sample's metrics (``<name>@<players>`` -> (value, standard error)) from its run directory."""
    run = open_run(run_dir)
    out: Measured = {}
    for n in run.player_counts:
        out.update({key(name, n): v for name, v in _at(run, n, wanted).items()})
    return out
