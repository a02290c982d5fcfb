"""``best-pack/``: the content pack with the chosen values written into its TOML files, for ``--content``.

The loader reads files into a tree of dotted paths; to write a value back, the file leaf that feeds the path is found
by trying the leaves holding the current value (the path's own file first) and re-reading the pack. The result is
checked: the written pack must load to the same content hash as the original pack with the overrides applied.
tomlkit keeps the files' comments and layout."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tomlkit

from septima_sim.content import load_content
from septima_sim.content.loader import content_tree, copy_pack
from septima_sim.content.schema import NAMESPACE_FILE

Location = tuple[str | int, ...]


def _get(node: Any, location: Location | list[str]) -> Any:
    for key in location:
        node = node[key]
    return node


def _leaves(node: Any, at: Location = ()) -> Iterator[Location]:
    """Every location of a scalar or list value (lists of tables are walked into)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*at, k))
    elif isinstance(node, list) and len(node) > 0 and all(isinstance(x, dict) for x in node):
        for i, v in enumerate(node):
            yield from _leaves(v, (*at, i))
    else:
        yield at


def _set(node: Any, location: Location, value: Any) -> None:
    _get(node, location[:-1])[location[-1]] = value


def _write_one(pack: Path, path: str, value: Any) -> bool:
    parts = path.split(".")
    tree = content_tree(pack)
    current = _get(tree, parts)
    own = NAMESPACE_FILE.get(parts[0])
    files = sorted(pack.glob("*.toml"), key=lambda f: f.name != own)
    for file in files:
        text = file.read_text()
        raw = tomlkit.parse(text)
        for location in _leaves(raw):
            if _get(raw, location) != current:
                continue
            _set(raw, location, value)
            file.write_text(tomlkit.dumps(raw))
            if _get(content_tree(pack), parts) == value:
                return True
            file.write_text(text)
            raw = tomlkit.parse(text)
    return False


def write_pack(content_dir: Path | None, overrides: dict[str, Any], dest: Path) -> bool:
    """Copy the pack to ``dest`` with the overrides written in; False (and no folder) when a value cannot be placed.
    Only the pack's own files are copied (``copy_pack``: regular files, never a FIFO); OSError (a full disk) leaves no
    folder either."""
    try:
        copy_pack(content_dir, dest)
        expected = load_content(content_dir, overrides).hash
        if all(_write_one(dest, p, v) for p, v in overrides.items()) and load_content(dest).hash == expected:
            return True
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    shutil.rmtree(dest)
    return False
