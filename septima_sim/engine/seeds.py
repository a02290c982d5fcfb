"""The game seed split: numpy's ``SeedSequence(seed).spawn(n)`` children, each child's first 64-bit word of
``generate_state(2, uint64)``, computed in plain integer arithmetic (bit-identical, a test compares them).

numpy builds each ``SeedSequence`` object, coerces arrays and hashes a pool for the parent too; a game needs only four
words, and this is the per-game setup's largest cost otherwise. The algorithm is numpy's (after M. O'Neill's
``seed_seq_fe``): the entropy (the seed's 32-bit words, little-endian, padded to the pool size when a spawn key
follows, then the spawn key) is hashed into a pool of four 32-bit words, and state words are hashed out of the pool.
"""

from __future__ import annotations

from typing import Final

MASK32: Final = 0xFFFFFFFF
POOL_SIZE: Final = 4
INIT_A: Final = 0x43B0D7E5
MULT_A: Final = 0x931E8875
INIT_B: Final = 0x8B51F9DD
MULT_B: Final = 0x58F38DED
MIX_MULT_L: Final = 0xCA01F9DD
MIX_MULT_R: Final = 0x4973F715
XSHIFT: Final = 16


def _words(value: int) -> list[int]:
    """A non-negative int as 32-bit words, least significant first (0 is one word)."""
    words = [value & MASK32]
    value >>= 32
    while value:
        words.append(value & MASK32)
        value >>= 32
    return words


def _pool(entropy: list[int]) -> list[int]:
    """numpy's ``SeedSequence.mix_entropy``: the entropy words hashed into ``POOL_SIZE`` words."""
    const = INIT_A
    pool = [0] * POOL_SIZE
    for i in range(POOL_SIZE):
        value = (entropy[i] if i < len(entropy) else 0) ^ const
        const = (const * MULT_A) & MASK32
        value = (value * const) & MASK32
        pool[i] = value ^ (value >> XSHIFT)
    for i_src in range(max(POOL_SIZE, len(entropy))):  # the pool's words (as they stand), then the rest
        for i_dst in range(POOL_SIZE):
            if i_src < POOL_SIZE:
                if i_src == i_dst:
                    continue
                value = pool[i_src]
            else:
                value = entropy[i_src]
            value ^= const
            const = (const * MULT_A) & MASK32
            value = (value * const) & MASK32
            value ^= value >> XSHIFT
            mixed = (MIX_MULT_L * pool[i_dst] - MIX_MULT_R * value) & MASK32
            pool[i_dst] = mixed ^ (mixed >> XSHIFT)
    return pool


def _first_word64(pool: list[int]) -> int:
    """numpy's ``generate_state(n, uint64)[0]``: the first two 32-bit state words, low word first."""
    const = INIT_B
    out = 0
    for i in range(2):
        value = pool[i] ^ const
        const = (const * MULT_B) & MASK32
        value = (value * const) & MASK32
        out |= (value ^ (value >> XSHIFT)) << (32 * i)
    return out


def spawn_words(seed: int, n: int) -> list[int]:
    """``[int(c.generate_state(2, np.uint64)[0]) for c in np.random.SeedSequence(seed).spawn(n)]`` for a seed >= 0."""
    run = _words(seed)
    run += [0] * (POOL_SIZE - len(run))
    return [_first_word64(_pool([*run, *_words(child)])) for child in range(n)]


def spawn_word(seed: int, child: int) -> int:
    """``int(np.random.SeedSequence(seed, spawn_key=(child,)).generate_state(1, np.uint64)[0])`` for a seed and a
    child >= 0: the first word of child ``child`` of ``spawn_words`` without computing the children before it."""
    run = _words(seed)
    run += [0] * (POOL_SIZE - len(run))
    return _first_word64(_pool([*run, *_words(child)]))
