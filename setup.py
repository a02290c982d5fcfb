"""Build hook: compile the engine, the heuristic player and the content model with mypyc; fall back to pure Python.

The modules come from ``septima_sim/_build/targets.py`` (globs, the one list). Compiling is the default for every
install from source; ``SEPTIMA_COMPILE=0`` at install skips it (a quicker pure-Python install).
Any failure (mypy rejects a module, no C compiler, a link error) prints one warning line and the install goes on
with the pure-Python modules; ``septima-sim --version`` then says "pure Python" and why. With
``SEPTIMA_REQUIRE_COMPILED=1`` (CI) a failure fails the install instead. Everything else about the package (name,
dependencies, data files) is declared in ``pyproject.toml``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
MANIFEST = "septima_sim/_build/native.json"  # what the build compiled (or why not), read at run time
GROUP = "septima_sim._native"  # mypyc's shared library: septima_sim/_native__mypyc.<abi>.so


def _targets() -> Any:
    """``septima_sim/_build/targets.py`` loaded by path (the package's dependencies are not installed yet)."""
    spec = importlib.util.spec_from_file_location("_septima_targets", ROOT / "septima_sim/_build/targets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _flag(name: str, default: str) -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def _warn(reason: str) -> str:
    """One line on stderr: the build goes on in pure Python. Returns the reason for the manifest. With
    ``SEPTIMA_REQUIRE_COMPILED=1`` the install fails instead (SystemExit with the reason)."""
    line = " ".join(reason.split())[:200]
    if _flag("SEPTIMA_REQUIRE_COMPILED", "0"):
        raise SystemExit(f"error: septima-sim: mypyc build failed and SEPTIMA_REQUIRE_COMPILED=1 ({line})")
    print(f"warning: septima-sim: mypyc build skipped, installing pure Python ({line})", file=sys.stderr)
    return line


def _manifest(sources: list[str], error: str | None) -> dict[str, Any]:
    """What the run time checks: the sha256 of every compiled source (a stale build is not used), or the error."""
    if error is not None:
        return {"compiled": False, "error": error}
    digests = {s: hashlib.sha256((ROOT / s).read_bytes()).hexdigest() for s in sources}
    return {"compiled": True, "group": GROUP, "sources": digests}


def _mypyc_extensions(sources: list[str]) -> tuple[list[Any], str | None]:
    """mypyc's C extensions for ``sources`` (its C files go to build/mypyc), or ([], why not)."""
    if not _flag("SEPTIMA_COMPILE", "1"):
        if _flag("SEPTIMA_REQUIRE_COMPILED", "0"):
            raise SystemExit("error: septima-sim: SEPTIMA_COMPILE=0 and SEPTIMA_REQUIRE_COMPILED=1 contradict")
        return [], "not compiled: installed with SEPTIMA_COMPILE=0"
    try:
        from mypyc.build import mypycify

        # Only the listed modules are type-checked for errors; imports reach the rest silently. The project's own
        # [tool.mypy] is not read: its plugins and strictness are for development, not for the build.
        options = ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports"]
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            extensions = mypycify([*options, *sources], opt_level="3", group_name=GROUP, target_dir="build/mypyc")
        finally:
            os.chdir(cwd)
        return extensions, None
    except SystemExit as exc:  # mypyc exits after printing the type errors it found
        return [], _warn(f"mypyc rejected the modules (exit {exc.code}); see the log above")
    except Exception as exc:  # no mypyc, an unexpected mypyc failure: never fail the install
        return [], _warn(f"{type(exc).__name__}: {exc}")


def _write_manifest(base: str, sources: list[str], error: str | None) -> None:
    path = Path(base) / MANIFEST
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_manifest(sources, error), indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _commands(sources: list[str], error: str | None) -> dict[str, type]:
    """The build commands: ``configs/`` copied into the package, the manifest written, C failures not fatal."""

    class BuildPy(build_py):
        """Copies ``configs/`` into the package (``septima_sim/configs``); writes the manifest of a pure build."""

        def run(self) -> None:
            super().run()
            if not self.editable_mode:
                shutil.copytree(ROOT / "configs", Path(self.build_lib) / "septima_sim" / "configs", dirs_exist_ok=True)
            if error is not None:
                if self.editable_mode:
                    _remove_built_extensions()
                _write_manifest(str(ROOT) if self.editable_mode else self.build_lib, sources, error)

    class BuildExt(build_ext):
        """Builds the mypyc extensions; a compiler or link error falls back to pure Python instead of failing."""

        def run(self) -> None:
            base = str(ROOT) if (self.inplace or self.editable_mode) else self.build_lib
            if base == str(ROOT):
                _remove_built_extensions()
            try:
                super().run()
            except Exception as exc:
                for ext in self.extensions:  # a shim without its shared library would not import
                    (Path(base) / self.get_ext_filename(self.get_ext_fullname(ext.name))).unlink(missing_ok=True)
                self.extensions = []
                _write_manifest(base, sources, _warn(f"C build failed: {type(exc).__name__}: {exc}"))
                return
            _write_manifest(base, sources, None)

        def get_outputs(self) -> list[str]:
            return super().get_outputs() if self.extensions else []

    return {"build_py": BuildPy, "build_ext": BuildExt}


def _remove_built_extensions() -> None:
    """Drop the extension modules an earlier editable build left beside the sources: a shim whose module left the
    list (or whose build failed) would still be imported first, and fail."""
    for built in (ROOT / "septima_sim").rglob("*"):
        if built.name.endswith(tuple(EXTENSION_SUFFIXES)):
            built.unlink()


BUILDS = {"bdist_wheel", "editable_wheel", "build", "build_ext", "install", "develop"}  # not egg_info, dist_info

if __name__ == "__main__":  # how setuptools' build backend runs this file (once per hook: compile only to build)
    SOURCES: list[str] = _targets().compiled_sources(ROOT)
    EXTENSIONS, ERROR = _mypyc_extensions(SOURCES) if BUILDS & set(sys.argv[1:]) else ([], None)
    setup(ext_modules=EXTENSIONS, cmdclass=_commands(SOURCES, ERROR))
