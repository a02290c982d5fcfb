"""Component impact: win-rate and Wisdom effects of each component, present vs absent."""

from __future__ import annotations

import polars as pl

from septima_sim import analysis
from septima_sim.analysis import RunTables
from septima_sim.report import charts
from septima_sim.report.fmt import ci_num, ci_pct, col, pval, table
from septima_sim.report.page import Builder, Chart


def add(b: Builder, run: RunTables) -> pl.DataFrame:
    comps = analysis.component_impact(run.players, run.games, b.settings)
    if comps.is_empty():
        return comps
    s = b.settings
    sec = b.section(
        "components",
        "Component impact",
        "For each component, a player's win rate and final Wisdom "
        "when it is present (drafted witch, animal, spell held at the end, divination goal dealt; for "
        "buildings and Omen halves: in play, shared by every seat) against absent, compared within each "
        "cell and pooled. Flagged: Benjamini-Hochberg-adjusted p < "
        f"{s.alpha} and an effect of at least {s.component_tolerance * 100:.0f} win-rate points (shared "
        f"components: {s.wisdom_tolerance:g} Wisdom). Spells and goals reached are partly a consequence "
        "of playing well, not only a cause.",
    )
    for game_level, metric, scale, unit in ((False, "win", 100, "win-rate points"), (True, "wisdom", 1, "Wisdom")):
        rows = comps.filter(pl.col("game_level") == game_level).head(25)
        if rows.height:
            what = "Wisdom of every player when in play" if game_level else "Win rate when present"
            sec.charts.append(_forest(rows, metric, scale, f"{what} minus absent (largest first)", unit))
    sec.tables.append(
        table(
            "All components, largest effect first",
            comps,
            [
                ("kind", col("kind")),
                ("component", col("item")),
                ("present", col("present", "{:,}".format)),
                ("win rate present", lambda r: ci_pct(r, "win_rate_present", "present_lo", "present_hi")),
                ("win rate absent", lambda r: ci_pct(r, "win_rate_absent", "absent_lo", "absent_hi")),
                ("win effect (points)", lambda r: ci_num(r, "win_effect", "win_lo", "win_hi", 100, True)),
                ("Wisdom effect", lambda r: ci_num(r, "wisdom_effect", "wisdom_lo", "wisdom_hi", sign=True)),
                ("p (BH)", col("p_adj", pval)),
                ("flagged", col("flagged", lambda v: "flagged" if v else "")),
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
