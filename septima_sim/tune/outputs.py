"""The files of a tune folder besides the report: ``best.toml`` (the patch), ``trials.csv``, ``confirmation.csv``,
and the plain-language headline that opens the report."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import optuna
import polars as pl
import tomli_w

from septima_sim.tune import space
from septima_sim.tune.confirm import Confirmation
from septima_sim.tune.schema import Component, TuneConfig
from septima_sim.tune.targets import Measure

CONFIRMATION_COLUMNS = ("target", "players", "metric", "baseline", "best", "ci_low", "ci_high", "verdict")

_METRIC = {
    "seat_fairness": "worst seat's distance from fair share (points)",
    "first_player": "start player's win rate (%)",
    "skill_gap": "stronger persona ahead of weaker, points above 50",
    "winning_score": "mean winning score",
    "game_length": "mean decisions per game",
    "component": "component's causal effect (win points of its holder; Wisdom if shared)",
}


def write_best(cfg: TuneConfig, conf: Confirmation, out: Path) -> Path:
    """``best.toml``: a runnable experiment config (the confirmation's games, seeds and base matrix) whose
    ``[overrides]`` block is the patch; ``septima-sim run best.toml`` replays the confirmed numbers."""
    data: dict[str, Any] = {
        "name": f"{cfg.name}-best",
        "games_per_cell": conf.games,
        "seed": conf.seed,
        "shard_size": min(conf.games, 500),
        **({"content": cfg.content} if cfg.content else {}),
        "matrix": cfg.base.model_dump(),
        **({"lineups": cfg.lineups} if cfg.lineups else {}),
        "overrides": {path: [value] for path, value in conf.best.values.items()},
    }
    header = (
        f"# The patch chosen by `septima-sim tune` (study {cfg.name}, trial {conf.best.number}):\n"
        f"# {headline(cfg, conf)}\n"
        "# Copy the [overrides] block into any experiment config (or pass --content best-pack, the pack with these\n"
        "# values written in), or run this file to replay the confirmation.\n\n"
    )
    path = out / "best.toml"
    path.write_text(header + tomli_w.dumps(data))
    return path


def _cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, list | dict) else value


def trials_frame(study: optuna.Study, cfg: TuneConfig) -> pl.DataFrame:
    """One row per trial: number, state, parameter values, objective (a pruned trial's last rung), games, losses."""
    names = list(cfg.targets.named())
    rows = []
    for t in study.trials:
        values = space.overrides(t.params)
        objective = t.value
        if objective is None and t.intermediate_values:
            objective = t.intermediate_values[max(t.intermediate_values)]
        losses = json.loads(t.user_attrs.get("losses", "{}"))
        rows.append(
            {
                "number": t.number,
                "state": t.state.name.lower(),
                **{path: _cell(values.get(path)) for path in cfg.space},
                "objective": objective,
                "games": t.user_attrs.get("games", 0),
                **{f"loss_{n}": losses.get(n) for n in names},
            }
        )
    schema: dict[str, Any] = {"number": pl.Int64, "state": pl.String}
    for path in cfg.space:
        kinds = {type(r[path]) for r in rows if r[path] is not None}
        schema[path] = pl.String if (str in kinds or not kinds) else pl.Float64 if float in kinds else pl.Int64
    schema |= {"objective": pl.Float64, "games": pl.Int64, **{f"loss_{n}": pl.Float64 for n in names}}
    return pl.DataFrame(rows, schema=schema, orient="row") if rows else pl.DataFrame(schema=schema)


def confirmation_frame(conf: Confirmation) -> pl.DataFrame:
    """One row per target and player count: the baseline's and the best's metric, the best's interval, verdict."""
    base = {(m.target, m.players): m for m in conf.baseline.measures}
    rows = [
        {
            "target": m.target,
            "players": m.players,
            "metric": _METRIC[m.target],
            "baseline": base[(m.target, m.players)].metric,
            "best": m.metric,
            "ci_low": m.ci_low,
            "ci_high": m.ci_high,
            "verdict": m.verdict,
        }
        for m in conf.best.measures
    ]
    return pl.DataFrame(
        rows,
        schema=dict.fromkeys(CONFIRMATION_COLUMNS, pl.String)
        | {
            "players": pl.Int64,
            "baseline": pl.Float64,
            "best": pl.Float64,
            "ci_low": pl.Float64,
            "ci_high": pl.Float64,
        },
    )


def _counts(values: list[int]) -> str:
    text = ", ".join(map(str, values[:-1])) + (" and " if len(values) > 1 else "") + str(values[-1])
    return f"{text} player{'s' if values != [1] else ''}"


def _claim(cfg: TuneConfig, target: str, players: list[int]) -> str:
    t = cfg.targets.named()[target]
    at = _counts(players)
    if target == "seat_fairness":
        return f"every seat is within ±{t.band:g} points of fair at {at}"  # type: ignore[attr-defined]
    if target == "first_player":
        centre = f"{t.target:g}%" if t.target is not None else "fair share"  # type: ignore[attr-defined]
        return f"the start player wins {centre} ± {t.band:g} points at {at}"  # type: ignore[attr-defined]
    if target == "skill_gap":
        return f"{t.stronger} beats {t.weaker} by at least {t.min:g} points at {at}"  # type: ignore[attr-defined]
    if isinstance(t, Component):
        return f"{t.kind} {t.id}'s causal effect is within {t.target:+g} ± {t.band:g} points at {at}"
    what = "the winning score" if target == "winning_score" else "the game length (decisions)"
    return f"{what} is between {t.low:g} and {t.high:g} at {at}"  # type: ignore[attr-defined]


def headline(cfg: TuneConfig, conf: Confirmation) -> str:
    """The report's first line, e.g. "With goat tile = [...], every seat is within ±2.5 points of fair at 4 players
    (confirmed on 4,000 fresh games)"."""
    best = conf.best
    what = space.describe(best.values)
    by_target: dict[str, list[Measure]] = {}
    for m in best.measures:
        by_target.setdefault(m.target, []).append(m)
    passed = [n for n, ms in by_target.items() if all(m.verdict == "pass" for m in ms)]
    games = f"{conf.games:,} fresh games per cell"
    claims = "; ".join(_claim(cfg, n, [m.players for m in by_target[n]]) for n in by_target)
    if len(passed) == len(by_target):
        return f"With {what}, {claims} (confirmed on {games})."
    failed = any(m.verdict == "fail" for m in best.measures)
    worst = max(best.measures, key=lambda m: m.loss)
    verdict = "it is not true" if failed else "it is not confirmed"
    return f"With {what}, {verdict} that {claims}: {_found(worst, _baseline(conf, worst))}, on {games}."


def _found(m: Measure, baseline: float) -> str:
    """What the confirmation measured for one target, in words."""
    interval = f"[{m.ci_low:.1f}, {m.ci_high:.1f}]"
    at = f"at {m.players} players"
    if m.target == "seat_fairness":
        return f"the worst seat is {m.metric:.1f} points from fair {interval} {at} (baseline {baseline:.1f})"
    if m.target == "first_player":
        return f"the start player wins {m.metric:.1f}% {interval} {at} (baseline {baseline:.1f}%)"
    if m.target == "skill_gap":
        return f"the stronger persona is {m.metric:.1f} points ahead {interval} {at} (baseline {baseline:.1f})"
    if m.target == "component":
        return f"the component's causal effect is {m.metric:+.1f} {interval} {at} (baseline {baseline:+.1f})"
    what = "winning score" if m.target == "winning_score" else "game length (decisions)"
    return f"the mean {what} is {m.metric:.1f} {interval} {at} (baseline {baseline:.1f})"


def _baseline(conf: Confirmation, m: Measure) -> float:
    for b in conf.baseline.measures:
        if (b.target, b.players) == (m.target, m.players):
            return b.metric
    return math.nan
