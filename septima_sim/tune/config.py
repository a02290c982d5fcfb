"""Load a tune file and check it against the content pack and its own base experiment before anything is written:
unknown paths, bad values, targets the base cannot measure and budgets too small to confirm anything are errors."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from septima_sim.analysis.stats import Z95
from septima_sim.players import builtin_lineups
from septima_sim.players.lineup import Lineup
from septima_sim.tune import component, evaluate, space, targets
from septima_sim.tune.schema import Choices, FirstPlayer, SeatFairness, SkillGap, TuneConfig, TuneError, parse, read


def load(path: Path, *, trials: int | None = None, games: int | None = None, seed: int | None = None) -> TuneConfig:
    """Read and validate a tune file; CLI options override its budget and seed; the content folder becomes absolute."""
    data = read(path)
    budget = data.setdefault("budget", {})
    if isinstance(budget, dict):  # (anything else is reported by the schema)
        budget.update({k: v for k, v in (("trials", trials), ("games", games)) if v is not None})
    if seed is not None:
        data["seed"] = seed
    if isinstance(data.get("content"), str) and not Path(data["content"]).is_absolute():
        data["content"] = str((path.parent / data["content"]).resolve())
    cfg = parse(data, str(path))
    check(cfg, str(path))
    return cfg


def _counts_in_base(cfg: TuneConfig, source: str) -> dict[str, list[int]]:
    at = targets.counts(cfg.targets, cfg.base.players)
    for name, chosen in at.items():
        missing = [n for n in chosen if n not in cfg.base.players]
        if missing:
            raise TuneError(
                f"{source}: targets.{name}.players: {', '.join(map(str, missing))} not among the base's player "
                f"counts ({', '.join(map(str, cfg.base.players))})"
            )
        if not chosen:
            raise TuneError(f"{source}: targets.{name}: the base has no game with 2 or more players to judge it on")
        if name != "winning_score" and name != "game_length" and 1 in chosen:
            raise TuneError(f"{source}: targets.{name}.players: solo games (1 player) have no seats to compare")
    return at


def _cells_at(cfg: TuneConfig, n: int, cells: Any) -> int:
    return sum(1 for c in cells if c.players == n)


def _check_confirmable(cfg: TuneConfig, at: dict[str, list[int]], cells: Any, source: str) -> None:
    """A rate target can only pass when the interval on the confirmation games is narrower than its band."""
    for name, t in cfg.targets.named().items():
        if not isinstance(t, SeatFairness | FirstPlayer):
            continue
        for n in at[name]:
            m = cfg.budget.confirm_games * _cells_at(cfg, n, cells)
            p = t.target / 100 if isinstance(t, FirstPlayer) and t.target is not None else 1 / n
            half = Z95 * math.sqrt(p * (1 - p) / m)
            if half >= t.band / 100:
                need = math.ceil(Z95**2 * p * (1 - p) / (t.band / 100) ** 2 * 1.2 / _cells_at(cfg, n, cells))
                raise TuneError(
                    f"{source}: budget.confirm_games: {cfg.budget.confirm_games:,} games give ±{100 * half:.1f}-point "
                    f"intervals at {n} players, wider than the ±{t.band:g} band of {name}: nothing could be "
                    f"confirmed (give at least about {need:,})"
                )


def _check_skill(cfg: TuneConfig, t: SkillGap, source: str) -> None:
    lineups = {**builtin_lineups(), **{k: Lineup.parse(v) for k, v in cfg.lineups.items()}}
    if t.stronger == t.weaker:
        raise TuneError(f"{source}: targets.skill_gap: stronger and weaker must be different personas")
    seated = [lineups[x].personas for x in cfg.base.lineup if x in lineups]
    if not any(t.stronger in personas and t.weaker in personas for personas in seated):
        raise TuneError(
            f"{source}: targets.skill_gap: no base lineup seats both {t.stronger!r} and {t.weaker!r} "
            f"(base lineups: {', '.join(cfg.base.lineup)})"
        )


def check(cfg: TuneConfig, source: str) -> None:
    """Cross-checks: base experiment, search space, targets, sampler and budget."""
    base = evaluate.experiment(cfg, name=cfg.name, games=1, seed=cfg.seed, overrides={}, shard_size=1, source=source)
    space.validate(cfg.space, base.content_dir, source)
    at = _counts_in_base(cfg, source)
    if cfg.targets.skill_gap is not None:
        _check_skill(cfg, cfg.targets.skill_gap, source)
    if cfg.targets.component is not None:
        component.check(cfg, cfg.targets.component, source)
    if cfg.budget.sampler == "cmaes":
        choices = [p for p, d in cfg.space.items() if isinstance(d, Choices)]
        if choices or len(cfg.space) < 2:
            why = f"space.{choices[0]} is a list of choices" if choices else "the space has one dimension"
            raise TuneError(f"{source}: budget.sampler: cmaes needs two or more numeric dimensions ({why}); use tpe")
    _check_confirmable(cfg, at, base.cells, source)
