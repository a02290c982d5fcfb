"""Component impact: causal effects first when the run has an ablation (``causal``), then the association of each
component with win rate and Wisdom, present vs absent (players chose these). Rows of ``assumed`` content say so next
to the number (wholly, or "partly assumed: effects"); animals say they are tied to seat colour."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.content import ContentError
from septima_sim.content import provenance as sourced
from septima_sim.content.loader import content_tree
from septima_sim.engine.modules import MODULES
from septima_sim.report import charts
from septima_sim.report.ablation.table import note
from septima_sim.report.fmt import Row, ci_num, ci_pct, col, pval, table
from septima_sim.report.page import Builder, Chart
from septima_sim.report.sections import causal

NAMESPACES = {
    "witch": "witches",
    "spell": "spells",
    "divination goal": "goals",
    "building": "buildings",
}
"""The content namespace of each base-game component kind of ``analysis.component_impact``; a module's kinds
declare theirs (``Component.namespace``)."""


def _notes(run: RunTables, items: list[tuple[str, str]]) -> list[str]:
    """The note of each (kind, item) from the run's content pack: assumed content (wholly or partly) and an animal's
    tie to its seat colour (``report.ablation.table.note``)."""
    try:
        tree = content_tree(run.manifest.get("config", {}).get("content"))
    except ContentError:  # a pack moved or deleted since the run: no tag rather than no report
        tree = {}
    spaces = {**NAMESPACES, **{c.name: c.namespace for spec in MODULES.values() for c in spec.components}}
    out = []
    for kind, item in items:
        entry = tree.get(spaces.get(kind, ""), {}).get(item, {})
        out.append(note(kind, sourced.tag(entry), sourced.assumed_parts(entry)))
    return out


def _with_note(value: str, r: Row) -> str:
    return f"{value} ({r['note']})" if r["note"] else value


def add(b: Builder, run: RunTables) -> pl.DataFrame:
    comps = analysis.component_impact(run.players, run.games, b.settings, run.modules)
    found = causal.parts(b, run)
    if comps.is_empty() and found is None:
        return comps
    s = b.settings
    if not comps.is_empty():
        items = list(comps.select("kind", "item").iter_rows())
        comps = comps.with_columns(note=pl.Series(_notes(run, items), dtype=pl.String))
    sec = b.section(
        "components",
        "Component impact",
        (
            found.intro + " Then the association (players chose these): "
            if found is not None
            else "Association (players chose these), not cause: "
        )
        + "for each component, a player's win rate and final Wisdom "
        "when it is present (drafted witch, animal, spell held at the end, divination goal dealt; for "
        "buildings and Omen halves: in play, shared by every seat) against absent, compared within each "
        "cell and pooled. Flagged: Benjamini-Hochberg-adjusted p < "
        f"{s.alpha} and an effect of at least {s.component_tolerance * 100:.0f} win-rate points (shared "
        f"components: {s.wisdom_tolerance:g} Wisdom). Spells and goals reached are partly a consequence "
        "of playing well, not only a cause; animals are tied to their seat's colour, so an animal's row is that "
        "seat's.",
    )
    if found is not None:
        sec.charts.extend(found.charts)
        sec.tables.extend(found.tables)
    if comps.is_empty():
        return comps
    for game_level, metric, scale, unit in ((False, "win", 100, "win-rate points"), (True, "wisdom", 1, "Wisdom")):
        rows = comps.filter(pl.col("game_level") == game_level).head(25)
        if rows.height:
            what = "Wisdom of every player when in play" if game_level else "Win rate when present"
            title = f"{what} minus absent (surest effects first)"
            sec.charts.append(_forest(rows, metric, scale, title, unit))
    sec.tables.append(
        table(
            "Association (players chose these): present vs absent, by the interval's bound nearest zero; too few games "
            "(an interval wider than the tolerance) last, unranked",
            comps,
            [
                ("kind", col("kind")),
                ("component", col("item")),
                ("present", col("present", "{:,}".format)),
                ("win rate present", lambda r: ci_pct(r, "win_rate_present", "present_lo", "present_hi")),
                ("win rate absent", lambda r: ci_pct(r, "win_rate_absent", "absent_lo", "absent_hi")),
                (
                    "win effect (points)",
                    lambda r: _with_note(ci_num(r, "win_effect", "win_lo", "win_hi", 100, True), r),
                ),
                ("Wisdom effect", lambda r: ci_num(r, "wisdom_effect", "wisdom_lo", "wisdom_hi", sign=True)),
                ("p (BH)", col("p_adj", pval)),
                ("flagged", lambda r: "flagged" if r["flagged"] else ("too few games" if r["too_few"] else "")),
            ],
            b.data("components", comps),
        )
    )
    return comps


def _forest(rows: pl.DataFrame, metric: str, scale: float, title: str, unit: str) -> Chart:
    """A forest chart of component effects (``<metric>_effect``, ``_lo``, ``_hi``)."""
    labels = [f"{k}: {i}" for k, i in rows.select("kind", "item").iter_rows()]
    data = charts.forest(
        labels,
        rows[f"{metric}_effect"].to_numpy() * scale,
        rows[f"{metric}_lo"].to_numpy() * scale,
        rows[f"{metric}_hi"].to_numpy() * scale,
        rows["flagged"].to_numpy(),
        title,
        unit,
    )
    return Chart(title, f"components_{metric}.png", data)
