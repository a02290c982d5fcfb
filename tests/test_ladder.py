"""The skill ladder: pairing with seats swapped on the same seeds, balanced rotations, matchup and ratings tables."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from septima_sim.ladder import RATING_COLUMNS, ladder_lineups, matchups, ratings

SCRIPT = Path(sys.executable).parent / "septima-sim"


def test_two_player_lineups_are_every_ordered_pair() -> None:
    lineups = ladder_lineups(["random", "balanced", "search:5"], 2)
    assert sorted(map(tuple, lineups.values())) == sorted(
        (a, b) for a in ("random", "balanced", "search:5") for b in ("random", "balanced", "search:5") if a != b
    )
    assert all(name.replace("-", "").isalnum() for name in lineups)


@pytest.mark.parametrize("players", [3, 4])
def test_multiplayer_rotations_put_every_policy_in_every_seat_equally(players: int) -> None:
    policies = ["random", "balanced", "cautious", "healer", "brewer"]
    lineups = ladder_lineups(policies, players)
    per_seat = [Counter(seats[s] for seats in lineups.values()) for s in range(players)]
    assert all(set(c.values()) == {1} and set(c) == set(policies) for c in per_seat)


@pytest.fixture(scope="module")
def ladder_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ladder")
    result = subprocess.run(
        [
            str(SCRIPT),
            "ladder",
            "--players",
            "2",
            "--policies",
            "random,cautious",
            "--games",
            "12",
            "--seed",
            "4",
            "--jobs",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.slow
def test_ladder_swaps_seats_on_the_same_seeds(ladder_run: Path) -> None:
    players = pl.scan_parquet(
        str(ladder_run / "runs" / "**" / "players" / "**" / "*.parquet"), hive_partitioning=True
    ).collect()
    games = pl.scan_parquet(
        str(ladder_run / "runs" / "**" / "games" / "**" / "*.parquet"), hive_partitioning=True
    ).collect()
    assert games.height == 12 and sorted(set(games["cell_id"])) == sorted(
        c for c in set(games["cell_id"]) if c.endswith(("m0-1", "m1-0"))
    )
    seat0 = players.filter(pl.col("seat") == 0).pivot(on="cell_id", index="game_index", values="policy")
    a, b = (c for c in seat0.columns if c != "game_index")
    assert all(x != y for x, y in zip(seat0[a], seat0[b], strict=True))  # the other seating of the same game
    seeds = games.pivot(on="cell_id", index="game_index", values="seed")
    assert seeds[a].to_list() == seeds[b].to_list()  # same seeds in both seatings


@pytest.mark.slow
def test_ladder_writes_matchups_ratings_and_heatmap(ladder_run: Path) -> None:
    table = pl.read_csv(ladder_run / "matchups.csv")
    assert table.columns == ["a", "b", "games", "a_win_rate", "ci_low", "ci_high"]
    row = table.row(0, named=True)
    assert (row["a"], row["b"], row["games"]) == ("random", "cautious", 12)
    assert row["ci_low"] <= row["a_win_rate"] <= row["ci_high"]
    rated = pl.read_csv(ladder_run / "ratings.csv")
    assert tuple(rated.columns) == RATING_COLUMNS and rated["rank"].to_list() == [1, 2]
    assert (ladder_run / "matchups.png").stat().st_size > 1000


def test_matchup_counts_ties_half_and_ratings_follow_wins(tmp_path: Path) -> None:
    """A hand-made players table: a beats b twice, ties once; a must rank first."""
    rows = []
    for game, (ra, rb) in enumerate([(1, 2), (1, 2), (1, 1)]):
        rows += [
            {"cell_id": "c", "game_index": game, "seat": 0, "policy": "a", "rank": ra},
            {"cell_id": "c", "game_index": game, "seat": 1, "policy": "b", "rank": rb},
        ]
    (tmp_path / "players" / "cell=c").mkdir(parents=True)
    pl.DataFrame(rows).write_parquet(tmp_path / "players" / "cell=c" / "part-0.parquet")
    table = matchups(tmp_path, ["a", "b"], 2)
    assert table["a_win_rate"].to_list() == [pytest.approx(2.5 / 3)]
    assert ratings(tmp_path, ["a", "b"])["policy"].to_list() == ["a", "b"]


@pytest.mark.slow
def test_ladder_bad_input_exits_2(tmp_path: Path) -> None:
    for args in (
        ["--policies", "random"],
        ["--policies", "random,nope"],
        ["--players", "5"],
        ["--policies", "random,random"],
    ):
        out = subprocess.run(
            [str(SCRIPT), "ladder", "--out", str(tmp_path / "x"), *args], capture_output=True, text=True, check=False
        )
        assert out.returncode == 2, (args, out.stderr)
        assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr
        assert not (tmp_path / "x").exists()
