"""Causal component effects for the report: the ablation this run is the unchanged game of (``septima-sim
ablate``). Found, not passed: a run at ``DIR/runs/base`` next to ``DIR/ablation.csv``
(``report.ablation.table.find``). The component section leads with these parts, before the present-vs-absent
association."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field

import polars as pl

from septima_sim.analysis import RunTables
from septima_sim.report.ablation import interactions, page, table
from septima_sim.report.page import Builder, Chart, Table
from septima_sim.report.sections import settle


@dataclass(slots=True)
class Causal:
    """The ablation's rows, and the intro, chart and tables the component section opens with."""

    frame: pl.DataFrame
    intro: str
    charts: list[Chart] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def parts(b: Builder, run: RunTables) -> Causal | None:
    """The causal parts when the run has an ablation, else None."""
    folder = table.find(run.path)
    frame = table.read(folder) if folder is not None else None
    if folder is None or frame is None or frame.is_empty():
        return None
    out = Causal(
        frame,
        "Causal effects (first): each component was removed from the game (an animal tile replaced by its "
        "colour's other tile) and this run's games were played again on the same seeds (septima-sim ablate, "
        f"folder {folder.name}). Effect = with minus without, for the seat that holds it in this run (buildings "
        "and Omens: every seat's Wisdom), Holm-adjusted; animals are tied to their seat's colour. Arm forced:N: the "
        "witch dealt to seat N on purpose; effect = that seat with her minus the same seat in this run.",
    )
    out.tables.append(Table("Largest causal effects", ["finding"], [[line] for line in page.lines(frame)]))
    out.tables.append(
        Table(
            "Causal effects (ablation), largest first", page.HEADERS, page.rows(frame), b.data("causal_effects", frame)
        )
    )
    pairs = interactions.read(folder)
    if pairs is not None:
        out.tables.append(
            Table(
                "Interactions (ablate --pairs): interaction = A alone + B alone - both removed; positive: they stack",
                interactions.HEADERS,
                interactions.display(pairs),
                b.data("causal_interactions", pairs),
            )
        )
    unclear = settle.causal_table(frame, settle.ablation_tolerance(folder), b.settings.wisdom_tolerance)
    out.tables += [unclear] if unclear is not None else []
    uri = page.chart(frame)
    if uri is not None:
        data = base64.b64decode(uri.split(",", 1)[1])
        out.charts.append(
            Chart("Causal effects: win rate of the seat holding it, with minus without", "causal_effects.png", data)
        )
    return out
