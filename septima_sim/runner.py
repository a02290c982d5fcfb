"""Run an experiment: cells -> shards of games -> joblib (loky or dask) -> Parquet shards in the run directory.

A shard is a block of game indices of one cell: the unit of work, of output files, of progress and of resume. Game
``i`` of every cell plays with the same seed (common random numbers), derived from the root seed alone, so results do
not depend on the backend, the number of workers, the completion order or a resume.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import itertools
import json
import os
import shlex
import shutil
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import polars as pl
from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.text import Text

from septima_sim import stopping, store
from septima_sim.content import Content, load_content
from septima_sim.content.schema import FILES as PACK_FILES
from septima_sim.engine import GameConfig, Policy, play_game
from septima_sim.engine.seeds import spawn_word
from septima_sim.experiment import Cell, Experiment, ExperimentError, load_experiment
from septima_sim.players import make_policy
from septima_sim.run_speed import games_per_second, rate_text

T = TypeVar("T")
R = TypeVar("R")


class RunError(ValueError):
    """A run that cannot start or resume (bad output directory, unreachable scheduler...): exit code 2."""


class RunWriteError(RunError):
    """A run directory could not be written (disk full, permission); what was finished is kept. The message says what
    ``run`` does next; ``advice`` words the line for the command that actually continues a larger job
    (``ablate --resume``, ``tune --resume``, rerunning a ladder)."""

    def __init__(self, where: object, reason: str, detail: str) -> None:
        self.where, self.reason = where, reason
        super().__init__(f"cannot write {where}: {reason} ({detail})")

    def advice(self, command: str) -> str:
        """The one line: what could not be written, why, and ``command`` to continue once space is freed."""
        return f"cannot write {self.where}: {self.reason} (free space or fix permissions, then {command})"


class RunInterrupted(stopping.Interrupted):
    """The run was stopped (Ctrl-C or SIGTERM); finished shards are kept and ``--resume`` completes it."""


def game_seed(root: int, index: int) -> int:
    """The seed of game ``index`` in every cell: numpy's SeedSequence(root, spawn_key=(index,)), first 64-bit word,
    as a 63-bit int (in plain arithmetic, ``engine/seeds.py``: numpy is not imported by a run)."""
    return spawn_word(root, index) >> 1


@dataclass(frozen=True, slots=True)
class ShardTask:
    """Everything a worker needs to play one shard (small, picklable)."""

    run_id: str
    run_dir: str
    cell: Cell
    part: int
    start: int
    stop: int
    root_seed: int
    pack: PackFiles | None  # the content pack's files, shipped: a worker needs no shared disk
    events: bool
    override_dtypes: dict[str, pl.DataType]

    @property
    def key(self) -> str:
        return f"{self.cell.id}/{self.part}"


@dataclass(slots=True)
class ShardOutput:
    """What a worker sends back: Parquet bytes per table (games, players, events, errors) and counts."""

    key: str
    cell_id: str
    part: int
    games: int
    errors: int
    tables: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    run_dir: str = ""  # the run the shard belongs to (``execute_many`` plays several runs' shards in one stream)


PackFiles = tuple[tuple[str, bytes], ...]
"""A content pack as (file name, bytes) pairs: what a shard task carries instead of a folder on the driver's disk."""


def pack_files(content_dir: Path) -> PackFiles:
    """The files of the content pack in ``content_dir`` (the loader's fixed file names), read once per plan."""
    return tuple((name, (content_dir / name).read_bytes()) for name in PACK_FILES if (content_dir / name).is_file())


@functools.lru_cache(maxsize=32)
def unpacked(files: PackFiles) -> str:
    """A folder holding a shipped pack on this machine: ``septima-pack-<digest>`` under the temp folder, written
    once per digest (to a fresh folder renamed into place, so a half-written pack is never read)."""
    digest = hashlib.sha256(b"".join(n.encode() + b"\0" + hashlib.sha256(d).digest() for n, d in files)).hexdigest()
    folder = Path(tempfile.gettempdir()) / f"septima-pack-{digest[:24]}"
    if not folder.is_dir():
        fresh = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", dir=folder.parent))
        for name, data in files:
            if name not in PACK_FILES:  # only the loader's own file names: nothing a task says becomes a path
                raise RunError(f"a shard task carries an unknown content file {name!r}")
            (fresh / name).write_bytes(data)
        try:
            fresh.rename(folder)
        except OSError:  # another worker on this machine put it there first
            shutil.rmtree(fresh, ignore_errors=True)
    return str(folder)


@functools.lru_cache(maxsize=32)
def _content(content_dir: str | None, overrides_json: str) -> Content:
    return load_content(content_dir, dict(json.loads(overrides_json)))


