"""Pickling of frozen dataclasses by their constructor, so that they also unpickle when compiled with mypyc.

A compiled frozen dataclass pickles its fields as state and unpickling sets them one by one, which its frozen
``__setattr__`` refuses; a ``(class, field values)`` reduction calls the constructor instead. Content, game configs
and results cross process boundaries (joblib/loky, Dask), so every module that defines frozen dataclasses registers
them here, compiled or not (the pickles are then the same either way).
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any


def _by_constructor(obj: Any) -> tuple[type, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init)


def pickle_by_constructor(namespace: dict[str, Any]) -> None:
    """Register every frozen dataclass defined in the module whose ``globals()`` is ``namespace`` (call it last)."""
    module = namespace.get("__name__")
    for value in list(namespace.values()):
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module:
            if value.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                copyreg.pickle(value, _by_constructor)
