"""Read a content pack (TOML) into a tree, apply overrides, validate it through the schemas and build the Content.

The tree is what overrides address and what ``Content.hash`` digests: rules tables at the top, item lists keyed by
id under their plural name (``potions.flying-ointment.wisdom``), the Omen cards beside the Omen numbers.
"""

from __future__ import annotations

import copy
import difflib
import functools
import hashlib
import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from septima_sim.content.build import build
from septima_sim.content.errors import ContentError as ContentError
from septima_sim.content.errors import message
from septima_sim.content.model import Content
from septima_sim.content.schema import FILES, Pack, declared, is_table
from septima_sim.tomlfile import read_toml

BASE_DIR = Path(__file__).parent / "base"

# item tables: TOML array name -> tree namespace; the field that identifies an item (default: id)
_ITEM_TABLES = {
    "ingredient": "ingredients",
    "action": "actions",
    "potion": "potions",
    "disease": "diseases",
    "patient": "patient_tiles",
    "spell": "spells",
    "witch": "witches",
    "building": "buildings",
    "goal": "goals",
    "animal": "animals",
    "widow_card": "widow_cards",
    "tribulation": "tribulations",
}
_ITEM_KEYS = {"patient": "disease", "widow_card": "action"}
_REFERENCES = {"action": "actions", "disease": "diseases", "potion": "potions", "witch": "witches"}
"""Id kinds other items refer to, and the namespace that defines them (passed to the schemas as context)."""


def _regular(path: Path) -> os.stat_result:
    """The stat of a pack file, which must be a regular file (a FIFO, device or socket is never opened: reading one
    could block forever)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ContentError(f"{path.name}: file missing from content pack {path.parent}") from None
    except OSError as exc:
        raise ContentError(f"{path.name}: cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        mode = st.st_mode
        what = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a special file"
        raise ContentError(f"{path.name}: is {what}, not a regular file (content pack {path.parent}: TOML text files)")
    return st


def _read(path: Path) -> dict[str, Any]:
    """A file's TOML as a fresh dict (parsed once per process while the file is unchanged)."""
    st = _regular(path)
    return copy.deepcopy(_parse(str(path), (st.st_mtime_ns, st.st_size, st.st_ino)))


def copy_pack(source: Path | None, dest: Path) -> None:
    """Copy the files a pack is read from (``FILES``; default: the built-in pack) into the new folder ``dest``; a
    file that is not a regular file is a ContentError and is never opened. OSError (a full disk) is the caller's."""
    root = Path(source) if source else BASE_DIR
    dest.mkdir(parents=True)
    for file in FILES:
        _regular(root / file)
        try:
            shutil.copyfile(root / file, dest / file)
        except OSError as exc:  # name the file that could not be written, not the source
            raise OSError(exc.errno, exc.strerror, str(dest / file)) from None


@functools.lru_cache(maxsize=64)
def _parse(path: str, stamp: tuple[int, int, int]) -> dict[str, Any]:
    """Parse one file; ``stamp`` (mtime, size, inode) makes an edited file a new cache entry."""
    return read_toml(path, ContentError, "content file", Path(path).name)


def _keyed(items: Any, key: str, file: str, table: str) -> dict[str, Any]:
    if not isinstance(items, list):
        raise ContentError(f"{file}: {table}: expected an array of tables ([[{table}]]), got {type(items).__name__}")
    out: dict[str, Any] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or key not in item:
            raise ContentError(f"{file}: {table}[{i}]: missing '{key}'")
        ident = str(item[key])
        if ident in out:
            raise ContentError(f"{file}: {table}.{ident}: duplicate id")
        out[ident] = {k: v for k, v in item.items() if k != key}
    return out


