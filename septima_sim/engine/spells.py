"""Spells (B27, B28): the spell market of each element, taking a face-up spell, readying used spells."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from septima_sim.engine.decisions import Kind
from septima_sim.engine.draws import shuffle
from septima_sim.engine.state import TABLE, SpellCard

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

ELEMENTS: Final[tuple[str, ...]] = ("earth", "air", "fire")


class MarketRow:
    """One element's spell market (B27): scoring stack (top = last), regular deck, middle and bottom slots."""

    __slots__ = ("bottom", "deck", "middle", "scoring")

    def __init__(self, scoring: list[int], deck: list[int]) -> None:
        self.scoring = scoring
        self.deck = deck
        self.middle = deck.pop() if deck else -1
        self.bottom = deck.pop() if deck else -1

    def copy(self) -> MarketRow:
        twin = MarketRow(list(self.scoring), [])  # a constructor, not __new__: compiled classes need one
        twin.deck, twin.middle, twin.bottom = list(self.deck), self.middle, self.bottom
        return twin


def setup_market(g: Game) -> list[MarketRow]:
    """B6: per element, the scoring spells and the regular deck shuffled; two regular spells face up."""
    rows = []
    for element in ELEMENTS:
        scoring = [i for i, s in enumerate(g.content.spells) if s.element == element and s.kind == "scoring"]
        deck = [i for i, s in enumerate(g.content.spells) if s.element == element and s.kind == "regular"]
        shuffle(g.rng_setup, scoring)
        shuffle(g.rng_setup, deck)
        rows.append(MarketRow(scoring, deck))
    _deal_forced(g, rows)
    return rows


def _deal_forced(g: Game, rows: list[MarketRow]) -> None:
    """``[setup.forced_spells]``: each forced spell leaves its stack or deck after the shuffle (a face-up one is
    replaced from its deck) and starts ready in the seat's hand; not counted as a spell gained."""
    for seat, spell in g.rules.forced_spells:
        if seat >= g.n:
            continue
        row = rows[ELEMENTS.index(g.content.spells[spell].element)]
        if spell in row.scoring:
            row.scoring.remove(spell)
        elif spell in row.deck:
            row.deck.remove(spell)
        elif spell == row.middle:
            row.middle = row.deck.pop() if row.deck else -1
        elif spell == row.bottom:
            row.bottom = row.deck.pop() if row.deck else -1
        g.s.players[seat].spells.append(SpellCard(spell))


def refresh_market(g: Game) -> None:
    """End of season (B27): bottom cards are discarded, middles slide down, new middles are revealed."""
    for row in g.s.market:
        row.bottom = row.middle
        row.middle = row.deck.pop() if row.deck else -1
    if g.sink is not None:
        g.note("market", TABLE, _market(g))


def _market(g: Game) -> str:
    """The face-up spells of every element (middle, bottom) and the top scoring spell, for an event."""
    ids = [s.id for s in g.content.spells]
    parts = []
    for element, row in zip(ELEMENTS, g.s.market, strict=True):
        shown = [ids[i] for i in (row.scoring[-1] if row.scoring else -1, row.middle, row.bottom) if i >= 0]
        parts.append(f"{element}: {', '.join(shown) or '-'}")
    return "; ".join(parts)


def gain_spell(g: Game, p: Player) -> None:
    """Take a face-up spell of your ritual column's element (either element on a border column)."""
    opts = []
    for element in g.content.ritual.columns[p.ritual_col]:
        e = ELEMENTS.index(element)
        row = g.s.market[e]
        if row.scoring:
            opts.append((e, 0))
        if row.middle >= 0:
            opts.append((e, 1))
        if row.bottom >= 0:
            opts.append((e, 2))
    if not opts:
        return
    e, slot = g.ask(Kind.SPELL_GAIN, p.seat, opts)
    row = g.s.market[e]
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
    if g.sink is not None:
        g.note("spells", p.seat, f"+{g.content.spells[spell].id}")
        g.note("market", TABLE, _market(g))


def ready_spell(g: Game, p: Player, element: str, boost: bool = True) -> None:
    """Ready 1 used (exhausted) spell, of the given element if one is named. The rule effect in force may ready more
    (Empowering Constellation), unless `boost` is off (a crowd pick readies only one)."""
    spells = g.content.spells
    opts = [i for i, sp in enumerate(p.spells) if not sp.ready and (not element or spells[sp.idx].element == element)]
    if opts:
        sp = p.spells[g.ask(Kind.READY_SPELL, p.seat, opts)]
        sp.ready = True
        if g.sink is not None:
            g.note("spell_ready", p.seat, spells[sp.idx].id)
        if boost and any(not card.ready for card in p.spells):
            for _ in range(g.s.fx.ready_extra(g, p)):
                ready_spell(g, p, "", boost=False)
