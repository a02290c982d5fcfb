"""A content variant without one component: a copy of the pack with the component's ``[[table]]`` entry taken out of
its TOML file (tomlkit keeps every other line as it is), loaded and validated like any pack.

- witch, spell, building, goal, Omen: the entry is removed, so it is in no deck, market or tile stack; a witch named
  in an Omen's witch lists (``everyone``, ``excluded``) is taken out of those lists too;
- animal: the tiles belong to a colour, so the seat cannot simply lose one: the tile becomes a copy of its colour's
  other tile (same actions, ability and parameters; the id and colour stay), and the seat holds that tile twice;
- a removed witch, spell or goal the pack itself forces to a seat (``[setup.forced*]``) leaves that table too.

A **pair** variant (``write_pair``, ``ablate --pairs``) is the pack without two components at once.

A **swap** variant (``write_swap``, ablate's ``swap`` arm) exchanges the animal tiles of two colours: each tile of
one colour is given the other colour, so the two seats play with each other's tiles.

A **forced** variant (``write_forced``) is a copy of the pack whose rules.toml ``[setup.forced]`` table deals the
witch to one seat (``[setup.forced_spells]``: a spell in the seat's hand at the start; ``[setup.forced_goals]``: a
goal dealt to the seat); the engine's setup honours the tables like any rule.

The engine is not told anything: it plays the variant pack like any other content (no special case).

A variant is built in a temporary folder beside its place and renamed into place when complete, with a manifest
(``variant.json``); a resume keeps it only when the manifest matches the base pack and edit as they are now and the
files still load to the recorded content hash, and rebuilds it otherwise.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

from septima_sim.ablate.kinds import Kind
from septima_sim.content import ContentError, load_content
from septima_sim.content import provenance as sourced
from septima_sim.content.loader import content_hash, content_tree, copy_pack

MANIFEST = "variant.json"
"""In each variant folder: the base pack's content hash, the edit (kind, id, seat) and the variant's content hash,
written last; ``current`` checks a variant against it before a resume plays it."""
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
    return _publish(content_dir, dest, _edit_of(kind, ident, None), lambda pack: _edit(pack, kind, ident))


def write_forced(content_dir: Path | None, kind: Kind, ident: str, seat: int, dest: Path) -> str:
    """Write the pack with ``ident`` forced to ``seat`` (rules.toml ``[setup.forced]``) to ``dest`` and return the
    variant's content hash; NotRemovable (and no folder) when the kind cannot be forced or the result does not load."""
    table = kind.forced_table
    if table is None:
        raise NotRemovable(f"{kind.name} {ident}: a {kind.name} cannot be forced to a seat")
    return _publish(content_dir, dest, _edit_of(kind, ident, seat), lambda pack: _force(pack, table, ident, seat))


def write_swap(content_dir: Path | None, kind: Kind, pair: tuple[str, str], dest: Path) -> str:
    """Write the pack with the animal tiles of two colours exchanged (each tile's ``colour`` set to the other one)
    to ``dest`` and return the variant's content hash (the ``swap`` arm)."""
    return _publish(content_dir, dest, _edit_of(kind, swap_id(pair), None), lambda pack: _swap(pack, kind, pair))


def write_pair(content_dir: Path | None, first: tuple[Kind, str], second: tuple[Kind, str], dest: Path) -> str:
    """Write the pack without two components (``ablate --pairs``) to ``dest`` and return its content hash."""

    def both(pack: Path) -> None:
        _edit(pack, *first)
        _edit(pack, *second)

    return _publish(content_dir, dest, _edit_of(first[0], pair_id(first, second), None), both)


def ensure_pair(content_dir: Path | None, first: tuple[Kind, str], second: tuple[Kind, str], dest: Path) -> None:
    """The pack without both components at ``dest``: kept when current, written otherwise (as ``ensure``)."""
    if not current(content_dir, first[0], pair_id(first, second), dest):
        write_pair(content_dir, first, second, dest)


def pair_id(first: tuple[Kind, str], second: tuple[Kind, str]) -> str:
    """The edit id of a pair removed together (``pair:witch/johanna+spell/whispering-winds``)."""
    return f"pair:{first[0].name}/{first[1]}+{second[0].name}/{second[1]}"


