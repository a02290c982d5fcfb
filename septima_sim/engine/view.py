"""What a policy may see: public state and its own seat's private information, nothing else.

Hidden from every policy: other seats' Book of Divination goals, the order of every deck and bag (witches, patients,
spells, goals, Septima markers) and the contents of the citizens' bag during a trial. Hands are public in Septima
(a hand is every card not in the discard pile), cards chosen this turn are revealed only after all seats chose.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from septima_sim.content.model import Content
    from septima_sim.engine.board import Board
    from septima_sim.engine.decisions import Policy
    from septima_sim.engine.game import Game
    from septima_sim.engine.results import GameResult
    from septima_sim.engine.state import Patient, Player


class PlayerView:
    """A read-only window on a game for one seat."""

    __slots__ = ("_game", "_lunar", "_players", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat
        self._players: tuple[Player, ...] = ()
        self._lunar: tuple[int, ...] = ()

    # static information
    @property
    def content(self) -> Content:
        return self._game.content

    @property
    def board(self) -> Board:
        return self._game.board

    @property
    def n_players(self) -> int:
        return self._game.n

    @property
    def full(self) -> bool:
        return self._game.full

    # own private information
    @property
    def me(self) -> Player:
        return self._game.players[self.seat]

    @property
    def my_goals(self) -> tuple[int, ...]:
        return tuple(self._game.goals[self.seat])

    # public information
    @property
    def players(self) -> tuple[Player, ...]:
        if not self._players:  # the seats never change during a game
            self._players = tuple(self._game.players)
        return self._players

    @property
    def season(self) -> int:
        return self._game.season

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def step(self) -> str:
        return self._game.step

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(self._game.order)

    @property
    def played(self) -> tuple[int, ...]:
        """Cards revealed this turn (-1 before the reveal)."""
        return tuple(self._game.played)

    @property
    def septima_markers(self) -> tuple[int, int]:
        """(right, left): this turn's Septima action and next turn's."""
        return self._game.septima_right, self._game.septima_left

    @property
    def lunar(self) -> tuple[int, ...]:
        """The moon track's ingredient icons (fixed at setup, B19)."""
        if not self._lunar:
            self._lunar = tuple(self._game.lunar)
        return self._lunar

    @property
    def patients(self) -> tuple[Patient, ...]:
        return tuple(self._game.patients.values())

    @property
    def hunters(self) -> tuple[tuple[int, bool], ...]:
        """(hunter space 1..6, standing) per hunter."""
        g = self._game
        return tuple(zip(g.hunter_space, g.hunter_active, strict=True))

    @property
    def trial(self) -> tuple[int, tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
        """(first chamber witch, second chamber stack, seated citizens of chambers 1 and 2)."""
        g = self._game
        return g.chamber1, tuple(g.chamber2), (tuple(g.seated[1]), tuple(g.seated[2]))

    @property
    def crowd(self) -> tuple[int, int, tuple[int, ...]]:
        """(neutral, angry, loyal per seat) citizens in the crowd."""
        g = self._game
        return g.crowd_neutral, g.crowd_angry, tuple(p.crowd for p in g.players)

    @property
    def spell_market(self) -> tuple[tuple[int, int, int], ...]:
        """Face-up spells per element: (top scoring spell, middle, bottom); -1 = empty."""
        return tuple((r.scoring[-1] if r.scoring else -1, r.middle, r.bottom) for r in self._game.market)

    @property
    def buildings(self) -> dict[int, int]:
        return dict(self._game.buildings)

    @property
    def witches_out(self) -> tuple[int, ...]:
        """Witches exiled or discarded to the box (face up)."""
        return tuple(self._game.witch_box)

    @property
    def potion_supply(self) -> tuple[int, ...]:
        return tuple(self._game.potion_supply)

    def module(self, name: str) -> object:
        """The public state of an enabled rules module (``Module.public``: e.g. ``OmensView``, ``WidowView``), or
        None when the module is off."""
        m = self._game.module_by_name.get(name)
        return m.public(self._game, self.seat) if m is not None else None

    def sample_continuation(
        self, card: int, policies: Sequence[Policy], seed: int, seasons: int | None = None
    ) -> GameResult:
        """For search players, at a card decision: play one possible future on a copy of the game in which
        everything this seat cannot see is re-guessed (``Game.determinize``), this seat playing `card` now and
        `policies` deciding everything else; to the end of the game, or scored as if it ended after `seasons` more
        season ends (0 = this season). The real game is not touched."""
        g = self._game
        twin = g.clone(policies, seed)
        twin.determinize(self.seat, random.Random(seed))
        last = None if seasons is None else min(len(g.rules.seasons) - 1, g.season + seasons)
        return twin.play_from(g.season, g.turn, {self.seat: card}, last)
