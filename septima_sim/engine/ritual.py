"""The ritual track and its ribbons (B14, B21f, B26), and using spells after your card (B28); Full mode only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine import effects, payment
from septima_sim.engine.decisions import Kind
from septima_sim.engine.spells import ready_spell

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def offer_spells(g: Game, p: Player, card: int) -> None:
    """B28: after your card, use ready regular spells (each once per turn; an ongoing one not while active);
    a spell that names an action needs that action played this turn."""
    spells = g.content.spells
    played = g.action_ids[card]
    while p.spells:
        opts = []
        for i, sp in enumerate(p.spells):
            s = spells[sp.idx]
            if sp.ready and sp.used_turn < 0 and not sp.active and s.kind == "regular" and s.requires in ("", played):
                opts.append(i)
        if not opts:
            return
        choice = g.ask_or_stop(Kind.SPELL_USE, p.seat, opts)
        if choice < 0:
            return
        sp = p.spells[choice]
        sp.ready = False
        sp.used_turn = g.s.turn
        s = spells[sp.idx]
        if s.ongoing:
            sp.active = True
        prev = g.caused(f"spell:{s.id}")
        if g.sink is not None:
            g.note("spell_used", p.seat, s.id)
        for e in s.effects:
            effects.apply(g, p, e)
        g.cause = prev


def _advance(g: Game, p: Player) -> bool:
    """Enter the next row; a ribbon row with an offering needs its ingredients paid, all of them or none: a player who
    cannot or will not pay does not enter and loses nothing (B26). Top row: +4 Wisdom."""
    track = g.content.ritual
    if p.ritual_row >= len(track.rows):
        g.gain_wisdom(p, g.rules.ritual_top_wisdom, "ritual", "ritual_row:top")
        return True
    target = p.ritual_row + 1
    for blocks in g.hooks.blocks_ritual:  # solo: the Widow's marker blocks its cell
        if blocks(g, p, target, p.ritual_col):
            return False
    ribbon = track.ribbons.get(target)
    if ribbon is not None and ribbon[0] > 0:
        cost = g.s.fx.offering(g, ribbon[0])  # B26: paid whole or not at all (Vengeful Hermit: 2)
        if cost and not payment.pay(g, p, (payment.ANY,) * cost, f"ritual_row:{target}", optional=True):
            return False
    p.ritual_row = target
    if g.sink is not None:
        g.note("ritual_row", p.seat, f"row {target}")
    if ribbon is not None and not p.ribbons >> target & 1:
        p.ribbons |= 1 << target
        prev = g.caused(f"ritual_row:{target}")
        for e in ribbon[1]:
            effects.apply(g, p, e)
        g.cause = prev
    return True


def enters_ribbon(g: Game, p: Player) -> bool:
    """Whether advancing one row now enters a ribbon row (B26)."""
    return p.ritual_row < len(g.content.ritual.rows) and p.ritual_row + 1 in g.content.ritual.ribbons


def ritual_progress(g: Game, p: Player, card: int) -> None:
    """B14: a matched player advances into the cell directly above if it shows the matched action."""
    rows = g.content.ritual.rows
    if p.ritual_row >= len(rows) or rows[p.ritual_row][p.ritual_col] == g.action_ids[card]:
        _advance(g, p)


def ritual_action(g: Game, p: Player) -> None:
    """B21f main: advance 1 row (no icon needed), optionally shift 1 column sideways before or after."""
    cols = len(g.content.ritual.columns)
    sides = [c for c in (p.ritual_col - 1, p.ritual_col + 1) if 0 <= c < cols]
    opts = [(-1, -1)] + [(0, c) for c in sides]
    when, col = g.ask(Kind.RITUAL_SHIFT, p.seat, opts)
    if when == 0:
        shift_column(g, p, col)
    _advance(g, p)
    if when < 0:
        sides = [c for c in (p.ritual_col - 1, p.ritual_col + 1) if 0 <= c < cols]
        opts = [(-1, -1)] + [(1, c) for c in sides]
        when, col = g.ask(Kind.RITUAL_SHIFT, p.seat, opts)
        if when == 1:
            shift_column(g, p, col)


def shift_column(g: Game, p: Player, col: int) -> None:
    """B21f: the ritual marker moves sideways to column `col`."""
    before = p.ritual_col
    p.ritual_col = col
    if g.sink is not None:
        g.note("ritual_col", p.seat, f"column {before} -> {col}")


def ritual_bonus(g: Game, p: Player) -> None:
    """B21f bonus: ready 1 used spell, or gain 1 ingredient of choice."""
    opts = [0, 1, 2, 3, 4]
    if any(not sp.ready for sp in p.spells):
        opts.append(-1)
    choice = g.ask(Kind.RITUAL_BONUS, p.seat, opts)
    if choice < 0:
        ready_spell(g, p, "")
    else:
        g.gain_res(p, choice)
