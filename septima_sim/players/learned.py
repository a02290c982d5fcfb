"""The ``learned`` player: greedy's look-ahead scored by the learned value model instead of the heuristic's
``state_value`` (issue #33).

At a card choice it plays each of the heuristic's best ``CANDIDATES`` cards once on a re-guessed copy of the game
made at the choice (``Simulator.sample_moon_phase``, common random numbers), balanced playing every seat to the end of
the moon phase, and scores the position reached with the model's expected final Wisdom margin (the exact margin when
the game ended there); no rollout runs to the season end. A card the heuristic rates ``CLEAR_LEAD`` above the rest is
played at once, and so is the card the distilled chooser (``learned-fast``'s) prefers by ``CONFIDENT`` (times 2 over
the players) or more; when it looks ahead, the chooser's value is added to the look-ahead's (``PRIOR``). Every other
decision is balanced's: card choices decide the turn, and branching at the ~70 other decisions of a game would cost
greedy's ~40x balanced's CPU. The model defaults to the one shipped for the built-in pack
(``septima_sim/learn/default_model.json``); ``SEPTIMA_LEARNED_MODEL`` names another model file. A model trained on
another pack than the game's still plays, after a one-line warning on stderr (once per process and pack).

``vsearch:N`` is search with the same leaves: at a card choice ``CARD_SHARE`` * N re-guesses shared by sequential
halving between the cards the heuristic rates within ``PLAUSIBLE`` of its best; at the draft, every spell taken and
every decision whose best options the heuristic rates within ``CLOSE_CALL`` of each other, ``OTHER_SHARE`` * N the
same way (copies replayed from the moon phase's checkpoint). Its other decisions are balanced's.
"""

from __future__ import annotations

import functools
import math
import os
import random
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from septima_sim.content.model import Content
from septima_sim.engine.decisions import Decision, Kind, Policy
from septima_sim.engine.results import GameResult
from septima_sim.engine.view import LiveView, PlayerView, Simulator
from septima_sim.learn.features import NAMES, features, pair_features, pair_names
from septima_sim.players.branching import ALWAYS_SEARCHED, BranchingPlayer, settled
from septima_sim.players.heuristic import HeuristicPolicy

if TYPE_CHECKING:  # numpy (the model's) is imported at the first model read, not by every run that trusts players
    from septima_sim.learn.model import ValueModel

DEFAULT_MODEL = Path(__file__).parent.parent / "learn" / "default_model.json"
MODEL_ENV = "SEPTIMA_LEARNED_MODEL"
"""Environment variable naming the model file ``learned`` plays with (default: ``DEFAULT_MODEL``)."""
DEFAULT_CHOOSER = DEFAULT_MODEL.with_name("default_chooser.json")
CHOOSER_ENV = "SEPTIMA_LEARNED_CHOOSER"
"""Environment variable naming the chooser file ``learned-fast`` plays with (default: ``DEFAULT_CHOOSER``)."""

CANDIDATES = 2
"""Cards looked ahead at a card choice: the heuristic's best this many (the rest are rarely right and cost a copy)."""
CLEAR_LEAD = 4.0
"""When the heuristic's best card leads its second by this many Wisdom units, it is played without a look-ahead."""
CONFIDENT = 0.5
"""``learned`` looks ahead only when the chooser's value of balanced's best card minus its second (the look-ahead's
expected difference, in Wisdom units of final margin) is smaller than this times 2 / players (a copy plays every
seat's turn: 0.5 at 2 players, 0.25 at 4); the confident ones cost no copy."""
PRIOR = 1.0
"""Weight of the chooser's value beside the look-ahead's difference (one re-guess: a noisy sample of the same)."""
DISTILL_SAMPLES = 1
"""Re-guesses per looked-ahead choice in the distillation games (``septima-sim learn --distill``): the chooser's label
is their mean difference (2 made ``learned-fast`` stronger and ``learned`` weaker at 4 players, docs/players.md)."""
PLAUSIBLE = 8.0
"""``vsearch:N`` looks at the cards the heuristic rates within this many Wisdom units of its best (inf: every card)."""
HALVING = True
"""``vsearch:N`` spends its look-aheads by sequential halving (False: the same number on every card)."""
CARD_SHARE = 0.5
"""``vsearch:N`` shares this many times N re-guesses between the plausible cards at a card choice (the rest of its
budget pays for the close calls: 1.0 without them won 50.5% against ismcts:50 at 2 players, 0.5 with them 62.2% on
fresh seeds at about the same CPU, docs/players.md)."""
CLOSE_CALL = 0.5
"""``vsearch:N`` also searches, on ``OTHER_SHARE``, every decision whose best options the heuristic rates within this
many Wisdom units of each other, over those options (0: only the card, the draft and the spells taken)."""
OTHER_SHARE = 0.16
"""``vsearch:N`` searches the draft, every spell taken (``ALWAYS_SEARCHED``, as ``ismcts`` does) and the close calls
on this share of N re-guesses, each option played to the next card selection on a copy replayed from the moon phase's
checkpoint (``Simulator.branch``); 0: balanced's answers there."""
TIE_BREAK = 1e-3
"""Weight of the heuristic's own card values: they break ties between equal model values."""

