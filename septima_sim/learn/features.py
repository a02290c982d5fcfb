"""The learned evaluator's input: the heuristic's own features of a seat's position, read from the live view.

Why these and not the step API's observation vector (``env/observation.py``): the learned player evaluates every
option of a card choice, so the features are computed once per option. The heuristic's quantities are a few dozen
attribute reads on the live ``Player`` objects plus one ``state_value`` call (the heuristic's whole summary, in
Wisdom units); the observation vector seals a view and writes about 2,300 floats per call, most of them board
one-hots a small model cannot use from a few thousand games. Seats are relative: the seat's own block, the mean of
the other seats' blocks and the best other seat's Wisdom.
"""

from __future__ import annotations

from septima_sim.content.model import Content
from septima_sim.engine.state import Player
from septima_sim.engine.view import LiveView

SEAT_FEATURES = (
    "wisdom",
    "ingredients",
    "crystals",
    "charms",
    "crowd",
    "supply",
    "ritual_row",
    "potions",
    "track_steps",
    "track_end_value",
    "coven",
    "spells",
    "spells_ready",
    "suspicion",
    "trials_won",
    "seated",
    "hand",
    "healed",
    "brewed",
    "captures",
    "ribbons",
)
"""What one seat's block holds (raw counts; the model standardises them)."""

GAME_FEATURES = ("progress", "last_season", "players", "heuristic_value", "best_other_wisdom", "wisdom_lead")
"""The game's clock and size, the heuristic's ``state_value`` of the seat, and the Wisdom race."""

NAMES: tuple[str, ...] = (
    *GAME_FEATURES,
    *(f"me_{name}" for name in SEAT_FEATURES),
    *(f"others_{name}" for name in SEAT_FEATURES),
)
"""Every feature in vector order (a model file records them: a model for other features is refused)."""


def _seat(view: LiveView, p: Player, seated: int) -> list[float]:
    """One seat's block, in ``SEAT_FEATURES`` order."""
    res = p.res
    end_value = 0
    for d, step in zip(view.content.diseases, p.tracks, strict=True):
        end_value += d.end_values[min(step, len(d.end_values) - 1)]
    return [
        float(p.wisdom),
        float(sum(res[:5])),
        float(res[5]),
        float(p.charms),
        float(p.crowd),
        float(p.supply),
        float(p.ritual_row),
        float(sum(p.potions)),
        float(sum(p.tracks)),
        float(end_value),
        float(len(p.coven)),
        float(len(p.spells)),
        float(sum(1 for sp in p.spells if sp.ready)),
        float(p.suspicion),
        float(p.trials_won),
        float(seated),
        float(sum(p.hand)),
        float(sum(p.healed)),
        float(sum(p.brewed)),
        float(p.captures),
        float(p.ribbons.bit_count()),
    ]


def features(view: LiveView, heuristic_value: float) -> list[float]:
    """The feature vector of the view's seat (``NAMES`` order); ``heuristic_value`` is the balanced heuristic's
    ``state_value`` of the same view (the caller has the heuristic at hand)."""
    players = view.players
    me = view.seat
    chambers = view.trial[2]
    seated = [0] * len(players)
    for chamber in chambers:
        for s in chamber:
            if 0 <= s < len(seated):
                seated[s] += 1
    own = _seat(view, players[me], seated[me])
    others = [0.0] * len(SEAT_FEATURES)
    best = float("-inf")
    n_others = len(players) - 1
    for p in players:
        if p.seat == me:
            continue
        best = max(best, float(p.wisdom))
        for i, x in enumerate(_seat(view, p, seated[p.seat])):
            others[i] += x / n_others
    if n_others == 0:  # solo: no rival seat
        best = 0.0
    rules = view.content.rules
    seasons, turns = len(rules.seasons), rules.turns_per_season
    progress = (view.season * turns + view.turn) / (seasons * turns)
    clock = [progress, float(view.season == seasons - 1), float(len(players))]
    return [*clock, heuristic_value, best, own[0] - best, *own, *others]


def pair_names(content: Content) -> tuple[str, ...]:
    """The features of a choice between two cards (``pair_features`` order) for the pack's cards."""
    return (*NAMES, *(f"card_{a.id}" for a in content.actions), "balanced_gap")


def pair_features(view: LiveView, heuristic_value: float, card_a: int, card_b: int, gap: float) -> list[float]:
    """A choice between cards ``card_a`` and ``card_b`` (action indices) now: the position's features, +1 for card a
    and -1 for card b, and balanced's value of a minus its value of b (``learned-fast``'s chooser reads these)."""
    cards = [0.0] * len(view.content.actions)
    cards[card_a] += 1.0
    cards[card_b] -= 1.0
    return [*features(view, heuristic_value), *cards, gap]
