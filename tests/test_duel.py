"""players/duel.py: head-to-head shares over both seatings of each seed, in one process or split over workers."""

from __future__ import annotations

from functools import partial

import pytest

from septima_sim.content import Content
from septima_sim.engine import GameConfig
from septima_sim.players import make_policy
from septima_sim.players.duel import duel, parallel_duel, seed_shares


@pytest.mark.slow
def test_a_seed_is_both_seatings_and_workers_give_the_same_result(content: Content) -> None:
    balanced, rand = partial(make_policy, "balanced"), partial(make_policy, "random")
    config = GameConfig(2, "full")
    shares = seed_shares(content, config, balanced, rand, range(6))
    assert len(shares) == 6 and set(shares) <= {0.0, 0.25, 0.5, 0.75, 1.0}
    mirrored = seed_shares(content, config, rand, balanced, range(6))
    # the same games with the sides swapped
    assert [round(x + y, 9) for x, y in zip(shares, mirrored, strict=True)] == [1.0] * 6
    one = duel(content, config, balanced, rand, range(6))
    assert one.games == 12 and one.share == sum(shares) / 6
    assert parallel_duel(config, balanced, rand, range(6), jobs=2) == one
