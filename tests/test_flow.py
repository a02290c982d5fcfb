"""Game-flow metrics: a hand-built events table with known lead changes, decided turns and comebacks; a real run
with --events whose report carries the flow section."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from septima_sim.analysis.data import collect
from septima_sim.analysis.flow import METRICS, game_flow, per_game
from septima_sim.analysis.stats import wilson
from tests.helpers import script

CELL = "p2-test"
# Per game: (season, turn, seat, kind, wisdom_after) in file order; then final Wisdom and the winner per seat.
GAMES: dict[int, tuple[list[tuple[int, int, int | None, str, int | None]], list[int], list[bool]]] = {
    # leaders 0,1,0,1 (3 changes); winner 1 ahead only from turn 4; ahead of 0 at half-time (no comeback)
    0: (
        [
            (1, 1, 0, "action", 1),
            (1, 1, 0, "gain", 2),  # the seat's last event of the turn counts
            (1, 1, 1, "action", 0),
            (1, 1, 1, "suspicion", None),
            (1, 2, 1, "action", 3),  # seat 0 has none: carried forward
            (2, 1, 0, "action", 5),
            (2, 1, 1, "suspicion", None),
            (2, 2, 1, "action", 6),
            (2, 2, -1, "season_end", None),
        ],
        [5, 9],
        [False, True],
    ),
    # leaders 0, tie, 0, 0 (no change); winner 0 not ahead at the tie of turn 2: decided from turn 3
    1: (
        [(1, 1, 0, "action", 1), (1, 2, 1, "action", 1), (2, 1, 0, "action", 3), (2, 2, 1, "action", 2)],
        [3, 2],
        [True, False],
    ),
    # seat 0 leads throughout, seat 1 wins by final scoring: decided after the last turn (5), a comeback
    2: (
        [(1, 1, 0, "action", 2), (1, 2, 1, "action", 1), (2, 1, 0, "action", 4), (2, 2, 0, "action", 4)],
        [4, 7],
        [False, True],
    ),
}
EXPECTED = {
    "lead_changes": [3, 0, 0],
    "decided_turn": [4, 3, 5],
    "comeback": [False, False, True],
}


def _tables() -> tuple[pl.DataFrame, pl.DataFrame]:
    events, players = [], []
    for game, (evs, wisdom, won) in GAMES.items():
        for season, turn, seat, kind, after in evs:
            events.append(
                {
                    "cell_id": CELL,
                    "game_index": game,
                    "season": season,
                    "turn": turn,
                    "seat": seat,
                    "kind": kind,
                    "wisdom_after": after,
                }
            )
        for seat in (0, 1):
            players.append(
                {
                    "cell_id": CELL,
                    "game_index": game,
                    "players": 2,
                    "seat": seat,
                    "wisdom": wisdom[seat],
                    "won": won[seat],
                }
            )
    schema = {"season": pl.Int8, "turn": pl.Int8, "seat": pl.Int8, "wisdom_after": pl.Int16, "game_index": pl.Int32}
    ev = pl.DataFrame(events, schema_overrides=schema)
    pl_schema = {"seat": pl.Int8, "players": pl.Int8, "wisdom": pl.Int16, "game_index": pl.Int32}
    return ev, pl.DataFrame(players, schema_overrides=pl_schema)


def test_per_game_lead_changes_decided_turn_and_comeback() -> None:
    events, players = _tables()
    games = collect(per_game(events, players)).sort("game_index")
    assert games["turns"].to_list() == [4, 4, 4]
    for name, values in EXPECTED.items():
        assert games[name].to_list() == values, name


def test_cell_summary_with_intervals() -> None:
    events, players = _tables()
    flow = game_flow(players, events)
    assert flow["metric"].to_list() == list(METRICS) and set(flow["n"]) == {3}
    got = {r["metric"]: r for r in flow.iter_rows(named=True)}
    assert got["lead_changes"]["mean"] == pytest.approx(1.0)
    assert got["decided_turn"]["mean"] == pytest.approx(4.0)
    assert got["score_spread"]["mean"] == pytest.approx((4 + 1 + 3) / 3)
    assert got["comeback_rate"]["mean"] == pytest.approx(1 / 3)
    assert (got["comeback_rate"]["lo"], got["comeback_rate"]["hi"]) == pytest.approx(wilson(1, 3))
    for r in got.values():
        assert r["lo"] < r["mean"] < r["hi"]


def test_without_events_only_the_spread() -> None:
    _, players = _tables()
    flow = game_flow(players, None)
    assert flow["metric"].to_list() == ["score_spread"]


@pytest.mark.slow
def test_a_run_with_events_reports_game_flow(tmp_path: Path) -> None:
    config = tmp_path / "flow.toml"
    config.write_text(
        'name = "flow"\ngames_per_cell = 30\nseed = 5\nshard_size = 30\n'
        '[matrix]\nplayers = [2, 4]\nmode = ["full"]\nshapeshifting = [false]\n'
    )
    run = tmp_path / "run"
    proc = script("run", str(config), "--events", "--out", str(run), "--jobs", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    proc = script("report", str(run), "--out", str(tmp_path / "report"))
    assert proc.returncode == 0, proc.stderr
    html = (tmp_path / "report" / "report.html").read_text()
    assert "Game flow" in html and "decided from turn" in html and "comeback rate" in html
    flow = pl.read_csv(tmp_path / "report" / "tables" / "flow.csv")
    assert sorted(flow["players"].unique().to_list()) == [2, 4]
    assert flow.height == 2 * len(METRICS) and set(flow["n"]) == {30}
    turns = pl.read_parquet(run / "games" / "*" / "*.parquet")["turns"].max()
    decided = flow.filter(pl.col("metric") == "decided_turn")
    assert ((decided["mean"] >= 1) & (decided["mean"] <= turns + 1)).all()
