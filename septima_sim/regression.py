"""CI balance regression: a compact baseline of per-game outcomes, and a check that replays its seeds on the current
code and content and compares metric by metric.

Every metric is a per-game quantity (a seat's win, the winning score, the game's decisions...) or a spread of one,
summarised per cell. Baseline and current games share seeds (game ``i`` of the check replays game ``i`` of the
baseline), so each comparison is paired: the delta is the mean per-game difference with a normal 95% interval (a
seeded paired bootstrap for spreads), tested with the exact McNemar test for 0/1 outcomes and a z test otherwise,
Holm-corrected (or BH) across all metrics. Against a declared tolerance the verdict is:

- ``pass``: the interval of the delta lies within ± tolerance (equivalence, TOST-style);
- ``shift``: the delta is significant after correction and its estimate lies outside ± tolerance (exit 1);
- ``inconclusive``: neither; it fails the build only with ``strict``.

Sequential mode plays the games in batches (one shard of every cell at a time) and stops as soon as no metric is
inconclusive; each of the K looks uses level alpha/K (Bonferroni over looks, repeated confidence intervals), so
stopping early keeps the error rates of the fixed design.
"""

from __future__ import annotations

import json
import math
import os
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np
import polars as pl
from joblib import Parallel, delayed
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from scipy import stats

from septima_sim import __version__, runner, store
from septima_sim.analysis.stats import bh, holm, mcnemar_p, normal_p
from septima_sim.content import load_content
from septima_sim.engine.results import RULES_VERSION
from septima_sim.experiment import Cell, Experiment, ExperimentError, build, load_experiment

SCHEMA = "septima-sim/balance-baseline"
SCHEMA_VERSION = 1
"""Version of the baseline file format; a file with another version is refused (exit 2)."""

DEFAULT_TOLERANCES = Path(__file__).parent / "content" / "tolerances.toml"

GAME_COLUMNS: tuple[str, ...] = ("winning_score", "margin", "tie", "turns", "decisions", "solo_won")
"""Per-game columns kept in a baseline (a column with nulls in a cell, e.g. ``solo_won`` outside solo, is left out)."""
SEAT_COLUMNS: tuple[str, ...] = ("won", "suspicion_end", "captures")
"""Per-seat columns kept in a baseline, stored as ``<column>_<seat>``."""
MODULE_AXES: tuple[str, ...] = ("shapeshifting", "omens")
"""Boolean axes whose on-minus-off effect (paired by game index) is compared when the config has both values."""
EFFECT_OF: tuple[str, ...] = ("winning_score", "decisions")

MetricKind = Literal[
    "win_rate",
    "solo_win_rate",
    "winning_score",
    "winning_score_sd",
    "margin",
    "turns",
    "decisions",
    "tie_rate",
    "suspicion_end",
    "capture_rate",
    "effect_winning_score",
    "effect_decisions",
]
Verdict = Literal["pass", "shift", "inconclusive"]


class RegressionInputError(ValueError):
    """A baseline, tolerance file or config that cannot be used: one line, exit code 2."""


# --------------------------------------------------------------------------------------------- tolerances
class Tolerances(BaseModel):
    """Declared tolerances: an absolute number, or ``"N%"`` of the baseline value, per metric kind; ``metric`` holds
    overrides for single metrics by their full id (``<cell> <metric>``)."""

    model_config = ConfigDict(extra="forbid")

    alpha: float = Field(0.05, gt=0, lt=0.5)
    correction: Literal["holm", "bh"] = "holm"
    bootstrap_resamples: int = Field(1000, ge=100)
    tolerance: dict[MetricKind, float | str] = {}
    metric: dict[str, float | str] = {}

    def band(self, metric_id: str, kind: str, baseline_value: float) -> float:
        """The absolute half-width of the band of ``metric_id`` (a percentage resolves against the baseline)."""
        value = self.metric.get(metric_id, self.tolerance.get(kind))  # type: ignore[call-overload]
        if value is None:
            raise RegressionInputError(f"tolerances: no tolerance for metric kind {kind!r}")
        if isinstance(value, str):
            return abs(baseline_value) * float(value.removesuffix("%")) / 100
        return float(value)