def cell_content(cell: Cell, content_dir: str | Path | None) -> Content:
    """The content pack of a cell (its override values applied), cached per process."""
    return _content(str(content_dir) if content_dir else None, json.dumps(cell.overrides))


def replay_command(run_dir: str, cell_id: str, index: int) -> str:
    """The shell command that replays one game; every argument is quoted, so pasting it runs nothing else."""
    return shlex.join(["septima-sim", "play", "--replay", run_dir, "--game", f"{cell_id}:{index}"])


def _append(columns: dict[str, list[Any]], row: dict[str, Any], rows: int) -> None:
    """Add one row to column lists, padding columns that appear late with nulls."""
    for k, v in row.items():
        col = columns.get(k)
        if col is None:
            col = columns[k] = [None] * rows
        col.append(v)
    for col in columns.values():
        if len(col) <= rows:
            col.append(None)


def play_shard(task: ShardTask) -> ShardOutput:
    """Play games [start, stop) of one cell; a game that raises becomes an errors row and the shard goes on."""
    cell = task.cell
    config = cell.game_config()
    content = cell_content(cell, unpacked(task.pack) if task.pack else None)
    gc.freeze()  # modules, content and tables live as long as the worker: no collection walks them again
    overrides = {path: store.override_value(v) for path, v in cell.overrides}
    owned = dict(cell.owned)  # the axes the modules own (the Omen deck): a games column each
    cols: dict[str, dict[str, list[Any]]] = {t: {} for t in store.TABLES}
    rows = dict.fromkeys(store.TABLES, 0)
    # In the driver (one job), Ctrl-C and SIGTERM wait for the game in play to end: a KeyboardInterrupt raised inside
    # the compiled engine can abort the process ("fatal: out of memory" from mypyc's runtime, seen once in CI).
    in_driver = _IN_PROCESS.get()
    for index in range(task.start, task.stop):
        seed = game_seed(task.root_seed, index)
        keys = {"run_id": task.run_id, "cell_id": cell.id, "game_index": index}
        events: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        try:
            policies = [make_policy(name) for name in cell.seat_personas(index)]
            with stopping.signals_deferred() if in_driver else nullcontext():
                result = play_game(config, content, policies, seed, events.append if task.events else None)
        except Exception as exc:
            row = {
                **keys,
                "seed": seed,
                "error": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(),
                "replay": replay_command(task.run_dir, cell.id, index),
            }
            _append(cols["errors"], row, rows["errors"])
            rows["errors"] += 1
            continue
        duration = (time.perf_counter() - t0) * 1000.0
        game = {**keys, **result.game, **owned, "lineup": cell.lineup, "duration_ms": duration}
        game.update(overrides)
        _append(cols["games"], game, rows["games"])
        rows["games"] += 1
        for prow in result.players:
            _append(cols["players"], {**keys, "players": cell.players, **prow}, rows["players"])
            rows["players"] += 1
        for ev in events:
            _append(cols["events"], {**keys, **ev}, rows["events"])
            rows["events"] += 1
    out = ShardOutput(task.key, cell.id, task.part, task.stop - task.start, rows["errors"], run_dir=task.run_dir)
    for table in store.TABLES:
        if (table == "events" and not task.events) or (table == "errors" and not rows["errors"]):
            continue
        df = store.frame(table, cols[table], rows[table], task.override_dtypes if table == "games" else None)
        out.tables[table] = (store.parquet_bytes(df), rows[table])
    return out


def iter_tasks(exp: Experiment, run_id: str, run_dir: Path, events: bool) -> Iterator[ShardTask]:
    """Every shard of the run, lazily, in a fixed order (cell by cell, block by block)."""
    cfg = exp.config
    dtypes = {path: store.override_dtype(values) for path, values in cfg.overrides.items()}
    pack = pack_files(exp.content_dir) if exp.content_dir else None
    for cell in exp.cells:
        for part, start in enumerate(range(0, cfg.games_per_cell, cfg.shard_size)):
            stop = min(start + cfg.shard_size, cfg.games_per_cell)
            yield ShardTask(run_id, str(run_dir), cell, part, start, stop, cfg.seed, pack, events, dtypes)


def plan(exp: Experiment, run_id: str, run_dir: Path, events: bool) -> list[ShardTask]:
    """Every shard of the run as a list (``iter_tasks`` without the laziness; bounded by the games limit)."""
    return list(iter_tasks(exp, run_id, run_dir, events))


# --------------------------------------------------------------------------------------------- backends
def check_backend(backend: str, scheduler: str | None) -> None:
    """``local`` or ``dask``; a scheduler address only with dask (RunError otherwise)."""
    if backend not in ("local", "dask"):
        raise RunError(f"--backend must be local or dask, got {backend!r}")
    if scheduler and backend != "dask":
        raise RunError("--scheduler needs --backend dask")


