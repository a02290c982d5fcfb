"""ContentError and its one-line message from a schema validation error: the file, the dotted key, what is wrong
and what is allowed."""

from __future__ import annotations

from typing import Any

from septima_sim.content.schema import NAMESPACE_FILE, Fault, declared
from septima_sim.content.schema.common import unknown


class ContentError(ValueError):
    """A content pack is malformed; the message names the file and the key."""


def _location(loc: tuple[str | int, ...]) -> str:
    """``potions.love-potion.recipe``, list positions as ``[i]`` (``ritual.rows[0][1]``)."""
    out = ""
    for part in loc:
        if part == "[key]":
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _unknown_key(loc: tuple[str | int, ...]) -> str:
    """An undeclared key: the nearest declared ones and the list of this table's keys."""
    parent = declared([str(p) for p in loc[:-1]]) if all(isinstance(p, str) for p in loc) else None
    fields = [f for f in getattr(parent, "model_fields", {}) if not f.startswith("_")]
    return unknown("key", loc[-1], tuple(fields)) if fields else "unknown key"


def message(err: Any, files: dict[str, str]) -> str:
    """One line for one pydantic error: ``<file>: <dotted key>: <problem> (got <value>)``."""
    loc: tuple[str | int, ...] = tuple(err["loc"])
    fault = (err.get("ctx") or {}).get("error")
    if isinstance(fault, Fault):
        loc, msg = loc + fault.loc, fault.message
    else:
        msg = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = _unknown_key(loc)
        elif err["type"] not in ("missing", "value_error"):
            got = repr(err["input"])
            msg += f" (got {got if len(got) <= 60 else got[:57] + '...'})"
    ns = str(loc[0]) if loc else ""
    file = files.get(ns) or NAMESPACE_FILE.get(ns, "content pack")
    return f"{file}: {_location(loc) or '*'}: {msg}"
