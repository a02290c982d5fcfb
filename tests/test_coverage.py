"""Every card in play (issue #28): with four balanced heuristics at 4 players, Full, both modules, every witch is
drafted and every spell held in at least 1% of the games where it was available (the heuristic used to leave the
16 earth and fire spells and Bryn untaken: ritual columns were not valued by the market they lead to, and Bryn's
passive was valued below no ability; Stone Skin and Smoke Screen, suspicion -1, were valued at the persona's plain
cost of a point, not at what suspicion costs the seat in the state). Measured with ``analysis.coverage``, the table
behind tables/coverage.csv."""

from __future__ import annotations

import polars as pl
import pytest

from septima_sim.analysis.coverage import RARE_RATE, coverage
from septima_sim.content import Content
from septima_sim.engine import GameConfig, play_game
from septima_sim.players import make_policy

GAMES = 1000
"""Small for a balance measure (1% is 10 games), enough to tell 0 from 1%."""


@pytest.fixture(scope="module")
def table(content: Content) -> pl.DataFrame:
    config = GameConfig(4, "full", shapeshifting=True, omens=True)
    rows = []
    for seed in range(GAMES):
        result = play_game(config, content, [make_policy("balanced") for _ in range(4)], seed)
        for r in result.players:
            rows.append(
                {
                    "players": 4,
                    "lineup": "all-balanced",
                    "cell_id": "p4-full-ss1-om1",
                    "game_index": seed,
                    "mode": "full",
                    "shapeshifting": True,
                    "witches_drafted": list(r["witches_drafted"]),  # type: ignore[call-overload]
                    "spells": list(r["spells"]),  # type: ignore[call-overload]
                }
            )
    universe = {"witch": [w.id for w in content.witches], "spell": [s.id for s in content.spells]}
    return coverage(pl.DataFrame(rows), universe)


def _cases() -> list[object]:
    from septima_sim.content import load_content

    content = load_content()
    cases: list[object] = [pytest.param("witch", w.id, id=f"witch-{w.id}") for w in content.witches]
    cases += [pytest.param("spell", s.id, id=f"spell-{s.id}") for s in content.spells]
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "component"), _cases())
def test_chosen_in_one_percent_of_games(table: pl.DataFrame, kind: str, component: str) -> None:
    row = table.filter(pl.col("kind") == kind, pl.col("component") == component).row(0, named=True)
    assert row["available"] == GAMES
    assert row["chosen_rate"] >= RARE_RATE, f"{kind} {component}: chosen in {row['chosen']} of {GAMES} games"
