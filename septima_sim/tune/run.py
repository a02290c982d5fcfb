"""``septima-sim tune``: validate, optimise (resumable), confirm on fresh seeds and write the tune folder.

Layout of the folder::

    tune.toml            the resolved tune file (what --resume continues)
    study.sqlite3        the optuna study (RDB storage; optuna-dashboard opens it)
    trials/<n>/          one run directory per trial (the runner's Parquet)
    confirm/<label>/     the baseline and each candidate on the fresh seeds
    best.toml  best-pack/  trials.csv  confirmation.csv  report.html
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import tomli_w
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from septima_sim import rundir, runner, stopping
from septima_sim.tune import config, confirm, outputs, patch, report, study, targets
from septima_sim.tune.schema import TuneConfig, TuneError

RESOLVED = "tune.toml"


class TuneInterrupted(runner.RunInterrupted):
    """Ctrl-C or SIGTERM during a tune: the study is saved; ``--resume DIR`` continues it (exit 130 / 143)."""


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished tune reports."""

    out: Path
    headline: str
    trials: int
    games: int
    best: Path
    report: Path
    pack: Path | None


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
        (out / RESOLVED).write_text(tomli_w.dumps(cfg.model_dump(exclude_none=True)))
    except OSError as exc:
        raise TuneError(f"--out {out}: cannot write ({exc.strerror or exc})") from None
    return cfg, out


def reopen(out: Path, *, trials: int | None) -> TuneConfig:
    """The tune of an existing folder, to continue (``trials`` raises or lowers the total)."""
    if not (out / RESOLVED).is_file() or not (out / study.STUDY_FILE).is_file():
        raise TuneError(f"--resume {out}: not a tune folder (needs {RESOLVED} and {study.STUDY_FILE})")
    cfg = config.load(out / RESOLVED, trials=trials)
    if trials is not None:  # the new total is the study's from now on
        (out / RESOLVED).write_text(tomli_w.dumps(cfg.model_dump(exclude_none=True)))
    return cfg


def execute(cfg: TuneConfig, out: Path, *, jobs: int | None, console: Console, quiet: bool = False) -> Result:
    """Run the study to its trial budget, confirm the best candidates and write every output."""
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

    try:
        with runner.parallel_backend("local", jobs, None), progress:
            bar = progress.add_task(
                "", total=cfg.budget.trials, completed=study.finished(the_study), name=cfg.name, best=best_text()
            )
            study.optimise(
                the_study,
                cfg,
                out,
                console,
                at,
                lambda _t: progress.update(bar, completed=study.finished(the_study), best=best_text()),
            )
            if not confirm.candidates(the_study, 1):
                raise TuneError(f"{out}: no trial completed, nothing to confirm (see trials.csv)")
            progress.update(bar, description=": confirming on fresh seeds")
            confirmed = confirm.confirm(the_study, cfg, out, console, at)
    except (KeyboardInterrupt, runner.RunInterrupted) as exc:
        code = exc.exit_code if isinstance(exc, runner.RunInterrupted) else stopping.exit_code(exc)
        raise TuneInterrupted(f"interrupted; continue with: septima-sim tune --resume {out}", code) from None
    except runner.RunError as exc:
        raise TuneError(str(exc)) from None
    frame = outputs.trials_frame(the_study, cfg)
    frame.write_csv(out / "trials.csv")
    outputs.confirmation_frame(confirmed).write_csv(out / "confirmation.csv")
    best = outputs.write_best(cfg, confirmed, out)
    pack_dir = out / "best-pack"
    if pack_dir.exists():
        shutil.rmtree(pack_dir)
    content = Path(cfg.content) if cfg.content else None
    pack = pack_dir if patch.write_pack(content, confirmed.best.values, pack_dir) else None
    page = report.write_report(the_study, cfg, confirmed, out)
    return Result(out, outputs.headline(cfg, confirmed), frame.height, int(frame["games"].sum()), best, page, pack)
