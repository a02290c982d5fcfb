"""The crowd picks (B29) as small objects in a registry keyed by pick name, in the order a policy sees them.

Each pick says whether the seat may take it now and what taking it does; ``crowd.crowd_picks`` offers the ones not
taken yet (``Kind.CROWD_PICK`` options are indices into ``PICKS``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from septima_sim.engine import payment, spells, supply
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from collections.abc import Callable

    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


class CrowdPick(NamedTuple):
    """One crowd pick: whether the seat may take it now, and taking it."""

    possible: Callable[[Game, Player], bool]
    take: Callable[[Game, Player], None]


def _always(g: Game, p: Player) -> bool:
    return True


def _potion_possible(g: Game, p: Player) -> bool:
    return any(p.res) and any(g.s.potion_supply)


def _potion(g: Game, p: Player) -> None:
    """Pay 1 resource -> any potion from the supply."""
    payment.pay(g, p, (payment.ANY,), "crowd_pick:potion")
    opts = [i for i in range(len(g.content.potions)) if g.s.potion_supply[i] > 0]
    supply.gain_potion(g, p, g.ask(Kind.BREW, p.seat, opts, "pick"), brewed=False)


def _ingredient(g: Game, p: Player) -> None:
    g.choose_ingredient(p)


def _move(g: Game, p: Player) -> None:
    g.move_leader(p, g.rules.crowd_move_steps)


def _suspicion(g: Game, p: Player) -> None:
    g.lower_suspicion(p, -g.rules.crowd_suspicion)


def _ready_possible(g: Game, p: Player) -> bool:
    return g.full and any(p.res) and any(not sp.ready for sp in p.spells)


def _ready_spell(g: Game, p: Player) -> None:
    """Pay 1 resource -> ready a spell. Empowering Constellation readies one more, except for a crowd pick after a
    trial (seed 000: "If you ready a Spell as a Crowd Pick after a Trial, you cannot ready another"): the trial
    phase's picks run in step ``crowd``; a moon-phase pick (Recruit's bonus, an effect) is boosted."""
    payment.pay(g, p, (payment.ANY,), "crowd_pick:ready_spell")
    spells.ready_spell(g, p, "", boost=g.s.step != "crowd")


CROWD_PICKS: dict[str, CrowdPick] = {
    "potion": CrowdPick(_potion_possible, _potion),
    "ingredient": CrowdPick(_always, _ingredient),
    "move": CrowdPick(_always, _move),
    "suspicion": CrowdPick(_always, _suspicion),
    "ready_spell": CrowdPick(_ready_possible, _ready_spell),
}
"""B29: pay 1 ingredient -> any potion; any 1 ingredient; move up to 4; suspicion -1; pay 1 -> ready a spell."""

PICKS: tuple[str, ...] = tuple(CROWD_PICKS)
PICK_LIST: tuple[CrowdPick, ...] = tuple(CROWD_PICKS.values())
"""The picks by the index a ``Kind.CROWD_PICK`` decision offers."""
CAUSES: tuple[str, ...] = tuple(f"crowd_pick:{name}" for name in PICKS)
"""The cause id of each pick's changes, by the same index."""
