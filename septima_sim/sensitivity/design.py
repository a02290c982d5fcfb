"""The sample design: SALib's Morris trajectories or Sobol (Saltelli) points on the unit cube, and each sample as
content values and the loader overrides that set them.

Morris: ``trajectories`` x (groups + 1) samples; each trajectory moves one group at a time by 2/3 of its range (four
levels). Sobol: ``samples`` x (groups + 2) samples (first and total order, no second order; ``samples`` a power of 2).
Every sample is checked against the schema before anything is played: a combination that does not make a playable
pack is an error naming the sample's values.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np

from septima_sim.content import ContentError, apply_overrides, content_tree
from septima_sim.content import values as content_values
from septima_sim.content.loader import validate
from septima_sim.sensitivity.errors import SensitivityError
from septima_sim.sensitivity.params import Param, decode, problem

METHODS = ("morris", "sobol")
LEVELS = 4
"""Morris grid levels (SALib's default): a step is 2/3 of a value's range."""


def count(method: str, params: list[Param], trajectories: int, samples: int) -> int:
    """How many samples the design has."""
    groups = len({p.group for p in params})
    return trajectories * (groups + 1) if method == "morris" else samples * (groups + 2)


def unit_design(method: str, params: list[Param], trajectories: int, samples: int, seed: int) -> np.ndarray:
    """The design on the unit cube: one row per sample, one column per value (seeded: the same every time)."""
    from SALib.sample import morris as morris_sample  # SALib (and pandas) load only when a study samples
    from SALib.sample import sobol as sobol_sample

    spec = problem(params)
    if method == "morris":
        return np.asarray(morris_sample.sample(spec, trajectories, num_levels=LEVELS, seed=seed), dtype=float)
    return np.asarray(sobol_sample.sample(spec, samples, calc_second_order=False, seed=seed), dtype=float)


def sample_values(params: list[Param], row: np.ndarray) -> dict[str, Any]:
    """One sample's content values, by dotted path."""
    return {p.path: decode(p.value, float(u)) for p, u in zip(params, row, strict=True)}


def overrides(tree: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The loader overrides of one sample (values inside one list share the list's override)."""
    return content_values.overrides(tree, values)


def check(
    content_dir: Path | None, config_overrides: dict[str, list[Any]], samples: list[dict[str, Any]]
) -> dict[str, Any]:
    """Every sample makes a playable pack with every value combination of the config's own ``[overrides]``; a
    sample may not set what the config varies. Returns the pack's tree; SensitivityError names the first bad
    sample."""
    tree = content_tree(content_dir)
    combos = [dict(zip(config_overrides, c, strict=True)) for c in itertools.product(*config_overrides.values())]
    bases = [apply_overrides(tree, combo) for combo in combos] or [tree]
    for i, values in enumerate(samples):
        shared = set(overrides(tree, values)) & set(config_overrides)
        if shared:
            raise SensitivityError(f"--params: the config's [overrides] already vary {sorted(shared)[0]}")
        for base in bases:
            try:
                validate(content_values.with_values(base, values))
            except ContentError as exc:
                raise SensitivityError(
                    f"sample {i} ({_changes(tree, values)}) does not make a playable pack: {exc}; narrow the ranges"
                ) from None
    return tree


def _changes(tree: dict[str, Any], values: dict[str, Any], most: int = 4) -> str:
    """``widow.spiders = 4, hunters.die.5 = 6 and 12 more``: the values a sample changes."""
    changed = [f"{p} = {v!r}" for p, v in values.items() if v != content_values.get(tree, p)]
    more = f" and {len(changed) - most} more" if len(changed) > most else ""
    return (", ".join(changed[:most]) + more) or "the pack as it is"
