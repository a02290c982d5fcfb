"""Confirmation: the best few candidates and the untouched baseline are played again on fresh seeds (a root seed
derived from the study's, never used by a trial), all on the same seeds, with intervals and a verdict per target.

The confirmed best is the candidate with the lowest objective on the fresh games (ties: the better study value)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import optuna
from optuna.trial import TrialState
from rich.console import Console

from septima_sim import store
from septima_sim.safe_path import inside
from septima_sim.tune import component, evaluate, space, targets
from septima_sim.tune.schema import GamesRaised, TuneConfig


def fresh_seed(seed: int) -> int:
    """The confirmation root seed: a child of the study seed (its games share no seed with any trial)."""
    child = np.random.SeedSequence(seed).spawn(1)[0]
    return int(child.generate_state(1, np.uint32)[0])


@dataclass(frozen=True, slots=True)
class Candidate:
    """One confirmed candidate: its trial, values, study value, and its games and measures on the fresh seeds."""

    number: int
    values: dict[str, Any]
    study_value: float
    played: evaluate.Played
    measures: list[targets.Measure]
    objective: float


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The baseline and candidates on the same fresh seeds; ``best`` is the confirmed winner."""

    seed: int
    games: int
    baseline: Candidate
    candidates: list[Candidate]
    best: Candidate


def candidates(study: optuna.Study, k: int) -> list[optuna.trial.FrozenTrial]:
    """The ``k`` best completed trials with different values."""
    done = sorted(
        (t for t in study.trials if t.state == TrialState.COMPLETE and t.value is not None),
        key=lambda t: (t.value, t.number),
    )
    seen: set[str] = set()
    out = []
    for t in done:
        key = json.dumps(t.params, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out[:k]


def _play(
    cfg: TuneConfig,
    out: Path,
    label: str,
    values: dict[str, Any],
    seed: int,
    console: Console,
    at: dict[str, list[int]],
    number: int,
    study_value: float,
) -> Candidate:
    games = cfg.budget.confirm_games
    exp = evaluate.experiment(
        cfg, name=f"{cfg.name}-{label}", games=games, seed=seed, overrides=values, shard_size=min(games, 500)
    )
    run_dir = inside(out / "confirm", label)
    played = evaluate.play(exp, run_dir, console)
    if played.errors:
        raise GamesRaised(
            f"{played.errors} confirmation game(s) of {label} raised, nothing confirmed: see {run_dir / 'errors'}"
            f"{store.first_error(run_dir)}"
        )
    measures = targets.measure(cfg.targets, at, played.players, played.games, with_ci=True)
    measures += component.measures(
        cfg,
        out,
        run_dir,
        values,
        name=exp.config.name,
        games=games,
        seed=seed,
        shard_size=min(games, 500),
        console=console,
        at=at,
    )
    return Candidate(number, values, study_value, played, measures, targets.objective(cfg.targets, measures))


def confirm(
    study: optuna.Study, cfg: TuneConfig, out: Path, console: Console, at: dict[str, list[int]]
) -> Confirmation:
    """Play the baseline and the ``confirm_top`` best candidates on fresh seeds and pick the confirmed best."""
    seed = fresh_seed(cfg.seed)
    base = _play(cfg, out, "baseline", {}, seed, console, at, -1, float("nan"))
    tried = [
        _play(
            cfg,
            out,
            f"trial-{t.number:04d}",
            space.overrides(t.params),
            seed,
            console,
            at,
            t.number,
            float(t.value or 0.0),
        )
        for t in candidates(study, cfg.budget.confirm_top)
    ]
    best = min(tried, key=lambda c: (c.objective, c.study_value, c.number))
    return Confirmation(seed, cfg.budget.confirm_games, base, tried, best)
