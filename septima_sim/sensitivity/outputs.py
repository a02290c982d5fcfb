"""The files of a finished study: ``sensitivity.csv`` (one row per value and metric), ``samples.parquet`` (each
sample's values, run directory and metrics) and ``sensitivity.html``; each written whole or not at all."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import polars as pl

from septima_sim import store
from septima_sim.sensitivity import analyze, page
from septima_sim.sensitivity.metrics import Measured
from septima_sim.sensitivity.params import problem

if TYPE_CHECKING:
    from septima_sim.sensitivity.run import Plan

CSV = "sensitivity.csv"
SAMPLES = "samples.parquet"
HTML = "sensitivity.html"


def samples_frame(plan: Plan, measured: list[Measured], errors: list[int]) -> pl.DataFrame:
    """One row per sample: its id, run directory (relative to the study folder), games that raised, its values
    (one column per path) and metrics (``<name>@<players>`` and its standard error ``<name>@<players> se``)."""
    keys = [k for group in analyze.metric_keys(measured) for k in group]
    columns: dict[str, list[object]] = {
        "sample": [plan.sample_id(i) for i in range(len(plan.samples))],
        "run": [f"runs/{plan.sample_id(i)}" for i in range(len(plan.samples))],
        "errors": list(errors),
    }
    for p in plan.params:
        columns[p.path] = [s[p.path] for s in plan.samples]
    for k in keys:
        columns[k] = [m.get(k, (None, None))[0] for m in measured]
        columns[f"{k} se"] = [m.get(k, (None, None))[1] for m in measured]
    return pl.DataFrame(columns, strict=False)


def _bytes_csv(frame: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.write_csv(buf, float_precision=6)
    return buf.getvalue()


def _bytes_parquet(frame: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    frame.write_parquet(buf)
    return buf.getvalue()


def write(plan: Plan, measured: list[Measured], errors: list[int]) -> pl.DataFrame:
    """Analyse the samples and write every output; returns the ``sensitivity.csv`` table."""
    table = analyze.analyze(plan.method, plan.params, problem(plan.params), plan.design, measured, plan.seed)
    _, skipped = analyze.metric_keys(measured)
    store.write_atomic(plan.out / CSV, _bytes_csv(table))
    store.write_atomic(plan.out / SAMPLES, _bytes_parquet(samples_frame(plan, measured, errors)))
    store.write_atomic(plan.out / HTML, page.render(plan, table, skipped).encode())
    return table
