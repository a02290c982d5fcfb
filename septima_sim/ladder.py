"""The skill ladder (``septima-sim ladder``): a matchup matrix and ratings for a set of policies.

Anchor: the Tabletop Games balancing competition judges a game by the matchup matrix of agents of graded skill (better
players must beat worse ones). Here every game is an ordinary run cell, so the ladder parallelises, resumes and writes
Parquet like ``run``:

- 2 players: for each pair (a, b) two cells, lineups ``[a, b]`` and ``[b, a]``; game ``i`` of both cells has the same
  seed, so each seed is played once with each seating (common random numbers).
- 3-4 players: one cell per rotation of the policy list (``[p_k, p_k+1, ...]``, ``k`` over the policies): every policy
  sits in every seat equally often.

The tables pair games on the policy name each game records (``policy`` column), mapped back to the entries as
given: two entries that record the same name (``search`` and ``search:200``, or a plugin whose own ``name`` is a
built-in persona's) could not be told apart and are refused up front. Every sum runs in a fixed order, so the tables
of the same games are the same bytes (a rerun that resumed gives the files of an uninterrupted one).

A matchup counts, in each game where both play, whether ``a`` finished ahead of ``b`` (a tie counts half). Its 95%
interval is a t interval over independent units: for 2 players the seed (both seatings averaged), otherwise the game.
Ratings come from the ``openskill`` library (Plackett-Luce), updated game by game in a fixed order.
"""

from __future__ import annotations

import math
import shlex
from pathlib import Path
from typing import Any

import polars as pl
from openskill.models import PlackettLuce
from scipy import stats

from septima_sim.analysis.stats import wilson
from septima_sim.experiment import MODULE_AXES
from septima_sim.store import scan

MATCHUP_COLUMNS = ("a", "b", "games", "a_win_rate", "ci_low", "ci_high")
RATING_COLUMNS = ("policy", "mu", "sigma", "ordinal", "rank")


class LadderError(ValueError):
    """Ladder options that cannot be played or rated (one line, exit code 2)."""


def recorded_names(policies: list[str]) -> dict[str, str]:
    """The name each entry's games record (``search:01`` records ``search:1``) -> the entry; LadderError naming both
    entries when two record the same name (their games could not be told apart)."""
    from septima_sim.players import make_policy

    names: dict[str, str] = {}
    for entry in policies:
        name = make_policy(entry).name
        if name in names:
            raise LadderError(
                f"--policies: {names[name]} and {entry} both play as {name!r} (the name the games record), so "
                "their games could not be told apart: give one of them only"
            )
        names[name] = entry
    return names


def rerun_command(
    policies: list[str], *, players: int, games: int, seed: int, mode: str, modules: frozenset[str], out: Path
) -> str:
    """The shell command (quoted) that plays this ladder again into ``out``: a rerun resumes it."""
    args = ["septima-sim", "ladder", "--players", str(players), "--policies", ",".join(policies)]
    args += ["--games", str(games), "--mode", mode, "--seed", str(seed)]
    for name in sorted(modules):
        args += ["--module", name]
    return shlex.join([*args, "--out", str(out)])


def lineup_name(indices: tuple[int, ...]) -> str:
    """A safe lineup name for seats given as indices into the policy list (``m0-1`` = policies 0 and 1)."""
    return "m" + "-".join(map(str, indices))


def ladder_lineups(policies: list[str], players: int) -> dict[str, list[str]]:
    """The lineups of a ladder: ordered pairs for 2 players, the rotations of the policy list for 3-4."""
    k = len(policies)
    seats: list[tuple[int, ...]]
    if players == 2:
        seats = [(i, j) for i in range(k) for j in range(k) if i != j]
    else:
        seats = [tuple((r + s) % k for s in range(players)) for r in range(k)]
    return {lineup_name(s): [policies[i] for i in s] for s in seats}


