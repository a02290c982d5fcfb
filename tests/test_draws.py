"""The engine's random draws (``engine/draws.py``) are ``random.Random``'s own, value for value, on this Python."""

from __future__ import annotations

import random

import pytest

from septima_sim.engine.draws import below, shuffle


def test_below_is_randrange() -> None:
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        sizes = [1, 2, 3, 5, 6, 7, 8, 9, 31, 32, 33, 1000, 2**40 + 3]
        assert [below(ours, n) for n in sizes * 20] == [theirs.randrange(n) for n in sizes * 20]
        assert ours.getstate() == theirs.getstate()


def test_shuffle_is_random_shuffle() -> None:
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        for size in (0, 1, 2, 3, 10, 53):
            mine, expected = list(range(size)), list(range(size))
            shuffle(ours, mine)
            theirs.shuffle(expected)
            assert mine == expected
        assert ours.getstate() == theirs.getstate()


def test_an_empty_range_is_an_error() -> None:
    with pytest.raises(ValueError, match="empty range"):
        below(random.Random(1), 0)
