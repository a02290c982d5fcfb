"""Statistics and analysis tables against known values and small hand-built frames."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from septima_sim.analysis import Settings, bh, bootstrap_ci, component_impact, holm, seat_balance, wilson
from septima_sim.analysis.metrics import summarize, with_wilson
from septima_sim.analysis.modules import module_effects
from septima_sim.analysis.paired import paired
from septima_sim.analysis.stats import mcnemar_p, t_interval, wilcoxon_p, wilcoxon_p_counts


@pytest.mark.parametrize("n", range(1, 40))
def test_wilson_holds_the_rate_at_no_and_at_every_win(n: int) -> None:
    """At 0 of 3 the lower bound came out 5.6e-17, above the rate, and the report's error bars refused it."""
    frame = with_wilson(pl.DataFrame({"wins": [0, n], "games": [n, n]}))
    assert frame["lo"].to_list()[0] == 0.0 == wilson(0, n)[0] and frame["hi"].to_list()[1] == 1.0 == wilson(n, n)[1]
    assert (frame["lo"] <= frame["rate"]).all() and (frame["rate"] <= frame["hi"]).all()


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


def test_components_rank_by_the_bound_nearest_zero_and_mark_too_few_games() -> None:
    """Issue #28: a component held in 6 games with a large point estimate is marked too few games and ranked after
    one measured on 800 games with a smaller but sure effect (never ranked by a point estimate from 6 games)."""
    rows = _players([(g, s, s == g % 2) for g in range(4000) for s in (0, 1)])
    sure = [s == 0 and g % 5 == 0 for g, s in zip(rows["game_index"], rows["seat"], strict=True)]
    rare = [g < 6 and s == 1 for g, s in zip(rows["game_index"], rows["seat"], strict=True)]
    won = [
        True if r or (s_ and g % 20 == 5) else w
        for r, s_, g, w in zip(rare, sure, rows["game_index"], rows["won"], strict=True)
    ]
    drafted = [["rare"] if r else ["sure"] if s_ else [] for r, s_ in zip(rare, sure, strict=True)]
    rows = rows.with_columns(won=pl.Series(won), witches_drafted=pl.Series(drafted))
    table = component_impact(rows, pl.DataFrame({"cell_id": ["c"], "game_index": [0]}), Settings())
    by_item = {r["item"]: r for r in table.iter_rows(named=True)}
    assert by_item["rare"]["win_effect"] > by_item["sure"]["win_effect"] > 0
    assert by_item["rare"]["too_few"] and not by_item["rare"]["flagged"]
    assert by_item["sure"]["flagged"] and not by_item["sure"]["too_few"]
    assert table["item"].to_list() == ["sure", "rare"]


# --------------------------------------------------------------------------------- analytic vs bootstrap
def _close(analytic: tuple[float, float], boot: tuple[float, float], width_share: float = 0.12) -> bool:
    """Both ends within ``width_share`` of the interval's width."""
    width = analytic[1] - analytic[0]
    return abs(analytic[0] - boot[0]) < width_share * width and abs(analytic[1] - boot[1]) < width_share * width


@pytest.mark.parametrize("n", [30, 80, 200])
def test_t_interval_of_a_mean_agrees_with_a_large_bootstrap(n: int) -> None:
    x = np.random.default_rng(n).poisson(12, n).astype(float)  # scores: small counts, skewed
    analytic = t_interval(float(x.mean()), float(x.var(ddof=1)), n)
    assert _close(analytic, bootstrap_ci(x, seed=1, resamples=20000))


@pytest.mark.parametrize(("k", "n"), [(12, 40), (30, 100), (50, 200)])
def test_wilson_agrees_with_a_large_bootstrap(k: int, n: int) -> None:
    x = np.array([1.0] * k + [0.0] * (n - k))
    assert _close(wilson(k, n), bootstrap_ci(x, seed=2, resamples=20000), 0.15)


