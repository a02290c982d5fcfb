"""Coverage (issue #28): how often each lineup chose every witch, spell and animal, and the warning at the top of the
report naming those it (almost) never chose."""

from __future__ import annotations

from pathlib import Path

from septima_sim.analysis import RunTables
from septima_sim.analysis.coverage import RARE_RATE, coverage, rare, warning
from septima_sim.content import Content, load_content
from septima_sim.content.errors import ContentError
from septima_sim.report.fmt import col, pct, table
from septima_sim.report.page import Builder


def _universe(run: RunTables) -> dict[str, list[str]] | None:
    """Every witch, spell and animal id of the run's content pack (None when the pack cannot be read any more)."""
    where = run.manifest.get("config", {}).get("content")
    try:
        content: Content = load_content(Path(where) if where else None)
    except (ContentError, OSError):
        return None
    return {
        "witch": [w.id for w in content.witches],
        "spell": [s.id for s in content.spells],
        "animal": [a.id for a in content.animals],
    }


def add(b: Builder, run: RunTables) -> str | None:
    """The coverage section (``tables/coverage.csv``); returns the warning for the top of the report, or None."""
    cov = coverage(run.players, _universe(run), run.modules)
    if cov.is_empty():
        return None
    sec = b.section(
        "coverage",
        "Coverage: what the players chose",
        f"For each lineup, in how many of the games where a witch, spell or animal was available some seat chose it "
        f"(drafted, held at the end, taken). Below {RARE_RATE:.0%} the findings about it rest on a handful of games.",
    )
    few = rare(cov)
    sec.tables.append(
        table(
            "Rarely chosen components",
            few if not few.is_empty() else cov.head(0),
            [
                ("kind", col("kind")),
                ("component", col("component")),
                ("lineup", col("lineup")),
                ("available", col("available", "{:,}".format)),
                ("chosen", col("chosen", "{:,}".format)),
                ("rate", col("chosen_rate", pct)),
            ],
            b.data("coverage", cov),
        )
    )
    return warning(cov)
