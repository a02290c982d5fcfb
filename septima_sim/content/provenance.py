"""Where a content item comes from, as a reader of a result needs it: wholly assumed, or partly (which fields).

Items carry ``provenance`` (a tag) and, when only part of them is a stand-in, ``assumed`` (the names of those fields,
``content/schema/common.py: Sourced``). Reports, ``ablate`` and ``septima-sim rules`` mark results on such items with
``note``: "assumed content" or "partly assumed: effects".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from septima_sim.content.schema.pack import NAMESPACE_FILE

if TYPE_CHECKING:
    from septima_sim.content.model import Content


def assumed_parts(item: object) -> str:
    """The assumed parts of a content-tree item as text: its ``assumed`` fields, then its sub-items that carry a
    provenance (an Omen card's halves): a wholly assumed one by name ("bright"), a partly assumed one with its fields
    ("dark: effect, amount"); '' when nothing is assumed or the item is unknown."""
    if not isinstance(item, Mapping):
        return ""
    parts = [", ".join(str(f) for f in item.get("assumed", ()))]
    for key, sub in item.items():
        if isinstance(sub, Mapping) and "provenance" in sub:
            if sub["provenance"] == "assumed":
                parts.append(f"{key} half" if key in ("bright", "dark") else str(key))
            elif sub.get("assumed"):
                parts.append(f"{key}: {', '.join(str(f) for f in sub['assumed'])}")
    return "; ".join(p for p in parts if p)


def tag(item: object) -> str:
    """The provenance tag of a content-tree item ('' when unknown)."""
    return str(item.get("provenance", "")) if isinstance(item, Mapping) else ""


def note(provenance: str, assumed: str) -> str:
    """What to read next to a number about a component: "assumed content" when the item is wholly assumed,
    "partly assumed: <parts>" when some of it is (``assumed_parts``), else ''."""
    if provenance == "assumed":
        return "assumed content"
    return f"partly assumed: {assumed}" if assumed else ""


def partly_assumed(content: Content) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """The partly assumed items of a pack per content file: (item name, its assumed fields), in file order."""
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for name, fields in content.assumed.items():
        ns, _, item = name.partition(".")
        out.setdefault(NAMESPACE_FILE[ns], []).append((item or ns, fields))
    return out
