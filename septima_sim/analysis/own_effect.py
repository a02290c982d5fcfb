"""A change's own effect (issue 30): when a sweep axis, a ``--compare`` or a tune candidate changes one card
(``witches.johanna.trigger``), that card's effect for each value, beside the seat and score tables: the win rate
of the seats holding it minus the seats without it, within each cell and pooled (``components.component_impact``:
an association, as in the component section, not an ablation). A shared card (building) is judged on Wisdom.

Values are printed as the pack spells them (``play:chant``; lists and tables as JSON, ``cells.override_text``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from septima_sim.analysis.cells import override_text
from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import Frame, RunTables, Settings, lazy
from septima_sim.content import ContentError
from septima_sim.content.loader import content_tree
from septima_sim.engine.modules.spec import flag_columns

CARD_KINDS = {
    "witches": "witch",
    "spells": "spell",
    "goals": "divination goal",
    "buildings": "building",
    "animals": "animal",
}
"""Content namespaces whose items are cards the component table measures, and the table's kind name."""


def card_of(path: str) -> tuple[str, str] | None:
    """``witches.johanna.trigger`` -> (``witch``, ``johanna``); None for a path that names no card."""
    parts = path.split(".")
    if len(parts) < 3 or parts[0] not in CARD_KINDS:
        return None
    return CARD_KINDS[parts[0]], parts[1]


def card_name(path: str, content_dir: str | Path | None) -> str:
    """The card's name in the pack (``Johanna``), else its id."""
    namespace, ident = path.split(".")[:2]
    try:
        item = content_tree(Path(content_dir) if content_dir else None).get(namespace, {}).get(ident, {})
    except (ContentError, OSError, ValueError):
        item = {}
    return str(item.get("name") or ident) if isinstance(item, dict) else ident


def effect(players: Frame, games: Frame, card: tuple[str, str], settings: Settings) -> dict[str, Any] | None:
    """The card's row of the component table over these players and games, or None when it is never (or always)
    held there."""
    table = component_impact(_with_flags(players, games), games, settings)
    if table.is_empty():
        return None
    rows = table.filter((pl.col("kind") == card[0]) & (pl.col("item") == card[1]))
    return rows.row(0, named=True) if rows.height else None


def _with_flags(players: Frame, games: Frame) -> pl.LazyFrame:
    """``players`` with the module flags of each cell (a run's tables carry them; a tune candidate's do not)."""
    have = lazy(players).collect_schema().names()
    flags = [c for c in flag_columns() if c in lazy(games).collect_schema().names() and c not in have]
    if not flags:
        return lazy(players)
    cells = lazy(games).select("cell_id", *flags).unique("cell_id")
    return lazy(players).join(cells, on="cell_id", how="left")


def by_value(players: Frame, games: Frame, axis: str, settings: Settings) -> pl.DataFrame:
    """Per value of ``axis`` (a column of ``games``): the card's effect (``value``, ``present``, ``win_effect``,
    ``win_lo``, ``win_hi``, ``wisdom_effect``, ``wisdom_lo``, ``wisdom_hi``, ``game_level``; effects in points and
    Wisdom), empty when the axis names no card."""
    card = card_of(axis)
    if card is None:
        return pl.DataFrame()
    values = lazy(games).select("cell_id", axis).unique().collect()
    rows = []
    for value in values.select(axis).unique(maintain_order=True).to_series().to_list():
        cells = values.filter(pl.col(axis) == value).select("cell_id")
        found = effect(
            lazy(players).join(cells.lazy(), on="cell_id", how="semi"),
            lazy(games).join(cells.lazy(), on="cell_id", how="semi"),
            card,
            settings,
        )
        if found is not None:
            rows.append({"value": override_text(value), **_row(found)})
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def _row(found: dict[str, Any]) -> dict[str, Any]:
    out = {k: found[k] for k in ("present", "wisdom_effect", "wisdom_lo", "wisdom_hi", "game_level")}
    out |= {k: found[k] * 100 for k in ("win_effect", "win_lo", "win_hi")}
    return out


def sentence(path: str, value: str, name: str, row: dict[str, Any]) -> str:
    """``witches.johanna.trigger = play:chant: Johanna's holder +2.4 [-2.1, 6.8]`` (win points; a shared card:
    every seat's Wisdom)."""
    if row["game_level"]:
        what = f"every seat's Wisdom {row['wisdom_effect']:+.1f} [{row['wisdom_lo']:.1f}, {row['wisdom_hi']:.1f}]"
    else:
        what = f"{name}'s holder {row['win_effect']:+.1f} [{row['win_lo']:.1f}, {row['win_hi']:.1f}]"
    return f"{path} = {value}: {what}"


def in_runs(runs: list[tuple[str, RunTables]], settings: Settings) -> pl.DataFrame:
    """For ``--compare``: every card path either run overrides, the card's effect for each value in each run
    (``run``: the label given; a run without that override plays the pack's value, shown as ``as in the pack``)."""
    paths = list(dict.fromkeys(p for _, r in runs for p in r.override_axes if card_of(p) is not None))
    parts = []
    for path in paths:
        for label, run in runs:
            if path in run.override_axes:
                rows = by_value(run.players, run.games, path, settings)
            else:
                found = effect(run.players, run.games, card_of(path) or ("", ""), settings)
                rows = pl.DataFrame([{"value": "as in the pack", **_row(found)}] if found is not None else [])
            if not rows.is_empty():
                parts.append(rows.with_columns(path=pl.lit(path), run=pl.lit(label)))
    return pl.concat(parts, how="diagonal_relaxed") if parts else pl.DataFrame()


def of_values(
    values: dict[str, Any], players: Frame, games: Frame, settings: Settings, content: str | None
) -> list[str]:
    """For a tune candidate: one sentence per card its values change, the card's effect over its games."""
    out = []
    for path, value in values.items():
        card = card_of(path)
        found = effect(players, games, card, settings) if card is not None else None
        if found is not None:
            out.append(sentence(path, override_text(value), card_name(path, content), _row(found)))
    return out
