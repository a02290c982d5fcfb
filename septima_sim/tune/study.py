"""The optuna study: SQLite storage in the output folder, the sampler (TPE, CMA-ES or random, seeded), successive
halving over rungs of games, and the ask-and-tell loop that evaluates one candidate at a time through the runner.

Trial 0 is the content as it stands when the space contains its values, so the study starts from the baseline. An
interrupted trial is marked failed on resume and its values are tried again first. A trial whose games raised is
failed (its errors counted); it is not played again.

The study file is checked before optuna opens it (an SQLite database that passes ``quick_check`` and holds the study),
so a damaged file is reported, never written into. The study records a hash of its resolved settings (tune.toml
without the trial budget, and the content pack's hash); a resume with other settings is refused.

A finite space (every dimension a list of choices or a stepped range) ends the study once every point has been
played, or once the sampler has proposed only points already played as many times in a row as the space has
points (it has converged: more trials would replay the same results).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState
from rich.console import Console

from septima_sim.content.loader import content_hash, content_tree
from septima_sim.experiment import Experiment
from septima_sim.safe_path import inside
from septima_sim.tune import component, evaluate, space, targets
from septima_sim.tune.schema import Choices, TuneConfig, TuneError

STUDY_FILE = "study.sqlite3"
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)
SETTINGS_ATTR = "septima_settings_hash"
"""The study's user attribute holding ``settings_hash`` of the settings it was started with."""
SQLITE_HEADER = b"SQLite format 3\x00"

optuna.logging.set_verbosity(optuna.logging.WARNING)


def storage_url(out: Path) -> str:
    """The RDB storage URL of a tune folder (``optuna-dashboard sqlite:///DIR/study.sqlite3`` opens it)."""
    return f"sqlite:///{(out / STUDY_FILE).resolve()}"


