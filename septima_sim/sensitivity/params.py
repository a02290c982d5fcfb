"""The values a study moves (``--params``) and how a point of the unit design becomes a content value.

``--params assumed`` (the default) takes every assumed value of the pack that has a range (``content.assumed``);
``--params PATH,PATH...`` takes the named values, each with an optional inline range: ``PATH=LOW..HIGH`` for a
number, ``PATH=A|B|C`` for choices. ``--group item`` moves the values of one item (a card, a rules table) together
as one Morris or Sobol group; ``--group value`` (the default) moves each on its own.

SALib samples every value in [0, 1] (``bounds``); ``decode`` maps the unit to the value's range: a number to
``low + u (high - low)`` (rounded for an integer), a choice to the nearest of the choices spread over [0, 1]. With
four Morris levels (0, 1/3, 2/3, 1) a step of 2/3 always changes the value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from septima_sim.content import ContentError
from septima_sim.content.assumed import Value, assumed_values, named_values
from septima_sim.sensitivity.errors import SensitivityError

GROUPINGS = ("value", "item")


@dataclass(frozen=True, slots=True)
class Param:
    """A value of the study and the group it moves with."""

    value: Value
    group: str

    @property
    def path(self) -> str:
        return self.value.path


def _scalar(text: str) -> Any:
    """An inline bound or choice: an integer, a number, true/false, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def parse(spec: str) -> dict[str, list[Any] | None] | None:
    """``assumed`` -> None; else each named path with its inline range or choices (None when not given)."""
    if spec.strip() == "assumed":
        return None
    wanted: dict[str, list[Any] | None] = {}
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        path, _, given = part.partition("=")
        path = path.strip()
        if not path:
            raise SensitivityError(f"--params: {part!r} names no value (PATH, PATH=LOW..HIGH or PATH=A|B)")
        if path in wanted:
            raise SensitivityError(f"--params: {path} is named twice")
        if not given:
            wanted[path] = None
        elif ".." in given and "|" not in given:
            low, _, high = given.partition("..")
            bounds = [_scalar(low.strip()), _scalar(high.strip())]
            if (
                not all(isinstance(b, int | float) and not isinstance(b, bool) for b in bounds)
                or bounds[0] >= bounds[1]
            ):
                raise SensitivityError(f"--params {part}: expected PATH=LOW..HIGH with numbers LOW < HIGH")
            wanted[path] = bounds
        else:
            choices = [_scalar(c.strip()) for c in given.split("|")]
            if len(choices) < 2 or len({repr(c) for c in choices}) != len(choices):
                raise SensitivityError(f"--params {part}: expected two or more different choices, PATH=A|B")
            wanted[path] = choices
    if not wanted:
        raise SensitivityError("--params: give 'assumed' or one or more dotted content paths")
    return wanted


def select(spec: str, content_dir: Path | None, grouping: str) -> tuple[list[Param], list[Value]]:
    """The study's values (with their groups) and the assumed values left out as fixed; SensitivityError when a
    path is not a value of the pack or a range does not make a playable pack."""
    if grouping not in GROUPINGS:
        raise SensitivityError(f"--group must be {' or '.join(GROUPINGS)}, got {grouping!r}")
    wanted = parse(spec)
    try:
        found = assumed_values(content_dir) if wanted is None else named_values(content_dir, wanted)
    except ContentError as exc:
        raise SensitivityError(f"--params: {exc}") from None
    fixed = [v for v in found if v.fixed]
    if wanted is not None and fixed:
        raise SensitivityError(f"--params {fixed[0].path}: no other value makes a playable pack ({fixed[0].fixed})")
    params = [Param(v, v.path if grouping == "value" else v.item) for v in found if not v.fixed]
    if not params:
        raise SensitivityError("--params assumed: the pack has no assumed value with a range")
    if len({p.group for p in params}) < 2:
        raise SensitivityError("--params: a study needs two or more values (or groups) to compare")
    return params, fixed


def problem(params: list[Param]) -> dict[str, Any]:
    """The SALib problem: every value on [0, 1], in groups when some values share one."""
    names = [p.path for p in params]
    out: dict[str, Any] = {"num_vars": len(params), "names": names, "bounds": [[0.0, 1.0]] * len(params)}
    groups = [p.group for p in params]
    if groups != names:
        out["groups"] = groups
    return out


def decode(value: Value, u: float) -> Any:
    """The content value at unit coordinate ``u`` of the value's range."""
    if value.numeric:
        assert value.low is not None and value.high is not None
        x = value.low + u * (value.high - value.low)
        return math.floor(x + 0.5) if value.integer else x
    index = math.floor(u * (len(value.choices) - 1) + 0.5)
    return value.choices[min(max(index, 0), len(value.choices) - 1)]
