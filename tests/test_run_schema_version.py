"""A run written with another table schema version (``store.SCHEMA_VERSION``: the players and events tables gained
columns in #13) is refused by ``report`` and ``run --resume`` with one line and exit 2 (its shards would not mix
with new ones), and ``run --force`` may still replace it. Through the installed console script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from septima_sim import store
from tests.helpers import script

CONFIG = str(Path(__file__).resolve().parents[1] / "configs" / "ci.toml")


def _old_run(tmp_path: Path) -> Path:
    run = tmp_path / "r"
    done = script("run", CONFIG, "--games", "2", "--out", str(run), "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    path = run / "manifest.json"
    manifest = json.loads(path.read_text())
    assert manifest["schema_version"] == store.SCHEMA_VERSION
    manifest["schema_version"] = store.SCHEMA_VERSION - 1
    path.write_text(json.dumps(manifest))
    return run


@pytest.mark.slow
def test_an_old_run_is_refused_by_report_and_resume_and_replaced_by_force(tmp_path: Path) -> None:
    run = _old_run(tmp_path)
    before = sorted(p.relative_to(run) for p in run.rglob("*"))
    for args in (("report", str(run)), ("run", "--resume", str(run), "--quiet")):
        done = script(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "table schema" in lines[0] and "Traceback" not in done.stderr
    assert sorted(p.relative_to(run) for p in run.rglob("*")) == before  # nothing rebuilt or written
    done = script("run", CONFIG, "--games", "2", "--out", str(run), "--force", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((run / "manifest.json").read_text())["schema_version"] == store.SCHEMA_VERSION