def _sampler(cfg: TuneConfig, offset: int) -> optuna.samplers.BaseSampler:
    seed = cfg.seed + offset
    if cfg.budget.sampler == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    if cfg.budget.sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    startup = max(1, min(10, cfg.budget.trials // 4))
    return optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup)


def _pruner(cfg: TuneConfig) -> optuna.pruners.BasePruner:
    rungs = cfg.budget.rungs()
    if len(rungs) == 1:
        return optuna.pruners.NopPruner()
    return optuna.pruners.SuccessiveHalvingPruner(min_resource=rungs[0], reduction_factor=cfg.budget.reduction)


def settings_hash(cfg: TuneConfig) -> str:
    """A digest of what a study's results depend on: the resolved tune file without ``budget.trials`` (a resume may
    change that) and the content pack's hash."""
    data = cfg.model_dump(exclude_none=True)
    data["budget"].pop("trials", None)
    data["content_hash"] = content_hash(cfg.content)
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def check_study_file(path: Path, name: str) -> bool:
    """Whether a study file holds the study ``name`` (True) or no study at all (False: its creation was cut short,
    e.g. by a full disk; nothing to lose). Read-only: nothing is written into a damaged file. TuneError naming the
    file when it is not an SQLite database, fails ``quick_check`` or holds other studies."""
    fix = "restore it from a copy, or start the tune again with another --out"
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise TuneError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if head != SQLITE_HEADER:
        what = "an empty file" if not head else "not an SQLite database"
        raise TuneError(f"{path}: damaged or not an optuna study ({what}): {fix}")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            names = {row[0] for row in db.execute("SELECT study_name FROM studies")} if "studies" in tables else set()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise TuneError(f"{path}: damaged or not an optuna study ({exc}): {fix}") from None
    if check is None or check[0] != "ok":
        raise TuneError(f"{path}: damaged ({check[0] if check else 'no integrity check result'}): {fix}")
    if not names:
        return False
    if name not in names:
        held = ", ".join(sorted(map(str, names)))
        raise TuneError(f"{path}: holds no study named {name!r} (it holds: {held}); was tune.toml's name changed?")
    return True


def open_study(cfg: TuneConfig, out: Path) -> optuna.Study:
    """Create the study, or load it to continue (the sampler's seed moves on by the trials already run); TuneError
    when the file is damaged or the study was started with other settings."""
    url = storage_url(out)
    done = 0
    digest = settings_hash(cfg)
    path = out / STUDY_FILE
    if path.is_file() and not check_study_file(path, cfg.name):
        path.unlink()  # a study file whose creation was cut short: no study, no trial in it; start it again
    if path.is_file():
        before = optuna.load_study(study_name=cfg.name, storage=url)
        recorded = before.user_attrs.get(SETTINGS_ATTR)
        if recorded is not None and recorded != digest:
            raise TuneError(
                f"--resume {out}: tune.toml or the content pack changed since the study started (settings hash "
                f"{recorded}, now {digest}); only --trials may change: put them back, or start a new tune"
            )
        done = len(before.trials)
    study = optuna.create_study(
        study_name=cfg.name,
        storage=url,
        sampler=_sampler(cfg, done),
        pruner=_pruner(cfg),
        direction="minimize",
        load_if_exists=True,
    )
    if study.user_attrs.get(SETTINGS_ATTR) is None:
        study.set_user_attr(SETTINGS_ATTR, digest)
    return study


def _current(cfg: TuneConfig) -> dict[str, Any] | None:
    """The content's own values as study parameters, when every one lies in the space."""
    tree = content_tree(Path(cfg.content) if cfg.content else None)
    params: dict[str, Any] = {}
    for path, dim in cfg.space.items():
        node: Any = tree
        for part in path.split("."):
            node = node[part]
        if isinstance(dim, Choices):
            if node not in dim.choices:
                return None
            params[path] = space.encode(node)
        else:
            step = dim.step or (1 if dim.integer else None)
            on_grid = step is None or abs((node - dim.low) / step - round((node - dim.low) / step)) < 1e-9
            if isinstance(node, bool) or not dim.low <= node <= dim.high or not on_grid:
                return None
            params[path] = node
    return params


def _prepare(study: optuna.Study, cfg: TuneConfig) -> None:
    """First run: enqueue the baseline values. Resume: interrupted trials become failed and are enqueued again."""
    if not study.trials:
        current = _current(cfg)
        if current is not None:
            study.enqueue_trial(current, user_attrs={"baseline": True})
        return
    for t in study.trials:
        if t.state == TrialState.RUNNING:
            study.tell(t.number, state=TrialState.FAIL)
            if t.params:
                study.enqueue_trial(t.params)


def evaluate_trial(
    study: optuna.Study, cfg: TuneConfig, out: Path, console: Console, at: dict[str, list[int]]
) -> optuna.trial.FrozenTrial:
    """Ask for a candidate, play it rung by rung (pruned when successive halving says so) and tell the result."""
    return evaluate_batch(study, cfg, out, console, at, 1)[0]


def evaluate_batch(
    study: optuna.Study, cfg: TuneConfig, out: Path, console: Console, at: dict[str, list[int]], size: int
) -> list[optuna.trial.FrozenTrial]:
    """Ask for ``size`` candidates, play each rung of all of them as one stream of shard tasks (each pruned when
    successive halving says so, in trial order) and tell every result."""
    asked: list[tuple[optuna.trial.Trial, dict[str, Any]]] = []
    for _ in range(size):  # ask and suggest in turn: the sampler's draws come in the same order on every backend
        trial = study.ask()
        asked.append((trial, space.suggest(trial, cfg.space)))
    active: list[tuple[optuna.trial.Trial, dict[str, Any]]] = []
    for trial, values in asked:
        same = _played_before(study, trial.params)
        if same is None:
            active.append((trial, values))
            continue
        trial.set_user_attr("games", 0)  # the same values on the same seeds give the same games: reuse, play nothing
        trial.set_user_attr("same_as", same.number)
        for key in ("losses", "metrics", "errors"):
            trial.set_user_attr(key, same.user_attrs.get(key))
        study.tell(trial, same.value)
    rungs = cfg.budget.rungs()
    ended: dict[int, TrialState] = {}
    value: dict[int, float] = {}
    for games in rungs:
        playing = [(t, v) for t, v in active if t.number not in ended]
        if not playing:
            break
        runs = [
            (
                evaluate.experiment(cfg, name=f"{cfg.name}-trial-{t.number}", games=games, seed=cfg.seed, overrides=v),
                inside(out / "trials", f"{t.number:04d}"),
            )
            for t, v in playing
        ]
        for (trial, values), (exp, run_dir), played in zip(
            playing, runs, evaluate.play_many(runs, console), strict=True
        ):
            state, value[trial.number] = _score_rung(trial, values, played, cfg, out, run_dir, exp, games, console, at)
            if state != TrialState.COMPLETE:
                ended[trial.number] = state
    for trial, _ in active:
        state = ended.get(trial.number, TrialState.COMPLETE)
        study.tell(trial, value.get(trial.number) if state == TrialState.COMPLETE else None, state=state)
    return [study.trials[t.number] for t, _ in asked]


def _score_rung(
    trial: optuna.trial.Trial,
    values: dict[str, Any],
    played: evaluate.Played,
    cfg: TuneConfig,
    out: Path,
    run_dir: Path,
    exp: Experiment,
    games: int,
    console: Console,
    at: dict[str, list[int]],
) -> tuple[TrialState, float]:
    """Measure one trial after a rung: FAIL (games raised), PRUNED (successive halving), or COMPLETE so far, with
    its objective at this rung (NaN when it failed)."""
    trial.set_user_attr("games", played.games.height)
    trial.set_user_attr("errors", played.errors)
    if played.errors:  # the trial's numbers would leave games out: failed, its errors counted (exit 3)
        return TrialState.FAIL, float("nan")
    measures = targets.measure(cfg.targets, at, played.players, played.games)
    measures += component.measures(
        cfg,
        out,
        run_dir,
        values,
        name=exp.config.name,
        games=games,
        seed=cfg.seed,
        shard_size=None,
        console=console,
        at=at,
    )
    value = targets.objective(cfg.targets, measures)
    trial.set_user_attr("losses", json.dumps(targets.losses(cfg.targets, measures)))
    trial.set_user_attr("metrics", json.dumps({f"{m.target}@{m.players}": m.metric for m in measures}))
    if games != cfg.budget.rungs()[-1]:
        trial.report(value, games)
        if trial.should_prune():
            return TrialState.PRUNED, value
    return TrialState.COMPLETE, value


def _played_before(study: optuna.Study, params: dict[str, Any]) -> optuna.trial.FrozenTrial | None:
    for t in study.trials:
        if t.state == TrialState.COMPLETE and t.params == params and "same_as" not in t.user_attrs:
            return t
    return None


def optimise(
    study: optuna.Study,
    cfg: TuneConfig,
    out: Path,
    console: Console,
    at: dict[str, list[int]],
    on_trial: Callable[[optuna.trial.FrozenTrial], None] | None = None,
) -> str | None:
    """Run trials until ``budget.trials`` have finished (completed or pruned), or a finite space is exhausted;
    returns why it stopped early (None: the budget was spent)."""
    _prepare(study, cfg)
    points = space.points(cfg.space)
    while finished(study) < cfg.budget.trials:
        early = _exhausted(study, points)
        if early is not None:
            return early
        size = min(cfg.budget.batch, cfg.budget.trials - finished(study))
        try:
            frozen_batch = evaluate_batch(study, cfg, out, console, at, size)
        except BaseException:
            running = [t for t in study.trials if t.state == TrialState.RUNNING]
            for t in running:  # leave nothing RUNNING behind; resume enqueues these values again
                study.tell(t.number, state=TrialState.FAIL)
                study.enqueue_trial(t.params)
            raise
        if on_trial is not None:
            for frozen in frozen_batch:
                on_trial(frozen)
    return None


def _exhausted(study: optuna.Study, points: int | None) -> str | None:
    """Why a finite space of ``points`` points has nothing left to learn, or None: every point played, or the
    sampler proposed only points already played ``points`` times in a row."""
    if points is None:
        return None
    played = [t for t in study.trials if t.state in FINISHED or t.user_attrs.get("errors")]
    distinct = len({json.dumps(t.params, sort_keys=True) for t in played})
    if distinct >= points:
        return f"the space's {points:,} point(s) have all been played: the study ended after {len(played):,} trials"
    repeats = 0
    for t in reversed(played):
        if "same_as" not in t.user_attrs:
            break
        repeats += 1
    if repeats >= points:
        return (
            f"the sampler proposed only points already played {repeats:,} times in a row ({distinct:,} of the space's "
            f"{points:,} played): the study ended after {len(played):,} trials"
        )
    return None


def finished(study: optuna.Study) -> int:
    """Trials that completed, were pruned or had games raise (an interrupted trial does not count)."""
    return sum(t.state in FINISHED or bool(t.user_attrs.get("errors")) for t in study.trials)
