"""The ritual track, ribbons and spells (B14, B21f, B26-B28; Full mode only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine import effects, omens, widow
from septima_sim.engine.decisions import Kind
from septima_sim.engine.state import SpellCard

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

ELEMENTS: tuple[str, ...] = ("earth", "air", "fire")


class MarketRow:
    """One element's spell market (B27): scoring stack (top = last), regular deck, middle and bottom slots."""

    __slots__ = ("bottom", "deck", "middle", "scoring")

    def __init__(self, scoring: list[int], deck: list[int]) -> None:
        self.scoring = scoring
        self.deck = deck
        self.middle = deck.pop() if deck else -1
        self.bottom = deck.pop() if deck else -1

    def copy(self) -> MarketRow:
        twin = MarketRow.__new__(MarketRow)
        twin.scoring, twin.deck = list(self.scoring), list(self.deck)
        twin.middle, twin.bottom = self.middle, self.bottom
        return twin


def setup_market(g: Game) -> list[MarketRow]:
    rows = []
    for element in ELEMENTS:
        scoring = [i for i, s in enumerate(g.content.spells) if s.element == element and s.kind == "scoring"]
        deck = [i for i, s in enumerate(g.content.spells) if s.element == element and s.kind == "regular"]
        g.rng_setup.shuffle(scoring)
        g.rng_setup.shuffle(deck)
        rows.append(MarketRow(scoring, deck))
    return rows


def refresh_market(g: Game) -> None:
    """End of season (B27): bottom cards are discarded, middles slide down, new middles are revealed."""
    for row in g.market:
        row.bottom = row.middle
        row.middle = row.deck.pop() if row.deck else -1


def gain_spell(g: Game, p: Player) -> None:
    """Take a face-up spell of your ritual column's element (either element on a border column)."""
    opts = []
    for element in g.content.ritual.columns[p.ritual_col]:
        e = ELEMENTS.index(element)
        row = g.market[e]
        if row.scoring:
            opts.append((e, 0))
        if row.middle >= 0:
            opts.append((e, 1))
        if row.bottom >= 0:
            opts.append((e, 2))
    if not opts:
        return
    e, slot = g.ask(Kind.SPELL_GAIN, p.seat, opts)
    row = g.market[e]
    if slot == 0:
        spell = row.scoring.pop()
    elif slot == 1:
        spell = row.middle
        row.middle = row.deck.pop() if row.deck else -1
    else:
        spell = row.bottom
        row.bottom = row.middle
        row.middle = row.deck.pop() if row.deck else -1
    p.spells.append(SpellCard(spell))
    p.spells_gained += 1


def ready_spell(g: Game, p: Player, element: str, boost: bool = True) -> None:
    """Ready 1 used (exhausted) spell, of the given element if one is named. Empowering Constellation readies more,
    unless `boost` is off (a crowd pick readies only one)."""
    spells = g.content.spells
    opts = [i for i, sp in enumerate(p.spells) if not sp.ready and (not element or spells[sp.idx].element == element)]
    if opts:
        p.spells[g.ask(Kind.READY_SPELL, p.seat, opts)].ready = True
        if boost and g.omen == "ready_extra":
            for _ in range(omens.amount_of(g)):
                ready_spell(g, p, "", boost=False)


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
        opts.append(-1)
        choice = g.ask(Kind.SPELL_USE, p.seat, opts)
        if choice < 0:
            return
        sp = p.spells[choice]
        sp.ready = False
        sp.used_turn = g.turn
        s = spells[sp.idx]
        if s.ongoing:
            sp.active = True
        for e in s.effects:
            effects.apply(g, p, e)


def _advance(g: Game, p: Player) -> bool:
    """Enter the next row; a ribbon row with an offering needs 1 ingredient paid (B26). Top row: +4 Wisdom."""
    track = g.content.ritual
    if p.ritual_row >= len(track.rows):
        g.gain_wisdom(p, g.rules.ritual_top_wisdom, "ritual")
        return True
    target = p.ritual_row + 1
    if g.widow is not None and widow.blocks(g, target, p.ritual_col):  # solo: her marker blocks its cell
        return False
    ribbon = track.ribbons.get(target)
    if ribbon is not None and ribbon[0] > 0:
        offering = omens.amount_of(g) if g.omen == "offering_cost" else ribbon[0]  # Friendly / Vengeful Hermit
        for _ in range(offering):
            if not g.pay_any(p, optional=True):
                return False
    p.ritual_row = target
    if ribbon is not None and not p.ribbons >> target & 1:
        p.ribbons |= 1 << target
        for e in ribbon[1]:
            effects.apply(g, p, e)
    return True


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
        p.ritual_col = col
    _advance(g, p)
    if when < 0:
        sides = [c for c in (p.ritual_col - 1, p.ritual_col + 1) if 0 <= c < cols]
        opts = [(-1, -1)] + [(1, c) for c in sides]
        when, col = g.ask(Kind.RITUAL_SHIFT, p.seat, opts)
        if when == 1:
            p.ritual_col = col


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
