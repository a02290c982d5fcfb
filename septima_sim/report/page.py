"""The pieces of a report page: tables, charts, sections, what was written, and the builder that collects them."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from septima_sim.analysis import Settings


@dataclass(slots=True)
class Table:
    """A display table: title, headers and rows of formatted strings, and the CSV file that holds its numbers."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    csv: str | None = None
    summary: bool = False
    """Shown in ``summary.md`` too (else a section's first table is)."""


@dataclass(slots=True)
class Chart:
    title: str
    file: str
    data: bytes

    @property
    def uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.data).decode()


@dataclass(slots=True)
class Section:
    id: str
    title: str
    intro: str
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    """What ``build_report`` wrote."""

    out_dir: Path
    html: Path
    markdown: Path
    charts: list[Path]
    csvs: list[Path]
    headlines: list[str]


class Builder:
    """Collects sections, charts and CSV tables while the report is assembled."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sections: list[Section] = []
        self.csv: dict[str, pl.DataFrame] = {}

    def section(self, id: str, title: str, intro: str) -> Section:
        sec = Section(id, title, intro)
        self.sections.append(sec)
        return sec

    def data(self, name: str, df: pl.DataFrame) -> str:
        """Keep a numeric table for CSV export; returns its file name."""
        flat = df.select(c for c in df.columns if not isinstance(df.schema[c], pl.List))
        self.csv[name] = flat
        return f"{name}.csv"
