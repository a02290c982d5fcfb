"""``septima-sim sensitivity``: validate the study (every sample's pack included) before anything is written, play
each sample as a content variant on the config's seeds through the project's runner, measure it, and analyse.

Layout of the output folder::

    sensitivity.toml        the resolved settings (what --resume checks)
    design.parquet          the unit design: one row per sample, one column per value
    runs/<sample>/          each sample's run directory (its values as single-value [overrides])
    metrics/<sample>.json   each finished sample's metrics (written when the sample is whole)
    sensitivity.csv  samples.parquet  sensitivity.html

Every sample plays game indices 0..N-1 of the config's root seed (common random numbers), so a value the game never
reads gives identical games, and every game can be replayed from its run directory (``septima-sim play --replay``).
"""

from __future__ import annotations

import json
import math
import os
import time
import tomllib
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import tomli_w
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from septima_sim import rundir, runner, stopping, store
from septima_sim.analysis.data import RunDataError
from septima_sim.content.assumed import Value
from septima_sim.experiment import MAX_GAMES_PER_CELL, Experiment, ExperimentError, build, load_experiment
from septima_sim.grow import games_on_disk, play_into
from septima_sim.sensitivity import design, metrics, outputs
from septima_sim.sensitivity.errors import SensitivityError, SensitivityInterrupted
from septima_sim.sensitivity.params import Param, select

