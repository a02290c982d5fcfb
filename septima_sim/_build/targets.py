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
# Modules that mypyc cannot compile (yet): matched by the same kind of glob, left pure Python. Today's reasons:
# FrozenDict is a dict subclass with __new__ and aliased methods (native classes allow neither); decisions.Kind's
# constants are not Final (compiled callers cannot read them through the class); Player.copy clones through
# __slots__; a test monkeypatches trials.judge (compiled callers call it directly: fix the test, then compile it); the
# rest have annotation errors mypy reports (the typing pass of issue #14 removes them: then try again); the
# heuristic package (one concept per file, single inheritance) still sets ``_t`` and ``_c`` to None before a game.
EXCLUDED: tuple[str, ...] = (
    "septima_sim/content/frozen.py",
    "septima_sim/engine/decisions.py",
    "septima_sim/engine/state.py",
    "septima_sim/engine/trials.py",
    "septima_sim/engine/board.py",
    "septima_sim/engine/game.py",
    "septima_sim/engine/results.py",
    "septima_sim/engine/ritual.py",
    "septima_sim/engine/view.py",
    "septima_sim/engine/widow.py",
    "septima_sim/players/heuristic/brewing.py",
    "septima_sim/players/heuristic/cards.py",
    "septima_sim/players/heuristic/modules.py",
    "septima_sim/players/heuristic/movement.py",
    "septima_sim/players/heuristic/policy.py",
    "septima_sim/players/heuristic/spells.py",
    "septima_sim/players/heuristic/tables.py",
    "septima_sim/players/heuristic/valuation.py",
    "septima_sim/players/heuristic/witches.py",
)


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
