"""Decisions: the engine asks a policy to pick one of an explicit tuple of legal options.

A policy answers with the index of its choice, so an illegal move is impossible by construction. Options are plain
values (ints, strings, or small tuples of ints); what they mean is given per kind below.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from septima_sim.engine.view import PlayerView


class Kind:
    """Decision kinds and the meaning of their options (``Final``: compiled modules read them as constants)."""

    START_VERTEX: Final = "start_vertex"  # vertex to place the leader on
    DRAFT_RETURN: Final = "draft_return"  # witch index to give back from the dealt witches
    CARD: Final = "card"  # action index to play this turn
    PREMOVE: Final = "premove"  # vertex (current vertex = no move)
    MOVE: Final = "move"  # destination vertex (current vertex = stay)
    INGREDIENT: Final = "ingredient"  # ingredient index 0..4
    INSTEAD: Final = "instead"  # 0 = main ability, 1 = matching bonus
    ALSO_ORDER: Final = "also_order"  # 0 = main ability first, 1 = Also bonus first; context: the card id (B12)
    BREW: Final = "brew"  # potion index, -1 = stop brewing
    HEAL: Final = "heal"  # patient space id (e.g. "red-2") to heal, "" = stop healing
    TRACK: Final = "track"  # disease index whose track advances (Edith)
    LOSE_WITCH: Final = "lose_witch"  # witch index sent to the second trial chamber
    RECRUIT: Final = "recruit"  # 1 = recruit the acquitted witch, 0 = decline
    DISCARD_WITCH: Final = "discard_witch"  # witch index discarded to make room
    CROWD_PICK: Final = "crowd_pick"  # pick index into crowd.PICKS, -1 = stop
    PAY: Final = "pay"  # resource index 0..5 (5 = Crystal) to pay, -1 = decline; context: the cause (payment.pay)
    DISCOUNT: Final = "discount"  # resource index 0..5 (5 = Crystal) a discount keeps unpaid; context: the cause
    CHARM_REROLL: Final = "charm_reroll"  # 1 = spend a Good Luck Charm to reroll, 0 = keep
    SPELL_USE: Final = "spell_use"  # index into the player's spells, -1 = stop
    READY_SPELL: Final = "ready_spell"  # index into the player's spells
    SPELL_GAIN: Final = "spell_gain"  # (element index, slot) with slot 0 scoring, 1 middle, 2 bottom
    POTION_USE: Final = "potion_use"  # potion index, -1 = none
    CALMING: Final = "calming"  # -1 = lower suspicion, else hunter index * 10 + target hunter space
    RITUAL_BONUS: Final = "ritual_bonus"  # ingredient index 0..4, or -1 = ready a used spell
    RITUAL_SHIFT: Final = "ritual_shift"  # (when, column): when 0 = before advancing, 1 = after; (-1, -1) = no shift
    CHAMBER: Final = "chamber"  # 1 = first trial chamber, 2 = second
    REMEMBER: Final = "remember"  # action index from the discard pile
    RETURN_CARD: Final = "return_card"  # action index from the discard pile back to hand
    MIRROR: Final = "mirror"  # witch index whose ability the Magic Mirror borrows
    ANIMAL: Final = "animal"  # animal index to turn into (Shapeshift)
    COVER_WITCH: Final = "cover_witch"  # witch index the animal tile covers
    TURN_BACK: Final = "turn_back"  # 1 = turn back to human form at the end of the turn, 0 = stay an animal
    ANIMAL_ABILITY: Final = "animal_ability"  # context names the animal: 1/0 = use or not, or a vertex / -1 (Fox)
    OMEN: Final = "omen"  # context names the Omen hook: 1/0 = use a bright effect or not, or a potion / witch index


class Decision:
    """A question to one seat: pick one of ``options``. ``context`` is an optional public hint (e.g. the card)."""

    __slots__ = ("context", "kind", "options", "seat")

    def __init__(self, kind: str, seat: int, options: tuple[Any, ...], context: object = None) -> None:
        self.kind = kind
        self.seat = seat
        self.options = options
        self.context = context

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as plain data (a plugin's process gets a copy, ``players/isolated.py``)."""
        return (Decision, (self.kind, self.seat, self.options, self.context))

    def __repr__(self) -> str:
        return f"Decision({self.kind}, seat={self.seat}, options={self.options!r})"


class Policy(Protocol):
    """A player. ``reset`` is called once per game with the seat and the seat's own random stream (every random
    draw of the policy comes from it); ``choose`` returns the index of its choice in ``decision.options``, seeing
    the game only through the seat's ``PlayerView``."""

    name: str

    def reset(self, seat: int, rng: random.Random) -> None: ...

    def choose(self, decision: Decision, view: PlayerView) -> int: ...


OPTION_DOMAINS: Final[dict[str, tuple[str, ...]]] = {
    Kind.START_VERTEX: ("vertex",),
    Kind.DRAFT_RETURN: ("witch",),
    Kind.CARD: ("action",),
    Kind.PREMOVE: ("vertex",),
    Kind.MOVE: ("vertex",),
    Kind.INGREDIENT: ("ingredient",),
    Kind.INSTEAD: ("yes_no",),
    Kind.ALSO_ORDER: ("yes_no",),
    Kind.BREW: ("potion", "stop"),
    Kind.HEAL: ("patient_space", "no_patient"),
    Kind.TRACK: ("disease",),
    Kind.LOSE_WITCH: ("witch",),
    Kind.RECRUIT: ("yes_no",),
    Kind.DISCARD_WITCH: ("witch",),
    Kind.CROWD_PICK: ("crowd_pick", "stop"),
    Kind.PAY: ("resource", "stop"),
    Kind.DISCOUNT: ("resource",),
    Kind.CHARM_REROLL: ("yes_no",),
    Kind.SPELL_USE: ("held_spell", "stop"),
    Kind.READY_SPELL: ("held_spell",),
    Kind.SPELL_GAIN: ("market_slot",),
    Kind.POTION_USE: ("potion", "stop"),
    Kind.CALMING: ("hunter_move", "stop"),
    Kind.RITUAL_BONUS: ("ingredient", "stop"),
    Kind.RITUAL_SHIFT: ("ritual_shift", "no_shift"),
    Kind.CHAMBER: ("chamber",),
    Kind.REMEMBER: ("action",),
    Kind.RETURN_CARD: ("action",),
    Kind.MIRROR: ("witch",),
    Kind.ANIMAL: ("animal",),
    Kind.COVER_WITCH: ("witch",),
    Kind.TURN_BACK: ("yes_no",),
    Kind.ANIMAL_ABILITY: ("yes_no", "vertex", "stop"),
    Kind.OMEN: ("yes_no", "potion", "witch", "stop"),
}
"""What the options of each kind range over, as named parts (the comments on ``Kind`` say what they mean). The
step environment's fixed action space is built from this table (``septima_sim/env/actions.py`` turns each part into
its values for a content pack: ``vertex`` = every board vertex, ``stop`` = -1, ``yes_no`` = 0 and 1...): a new kind
declares its parts here, and ``tests/test_env_actions.py`` fails for a kind that has none."""
