"""Which dotted paths the content schema declares: the override paths a user may set (public fields only)."""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from septima_sim.content.schema.pack import Pack


def _unwrap(tp: Any) -> Any:
    """Strip Annotated[...] and `X | None` down to the type that holds the value."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _child(tp: Any, key: str) -> Any:
    """The type of ``key`` inside a value of type ``tp`` (a model's field, a model's typed extras, a dict's values)."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        if key in tp.model_fields:
            return _unwrap(tp.model_fields[key].annotation)
        extra = typing.get_type_hints(tp).get("__pydantic_extra__")
        return _child(extra, key) if extra is not None else None
    if typing.get_origin(tp) is dict:
        return _unwrap(typing.get_args(tp)[1])
    return None


def is_table(tp: Any) -> bool:
    """A model or a mapping: overridden key by key, never as a whole."""
    return typing.get_origin(tp) is dict or (isinstance(tp, type) and issubclass(tp, BaseModel))


def declared(parts: Sequence[str]) -> Any:
    """The schema type at a dotted path (None if the schema has no such public path)."""
    tp: Any = Pack
    for part in parts:
        if part.startswith("_"):
            return None
        tp = _child(tp, part)
        if tp is None:
            return None
    return tp