def _tree(root: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """The tree of a pack and the file each namespace came from."""
    if not root.is_dir():
        raise ContentError(f"content pack {root}: not a directory")
    tree: dict[str, Any] = {}
    files: dict[str, str] = {}

    def put(ns: str, value: Any, file: str) -> None:
        if ns.startswith("_"):
            raise ContentError(f"{file}: {ns}: names starting with '_' are reserved")
        tree[ns] = value
        files[ns] = file

    for file in FILES:
        data = _read(root / file)
        if file == "map.toml":
            put(
                "map",
                {"provenance": data.get("provenance", ""), "areas": _keyed(data.get("area", []), "id", file, "area")},
                file,
            )
            extra = sorted(set(data) - {"provenance", "area"})
            if extra:
                raise ContentError(f"{file}: {extra[0]}: unknown key (allowed: provenance, [[area]])")
        elif file == "ritual.toml":  # shares the `ritual` table with rules.toml's [ritual] numbers
            ritual = tree.setdefault("ritual", {})
            ritual.update({k: v for k, v in data.items() if k != "ribbon"})
            ribbons = data.get("ribbon", [])
            ritual["ribbons"] = {str(k): v for k, v in _keyed(ribbons, "row", file, "ribbon").items()}
            files["ritual"] = file
        elif file == "omens.toml":  # numbers at the top, cards keyed by id beside them: omens.threshold.4, omens.<id>
            omens = {k: v for k, v in data.items() if k != "omen"}
            for ident, card in _keyed(data.get("omen", []), "id", file, "omen").items():
                if ident in omens or ident.startswith("_"):
                    raise ContentError(f"{file}: omen.{ident}: an Omen id may not be a table key or start with '_'")
                omens[ident] = card
            put("omens", omens, file)
        else:
            for table, items in data.items():
                if table in _ITEM_TABLES:
                    put(_ITEM_TABLES[table], _keyed(items, _ITEM_KEYS.get(table, "id"), file, table), file)
                else:
                    put(table, items, file)
    return tree, files


def content_tree(content_dir: Path | None = None) -> dict[str, Any]:
    """Read every file of a pack into one tree. Item lists become dicts keyed by id (plural namespace)."""
    return _tree(Path(content_dir) if content_dir else BASE_DIR)[0]


def leaf_paths(tree: dict[str, Any], prefix: str = "") -> list[str]:
    """Every dotted path to a scalar or list value in the tree (override paths; schema fields not set in the
    files are valid too, see ``apply_overrides``)."""
    out: list[str] = []
    for key, value in tree.items():
        if key.startswith("_"):
            continue
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out.extend(leaf_paths(value, path + "."))
        else:
            out.append(path)
    return out


def _settable(tree: dict[str, Any], parts: list[str]) -> dict[str, Any] | None:
    """The table that holds the last part of a path, if the path is a public value of the schema (not a table)."""
    node: Any = tree
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
        if node is None:
            return None
    if not isinstance(node, dict) or isinstance(node.get(parts[-1]), dict):
        return None
    tp = declared(parts)
    if tp is None or is_table(tp):
        return None
    return node


def apply_overrides(tree: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of the tree with dotted-path overrides applied. A path must name a public value the schema
    declares (no table, no ``_`` name) in a table or item the pack has; an unknown one names the nearest valid ones.
    The values are checked when the tree is validated."""
    return _override(copy.deepcopy(tree), overrides) if overrides else tree


def _override(tree: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Apply overrides in place (``tree`` is a fresh copy)."""
    for path, value in overrides.items():
        parts = str(path).split(".")
        if any(part.startswith("_") for part in parts):
            raise ContentError(f"override {str(path)!r}: names starting with '_' are internal, not content values")
        node = _settable(tree, parts)
        if node is None:
            near = difflib.get_close_matches(str(path), leaf_paths(tree), n=3, cutoff=0.5)
            hint = f" (did you mean {', '.join(near)}?)" if near else ""
            raise ContentError(f"override {str(path)!r}: no such content value{hint}")
        node[parts[-1]] = value
    return tree


def _hash(tree: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(tree, sort_keys=True, default=str).encode()).hexdigest()[:16]


def validate(tree: dict[str, Any], files: dict[str, str] | None = None) -> Pack:
    """Validate a tree through the pack schema; the first problem raises ContentError (file, key, what is allowed)."""
    context = {kind: tuple(t) if isinstance(t := tree.get(ns), dict) else () for kind, ns in _REFERENCES.items()}
    try:
        return Pack.model_validate(tree, context=context)
    except ValidationError as exc:
        raise ContentError(message(exc.errors(include_url=False)[0], files or {})) from None


def content_hash(content_dir: Path | str | None = None) -> str:
    """``load_content(content_dir).hash`` without validating or building the pack (a pack that loaded once; the
    digest is cached while its files are unchanged): what a run records as its ``content_hash``."""
    root = Path(content_dir) if content_dir else BASE_DIR
    stamps = []
    for file in FILES:
        st = _regular(root / file)
        stamps.append((file, st.st_mtime_ns, st.st_size, st.st_ino))
    return _tree_hash(str(root), tuple(stamps))


@functools.lru_cache(maxsize=256)
def _tree_hash(root: str, stamps: tuple[tuple[str, int, int, int], ...]) -> str:
    return _hash(_tree(Path(root))[0])


def load_content(content_dir: Path | str | None = None, overrides: dict[str, Any] | None = None) -> Content:
    """Load, override and validate a content pack. Raises ContentError naming the file and key."""
    tree, files = _tree(Path(content_dir) if content_dir else BASE_DIR)  # a fresh tree: overrides go in place
    tree = _override(tree, overrides or {})
    return build(validate(tree, files), _hash(tree))