_IN_PROCESS: ContextVar[bool] = ContextVar("in_process", default=False)
"""Set by ``parallel_backend`` for a local run with one job: ``execute`` then plays its shards in this process, as
joblib would with ``n_jobs=1``."""


@contextmanager
def parallel_backend(backend: str, jobs: int | None, scheduler: str | None) -> Iterator[str]:
    """Set joblib's backend for the run: ``local`` (loky processes) or ``dask`` (a scheduler or a LocalCluster).

    Yields a short description of where the games run.
    """
    check_backend(backend, scheduler)
    if backend == "local" and jobs == 1:  # one job: ``execute`` plays in this process (joblib is not even imported)
        token = _IN_PROCESS.set(True)
        try:
            yield "local, 1 job(s)"
        finally:
            _IN_PROCESS.reset(token)
        return
    from joblib import parallel_config  # with numpy: about 0.1 s of start-up that a one-job run does without

    if backend == "local":
        watchdog = {"initializer": stopping.exit_with_driver, "initargs": (os.getpid(),)}
        with parallel_config(backend="loky", n_jobs=jobs or -1, **watchdog):
            yield f"local, {jobs or 'all'} job(s)"
        return
    from septima_sim import cluster

    with cluster.connect(scheduler, jobs) as client, parallel_config(backend="dask", wait_for_workers_timeout=60):
        address = client.scheduler.address if client.scheduler is not None else scheduler
        yield f"dask, {address}, {sum(client.nthreads().values())} worker thread(s)"


def map_unordered(work: Callable[[T], R], tasks: Iterable[T]) -> Generator[R, None, None]:
    """``work`` over ``tasks`` on the caller's ``parallel_backend``, results as they finish (in this process, in
    order, for a local run with one job); closing the generator stops the workers."""
    if _IN_PROCESS.get():
        return (work(t) for t in tasks)
    from joblib import Parallel, delayed

    stream: Generator[R, None, None] = Parallel(return_as="generator_unordered")(delayed(work)(t) for t in tasks)
    return stream


def now() -> str:
    """The current UTC time as the manifest records it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


# --------------------------------------------------------------------------------------------- execution
class _Rate(ProgressColumn):
    """The bar's speed: ``games_per_second`` of the games played since the bar started (not a recent window)."""

    def render(self, task: Task) -> Text:
        played = int(task.completed) - int(task.fields.get("resumed", 0))
        return Text(rate_text(games_per_second(played, task.elapsed or 0.0)))


@dataclass(slots=True)
class Summary:
    """What a finished (or stopped) run reports."""

    run_dir: Path
    games: int
    errors: int
    played_now: int
    seconds: float
    backend: str

    @property
    def rate(self) -> float:
        """Games per second, as the bar showed it (``games_per_second``)."""
        return games_per_second(self.played_now, self.seconds)


@dataclass(frozen=True, slots=True)
class RunPlan:
    """One run of ``execute_many``: its experiment, its directory and its manifest (created or reopened, locked)."""

    exp: Experiment
    run_dir: Path
    manifest: dict[str, Any]


def execute(
    exp: Experiment,
    run_dir: Path,
    manifest: dict[str, Any],
    *,
    backend: str,
    console: Console,
    quiet: bool = False,
    on_shard: Callable[[ShardOutput], None] | None = None,
) -> Summary:
    """Play every shard the manifest does not list as done with matching sha256s, writing each as it finishes (within
    the caller's ``parallel_backend``). On Ctrl-C or SIGTERM the workers are stopped, the manifest says
    ``interrupted`` and RunInterrupted is raised; a write error (disk full, permission) raises RunError the same way.
    """
    plan = RunPlan(exp, run_dir, manifest)
    return execute_many([plan], backend=backend, console=console, quiet=quiet, on_shard=on_shard)[0]


def _todo(run: RunPlan) -> Iterator[ShardTask]:
    """The shards of a run still to play; damaged or missing ones are dropped from its manifest first."""
    shards = run.manifest["shards"]
    for key in [k for k, info in shards.items() if store.shard_problem(run.run_dir, info) is not None]:
        for info in shards.pop(key)["files"].values():  # damaged or missing: replayed from scratch
            (run.run_dir / info["path"]).unlink(missing_ok=True)
    tasks = iter_tasks(run.exp, run.manifest["run_id"], run.run_dir, run.manifest["events"])
    return (t for t in tasks if t.key not in shards)


