"""Septima as a PettingZoo AEC environment: every decision of the engine, one ``step`` at a time, in its order.

Agents are ``seat_0`` .. ``seat_{n-1}`` (solo: ``seat_0`` against the Black Widow, who is part of the environment).
``agent_selection`` is the seat the engine asks next; a decision with a single option is never asked (the engine
takes it). The simultaneous card selection is one step per seat in seat order; a seat's choice stays hidden from
the others (their observations, infos and forks) until every seat chose and the cards are revealed.

``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector encodes that seat's
sealed view (``observation.Encoder``; docs/env.md lists its fields), the mask marks the legal actions of the decision
it is asked (all zero when it is not asked). Actions are one fixed ``Discrete`` space (``actions.ActionLayout``).
Rewards come at the end: each seat's share of the win (1 for a sole winner, 1/k for k tied, else 0); ``infos`` then
hold ``wisdom``, ``wisdom_margin`` (Wisdom minus the best other seat's; solo: minus the Widow's) and ``won``.

A game is the engine's own: ``reset(seed=s)`` and the same answers give exactly ``play_game(config, content,
policies, s)`` with policies that answer the same, events included.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from septima_sim.content import Content, load_content
from septima_sim.engine.config import GameConfig
from septima_sim.engine.decisions import Decision, Policy
from septima_sim.engine.game import EventSink, Game
from septima_sim.engine.modules import MODULES
from septima_sim.engine.results import GameResult
from septima_sim.engine.tables import board_for
from septima_sim.engine.view import Recorder, Simulator, sealed_view
from septima_sim.env.actions import ActionLayout, IllegalAction, Mask
from septima_sim.env.driver import Driver, ExternalSeat, ForkedSeat, Pause
from septima_sim.env.fields import Vector
from septima_sim.env.observation import Encoder
from septima_sim.players.outcome import seat_margin
from septima_sim.players.registry import make_policy

Observation = dict[str, Any]
Seat = str | Callable[[], Policy] | None
"""Who plays a seat: None = the environment's caller (an agent), a persona name (``balanced``, ``py:mod:Class``...) or
a factory of a Policy (called once per game); the engine plays the last two itself."""


@lru_cache(maxsize=1)
def default_content() -> Content:
    """The built-in content pack (loaded once)."""
    return load_content()


_LAYOUTS: dict[tuple[str, tuple[str, ...]], tuple[Encoder, ActionLayout]] = {}


def layouts(content: Content) -> tuple[Encoder, ActionLayout]:
    """The observation encoder and the action layout of a content pack (built once per pack and set of registered
    rules modules)."""
    key = (content.hash, tuple(MODULES))
    built = _LAYOUTS.get(key)
    if built is None:
        board = board_for(content)
        built = _LAYOUTS[key] = Encoder(content, board), ActionLayout(content, board)
    return built


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    return int(agent.rpartition("_")[2])


def reuse(policy: Policy) -> Callable[[], Policy]:
    """A factory that hands out the same policy every game (a fork's seats; the engine resets it each game)."""
    return lambda: policy


def win_share(result: GameResult, seat: int) -> float:
    winners = result.winners
    return 1.0 / len(winners) if seat in winners else 0.0


class SeptimaEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One table of Septima (see the module docstring); ``septima_sim.env.env(...)`` makes one."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "septima_v1",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        mode: str = "full",
        shapeshifting: bool = False,
        omens: bool = False,
        modules: Iterable[str] = (),
        content: Content | None = None,
        seed: int | None = None,
        lineup: Sequence[Seat] | None = None,
        sink: EventSink | None = None,
        render_mode: str | None = None,
        forkable: bool = True,
    ) -> None:
        super().__init__()
        self.config = GameConfig(players, mode, shapeshifting, omens, modules=frozenset(modules)).validate()
        self.content = content if content is not None else default_content()
        self.encoder, self.layout = layouts(self.content)
        seats: list[Seat] = list(lineup) if lineup is not None else [None] * players
        if len(seats) != players:
            raise ValueError(f"a lineup names one player per seat: {players} seats, {len(seats)} given")
        self._lineup = seats
        self.possible_agents = [agent_name(s) for s, who in enumerate(seats) if who is None]
        if not self.possible_agents:
            raise ValueError("a lineup needs at least one seat the environment's caller plays (None)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.sink = sink
        self.forkable = forkable
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.layout.size,), np.int8),
            }
        )
        self._observation_spaces = {a: obs_space for a in self.possible_agents}
        self._action_spaces = {a: gymnasium.spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._seeds = random.Random(seed if seed is not None else secrets.randbits(63))
        self._first_seed = seed
        self.game_seed = -1
        self._driver: Driver | None = None
        self._game: Game | None = None
        self._pause: Pause | None = None
        self._asked = -1  # the seat asked now (-1: none)
        self._cache: dict[int, Observation] = {}
        self.result: GameResult | None = None
        self.agents: list[str] = []

    # ---- the PettingZoo API ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: `seed` is its game seed; without one, the seed given at creation for the first game,
        then the next draw of a stream seeded by the last seed given."""
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        elif self._first_seed is not None:
            game_seed = self._first_seed
            self._seeds.seed(game_seed)
        else:
            game_seed = self._seeds.getrandbits(63)
        self._first_seed = None
        self.close()
        self.game_seed = game_seed
        policies: list[Policy] = [
            ExternalSeat() if who is None else (make_policy(who) if isinstance(who, str) else who())
            for who in self._lineup
        ]
        game = Game(self.config, self.content, policies, game_seed, self.sink)
        for seat, who in enumerate(self._lineup):
            if who is None:
                game.blind(seat)  # observe() seals the seat's view when asked; the engine need not at each decision
        if self.forkable and game.recorder is None:  # (a built-in searcher in the lineup may have made one)
            game.recorder = Recorder()  # what ``fork`` replays from: a copy per moon phase and the answers since
        self._start(game, Driver(game.play))

    def _start(self, game: Game, driver: Driver) -> None:
        """Begin `driver`'s game (``game``) and stop at its first env-driven decision."""
        self._game = game
        self._driver = driver
        self.result = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._arrive(driver.begin())

    def step(self, action: int | None) -> None:
        """Answer the pending decision of ``agent_selection`` with `action` (None for an agent whose game is over).
        An action outside the decision's mask raises ``IllegalAction`` (a ValueError) and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        pause, driver = self._pause, self._driver
        if pause is None or driver is None or driver.over:
            raise RuntimeError("no decision is pending (the game ended, raised an error or was closed): reset")
        if action is None:
            raise IllegalAction(f"{agent} is asked a {pause.decision.kind} decision: give an action, not None")
        index = self.layout.option_index(pause.decision, int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._arrive(driver.answer(index))
        self._accumulate_rewards()

    def observe(self, agent: str) -> Observation:
        """The agent's observation now (a fresh copy each call)."""
        seat = seat_of(agent)
        obs = self._cache.get(seat)
        if obs is None:
            obs = self._cache[seat] = self._observe(seat)
        return {"observation": obs["observation"].copy(), "action_mask": obs["action_mask"].copy()}

    def render(self) -> str | None:
        """A short text picture of the table and the pending decision (``ansi`` returns it, ``human`` prints it)."""
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Abandon the current game, if any (its greenlet unwinds; nothing of it stays alive)."""
        if self._driver is not None:
            self._driver.close()
        self._driver = None
        self._game = None
        self._pause = None
        self._cache = {}

    # ---- the pending decision -------------------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """The decision ``agent_selection`` is asked (None once the game is over)."""
        return None if self._pause is None else self._pause.decision

    def action_mask(self) -> Mask:
        """The legal actions of the pending decision."""
        mask: Mask = self.observe(self.agent_selection)["action_mask"]
        return mask

    def action(self, option: object) -> int:
        """The action that answers the pending decision with the option value `option` (``Decision.options``)."""
        assert self._pause is not None, "the game is over"
        return self.layout.action(self._pause.decision.kind, option)

    # ---- determinized copies (search) -----------------------------------------------------------------------
    def fork(self, seed: int, policies: Mapping[int, Policy] | None = None, seasons: int | None = None) -> SeptimaEnv:
        """A copy of the game at the pending decision, as the asked seat knows it: what the seat cannot see (deck
        and bag orders, other seats' goals, the Omen deck, the Widow's markers, and other seats' cards of this
        selection when it is a card decision) is re-guessed from `seed`; the copy's future draws come from `seed`
        too. The copy is a new environment paused at the same decision, its asked seat's observation equal to the
        one here; step it to play that future. The real game is never touched, and nothing of it is reachable from
        the copy.

        `policies` (seat -> Policy) play those seats in the copy; the asked seat's policy takes over after its
        current decision. Other seats stay driven by the copy's caller (their hidden cards of this selection are
        guessed uniformly at random). `seasons`: the copy ends, scored as if the game did, after that many more
        season ends (0 = this season); None = the real end. A copy can itself be forked from its next moon phase
        on."""
        game, pause = self._game, self._pause
        if game is None or pause is None:
            raise RuntimeError("fork needs a pending decision (reset the environment; the game is not over)")
        if not self.forkable:
            raise RuntimeError("this environment was made with forkable=False: it keeps nothing to fork from")
        if game.recorder is None or game.recorder.snapshot is None:
            raise RuntimeError("this copy can be forked again from its next moon phase on")
        policies = dict(policies or {})
        me = self._asked
        rng = random.Random(seed)
        seats: list[Policy] = []
        externals: list[ExternalSeat] = []
        for s in range(self.config.players):
            given = policies.get(s)
            if s == me or given is None:
                guess = random.Random(rng.getrandbits(64))
                ext = ForkedSeat(guess, given) if s == me and given is not None else ExternalSeat(guess)
                externals.append(ext)
                seats.append(ext)
            else:
                seats.append(given)
        sim = Simulator(game, me)
        run = sim.fork(pause.decision, None, seats, rng.getrandbits(64))
        for ext in externals:
            ext.replay = run
        assert run.game is not None
        run.game.seed = seed  # the copy's own seed (its results row): the real game's would tell its hidden state
        twin = SeptimaEnv.__new__(SeptimaEnv)
        twin._copy_settings(self, [None if s == me or s not in policies else policies[s] for s in range(len(seats))])
        twin.game_seed = seed
        twin._start(run.game, Driver(partial(run.play, sim.last_season(seasons))))
        arrived = twin._pause
        assert arrived is not None and arrived.decision.seat == me and arrived.decision.kind == pause.decision.kind
        run.game.recorder = Recorder()  # checkpoints of the copy itself, from its next moon phase on
        return twin

    def _copy_settings(self, other: SeptimaEnv, lineup: list[Policy | None]) -> None:
        """A fork's settings: those of `other`, with the fork's own seats."""
        AECEnv.__init__(self)
        self.config, self.content, self.encoder, self.layout = other.config, other.content, other.encoder, other.layout
        self._lineup = [None if p is None else reuse(p) for p in lineup]
        self.possible_agents = [agent_name(s) for s, p in enumerate(lineup) if p is None]
        self.render_mode, self.sink, self.forkable = other.render_mode, None, True
        space = other._observation_spaces[other.possible_agents[0]]
        self._observation_spaces = {a: space for a in self.possible_agents}
        self._action_spaces = {a: gymnasium.spaces.Discrete(self.layout.size) for a in self.possible_agents}
        self._seeds = random.Random(0)  # a fork's reset() plays new games from seed 0 on
        self._first_seed = None
        self.game_seed = -1
        self._driver, self._game, self._pause, self._asked, self._cache = None, None, None, -1, {}
        self.result = None
        self.agents = []

    # ---- internals ------------------------------------------------------------------------------------------
    def _arrive(self, pause: Pause | None) -> None:
        """The game stopped at `pause` (a decision) or ended (None)."""
        self._pause = pause
        self._cache = {}
        if pause is not None:
            self._asked = pause.decision.seat
            self.agent_selection = agent_name(self._asked)
            return
        self._asked = -1
        driver = self._driver
        assert driver is not None
        result = self.result = driver.result
        assert result is not None
        for agent in self.agents:
            seat = seat_of(agent)
            self.rewards[agent] = win_share(result, seat)
            self.terminations[agent] = True
            row = result.players[seat]
            self.infos[agent] = {
                "wisdom": row["wisdom"],
                "wisdom_margin": seat_margin(result, seat),
                "won": seat in result.winners,
            }
        self.agent_selection = self.agents[0]

    def _observe(self, seat: int) -> Observation:
        game = self._game
        if game is None:
            raise RuntimeError("no game to observe (never reset, or closed): reset the environment")
        pause = self._pause
        decision = pause.decision if pause is not None and pause.decision.seat == seat else None
        view = sealed_view(game, seat)
        view.seal(game, seat)
        vector: Vector = self.encoder.encode(view, decision)
        mask = self.layout.mask(decision) if decision is not None else np.zeros(self.layout.size, np.int8)
        return {"observation": vector, "action_mask": mask}

    def _text(self) -> str:
        game = self._game
        if game is None:
            return "(no game: call reset)"
        s = game.s
        lines = [
            f"Septima, {self.config.players} players, seed {self.game_seed}: season {s.season + 1}, "
            f"turn {s.turn + 1}, step {s.step}"
        ]
        for p in s.players:
            lines.append(f"  seat_{p.seat} ({p.colour}): wisdom {p.wisdom}, suspicion {p.suspicion}, vertex {p.vertex}")
        pause = self._pause
        if pause is None:
            winners = ", ".join(agent_name(w) for w in self.result.winners) if self.result else "-"
            lines.append(f"game over; winners: {winners}")
        else:
            d = pause.decision
            legal = ", ".join(f"{self.layout.action(d.kind, o)}={o!r}" for o in d.options)
            lines.append(f"{agent_name(d.seat)} to choose {d.kind} (context {d.context!r}): {legal}")
        return "\n".join(lines)
