"""The schema loader builds exactly the Content the hand-written validator built: same hash, same structure.

``tests/data/content-base.json`` is a structural dump of the built-in pack's Content (every dataclass field, every
container, mappings as sorted key/value pairs) made before the loader was rewritten. A deliberate content change
regenerates it: ``python tests/test_content_identity.py``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from septima_sim.content import Content, load_content

REFERENCE = Path(__file__).parent / "data" / "content-base.json"


def dump(obj: Any) -> Any:
    """A JSON-able structure that tells dataclasses, sequences, mappings, ints, bools and strings apart."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {
            "__class__": type(obj).__name__,
            **{f.name: dump(getattr(obj, f.name)) for f in dataclasses.fields(obj)},
        }
    if isinstance(obj, Mapping):
        pairs = [[dump(k), dump(v)] for k, v in obj.items()]
        return {"__map__": sorted(pairs, key=lambda kv: json.dumps(kv[0]))}
    if isinstance(obj, tuple | list):
        return [dump(x) for x in obj]
    return obj


def test_built_in_pack_is_unchanged_by_the_schema_loader(content: Content) -> None:
    reference = json.loads(REFERENCE.read_text())
    assert content.hash == reference["hash"]
    assert json.loads(json.dumps(dump(content))) == reference


def test_overrides_still_digest_the_same_tree() -> None:
    """The hash is of the tree after overrides: a value set to what the file holds changes nothing."""
    reference = json.loads(REFERENCE.read_text())
    assert load_content(overrides={"suspicion.start": 2, "actions.plead.wisdom": 2}).hash == reference["hash"]


if __name__ == "__main__":
    REFERENCE.write_text(json.dumps(dump(load_content()), indent=1, sort_keys=True) + "\n")
