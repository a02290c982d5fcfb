"""Which values of a content pack are assumed (stand-ins that no source gives), and the range each may take in a
sensitivity study (``septima-sim sensitivity``, ``septima-sim rules --assumed``).

A value belongs to its *item*: the nearest table above it with a ``provenance`` (a card, a rules table, an Omen half,
a reading, the map). It is assumed when the item is tagged ``assumed``, or when the item lists the value's field in
``assumed`` (provenance per value, issue 26: read in ``assumed_fields`` only). The values a study can move are the
numbers (list positions included: ``hunters.die.5``, ``witches.hazel.effects.0.amount``) and every value beside an
``allowed`` list (a reading, a choice). Positions (``POSITIONS``) are left out of the assumed set: moved alone, one
lands on another; name one with a range to study it.

The range of a value is the item's ``ranges`` entry where a designer wrote one (``schema.common.RANGES``), else the
rule: a number from half to double its value (``[v/2, 2v]``, and ``[2v, v/2]`` for a negative one), at least one step
either side (integers ``v - 1 .. v + 1``), each end brought back toward the value until the pack loads with it (the
schema's bounds); a choice among its ``allowed`` values that load. A value left with no other value is *fixed*.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from septima_sim.content import values
from septima_sim.content.errors import ContentError
from septima_sim.content.loader import BASE_DIR, content_tree, validate
from septima_sim.content.schema.common import RANGES

PROVENANCE = "provenance"
ASSUMED = "assumed"
METADATA = frozenset({PROVENANCE, ASSUMED, RANGES, "note", "name", "description", "id", "allowed"})
"""Keys of a table that are about it, not values the game plays with."""
POSITIONS = ("map.areas.", "hunters.start_spaces.")
"""Values that are positions (map area coordinates, hunter start spaces), left out of the assumed set."""
SHARED = {"ritual": "rules.toml"}
"""A namespace two files fill: the keys the other file holds take that file's provenance (rules.toml's [ritual])."""


@dataclass(frozen=True, slots=True)
class Value:
    """One value a study may move: its dotted path, its item and the item's provenance, the pack's value, and its
    range (``low``..``high`` for a number, else ``choices``) with where the range came from (``pack``: the item's
    ``ranges``; ``given``: the command line; ``rule``: the rule above). ``fixed`` says why it has no range."""

    path: str
    item: str
    provenance: str
    value: Any
    low: int | float | None = None
    high: int | float | None = None
    choices: tuple[Any, ...] = ()
    source: str = "rule"
    fixed: str = ""

    @property
    def numeric(self) -> bool:
        return self.low is not None

    @property
    def integer(self) -> bool:
        return isinstance(self.low, int) and isinstance(self.high, int)

    def span(self) -> str:
        """The range as a designer reads it: ``1..4`` or ``clockwise | counterclockwise``."""
        if self.fixed:
            return "fixed"
        if self.numeric:
            return f"{self.low}..{self.high}"
        return " | ".join(str(c) for c in self.choices)


def assumed_fields(item: dict[str, Any]) -> tuple[str, ...]:
    """The fields an item marks assumed although its provenance is a source (issue 26's ``assumed = [...]``)."""
    return tuple(str(f) for f in item.get(ASSUMED, ()))


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _walk(node: Any, path: str, item: str, table: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every movable value below ``node``: (path, its item's path, the item's table)."""
    if isinstance(node, dict):
        if isinstance(node.get(PROVENANCE), str):
            item, table = path, node
        choice = "allowed" in node and "value" in node  # a reading: its value is a choice among ``allowed``
        if choice:
            yield f"{path}.value", item, table
        for key, child in node.items():
            if key not in METADATA and not (choice and key == "value"):
                yield from _walk(child, f"{path}.{key}" if path else key, item, table)
    elif isinstance(node, list):
        for i, child in enumerate(node):
            if isinstance(child, dict | list) or _number(child):
                yield from _walk(child, f"{path}.{i}", item, table)
    elif _number(node):
        yield path, item, table


def _shared_provenance(content_dir: Path | None) -> dict[str, str]:
    """Paths of a shared namespace's keys that another file holds, with that file's provenance."""
    out: dict[str, str] = {}
    for ns, file in SHARED.items():
        try:
            with (Path(content_dir or BASE_DIR) / file).open("rb") as f:
                table = tomllib.load(f).get(ns, {})
        except (OSError, tomllib.TOMLDecodeError):
            continue  # the loader has already reported a broken file
        tag = table.get(PROVENANCE, "")
        out.update({f"{ns}.{key}": str(tag) for key in table if key not in METADATA})
    return out


def _field(path: str, item: str) -> str:
    """The value's field in its item (the first key below it)."""
    rest = path[len(item) + 1 :] if item else path
    return rest.split(".")[0]


def is_assumed(tag: str) -> bool:
    """A provenance as ``Value.provenance`` gives it: ``assumed``, or a source with the value's field assumed."""
    return tag == ASSUMED or tag.endswith(f"({ASSUMED})")


class _Pack:
    """A pack's tree and the check that a value loads in it (the schema's own validation)."""

    def __init__(self, content_dir: Path | None) -> None:
        self.tree = content_tree(content_dir)
        self.shared = _shared_provenance(content_dir)

    def problem(self, path: str, value: Any) -> str | None:
        """Why the pack does not load with ``path`` set to ``value`` (None when it does)."""
        try:
            validate(values.with_values(self.tree, {path: value}))
        except ContentError as exc:
            return str(exc)
        return None

    def item_of(self, path: str) -> tuple[str, dict[str, Any]]:
        """The item of a path: the nearest table above it with a provenance."""
        node: Any = self.tree
        item, table = "", self.tree
        walked: list[str] = []
        for part in path.split("."):
            if isinstance(node, dict) and isinstance(node.get(PROVENANCE), str):
                item, table = ".".join(walked), node
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                break
            walked.append(part)
        return item, table

    def provenance(self, path: str, item: str, table: dict[str, Any]) -> str:
        """The value's provenance: its item's tag, with `` (assumed)`` when the item marks the field assumed."""
        tag = next((t for p, t in self.shared.items() if path == p or path.startswith(p + ".")), None)
        if tag is None:
            tag = str(table.get(PROVENANCE, ""))
            if tag != ASSUMED and _field(path, item) in assumed_fields(table):
                tag = f"{tag} ({ASSUMED})"
        return tag


def _far(pack: _Pack, path: str, v: int | float, end: int | float) -> tuple[int | float, str]:
    """The end of a rule range farthest from ``v`` toward ``end`` that loads (validity taken to be an interval
    around ``v``: bisection), and the problem of the first end that did not load ("" when ``end`` loads)."""
    first = pack.problem(path, end)
    if first is None:
        return end, ""
    good, bad = v, end
    for _ in range(40):
        if isinstance(v, int):
            if abs(bad - good) <= 1:
                break
            mid: int | float = (good + bad) // 2
        else:
            if abs(bad - good) <= abs(v) * 1e-3 + 1e-9:
                break
            mid = (good + bad) / 2
        if pack.problem(path, mid) is None:
            good = mid
        else:
            bad = mid
    return good, first


def _rule(pack: _Pack, path: str, item: str, table: dict[str, Any], v: Any) -> Value:
    """The rule range of a value (module docstring)."""
    tag = pack.provenance(path, item, table)
    if not _number(v):
        allowed = [c for c in _allowed(pack.tree, path) if c == v or pack.problem(path, c) is None]
        if len(allowed) < 2:
            return Value(path, item, tag, v, fixed="no other allowed value loads")
        return Value(path, item, tag, v, choices=tuple(allowed))
    half, double = v / 2, v * 2
    low, high = min(half, double, v - 1), max(half, double, v + 1)
    if isinstance(v, int):
        low, high = math.floor(low), math.ceil(high)
    low, why_low = _far(pack, path, v, low)
    high, why_high = _far(pack, path, v, high)
    if low == v and high == v:
        return Value(path, item, tag, v, fixed=f"no other value loads ({why_high or why_low})")
    return Value(path, item, tag, v, low, high)


def _allowed(tree: dict[str, Any], path: str) -> list[Any]:
    """The ``allowed`` list beside a ``value`` (a reading), else none."""
    if not path.endswith(".value"):
        return []
    table = values.get(tree, path.removesuffix(".value") + ".allowed")
    return list(table) if isinstance(table, list) else []


def _checked(pack: _Pack, base: Value, entry: list[Any], source: str) -> Value:
    """A designer's or a user's range for a value: every bound or choice must load (ContentError otherwise)."""
    numeric = _number(base.value) and len(entry) == 2 and all(_number(x) for x in entry)
    for bound in entry:
        why = pack.problem(base.path, bound)
        if why is not None:
            where = f"{base.item}.{RANGES}" if source == "pack" else "the range given"
            raise ContentError(f"{base.path}: {bound!r} ({where}) does not make a playable pack: {why}")
    if numeric:
        return Value(base.path, base.item, base.provenance, base.value, entry[0], entry[1], source=source)
    return Value(base.path, base.item, base.provenance, base.value, choices=tuple(entry), source=source)


def _value(pack: _Pack, path: str, item: str, table: dict[str, Any], given: list[Any] | None) -> Value:
    v = values.get(pack.tree, path)
    if given is not None:
        return _checked(pack, Value(path, item, pack.provenance(path, item, table), v), given, "given")
    written = table.get(RANGES, {}).get(path[len(item) + 1 :] if item else path)
    if written is not None:
        return _checked(pack, Value(path, item, pack.provenance(path, item, table), v), list(written), "pack")
    return _rule(pack, path, item, table, v)


def assumed_values(content_dir: Path | str | None = None) -> list[Value]:
    """Every assumed value of a pack with its range (fixed ones included, with the reason), in file order."""
    pack = _Pack(Path(content_dir) if content_dir else None)
    out = []
    for path, item, table in _walk(pack.tree, "", "", pack.tree):
        if is_assumed(pack.provenance(path, item, table)) and not path.startswith(POSITIONS):
            out.append(_value(pack, path, item, table, None))
    return out


def named_values(content_dir: Path | str | None, wanted: dict[str, list[Any] | None]) -> list[Value]:
    """The named values (assumed or not) with their ranges: the given one (a list: ``[low, high]`` or choices),
    else the pack's, else the rule's. ContentError for a path that is not one value or a range that does not load."""
    pack = _Pack(Path(content_dir) if content_dir else None)
    out = []
    for path, given in wanted.items():
        values.split(pack.tree, path)  # a value the pack holds, not a table
        v = values.get(pack.tree, path)
        if not (_number(v) or _allowed(pack.tree, path) or given is not None):
            raise ContentError(
                f"{path!r}: {v!r} is not a number or a choice; give its choices (e.g. {path}=a|b) to study it"
            )
        item, table = pack.item_of(path)
        out.append(_value(pack, path, item, table, given))
    return out
