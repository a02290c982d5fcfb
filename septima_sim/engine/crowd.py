"""The crowd: loyal citizens entering it, seated in trial chambers, and crowd picks (B21c, B21d, B29)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine import spells, supply
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

PICKS: tuple[str, ...] = ("potion", "ingredient", "move", "suspicion", "ready_spell")
"""B29: pay 1 ingredient -> any potion; any 1 ingredient; move up to 4; suspicion -1; pay 1 -> ready a spell."""
CAUSES: tuple[str, ...] = tuple(f"crowd_pick:{name}" for name in PICKS)


def citizen_to_crowd(g: Game, p: Player, n: int) -> None:
    """Send up to n loyal citizens from personal supply to the crowd."""
    m = min(n, p.supply)
    p.supply -= m
    p.crowd += m
    if g.sink is not None and m:
        g.note("citizens", p.seat, f"{m} from supply to the crowd")


def seat_citizen(g: Game, p: Player) -> None:
    """Move 1 of your loyal citizens from the crowd into a trial chamber that has a witch and a free seat."""
    if p.crowd == 0:
        return
    seats = g.rules.trial_seats[g.n]
    opts = []
    if g.chamber1 >= 0 and len(g.seated[1]) < seats:
        opts.append(1)
    if g.chamber2 and len(g.seated[2]) < seats:
        opts.append(2)
    if not opts:
        return
    chamber = g.ask(Kind.CHAMBER, p.seat, opts)
    p.crowd -= 1
    g.seated[chamber].append(p.seat)
    if g.sink is not None:
        g.note("citizens", p.seat, f"1 from the crowd into chamber {chamber}")


def crowd_picks(g: Game, p: Player, k: int) -> int:
    """Take up to k different crowd picks (B29), each the cause of its changes; returns how many were taken."""
    taken: list[int] = []
    for _ in range(k):
        opts = [i for i in range(len(PICKS)) if i not in taken and _possible(g, p, i)]
        if not opts:
            break
        pick = g.ask_or_stop(Kind.CROWD_PICK, p.seat, opts)
        if pick < 0:
            break
        taken.append(pick)
        prev = g.caused(CAUSES[pick])
        if g.sink is not None:
            g.emit("crowd_pick", p.seat, detail=PICKS[pick], cause=CAUSES[pick])
        _take(g, p, pick)
        g.cause = prev
    return len(taken)


def _possible(g: Game, p: Player, pick: int) -> bool:
    name = PICKS[pick]
    if name == "potion":
        return any(p.res) and any(g.potion_supply)
    if name == "ready_spell":
        return g.full and any(p.res) and any(not sp.ready for sp in p.spells)
    return True


def _take(g: Game, p: Player, pick: int) -> None:
    name = PICKS[pick]
    if name == "potion":
        g.pay_any(p, optional=False)
        opts = [i for i in range(len(g.content.potions)) if g.potion_supply[i] > 0]
        supply.gain_potion(g, p, g.ask(Kind.BREW, p.seat, opts, "pick"), brewed=False)
    elif name == "ingredient":
        g.choose_ingredient(p)
    elif name == "move":
        g.move_leader(p, g.rules.crowd_move_steps)
    elif name == "suspicion":
        g.lower_suspicion(p, -g.rules.crowd_suspicion)
    else:
        g.pay_any(p, optional=False)
        spells.ready_spell(g, p, "", boost=False)  # Empowering Constellation: one spell per crowd pick