def swap_id(pair: tuple[str, str]) -> str:
    """The edit id of a swap (``swap:orange-gray``), never an animal's id."""
    return f"swap:{pair[0]}-{pair[1]}"


def ensure(content_dir: Path | None, kind: Kind, ident: str, dest: Path, seat: int | None = None) -> None:
    """The variant at ``dest``: kept when it is current (a resumed ablation or tune), written or rewritten when it
    is missing, half-written or damaged, or was made from another base pack (``current``)."""
    if current(content_dir, kind, ident, dest, seat):
        return
    if ident.startswith("swap:"):
        first, second = ident.removeprefix("swap:").split("-", 1)
        write_swap(content_dir, kind, (first, second), dest)
    elif seat is None:
        write_variant(content_dir, kind, ident, dest)
    else:
        write_forced(content_dir, kind, ident, seat, dest)


def current(content_dir: Path | None, kind: Kind, ident: str, dest: Path, seat: int | None = None) -> bool:
    """Whether ``dest`` holds the finished variant: its manifest names the base pack's content hash (recomputed now)
    and this edit, and its files digest to the content hash recorded when it was written, validated (nothing was cut
    short or changed since)."""
    try:
        recorded = json.loads((dest / MANIFEST).read_text(encoding="utf-8"))
        return (
            isinstance(recorded, dict)
            and recorded.get("edit") == _edit_of(kind, ident, seat)
            and recorded.get("base") == content_hash(content_dir)
            and recorded.get("hash") == content_hash(dest)
        )
    except (OSError, ValueError):  # missing or unreadable manifest or file, invalid TOML (ContentError)
        return False


def _edit_of(kind: Kind, ident: str, seat: int | None) -> dict[str, Any]:
    return {"kind": kind.name, "id": ident, "seat": seat}


def _publish(content_dir: Path | None, dest: Path, edit: dict[str, Any], apply: Callable[[Path], None]) -> str:
    """Build the variant in a temporary folder beside ``dest`` (copy, edit, validate, manifest) and rename it into
    place only when complete, so an interrupt or a full disk never leaves a half-written variant at ``dest``."""
    what = f"{edit['kind']} {edit['id']}" + (f" forced to seat {edit['seat']}" if edit["seat"] is not None else "")
    base = content_hash(content_dir)
    partial = dest.with_name(f".{dest.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    try:
        copy_pack(content_dir, partial)
        apply(partial)
        variant = load_content(partial).hash
        manifest = {"base": base, "edit": edit, "hash": variant}
        (partial / MANIFEST).write_text(json.dumps(manifest, sort_keys=True), encoding="utf-8")
        if dest.exists():
            shutil.rmtree(dest)
        partial.rename(dest)
        return variant
    except (ContentError, NotRemovable, KeyError) as exc:
        raise NotRemovable(f"{what}: {exc}") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _force(pack: Path, table: str, ident: str, seat: int) -> None:
    path = pack / "rules.toml"
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    setup: Any = doc["setup"]
    forced = setup.setdefault(table, tomlkit.table())
    for other in [s for s, w in forced.items() if w == ident]:
        del forced[other]
    forced[str(seat)] = ident
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


def _swap(pack: Path, kind: Kind, pair: tuple[str, str]) -> None:
    path = pack / kind.file
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    entries: Any = doc.get(kind.table, [])
    first, second = pair
    moved = [e for e in entries if e.get("colour") in pair]
    missing = [c for c in pair if c not in {e.get("colour") for e in moved}]
    if missing:
        raise NotRemovable(f"no {missing[0]} tiles in {kind.file}")
    for e in moved:
        e["colour"] = second if e.get("colour") == first else first
    path.write_text(tomlkit.dumps(doc), encoding="utf-8")


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
    if kind.forced_table is not None and kind.name != "animal":
        _drop_forced(pack / "rules.toml", kind.forced_table, ident)


def _drop_forced(path: Path, table: str, ident: str) -> None:
    """Take a removed component out of the pack's own ``[setup.<table>]`` (a pack that forces it to a seat)."""
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    forced: Any = doc.get("setup", {}).get(table, {})
    seats = [seat for seat, value in forced.items() if value == ident]
    for seat in seats:
        del forced[seat]
    if seats:
        path.write_text(tomlkit.dumps(doc), encoding="utf-8")


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
