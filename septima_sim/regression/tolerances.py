"""Declared tolerances of the balance check: per metric kind and per metric, absolute or a percentage."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from septima_sim.regression.errors import RegressionInputError
from septima_sim.regression.metrics import MetricKind

DEFAULT_TOLERANCES = Path(__file__).parent.parent / "content" / "tolerances.toml"


class Tolerances(BaseModel):
    """Declared tolerances: an absolute number, or ``"N%"`` of the baseline value, per metric kind; ``metric`` holds
    overrides for single metrics by their full id (``<cell> <metric>``)."""

    model_config = ConfigDict(extra="forbid")

    alpha: float = Field(0.05, gt=0, lt=0.5)
    correction: Literal["holm", "bh"] = "holm"
    bootstrap_resamples: int = Field(1000, ge=100)
    tolerance: dict[MetricKind, float | str] = {}
    metric: dict[str, float | str] = {}

    def band(self, metric_id: str, kind: str, baseline_value: float) -> float:
        """The absolute half-width of the band of ``metric_id`` (a percentage resolves against the baseline)."""
        value = self.metric.get(metric_id, self.tolerance.get(kind))  # type: ignore[call-overload]
        if value is None:
            raise RegressionInputError(f"tolerances: no tolerance for metric kind {kind!r}")
        if isinstance(value, str):
            return abs(baseline_value) * float(value.removesuffix("%")) / 100
        return float(value)


def load_tolerances(path: Path | None = None) -> Tolerances:
    """The shipped defaults, with ``path`` (TOML) layered over them; bad files raise RegressionInputError."""
    merged: dict[str, Any] = {}
    for source in (DEFAULT_TOLERANCES, path):
        if source is None:
            continue
        try:
            data = tomllib.loads(source.read_text())
        except OSError as exc:
            raise RegressionInputError(f"{source}: cannot read the tolerance file ({exc.strerror or exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise RegressionInputError(f"{source}: invalid TOML: {exc}") from None
        for key, value in data.items():
            merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
    try:
        tol = Tolerances.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise RegressionInputError(f"{path or DEFAULT_TOLERANCES}: {loc}: {first['msg']}") from None
    for key, value in [*tol.tolerance.items(), *tol.metric.items()]:
        if isinstance(value, str) and not _is_percent(value):
            raise RegressionInputError(f"{path}: tolerance {key!r}: expected a number or 'N%', got {value!r}")
    return tol


def _is_percent(text: str) -> bool:
    try:
        return text.endswith("%") and float(text[:-1]) >= 0
    except ValueError:
        return False
