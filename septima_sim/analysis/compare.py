"""Two runs side by side: every delta is this run minus the other run, paired where the games match.

Cells are paired by their parameters (players, mode, modules, solo, lineup, Omen deck, and the values of the
override axes both runs have), not by cell id: an override run's cells pair with the plain run's cell of the same
setting, one per override value. Cells with no counterpart are listed (``unpaired``), never dropped. Within a pair
of cells, games with the same index and seed are paired (t interval of the mean per-game difference, McNemar for 0/1
outcomes, Wilcoxon signed-rank otherwise); a pair of cells that shares no seed is compared as independent groups
(Welch). Each table is aggregated in one lazy pass over each run (a join on the pair, game index and seed, grouped by
pair), never one scan per cell."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from septima_sim.analysis.cells import cell_table
from septima_sim.analysis.components import component_impact
from septima_sim.analysis.data import RunTables, Settings, collect, lazy
from septima_sim.analysis.metrics import wisdom_sources
from septima_sim.analysis.modules import PAIRED_METRICS, per_game
from septima_sim.analysis.stats import Z95, diff_ci, holm, mcnemar_p, normal_p, t_interval, wilcoxon_p_counts

_JOIN = ["pair", "game_index", "seed"]


def cell_pairs(a: RunTables, b: RunTables) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(pairs, unpaired). ``pairs``: pair, cell_id (this run), other_cell, label, other_label, players, one row per
    matched pair of cells. ``unpaired``: run ("this"/"other"), cell_id, label, games: the cells of either run with
    no counterpart. Keys: the cell parameters and the override axes both runs have (compared as text)."""
    ca, cb = cell_table(a), cell_table(b)
    shared = [x for x in a.override_axes if x in b.override_axes and x in ca.columns and x in cb.columns]
    params = [x for x in a.parameters if x in ca.columns and x in cb.columns]  # the parameters both runs have
    keys = [*params, *shared]

    def keyed(cells: pl.DataFrame) -> pl.DataFrame:
        return cells.with_columns(pl.col(k).cast(pl.String).alias(f"_k{i}") for i, k in enumerate(keys))

    cols = [f"_k{i}" for i in range(len(keys))]
    ka, kb = keyed(ca), keyed(cb)
    pairs = (
        ka.select("cell_id", "label", "players", *cols)
        .join(kb.select(*cols, other_cell="cell_id", other_label="label"), on=cols, nulls_equal=True)
        .sort("cell_id", "other_cell")
        .with_row_index("pair")
        .select("pair", "cell_id", "other_cell", "label", "other_label", "players")
    )
    unpaired = pl.concat(
        [
            ca.filter(~pl.col("cell_id").is_in(pairs["cell_id"].implode())).select(
                pl.lit("this").alias("run"), "cell_id", "label", "games"
            ),
            cb.filter(~pl.col("cell_id").is_in(pairs["other_cell"].implode())).select(
                pl.lit("other").alias("run"), "cell_id", "label", "games"
            ),
        ]
    )
    return pairs, unpaired


def _paired_aggs(metrics: Sequence[tuple[str, bool]]) -> list[pl.Expr]:
    """Per metric m (columns ``m`` of this run and ``m_b`` of the other): count, means, mean and variance of the
    difference, the signs of the differences (McNemar) and, for counts, their frequency table (Wilcoxon)."""
    aggs: list[pl.Expr] = []
    for m, binary in metrics:
        d = pl.col(m).cast(pl.Float64) - pl.col(f"{m}_b").cast(pl.Float64)
        both = d.is_not_null()
        aggs += [
            d.count().alias(f"{m}:n"),
            pl.col(m).cast(pl.Float64).filter(both).mean().alias(f"{m}:this"),
            pl.col(f"{m}_b").cast(pl.Float64).filter(both).mean().alias(f"{m}:other"),
            d.mean().alias(f"{m}:mean"),
            d.var().alias(f"{m}:var"),
            (d < 0).sum().alias(f"{m}:neg"),
            (d > 0).sum().alias(f"{m}:pos"),
        ]
        if not binary:
            aggs.append(d.drop_nulls().value_counts().alias(f"{m}:counts"))
    return aggs


def _single_aggs(metrics: Sequence[tuple[str, bool]]) -> list[pl.Expr]:
    """Per metric: count, mean and sample variance (for the independent comparison)."""
    aggs: list[pl.Expr] = []
    for m, _ in metrics:
        x = pl.col(m).cast(pl.Float64)
        aggs += [x.count().alias(f"{m}:n"), x.mean().alias(f"{m}:mean"), x.var().alias(f"{m}:var")]
    return aggs


