"""The TUNE.toml file: base experiment, search space, targets and budget, validated with pydantic.

Rates in the file are in percentage points (``band = 2.5`` means fair share ± 2.5 points); the schema turns every
mistake into one ``TuneError`` line naming the file and the key, before anything is written.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError, model_validator

from septima_sim.experiment import MAX_GAMES_PER_CELL, LineupValue, Matrix
from septima_sim.tomlfile import read_toml

MAX_TRIALS = 10_000
"""Most trials of a study (``budget.trials``, ``--trials``): far beyond any budget worth playing, and a finite space
ends the study earlier anyway (``study.optimise``)."""

SAMPLERS: tuple[str, ...] = ("tpe", "cmaes", "random")
"""optuna samplers a study may use: TPE (default, any space), CMA-ES (numeric spaces only), random search."""

TARGET_KINDS: tuple[str, ...] = (
    "seat_fairness",
    "first_player",
    "skill_gap",
    "winning_score",
    "game_length",
    "component",
)
"""The target vocabulary (``component`` uses ``ablate``'s pairing: the same seeds without the component)."""


class TuneError(ValueError):
    """A tune file or option that cannot run: one line naming the file and the key (exit code 2)."""


class GamesRaised(Exception):
    """Games raised where the tune needs them all (no trial completed, or the confirmation): exit code 3."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class NumberRange(_Strict):
    """A numeric dimension: every value from ``low`` to ``high`` (in ``step`` increments when given)."""

    low: int | float
    high: int | float
    step: Annotated[int | float, Field(gt=0)] | None = None

    @model_validator(mode="after")
    def _ordered(self) -> NumberRange:
        if not self.low < self.high:
            raise ValueError(f"low must be below high (got low={self.low}, high={self.high})")
        return self

    @property
    def integer(self) -> bool:
        """Integers when low, high and step are all integers (then the content value must be an integer)."""
        return all(isinstance(v, int) and not isinstance(v, bool) for v in (self.low, self.high, self.step or 1))


class Choices(_Strict):
    """A categorical dimension: one of the listed values (numbers, strings, booleans or lists such as tile actions)."""

    choices: Annotated[list[Any], Field(min_length=2)]


class _Target(_Strict):
    weight: Annotated[float, Field(gt=0)] = 1.0
    constraint: bool = False
    players: list[Annotated[int, Field(ge=1, le=4)]] | None = None


class SeatFairness(_Target):
    """Every seat's win rate within fair share (1/players) ± ``band`` points."""

    band: Annotated[float, Field(gt=0, lt=50)]


class FirstPlayer(_Target):
    """The start player's win rate within ``target`` ± ``band`` points (default target: fair share)."""

    target: Annotated[float, Field(ge=0, le=100)] | None = None
    band: Annotated[float, Field(gt=0, lt=50)]


class SkillGap(_Target):
    """Persona ``stronger`` finishes ahead of persona ``weaker`` (ties half) in at least 50 + ``min`` % of the games
    where both sit."""

    stronger: str
    weaker: str
    min: Annotated[float, Field(ge=0, lt=50)]


class Range(_Target):
    """A game-level mean (winning score, or decisions per game for ``game_length``) between ``low`` and ``high``."""

    low: float
    high: float

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if not self.low < self.high:
            raise ValueError(f"low must be below high (got low={self.low}, high={self.high})")
        return self


class Component(_Target):
    """A component's causal effect (``ablate``'s pairing: the same games without it) within ``target`` ± ``band``:
    win-rate points of the seat holding it, or every seat's Wisdom for a building or an Omen."""

    kind: Literal["witch", "spell", "animal", "building", "omen", "goal"]
    id: Annotated[str, Field(min_length=1)]
    band: Annotated[float, Field(gt=0, lt=100)]
    target: Annotated[float, Field(ge=-100, le=100)] = 0.0


class Targets(_Strict):
    """At least one target; each with a weight (traded off) or ``constraint = true`` (must hold)."""

    seat_fairness: SeatFairness | None = None
    first_player: FirstPlayer | None = None
    skill_gap: SkillGap | None = None
    winning_score: Range | None = None
    game_length: Range | None = None
    component: Component | None = None

    def named(self) -> dict[str, _Target]:
        """The targets given, by kind, in vocabulary order."""
        return {k: v for k in TARGET_KINDS if isinstance(v := getattr(self, k), _Target)}


Games = Annotated[int, Field(gt=0, le=MAX_GAMES_PER_CELL)]
"""Games per cell, bounded as a run's ``games_per_cell``."""


class Budget(_Strict):
    """Trials, games per trial at full fidelity, the first rung of successive halving and the confirmation."""

    trials: Annotated[int, Field(gt=0, le=MAX_TRIALS)] = 30
    games: Games = 1000
    min_games: Games | None = None
    reduction: Annotated[int, Field(ge=2)] = 3
    confirm_games: Games = 4000
    confirm_top: Annotated[int, Field(gt=0)] = 3
    sampler: Literal["tpe", "cmaes", "random"] = "tpe"
    pruner: Literal["halving", "none"] = "halving"
    # Trials in flight at once: asked together (the sampler proposes them before it sees their results) and played
    # rung by rung as one stream of shard tasks, so small trials fill a cluster's workers. A setting of the study,
    # not of the backend: the same batch gives the same trials on every backend and job count.
    batch: Annotated[int, Field(gt=0, le=64)] = 1

    @model_validator(mode="after")
    def _first_rung(self) -> Budget:
        if self.min_games is not None and self.min_games > self.games:
            raise ValueError(
                f"min_games ({self.min_games:,}) is more than games ({self.games:,}): the first rung of successive "
                "halving cannot play more games than a full trial"
            )
        return self

    def rungs(self) -> list[int]:
        """Games per cell after each rung: min_games, x reduction, ... up to ``games`` (one rung without pruning)."""
        first = self.min_games or self.games
        if self.pruner == "none" or first >= self.games:
            return [self.games]
        out = [first]
        while out[-1] * self.reduction < self.games:
            out.append(out[-1] * self.reduction)
        return [*out, self.games]

    def shard_size(self) -> int:
        """A shard size dividing every rung, so a rung only plays the games the previous one has not."""
        return min(1000, math.gcd(*self.rungs()))


def _dimension_kind(value: Any) -> str:
    """Which dimension a space entry is: a list of ``choices``, or a number range (every other table)."""
    return "Choices" if isinstance(value, dict) and "choices" in value else "NumberRange"


Dimension = Annotated[
    Annotated[NumberRange, Tag("NumberRange")] | Annotated[Choices, Tag("Choices")], Discriminator(_dimension_kind)
]
"""A space entry, validated as the one kind it is (so an error names that kind's problem only)."""


class TuneConfig(_Strict):
    """One tune file (see docs/tune.md)."""

    name: Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]+$")]
    seed: Annotated[int, Field(ge=0)] = 1
    content: str | None = None
    base: Matrix
    lineups: dict[str, LineupValue] = {}
    space: Annotated[dict[str, Dimension], Field(min_length=1)]
    targets: Targets
    budget: Budget = Budget()


