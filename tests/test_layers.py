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
