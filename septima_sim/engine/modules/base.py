"""The ``Module`` interface: the hook points the base flow offers to a rules module, every one a no-op here.

A module (an expansion like Shapeshifting or Omens, or the solo opponent) is one subclass overriding the hooks it
needs. ``Game`` keeps, per hook, only the enabled modules that override it, in ``MODULES`` order, so a hook no
module uses costs nothing. A module's per-game state lives on its object (``copy`` makes the copy a search clone
uses); rule changes that act deep inside an action (an Omen half, an animal ability) are ``RuleEffect`` /
``SeatEffect`` objects the module puts in force (``engine/rule_effects.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

HOOKS: tuple[str, ...] = (
    "setup",
    "place_leaders",
    "start_season",
    "start_phase",
    "card_options",
    "reveal",
    "before_turns",
    "after_turns",
    "extra_matches",
    "suspicion_change",
    "end_turn",
    "end_of_season",
    "game_end",
    "trial_bag",
    "return_token",
    "judged",
    "blocks_ritual",
    "stat",
    "outcome",
    "game_fields",
    "player_fields",
    "event_fields",
    "public_fields",
    "determinize",
)
"""Hook names, in flow order (``Game`` binds the overridden ones of each enabled module)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: plugins and tests subclass Module
class Module:
    """A rules module. Override the hooks you need; ``name`` is the ``ModuleSpec`` name it is registered under."""

    name: ClassVar[str] = ""
    keeps_discards: ClassVar[bool] = False
    """True: played cards stay in the discard at the end of a season (S6 skips step 4 for everyone)."""

    def init(self, g: Game) -> None:
        """Game creation, before setup: adjust the game's card tables (e.g. a card that replaces another in hand)."""

    def copy(self) -> Module:
        """An independent copy of this module's per-game state (search clones); stateless modules return self."""
        return self

    def setup(self, g: Game) -> None:
        """B6, after the spell market is set up and before patients are drawn."""

    def place_leaders(self, g: Game) -> None:
        """B6, after every leader stands on its start vertex (the last setup step)."""

    def start_season(self, g: Game) -> None:
        """B9, the last preparation step of seasons 2-4."""

    def start_phase(self, g: Game) -> None:
        """B11, at the start of a moon phase, before any card is chosen."""

    def card_options(self, g: Game, p: Player, options: list[int]) -> list[int]:
        """B11: narrow the cards seat `p` may select (the hand's cards come in)."""
        return options

    def reveal(self, g: Game) -> None:
        """B11, after every seat revealed its card (``g.s.played``)."""

    def before_turns(self, g: Game) -> None:
        """B12, before the first seat resolves its card."""

    def after_turns(self, g: Game) -> None:
        """B12, after the last seat resolved its card."""

    def extra_matches(self, g: Game, icon: int) -> int:
        """B12: further revealed cards (not a seat's) that an action with this icon matches."""
        return 0

    def suspicion_change(self, g: Game, p: Player, matched: bool, change: int) -> int:
        """B13, the suspicion step: the change the seat's card makes (negative lowers)."""
        return change

    def end_turn(self, g: Game) -> None:
        """B17, after played cards went to the discard, before hunters stand up again."""

    def end_of_season(self, g: Game) -> None:
        """B31, the last step of an end of season (not after the last season)."""

    def game_end(self, g: Game) -> None:
        """B32, first step of the end-of-game scoring."""

    def trial_bag(self, g: Game, bag: list[int]) -> None:
        """B25: add tokens of your own (negative numbers below -3) to the citizens' bag of a trial."""

    def return_token(self, g: Game, token: int) -> None:
        """B25: one of your tokens goes back to the crowd after the trial."""

    def judged(self, g: Game, witch: int, chamber: list[int], winner: int, loyal: list[int]) -> None:
        """B25, after a judgement (``winner`` -1 = exiled; ``loyal``: loyal citizens seated per seat)."""

    def blocks_ritual(self, g: Game, p: Player, row: int, col: int) -> bool:
        """B26: True when the seat may not enter this ritual track cell."""
        return False

    def stat(self, g: Game, p: Player, name: str) -> int | None:
        """A statistic goals and Tribulations read that the base game does not define (None: not yours)."""
        return None

    def outcome(self, g: Game) -> tuple[list[int], list[int], list[int]] | None:
        """B3 replaced: (winner seats, rank per seat, scores best first for the margin), or None for the base rule."""
        return None

    def game_fields(self, g: Game, row: dict[str, object]) -> None:
        """Fill your ``ModuleSpec.game_columns`` in the games row."""

    def player_fields(self, g: Game, p: Player, row: dict[str, object]) -> None:
        """Fill your ``ModuleSpec.player_columns`` in a players row."""

    def event_fields(self, g: Game, record: dict[str, object]) -> None:
        """Add your ``ModuleSpec.event_fields`` to an event record (only when an event sink listens)."""

    def public_fields(self, g: Game, out: dict[str, dict[str, object]]) -> None:
        """Add your public state to ``engine.public_fields`` (JSON-ready values by owner: ``out[name][field]`` for
        yours, ``out[str(seat)][field]`` per seat): what the event log's ``changes`` carry and ``events.fold``
        rebuilds."""

    def determinize(self, g: Game, seat: int, rng: random.Random) -> None:
        """Search clones: re-guess the hidden parts of your state that `seat` cannot see."""

    def table_suspicion(self, g: Game) -> int:
        """Suspicion this module adds to the table's total (O3: the solo opponent's counts)."""
        return 0

    def public(self, g: Game, seat: int) -> object:
        """What a policy of `seat` may see of your state (immutable values only), for ``PlayerView.module``."""
        return None