@pytest.mark.parametrize(("n", "binary"), [(60, False), (150, True)])
def test_paired_interval_agrees_with_a_bootstrap_of_the_differences(n: int, binary: bool) -> None:
    rng = np.random.default_rng(n)
    a = rng.integers(0, 2, n) if binary else rng.poisson(20, n)
    b = np.where(rng.random(n) < 0.3, 1 - a, a) if binary else a + rng.poisson(2, n) - 1
    res = paired(a, b, binary=binary)
    assert res["delta"] == pytest.approx(float(b.mean() - a.mean()))
    assert _close((res["lo"], res["hi"]), bootstrap_ci((b - a).astype(float), seed=3, resamples=20000))


def test_wilcoxon_from_counts_is_scipys_test() -> None:
    d = np.random.default_rng(4).integers(-4, 6, 3000).astype(float)  # many ties and zeros
    values, counts = np.unique(d, return_counts=True)
    assert wilcoxon_p_counts(values, counts) == pytest.approx(wilcoxon_p(d), rel=1e-9)
    small = np.array([1.0, -2.0, 3.0, 4.0, 5.0, -6.0, 7.0])
    assert wilcoxon_p_counts(*np.unique(small, return_counts=True)) == pytest.approx(wilcoxon_p(small))


def test_means_and_rates_from_one_lazy_pass_match_numpy() -> None:
    rng = np.random.default_rng(5)
    frame = pl.DataFrame({"g": rng.integers(0, 3, 500), "x": rng.normal(10, 3, 500)})
    table = summarize(frame.lazy(), ("g",), {"mean_x": "x"}, {"big": pl.col("x") > 12})
    for (g,), grp in frame.group_by("g"):
        x = grp["x"].to_numpy()
        mean = table.filter(pl.col("g") == g, pl.col("metric") == "mean_x").row(0, named=True)
        assert mean["n"] == x.size and mean["mean"] == pytest.approx(x.mean())
        assert (mean["lo"], mean["hi"]) == pytest.approx(t_interval(x.mean(), x.var(ddof=1), x.size))
        rate = table.filter(pl.col("g") == g, pl.col("metric") == "big").row(0, named=True)
        assert rate["mean"] == pytest.approx((x > 12).mean())
        assert (rate["lo"], rate["hi"]) == pytest.approx(wilson(int((x > 12).sum()), x.size))


def _games(on_shift: float, module: str = "shapeshifting") -> pl.DataFrame:
    """Two 2-player cells (``module`` off/on) of 300 games with the same seeds; on adds ``on_shift``. Omens on
    cells draw a random Omen deck, off cells have none."""
    rng = np.random.default_rng(6)
    score = rng.poisson(40, 300)
    rows = []
    for on in (False, True):
        for i in range(300):
            rows.append(
                {
                    "cell_id": f"p2-{module}{int(on)}", "game_index": i, "seed": 1000 + i, "players": 2,
                    "mode": "full", "shapeshifting": on and module == "shapeshifting",
                    "omens": on and module == "omens", "lineup": "all-random",
                    "omen_deck": "random" if on and module == "omens" else "none",
                    "winning_score": int(score[i] + (on_shift if on else 0)), "margin": int(score[i] % 7),
                    "decisions": 100, "tie": False, "winner_seats": [i % 2], "start_player": 0,
                }
            )  # fmt: skip
    return pl.DataFrame(rows)


@pytest.mark.parametrize("module", ["shapeshifting", "omens"])
def test_module_effects_pair_cells_by_seed_and_find_the_shift(module: str) -> None:
    table = module_effects(_games(3, module), Settings())
    assert table.height == 5  # one pair of cells (the Omen deck differs between omens off and on), five metrics
    score = table.filter(pl.col("metric") == "winning_score").row(0, named=True)
    assert score["module"] == module and score["pairs"] == 300 and score["other_module_on"] is None
    assert score["delta"] == pytest.approx(3) and score["lo"] == pytest.approx(3) and score["p_adj"] < 0.001
    first = table.filter(pl.col("metric") == "first_player_won").row(0, named=True)
    assert first["off"] == pytest.approx(0.5) and first["delta"] == 0
    assert module_effects(_games(0), Settings()).filter(pl.col("metric") == "winning_score")["p"].item() == 1.0