def _format(error: ValidationError) -> str:
    parts = []
    for err in error.errors(include_url=False):
        loc = ".".join(str(x) for x in err["loc"] if not str(x).startswith(("NumberRange", "Choices")))
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "too_short" and loc == "space":
            msg = "the search space is empty: give at least one dotted content path"
        elif err["type"] == "model_type" and len(err["loc"]) == 3 and err["loc"][0] == "space":
            msg = f"give {{ low = L, high = H }} (optional step) or {{ choices = [...] }}, got {err['input']!r}"
        parts.append(f"{loc or 'file'}: {msg}")
    return "; ".join(dict.fromkeys(parts))


def parse(data: dict[str, Any], source: str) -> TuneConfig:
    """Validate a tune mapping; raises TuneError naming ``source`` and the key."""
    if isinstance(data.get("space"), dict) and not data["space"]:
        raise TuneError(f"{source}: space: the search space is empty: give at least one dotted content path")
    try:
        cfg = TuneConfig.model_validate(data)
    except ValidationError as exc:
        raise TuneError(f"{source}: {_format(exc)}") from None
    if not cfg.targets.named():
        raise TuneError(f"{source}: targets: give at least one of {', '.join(TARGET_KINDS)}")
    return cfg


def read(path: Path) -> dict[str, Any]:
    """The raw mapping of a tune file."""
    return read_toml(path, TuneError, "tune file")
