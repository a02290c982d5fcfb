"""``septima-sim learn``: self-play data through the runner, a value model fitted to it, validated on held-out games,
and written with its pack hash and training config; ``--iterations K`` adds expert-iteration rounds in which every
seat plays ``learned`` with the last model and the next model fits all rounds' data.

Held out: the games whose index is 4 mod 5 in every cell and round (a fifth of the games); the model never sees them.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from septima_sim import __version__, runner, store
from septima_sim.engine.seeds import spawn_word
from septima_sim.engine.view import trusted
from septima_sim.experiment import Experiment, ExperimentError, load_experiment
from septima_sim.learn.data import GAME_ID_STEP, LearnTask, Samples, play_task
from septima_sim.learn.features import NAMES, pair_names
from septima_sim.learn.model import Array, Training, ValueModel, fit, fit_linear
from septima_sim.players import UnknownPolicyError, make_policy

HOLD_OUT = 5
"""Every fifth game (index 4 mod 5) is held out for validation."""
MAX_ITERATIONS = 10
MAX_DISTILL = 1_000_000


class LearnError(ValueError):
    """Options or a config that learn cannot use (one line, exit code 2)."""


@dataclass(slots=True)
class Result:
    out: Path
    model: ValueModel
    rounds: list[dict[str, Any]]
    seconds: float


def prepare(config: Path, games: int | None, seed: int | None, iterations: int, distill: int = 0) -> Experiment:
    """The experiment whose cells are played for data; LearnError for a bad config or option."""
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise LearnError(f"--iterations must be between 1 and {MAX_ITERATIONS}, got {iterations}")
    if distill and not HOLD_OUT <= distill <= MAX_DISTILL:
        raise LearnError(f"--distill must be 0 or {HOLD_OUT} to {MAX_DISTILL:,} games per cell, got {distill}")
    try:
        exp = load_experiment(config, games=games, seed=seed)
    except ExperimentError as exc:
        raise LearnError(str(exc)) from None
    if exp.config.games_per_cell < HOLD_OUT:
        raise LearnError(
            f"--games must be at least {HOLD_OUT} per cell (every fifth game is held out), got "
            f"{exp.config.games_per_cell}"
        )
    hashes = {runner.cell_content(cell, exp.content_dir).hash for cell in exp.cells}
    if len(hashes) > 1:
        raise LearnError(
            f"the cells play {len(hashes)} different content packs (overrides): a model is for one pack, so learn "
            "from a config without content overrides"
        )
    for cell in exp.cells:
        for name in sorted(set(cell.seats.personas)):
            try:
                policy = make_policy(name)
            except UnknownPolicyError as exc:
                raise LearnError(f"cell {cell.id}: {exc}") from None
            if not trusted(policy):  # a recording seat reads the live view: it may wrap only a built-in player
                raise LearnError(f"cell {cell.id}: persona {name!r} is a plugin; learn plays built-in players only")
    return exp


def metrics(model: ValueModel, lin: tuple[Array, Array, Array, float], held: Samples) -> dict[str, Any]:
    """Validation on the held-out rows: RMSE and R^2 of the margin, and how often the sign of the predicted margin
    names the winner, for the network, the ridge line and the Wisdom lead alone (what a position shows now)."""
    if len(held.margin) == 0:
        return {"rows": 0}
    mean, scale, coef, bias = lin
    preds = {
        "model": model.predict(held.x),
        "linear": ((held.x - mean) / scale) @ coef + bias,
        "wisdom_lead": held.x[:, NAMES.index("wisdom_lead")],
    }
    y = held.margin
    var = float(np.var(y)) or 1.0
    won = held.win > 0
    out: dict[str, Any] = {"rows": len(y), "games": held.games}
    for name, p in preds.items():
        rmse = float(np.sqrt(np.mean((p - y) ** 2)))
        out[name] = {
            "rmse": round(rmse, 3),
            "r2": round(1.0 - rmse**2 / var, 4),
            "winner_accuracy": round(float(np.mean((p > 0) == won)), 4),
        }
    return out


def learn(
    exp: Experiment,
    out: Path,
    iterations: int,
    training: Training,
    *,
    jobs: int | None,
    backend: str,
    scheduler: str | None,
    console: Console,
    quiet: bool,
    config_name: str,
    distill: int = 0,
) -> Result:
    """Play, fit, validate and write ``out/model.json`` (and ``model-<k>.json``, ``validation.json`` per round)."""
    out.mkdir(parents=True, exist_ok=True)
    cfg = exp.config
    pack_hash = runner.cell_content(exp.cells[0], exp.content_dir).hash
    t0 = time.perf_counter()
    data = Samples.empty()
    rounds: list[dict[str, Any]] = []
    model: ValueModel | None = None
    with runner.parallel_backend(backend, jobs, scheduler):
        for k in range(1, iterations + 1):
            root = spawn_word(cfg.seed, 10_000 + k) >> 1 if k > 1 else cfg.seed  # round 1: the config's own seeds
            model_json = json.dumps(model.to_json()) if model is not None else None
            cell_pos = {c.id: i for i, c in enumerate(exp.cells)}
            tasks = [
                LearnTask(
                    dataclasses.replace(t, root_seed=root), model_json, (k * 1000 + cell_pos[t.cell.id]) * GAME_ID_STEP
                )
                for t in runner.iter_tasks(exp, f"learn-{k}", out, False)
            ]
            fresh = _play(tasks, len(exp.cells) * cfg.games_per_cell, f"round {k}/{iterations}", console, quiet)
            data = data.join(fresh)
            held_mask = data.game % HOLD_OUT == HOLD_OUT - 1
            train, held = data.where(~held_mask), data.where(held_mask)
            if len(train.margin) < 2:
                raise LearnError("the games gave too few positions to learn from: raise --games")
            network = dataclasses.replace(training, seed=training.seed + k)
            model = fit(train.x, train.margin, NAMES, network)
            lin = fit_linear(train.x, train.margin)
            val = metrics(model, lin, held)
            info = {
                "round": k,
                "players": "config lineups" if k == 1 else "learned (previous round's model)",
                "games": fresh.games,
                "train_rows": len(train.margin),
                "validation": val,
            }
            rounds.append(info)
            model.meta = {
                "pack_hash": pack_hash,
                "training": {
                    "config": config_name,
                    "experiment": cfg.name,
                    "cells": [c.id for c in exp.cells],
                    "games_per_cell": cfg.games_per_cell,
                    "seed": cfg.seed,
                    "iterations": iterations,
                    "round": k,
                    "network": dataclasses.asdict(network),
                    "septima_sim": __version__,
                },
                "validation": val,
            }
            model.save(out / f"model-{k}.json")
            if not quiet:
                console.print(_line(info), markup=False, highlight=False)
    assert model is not None
    model.save(out / "model.json")
    if distill:
        chooser, info = _distill(exp, out, model, distill, training, console, quiet)
        chooser.meta = {**model.meta, "distilled_from": "model.json", "validation": info}
        chooser.save(out / "chooser.json")
        rounds.append({"round": "distill", **info})
    store.write_json_atomic(out / "validation.json", rounds)
    return Result(out, model, rounds, time.perf_counter() - t0)


def _distill(
    exp: Experiment, out: Path, model: ValueModel, games: int, training: Training, console: Console, quiet: bool
) -> tuple[ValueModel, dict[str, Any]]:
    """``--distill``: ``games`` games per cell of ``learned`` seats with ``model``, each looked-ahead choice between
    two cards written down; a chooser fitted to say which card the look-ahead prefers without a copy of the game."""
    cfg = exp.config
    root = spawn_word(cfg.seed, 20_000) >> 1
    model_json = json.dumps(model.to_json())
    cell_pos = {c.id: i for i, c in enumerate(exp.cells)}
    first = {t.cell.id: t for t in runner.iter_tasks(exp, "learn-distill", out, False) if t.part == 0}
    size = cfg.shard_size
    tasks = [
        LearnTask(
            dataclasses.replace(t, root_seed=root, part=part, start=start, stop=min(start + size, games)),
            model_json,
            (999 * 1000 + cell_pos[t.cell.id]) * GAME_ID_STEP,
            pairs=True,
        )
        for t in first.values()
        for part, start in enumerate(range(0, games, size))
    ]
    data = _play(tasks, len(exp.cells) * games, "distill", console, quiet)
    held_mask = data.game % HOLD_OUT == HOLD_OUT - 1
    train, held = data.where(~held_mask), data.where(held_mask)
    if len(train.margin) < 2:
        raise LearnError("the distillation games gave too few card choices: raise --distill")
    names = pair_names(runner.cell_content(exp.cells[0], exp.content_dir))
    chooser = fit(train.x, train.margin, names, dataclasses.replace(training, seed=training.seed + 999))
    agree = float(np.mean((chooser.predict(held.x) > 0) == (held.margin > 0))) if len(held.margin) else 0.0
    best = float(np.mean(held.margin > 0)) if len(held.margin) else 0.0
    info = {
        "games": data.games,
        "train_rows": len(train.margin),
        "held_out_rows": len(held.margin),
        "same_card_as_the_look_ahead": round(agree, 4),
        "balanced_best_card_is_the_look_aheads": round(best, 4),
    }
    if not quiet:
        console.print(
            f"distill: {data.games:,} games, {len(train.margin):,} two-card choices; held out {len(held.margin):,}: "
            f"the chooser picks the look-ahead's card {agree:.1%} of the time (balanced's best card: {best:.1%})",
            markup=False,
            highlight=False,
        )
    return chooser, info


def _play(tasks: list[LearnTask], total: int, label: str, console: Console, quiet: bool) -> Samples:
    """Every task through the runner's backend, with a progress bar over games."""
    parts: list[tuple[int, int, Samples]] = []
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} games"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
    )
    with progress:
        bar = progress.add_task(label, total=total)
        stream = runner.map_unordered(play_task, tasks)
        try:
            for base, start, part in stream:
                parts.append((base, start, part))
                progress.update(bar, advance=part.games)
        finally:
            stream.close()
    data = Samples.empty()
    for _, _, part in sorted(parts, key=lambda p: p[:2]):  # shards finish in any order; the fit sees a fixed one
        data = data.join(part)
    return data


def _line(info: dict[str, Any]) -> str:
    val = info["validation"]
    if not val.get("rows"):
        return f"round {info['round']}: {info['games']} games, no held-out positions"
    m, lin, lead = val["model"], val["linear"], val["wisdom_lead"]
    return (
        f"round {info['round']}: {info['games']:,} games, {info['train_rows']:,} training positions; held out "
        f"{val['rows']:,} positions of {val['games']:,} games: margin RMSE {m['rmse']:.2f} (R^2 {m['r2']:.3f}; "
        f"linear {lin['rmse']:.2f}), winner named {m['winner_accuracy']:.1%} (linear {lin['winner_accuracy']:.1%}, "
        f"Wisdom lead alone {lead['winner_accuracy']:.1%})"
    )
