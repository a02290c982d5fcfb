"""The check's report: a Markdown table (stdout and the GitHub job summary) and JUnit XML."""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from septima_sim import __version__
from septima_sim.engine.results import RULES_VERSION
from septima_sim.regression.verdict import CheckResult


def _num(value: float) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"


_MARK = {"pass": "pass", "shift": "**SHIFT**", "inconclusive": "inconclusive", "untested": "untested"}


def markdown(result: CheckResult) -> str:
    """The verdict table and a one-line summary, as Markdown."""
    meta = result.baseline.meta
    counts = {v: sum(r.verdict == v for r in result.rows) for v in ("pass", "shift", "inconclusive", "untested")}
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
        f"({counts['pass']} pass, {counts['shift']} shift, {counts['inconclusive']} inconclusive, "
        f"{counts['untested']} untested: cards held in too few games to judge).",
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
        delta = f"{r.delta:+.3f} [{r.lo:+.3f}, {r.hi:+.3f}]" if r.verdict != "untested" else f"held {r.n} times"
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
        if r.verdict == "untested":
            ET.SubElement(case, "skipped", message=f"untested: held in {r.n} seat-games on the rarer side")
        elif r.verdict in failing:
            ET.SubElement(case, "failure", message=f"{r.verdict}: delta {r.delta:+.4f}", type=r.verdict).text = detail
        else:
            ET.SubElement(case, "system-out").text = detail
    if result.errors:
        case = ET.SubElement(suite, "testcase", classname="balance", name="games")
        ET.SubElement(case, "error", message=f"{result.errors} game(s) raised").text = result.first_error or ""
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)
