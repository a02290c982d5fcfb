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

Intervals: t intervals for the means, Wilson for the comeback rate (``comeback_rate``). Each cell is read in chunks
of ``CHUNK_GAMES`` games (only the columns above; the per-turn table of a chunk is one row per game and turn with a
column per seat), so memory does not grow with the number of games: 1,000,000 games with events took 58.6 s of CPU and
468 MB peak on the project machine (``scripts/bench_report.py``'s synthetic run).
"""

from __future__ import annotations

import polars as pl

from septima_sim.analysis.data import Frame, collect, in_cell, lazy
from septima_sim.analysis.stats import t_interval, wilson

METRICS: tuple[str, ...] = ("lead_changes", "decided_turn", "comeback_rate", "score_spread")
"""The flow metrics, in report order (``comeback_rate`` is a proportion, the others means)."""
_GAME = ("game_index",)


def turn_scores(events: Frame, players: Frame) -> pl.DataFrame:
    """Wisdom of every seat after every turn of the games in ``players`` (one cell's rows): one row per game and turn
    in turn order (``game_index``, ``tkey`` = season * 100 + turn), a column ``s<seat>`` per seat and ``w<seat>``, the
    seat's final ``won``."""
    won = collect(lazy(players).select(*_GAME, "seat", "won"))
    seats = sorted(won["seat"].unique().to_list())
    tkey = pl.col("season").cast(pl.Int16) * 100 + pl.col("turn")
    ev = collect(
        lazy(events)
        .filter(pl.col("turn").is_not_null())
        .select(*_GAME, "seat", "wisdom_after", tkey=tkey)  # file order kept: the last change of a turn is last
    )
    last = (
        ev.filter(pl.col("seat") >= 0, pl.col("wisdom_after").is_not_null())
        .filter(pl.struct(*_GAME, "tkey", "seat").is_last_distinct())
        .with_columns(pl.format("s{}", "seat").alias("col"))
        .pivot("col", index=[*_GAME, "tkey"], values="wisdom_after")
    )
    flags = won.with_columns(pl.format("w{}", "seat").alias("col")).pivot("col", index=list(_GAME), values="won")
    grid = ev.select(*_GAME, "tkey").unique().join(last, on=[*_GAME, "tkey"], how="left").sort(*_GAME, "tkey")
    carried = [pl.col(f"s{k}").forward_fill().over(_GAME[0]).fill_null(0) if f"s{k}" in grid.columns
               else pl.lit(0, pl.Int16).alias(f"s{k}") for k in seats]  # fmt: skip
    return grid.with_columns(carried).join(flags, on=list(_GAME), how="left", maintain_order="left")


def per_game(events: Frame, players: Frame) -> pl.DataFrame:
    """Per game: ``turns``, ``lead_changes``, ``decided_turn`` and ``comeback`` (see the module docstring)."""
    grid = turn_scores(events, players)
    seats = [int(c[1:]) for c in grid.columns if c.startswith("s") and c[1:].isdigit()]
    score = [pl.col(f"s{k}") for k in seats]
    top = pl.max_horizontal(score)
    win_max = pl.max_horizontal(pl.when(pl.col(f"w{k}")).then(pl.col(f"s{k}")) for k in seats)
    other_max = pl.max_horizontal(pl.when(~pl.col(f"w{k}")).then(pl.col(f"s{k}")) for k in seats)
    game = _GAME[0]
    per_turn = grid.select(
        game,
        leader=pl.when(pl.sum_horizontal((s == top).cast(pl.Int8) for s in score) == 1).then(
            pl.coalesce(pl.when(pl.col(f"s{k}") == top).then(pl.lit(k)) for k in seats)
        ),
        ahead=(win_max > other_max).fill_null(True),
        behind=(other_max > win_max).fill_null(False),
        turn_no=pl.int_range(1, pl.len() + 1).over(game),
        turns=pl.len().over(game),
    ).with_columns(previous=pl.col("leader").forward_fill().shift(1).over(game))
    return per_turn.group_by(game, maintain_order=True).agg(
        turns=pl.col("turns").first(),
        lead_changes=(pl.col("leader") != pl.col("previous")).fill_null(False).sum(),
        decided_turn=pl.col("turn_no").filter(~pl.col("ahead")).max().fill_null(0) + 1,
        comeback=pl.col("behind").filter(pl.col("turn_no") == pl.col("turns") // 2).first().fill_null(False),
    )


def spread(players: Frame) -> pl.LazyFrame:
    """Per game: final Wisdom of the best seat minus that of the worst (``score_spread``)."""
    return lazy(players).group_by(*_GAME).agg(score_spread=pl.col("wisdom").max() - pl.col("wisdom").min())


CHUNK_GAMES = 10_000
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
            values = collect(spread(cell_players))
            if events is not None:
                values = values.join(per_game(in_cell(events, cell_id).filter(span), cell_players), on=list(_GAME))
            parts.append(values)
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
