"""The potion supply (B21, RULINGS §11): taking a potion from it and returning a used one."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def gain_potion(g: Game, p: Player, potion: int, brewed: bool) -> None:
    """Take a potion from the supply; brewing a Practical potion scores its Wisdom (B21)."""
    g.s.potion_supply[potion] -= 1
    p.potions[potion] += 1
    pot = g.content.potions[potion]
    if g.sink is not None:
        g.note("potions", p.seat, f"+1 {pot.id}{' brewed' if brewed else ''}")
    if brewed:
        p.brewed[potion] += 1
        if pot.wisdom:
            g.gain_wisdom(p, pot.wisdom, "brewing", f"brew:{pot.id}")


def use_potion(g: Game, p: Player, potion: int) -> None:
    """A potion the player uses goes back to the supply (the event's cause: the potion)."""
    p.potions[potion] -= 1
    g.s.potion_supply[potion] += 1
    if g.sink is not None:
        pid = g.content.potions[potion].id
        g.note("potions", p.seat, f"-1 {pid} used", f"potion:{pid}")
