"""Balance tables from a run: seat balance with verdicts, outcomes, Wisdom sources, suspicion, actions and trials.

Every function takes collected or lazy frames (see ``data.open_run``), aggregates lazily and returns a small polars
DataFrame sorted deterministically; rates carry Wilson intervals (``lo``/``hi``), means Student t intervals from the
count, mean and sample variance of each group.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from septima_sim.analysis.data import Frame, Settings, collect, lazy
from septima_sim.analysis.stats import Z95, binom_p, holm, with_t_interval
from septima_sim.engine.results import SOURCES


def with_wilson(df: pl.DataFrame, k: str = "wins", n: str = "games", prefix: str = "") -> pl.DataFrame:
    """Add ``<prefix>rate``, ``<prefix>lo``, ``<prefix>hi`` (Wilson 95%) from count columns ``k`` of ``n``."""
    nn = pl.col(n).cast(pl.Float64)
    p = pl.col(k).cast(pl.Float64) / nn
    z2 = Z95 * Z95
    denom = 1 + z2 / nn
    centre = (p + z2 / (2 * nn)) / denom
    half = Z95 * (p * (1 - p) / nn + z2 / (4 * nn * nn)).sqrt() / denom
    return df.with_columns(
        p.alias(f"{prefix}rate"),
        pl.min_horizontal(centre - half, p).clip(0, 1).alias(f"{prefix}lo"),  # it holds p (rounding at 0 wins)
        pl.max_horizontal(centre + half, p).clip(0, 1).alias(f"{prefix}hi"),
    )


def summarize(
    df: Frame, by: Sequence[str], means: dict[str, str] | None = None, rates: dict[str, pl.Expr] | None = None
) -> pl.DataFrame:
    """One lazy pass over ``df``: per group and metric (long format: ``by``, metric, n, mean, lo, hi) the mean of
    each column in ``means`` (named by key; t interval, nulls skipped) then the share of rows where each expression
    in ``rates`` holds (Wilson interval). Means first, then rates, in the order given."""
    means, rates = means or {}, rates or {}
    aggs: dict[str, pl.Expr] = {"_rows": pl.len()}
    for name, column in means.items():
        x = pl.col(column).cast(pl.Float64)
        aggs |= {f"{name}:n": x.count(), f"{name}:mean": x.mean(), f"{name}:var": x.var()}
    aggs |= {f"{name}:k": expr.cast(pl.Int64).sum() for name, expr in rates.items()}
    wide = collect(lazy(df).group_by(*by).agg(**aggs).sort(*by))
    cols = ["n", "mean", "lo", "hi"]
    parts = [
        with_t_interval(wide.select(*by, n=f"{m}:n", mean=f"{m}:mean", var=f"{m}:var")).select(
            *by, pl.lit(m).alias("metric"), *cols
        )
        for m in means
    ]
    parts += [
        with_wilson(wide.select(*by, n="_rows", k=f"{r}:k"), "k", "n").select(
            *by, pl.lit(r).alias("metric"), "n", mean="rate", lo="lo", hi="hi"
        )
        for r in rates
    ]
    return pl.concat(parts, how="diagonal_relaxed")


def rates(df: Frame, by: Sequence[str], success: pl.Expr) -> pl.DataFrame:
    """Share of rows where ``success`` holds, per group, with Wilson intervals (columns n, k, rate, lo, hi)."""
    out = collect(lazy(df).group_by(*by).agg(n=pl.len(), k=success.cast(pl.Int64).sum()).sort(*by))
    return with_wilson(out, "k", "n")


def means(df: Frame, by: Sequence[str], column: str, settings: Settings | None = None) -> pl.DataFrame:
    """Mean of ``column`` per group with a Student t 95% interval (columns n, mean, lo, hi); nulls are skipped.
    ``settings`` is unused (kept for callers of the former bootstrap version)."""
    return summarize(df, by, {column: column}).drop("metric")


def _events(events: pl.LazyFrame, players: Frame, kind: str, seats_only: bool = True) -> pl.LazyFrame:
    """Events of one kind with the player count of their cell (seat events only unless ``seats_only`` is False)."""
    counts = collect(lazy(players).group_by("cell_id").agg(pl.col("players").first())).lazy()
    sel = events.filter(pl.col("kind") == kind)
    if seats_only:
        sel = sel.filter(pl.col("seat") >= 0)
    return sel.join(counts, on="cell_id")


def seat_balance(
    players: Frame, settings: Settings, by: Sequence[str] = ("cell_id", "players"), position: str = "seat"
) -> pl.DataFrame:
    """Win rate per seat (``position="seat"``) or turn-order position (``"order"``) in each group, against fair share.

    Ties count as a win for every tied seat. ``p_adj`` is Holm-adjusted over the whole table; ``verdict`` is
    ``flagged`` (significant and at least ``seat_tolerance`` from fair), ``ok`` (the interval lies within fair ±
    tolerance) or ``unclear`` (more games needed)."""
    table = collect(
        lazy(players)
        .filter(pl.col("players") > 1)
        .group_by(*by, position)
        .agg(games=pl.len(), wins=pl.col("won").cast(pl.Int64).sum())
        .with_columns(fair=1.0 / pl.col("players").cast(pl.Float64))
        .sort(*by, position)
    )
    table = with_wilson(table).rename({"rate": "win_rate"}).with_columns(delta=pl.col("win_rate") - pl.col("fair"))
    p = [binom_p(k, n, f) for k, n, f in table.select("wins", "games", "fair").iter_rows()]
    table = table.with_columns(p=pl.Series(p, dtype=pl.Float64), p_adj=pl.Series(holm(p), dtype=pl.Float64))
    return table.with_columns(verdict=verdict_expr(settings.seat_tolerance, settings.alpha))


def verdict_expr(tolerance: float, alpha: float, target: str = "fair") -> pl.Expr:
    """flagged / ok / unclear from ``p_adj``, ``delta``, ``lo``, ``hi`` against a band of ± tolerance around target."""
    band_lo, band_hi = pl.col(target) - tolerance, pl.col(target) + tolerance
    return (
        pl.when((pl.col("p_adj") < alpha) & (pl.col("delta").abs() >= tolerance))
        .then(pl.lit("flagged"))
        .when((pl.col("lo") >= band_lo) & (pl.col("hi") <= band_hi))
        .then(pl.lit("ok"))
        .otherwise(pl.lit("unclear"))
    )


OUTCOME_METRICS: tuple[str, ...] = ("winning_score", "margin", "turns", "decisions", "duration_ms")


def outcomes(games: Frame, settings: Settings | None = None) -> pl.DataFrame:
    """Per cell: mean winning score, margin, turns, decisions and time per game with t intervals, and the tie rate
    with its Wilson interval (long format: one row per cell and metric; a metric null in every game is left out)."""
    table = summarize(games, ("cell_id", "players"), {m: m for m in OUTCOME_METRICS}, {"tie_rate": pl.col("tie")})
    present = table.group_by("metric").agg(pl.col("n").sum()).filter(pl.col("n") > 0)["metric"]
    return table.filter(pl.col("metric").is_in(present.implode())).select(
        "cell_id", "players", "metric", "n", "mean", "lo", "hi"
    )


def wisdom_sources(players: Frame, by: Sequence[str] = ("players", "policy")) -> pl.DataFrame:
    """Mean Wisdom per source (they sum to the mean Wisdom) per group, long format with each source's share."""
    names = lazy(players).collect_schema().names()
    cols = [f"wisdom_{s}" for s in SOURCES if f"wisdom_{s}" in names]
    wide = collect(
        lazy(players).group_by(*by).agg(n=pl.len(), **{c.removeprefix("wisdom_"): pl.col(c).mean() for c in cols})
    )
    long = wide.unpivot(index=[*by, "n"], variable_name="source", value_name="mean")
    total = pl.col("mean").sum().over(*by)
    return long.with_columns(share=pl.col("mean") / total).sort(*by, "source")


