"""Content problems reach the user through the installed console script as one line and exit 2, before a run
directory exists (issue 12: overrides checked against the content schema, binary content files)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from septima_sim.content.loader import BASE_DIR

SCRIPT = str(Path(sys.executable).with_name("septima-sim"))
CONFIG = """
name = "t"
games_per_cell = 2
seed = 1

[overrides]
{override}
"""


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ('"game.turns_per_season" = [100]', "rules.toml: game.turns_per_season: 100 turns"),
        ('"game.turns_per_season" = [[100]]', "rules.toml: game.turns_per_season: Input should be a valid integer"),
        ('"game.seasons" = [[]]', "rules.toml: game.seasons: List should have at least 1 item"),
        ('"setup.loyal_citizens" = [-1]', "rules.toml: setup.loyal_citizens: Input should be greater than or equal"),
        ('"_files.game" = ["x"]', "override '_files.game': names starting with '_' are internal"),
        ('"suspicion" = [1]', "override 'suspicion': no such content value"),
    ],
)
def test_unplayable_override_exits_2_before_the_run_exists(tmp_path: Path, override: str, message: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG.format(override=override))
    out = tmp_path / "run"
    proc = _run("run", str(cfg), "--out", str(out), "--quiet")
    assert proc.returncode == 2
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("file", "data", "message"),
    [
        ("spells.toml", bytes(range(256)), "spells.toml: not a UTF-8 text file"),
        ("rules.toml", b"[game\n", "rules.toml: invalid TOML"),
        ("potions.toml", None, "potions.toml: file missing"),
    ],
)
def test_broken_content_file_exits_2_with_one_line(tmp_path: Path, file: str, data: bytes | None, message: str) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(BASE_DIR, pack)
    if data is None:
        (pack / file).unlink()
    else:
        (pack / file).write_bytes(data)
    proc = _run("rules", "--content", str(pack))
    assert proc.returncode == 2
    assert message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
