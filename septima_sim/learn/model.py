"""The value model: a one-hidden-layer network (tanh) in plain numpy that maps a seat's features to its expected final
Wisdom margin (own final Wisdom minus the best other seat's), trained by Adam on squared error.

Why numpy: numpy is already a dependency, so the model adds nothing to install, and a forward pass over the options
of a decision is two small matrix products (a few microseconds in one call for all options). Trees (LightGBM) or
scikit-learn would add tens of MB and a per-call overhead of tens of microseconds for a handful of rows. The file is
JSON (no pickle: loading a model runs no code).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

FORMAT = "septima-sim value model"
VERSION = 1

Array = NDArray[np.float64]


class ModelError(ValueError):
    """A model file that cannot be read or does not fit (one line, exit code 2)."""


@dataclass(slots=True)
class Training:
    """How a network is fitted (all defaults: what the shipped model used)."""

    hidden: int = 32
    epochs: int = 60
    batch: int = 256
    rate: float = 3e-3
    decay: float = 1e-4
    seed: int = 0


@dataclass(slots=True)
class ValueModel:
    """Standardised inputs -> tanh hidden layer -> one output, scaled back to Wisdom units."""

    features: tuple[str, ...]
    mean: Array
    scale: Array
    w1: Array
    b1: Array
    w2: Array
    b2: float
    y_mean: float
    y_scale: float
    meta: dict[str, Any] = field(default_factory=dict)
    _folded: tuple[Array, Array, Array, float] | None = field(default=None, repr=False, compare=False)

    def predict(self, rows: Array | list[list[float]]) -> Array:
        """The model's value of each row (rows: feature vectors in ``features`` order)."""
        x = np.asarray(rows, dtype=float)
        folded = self._folded
        if folded is None:  # the standardisation and output scaling folded into the weights, once
            w1 = self.w1 / self.scale[:, None]
            b1 = self.b1 - (self.mean / self.scale) @ self.w1
            folded = self._folded = (w1, b1, self.w2 * self.y_scale, self.b2 * self.y_scale + self.y_mean)
        w1, b1, w2, b2 = folded
        out: Array = np.tanh(x @ w1 + b1) @ w2 + b2
        return out

    @property
    def pack_hash(self) -> str:
        return str(self.meta.get("pack_hash", ""))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "target": "final Wisdom margin: own final Wisdom minus the best other seat's",
            "features": list(self.features),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "w1": self.w1.tolist(),
            "b1": self.b1.tolist(),
            "w2": self.w2.tolist(),
            "b2": self.b2,
            "y_mean": self.y_mean,
            "y_scale": self.y_scale,
            **self.meta,
        }

    def save(self, path: Path) -> None:
        """Write the model file (to a temporary name renamed into place: never half-written)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)


_KEYS = ("features", "mean", "scale", "w1", "b1", "w2", "b2", "y_mean", "y_scale")


def from_json(data: object, where: str) -> ValueModel:
    """A model from its JSON form; ModelError naming ``where`` when it is not one or its arrays do not fit."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelError(f"{where}: not a septima-sim value model")
    if data.get("version") != VERSION:
        raise ModelError(f"{where}: model format version {data.get('version')!r}, this septima-sim reads {VERSION}")
    missing = [k for k in _KEYS if k not in data]
    if missing:
        raise ModelError(f"{where}: model file lacks {', '.join(missing)}")
    try:
        features = tuple(str(x) for x in data["features"])
        n = len(features)
        mean, scale = np.asarray(data["mean"], float), np.asarray(data["scale"], float)
        w1, b1, w2 = np.asarray(data["w1"], float), np.asarray(data["b1"], float), np.asarray(data["w2"], float)
        b2, y_mean, y_scale = float(data["b2"]), float(data["y_mean"]), float(data["y_scale"])
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{where}: bad model arrays ({exc})") from None
    hidden = b1.shape[0] if b1.ndim == 1 else -1
    shapes_ok = mean.shape == scale.shape == (n,) and w1.shape == (n, hidden) and w2.shape == (hidden,)
    if not shapes_ok or not np.all(np.isfinite(w1)) or not np.all(scale > 0):
        raise ModelError(f"{where}: model arrays do not fit together ({n} features)")
    meta = {k: v for k, v in data.items() if k not in (*_KEYS, "format", "version", "target")}
    return ValueModel(features, mean, scale, w1, b1, w2, b2, y_mean, y_scale, meta)


def load(path: Path) -> ValueModel:
    """Read a model file; ModelError (one line) when it is missing or malformed."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{path}: no such model file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path}: cannot read the model ({exc})") from None
    return from_json(data, str(path))


def fit(x: Array, y: Array, features: tuple[str, ...], t: Training) -> ValueModel:
    """Fit the network to rows ``x`` and margins ``y`` by minibatch Adam (every random draw from ``t.seed``)."""
    rng = np.random.default_rng(t.seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0  # a constant feature: left at 0 after centring
    y_mean, y_scale = float(y.mean()), float(y.std()) or 1.0
    xs, ys = (x - mean) / scale, (y - y_mean) / y_scale
    n, d = xs.shape
    params = [
        rng.normal(0.0, 1.0 / math.sqrt(d), (d, t.hidden)),
        np.zeros(t.hidden),
        rng.normal(0.0, 1.0 / math.sqrt(t.hidden), t.hidden),
        np.zeros(1),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for _ in range(t.epochs):
        order = rng.permutation(n)
        for start in range(0, n, t.batch):
            idx = order[start : start + t.batch]
            grads = _grads(params, xs[idx], ys[idx], t.decay)
            step += 1
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                m_hat = m[i] / (1 - 0.9**step)
                v_hat = v[i] / (1 - 0.999**step)
                params[i] = params[i] - t.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
    w1, b1, w2, b2 = params
    return ValueModel(features, mean, scale, w1, b1, w2, float(b2[0]), y_mean, y_scale)


def _grads(params: list[Array], x: Array, y: Array, decay: float) -> list[Array]:
    """Gradients of the mean squared error (plus L2 on the weights) of one minibatch."""
    w1, b1, w2, b2 = params
    h = np.tanh(x @ w1 + b1)
    err = h @ w2 + b2[0] - y
    k = len(y)
    g_out = 2.0 * err / k
    g_w2 = h.T @ g_out + decay * w2
    g_b2 = np.array([g_out.sum()])
    g_h = np.outer(g_out, w2) * (1.0 - h * h)
    g_w1 = x.T @ g_h + decay * w1
    g_b1 = g_h.sum(axis=0)
    return [g_w1, g_b1, g_w2, g_b2]


def fit_linear(x: Array, y: Array, ridge: float = 1e-3) -> tuple[Array, Array, Array, float]:
    """Ridge regression on standardised inputs (the comparison the validation reports): mean, scale, weights+bias."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    coef = np.linalg.solve(xs.T @ xs + ridge * len(x) * np.eye(xs.shape[1]), xs.T @ y)
    return mean, scale, coef[:-1].copy(), float(coef[-1])