def suspicion(players: Frame, settings: Settings | None = None) -> pl.DataFrame:
    """Per player count and seat: share of players with an overflow, with a capture, with a witch lost (Wilson),
    and mean final suspicion and witches lost (t intervals)."""
    by = ("players", "seat")
    shares = {"overflow_rate": "overflows", "capture_rate": "captures", "lost_rate": "witches_lost"}
    averages = {f"mean_{c}": c for c in ("suspicion_end", "suspicion_max", "witches_lost", "hunter_rolls")}
    table = summarize(players, by, averages, {name: pl.col(c) > 0 for name, c in shares.items()})
    return table.select(*by, "metric", "n", "mean", "lo", "hi").sort(*by, "metric")


def suspicion_by_turn(players: Frame, events: pl.LazyFrame) -> pl.DataFrame:
    """Mean suspicion after each turn's suspicion step, per player count (turn 1..20 across the year)."""
    return collect(
        _events(events, players, "suspicion")
        .with_columns(turn_of_year=(pl.col("season").cast(pl.Int16) - 1) * 5 + pl.col("turn"))
        .group_by("players", "turn_of_year")
        .agg(n=pl.len(), mean=pl.col("suspicion_after").mean())
        .sort("players", "turn_of_year")
    )


def card_mix(players: Frame, events: pl.LazyFrame | None) -> pl.DataFrame:
    """Share of each action card played per player count and season (season 0 = whole game without events)."""
    if events is not None:
        counts = collect(_events(events, players, "action").group_by("players", "season", "action").agg(count=pl.len()))
    else:
        cols = [c for c in lazy(players).collect_schema().names() if c.startswith("played_")]
        counts = (
            collect(lazy(players).group_by("players").agg(pl.col(c).sum() for c in cols))
            .unpivot(index="players", variable_name="action", value_name="count")
            .with_columns(season=pl.lit(0, pl.Int8), action=pl.col("action").str.strip_prefix("played_"))
        )
    share = pl.col("count") / pl.col("count").sum().over("players", "season")
    return (
        counts.with_columns(share=share)
        .select("players", "season", "action", "count", "share")
        .sort("players", "season", "action")
    )