def _contrasts(
    pairs: pl.DataFrame,
    fa: pl.LazyFrame,
    fb: pl.LazyFrame,
    by: Sequence[str],
    metrics: Sequence[tuple[str, bool]],
) -> pl.DataFrame:
    """Per pair of cells, group ``by`` (within the cell, e.g. seat) and metric: this minus other. ``fa``/``fb`` hold
    cell_id, game_index, seed, ``by`` and the metric columns of each run."""
    names = [m for m, _ in metrics]
    this_map = pairs.lazy().select("pair", "cell_id")
    other_map = pairs.lazy().select("pair", cell_id="other_cell")
    left = lazy(fa).join(this_map, on="cell_id")
    right = lazy(fb).select("cell_id", "game_index", "seed", *by, *(pl.col(m).alias(f"{m}_b") for m in names))
    right = right.join(other_map, on="cell_id").drop("cell_id")
    matched = collect(left.join(right, on=[*_JOIN, *by]).group_by("pair", *by).agg(*_paired_aggs(metrics)))
    single = [collect(lazy(f).group_by("cell_id", *by).agg(*_single_aggs(metrics))) for f in (fa, fb)]
    index = {
        side: {tuple(r[k] for k in ("cell_id", *by)): r for r in table.iter_rows(named=True)}
        for side, table in zip(("this", "other"), single, strict=True)
    }
    got = {tuple(r[k] for k in ("pair", *by)): r for r in matched.iter_rows(named=True)}
    rows: list[dict[str, Any]] = []
    for pair in pairs.iter_rows(named=True):
        groups = sorted(k[1:] for k in index["this"] if k[0] == pair["cell_id"])
        for group in groups:
            head = {k: pair[k] for k in ("cell_id", "label", "other_cell", "other_label")}
            head |= {"players": pair["players"], **dict(zip(by, group, strict=True))}
            match = got.get((pair["pair"], *group))
            for m, binary in metrics:
                if match is not None and match[f"{m}:n"]:
                    rows.append(head | {"metric": m, **_paired_row(match, m, binary)})
                    continue
                other = index["other"].get((pair["other_cell"], *group))
                if other is not None:
                    rows.append(
                        head | {"metric": m, **_independent_row(index["this"][(pair["cell_id"], *group)], other, m)}
                    )
    if not rows:
        return pl.DataFrame()
    table = pl.DataFrame(rows).sort("cell_id", "other_cell", *by, "metric")
    return table.with_columns(p_adj=pl.Series(holm(table["p"].fill_nan(1.0).to_list()), dtype=pl.Float64))


def _paired_row(r: dict[str, Any], m: str, binary: bool) -> dict[str, Any]:
    """this minus other over the paired games of one group: t interval of the mean difference; McNemar / Wilcoxon."""
    n, mean = int(r[f"{m}:n"]), float(r[f"{m}:mean"])
    var = r[f"{m}:var"]
    lo, hi = t_interval(mean, float("nan") if var is None else float(var), n)
    if binary:
        p = mcnemar_p(int(r[f"{m}:pos"]), int(r[f"{m}:neg"]))
    else:
        counts = r[f"{m}:counts"] or []
        values = [c[next(k for k in c if k != "count")] for c in counts]
        p = wilcoxon_p_counts(values, [c["count"] for c in counts])
    return {"n_a": n, "n_b": n, "this": r[f"{m}:this"], "other": r[f"{m}:other"]} | {
        "delta": mean,
        "lo": lo,
        "hi": hi,
        "p": p,
        "paired": True,
    }


def _independent_row(a: dict[str, Any], b: dict[str, Any], m: str) -> dict[str, Any]:
    """this minus other between independent groups (Welch)."""
    n_a, n_b = int(a[f"{m}:n"]), int(b[f"{m}:n"])
    mean_a, mean_b = a[f"{m}:mean"], b[f"{m}:mean"]
    if not n_a or not n_b:
        nan = float("nan")
        lo = hi = p = delta = nan
    else:
        var_a = a[f"{m}:var"] if a[f"{m}:var"] is not None else float("nan")
        var_b = b[f"{m}:var"] if b[f"{m}:var"] is not None else float("nan")
        lo, hi, p = diff_ci(mean_b, var_b, n_b, mean_a, var_a, n_a)  # diff_ci gives its second minus its first
        delta = mean_a - mean_b
    return {"n_a": n_a, "n_b": n_b, "this": mean_a, "other": mean_b} | {
        "delta": delta,
        "lo": lo,
        "hi": hi,
        "p": p,
        "paired": False,
    }