def load_tolerances(path: Path | None = None) -> Tolerances:
    """The shipped defaults, with ``path`` (TOML) layered over them; bad files raise RegressionInputError."""
    merged: dict[str, Any] = {}
    for source in (DEFAULT_TOLERANCES, path):
        if source is None:
            continue
        try:
            data = tomllib.loads(source.read_text())
        except OSError as exc:
            raise RegressionInputError(f"{source}: cannot read the tolerance file ({exc.strerror or exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise RegressionInputError(f"{source}: invalid TOML: {exc}") from None
        for key, value in data.items():
            merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
    try:
        tol = Tolerances.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise RegressionInputError(f"{path or DEFAULT_TOLERANCES}: {loc}: {first['msg']}") from None
    for key, value in [*tol.tolerance.items(), *tol.metric.items()]:
        if isinstance(value, str) and not _is_percent(value):
            raise RegressionInputError(f"{path}: tolerance {key!r}: expected a number or 'N%', got {value!r}")
    return tol


def _is_percent(text: str) -> bool:
    try:
        return text.endswith("%") and float(text[:-1]) >= 0
    except ValueError:
        return False


# --------------------------------------------------------------------------------------------- playing
Outcomes = dict[str, pl.DataFrame]
"""Per cell id, one row per game (``game_index`` plus GAME_COLUMNS and ``<seat column>_<seat>``), sorted."""


@dataclass(slots=True)
class Played:
    """Games played for a baseline or a check: outcomes per cell and the games that raised."""

    outcomes: Outcomes
    errors: int = 0
    first_error: str | None = None


def _outcomes(games: pl.DataFrame, players: pl.DataFrame) -> Outcomes:
    """Wide per-game frames per cell from runner tables (bools as 0/1, null-bearing columns dropped); pivoting
    several value columns names them ``<column>_<seat>``."""
    wide = players.select("cell_id", "game_index", "seat", *SEAT_COLUMNS).pivot(
        "seat", index=["cell_id", "game_index"], values=list(SEAT_COLUMNS)
    )
    cols = [c for c in GAME_COLUMNS if c in games.columns]
    table = games.select("cell_id", "game_index", *cols).join(wide, on=["cell_id", "game_index"], how="left")
    table = table.with_columns(pl.col(pl.Boolean).cast(pl.Int8))
    out = {}
    for (cell_id,), grp in table.sort("cell_id", "game_index").group_by("cell_id", maintain_order=True):
        grp = grp.drop("cell_id")
        out[str(cell_id)] = grp.select(c for c in grp.columns if grp[c].null_count() == 0)
    return out


def _merge(parts: Iterable[Outcomes]) -> Outcomes:
    merged: dict[str, list[pl.DataFrame]] = {}
    for part in parts:
        for cell, frame in part.items():
            merged.setdefault(cell, []).append(frame)
    return {c: pl.concat(f, how="diagonal").sort("game_index") for c, f in merged.items()}


def play(tasks: list[runner.ShardTask], jobs: int | None) -> Played:
    """Play shards through the runner's worker function (local processes) and collect their outcomes."""
    games: list[pl.DataFrame] = []
    players: list[pl.DataFrame] = []
    played = Played({})
    with runner.parallel_backend("local", jobs, None):
        for out in Parallel(return_as="generator_unordered")(delayed(runner.play_shard)(t) for t in tasks):
            played.errors += out.errors
            for table, sink in (("games", games), ("players", players)):
                if table in out.tables:
                    sink.append(pl.read_parquet(out.tables[table][0]))
            if "errors" in out.tables and played.first_error is None:
                played.first_error = pl.read_parquet(out.tables["errors"][0])["error"][0]
    if games:
        played.outcomes = _outcomes(
            pl.concat(games, how="diagonal_relaxed"), pl.concat(players, how="diagonal_relaxed")
        )
    return played


def shard_tasks(exp: Experiment) -> list[runner.ShardTask]:
    """Every shard of an experiment, as the runner plans them (no run directory is written)."""
    return runner.plan(exp, "regression", Path("<regression>"), events=False)


# --------------------------------------------------------------------------------------------- baseline file
def baseline(
    config_path: Path,
    out_file: Path,
    jobs: int | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    content: Path | None = None,
) -> Played:
    """Play a config and write its baseline file (nothing is written if a game raised: check ``errors``)."""
    try:
        exp = load_experiment(config_path, games=games, seed=seed, content=content)
    except ExperimentError as exc:
        raise RegressionInputError(str(exc)) from None
    played = play(shard_tasks(exp), jobs)
    if not played.errors:
        write_baseline(exp, played.outcomes, out_file)
    return played


def write_baseline(exp: Experiment, outcomes: Outcomes, out_file: Path) -> None:
    """Write the baseline JSON (one line per column, so diffs stay readable)."""
    cfg = exp.config
    data = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "package_version": __version__,
        "rules_version": RULES_VERSION,
        "content_hash": load_content(exp.content_dir).hash,
        "config_hash": exp.hash,
        "config": exp.resolved(),
        "seeds": {
            "root": cfg.seed,
            "derivation": "SeedSequence(root, spawn_key=(game_index,)), top 63 bits; the same in every cell",
            "games": [runner.game_seed(cfg.seed, i) for i in range(cfg.games_per_cell)],
        },
        "cells": {
            cell.id: {
                "players": cell.players,
                "outcomes": outcomes[cell.id].drop("game_index").to_dict(as_series=False),
            }
            for cell in exp.cells
        },
    }
    try:
        store.write_atomic(out_file, (_dump(data) + "\n").encode())
    except OSError as exc:
        raise RegressionInputError(f"cannot write {out_file}: {exc.strerror or exc}") from None


