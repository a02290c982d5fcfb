"""The search space: dotted content paths (the ``[overrides]`` paths) mapped to optuna distributions.

Categorical choices are stored in the study as JSON strings (optuna needs hashable, serialisable choices; an animal
tile's actions are a list) and decoded back into override values.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import optuna

from septima_sim.analysis.cells import override_text
from septima_sim.content import ContentError, load_content
from septima_sim.tune.schema import Choices, NumberRange, TuneError

Space = dict[str, NumberRange | Choices]


def encode(value: Any) -> str:
    """A choice as the string the study stores."""
    return json.dumps(value, sort_keys=True)


def decode(stored: Any) -> Any:
    """An override value from a study parameter (JSON string for choices, the number itself otherwise)."""
    return json.loads(stored) if isinstance(stored, str) else stored


def suggest(trial: optuna.Trial, space: Space) -> dict[str, Any]:
    """The trial's override values, one per path."""
    values: dict[str, Any] = {}
    for path, dim in space.items():
        if isinstance(dim, Choices):
            values[path] = decode(trial.suggest_categorical(path, [encode(c) for c in dim.choices]))
        elif dim.integer:
            values[path] = trial.suggest_int(path, int(dim.low), int(dim.high), step=int(dim.step or 1))
        else:
            values[path] = trial.suggest_float(path, float(dim.low), float(dim.high), step=dim.step)
    return values


def points(space: Space) -> int | None:
    """How many distinct points the space holds when it is finite (choices, integer ranges, ranges with a step), or
    None when a dimension is continuous (a float range without a step)."""
    total = 1
    for dim in space.values():
        if isinstance(dim, Choices):
            total *= len({encode(c) for c in dim.choices})
        elif dim.integer:
            total *= (int(dim.high) - int(dim.low)) // int(dim.step or 1) + 1
        elif dim.step is not None:
            total *= math.floor((dim.high - dim.low) / dim.step + 1e-9) + 1
        else:
            return None
    return total


def overrides(params: dict[str, Any]) -> dict[str, Any]:
    """Override values from a finished trial's stored parameters."""
    return {path: decode(v) for path, v in params.items()}


def validate(space: Space, content_dir: Path | None, source: str) -> None:
    """Every path exists and every bound or choice is a valid value for it (the content loader's own checks)."""
    for path, dim in space.items():
        values = dim.choices if isinstance(dim, Choices) else [dim.low, dim.high]
        for value in values:
            try:
                load_content(content_dir, {path: value})
            except ContentError as exc:
                why = str(exc).removeprefix(f"override '{path}': ")
                raise TuneError(f"{source}: space.{path}: {why}") from None


def label(path: str) -> str:
    """A designer's name for a path: ``animals.goat.actions`` -> ``goat tile``, ``animals.owl.amount`` -> ``owl
    amount``."""
    parts = path.split(".")
    if len(parts) == 3 and parts[0] == "animals":
        return f"{parts[1]} tile" if parts[2] == "actions" else f"{parts[1]} {parts[2]}"
    return path


def show(value: Any) -> str:
    """A value as the pack spells it (issue 30: ``play:chant``, not ``Play:Chant``): lists as ``[plead, brew, move,
    remember]``."""
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return override_text(value)


def describe(values: dict[str, Any]) -> str:
    """``goat tile = [plead, brew, move, remember] and owl amount = 2``."""
    parts = [f"{label(p)} = {show(v)}" for p, v in values.items()]
    return " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + " and " + parts[-1]
