"""The designer's report: charts and a self-contained HTML page, a Markdown summary and CSV tables of a run."""

from septima_sim.report.build import build_report
from septima_sim.report.page import Report

__all__ = ["Report", "build_report"]