Totals = dict[int, float]
"""Each option's summed value over the re-guesses it was played on."""
Valuer = Callable[[Decision, list[int], list[int]], Totals]
"""Values options on re-guesses: (decision, options, seeds) -> ``Totals``."""

_WARNED: set[tuple[str, str]] = set()
"""(model pack hash, game pack hash) pairs already warned about in this process."""


@functools.lru_cache(maxsize=8)
def model_at(path: str) -> ValueModel:
    """The model in ``path``, read once per process (ModelError when it cannot be read)."""
    from septima_sim.learn.model import load

    return load(Path(path))


def default_model() -> ValueModel:
    """The model ``learned`` plays with: ``$SEPTIMA_LEARNED_MODEL`` or the shipped one; ModelError when it does not
    fit the features of this version."""
    from septima_sim.learn.model import ModelError

    path = os.environ.get(MODEL_ENV) or str(DEFAULT_MODEL)
    model = model_at(path)
    if model.features != NAMES:
        raise ModelError(f"{path}: the model was trained on other features than this septima-sim computes")
    return model


def default_chooser() -> ValueModel:
    """The card chooser ``learned-fast`` plays with: ``$SEPTIMA_LEARNED_CHOOSER`` or the shipped one (its features
    are checked against the game's pack at the first card choice)."""
    return model_at(os.environ.get(CHOOSER_ENV) or str(DEFAULT_CHOOSER))


def final_margin(result: GameResult, seat: int) -> float:
    """The seat's final Wisdom minus the best other seat's (its own Wisdom in a solo game)."""
    wisdom = {int(str(row["seat"])): float(str(row["wisdom"])) for row in result.players}
    others = [w for s, w in wisdom.items() if s != seat]
    return wisdom[seat] - (max(others) if others else 0.0)