def match_rates(players: Frame, events: pl.LazyFrame | None) -> pl.DataFrame:
    """How often a played card matches another player's or the Septima's: per action card from events (Wilson),
    else per player count from the players table (matches per turn)."""
    if events is not None:
        acts = collect(
            _events(events, players, "action")
            .group_by("players", "action")
            .agg(
                n=pl.len(),
                k_players=(pl.col("matched_players") > 0).sum(),
                k_septima=pl.col("matched_septima").cast(pl.Int64).sum(),
            )
            .sort("players", "action")
        )
        acts = with_wilson(acts, "k_players", "n", "players_").rename({"players_rate": "with_players"})
        return with_wilson(acts, "k_septima", "n", "septima_").rename({"septima_rate": "with_septima"})
    return collect(
        lazy(players)
        .group_by("players")
        .agg(
            n=pl.len(),
            with_players=(pl.col("matches_players") / pl.col("turns")).mean(),
            with_septima=(pl.col("matches_septima") / pl.col("turns")).mean(),
        )
        .sort("players")
    )


def trials(players: Frame, events: pl.LazyFrame | None, settings: Settings | None = None) -> dict[str, pl.DataFrame]:
    """Trial wins per seat (t intervals of the mean) and, with events, the acquittal rate per player count
    (Wilson)."""
    out = {"wins": means(players, ("players", "seat"), "trials_won")}
    if events is not None:
        judged = collect(
            _events(events, players, "trial", seats_only=False)
            .group_by("players")
            .agg(n=pl.len(), k=pl.col("detail").str.contains("acquitted").sum())
            .sort("players")
        )
        out["acquittal"] = with_wilson(judged, "k", "n")
    return out