RESOLVED = "sensitivity.toml"
DESIGN = "design.parquet"
NAME_ROOM = 64 - 7
"""Characters of the config's name kept in a sample's run name (``<name>-s0000``, at most 64: experiment names)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A validated study: settings, the base config, the values, the design and each sample's overrides."""

    out: Path
    source: str
    config: dict[str, Any]
    cells: int
    params: list[Param]
    fixed: list[Value]
    method: str
    design: np.ndarray
    samples: list[dict[str, Any]]
    overrides: list[dict[str, Any]]
    games: int
    shard_size: int
    metrics: tuple[str, ...]
    seed: int

    @property
    def total_games(self) -> int:
        return len(self.samples) * self.cells * self.games

    @property
    def groups(self) -> int:
        return len({p.group for p in self.params})

    def sample_id(self, i: int) -> str:
        return f"s{i:0{max(4, len(str(len(self.samples) - 1)))}d}"


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished study reports."""

    out: Path
    samples: int
    games_total: int
    games_played: int
    seconds: float
    errors: int
    table: pl.DataFrame


def _settings(
    exp: Experiment, params: list[Param], method: str, size: int, games: int, group: str, wanted: tuple[str, ...]
) -> dict[str, Any]:
    config = {k: v for k, v in exp.resolved().items() if k not in ("games_per_cell", "shard_size")}
    values = []
    for p in params:
        v = p.value
        entry: dict[str, Any] = {"path": v.path, "group": p.group, "source": v.source}
        entry.update({"low": v.low, "high": v.high} if v.numeric else {"choices": list(v.choices)})
        values.append(entry)
    return {
        "config": config,
        "method": method,
        "trajectories" if method == "morris" else "samples": size,
        "games": games,
        "group": group,
        "metrics": list(wanted),
        "salib": version("SALib"),
        "values": values,
    }


def _workers(jobs: int | None) -> int:
    """Worker processes of ``--jobs`` (joblib's reading: -1 all cores, -2 all but one...)."""
    cores = os.cpu_count() or 1
    if jobs is None:
        return cores
    return jobs if jobs > 0 else max(1, cores + 1 + jobs)


def _check_options(method: str, trajectories: int, samples: int, games: int) -> None:
    if method not in design.METHODS:
        raise SensitivityError(f"--method must be {' or '.join(design.METHODS)}, got {method!r}")
    if method == "morris" and not 2 <= trajectories <= 1000:
        raise SensitivityError(f"--trajectories must be 2..1000 (Morris trajectories), got {trajectories}")
    if method == "sobol" and (samples < 2 or samples > 2**16 or samples & (samples - 1)):
        raise SensitivityError(f"--samples must be a power of 2 from 2 to 65536 (Sobol base samples), got {samples}")
    if not 0 < games <= MAX_GAMES_PER_CELL:
        raise SensitivityError(f"--games must be between 1 and {MAX_GAMES_PER_CELL:,} games per cell, got {games}")


def prepare(
    config: Path,
    *,
    params: str,
    method: str,
    trajectories: int,
    samples: int,
    games: int,
    wanted: str | None,
    seed: int | None,
    group: str,
    out: Path | None,
    resume: bool,
    jobs: int | None,
) -> Plan:
    """Validate everything (nothing written on bad input, every sample's pack checked), then create or reopen the
    study folder."""
    _check_options(method, trajectories, samples, games)
    try:
        exp = load_experiment(config, seed=seed)
    except ExperimentError as exc:
        raise SensitivityError(str(exc)) from None
    chosen = metrics.parse(wanted)
    values, fixed = select(params, exp.content_dir, group)
    size = trajectories if method == "morris" else samples
    unit = design.unit_design(method, values, trajectories, samples, exp.config.seed)
    points = [design.sample_values(values, row) for row in unit]
    tree = design.check(exp.content_dir, exp.config.overrides, points)
    settings = _settings(exp, values, method, size, games, group, chosen)
    if resume:
        if out is None:
            raise SensitivityError("--resume needs --out DIR: the study folder to continue")
        before = _read_settings(out)
        shard_size = int(before.pop("shard_size", 0))
        if before != tomllib.loads(tomli_w.dumps(settings)) or shard_size < 1:
            raise SensitivityError(f"--resume {out}: the folder holds a study with other settings (see {RESOLVED})")
    else:
        out = out or rundir.default_run_dir(f"sensitivity-{exp.config.name}")
        if out.exists() and (not out.is_dir() or any(out.iterdir())):
            raise SensitivityError(f"--out {out} exists (continue a study with the same options and --resume)")
        shard_size = max(1, math.ceil(games / _workers(jobs)))
        _create(out, {**settings, "shard_size": shard_size}, values, unit)
    overrides = [design.overrides(tree, point) for point in points]
    return Plan(
        out, str(config), exp.resolved(), len(exp.cells), values, fixed, method, unit, points, overrides, games,
        shard_size, chosen, exp.config.seed,
    )  # fmt: skip


def estimate(plan: Plan) -> str:
    """What the study will play, said before it starts."""
    size = f"{len(plan.samples) // (plan.groups + 1):,} trajectories" if plan.method == "morris" else "Sobol"
    return (
        f"sensitivity {plan.out}: {plan.method} over {len(plan.params):,} value(s) in {plan.groups:,} group(s), "
        f"{size}: {len(plan.samples):,} samples x {plan.cells:,} cell(s) x {plan.games:,} games = "
        f"{plan.total_games:,} games"
    )


def _read_settings(out: Path) -> dict[str, Any]:
    try:
        with (out / RESOLVED).open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        raise SensitivityError(f"--resume {out}: not a sensitivity folder (no readable {RESOLVED})") from None


def _create(out: Path, settings: dict[str, Any], params: list[Param], unit: np.ndarray) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
        store.write_atomic(out / RESOLVED, tomli_w.dumps(settings).encode())
        frame = pl.DataFrame({p.path: unit[:, i] for i, p in enumerate(params)})
        frame.insert_column(0, pl.Series("sample", [f"{i}" for i in range(unit.shape[0])]))
        frame.write_parquet(out / DESIGN)
    except OSError as exc:
        raise SensitivityError(f"--out {out}: cannot write ({exc.strerror or exc})") from None


def experiment(plan: Plan, i: int) -> Experiment:
    """Sample ``i`` as an experiment: the config with the sample's values as single-value ``[overrides]``."""
    data = dict(plan.config)
    data.update(
        name=f"{plan.config['name'][:NAME_ROOM]}-{plan.sample_id(i)}",
        games_per_cell=plan.games,
        shard_size=plan.shard_size,
        overrides={**plan.config.get("overrides", {}), **{k: [v] for k, v in plan.overrides[i].items()}},
    )
    return build(data, plan.source)


def _read_metrics(path: Path) -> tuple[metrics.Measured, int] | None:
    """A finished sample's metrics and errors (None when the sample is not finished)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return {k: (float(v[0]), float(v[1])) for k, v in data["metrics"].items()}, int(data["errors"])


def execute(
    plan: Plan, *, jobs: int | None, backend: str, scheduler: str | None, console: Console, quiet: bool = False
) -> Result:
    """Play every sample that has no metrics yet, measure each as it finishes, analyse and write the outputs."""
    runs, measured_dir = plan.out / "runs", plan.out / "metrics"
    progress = Progress(
        TextColumn("[bold]sensitivity {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
    )
    found: dict[int, tuple[metrics.Measured, int]] = {}
    for i in range(len(plan.samples)):
        done = _read_metrics(measured_dir / f"{plan.sample_id(i)}.json")
        if done is not None:
            found[i] = done
    on_disk = sum(
        plan.cells * plan.games if i in found else games_on_disk(runs / plan.sample_id(i))
        for i in range(len(plan.samples))
    )
    played = 0
    t0 = time.perf_counter()

    def advance(out: runner.ShardOutput) -> None:
        nonlocal played
        played += out.games
        progress.update(bar, advance=out.games)

    measured_dir.mkdir(exist_ok=True)
    try:
        with runner.parallel_backend(backend, jobs, scheduler), progress:
            bar = progress.add_task("", total=plan.total_games, completed=on_disk)
            for i in range(len(plan.samples)):
                if i in found:
                    continue
                sid = plan.sample_id(i)
                progress.update(bar, description=f"sample {i + 1:,}/{len(plan.samples):,}")
                summary = play_into(experiment(plan, i), runs / sid, console, on_shard=advance)
                try:
                    sample = metrics.measure(runs / sid, plan.metrics)
                except RunDataError:  # every game of the sample raised: nothing to measure
                    sample = {}
                store.write_json_atomic(measured_dir / f"{sid}.json", {"metrics": sample, "errors": summary.errors})
                found[i] = (sample, summary.errors)
        measured = [found[i][0] for i in range(len(plan.samples))]
        table = outputs.write(plan, measured, [found[i][1] for i in range(len(plan.samples))])
    except (KeyboardInterrupt, runner.RunInterrupted) as exc:  # --resume plays what is missing, then analyses
        code = exc.exit_code if isinstance(exc, runner.RunInterrupted) else stopping.exit_code(exc)
        raise SensitivityInterrupted("interrupted", code) from None
    except runner.RunError as exc:
        raise SensitivityError(str(exc)) from None
    errors = sum(found[i][1] for i in range(len(plan.samples)))
    return Result(plan.out, len(plan.samples), plan.total_games, played, time.perf_counter() - t0, errors, table)
