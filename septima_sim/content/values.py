"""One value of a content pack by its dotted path, list positions included (``witches.hazel.effects.0.amount``,
``hunters.die.5``): the override path that carries it and the override that sets it.

The loader overrides a list as a whole (``witches.hazel.effects``, ``hunters.die``), so a value inside a list is
set by overriding the list with that one position changed; several values inside one list share one override.
"""

from __future__ import annotations

import copy
import difflib
from typing import Any

from septima_sim.content.errors import ContentError
from septima_sim.content.loader import leaf_paths

Position = str | int


def _no_value(path: str, tree: dict[str, Any], why: str = "no such content value") -> ContentError:
    near = difflib.get_close_matches(path, leaf_paths(tree), n=3, cutoff=0.5)
    hint = f" (did you mean {', '.join(near)}?)" if near else ""
    return ContentError(f"{path!r}: {why}{hint}")


def split(tree: dict[str, Any], path: str) -> tuple[str, tuple[Position, ...]]:
    """The override path that carries ``path`` (its tables walked down to the first list or scalar) and the
    positions inside that value (list indices, keys of tables inside lists). ContentError for a path the pack does
    not hold or one that names a table."""
    parts = path.split(".")
    node: Any = tree
    i = 0
    while i < len(parts) and isinstance(node, dict):
        if parts[i] not in node or parts[i].startswith("_"):
            raise _no_value(path, tree)
        node = node[parts[i]]
        i += 1
    at: list[Position] = []
    for part in parts[i:]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            at.append(int(part))
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            at.append(part)
            node = node[part]
        else:
            raise _no_value(path, tree)
    if isinstance(node, dict) or (isinstance(node, list) and any(isinstance(x, dict) for x in node)):
        raise _no_value(path, tree, "is a table, not one value")
    return ".".join(parts[:i]), tuple(at)


def _at(tree: dict[str, Any], leaf: str, at: tuple[Position, ...] = ()) -> Any:
    node: Any = tree
    for part in leaf.split("."):
        node = node[part]
    for position in at:
        node = node[position]
    return node


def get(tree: dict[str, Any], path: str) -> Any:
    """The value at ``path``."""
    return _at(tree, *split(tree, path))


def overrides(tree: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The loader overrides that set ``values`` (dotted paths, list positions included) in the pack of ``tree``;
    an override whose value equals the pack's own is left out."""
    out: dict[str, Any] = {}
    for path, value in values.items():
        leaf, at = split(tree, path)
        if not at:
            out[leaf] = value
            continue
        whole = out[leaf] if leaf in out else copy.deepcopy(_at(tree, leaf))
        node = whole
        for position in at[:-1]:
            node = node[position]
        node[at[-1]] = value
        out[leaf] = whole
    return {leaf: v for leaf, v in out.items() if v != _at(tree, leaf)}


def with_values(tree: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``tree`` with ``values`` set (dotted paths, list positions included), for validation: only the
    namespaces it changes are copied; ``tree`` is left as it is."""
    out = dict(tree)
    copied: set[str] = set()
    for path, value in values.items():
        leaf, at = split(tree, path)
        ns, *rest = leaf.split(".")
        if ns not in copied:
            out[ns] = copy.deepcopy(tree[ns])
            copied.add(ns)
        parts: list[Position] = [*rest, *at]
        node = out[ns]
        for part in parts[:-1]:
            node = node[part]
        if parts:
            node[parts[-1]] = value
        else:
            out[ns] = value
    return out
