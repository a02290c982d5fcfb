"""``septima-sim tune``: validate, optimise (resumable), confirm on fresh seeds and write the tune folder.

Layout of the folder::

    tune.toml            the resolved tune file (what --resume continues)
    study.sqlite3        the optuna study (RDB storage; optuna-dashboard opens it)
    trials/<n>/          one run directory per trial (the runner's Parquet)
    confirm/<label>/     the baseline and each candidate on the fresh seeds
    best.toml  best-pack/  trials.csv  confirmation.csv  report.html
"""

from __future__ import annotations

import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import optuna
import sqlalchemy.exc
import tomli_w
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from septima_sim import rundir, runner, stopping, store
from septima_sim.safe_path import inside
from septima_sim.tune import config, confirm, outputs, patch, report, study, targets
from septima_sim.tune.schema import GamesRaised, TuneConfig, TuneError

RESOLVED = "tune.toml"


class TuneInterrupted(runner.RunInterrupted):
    """Ctrl-C or SIGTERM during a tune (trials, confirmation or writing the outputs): the study is saved; ``--resume
    DIR`` continues it (exit 130 / 143)."""


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished tune reports (``errors``: games that raised in failed trials, with the first one)."""

    out: Path
    headline: str
    trials: int
    games: int
    best: Path
    report: Path
    pack: Path | None
    notes: list[str] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""
    """``; first: <error>; replay it with: <command>`` (``store.first_error``) when games raised."""


def resume_command(out: Path) -> str:
    """The shell command (quoted) that continues the study of ``out``."""
    return shlex.join(["septima-sim", "tune", "--resume", str(out)])


def prepare(
    path: Path, *, out: Path | None, trials: int | None, games: int | None, seed: int | None
) -> tuple[TuneConfig, Path]:
    """Validate a new tune (nothing written on bad input) and create its folder with the resolved ``tune.toml``."""
    cfg = config.load(path, trials=trials, games=games, seed=seed)
    out = out or rundir.default_run_dir(f"tune-{cfg.name}")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise TuneError(f"--out {out} exists (continue a tune with --resume {out})")
    try:
        out.mkdir(parents=True, exist_ok=True)
        store.write_atomic(out / RESOLVED, tomli_w.dumps(cfg.model_dump(exclude_none=True)).encode())
    except OSError as exc:
        raise TuneError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    return cfg, out


def reopen(out: Path, *, trials: int | None) -> TuneConfig:
    """The tune of an existing folder, to continue (``trials`` raises or lowers the total). A folder whose study was
    never created (stopped right after ``prepare``) starts it."""
    if not (out / RESOLVED).is_file():
        raise TuneError(f"--resume {out}: not a tune folder (no {RESOLVED})")
    cfg = config.load(out / RESOLVED, trials=trials)
    if (out / study.STUDY_FILE).is_file():
        study.check_study_file(out / study.STUDY_FILE, cfg.name)
    if trials is not None:  # the new total is the study's from now on
        try:
            store.write_atomic(out / RESOLVED, tomli_w.dumps(cfg.model_dump(exclude_none=True)).encode())
        except OSError as exc:
            raise TuneError(f"--resume {out}: cannot write {RESOLVED} ({exc.strerror or exc})") from None
    return cfg


def execute(
    cfg: TuneConfig,
    out: Path,
    *,
    jobs: int | None,
    console: Console,
    quiet: bool = False,
    backend: str = "local",
    scheduler: str | None = None,
) -> Result:
    """Run the study to its trial budget, confirm the best candidates and write every output; every trial's games
    run on ``backend`` (one cluster for the whole study)."""
    try:
        with runner.parallel_backend(backend, jobs, scheduler):
            return _execute(cfg, out, console=console, quiet=quiet)
    except (KeyboardInterrupt, runner.RunInterrupted) as exc:
        code = exc.exit_code if isinstance(exc, runner.RunInterrupted) else stopping.exit_code(exc)
        raise TuneInterrupted(f"interrupted; continue with: {resume_command(out)}", code) from None
    except runner.RunWriteError as exc:  # a full disk: the trials played are kept, the study continues later
        raise TuneError(exc.advice(resume_command(out))) from None
    except runner.RunError as exc:
        raise TuneError(str(exc)) from None
    except (optuna.exceptions.StorageInternalError, sqlalchemy.exc.SQLAlchemyError) as exc:  # SQLite (disk full...)
        raise TuneError(
            f"cannot write the study {out / study.STUDY_FILE}: {_root_cause(exc)} (the trials played are kept; free "
            f"space or fix permissions, then {resume_command(out)})"
        ) from None
    except OSError as exc:  # writing an output file (disk full...): the study and its games are kept
        if exc.errno is None:
            raise
        raise TuneError(
            f"cannot write {exc.filename or out}: {exc.strerror or exc} (the study is kept; free space or fix "
            f"permissions, then {resume_command(out)})"
        ) from None


def _root_cause(exc: BaseException) -> str:
    """The innermost cause of a wrapped error, as one short phrase (SQLite's "database or disk is full")."""
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]


def _execute(cfg: TuneConfig, out: Path, *, console: Console, quiet: bool) -> Result:
    at = targets.counts(cfg.targets, cfg.base.players)
    the_study = study.open_study(cfg, out)
    progress = Progress(
        TextColumn("[bold]tune {task.fields[name]}{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("trials, best {task.fields[best]}"),
        TimeElapsedColumn(),
        console=console,
        disable=quiet,
    )

    def best_text() -> str:
        try:
            return f"{the_study.best_value:.3f} (trial {the_study.best_trial.number})"
        except ValueError:
            return "-"

    with progress:
        bar = progress.add_task(
            "", total=cfg.budget.trials, completed=study.finished(the_study), name=cfg.name, best=best_text()
        )
        early = study.optimise(
            the_study,
            cfg,
            out,
            console,
            at,
            lambda _t: progress.update(bar, completed=study.finished(the_study), best=best_text()),
        )
        frame = outputs.trials_frame(the_study, cfg)
        frame.write_csv(out / "trials.csv")
        errors, first = _trial_errors(the_study, out)
        if not confirm.candidates(the_study, 1):
            if errors:
                raise GamesRaised(
                    f"no trial completed: {errors:,} game(s) raised in the trials (see {out / 'trials.csv'} and "
                    f"{out / 'trials'}){first}"
                )
            raise TuneError(f"{out}: no trial completed, nothing to confirm (see {out / 'trials.csv'})")
        progress.update(bar, description=": confirming on fresh seeds")
        confirmed = confirm.confirm(the_study, cfg, out, console, at)
    outputs.confirmation_frame(confirmed).write_csv(out / "confirmation.csv")
    best = outputs.write_best(cfg, confirmed, out)
    pack_dir = out / "best-pack"
    if pack_dir.exists():
        shutil.rmtree(pack_dir)
    content = Path(cfg.content) if cfg.content else None
    pack = pack_dir if patch.write_pack(content, confirmed.best.values, pack_dir) else None
    page = report.write_report(the_study, cfg, confirmed, out)
    headline = outputs.headline(cfg, confirmed)
    games = int(frame["games"].sum())
    return Result(out, headline, frame.height, games, best, page, pack, [early] if early else [], errors, first)


def _trial_errors(the_study: optuna.Study, out: Path) -> tuple[int, str]:
    """Games that raised in the study's trials, and the first of them (``store.first_error``)."""
    failed = [t for t in the_study.trials if t.user_attrs.get("errors")]
    errors = sum(int(t.user_attrs["errors"]) for t in failed)
    first = store.first_error(inside(out / "trials", f"{failed[0].number:04d}")) if failed else ""
    return errors, first
