"""Rule changes in force: the points inside the base rules where a module's effect objects act.

``Game.s.fx`` is the ``RuleEffect`` in force for everyone (an Omen half; ``NO_RULE_EFFECT`` when none), ``Player.fx``
the ``SeatEffect`` in force for one seat this turn (an animal ability; ``NO_SEAT_EFFECT`` when none). The base rules
call these hooks unconditionally; every default below is the base rule. Modules register subclasses keyed by content
id (``modules/omens.py: HALVES``, ``modules/shapeshifting.py: ABILITIES``) and put them in force.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Patient, Player


HOT_HOOKS: tuple[str, ...] = ("card_options", "on_play", "on_raise", "match_raise")
"""Rule-effect hooks the turn loop calls per seat and turn: each has a ``uses_<hook>`` flag read before calling it."""


class RuleEffect:
    """A rule change for every seat. ``id`` is its content id; the flags are read in the hot path as attributes."""

    id: ClassVar[str] = ""
    abilities_off: ClassVar[bool] = False
    """No coven witch (or animal) ability applies; a mirrored witch and buildings still do."""
    buildings_closed: ClassVar[bool] = False
    """No building ability applies."""
    buildings_anywhere: ClassVar[bool] = False
    """Building abilities apply without adjacency."""

    changes_price: ClassVar[bool] = False
    """``can_pay`` / ``pay_recipe`` replace the recipe's price (read before calling them, in the brewing loop)."""

    uses_card_options: ClassVar[bool] = False
    uses_on_play: ClassVar[bool] = False
    uses_on_raise: ClassVar[bool] = False
    uses_match_raise: ClassVar[bool] = False
    """``uses_<hook>``: the class overrides that hook (set for every subclass; the turn loop reads the flag instead of
    calling a hook that does nothing, ``HOT_HOOKS``)."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        for hook in HOT_HOOKS:
            setattr(cls, f"uses_{hook}", getattr(cls, hook) is not getattr(RuleEffect, hook))

    def card_options(self, g: Game, p: Player, options: list[int]) -> list[int]:
        """B11: the cards the seat may select."""
        return options

    def on_play(self, g: Game, p: Player, icon: int) -> None:
        """B21g: after a card's abilities resolved and its witch triggers ran (``icon``: the card's action icon;
        B21e: Remember acts as Remember)."""

    def on_raise(self, g: Game, p: Player) -> None:
        """B13: a raise of the seat's suspicion is about to happen."""

    def match_raise(self, g: Game) -> int:
        """B13: extra suspicion for matching another player."""
        return 0

    def brew_limit(self, g: Game, limit: int) -> int:
        """B21: how many potions one Brew may brew."""
        return limit

    def after_brew(self, g: Game, p: Player, brewed: int) -> None:
        """B21: after a Brew action that brewed `brewed` potions."""

    def can_pay(self, g: Game, p: Player, potion: int, discount: int, waive: int) -> bool:
        """B21: whether the recipe is affordable under a changed price (``changes_price``)."""
        return False

    def pay_recipe(self, g: Game, p: Player, potion: int, discount: int, waive: int) -> int:
        """B21: pay a potion at a changed price (``changes_price``) and return the discount left."""
        return discount

    def other_remedy(self, g: Game, p: Player) -> int:
        """B21a: a Remedy that heals a patient of another disease (-1: none may)."""
        return -1

    def choose_remedy(self, g: Game, p: Player, patient: Patient) -> int:
        """B21a: the Remedy that heals this patient (-1: the patient's own Remedy)."""
        return -1

    def ready_extra(self, g: Game, p: Player) -> int:
        """B21f/B28: further spells the seat readies after an effect readied one (asked only while a used spell is
        left)."""
        return 0

    def offering(self, g: Game, cost: int) -> int:
        """B26: ingredients an offering to enter a ribbon row costs."""
        return cost

    def trial_picks(self, g: Game, picks: int) -> int:
        """B29: crowd picks after the trials."""
        return picks

    def trial_won(self, g: Game, p: Player) -> None:
        """B25: after the trial winner gained its Wisdom."""

    def after_recruit(self, g: Game, witch: int, winner: int, recall: int, first_chamber: bool) -> int:
        """B25: after the winner recruited or declined the acquitted witch; returns the winner's recall."""
        return recall


class SeatEffect:
    """A rule change for one seat this turn. ``id`` is its content id."""

    id: ClassVar[str] = ""
    recruit_depends_on_position: ClassVar[bool] = False
    """``after_recruit_action`` depends on where the leader stands (the Cat), so the order of Recruit's Also pick
    (the move pick) can matter (B12: ``Kind.ALSO_ORDER`` is asked)."""

    def after_collect(self, g: Game, p: Player, collected: list[int]) -> None:
        """B19: after Collect (``collected``: the lunar ingredients gained)."""

    def move_targets(self, g: Game, p: Player, options: list[int]) -> list[int]:
        """B20: the vertices Move's main ability may end on (``options``: within its steps)."""
        return options

    def after_move(self, g: Game, p: Player) -> None:
        """B20: after Move."""

    def waived_ingredient(self, g: Game, p: Player) -> int:
        """B21: an ingredient recipes need none of while brewing (-1: none)."""
        return -1

    def after_heal(self, g: Game, p: Player) -> None:
        """B21a: after each patient the seat heals."""

    def after_recruit_action(self, g: Game, p: Player) -> None:
        """B21c: after Recruit's main ability."""

    def after_plead(self, g: Game, p: Player) -> None:
        """B21d: after Plead seated its citizen."""

    def replace_remember(self, g: Game, p: Player, matched: bool) -> bool:
        """B21e: resolve something else instead of Remember (True: done, Remember does nothing more)."""
        return False

    def after_ritual(self, g: Game, p: Player) -> None:
        """B21f: after Ritual's main ability and bonus."""


NO_RULE_EFFECT = RuleEffect()
NO_SEAT_EFFECT = SeatEffect()
