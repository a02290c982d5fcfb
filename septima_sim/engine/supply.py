"""The potion supply (B21, RULINGS §11): taking a potion from it and returning a used one."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def gain_potion(g: Game, p: Player, potion: int, brewed: bool) -> None:
    """Take a potion from the supply; brewing a Practical potion scores its Wisdom (B21)."""
    g.potion_supply[potion] -= 1
    p.potions[potion] += 1
    if brewed:
        p.brewed[potion] += 1
        wisdom = g.content.potions[potion].wisdom
        if wisdom:
            g.gain_wisdom(p, wisdom, "brewing")


def use_potion(g: Game, p: Player, potion: int) -> None:
    """A potion the player uses goes back to the supply."""
    p.potions[potion] -= 1
    g.potion_supply[potion] += 1
