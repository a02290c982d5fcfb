"""Statistics and analysis tables against known values and small hand-built frames."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from septima_sim.analysis import Settings, bh, bootstrap_ci, component_impact, holm, seat_balance, wilson
from septima_sim.analysis.stats import mcnemar_p, wilcoxon_p


def test_wilson_of_50_in_100() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)


def test_holm_and_bh_on_a_fixed_list() -> None:
    p = [0.01, 0.02, 0.04, 0.3]
    assert holm(p) == pytest.approx([0.04, 0.06, 0.08, 0.3])
    assert bh(p) == pytest.approx([0.04, 0.04, 0.0533, 0.3], abs=1e-4)
    assert holm([0.3, 0.01]) == pytest.approx([0.3, 0.02])  # input order kept


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    sample = np.arange(1.0, 21.0)  # mean 10.5
    first = bootstrap_ci(sample, seed=7, resamples=4000)
    assert first == bootstrap_ci(sample, seed=7, resamples=4000)
    assert first != bootstrap_ci(sample, seed=8, resamples=4000)
    lo, hi = first
    assert 7.9 < lo < 10.5 < hi < 13.1  # normal approximation: 10.5 +- 1.96 * 5.77 / sqrt(20) = [7.97, 13.03]
    assert bootstrap_ci(sample, np.median, seed=7, resamples=500)[0] <= 10.5


def test_paired_tests() -> None:
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(10, 0) == pytest.approx(2 * 0.5**10)
    assert wilcoxon_p(np.zeros(5)) == 1.0
    assert wilcoxon_p(np.arange(1.0, 30.0)) < 0.001


def _players(rows: list[tuple[int, int, bool]], players: int = 2) -> pl.DataFrame:
    """(game_index, seat, won) rows of one 2-player cell with the columns the analysis needs."""
    return pl.DataFrame(
        {
            "cell_id": ["c"] * len(rows),
            "game_index": [g for g, _, _ in rows],
            "players": [players] * len(rows),
            "seat": [s for _, s, _ in rows],
            "won": [w for _, _, w in rows],
            "wisdom": [20 if w else 10 for _, _, w in rows],
            "witches_drafted": [["strong"] if s == 0 else ["weak"] for _, s, _ in rows],
            "shapeshifting": [False] * len(rows),
            "omens": [False] * len(rows),
        },
        schema_overrides={"players": pl.Int8, "seat": pl.Int8},
    )


def test_seat_balance_flags_a_lopsided_seat_and_passes_a_fair_one() -> None:
    lopsided = _players([(g, s, s == 0 if g % 10 else s == 1) for g in range(2000) for s in (0, 1)])
    table = seat_balance(lopsided, Settings())
    assert table["verdict"].to_list() == ["flagged", "flagged"]
    assert table["win_rate"].to_list() == pytest.approx([0.9, 0.1])
    fair = _players([(g, s, s == g % 2) for g in range(20000) for s in (0, 1)])
    assert seat_balance(fair, Settings())["verdict"].to_list() == ["ok", "ok"]


def test_component_impact_finds_the_strong_witch() -> None:
    rows = _players([(g, s, s == 0 if g % 4 else s == 1) for g in range(400) for s in (0, 1)])
    games = pl.DataFrame({"cell_id": ["c"], "game_index": [0]})
    table = component_impact(rows, games, Settings())
    strong = table.filter(pl.col("item") == "strong").row(0, named=True)
    assert strong["win_effect"] == pytest.approx(0.5)
    assert strong["flagged"]
    assert table["item"].to_list()[0] in ("strong", "weak")


def test_a_rare_component_that_always_loses_gets_an_honest_interval_and_no_flag() -> None:
    rows = _players([(g, s, s == g % 2) for g in range(2000) for s in (0, 1)])
    rare = [g < 16 and s == 0 for g, s in zip(rows["game_index"], rows["seat"], strict=True)]
    rows = rows.with_columns(
        won=pl.Series([False if r else w for r, w in zip(rare, rows["won"], strict=True)]),
        witches_drafted=pl.Series([["rare"] if r else [] for r in rare]),
    )
    games = pl.DataFrame({"cell_id": ["c"], "game_index": [0]})
    row = component_impact(rows, games, Settings()).filter(pl.col("item") == "rare").row(0, named=True)
    assert row["present"] == 16 and row["win_effect"] == pytest.approx(-0.5, abs=0.01)
    assert row["win_hi"] - row["win_lo"] > 0.2  # 16 games cannot give a +-1 point interval
    assert not row["flagged"]  # too rare to judge
