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


def numpy_game_seed(root: int, index: int) -> int:
    """The runner's game seed as it was first written, with numpy."""
    return int(np.random.SeedSequence(root, spawn_key=(index,)).generate_state(1, np.uint64)[0] >> np.uint64(1))


def test_runner_game_seeds_match_numpy() -> None:
    from septima_sim.runner import game_seed

    rng = random.Random(7)
    pairs = [(root, index) for root in EDGES for index in (0, 1, 2, 299, 2**32, 2**40 + 3)]
    pairs += [(rng.getrandbits(rng.choice((8, 32, 63, 64))), rng.randrange(100_000)) for _ in range(2000)]
    assert [game_seed(r, i) for r, i in pairs] == [numpy_game_seed(r, i) for r, i in pairs]
