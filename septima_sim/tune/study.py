"""The optuna study: SQLite storage in the output folder, the sampler (TPE, CMA-ES or random, seeded), successive
halving over rungs of games, and the ask-and-tell loop that evaluates one candidate at a time through the runner.

Trial 0 is the content as it stands when the space contains its values, so the study starts from the baseline. An
interrupted trial is marked failed on resume and its values are tried again first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import optuna
from optuna.trial import TrialState
from rich.console import Console

from septima_sim.content.loader import content_tree
from septima_sim.tune import component, evaluate, space, targets
from septima_sim.tune.schema import Choices, TuneConfig

STUDY_FILE = "study.sqlite3"
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)

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


def open_study(cfg: TuneConfig, out: Path) -> optuna.Study:
    """Create the study, or load it to continue (the sampler's seed moves on by the trials already run)."""
    url = storage_url(out)
    done = 0
    if (out / STUDY_FILE).is_file():
        done = len(optuna.load_study(study_name=cfg.name, storage=url).trials)
    return optuna.create_study(
        study_name=cfg.name,
        storage=url,
        sampler=_sampler(cfg, done),
        pruner=_pruner(cfg),
        direction="minimize",
        load_if_exists=True,
    )


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
    trial = study.ask()
    values = space.suggest(trial, cfg.space)
    same = _played_before(study, trial.params)
    if same is not None:  # the same values on the same seeds give the same games: reuse, play nothing
        trial.set_user_attr("games", 0)
        trial.set_user_attr("same_as", same.number)
        for key in ("losses", "metrics", "errors"):
            trial.set_user_attr(key, same.user_attrs.get(key))
        study.tell(trial, same.value)
        return study.trials[trial.number]
    run_dir = out / "trials" / f"{trial.number:04d}"
    rungs = cfg.budget.rungs()
    state, value = TrialState.COMPLETE, None
    for games in rungs:
        exp = evaluate.experiment(
            cfg, name=f"{cfg.name}-trial-{trial.number}", games=games, seed=cfg.seed, overrides=values
        )
        played = evaluate.play(exp, run_dir, console)
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
        trial.set_user_attr("games", played.games.height)
        trial.set_user_attr("errors", played.errors)
        trial.set_user_attr("losses", json.dumps(targets.losses(cfg.targets, measures)))
        trial.set_user_attr("metrics", json.dumps({f"{m.target}@{m.players}": m.metric for m in measures}))
        if played.errors:
            state = TrialState.FAIL
            break
        if games != rungs[-1]:
            trial.report(value, games)
            if trial.should_prune():
                state = TrialState.PRUNED
                break
    study.tell(trial, value if state == TrialState.COMPLETE else None, state=state)
    return study.trials[trial.number]


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
) -> None:
    """Run trials until ``budget.trials`` have finished (completed or pruned)."""
    _prepare(study, cfg)
    while finished(study) < cfg.budget.trials:
        try:
            frozen = evaluate_trial(study, cfg, out, console, at)
        except BaseException:
            running = [t for t in study.trials if t.state == TrialState.RUNNING]
            for t in running:  # leave nothing RUNNING behind; resume enqueues these values again
                study.tell(t.number, state=TrialState.FAIL)
                study.enqueue_trial(t.params)
            raise
        if on_trial is not None:
            on_trial(frozen)


def finished(study: optuna.Study) -> int:
    """Trials that completed, were pruned or had games raise (an interrupted trial does not count)."""
    return sum(t.state in FINISHED or bool(t.user_attrs.get("errors")) for t in study.trials)
