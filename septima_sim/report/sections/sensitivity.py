"""``report RUN --sensitivity DIR``: what a sensitivity study (``septima-sim sensitivity``) says about this report.

Each headline whose metric the study measured gets "holds across the assumed ranges", "depends on: <the values that
move it most>" or "sensitivity unclear" (``sensitivity.findings.note``), and a section lists the assumed values
that matter most, in order: the list a designer should replace with printed values first."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from septima_sim.content.assumed import is_assumed
from septima_sim.report.fmt import col, table
from septima_sim.report.headlines import Findings
from septima_sim.report.page import Builder
from septima_sim.sensitivity import findings


@dataclass(frozen=True, slots=True)
class Study:
    """A study's sizes per value and metric (``findings.sizes``) and the metrics it could not analyse."""

    path: Path
    sized: pl.DataFrame
    incomplete: set[str]


def load(study: Path) -> Study:
    """Read a study folder; SensitivityError when it cannot be read."""
    table = findings.read(study)
    return Study(study, findings.sizes(table), findings.incomplete(study, table))


def add(b: Builder, study: Study) -> None:
    """The section: the values that drive a metric beyond the study's noise, most first."""
    sized = study.sized
    sec = b.section(
        "sensitivity",
        "Assumed values that matter most",
        f"From the sensitivity study {study.path}: the values that move a metric by more than the study's noise "
        "(what re-dealing the games alone would show), most first, with the metrics they move most. Replace these "
        "stand-ins with printed values first. Each headline above says whether it holds across the assumed ranges.",
    )
    driving = findings.matter_most(sized)
    most = driving.filter([is_assumed(str(p)) for p in driving["provenance"]]) if driving.height else driving
    sourced = driving.height - most.height
    if sourced:
        sec.intro += f" {sourced} value(s) from a source the study also moved drive a metric: see the study's page."
    if most.is_empty():
        sec.intro += " No assumed value of the study moves any metric beyond its noise."
        return
    shown = most.with_columns(
        drives_text=pl.Series([findings.drives_text(m) for m in most["metrics"].to_list()], dtype=pl.String)
    )
    sec.tables.append(
        table(
            "Assumed values that matter most",
            shown,
            [
                ("value (group)", col("group")),
                ("provenance", col("provenance")),
                ("metrics driven", col("drives", "{:,}".format)),
                ("largest (size, times the noise)", col("drives_text")),
            ],
            b.data("sensitivity", shown.select("group", "provenance", "ratio", "drives", "drives_text")),
            summary=True,
        )
    )


UNMEASURED = "sensitivity not judged: the study did not measure it in every sample"


def annotate(found: Findings, study: Study) -> Findings:
    """The headlines with what the study says about each one it measured (or that it could not judge one)."""
    lines = []
    for h in found.lines:
        text = None
        if h.basis is not None:
            note = findings.note(study.sized, h.basis.metric, h.basis.players, h.basis.margin)
            partial = any(k.rpartition("@")[0] == h.basis.metric for k in study.incomplete)
            text = note.text if note is not None else UNMEASURED if partial else None
        lines.append(replace(h, text=f"{h.text}; {text}") if text is not None else h)
    return Findings(lines, found.more)
