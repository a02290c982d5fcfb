"""A content variant without one component: a copy of the pack with the component's ``[[table]]`` entry taken out of
its TOML file (tomlkit keeps every other line as it is), loaded and validated like any pack.

- witch, spell, building, goal, Omen: the entry is removed, so it is in no deck, market or tile stack; a witch named
  in an Omen's witch lists (``everyone``, ``excluded``) is taken out of those lists too;
- animal: the tiles belong to a colour, so the seat cannot simply lose one: the tile becomes a copy of its colour's
  other tile (same actions, ability and parameters; the id and colour stay), and the seat holds that tile twice.

A **forced** variant (``write_forced``) is a copy of the pack whose rules.toml ``[setup.forced]`` table deals the
witch to one seat (the engine's setup honours the table like any rule).

The engine is not told anything: it plays the variant pack like any other content (no special case).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import tomlkit

from septima_sim.ablate.kinds import Kind
from septima_sim.content import ContentError, load_content
from septima_sim.content import provenance as sourced
from septima_sim.content.loader import BASE_DIR, content_tree

WITCH_LISTS = ("everyone", "excluded")
"""Omen half parameters that list witch ids (``content.model.OMEN_PARAM_KINDS``)."""


class NotRemovable(ValueError):
    """The pack cannot do without this component (the variant does not validate, or an animal has no twin)."""


def components(kind: Kind, content_dir: Path | None) -> list[str]:
    """The ids of a kind in a pack, in file order (the Witches' Sabbath is not a card of the deck: left out)."""
    tree = content_tree(content_dir)
    items = tree.get(kind.namespace, {})
    if kind.name == "omen":
        return [k for k, v in items.items() if isinstance(v, dict) and "bright" in v and not v.get("sabbath")]
    return list(items)


def provenance(kind: Kind, ident: str, content_dir: Path | None) -> tuple[str, str]:
    """The provenance tag of a component (``assumed``, ``seed-base``...) and its assumed parts (``effects``; ''
    for none: ``content.provenance.assumed_parts``)."""
    item = content_tree(content_dir).get(kind.namespace, {}).get(ident, {})
    return sourced.tag(item), sourced.assumed_parts(item)


def write_variant(content_dir: Path | None, kind: Kind, ident: str, dest: Path) -> str:
    """Write the pack without ``ident`` to ``dest`` (replaced if present) and return the variant's content hash;
    NotRemovable (and no folder) when the result does not load."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(content_dir or BASE_DIR, dest)
    try:
        _edit(dest, kind, ident)
        return load_content(dest).hash
    except (ContentError, NotRemovable) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise NotRemovable(f"{kind.name} {ident}: {exc}") from None


def write_forced(content_dir: Path | None, kind: Kind, ident: str, seat: int, dest: Path) -> str:
    """Write the pack with ``ident`` forced to ``seat`` (rules.toml ``[setup.forced]``) to ``dest`` and return the
    variant's content hash; NotRemovable (and no folder) when the kind cannot be forced or the result does not load."""
    if not kind.forceable:
        raise NotRemovable(f"{kind.name} {ident}: a {kind.name} cannot be forced to a seat")
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(content_dir or BASE_DIR, dest)
    path = dest / "rules.toml"
    try:
        doc = tomlkit.parse(path.read_text(encoding="utf-8"))
        setup: Any = doc["setup"]
        forced = setup.setdefault("forced", tomlkit.table())
        for other in [s for s, w in forced.items() if w == ident]:
            del forced[other]
        forced[str(seat)] = ident
        path.write_text(tomlkit.dumps(doc), encoding="utf-8")
        return load_content(dest).hash
    except (ContentError, KeyError) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise NotRemovable(f"{kind.name} {ident} forced to seat {seat}: {exc}") from None


def _edit(pack: Path, kind: Kind, ident: str) -> None:
    path = pack / kind.file
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    entries: Any = doc.get(kind.table, [])
    index = next((i for i, e in enumerate(entries) if str(e.get("id")) == ident), None)
    if index is None:
        raise NotRemovable(f"no such {kind.name} in {kind.file}")
    if kind.name == "animal":
        twin = next(
            (e for e in entries if e.get("colour") == entries[index].get("colour") and str(e.get("id")) != ident),
            None,
        )
        if twin is None:
            raise NotRemovable(f"no other {entries[index].get('colour')} tile to replace it with")
        tile = entries[index]
        for field in [f for f in tile if f not in ("id", "colour")]:
            del tile[field]
        for field, value in twin.items():
            if field not in ("id", "colour"):
                tile[field] = value
    else:
        del entries[index]
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")
    if kind.name == "witch":
        _drop_witch_references(pack / "omens.toml", ident)


def _drop_witch_references(path: Path, ident: str) -> None:
    """Take a removed witch out of every Omen half's witch list."""
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    changed = False
    for card in doc.get("omen", []):
        for half in ("bright", "dark"):
            table = card.get(half, {})
            for name in WITCH_LISTS:
                values = table.get(name)
                if values is not None and ident in values:
                    values.remove(ident)
                    changed = True
    if changed:
        path.write_text(tomlkit.dumps(doc), encoding="utf-8")
