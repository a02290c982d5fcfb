"""Which part of the package may import which: the report reads runs and ablation tables and never imports the
``ablate`` command; the runner side (``grow``: playing into a run directory) is shared by ablate, tune and
sensitivity without importing any of them."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "septima_sim"


def imports(folder: Path) -> dict[str, set[str]]:
    """Every module each file of ``folder`` imports (absolute names; ``from x import y`` counts as ``x`` and
    ``x.y``)."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")) if folder.is_dir() else [folder]:
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{a.name}" for a in node.names)
        out[str(path.relative_to(PACKAGE))] = names
    return out


def _reaching(folder: str, forbidden: str) -> dict[str, list[str]]:
    found = {
        f: sorted(n for n in names if n == forbidden or n.startswith(forbidden + "."))
        for f, names in imports(PACKAGE / folder).items()
    }
    return {f: n for f, n in found.items() if n}


def test_the_report_never_imports_ablate() -> None:
    assert _reaching("report", "septima_sim.ablate") == {}


def test_the_runner_side_imports_no_command_that_uses_it() -> None:
    for command in ("septima_sim.ablate", "septima_sim.tune", "septima_sim.sensitivity", "septima_sim.report"):
        assert _reaching("grow.py", command) == {}


def test_the_scan_sees_an_import() -> None:
    assert _reaching("ablate", "septima_sim.report.ablation")  # ablate writes the table and the page of the report


READ_FROM_THE_RUN = (
    "analysis/cells.py",
    "analysis/data.py",
    "analysis/expansions.py",
    "analysis/components.py",
    "report/names.py",
    "report/headlines.py",
    "report/sections/seats.py",
    "report/sections/modules.py",
    "replay/snapshot.py",
)
"""Files that name rules modules only through the run's record (``RunTables.modules``) or the module's own hooks
(``analysis/modules.py`` keeps the solo opponent's summary, a section of that module's own)."""


def test_the_labels_and_the_replay_spell_no_module_name() -> None:
    from septima_sim.engine.modules import MODULES

    names = {word for spec in MODULES.values() for word in (spec.name, spec.title)} | {"widow", "Widow"}
    files = {p.stem for p in (PACKAGE / "engine" / "modules").glob("*.py")} - {"__init__", "base", "spec"}
    found = []
    for rel in READ_FROM_THE_RUN:
        tree = ast.parse((PACKAGE / rel).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
                found.append(f"{rel}:{node.lineno} {node.value!r}")
        modules = {n.split(".")[3] for n in imports(PACKAGE / rel)[rel] if n.startswith("septima_sim.engine.modules.")}
        found += [f"{rel} imports engine/modules/{m}.py" for m in sorted(modules & files)]
    assert found == [], found


SPELLED_ON_PURPOSE: dict[str, frozenset[str]] = {
    # GameConfig's legacy ``shapeshifting`` / ``omens`` booleans: the keyword arguments of the step environment
    # (``SeptimaAECEnv(shapeshifting=..., omens=...)``), the scripts and the tests, and the aliases behind the CLI's
    # ``--shapeshifting`` / ``--omens`` flags (docs/modules.md). They map to the module names here and nowhere else.
    "engine/config.py": frozenset({"shapeshifting", "omens"}),
}
"""The only files outside ``engine/modules/`` and ``content/`` that may spell a module's name as a string."""


def spelled_module_names(names: set[str]) -> list[str]:
    """``file:line 'name'`` of every string literal equal to one of ``names`` in the package, outside the modules
    (``engine/modules/``), the content and ``SPELLED_ON_PURPOSE``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("engine/modules/", "content/")):
            continue
        allowed = SPELLED_ON_PURPOSE.get(rel, frozenset())
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and node.value in names and node.value not in allowed:
                found.append(f"{rel}:{node.lineno} {node.value!r}")
    return sorted(set(found))


def test_no_module_name_is_spelled_outside_the_modules_and_the_content() -> None:
    from septima_sim.engine.modules import MODULES

    assert spelled_module_names(set(MODULES)) == []


def test_the_name_scan_sees_a_literal_and_the_allowlist_is_not_stale() -> None:
    assert [f.split(":")[0] for f in spelled_module_names({"base-2"})] == ["engine/results.py"]  # RULES_VERSION
    for rel, allowed in SPELLED_ON_PURPOSE.items():
        tree = ast.parse((PACKAGE / rel).read_text())
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert allowed <= literals, f"{rel} no longer spells {sorted(allowed - literals)}: shorten the allowlist"
