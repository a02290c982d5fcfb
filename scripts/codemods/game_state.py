"""Codemod for the GameState split (#14): ``<game>.<field>`` -> ``<game>.s.<field>`` for the per-game state fields.

    python scripts/codemods/game_state.py                 # rewrite septima_sim/, tests/, scripts/ in place
    python scripts/codemods/game_state.py --check         # print what would change, write nothing (exit 1 if any)
    python scripts/codemods/game_state.py PATH ...        # only these files or folders (another worktree's too)

A receiver is a game when it is one of the names ``g``, ``g2``, ``game``, ``twin``, ``self._game``, ``self.game``,
or ``self`` inside a class named ``Game`` or deriving from a class whose name ends in ``Game``. Only the attribute
names in ``GameState.__slots__`` (read from ``septima_sim/engine/game_state.py`` of this script's tree, or
``--fields-from``) move; ``g.s.<field>`` is left alone, so a second run changes nothing (idempotent). Prints one
line per rewritten site (``path:line: old -> new``) and a total.
The files that define the state records themselves (``engine/state.py``: a ``twin`` there is a Player,
``engine/game_state.py``) and this script are skipped. Hand-fix what it cannot see (a game under another name: the
type checker and the tests find those).
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

STATE_FILE = Path(__file__).resolve().parents[2] / "septima_sim/engine/game_state.py"
"""Where the field names come from: the ``__slots__`` of ``GameState`` in the tree this script sits in (read as text,
not imported), so the codemod can be pointed at another branch's worktree that has no GameState yet."""


def state_fields(path: Path) -> frozenset[str]:
    """The names in ``GameState.__slots__`` of the file at `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "GameState":
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__slots__" for t in stmt.targets
                ):
                    return frozenset(ast.literal_eval(stmt.value))
    raise SystemExit(f"error: no GameState.__slots__ in {path}")


GAME_NAMES = frozenset({"g", "g2", "game", "twin"})
GAME_ATTRIBUTES = frozenset({"_game", "game"})  # self._game / self.game
ROOTS = ("septima_sim", "tests", "scripts")
SKIPPED = ("septima_sim/engine/state.py", "septima_sim/engine/game_state.py", "scripts/codemods/game_state.py")


def _is_game_class(node: cst.ClassDef) -> bool:
    """``class Game`` or a class with a base whose name ends in ``Game`` (tests subclass it to watch games)."""
    if node.name.value == "Game":
        return True
    for base in node.bases:
        name = base.value
        last = name.attr.value if isinstance(name, cst.Attribute) else name.value if isinstance(name, cst.Name) else ""
        if last.endswith("Game"):
            return True
    return False


class ToGameState(cst.CSTTransformer):
    """Rewrites ``<game>.<field>`` to ``<game>.s.<field>``; records (line, old, new) of each site."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, wrapper: MetadataWrapper, fields: frozenset[str]) -> None:
        super().__init__()
        self.fields = fields
        self.positions = wrapper.resolve(PositionProvider)
        self.classes: list[bool] = []  # per enclosing class: is it a Game
        self.sites: list[tuple[int, str, str]] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(_is_game_class(node))

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        self.classes.pop()
        return updated

    def _is_game(self, node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            if node.value in GAME_NAMES:
                return True
            return node.value == "self" and bool(self.classes) and self.classes[-1]
        return (
            isinstance(node, cst.Attribute)
            and isinstance(node.value, cst.Name)
            and node.value.value == "self"
            and node.attr.value in GAME_ATTRIBUTES
        )

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value not in self.fields or not self._is_game(original.value):
            return updated
        moved = updated.with_changes(value=cst.Attribute(value=updated.value, attr=cst.Name("s")))
        line = self.positions[original].start.line
        module = cst.Module(body=[])
        self.sites.append((line, module.code_for_node(original), module.code_for_node(moved)))
        return moved


def rewrite(path: Path, fields: frozenset[str], write: bool) -> int:
    """Rewrite one file (or only report when `write` is false); returns the number of sites."""
    source = path.read_text(encoding="utf-8")
    wrapper = MetadataWrapper(cst.parse_module(source))
    transformer = ToGameState(wrapper, fields)
    result = wrapper.visit(transformer)
    shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
    for line, old, new in transformer.sites:
        print(f"{shown}:{line}: {old} -> {new}")
    if transformer.sites and write:
        path.write_text(result.code, encoding="utf-8")
    return len(transformer.sites)


def python_files(paths: list[Path]) -> list[Path]:
    """The ``.py`` files under `paths` (files or folders), sorted, without the skipped ones and the virtualenv."""
    found: set[Path] = set()
    for p in paths:
        found.update([p] if p.is_file() else p.rglob("*.py"))
    return sorted(f for f in found if not any(f.as_posix().endswith(s) for s in SKIPPED) and ".venv" not in f.parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: septima_sim tests scripts)")
    parser.add_argument("--check", action="store_true", help="report what would change; write nothing")
    parser.add_argument("--fields-from", type=Path, default=STATE_FILE, help="the game_state.py naming the fields")
    args = parser.parse_args()
    fields = state_fields(args.fields_from)
    root = Path(__file__).resolve().parents[2]
    paths = args.paths or [root / r for r in ROOTS]
    files = python_files(paths)
    counts = {f: rewrite(f, fields, not args.check) for f in files}
    changed = {f: n for f, n in counts.items() if n}
    verb = "would rewrite" if args.check else "rewrote"
    print(f"{verb} {sum(changed.values())} sites in {len(changed)} files ({len(files)} files read)")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
