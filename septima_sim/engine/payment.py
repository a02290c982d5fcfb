"""Paying ingredients (seed 001 水晶: a Crystal pays for any resource; B26: a cost is paid whole or not at all).

Every ingredient a player spends goes through ``pay``: recipes, offerings, crowd picks, animal abilities, Omen
payments. A cost is a tuple of items: an ingredient index (that ingredient, or a Crystal in its place), ``CRYSTAL``
(a Crystal) or ``ANY`` (any resource of the player's choice). ``cause`` names what the payment is for, as a stable id
(``ritual_row:8``, ``potion:calming-potion``, ``animal:goat``, ``crowd_pick:potion``, ``omen:<half>``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from septima_sim.content.model import CRYSTAL
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

ANY: Final = -1
"""A cost item any resource pays (Crystals included), chosen by the player."""


def affordable(p: Player, cost: Sequence[int], res: Sequence[int] | None = None) -> bool:
    """True when the player (or the resources `res`) can pay the whole cost: each named item by itself or a Crystal,
    then each ``ANY`` item by whatever is left."""
    have = p.res if res is None else res
    used = [0] * len(have)
    gaps = 0
    for item in cost:
        if item == ANY:
            continue
        if have[item] > used[item]:
            used[item] += 1
        else:
            gaps += 1
    return have[CRYSTAL] - used[CRYSTAL] >= gaps and sum(have) >= len(cost)


def pay(g: Game, p: Player, cost: Sequence[int], cause: str, optional: bool = False) -> bool:
    """Pay the whole cost or nothing; False (nothing paid) when the player cannot afford it or, when `optional`,
    declines at the first ``ANY`` choice (callers of a cost without ``ANY`` items ask before paying). ``ANY`` items
    come first, each a ``Kind.PAY`` choice (resource index, -1 = decline) among the resources that keep the rest of
    the cost payable; then each named item is paid with the ingredient itself, or a Crystal when it has none."""
    if not affordable(p, cost):
        return False
    named = [item for item in cost if item != ANY]
    anys = len(cost) - len(named)
    for k in range(anys):
        rest = named + [ANY] * (anys - k - 1)
        opts = []
        for i in range(len(p.res)):
            if p.res[i] > 0:
                p.res[i] -= 1
                if affordable(p, rest):
                    opts.append(i)
                p.res[i] += 1
        if optional and k == 0:
            opts.append(-1)
        idx = g.ask(Kind.PAY, p.seat, opts, cause)
        if idx < 0:
            return False
        g.pay_res(p, idx, 1, cause)
    for item in named:
        g.pay_res(p, item if p.res[item] > 0 else CRYSTAL, 1, cause)
    return True
