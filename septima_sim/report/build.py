"""Assemble the designer's report of a run: every section, the headline findings, then HTML, Markdown and CSV
files in one output folder."""

from __future__ import annotations

import importlib
from pathlib import Path

import polars as pl
from jinja2 import Environment, PackageLoader

from septima_sim import analysis
from septima_sim.analysis import RunTables, Settings
from septima_sim.analysis.skill import component_robustness
from septima_sim.engine.modules import MODULES
from septima_sim.report.ablation import table as ablate_table
from septima_sim.report.examples import Example, component_examples, seat_example, write_examples
from septima_sim.report.headlines import Findings, Headline, headlines
from septima_sim.report.markdown import md_escape
from septima_sim.report.page import Builder, Report
from septima_sim.report.sections import (
    actions,
    components,
    coverage,
    flow,
    methods,
    modules,
    outcomes,
    personas,
    seats,
    sources,
    suspicion,
    sweeps,
    trials,
    wisdom_components,
)
from septima_sim.report.sections import compare as compare_section
from septima_sim.report.sections import sensitivity as sensitivity_section


def build_report(
    run_dir: Path | str,
    out_dir: Path | str | None = None,
    compare: Path | str | None = None,
    settings: Settings | None = None,
    *,
    notice: str | None = None,
    sensitivity: Path | None = None,
) -> Report:
    """Analyse a run and write ``report.html`` (self-contained), ``summary.md``, ``charts/*.png`` and
    ``tables/*.csv`` to ``out_dir`` (default: ``<run>/report``). ``notice`` (e.g. games missing from a damaged
    run) is the first line of both documents; ``sensitivity`` a study folder whose findings annotate the headlines.
    Raises RunDataError on a bad run directory (SensitivityError on a bad study folder)."""
    settings = settings or Settings()
    study = sensitivity_section.load(sensitivity) if sensitivity is not None else None
    run = analysis.open_run(run_dir)
    other = analysis.open_run(compare) if compare is not None else None
    b = Builder(settings)
    seat_tables = seats.add(b, run)
    sweeps.add(b, run)
    outcomes.add(b, run)
    flow.add(b, run)
    sources.add(b, run)
    wisdom_components.add(b, run)
    suspicion.add(b, run)
    actions.add(b, run)
    trials.add(b, run)
    comps = components.add(b, run)
    rarely = coverage.add(b, run)
    mods = modules.add(b, run)
    personas.add(b, run)
    module_lines = _module_sections(b, run)
    if other is not None:
        compare_section.add(b, run, other, comps)
    if study is not None:
        sensitivity_section.add(b, study)
    methods.add(b, run)
    ablation = ablate_table.find(run.path)
    findings = headlines(
        seat_tables,
        comps,
        mods,
        module_lines,
        component_robustness(run, comps, b.settings),
        ablate_table.read(ablation) if ablation is not None else None,
        b.settings,
    )
    if study is not None:
        findings = sensitivity_section.annotate(findings, study)
    out = Path(out_dir) if out_dir else run.path / "report"
    links = write_examples(run, _wanted_examples(run, comps, findings), out)
    return _write(out, run, other, b, findings, notice, links, rarely)


def _module_sections(b: Builder, run: RunTables) -> list[Headline]:
    """The report sections the registered modules add (``ModuleSpec.report``, ``package.module:function``), for the
    modules whose flag column the run has, in registry order; their headline candidates."""
    present = run.games.collect_schema().names()
    lines: list[Headline] = []
    for spec in MODULES.values():
        if spec.report and spec.name in present:
            where, _, name = spec.report.partition(":")
            lines += getattr(importlib.import_module(where), name)(b, run, spec.name)
    return lines


def _wanted_examples(run: RunTables, comps: pl.DataFrame, findings: Findings) -> dict[str, tuple[str, str, int]]:
    """The example game wanted for each headline: a typical game of each seat finding's seat in its setting;
    component lines start with "<kind> <item>:"."""
    wanted: dict[str, tuple[str, str, int]] = {}
    for h in findings.lines:
        example = seat_example(run, *h.seat) if h.seat is not None else None
        if example is not None:
            wanted[h.text] = example
    for (kind, item), example in component_examples(run, comps).items():
        line = next((h.text for h in findings.lines if h.text.startswith(f"{kind} {item}:")), None)
        if line is not None:
            wanted[line] = example
    return wanted


def _write(
    out: Path,
    run: RunTables,
    other: RunTables | None,
    b: Builder,
    findings: Findings,
    notice: str | None,
    links: dict[str, list[Example]],
    rarely: str | None = None,
) -> Report:
    """Charts, CSV tables, then report.html (every value HTML-escaped by the template engine) and summary.md (every
    value Markdown-escaped); ``rarely``: the coverage warning, at the top of both."""
    (out / "charts").mkdir(parents=True, exist_ok=True)
    (out / "tables").mkdir(exist_ok=True)
    chart_paths, csv_paths = [], []
    for sec in b.sections:
        for ch in sec.charts:
            path = out / "charts" / ch.file
            path.write_bytes(ch.data)
            chart_paths.append(path)
    for name, df in b.csv.items():
        path = out / "tables" / f"{name}.csv"
        df.write_csv(path, float_precision=6)
        csv_paths.append(path)
    title = f"Septima balance report: {run.path.name}" + (f" vs {other.path.name}" if other else "")
    env = Environment(
        loader=PackageLoader("septima_sim.report", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    context = {
        "title": title,
        "notice": notice,
        "rarely": rarely,
        "headlines": findings.lines,
        "more": findings.more,
        "links": links,
        "sections": b.sections,
        "games": run.games_count,
        "settings": b.settings,
    }
    html = out / "report.html"
    html.write_text(env.get_template("report.html.j2").render(**context), encoding="utf-8")
    md_env = Environment(  # Markdown: values backslash-escaped (report/markdown.py), not HTML-escaped
        loader=PackageLoader("septima_sim.report", "templates"),
        autoescape=False,
        finalize=md_escape,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    md = out / "summary.md"
    md.write_text(md_env.get_template("summary.md.j2").render(**context), encoding="utf-8")
    return Report(out, html, md, chart_paths, csv_paths, [h.text for h in findings.lines])
