"""Random draws from a game's ``random.Random`` streams, bit-identical to ``Random.randrange(n)`` and
``Random.shuffle`` (a test compares them), without their Python-level frames: compiled, a draw is one C call.

The rule implemented is CPython's (3.11-3.13): ``randrange(n)`` for ``n > 0`` is ``_randbelow(n)``, which draws
``getrandbits(n.bit_length())`` until the value is below ``n``; ``shuffle`` swaps each position ``i`` from the end
down to 1 with position ``_randbelow(i + 1)``.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: a uniform int in ``[0, n)`` (``ValueError`` for ``n <= 0``, as randrange)."""
    if n <= 0:
        raise ValueError("empty range for below()")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: shuffles the list in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
