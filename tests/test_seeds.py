"""The game seed split (``engine/seeds.py``) gives numpy's ``SeedSequence`` streams bit for bit, so that every game
stays the game it was (goldens, CI baseline)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from septima_sim.engine.seeds import spawn_words

EDGES = [0, 1, 2, 7, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64 - 1, 2**64, 2**96 + 12345]


def numpy_words(seed: int, n: int) -> list[int]:
    return [int(child.generate_state(2, np.uint64)[0]) for child in np.random.SeedSequence(seed).spawn(n)]


@pytest.mark.parametrize("seed", EDGES)
def test_edge_seeds_match_numpy(seed: int) -> None:
    assert spawn_words(seed, 6) == numpy_words(seed, 6)


def test_many_seeds_match_numpy() -> None:
    rng = random.Random(19)
    seeds = [rng.getrandbits(rng.choice((8, 31, 32, 33, 63, 64, 70))) for _ in range(2000)]
    assert [spawn_words(s, 4) for s in seeds] == [numpy_words(s, 4) for s in seeds]


def test_game_streams_are_the_seed_sequence_children() -> None:
    from septima_sim.engine.game import random_streams

    streams = random_streams(123456789)
    expected = [random.Random(word) for word in numpy_words(123456789, 4)]
    assert [s.getrandbits(64) for s in streams] == [e.getrandbits(64) for e in expected]
