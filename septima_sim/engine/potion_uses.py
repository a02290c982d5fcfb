"""What a Practical potion does when used in your own turn (RULINGS §11): small functions in a registry keyed by the
potion's ``use`` content id. Ritual Oil (``ritual-oil``) is not here: it is offered before an unmatched card
resolves (``potions.offer_ritual_oil``), not among the potions used after your card."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from septima_sim.engine import crowd
from septima_sim.engine.board import REGIONS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.state import TABLE

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def _calming(g: Game, p: Player) -> None:
    """Calming Potion: suspicion -2, or move a hunter to another hunter space and lay it down."""
    taken = set(g.s.hunter_space)
    free = [sp for sp in range(1, REGIONS + 1) if sp not in taken]
    opts = [-1] + [h * 10 + sp for h in range(len(g.s.hunter_space)) for sp in free]
    choice = g.ask(Kind.CALMING, p.seat, opts)
    if choice < 0:
        g.lower_suspicion(p, -g.rules.calming_suspicion)
    else:
        h, sp = divmod(choice, 10)
        g.s.hunter_space[h] = sp
        g.s.hunter_active[h] = False
        if g.sink is not None:
            g.note("hunters", TABLE, f"hunter {h} to space {sp}, lying down")


def _flying(g: Game, p: Player) -> None:
    """Flying Ointment: move your leader any number of steps."""
    g.move_leader(p, -1)


def _love(g: Game, p: Player) -> None:
    """Love Potion: a loyal citizen to the crowd, then seat one in a trial chamber."""
    crowd.citizen_to_crowd(g, p, 1)
    crowd.seat_citizen(g, p)


POTION_USES: dict[str, Callable[[Game, Player], None]] = {
    "calming": _calming,
    "flying": _flying,
    "love": _love,
}
"""Practical uses a seat may take after its card, by ``Potion.use``."""