class LearnedPolicy(BranchingPlayer):
    """Chooses the card whose moon phase ends in the position of the highest learned value; balanced otherwise.

    With a ``chooser``, a contested choice the chooser calls by ``confident`` or more costs no copy (0: never one,
    ``learned-fast``). With a ``budget`` (``vsearch:N``) the cards the heuristic rates within ``PLAUSIBLE`` of its
    best share ``CARD_SHARE`` * N re-guesses by sequential halving (``_halve``) and the card of the best mean value
    wins; the draft, the spells taken and the heuristic's close calls are searched the same way (``_other``)."""

    def __init__(
        self,
        model: ValueModel,
        evaluator: HeuristicPolicy,
        rollout: Callable[[], Policy],
        budget: int = 0,
        chooser: ValueModel | None = None,
        confident: float = 0.0,
    ) -> None:
        fast = chooser is not None and confident <= 0
        name = f"vsearch:{budget}" if budget else "learned-fast" if fast else "learned"
        super().__init__(name, evaluator)
        self.model = model
        self.rollout = rollout
        self.budget = budget
        self.chooser = chooser
        self.confident = confident
        self._bar = confident
        self.fast = fast
        self._use_chooser = False
        self.trace: Callable[[list[float], float], None] | None = None
        """If set, called at each looked-ahead choice of two cards with their ``pair_features`` and the look-ahead's
        value of the first minus the second (``septima-sim learn --distill``)."""
        self._checked = False

    def reset(self, seat: int, rng: random.Random) -> None:
        super().reset(seat, rng)
        self._checked = False

    def attach(self, simulator: Simulator) -> None:
        """The look-ahead copies the game at the card choice itself (``Simulator.sample_moon_phase``), so it asks
        for no checkpoints (``record``: a copy of the game at every moon phase) unless ``vsearch`` searches the
        draft, the spells taken and the close calls (``OTHER_SHARE``): copies replayed from those checkpoints."""
        self._sim = simulator
        if self.budget and OTHER_SHARE > 0:
            simulator.record()

    def choose(self, decision: Decision, view: PlayerView) -> int:
        n = len(decision.options)
        if decision.kind != Kind.CARD or n < 2:
            searched = self._other(decision, view) if self.budget and n >= 2 and OTHER_SHARE > 0 else -1
            return searched if searched >= 0 else self.own.choose(decision, view)
        if not self._checked:
            self._checked = True
            self._bar = self.confident * 2 / view.n_players
            warn_pack(self.model, view.content.hash)
            self._use_chooser = self.chooser is not None and fits(self.chooser, view.content)
        own = self.own.values(decision, view) or [0.0] * n
        if self.budget:
            return self._halve(decision, own, max(1, round(self.budget * CARD_SHARE)), self._values)
        pair: list[float] = []
        prior = 0.0
        ranked = sorted(range(n), key=lambda i: -own[i])[:CANDIDATES]  # stable: ties keep order
        samples = 1 if self.trace is None else DISTILL_SAMPLES
        if own[ranked[0]] - own[ranked[1]] >= CLEAR_LEAD:
            return ranked[0]
        if self.fast and not self._use_chooser:
            return ranked[0]  # a chooser for other cards: balanced's card
        if (self._use_chooser or self.trace is not None) and isinstance(view, LiveView) and len(ranked) == 2:
            a, b = ranked
            cards = decision.options
            pair = pair_features(view, self.own.evaluate(view), cards[a], cards[b], own[a] - own[b])
            if self.chooser is not None and self._use_chooser:  # the distilled look-ahead: no copy of the game
                prior = float(self.chooser.predict([pair])[0])
                if abs(prior) >= self._bar:
                    return a if prior >= 0 else b
        totals = self._values(decision, ranked, [self._rng.getrandbits(64) for _ in range(samples)])
        if pair and self.trace is not None:
            self.trace(pair, (totals[ranked[0]] - totals[ranked[1]]) / samples)
        totals[ranked[0]] += PRIOR * prior  # 0 without a chooser
        return max(ranked, key=lambda i: totals[i] + TIE_BREAK * own[i])  # ties: the heuristic's order

    def _other(self, decision: Decision, view: PlayerView) -> int:
        """``vsearch:N`` at a decision other than the card: the draft and every spell taken, and (``CLOSE_CALL``) a
        decision whose two best options the heuristic rates within ``CLOSE_CALL`` of each other, halved over the
        options within that of the best; -1 where it does not search (balanced's answer)."""
        always = decision.kind in ALWAYS_SEARCHED
        if not always and CLOSE_CALL <= 0:
            return -1
        values = self.own.values(decision, view)
        if always:
            own, plausible = values or [0.0] * len(decision.options), PLAUSIBLE
        elif values is None or settled(decision, values, CLOSE_CALL) >= 0:  # the heuristic is sure: no close call
            return -1
        else:
            own, plausible = values, CLOSE_CALL
        return self._halve(decision, own, max(1, round(self.budget * OTHER_SHARE)), self._branch_values, plausible)

    def _halve(
        self, decision: Decision, own: list[float], budget: int, values: Valuer, plausible: float = PLAUSIBLE
    ) -> int:
        """``vsearch:N``: sequential halving (Karnin et al. 2013) over the options the heuristic rates within
        ``plausible`` of its best (one such option is played at once). The budget is split over ceil(log2 options)
        rounds (what a round leaves over goes to the next); each round values every option still in with ``values``
        on new re-guesses (the same ones for each option) and keeps the better half, so the close options get most of
        the look-aheads."""
        best = max(own)
        alive = [i for i in range(len(decision.options)) if own[i] > best - plausible]  # the rest are not tried
        if len(alive) == 1:
            return alive[0]
        rounds = max(1, math.ceil(math.log2(len(alive)))) if HALVING else 1
        totals = dict.fromkeys(alive, 0.0)
        spent = 0
        for r in range(rounds):  # each round an equal share of what is left (at least one re-guess per card)
            new = max(1, (budget - spent) // (rounds - r) // len(alive))
            spent += new * len(alive)
            more = values(decision, alive, [self._rng.getrandbits(64) for _ in range(new)])
            for i in alive:
                totals[i] += more[i]
            alive.sort(key=lambda i: -(totals[i] + TIE_BREAK * own[i]))  # ties: the heuristic's order
            if r < rounds - 1:
                alive = alive[: max(2, (len(alive) + 1) // 2)]
        return alive[0]

    def _values(self, decision: Decision, cards: list[int], seeds: list[int]) -> Totals:
        """Each of ``cards``' summed value over the re-guesses ``seeds`` (the same ones for every card), each played
        on a copy made at the card choice (``Simulator.sample_moon_phase``) to the next card selection."""
        sim = self.simulator()
        others: list[dict[int, int]] = [{} for _ in seeds]  # the other seats' cards in each re-guess: chosen once
        n = sim.n_players
        leaves = (
            (i, *sim.sample_moon_phase(decision, i, [self.rollout() for _ in range(n)], seed, cards_of_others))
            for i in cards
            for seed, cards_of_others in zip(seeds, others, strict=True)
        )
        return self._score(cards, leaves)

    def _branch_values(self, decision: Decision, options: list[int], seeds: list[int]) -> Totals:
        """``_values`` at another decision than the card: each option on a re-guessed copy (``Simulator.branch``,
        replayed from the moon phase's checkpoint) to the next card selection."""
        sim = self.simulator()
        n = sim.n_players
        leaves = (
            (i, *sim.branch(decision, i, [self.rollout() for _ in range(n)], seed, None, True))
            for i in options
            for seed in seeds
        )
        return self._score(options, leaves)

    def _score(self, options: list[int], leaves: Iterable[tuple[int, LiveView, GameResult | None]]) -> Totals:
        """Each option's summed value of its ``leaves`` (option, copy, result; each copy read and let go in turn): the
        model's value of the position reached, or the final margin when the game ended first."""
        totals = dict.fromkeys(options, 0.0)
        rows: list[list[float]] = []
        where: list[int] = []
        for i, twin, result in leaves:
            if result is not None:  # the game ended in this moon phase: its margin is known
                totals[i] += final_margin(result, self.seat)
            else:
                rows.append(features(twin, self.own.evaluate(twin)))
                where.append(i)
        if rows:
            for i, v in zip(where, self.model.predict(rows).tolist(), strict=True):
                totals[i] += v
        return totals


def fits(chooser: ValueModel, content: Content) -> bool:
    """Whether the chooser reads the pair features of this pack's cards; else one warning line (once per process and
    pack): ``learned-fast`` plays balanced's card choices, ``learned`` looks ahead at every contested one."""
    if chooser.features == pair_names(content):
        return True
    key = ("chooser", content.hash)
    if key not in _WARNED:
        _WARNED.add(key)
        print(
            "warning: the learned-fast chooser was trained on other cards or features: learned-fast plays balanced's "
            "cards, learned looks ahead at each close call (train one: `septima-sim learn CONFIG --distill N`)",
            file=sys.stderr,
        )
    return False


def warn_pack(model: ValueModel, pack_hash: str) -> None:
    """One line on stderr (once per process and pack) when the game's content pack is not the model's."""
    key = (model.pack_hash, pack_hash)
    if model.pack_hash and model.pack_hash != pack_hash and key not in _WARNED:
        _WARNED.add(key)
        print(
            f"warning: the learned model was trained on content pack {model.pack_hash[:12]}, this game plays "
            f"{pack_hash[:12]}: train one for this pack with `septima-sim learn CONFIG` (docs/players.md)",
            file=sys.stderr,
        )
