"""``report.html`` of a tune folder: one self-contained page (charts as embedded PNGs, inline CSS) with the headline,
the confirmation table, the before/after seat table with Wilson intervals, the optimisation history, parameter
importances (optuna's PED-ANOVA) and, when there are two or more targets, the trials' losses with the Pareto front."""

from __future__ import annotations

import base64
import io
import json
import math
import warnings
from pathlib import Path
from typing import Any

import jinja2
import optuna
import polars as pl
from optuna.trial import TrialState

from septima_sim.analysis import Settings, own_effect
from septima_sim.analysis.stats import wilson
from septima_sim.tune import space
from septima_sim.tune.confirm import Candidate, Confirmation
from septima_sim.tune.outputs import confirmation_frame, headline, trials_frame
from septima_sim.tune.schema import TuneConfig


def _png(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _figure(width: float = 7.5, height: float = 3.6) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, height))


def history_chart(trials: pl.DataFrame) -> str | None:
    """Objective per trial (pruned trials hollow at their last rung) and the best so far."""
    done = trials.filter(pl.col("objective").is_not_null())
    if done.is_empty():
        return None
    fig, ax = _figure()
    for state, style in (("complete", {"color": "#2b6cb0"}), ("pruned", {"facecolors": "none", "edgecolors": "#999"})):
        part = done.filter(pl.col("state") == state)
        ax.scatter(part["number"], part["objective"], s=22, label=state, **style)
    complete = done.filter(pl.col("state") == "complete").sort("number")
    if complete.height:
        best = complete["objective"].cum_min()
        ax.step(complete["number"], best, where="post", color="#c05621", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel("objective (lower is better)")
    ax.legend(loc="best", fontsize=8, framealpha=0.6)
    return _png(fig)


def importances(study: optuna.Study) -> dict[str, float]:
    """optuna's parameter importances (PED-ANOVA, no scikit-learn needed) over the completed trials; empty with
    fewer than two different ones."""
    complete = [t for t in study.trials if t.state == TrialState.COMPLETE]
    if len(complete) < 2 or len({json.dumps(t.params, sort_keys=True) for t in complete}) < 2:
        return {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        try:
            evaluator = optuna.importance.PedAnovaImportanceEvaluator()
            return dict(optuna.importance.get_param_importances(study, evaluator=evaluator))
        except (ValueError, RuntimeError):
            return {}


def importance_chart(values: dict[str, float]) -> str | None:
    if not values:
        return None
    fig, ax = _figure(7.5, 0.5 * len(values) + 1.2)
    names = [space.label(p) for p in values][::-1]
    ax.barh(names, list(values.values())[::-1], color="#2b6cb0")
    ax.set_xlabel("importance (PED-ANOVA)")
    return _png(fig)


def pareto(trials: pl.DataFrame, names: list[str]) -> tuple[str | None, int]:
    """Scatter of the first two targets' losses over completed trials, the non-dominated ones (over every target)
    joined; returns the chart and the size of the front (more than one point: the targets conflict)."""
    cols = [f"loss_{n}" for n in names]
    done = trials.filter((pl.col("state") == "complete") & pl.all_horizontal(pl.col(c).is_not_null() for c in cols))
    if len(names) < 2 or done.height < 2:
        return None, 0
    points = done.select("number", *cols).rows()

    def dominated(p: tuple[float, ...], q: tuple[float, ...]) -> bool:
        return all(b <= a for a, b in zip(p[1:], q[1:], strict=True)) and q[1:] != p[1:]

    front = sorted((p for p in points if not any(dominated(p, q) for q in points)), key=lambda p: p[1])
    fig, ax = _figure(6.0, 4.2)
    ax.scatter([p[1] for p in points], [p[2] for p in points], s=18, color="#bbb", label="trials")
    ax.plot([p[1] for p in front], [p[2] for p in front], "o-", color="#c05621", label="Pareto front")
    for p in front:
        ax.annotate(str(p[0]), (p[1], p[2]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel(f"{names[0]} loss")
    ax.set_ylabel(f"{names[1]} loss")
    ax.legend(fontsize=8)
    return _png(fig), len(front)


def seat_table(conf: Confirmation) -> list[dict[str, Any]]:
    """Win rate by seat per player count, baseline and best on the same fresh seeds, with Wilson intervals."""
    rows = []
    frames = {"baseline": conf.baseline.played.players, "best": conf.best.played.players}
    per: dict[str, dict[tuple[int, int], tuple[str, float, float, float, int]]] = {}
    for label, frame in frames.items():
        grouped = frame.group_by("players", "seat").agg(
            pl.col("colour").first(), k=pl.col("won").cast(pl.Int64).sum(), m=pl.len()
        )
        per[label] = {}
        for n, seat, colour, k, m in grouped.iter_rows():
            lo, hi = wilson(k, m)
            per[label][(n, seat)] = (colour, 100 * k / m, 100 * lo, 100 * hi, m)
    for key in sorted(per["baseline"]):
        colour, b, blo, bhi, m = per["baseline"][key]
        _, a, alo, ahi, _ = per["best"].get(key, (colour, math.nan, math.nan, math.nan, 0))
        rows.append(
            {
                "players": key[0],
                "seat": key[1],
                "colour": colour,
                "fair": 100 / key[0],
                "games": m,
                "baseline": b,
                "baseline_lo": blo,
                "baseline_hi": bhi,
                "best": a,
                "best_lo": alo,
                "best_hi": ahi,
            }
        )
    return rows


def _own(candidate: Candidate, cfg: TuneConfig) -> str:
    """The candidate's changed cards' own effects on the fresh games (``analysis.own_effect``), or ''."""
    played = candidate.played
    if "wisdom" not in played.players.columns:
        return ""
    return "; ".join(own_effect.of_values(candidate.values, played.players, played.games, Settings(), cfg.content))


def write_report(study: optuna.Study, cfg: TuneConfig, conf: Confirmation, out: Path) -> Path:
    """Write ``out/report.html`` and return its path."""
    trials = trials_frame(study, cfg)
    names = list(cfg.targets.named())
    imp = importances(study)
    pareto_png, front = pareto(trials, names)
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("septima_sim.tune", "templates"), autoescape=True, undefined=jinja2.StrictUndefined
    )
    html = env.get_template("report.html.j2").render(
        cfg=cfg,
        headline=headline(cfg, conf),
        confirmation=confirmation_frame(conf).to_dicts(),
        seats=seat_table(conf),
        conf=conf,
        best_values=[(space.label(p), space.show(v)) for p, v in conf.best.values.items()],
        candidates=[
            (c.number, space.describe(c.values), c.study_value, c.objective, _own(c, cfg)) for c in conf.candidates
        ],
        trials=trials,
        history=history_chart(trials),
        importances=imp,
        importance_png=importance_chart(imp),
        pareto=pareto_png,
        front=front,
        states={s: trials.filter(pl.col("state") == s).height for s in ("complete", "pruned", "fail")},
        games=int(trials["games"].sum()) if trials.height else 0,
        label=space.label,
    )
    path = out / "report.html"
    path.write_text(html)
    return path
