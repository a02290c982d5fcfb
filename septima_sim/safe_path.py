"""Folder names built from data (a content id, a component label): each must be one plain name whose path stays
inside the folder it is meant for, so no id can make a command write, or delete, anything outside its output."""

from __future__ import annotations

from pathlib import Path


class UnsafePath(ValueError):
    """A name that would leave its folder (``..``, a slash, a symlink pointing out): bad input, exit code 2."""


def inside(folder: Path, name: str) -> Path:
    """``folder / name``, checked: ``name`` is one path component and the path, resolved (symlinks followed), lies
    strictly inside ``folder`` resolved; UnsafePath otherwise."""
    path = folder / name
    plain = bool(name) and name not in (".", "..") and Path(name).name == name and "\\" not in name and "\0" not in name
    if plain:
        root = folder.resolve()
        resolved = path.resolve()
        if resolved != root and resolved.is_relative_to(root):
            return path
    raise UnsafePath(f"{name!r} cannot name a folder inside {folder}: it would leave that folder")
