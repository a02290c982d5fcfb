"""Compiled or pure Python: which modules this process runs, decided once when ``septima_sim`` is imported.

Rules: the mypyc build is used when its shared library is installed and the manifest the build wrote
(``_build/native.json``) lists the same sha256 for every compiled source as the sources on disk now. Otherwise, and
always when ``SEPTIMA_PURE=1``, a meta-path finder loads every ``septima_sim`` submodule from its ``.py`` source (in
an editable install the ``.so`` files sit beside the sources, and the import system prefers extension modules). A
stale build (a source edited after the install) is never mixed with new code: the whole process runs pure Python.
Standard library only; nothing here runs per game.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

from septima_sim._build.targets import module_name

PACKAGE_DIR = Path(__file__).resolve().parent.parent
MANIFEST = "_build/native.json"  # written by setup.py, relative to the package folder
SHARED_LIB = "_native__mypyc"  # setup.py's mypyc group "septima_sim._native"
COMPILED_LABEL = "compiled (mypyc)"
PURE_LABEL = "pure Python"


@dataclass(frozen=True)
class BuildInfo:
    """What this process runs: ``compiled`` or not, why (``reason``), and the modules the build compiled."""

    compiled: bool
    reason: str
    modules: tuple[str, ...]

    def __str__(self) -> str:
        if self.compiled:
            return f"{COMPILED_LABEL}, {len(self.modules)} modules"
        return f"{PURE_LABEL} ({self.reason})" if self.reason else PURE_LABEL


class PureSourceFinder(MetaPathFinder):
    """Finds ``septima_sim`` submodules as ``.py`` source only, so an installed ``.so`` beside them is ignored."""

    def find_spec(self, fullname: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("septima_sim.") or path is None:
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        for entry in path:
            spec = importlib.machinery.FileFinder(str(entry), *loaders).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def decide(env: Mapping[str, str] = os.environ, package_dir: Path = PACKAGE_DIR) -> BuildInfo:
    """The rules of the module docstring, in order; the reason says why a process runs pure Python."""
    manifest = _read_manifest(package_dir / MANIFEST)
    sources: dict[str, str] = manifest.get("sources") or {}
    modules = tuple(module_name(s) for s in sorted(sources))
    if env.get("SEPTIMA_PURE", "").strip() not in ("", "0"):
        return BuildInfo(False, "SEPTIMA_PURE is set", modules)
    if not manifest.get("compiled"):
        return BuildInfo(False, str(manifest.get("error") or "no compiled build installed"), ())
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    if not any((package_dir / f"{SHARED_LIB}{s}").is_file() for s in suffixes):
        return BuildInfo(False, "the compiled modules are missing", ())
    expected = {f"{package_dir.name}.{SHARED_LIB}", *modules}
    for path in package_dir.rglob("*"):
        name = path.relative_to(package_dir.parent).as_posix()
        if name.endswith(suffixes) and module_name(name.split(".", 1)[0] + ".py") not in expected:
            return BuildInfo(False, f"{name} is left from another build: reinstall to recompile", modules)
    for source, digest in sources.items():
        try:
            current = hashlib.sha256((package_dir.parent / source).read_bytes()).hexdigest()
        except OSError:
            current = ""
        if current != digest:
            return BuildInfo(False, f"{source} changed since the build: reinstall to recompile", modules)
    return BuildInfo(True, "", modules)


def install(info: BuildInfo) -> None:
    """Put the pure-source finder first on ``sys.meta_path`` when this process runs pure Python (once)."""
    if not info.compiled and not any(isinstance(f, PureSourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, PureSourceFinder())


def loaded_compiled() -> list[str]:
    """The ``septima_sim`` modules imported so far from extension modules (what actually runs compiled)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("septima_sim.") and str(getattr(module, "__file__", "") or "").endswith(suffixes)
    )
