"""Game flow per cell, from the events: lead changes, the turn from which the final winner stays ahead, comebacks,
and the final score spread, each with a 95% interval.

What is read: the running Wisdom of each seat at the end of each turn is the ``wisdom_after`` of the seat's last
event in that turn that carries one (``seat`` >= 0, ``wisdom_after`` not null; last by position in the events file),
carried forward through turns in which the seat had none, 0 before its first. Today only ``action`` events carry
``wisdom_before/after``; once every Wisdom change is an event with them, the same rule reads those with no change
here. Turns are ordered by (``season``, ``turn``) and numbered 1..T within each game (T = turns with events).
Winners are the players table's ``won``; the spread needs only the players table (final ``wisdom``).

Per game (multiplayer cells only):
- ``lead_changes``: times the sole leader (the one seat with the most Wisdom after a turn; turns with a tie at the top
  are skipped) differs from the previous sole leader.
- ``decided_turn``: the first turn from which the final winners stay ahead (more Wisdom than every other seat) after
  every later turn; T + 1 when they are not ahead after the last turn (decided by end-of-game scoring).
- ``comeback``: the final winners were behind (another seat had more Wisdom) at half-time, after turn T // 2.
- ``score_spread``: final Wisdom of the best seat minus that of the worst.

Intervals: t intervals for the means, Wilson for the comeback rate (``comeback_rate``); everything is aggregated
with polars' lazy engine one cell at a time, so memory does not grow with the number of games.
"""

from __future__ import annotations

import polars as pl

from septima_sim.analysis.data import Frame, collect, in_cell, lazy
from septima_sim.analysis.stats import t_interval, wilson

METRICS: tuple[str, ...] = ("lead_changes", "decided_turn", "comeback_rate", "score_spread")
"""The flow metrics, in report order (``comeback_rate`` is a proportion, the others means)."""
_GAME = ("game_index",)


def turn_scores(events: Frame, players: Frame) -> pl.LazyFrame:
    """Wisdom of every seat after every turn of every game (``game_index``, ``tkey``, ``seat``, ``won``, ``score``),
    ``tkey`` = season * 100 + turn, for the games in ``players`` (one cell's rows)."""
    seats = lazy(players).select(*_GAME, "seat", "won")
    changes = (
        lazy(events)
        .with_row_index("row")
        .filter(pl.col("seat") >= 0, pl.col("wisdom_after").is_not_null())
        .select(*_GAME, "row", "seat", "wisdom_after", tkey=pl.col("season").cast(pl.Int16) * 100 + pl.col("turn"))
        .group_by(*_GAME, "tkey", "seat")
        .agg(pl.col("wisdom_after").sort_by("row").last().alias("score"))
    )
    turns = (
        lazy(events)
        .filter(pl.col("turn").is_not_null())
        .select(*_GAME, tkey=pl.col("season").cast(pl.Int16) * 100 + pl.col("turn"))
        .unique()
    )
    grid = turns.join(seats, on=list(_GAME)).join(changes, on=[*_GAME, "tkey", "seat"], how="left")
    score = pl.col("score").forward_fill().over([*_GAME, "seat"], order_by="tkey").fill_null(0)
    return grid.with_columns(score=score)


def per_game(events: Frame, players: Frame) -> pl.LazyFrame:
    """Per game: ``turns``, ``lead_changes``, ``decided_turn`` and ``comeback`` (see the module docstring)."""
    s, won = pl.col("score"), pl.col("won")
    top = s.max()
    by_turn = (
        turn_scores(events, players)
        .group_by(*_GAME, "tkey")
        .agg(
            leader=pl.when((s == top).sum() == 1).then(pl.col("seat").filter(s == top).first()),
            ahead=(s.filter(won).max() > s.filter(~won).max()).fill_null(True),
            behind=(s.filter(~won).max() > s.filter(won).max()).fill_null(False),
        )
    )
    n = pl.len()
    return by_turn.group_by(*_GAME).agg(
        turns=n,
        lead_changes=_ordered("leader").drop_nulls().diff().fill_null(0).ne(0).sum(),
        decided_turn=pl.int_range(1, n + 1).filter(~_ordered("ahead")).max().fill_null(0) + 1,
        comeback=_ordered("behind").get(n // 2 - 1),
    )


def _ordered(name: str) -> pl.Expr:
    """A per-turn column of one game in turn order."""
    return pl.col(name).sort_by("tkey")


def spread(players: Frame) -> pl.LazyFrame:
    """Per game: final Wisdom of the best seat minus that of the worst (``score_spread``)."""
    return lazy(players).group_by(*_GAME).agg(score_spread=pl.col("wisdom").max() - pl.col("wisdom").min())


CHUNK_GAMES = 20_000
"""Games of a cell whose events are reduced at once (per-game rows are kept, the per-turn grid only per chunk)."""


def game_flow(players: Frame, events: Frame | None) -> pl.DataFrame:
    """Per multiplayer cell and flow metric: ``n``, ``mean`` (a rate for ``comeback_rate``), ``lo``, ``hi``; without
    events only ``score_spread``. Each cell is read in chunks of ``CHUNK_GAMES`` games, so memory is bounded."""
    cells = collect(
        lazy(players)
        .filter(pl.col("players") > 1)
        .group_by("cell_id")
        .agg(pl.col("players").first(), last=pl.col("game_index").max())
        .sort("cell_id")
    )
    rows: list[dict[str, object]] = []
    for cell_id, count, last in cells.iter_rows():
        parts = []
        for start in range(0, last + 1, CHUNK_GAMES):
            span = pl.col("game_index").is_between(start, start + CHUNK_GAMES - 1)
            cell_players = in_cell(players, cell_id).filter(span)
            values = spread(cell_players)
            if events is not None:
                values = values.join(per_game(in_cell(events, cell_id).filter(span), cell_players), on=list(_GAME))
            parts.append(collect(values))
        games = pl.concat(parts)
        rows += [{"cell_id": cell_id, "players": count, **r} for r in _summary(games, events is not None)]
    schema = {"cell_id": pl.String, "players": pl.Int8, "metric": pl.String, "n": pl.Int64}
    return pl.DataFrame(rows, schema={**schema, "mean": pl.Float64, "lo": pl.Float64, "hi": pl.Float64})


def _summary(games: pl.DataFrame, with_events: bool) -> list[dict[str, object]]:
    """Mean and interval of each metric over a cell's per-game values (Wilson for the comeback rate, t otherwise)."""
    n = games.height
    out: list[dict[str, object]] = []
    for m in METRICS if with_events else ("score_spread",):
        if m == "comeback_rate":
            k = int(games["comeback"].sum())
            mean, (lo, hi) = (k / n if n else float("nan")), wilson(k, n)
        else:
            values = games[m].cast(pl.Float64).to_numpy()
            mean = float(values.mean()) if n else float("nan")
            lo, hi = t_interval(mean, float(values.var(ddof=1)) if n > 1 else float("nan"), n)
        out.append({"metric": m, "n": n, "mean": mean, "lo": lo, "hi": hi})
    return out
