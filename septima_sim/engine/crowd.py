"""The crowd: loyal citizens entering it, seated in trial chambers, and crowd picks (B21c, B21d, B29; the picks
themselves in ``crowd_picks``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine.crowd_picks import CAUSES, PICK_LIST, PICKS
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def citizen_to_crowd(g: Game, p: Player, n: int) -> None:
    """Send up to n loyal citizens from personal supply to the crowd."""
    m = min(n, p.supply)
    p.supply -= m
    p.crowd += m
    if g.sink is not None and m:
        g.note("citizens", p.seat, f"{m} from supply to the crowd")


def open_chambers(g: Game) -> list[int]:
    """The trial chambers (1, 2) with a free seat that hold a witch; reading ``plead_empty_chamber`` "any-chamber"
    opens the empty second chamber too (seed 001 Plead 「任一個審判庭」: its citizens wait for a witch sent there this
    season, else they go back to the crowd after the trials)."""
    seats = g.rules.trial_seats[g.n]
    opts = []
    if g.s.chamber1 >= 0 and len(g.s.seated[1]) < seats:
        opts.append(1)
    if (g.s.chamber2 or g.rules.readings.plead_empty_chamber.value == "any-chamber") and len(g.s.seated[2]) < seats:
        opts.append(2)
    return opts


def seat_citizen(g: Game, p: Player) -> None:
    """Move 1 of your loyal citizens from the crowd into a trial chamber that has a witch and a free seat."""
    if p.crowd == 0:
        return
    opts = open_chambers(g)
    if not opts:
        return
    chamber = g.ask(Kind.CHAMBER, p.seat, opts)
    p.crowd -= 1
    g.s.seated[chamber].append(p.seat)
    if g.sink is not None:
        g.note("citizens", p.seat, f"1 from the crowd into chamber {chamber}")


def crowd_picks(g: Game, p: Player, k: int) -> int:
    """Take up to k different crowd picks (B29), each the cause of its changes; returns how many were taken."""
    taken: list[int] = []
    for _ in range(k):
        opts = [i for i, option in enumerate(PICK_LIST) if i not in taken and option.possible(g, p)]
        if not opts:
            break
        pick = g.ask_or_stop(Kind.CROWD_PICK, p.seat, opts)
        if pick < 0:
            break
        taken.append(pick)
        prev = g.caused(CAUSES[pick])
        if g.sink is not None:
            g.emit("crowd_pick", p.seat, detail=PICKS[pick], cause=CAUSES[pick])
        PICK_LIST[pick].take(g, p)
        g.cause = prev
    return len(taken)
