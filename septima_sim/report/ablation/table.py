"""The ablation's tables as the page and the report read them: ``ablation.csv`` joined with each component's
provenance and stopping status from ``ablation_status.csv``, and a label that says what a designer must know next
to the number (assumed content; an animal is tied to its seat's colour)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from septima_sim.content import provenance as sourced

CSV = "ablation.csv"
DETAIL = "ablation_detail.csv"
STATUS = "ablation_status.csv"
RESOLVED = "ablate.toml"
"""The ablation's settings as it ran (``ablate --resume`` checks them; the report reads its tolerance)."""
DEFAULT_TOLERANCE = 5.0
"""``ablate --tolerance``'s default: the band of a negligible effect, in win-rate points."""
COLUMNS = (
    "kind",
    "component",
    "arm",
    "players",
    "cell",
    "games",
    "effect_win_points",
    "ci_low",
    "ci_high",
    "effect_wisdom",
    "p_adj",
    "flagged",
)
"""The columns of ``ablation.csv``, in order (issue 16; ``arm``: ``removed``, ``forced:<seat>`` or
``swap:<colour>-<colour>``)."""


def note(kind: str, provenance: str, assumed: str = "", arm: str = "removed") -> str:
    """What to read next to a component's number: assumed content (wholly, or partly: which parts,
    ``content.provenance.note``), and an animal's tie to its seat colour."""
    parts = []
    mark = sourced.note(provenance, assumed)
    if mark:
        parts.append(mark)
    if kind == "animal" and arm == "removed":
        parts.append("tied to seat colour: measured on the seat of its colour")
    return "; ".join(parts)


def read(folder: Path) -> pl.DataFrame | None:
    """``ablation.csv`` with ``provenance``, ``assumed``, ``status`` and ``note`` columns, or None when ``folder``
    holds none."""
    path = folder / CSV
    if not path.is_file():
        return None
    rows = with_arm(pl.read_csv(path, schema_overrides={"cell": pl.String, "component": pl.String}))
    status_path = folder / STATUS
    if status_path.is_file():
        status = with_arm(pl.read_csv(status_path, schema_overrides={"component": pl.String, "assumed": pl.String}))
        if "assumed" not in status.columns:  # written before partly assumed content was marked
            status = status.with_columns(assumed=pl.lit(""))
        status = status.select("kind", "component", "arm", "provenance", "assumed", "status")
        rows = rows.join(status, on=["kind", "component", "arm"], how="left")
    else:
        rows = rows.with_columns(provenance=pl.lit(""), assumed=pl.lit(""), status=pl.lit(""))
    rows_in = rows.select("kind", "provenance", "assumed", "arm").iter_rows()
    notes = [note(k, p or "", a or "", m) for k, p, a, m in rows_in]
    return rows.with_columns(note=pl.Series(notes, dtype=pl.String))


def with_arm(frame: pl.DataFrame) -> pl.DataFrame:
    """An ablation written before the forced arm has no ``arm`` column: every row is the component removed."""
    return frame if "arm" in frame.columns else frame.with_columns(arm=pl.lit("removed"))


def find(run_dir: Path) -> Path | None:
    """The ablation folder a run belongs to: ``DIR`` when the run is ``DIR/runs/base`` and ``DIR/ablation.csv``
    exists (the unchanged game of an ablation is reported with its causal effects)."""
    run_dir = Path(run_dir).resolve()
    if run_dir.name != "base" or run_dir.parent.name != "runs":
        return None
    folder = run_dir.parent.parent
    return folder if (folder / CSV).is_file() else None
