"""``interactions.csv`` of an ablation folder (``ablate --pairs``, issue 30) as the report and the console show it:
the effects of removing A, B and both, the interaction in win points and in Wisdom, and what it says (positive:
they stack). Written by ``septima_sim.ablate.interactions``."""

from __future__ import annotations

from pathlib import Path

import polars as pl

CSV = "interactions.csv"


def read(folder: Path) -> pl.DataFrame | None:
    """``interactions.csv`` of an ablation folder, or None when it has none (or no rows)."""
    path = folder / CSV
    if not path.is_file():
        return None
    rows = pl.read_csv(path, schema_overrides={"cell": pl.String, "component_a": pl.String, "component_b": pl.String})
    return rows if rows.height else None


HEADERS = [
    "pair",
    "cell",
    "rows",
    "A alone",
    "B alone",
    "both",
    "interaction (win points) [95% CI]",
    "interaction (Wisdom) [95% CI]",
    "verdict",
]


def _ci(v: float, lo: float | None, hi: float | None) -> str:
    return f"{v:+.1f}" + (f" [{lo:.1f}, {hi:.1f}]" if lo is not None and hi is not None else "")


def verdict(row: dict[str, object], alpha: float = 0.05) -> str:
    """``they stack`` / ``they overlap`` (the sign of the clear metric, win points first) or ``no clear
    interaction``."""
    if not row["flagged"]:
        return "no clear interaction"
    win = float(str(row["p_adj"])) < alpha
    value = float(str(row["interaction"] if win else row["interaction_wisdom"]))
    return ("they stack" if value > 0 else "they overlap") + ("" if win else " (in Wisdom)")


def display(rows: pl.DataFrame) -> list[list[str]]:
    """The report's rows: effects (win points) of removing A, B and both, the interactions and what they say."""
    out = []
    for r in rows.iter_rows(named=True):
        out.append(
            [
                f"{r['kind_a']} {r['component_a']} + {r['kind_b']} {r['component_b']}",
                str(r["cell"]),
                f"{r['games']:,}",
                f"{r['effect_a']:+.1f}",
                f"{r['effect_b']:+.1f}",
                f"{r['effect_both']:+.1f}",
                _ci(r["interaction"], r["ci_low"], r["ci_high"]),
                _ci(r["interaction_wisdom"], r["wisdom_ci_low"], r["wisdom_ci_high"]),
                verdict(r),
            ]
        )
    return out


def lines(rows: pl.DataFrame) -> list[str]:
    """One plain line per pair and cell, for the console."""
    return [
        f"{r['kind_a']} {r['component_a']} + {r['kind_b']} {r['component_b']} ({r['cell']}, {r['games']:,} rows): "
        f"interaction {_ci(r['interaction'], r['ci_low'], r['ci_high'])} win points, "
        f"{_ci(r['interaction_wisdom'], r['wisdom_ci_low'], r['wisdom_ci_high'])} Wisdom: {verdict(r)}"
        for r in rows.iter_rows(named=True)
    ]