def ladder_config(
    policies: list[str],
    *,
    players: int,
    games: int,
    seed: int,
    mode: str = "full",
    modules: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The experiment config (as a mapping for ``experiment.build``) that plays the ladder.

    ``games`` is the number of games per matchup for 2 players (split over the two seatings), and per rotation for
    3-4 players."""
    lineups = ladder_lineups(policies, players)
    per_cell = math.ceil(games / 2) if players == 2 else games
    return {
        "name": f"ladder-p{players}",
        "games_per_cell": per_cell,
        "seed": seed,
        "shard_size": max(1, min(250, per_cell)),
        "matrix": {
            "players": [players],
            "mode": [mode],
            **{name: [name in modules] for name in MODULE_AXES},
            "lineup": list(lineups),
        },
        "lineups": lineups,
    }


def _seats(run_dir: Path, names: dict[str, str] | None) -> pl.LazyFrame:
    """Every seat of every game: the policy as its ladder entry (``names``: recorded name -> entry) and the rank."""
    players = scan(run_dir, "players")
    if players is None:
        raise LadderError(f"{run_dir}: no game finished (see {run_dir / 'errors'})")
    policy = pl.col("policy").replace(names) if names else pl.col("policy")
    return players.select("cell_id", "game_index", "seat", policy.alias("policy"), "rank")


def _pairwise(run_dir: Path, names: dict[str, str] | None = None) -> pl.DataFrame:
    """One row per game and ordered pair of seats with different policies: ``a``, ``b``, score of a (1, 0.5, 0),
    sorted (cell, game, seats) so every later sum adds in the same order."""
    seats = _seats(run_dir, names)
    pairs = seats.join(seats, on=["cell_id", "game_index"], suffix="_b").filter(pl.col("policy") != pl.col("policy_b"))
    return (
        pairs.sort("cell_id", "game_index", "seat", "seat_b")
        .select(
            "cell_id",
            "game_index",
            pl.col("policy").alias("a"),
            pl.col("policy_b").alias("b"),
            pl.when(pl.col("rank") < pl.col("rank_b"))
            .then(1.0)
            .when(pl.col("rank") == pl.col("rank_b"))
            .then(0.5)
            .otherwise(0.0)
            .alias("score"),
        )
        .collect()
    )


def _interval(scores: list[float]) -> tuple[float, float]:
    """95% t interval of the mean unit score; Wilson on the pooled rate when every unit scored the same."""
    n = len(scores)
    mean = sum(scores) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
    if sd == 0.0:
        lo, hi = wilson(mean * n, n)
        return min(lo, mean), max(hi, mean)
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def matchups(run_dir: Path, policies: list[str], players: int, names: dict[str, str] | None = None) -> pl.DataFrame:
    """The matchup table: one row per pair (a before b in ``policies``), a's win rate against b with its interval
    (``names``: recorded policy name -> entry, when they differ)."""
    pairs = _pairwise(run_dir, names)
    unit = ["game_index"] if players == 2 else ["cell_id", "game_index"]
    order = {p: i for i, p in enumerate(policies)}
    rows = []
    for i, a in enumerate(policies):
        for b in policies[i + 1 :]:
            mine = pairs.filter((pl.col("a") == a) & (pl.col("b") == b))
            if mine.is_empty():
                continue
            units = mine.group_by(unit, maintain_order=True).agg(pl.col("score").mean()).get_column("score").to_list()
            lo, hi = _interval(units)
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "games": mine.select(pl.struct("cell_id", "game_index").n_unique()).item(),
                    "a_win_rate": float(mine.get_column("score").mean()),  # type: ignore[arg-type]
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
    schema = {
        "a": pl.String,
        "b": pl.String,
        "games": pl.Int64,
        "a_win_rate": pl.Float64,
        "ci_low": pl.Float64,
        "ci_high": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema).sort(
        pl.col("a").replace_strict(order, return_dtype=pl.Int64),
        pl.col("b").replace_strict(order, return_dtype=pl.Int64),
    )


def ratings(run_dir: Path, policies: list[str], names: dict[str, str] | None = None) -> pl.DataFrame:
    """openskill (Plackett-Luce) ratings from every game, in a fixed order (cell id, game index).

    A policy holding several seats of one game plays them as one team ranked by its best seat."""
    games = (
        _seats(run_dir, names)
        .group_by("cell_id", "game_index", "policy")
        .agg(pl.col("rank").min())
        .sort("cell_id", "game_index", "policy")
        .group_by("cell_id", "game_index", maintain_order=True)
        .agg("policy", "rank")
        .collect()
    )
    model = PlackettLuce()
    rating = {p: model.rating(name=p) for p in policies}
    for seated, ranks in games.select("policy", "rank").iter_rows():
        if len(seated) < 2:
            continue
        teams = model.rate([[rating[p]] for p in seated], ranks=list(ranks))
        for p, (new,) in zip(seated, teams, strict=True):
            rating[p] = new
    rows = [{"policy": p, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for p, r in rating.items()]
    frame = pl.DataFrame(rows).sort("ordinal", descending=True)
    return frame.with_columns(pl.int_range(1, frame.height + 1).alias("rank")).select(RATING_COLUMNS)


def heatmap(table: pl.DataFrame, policies: list[str], path: Path, title: str) -> Path:
    """A PNG heat map of the matchup matrix: row policy's win rate against the column policy."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    k = len(policies)
    grid = np.full((k, k), np.nan)
    index = {p: i for i, p in enumerate(policies)}
    for row in table.iter_rows(named=True):
        i, j = index[row["a"]], index[row["b"]]
        grid[i, j], grid[j, i] = row["a_win_rate"], 1 - row["a_win_rate"]
    fig, ax = plt.subplots(figsize=(1.2 * k + 2.5, 1.0 * k + 1.8))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(k), policies, rotation=30, ha="right")
    ax.set_yticks(range(k), policies)
    ax.set_xlabel("opponent")
    ax.set_ylabel("policy")
    for i in range(k):
        for j in range(k):
            if not np.isnan(grid[i, j]):
                dark = abs(grid[i, j] - 0.5) > 0.3
                ax.text(j, i, f"{grid[i, j]:.0%}", ha="center", va="center", color="white" if dark else "black")
    fig.colorbar(image, ax=ax, label="win rate (ties count half)")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_tables(
    run_dir: Path, out: Path, policies: list[str], players: int, names: dict[str, str] | None = None
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Write ``matchups.csv``, ``ratings.csv`` and ``matchups.png`` into ``out``; returns both tables."""
    table = matchups(run_dir, policies, players, names)
    rated = ratings(run_dir, policies, names)
    table.write_csv(out / "matchups.csv")
    rated.write_csv(out / "ratings.csv")
    heatmap(table, policies, out / "matchups.png", f"Matchups at {players} players")
    return table, rated