class BoundHooks:
    """Per hook, the bound methods of the enabled modules that override it (in ``MODULES`` order); a hook no
    enabled module overrides keeps the class's empty tuple."""

    setup: tuple[Callable[[Game], None], ...] = ()
    place_leaders: tuple[Callable[[Game], None], ...] = ()
    start_season: tuple[Callable[[Game], None], ...] = ()
    start_phase: tuple[Callable[[Game], None], ...] = ()
    card_options: tuple[Callable[[Game, Player, list[int]], list[int]], ...] = ()
    reveal: tuple[Callable[[Game], None], ...] = ()
    before_turns: tuple[Callable[[Game], None], ...] = ()
    after_turns: tuple[Callable[[Game], None], ...] = ()
    extra_matches: tuple[Callable[[Game, int], int], ...] = ()
    suspicion_change: tuple[Callable[[Game, Player, bool, int], int], ...] = ()
    end_turn: tuple[Callable[[Game], None], ...] = ()
    end_of_season: tuple[Callable[[Game], None], ...] = ()
    game_end: tuple[Callable[[Game], None], ...] = ()
    trial_bag: tuple[Callable[[Game, list[int]], None], ...] = ()
    return_token: tuple[Callable[[Game, int], None], ...] = ()
    judged: tuple[Callable[[Game, int, list[int], int, list[int]], None], ...] = ()
    blocks_ritual: tuple[Callable[[Game, Player, int, int], bool], ...] = ()
    stat: tuple[Callable[[Game, Player, str], int | None], ...] = ()
    outcome: tuple[Callable[[Game], tuple[list[int], list[int], list[int]] | None], ...] = ()
    game_fields: tuple[Callable[[Game, dict[str, object]], None], ...] = ()
    player_fields: tuple[Callable[[Game, Player, dict[str, object]], None], ...] = ()
    event_fields: tuple[Callable[[Game, dict[str, object]], None], ...] = ()
    public_fields: tuple[Callable[[Game, dict[str, dict[str, object]]], None], ...] = ()
    determinize: tuple[Callable[[Game, int, random.Random], None], ...] = ()

    def __init__(self, modules: tuple[Module, ...]) -> None:
        for hook, users in _plan(tuple([type(m) for m in modules])):
            if len(users) == 1:
                setattr(self, hook, (getattr(modules[users[0]], hook),))
            else:
                setattr(self, hook, tuple([getattr(modules[i], hook) for i in users]))


_PLANS: dict[tuple[type[Module], ...], tuple[tuple[str, tuple[int, ...]], ...]] = {}


def _plan(classes: tuple[type[Module], ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Per hook some module class overrides, the positions of those classes (computed once per set of classes)."""
    plan = _PLANS.get(classes)
    if plan is None:
        users = {
            hook: tuple(i for i, cls in enumerate(classes) if getattr(cls, hook) is not getattr(Module, hook))
            for hook in HOOKS
        }
        plan = _PLANS[classes] = tuple((hook, idx) for hook, idx in users.items() if idx)
    return plan
