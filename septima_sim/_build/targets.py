"""The one list of modules compiled with mypyc, as globs over the source tree (new engine files join automatically).

Standard library only: ``setup.py`` loads this file by path at build time, before any dependency is installed.
"""

from __future__ import annotations

from pathlib import Path

# Paths relative to the project root (the folder holding ``septima_sim/``); ``**`` reaches subpackages.
COMPILED: tuple[str, ...] = (
    "septima_sim/engine/**/*.py",
    "septima_sim/players/heuristic/**/*.py",
    "septima_sim/content/model.py",
    "septima_sim/content/frozen.py",
)
# Modules left pure Python, matched by the same kind of glob. FrozenDict is a dict subclass with __new__ and aliased
# methods (native classes allow neither); it is not on the hot path (content is read through it, not per decision).
EXCLUDED: tuple[str, ...] = ("septima_sim/content/frozen.py",)


def compiled_sources(root: Path) -> list[str]:
    """The ``.py`` files under ``root`` that the build compiles: every COMPILED glob, minus EXCLUDED and package
    ``__init__.py`` files (re-exports only; a compiled package init loses its ``__path__`` in an editable install),
    sorted."""
    chosen = {p for pattern in COMPILED for p in root.glob(pattern) if p.is_file() and p.name != "__init__.py"}
    dropped = {p for pattern in EXCLUDED for p in root.glob(pattern)}
    return sorted(p.relative_to(root).as_posix() for p in chosen - dropped)


def module_name(source: str) -> str:
    """``septima_sim/engine/game.py`` -> ``septima_sim.engine.game``."""
    return source.removesuffix(".py").replace("/", ".")