def _dump(value: Any, indent: int = 0) -> str:
    """JSON with nested objects indented and lists of scalars on one line."""
    if isinstance(value, dict) and value:
        pad = " " * (indent + 1)
        items = ",\n".join(f"{pad}{json.dumps(k)}: {_dump(v, indent + 1)}" for k, v in value.items())
        return "{\n" + items + "\n" + " " * indent + "}"
    return json.dumps(value, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Baseline:
    """A loaded baseline: its experiment (rebuilt from the stored config), outcomes and provenance."""

    path: Path
    exp: Experiment
    outcomes: Outcomes
    meta: dict[str, Any]


def read_baseline(path: Path, content: Path | None = None) -> Baseline:
    """Load and validate a baseline file; ``content`` replaces the config's content pack (what-if checks)."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise RegressionInputError(f"{path}: cannot read the baseline ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RegressionInputError(f"{path}: not a baseline file (invalid JSON: {exc})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise RegressionInputError(f"{path}: not a septima-sim baseline file (no schema {SCHEMA!r})")
    if data.get("schema_version") != SCHEMA_VERSION:
        raise RegressionInputError(
            f"{path}: baseline schema version {data.get('schema_version')!r}, this septima-sim reads "
            f"{SCHEMA_VERSION}; regenerate it with `septima-sim baseline`"
        )
    try:
        config = dict(data["config"])
        if content is not None:
            config["content"] = str(content.resolve())
        exp = build(config, f"{path}: config")
        seeds = data["seeds"]
        cells = data["cells"]
        outcomes = {
            cell_id: pl.DataFrame(cell["outcomes"]).with_row_index("game_index").cast({"game_index": pl.Int32})
            for cell_id, cell in cells.items()
        }
    except ExperimentError as exc:
        raise RegressionInputError(str(exc)) from None
    except (KeyError, TypeError, ValueError, pl.exceptions.PolarsError) as exc:
        raise RegressionInputError(f"{path}: malformed baseline ({type(exc).__name__}: {exc})") from None
    if [runner.game_seed(exp.config.seed, i) for i in range(len(seeds["games"]))] != seeds["games"]:
        raise RegressionInputError(f"{path}: the seed derivation changed since this baseline; regenerate it")
    if sorted(cells) != sorted(c.id for c in exp.cells):
        raise RegressionInputError(f"{path}: the config's cells no longer match the baseline's; regenerate it")
    meta = {k: v for k, v in data.items() if k not in ("cells", "seeds", "config")}
    return Baseline(path, exp, outcomes, meta)


# --------------------------------------------------------------------------------------------- metrics
@dataclass(frozen=True, slots=True)
class Metric:
    """One compared quantity: per-game values in the baseline (``x``) and now (``y``), paired by game index."""

    id: str
    kind: str
    x: np.ndarray
    y: np.ndarray
    spread: bool = False
    binary: bool = False


def _seat_mean(frame: pl.DataFrame, column: str, expr: Callable[[pl.Expr], pl.Expr] = lambda e: e) -> pl.Series:
    cols = [c for c in frame.columns if c.rsplit("_", 1)[0] == column]
    return frame.select(pl.mean_horizontal(expr(pl.col(c)).cast(pl.Float64) for c in cols)).to_series()


def _series(frame: pl.DataFrame, kind: str, seat: int = 0) -> pl.Series | None:
    """The per-game values of a metric kind in one cell (None when the cell has no such column)."""
    column = {
        "win_rate": f"won_{seat}",
        "solo_win_rate": "solo_won",
        "winning_score": "winning_score",
        "winning_score_sd": "winning_score",
        "margin": "margin",
        "turns": "turns",
        "decisions": "decisions",
        "tie_rate": "tie",
    }.get(kind)
    if kind == "suspicion_end":
        return _seat_mean(frame, "suspicion_end")
    if kind == "capture_rate":
        return _seat_mean(frame, "captures", lambda e: e > 0)
    return frame[column] if column in frame.columns else None


_CELL_KINDS: tuple[str, ...] = tuple(k for k in get_args(MetricKind) if k != "win_rate" and not k.startswith("effect_"))
"""Per-cell metric kinds (per-seat win rates and module effects are built separately)."""
_BINARY = {"win_rate", "solo_win_rate", "tie_rate"}


def metrics(exp: Experiment, base: Outcomes, cur: Outcomes) -> list[Metric]:
    """Every metric of every cell, plus module effects, on the games both sides played (paired by index)."""
    pairs: dict[str, tuple[pl.DataFrame, pl.DataFrame]] = {}
    for cell in exp.cells:
        if cell.id in cur:
            joined = base[cell.id].join(cur[cell.id].select("game_index"), on="game_index")
            pairs[cell.id] = (joined, cur[cell.id].join(joined.select("game_index"), on="game_index"))
    out: list[Metric] = []

    def add(metric_id: str, kind: str, x: pl.Series | None, y: pl.Series | None) -> None:
        if x is not None and y is not None and len(x):
            spread = kind.endswith("_sd")
            out.append(
                Metric(metric_id, kind, x.to_numpy().astype(float), y.to_numpy().astype(float), spread, kind in _BINARY)
            )

    for cell in exp.cells:
        if cell.id not in pairs:
            continue
        b, c = pairs[cell.id]
        if cell.players > 1:
            for seat in range(cell.players):
                add(
                    f"{cell.id} win_rate[seat {seat}]",
                    "win_rate",
                    _series(b, "win_rate", seat),
                    _series(c, "win_rate", seat),
                )
        for kind in _CELL_KINDS:
            add(f"{cell.id} {kind}", kind, _series(b, kind), _series(c, kind))
    for axis in MODULE_AXES:
        for on in exp.cells:
            off = _module_off(exp, on, axis)
            if off is None or on.id not in pairs or off.id not in pairs:
                continue
            n = min(pairs[on.id][0].height, pairs[off.id][0].height)
            for of in EFFECT_OF:
                sides = [(_series(pairs[on.id][i], of), _series(pairs[off.id][i], of)) for i in (0, 1)]
                if all(a is not None and b is not None for a, b in sides):
                    xs, ys = (a[:n] - b[:n] for a, b in sides)  # type: ignore[index]
                    add(f"{on.id} effect[{axis}] on {of}", f"effect_{of}", xs, ys)
    return out


def _module_off(exp: Experiment, on: Cell, axis: str) -> Cell | None:
    """The cell equal to ``on`` but with module ``axis`` off (None if ``on`` has it off or the config lacks it);
    turning Omens off also sets the Omen deck to ``none``."""
    if not getattr(on, axis):
        return None
    want = {**on.axis_values(), axis: False, **({"omen_deck": "none"} if axis == "omens" else {})}
    return next((c for c in exp.cells if c.axis_values() == want), None)


# --------------------------------------------------------------------------------------------- comparison
@dataclass(frozen=True, slots=True)
class Row:
    """One line of the verdict table."""

    metric: str
    kind: str
    n: int
    baseline: float
    current: float
    delta: float
    lo: float
    hi: float
    p: float
    p_adj: float
    tolerance: float
    verdict: Verdict


def _paired(m: Metric, z: float, resamples: int) -> tuple[float, float, float, float, float, float]:
    """(baseline, current, delta, standard error, lo, hi) of one metric; spreads use a seeded paired bootstrap."""
    if m.spread:
        base, cur = float(np.std(m.x, ddof=1)), float(np.std(m.y, ddof=1))
        idx = np.random.default_rng(len(m.x)).integers(0, len(m.x), size=(resamples, len(m.x)))
        se = float(np.std(np.std(m.y[idx], axis=1, ddof=1) - np.std(m.x[idx], axis=1, ddof=1), ddof=1))
    else:
        base, cur = float(m.x.mean()), float(m.y.mean())
        se = float(np.std(m.y - m.x, ddof=1) / math.sqrt(len(m.x)))
    delta = cur - base
    return base, cur, delta, se, delta - z * se, delta + z * se


def _p_value(m: Metric, delta: float, se: float) -> float:
    if m.binary:
        d = m.y - m.x
        return mcnemar_p(int((d > 0).sum()), int((d < 0).sum()))
    if se > 0:
        return normal_p(delta, se)
    return 1.0 if delta == 0 else 0.0


def compare(items: list[Metric], tol: Tolerances, looks: int = 1) -> list[Row]:
    """Paired deltas with intervals, corrected p-values and verdicts; ``looks`` > 1 splits alpha over the looks of
    a sequential check (each look uses alpha / looks)."""
    alpha = tol.alpha / looks
    z = float(stats.norm.ppf(1 - alpha / 2))
    parts = [_paired(m, z, tol.bootstrap_resamples) for m in items]
    pvalues = [_p_value(m, part[2], part[3]) for m, part in zip(items, parts, strict=True)]
    adjusted = (holm if tol.correction == "holm" else bh)(pvalues) if pvalues else []
    rows = []
    for m, (base, cur, delta, _, lo, hi), p, p_adj in zip(items, parts, pvalues, adjusted, strict=True):
        band = tol.band(m.id, m.kind, base)
        verdict: Verdict = "inconclusive"
        if -band <= lo and hi <= band:
            verdict = "pass"
        elif p_adj < alpha and abs(delta) > band:
            verdict = "shift"
        rows.append(Row(m.id, m.kind, len(m.x), base, cur, delta, lo, hi, p, p_adj, band, verdict))
    return rows


# --------------------------------------------------------------------------------------------- check
@dataclass(slots=True)
class CheckResult:
    """The outcome of a check: verdict rows, games played, failures and the provenance of both sides."""

    rows: list[Row]
    baseline: Baseline
    content_hash: str
    games: int
    games_planned: int
    looks: int
    errors: int = 0
    first_error: str | None = None
    strict: bool = False
    alpha: float = 0.05

    @property
    def shifts(self) -> list[Row]:
        return [r for r in self.rows if r.verdict == "shift"]

    @property
    def exit_code(self) -> int:
        """0 within tolerance, 1 balance shift (or inconclusive with ``strict``), 3 games failed."""
        if self.errors:
            return 3
        if self.shifts or (self.strict and any(r.verdict == "inconclusive" for r in self.rows)):
            return 1
        return 0


def check(
    baseline_file: Path,
    tolerance_file: Path | None = None,
    jobs: int | None = None,
    sequential: bool = False,
    *,
    strict: bool = False,
    content: Path | None = None,
    on_look: Callable[[int, int, list[Row]], None] | None = None,
) -> CheckResult:
    """Replay a baseline's config and seeds on the current code and content and compare every metric.

    With ``sequential``, games are played one shard of every cell at a time and the check stops when no metric is
    inconclusive (``on_look`` is told after each batch)."""
    tol = load_tolerances(tolerance_file)
    base = read_baseline(baseline_file, content)
    tasks = shard_tasks(base.exp)
    batches = sorted({t.part for t in tasks})
    looks = len(batches) if sequential else 1
    groups = [[t for t in tasks if t.part == part] for part in batches] if sequential else [tasks]
    parts: list[Outcomes] = []
    planned = sum(t.stop - t.start for t in tasks)
    result = CheckResult(
        [], base, load_content(base.exp.content_dir).hash, 0, planned, looks, strict=strict, alpha=tol.alpha
    )
    for look, group in enumerate(groups, 1):
        played = play(group, jobs)
        result.errors += played.errors
        result.first_error = result.first_error or played.first_error
        if result.errors:
            break
        parts.append(played.outcomes)
        current = _merge(parts)
        result.rows = compare(metrics(base.exp, base.outcomes, current), tol, looks)
        result.games = sum(f.height for f in current.values())
        if on_look is not None:
            on_look(look, looks, result.rows)
        if all(r.verdict != "inconclusive" for r in result.rows):
            break
    return result


# --------------------------------------------------------------------------------------------- output
def _num(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"


_MARK = {"pass": "pass", "shift": "**SHIFT**", "inconclusive": "inconclusive"}


def markdown(result: CheckResult) -> str:
    """The verdict table and a one-line summary, as Markdown."""
    meta = result.baseline.meta
    counts = {v: sum(r.verdict == v for r in result.rows) for v in ("pass", "shift", "inconclusive")}
    status = {
        0: "within tolerance",
        1: "BALANCE SHIFT" if result.shifts else "INCONCLUSIVE (strict)",
        3: "GAMES FAILED",
    }[result.exit_code]
    lines = [
        f"### Balance check: {status}",
        "",
        f"Baseline `{result.baseline.path.name}` (content {meta.get('content_hash')}, rules "
        f"{meta.get('rules_version')}, septima-sim {meta.get('package_version')}) vs current (content "
        f"{result.content_hash}, rules {RULES_VERSION}, septima-sim {__version__}): {result.games:,} of "
        f"{result.games_planned:,} games replayed on the same seeds, {len(result.rows)} metrics "
        f"({counts['pass']} pass, {counts['shift']} shift, {counts['inconclusive']} inconclusive).",
    ]
    if result.looks > 1:
        lines.append(f"Sequential: {result.looks} planned looks at level {result.alpha:g}/{result.looks} each.")
    if result.errors:
        lines.append(f"{result.errors} game(s) raised, first: `{result.first_error}`")
    lines += [
        "",
        "| metric | baseline | current | delta [95% CI] | tolerance | verdict |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in result.rows:
        delta = f"{r.delta:+.3f} [{r.lo:+.3f}, {r.hi:+.3f}]"
        lines.append(
            f"| {r.metric} | {_num(r.baseline)} | {_num(r.current)} | {delta} | ±{_num(r.tolerance)} | "
            f"{_MARK[r.verdict]} |"
        )
    return "\n".join(lines) + "\n"


def append_step_summary(text: str) -> None:
    """Append to ``$GITHUB_STEP_SUMMARY`` when that variable is set (GitHub Actions' job summary)."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(text + "\n")


def write_junit(result: CheckResult, path: Path) -> None:
    """JUnit XML: one test case per metric, a failure for a shift (and for inconclusive with ``strict``)."""
    failing = {"shift", "inconclusive"} if result.strict else {"shift"}
    failures = sum(r.verdict in failing for r in result.rows)
    suite = ET.Element(
        "testsuite",
        name="septima-sim balance check",
        tests=str(len(result.rows) + bool(result.errors)),
        failures=str(failures),
        errors=str(int(bool(result.errors))),
    )
    for r in result.rows:
        cell, _, name = r.metric.partition(" ")
        case = ET.SubElement(suite, "testcase", classname=f"balance.{cell}", name=name)
        detail = (
            f"baseline {r.baseline:.4f}, current {r.current:.4f}, delta {r.delta:+.4f} "
            f"[{r.lo:+.4f}, {r.hi:+.4f}] over {r.n} paired games, tolerance ±{r.tolerance:.4f}, "
            f"p_adj {r.p_adj:.3g}: {r.verdict}"
        )
        if r.verdict in failing:
            ET.SubElement(case, "failure", message=f"{r.verdict}: delta {r.delta:+.4f}", type=r.verdict).text = detail
        else:
            ET.SubElement(case, "system-out").text = detail
    if result.errors:
        case = ET.SubElement(suite, "testcase", classname="balance", name="games")
        ET.SubElement(case, "error", message=f"{result.errors} game(s) raised").text = result.first_error or ""
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)
