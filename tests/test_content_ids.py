"""Content ids are names, never paths (issue 34, D1), and a pack file is a regular file (D25), through the installed
console script: a pack whose witch or Omen id would leave a folder is refused when it loads (``rules``, ``ablate``,
``tune``) with one line naming the file, the item and the pattern, and nothing outside is touched; a FIFO in a pack
is refused without being opened. (An ablation's variant folder that leads outside: test_ablate_faults.py.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from septima_sim.content.loader import BASE_DIR, content_tree
from septima_sim.content.schema.common import ID_PATTERN
from tests.helpers import SCRIPT, script, tune_text

TRAVERSAL = "../../../../VICTIM"
CONFIG = """name = "ids"
games_per_cell = 4
seed = 3
content = "pack"
[matrix]
players = [2]
lineup = ["all-random"]
"""


def hostile_pack(root: Path, file: str = "witches.toml", ident: str = "tommy") -> Path:
    pack = root / "pack"
    shutil.copytree(BASE_DIR, pack)
    text = (pack / file).read_text()
    assert text.count(f'id = "{ident}"') == 1
    (pack / file).write_text(text.replace(f'id = "{ident}"', f'id = "{TRAVERSAL}"'))
    return pack


def one_line(done: object) -> str:
    stderr = done.stderr  # type: ignore[attr-defined]
    assert done.returncode == 2, stderr  # type: ignore[attr-defined]
    assert stderr.count("\n") == 1 and "Traceback" not in stderr, stderr
    return str(stderr)


def test_every_id_of_the_shipped_pack_follows_the_pattern() -> None:
    tree = content_tree()
    keyed = ["ingredients", "actions", "potions", "diseases", "patient_tiles", "spells", "witches", "buildings"]
    keyed += ["goals", "animals", "widow_cards", "tribulations"]
    ids = [i for ns in keyed for i in tree[ns]] + list(tree["map"]["areas"]) + list(tree["ritual"]["ribbons"])
    ids += [i for i, card in tree["omens"].items() if isinstance(card, dict) and "bright" in card]
    bad = [i for i in ids if not re.match(ID_PATTERN, i)]
    assert len(ids) > 150 and not bad


@pytest.mark.parametrize(("file", "ident"), [("witches.toml", "tommy"), ("omens.toml", "era-of-healing")])
def test_rules_refuses_an_id_that_is_a_path(tmp_path: Path, file: str, ident: str) -> None:
    pack = hostile_pack(tmp_path, file, ident)
    line = one_line(script("rules", "--content", str(pack)))
    assert f"{file}: " in line and TRAVERSAL in line and ID_PATTERN in line


@pytest.mark.slow
def test_ablate_and_tune_refuse_a_pack_with_a_path_id_and_write_nothing_outside(tmp_path: Path) -> None:
    work = tmp_path / "a" / "b" / "c" / "work"
    work.mkdir(parents=True)
    hostile_pack(work)
    (work / "abl.toml").write_text(CONFIG)
    target = f'component = {{ kind = "witch", id = "{TRAVERSAL}", band = 20 }}'
    (work / "tune.toml").write_text(tune_text("ids", top='content = "pack"', target=target))
    victim = tmp_path / "a" / "VICTIM"
    victim.mkdir()
    (victim / "important.txt").write_text("keep")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for resume in ([], ["--resume"]):
        args = ["--kinds", "witch", "--only", TRAVERSAL, "--arms", "removed", "--games", "16", "--out", "abl"]
        assert TRAVERSAL in one_line(script("ablate", "abl.toml", *args, *resume, cwd=work))
    assert TRAVERSAL in one_line(script("tune", "tune.toml", "--out", "t", cwd=work))
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert (victim / "important.txt").read_text() == "keep"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_rules_refuses_a_fifo_in_a_pack_without_opening_it(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(BASE_DIR, pack)
    (pack / "witches.toml").unlink()
    os.mkfifo(pack / "witches.toml")  # opening it to read would block until a writer came
    args = [str(SCRIPT), "rules", "--content", str(pack)]
    done = subprocess.run(args, capture_output=True, text=True, check=False, timeout=60)
    assert "witches.toml: is a FIFO, not a regular file" in one_line(done)