def execute_many(
    runs: list[RunPlan],
    *,
    backend: str,
    console: Console,
    quiet: bool = False,
    on_shard: Callable[[ShardOutput], None] | None = None,
) -> list[Summary]:
    """``execute`` for several runs at once: their shards are one stream of tasks (run by run, in the given order),
    so small runs fill the workers together; each shard is written into its own run. A stop or a write error stops
    every run (each manifest says ``interrupted``); RunInterrupted names the first run's resume command."""
    todo = itertools.chain.from_iterable([_todo(run) for run in runs])  # every run's damaged shards dropped first
    by_dir = {str(run.run_dir): run for run in runs}
    totals = [len(run.exp.cells) * run.exp.config.games_per_cell for run in runs]
    done_games = sum(int(s["games"]) for run in runs for s in run.manifest["shards"].values())
    errors = {str(r.run_dir): sum(int(s["errors"]) for s in r.manifest["shards"].values()) for r in runs}
    played = dict.fromkeys(errors, 0)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} games"),
        _Rate(),
        TimeRemainingColumn(),
        TextColumn("errors: {task.fields[errors]}"),
        console=console,
        disable=quiet,
    )
    first = runs[0]
    with stopping.sigterm_stops(), progress:
        for run in runs:
            run.manifest["status"] = "running"
            store.write_json_atomic(run.run_dir / "manifest.json", run.manifest)
        t0 = last = time.perf_counter()  # the bar's clock starts here too (add_task)
        name = first.manifest["run_id"] if len(runs) == 1 else f"{len(runs)} runs"
        bar = progress.add_task(
            name, total=sum(totals), completed=done_games, errors=sum(errors.values()), resumed=done_games
        )
        stream = map_unordered(play_shard, todo)
        try:
            for out in stream:
                run = by_dir[out.run_dir]
                with stopping.signals_deferred():
                    _record(run.run_dir, run.manifest, out)
                played[out.run_dir] += out.games
                errors[out.run_dir] += out.errors
                last = time.perf_counter()
                progress.update(bar, advance=out.games, errors=sum(errors.values()))
                if on_shard is not None:
                    on_shard(out)
        except KeyboardInterrupt as stop:
            _stop(stream, runs)
            raise RunInterrupted(
                f"interrupted; finish the run with: septima-sim run --resume {shlex.quote(str(first.run_dir))}",
                stopping.exit_code(stop),
            ) from None
        except OSError as exc:
            _stop(stream, runs)
            resume = shlex.join(["septima-sim", "run", "--resume", str(first.run_dir)])
            then = f"finished shards kept; free space or fix permissions, then {resume}"
            raise RunWriteError(exc.filename or first.run_dir, exc.strerror or str(exc), then) from None
        progress.stop_task(bar)  # its clock stops with the last game, like ``last``
        for run in runs:
            run.manifest["status"] = "finished"
            run.manifest["finished"] = now()
            store.write_json_atomic(run.run_dir / "manifest.json", run.manifest)
    return [  # the wall time of the games
        Summary(r.run_dir, total, errors[str(r.run_dir)], played[str(r.run_dir)], last - t0, backend)
        for r, total in zip(runs, totals, strict=True)
    ]


def _record(run_dir: Path, manifest: dict[str, Any], out: ShardOutput) -> None:
    """Write a finished shard's files, then the manifest entry naming them with their sha256."""
    files = {}
    for table, (data, rows) in out.tables.items():
        path = store.shard_path(run_dir, table, out.cell_id, out.part)
        files[table] = {"path": str(path.relative_to(run_dir)), "rows": rows, "sha256": store.write_atomic(path, data)}
    manifest["shards"][out.key] = {"games": out.games, "errors": out.errors, "files": files, "finished": now()}
    store.write_json_atomic(run_dir / "manifest.json", manifest)


def _stop(stream: Generator[Any, None, None], runs: list[RunPlan]) -> None:
    """Terminate the workers (closing joblib's generator aborts them) and mark every run ``interrupted``."""
    with stopping.signals_deferred(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # joblib's "N tasks ... cancelled": cancelling them is the point
        stream.close()
        for run in runs:
            run.manifest["status"] = "interrupted"
            with contextlib.suppress(OSError):  # a full disk may refuse this too; resume rebuilds the manifest
                store.write_json_atomic(run.run_dir / "manifest.json", run.manifest)


def replay(run_dir: Path, cell_id: str, index: int) -> tuple[GameConfig, Content, list[Policy], int]:
    """The exact (config, content, policies, seed) of game ``index`` of a cell of a run, to play it again."""
    if not (run_dir / "config.toml").is_file():
        raise RunError(f"--replay {run_dir}: not a run directory (no config.toml)")
    try:
        exp = load_experiment(run_dir / "config.toml")
        cell = exp.cell(cell_id)
    except ExperimentError as exc:
        raise RunError(f"--replay: {exc}") from None
    if not 0 <= index < exp.config.games_per_cell:
        raise RunError(f"--game: index {index} outside 0..{exp.config.games_per_cell - 1}")
    policies = [make_policy(name) for name in cell.seat_personas(index)]
    return cell.game_config(), cell_content(cell, exp.content_dir), policies, game_seed(exp.config.seed, index)
