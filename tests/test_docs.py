"""The README and docs/ link only to files that exist, and the README stays a page for users (at most about 300
lines, detail in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_name_existing_files(page: Path) -> None:
    targets = [t for t in LINK.findall(page.read_text()) if "://" not in t and not t.startswith("mailto:")]
    missing = [t for t in targets if not (page.parent / t).exists()]
    assert not missing, f"{page.name} links to missing files: {missing}"


def test_the_readme_starts_with_the_two_commands_and_stays_short() -> None:
    text = (ROOT / "README.md").read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    assert "pip install -e '.[dev]' && .venv/bin/septima-sim run" in block
    assert "pip install -e '.[dev,dask]' && .venv/bin/python -m pytest -q" in block
    assert len(text.splitlines()) <= 300
