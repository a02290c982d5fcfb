"""Witch hunters (B15, B16): the hunter roll of a seat whose suspicion rose, relocation, and the capture odds the
rule implies (which players use to weigh risk)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine.board import REGIONS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.draws import below

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def caught(roll: int, suspicion: int, distance: int) -> bool:
    """B15: the hunter catches a leader within die roll + suspicion steps."""
    return distance <= roll + suspicion


def roll_tail(die: tuple[int, ...]) -> tuple[float, ...]:
    """P(roll >= k) for k = 0 .. max face + 1 (a table for ``catch_chance``)."""
    return tuple(sum(1 for f in die if f >= k) / len(die) for k in range(max(die) + 2))


def catch_chance(tail: tuple[float, ...], distance: int, suspicion: int) -> float:
    """The probability that a hunter `distance` steps away catches a leader at `suspicion` (B15, one roll)."""
    need = distance - suspicion
    return 1.0 if need <= 0 else (tail[need] if need < len(tail) else 0.0)


def hunter_in_region(g: Game, region: int) -> int:
    """The hunter on a region's hunter space, or -1."""
    for h, space in enumerate(g.s.hunter_space):
        if space == region:
            return h
    return -1


def hunter_roll(g: Game, p: Player) -> None:
    """B15: a seat whose suspicion rose this turn faces the active hunter of its region, if any (Good Luck Charms
    reroll)."""
    if not p.raised:
        return
    h = hunter_in_region(g, g.board.region_of[p.vertex])
    if h < 0 or not g.s.hunter_active[h]:
        return
    p.hunter_rolls += 1
    die = g.rules.hunter_die
    roll = die[below(g.rng_dice, len(die))]
    while p.charms > 0 and g.ask(Kind.CHARM_REROLL, p.seat, (0, 1), roll) == 1:
        p.charms -= 1
        roll = die[below(g.rng_dice, len(die))]
        if g.sink is not None:
            g.note("charms", p.seat, "-1 (reroll)")
    distance = g.board.dist[g.board.hunter_vertex[g.s.hunter_space[h]]][p.vertex]
    if g.sink is not None:
        g.emit(
            "hunter_roll",
            p.seat,
            suspicion_before=p.suspicion,
            detail=f"die {roll} + suspicion {p.suspicion} vs distance {distance}",
        )
    if caught(roll, p.suspicion, distance):
        p.captures += 1
        if g.sink is not None:
            g.emit("capture", p.seat, cause="capture")
        prev = g.caused("capture")
        g.lose_witch_or_wisdom(p)
        g.cause = prev
    # the hunter returns to its start space whether or not it caught (it never left it in this model)


def relocate_hunter(g: Game, p: Player) -> None:
    """B16: a seat whose suspicion rose and whose region has no hunter pulls the first active hunter onto its
    region's space, lying down. Reading ``hunter_direction``: the hunter travels counterclockwise (seed 001
    「逆時針移動」: the first active one found clockwise of the region comes; regions are numbered counterclockwise)
    or clockwise (the first found counterclockwise comes)."""
    if not p.raised:
        return
    region = g.board.region_of[p.vertex]
    if hunter_in_region(g, region) >= 0:
        return
    step = 1 if g.rules.readings.hunter_direction.value == "clockwise" else -1
    for k in range(1, REGIONS):
        h = hunter_in_region(g, (region - 1 + k * step) % REGIONS + 1)
        if h >= 0 and g.s.hunter_active[h]:
            g.s.hunter_space[h] = region
            g.s.hunter_active[h] = False
            if g.sink is not None:
                g.emit("relocation", p.seat, detail=f"hunter {h} to space {region}", cause="relocation")
            return