def _seat_frame(run: RunTables) -> pl.LazyFrame:
    return run.seated.filter(pl.col("players") > 1).select("cell_id", "game_index", "seed", "seat", "won")


def compare_seats(a: RunTables, b: RunTables, pairs: pl.DataFrame) -> pl.DataFrame:
    """Win rate per pair of cells and seat: this minus other with its 95% interval, paired (McNemar) on shared
    seeds, else Welch."""
    table = _contrasts(pairs, _seat_frame(a), _seat_frame(b), ["seat"], [("won", True)])
    return table.drop("metric", strict=False)


def _game_frame(run: RunTables) -> pl.LazyFrame:
    return per_game(run.games).select("cell_id", "game_index", "seed", *(m for m, _ in PAIRED_METRICS))


def compare_outcomes(a: RunTables, b: RunTables, pairs: pl.DataFrame) -> pl.DataFrame:
    """Per pair of cells and per-game metric: this minus other, paired by seed where the games match."""
    return _contrasts(pairs, _game_frame(a), _game_frame(b), [], PAIRED_METRICS)


def compare_sources(a: RunTables, b: RunTables) -> pl.DataFrame:
    """Mean Wisdom per source, player count and persona in both runs and the difference (this minus other)."""
    keys = ["players", "policy", "source"]
    sa = wisdom_sources(a.players).select(*keys, this="mean")
    sb = wisdom_sources(b.players).select(*keys, other="mean")
    return sa.join(sb, on=keys).with_columns(delta=pl.col("this") - pl.col("other")).sort(keys)


def compare_components(
    a: RunTables, b: RunTables, settings: Settings, this: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Win-rate and Wisdom effects of each component in both runs, the change (this minus other) and its 95%
    interval. ``this``: run ``a``'s component_impact when already computed (the report's own section)."""
    ca = component_impact(a.players, a.games, settings) if this is None else this
    cb = component_impact(b.players, b.games, settings)
    if ca.is_empty() or cb.is_empty():
        return pl.DataFrame()
    cols = ["kind", "item", "win_effect", "win_lo", "win_hi", "wisdom_effect", "wisdom_lo", "wisdom_hi"]
    joined = ca.select(cols).join(cb.select(cols), on=["kind", "item"], suffix="_other")
    exprs = []
    for m in ("win", "wisdom"):
        var = ((pl.col(f"{m}_hi") - pl.col(f"{m}_lo")) / (2 * Z95)) ** 2
        var_other = ((pl.col(f"{m}_hi_other") - pl.col(f"{m}_lo_other")) / (2 * Z95)) ** 2
        delta = pl.col(f"{m}_effect") - pl.col(f"{m}_effect_other")
        se = (var + var_other).sqrt()
        exprs += [
            delta.alias(f"{m}_change"),
            (delta - Z95 * se).alias(f"{m}_change_lo"),
            (delta + Z95 * se).alias(f"{m}_change_hi"),
            se.alias(f"_{m}_se"),
        ]
    out = joined.select("kind", "item", *exprs)
    p = [normal_p(d, s) for d, s in out.select("win_change", "_win_se").iter_rows()]
    return (
        out.with_columns(p=pl.Series(p, dtype=pl.Float64))
        .drop("_win_se", "_wisdom_se")
        .sort(pl.col("win_change").abs(), descending=True)
    )


def compare_runs(
    a: RunTables, b: RunTables, settings: Settings, components: pl.DataFrame | None = None
) -> dict[str, pl.DataFrame]:
    """Every comparison table between run ``a`` (this) and run ``b`` (other); deltas are this minus other.
    ``pairs`` and ``unpaired`` say which cells were compared with which, and which had no counterpart;
    ``components``: run ``a``'s component_impact when already computed."""
    pairs, unpaired = cell_pairs(a, b)
    return {
        "pairs": pairs,
        "unpaired": unpaired,
        "seats": compare_seats(a, b, pairs),
        "outcomes": compare_outcomes(a, b, pairs),
        "sources": compare_sources(a, b),
        "components": compare_components(a, b, settings, components),
    }
