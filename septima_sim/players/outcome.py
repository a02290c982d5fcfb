"""What a simulated future is worth to a searching seat: its share of the win plus a small weight on its Wisdom
margin over the best other seat (solo: over the Widow), so that among equal results a larger lead is preferred."""

from __future__ import annotations

from septima_sim.engine.results import GameResult, row_int

MARGIN_WEIGHT = 0.01
"""Weight of the Wisdom margin (seat minus best other) next to the win share."""


def seat_value(result: GameResult, seat: int) -> float:
    """The seat's share of the win (ties split) plus ``MARGIN_WEIGHT`` times its Wisdom margin."""
    winners = result.winners
    share = 1.0 / len(winners) if seat in winners else 0.0
    return share + MARGIN_WEIGHT * seat_margin(result, seat)


def seat_margin(result: GameResult, seat: int) -> int:
    """The seat's Wisdom minus the best other seat's (solo: minus the Widow's)."""
    rows = result.players
    mine = row_int(rows[seat], "wisdom")
    others = [row_int(r, "wisdom") for r in rows if r["seat"] != seat]
    if not others:  # solo: the Widow's Wisdom is the opponent
        others = [row_int(result.game, "widow_wisdom")]
    return mine - max(others)
