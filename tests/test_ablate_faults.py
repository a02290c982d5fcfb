"""``ablate`` under faults, through the installed console script (issue 34): a variant pack half-written by a kill
(D2), damaged on disk (D18) or cut short by a full disk (D4) is rebuilt by ``--resume``, never played as it is; a
variant folder that leads out of the ablation is refused and nothing is deleted (D1); a truncated run manifest is
rebuilt (D10); a full disk and a signal are one line naming the command that continues the ablation, shell-quoted
(D13, D15, D16), with no library warning (D14). Every resumed ablation gives the files of an uninterrupted one,
byte for byte."""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from septima_sim.ablate.variant import MANIFEST
from septima_sim.content.loader import BASE_DIR, content_tree
from tests.helpers import ENOSPC_AFTER, SCRIPT, script

CONFIG = """name = "abl"
games_per_cell = 4
seed = 3
[matrix]
players = [2]
lineup = ["all-random"]
"""
FEW = ["--kinds", "witch", "--only", "tommy,edith", "--arms", "removed", "--games", "16"]
"""Two witches removed: a small ablation (base and two arms)."""
ALL = ["--kinds", "witch", "--arms", "removed", "--games", "16"]
"""Every witch removed: twenty variants to write, a window wide enough to stop the ablation inside."""
OUTPUTS = ("ablation.csv", "ablation_detail.csv", "ablation_status.csv")


def ablate(root: Path, out: str | Path, options: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    return script("ablate", "abl.toml", *options, "--jobs", "1", "--out", str(out), "--quiet", *extra, cwd=root)


def same_outputs(a: Path, b: Path) -> bool:
    return all((a / f).read_bytes() == (b / f).read_bytes() for f in OUTPUTS)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the config and two uninterrupted references: ``few/`` and ``all/``."""
    root = tmp_path_factory.mktemp("ablate-faults")
    (root / "abl.toml").write_text(CONFIG)
    for name, options in (("few", FEW), ("all", ALL)):
        done = ablate(root, name, options)
        assert done.returncode == 0, done.stderr
    return root


def copy_of(root: Path, name: str, to: Path) -> Path:
    shutil.copytree(root / name, to)
    for file in OUTPUTS:
        (to / file).unlink()
    return to


@pytest.mark.slow
def test_a_half_written_variant_is_rebuilt_on_resume(root: Path, tmp_path: Path) -> None:
    out = copy_of(root, "few", tmp_path / "abl")
    tommy, edith = out / "variants" / "witch-tommy", out / "variants" / "witch-edith"
    shutil.rmtree(tommy)
    shutil.copytree(BASE_DIR, tommy)  # copied but not edited: what a kill during the copy left before
    shutil.rmtree(out / "runs" / "witch-tommy")
    edith.rename(out / "variants" / ".witch-edith.partial")  # a kill during the build: never renamed into place
    done = ablate(root, out, FEW, "--resume")
    assert done.returncode == 0, done.stderr
    assert "tommy" not in content_tree(tommy)["witches"] and (tommy / MANIFEST).is_file()
    assert "edith" not in content_tree(edith)["witches"] and not (out / "variants" / ".witch-edith.partial").exists()
    assert same_outputs(out, root / "few")


@pytest.mark.slow
def test_a_damaged_variant_is_rebuilt_and_the_results_are_unchanged(root: Path, tmp_path: Path) -> None:
    out = copy_of(root, "few", tmp_path / "abl")
    witches = out / "variants" / "witch-tommy" / "witches.toml"
    witches.write_text(witches.read_text() + "\ngarbage = [\n")
    done = ablate(root, out, FEW, "--resume")
    assert done.returncode == 0, done.stderr
    assert "garbage" not in witches.read_text()
    assert same_outputs(out, root / "few")


@pytest.mark.slow
def test_a_truncated_run_manifest_is_rebuilt_on_resume(root: Path, tmp_path: Path) -> None:
    out = copy_of(root, "few", tmp_path / "abl")
    manifest = out / "runs" / "base" / "manifest.json"
    manifest.write_bytes(manifest.read_bytes()[:50])
    done = ablate(root, out, FEW, "--resume")
    assert done.returncode == 0, done.stderr
    assert '"repaired"' in manifest.read_text()
    assert same_outputs(out, root / "few")


@pytest.mark.slow
def test_an_ablation_folder_that_points_outside_is_refused_and_nothing_is_deleted(root: Path, tmp_path: Path) -> None:
    work = copy_of(root, "few", tmp_path / "work" / "abl").parent
    shutil.copy(root / "abl.toml", work)
    args = ["ablate", "abl.toml", *FEW, "--jobs", "1", "--out", "abl", "--quiet"]
    victim = tmp_path / "VICTIM"
    victim.mkdir()
    (victim / "important.txt").write_text("keep")
    variant = work / "abl" / "variants" / "witch-tommy"
    shutil.rmtree(variant)
    variant.symlink_to(os.path.relpath(victim, variant.parent))  # the folder of the variant now leads out
    done = script(*args, "--resume", cwd=work)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "witch-tommy" in done.stderr and "would leave that folder" in done.stderr
    assert [p.name for p in victim.iterdir()] == ["important.txt"]


def started(root: Path, out: str, options: list[str]) -> subprocess.Popen[str]:
    args = [str(SCRIPT), "ablate", "abl.toml", *options, "--jobs", "1", "--out", out, "--quiet"]
    return subprocess.Popen(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_variants(folder: Path, proc: subprocess.Popen[str], count: int) -> None:
    """Until ``count`` variants (or partial ones) exist: the ablation is writing them."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        with contextlib.suppress(OSError):
            if len(list(folder.iterdir())) >= count:
                return
        time.sleep(0.005)
    raise AssertionError("no variant written")


@pytest.mark.slow
def test_a_kill_while_writing_variants_resumes_to_the_uninterrupted_result(root: Path, tmp_path: Path) -> None:
    shutil.copy(root / "abl.toml", tmp_path)
    proc = started(tmp_path, str(tmp_path / "abl"), ALL)
    try:
        wait_for_variants(tmp_path / "abl" / "variants", proc, 4)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.communicate()
    done = ablate(tmp_path, "abl", ALL, "--resume")
    assert done.returncode == 0, done.stderr
    assert same_outputs(tmp_path / "abl", root / "all")


@pytest.mark.slow
def test_sigterm_while_writing_variants_prints_a_quoted_command_that_resumes(root: Path, tmp_path: Path) -> None:
    out = "abl/q$(touch PWNED) x"
    shutil.copy(root / "abl.toml", tmp_path)
    proc = started(tmp_path, out, ALL)
    try:
        wait_for_variants(tmp_path / out / "variants", proc, 4)
        proc.send_signal(signal.SIGTERM)
    finally:
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.count("\n") == 1 and err.startswith("interrupted; continue with: septima-sim ablate "), err
    command = shlex.split(err.removeprefix("interrupted; continue with: "))
    assert command[0] == "septima-sim" and command[-3:] == ["--out", out, "--resume"]
    done = subprocess.run([str(SCRIPT), *command[1:], "--quiet"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "PWNED").exists()
    assert same_outputs(tmp_path / out, root / "all")


@contextlib.contextmanager
def small_disk(path: Path, free_kb: int) -> Iterator[bool]:
    """A 2 MB tmpfs at ``path`` with about ``free_kb`` KB free (False where mounting is not allowed)."""
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(path)], capture_output=True)
    try:
        if mounted.returncode == 0:
            (path / "fill").write_bytes(b"\0" * ((2048 - free_kb) * 1024))
        yield mounted.returncode == 0
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", "-l", str(path)], check=False)


def assert_full_disk_line(done: subprocess.CompletedProcess[str], out: Path) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Warning" not in done.stderr and "Traceback" not in done.stderr
    assert "No space left on device" in done.stderr and "run --resume" not in done.stderr
    assert done.stderr.rstrip().endswith(shlex.join(["--out", str(out), "--resume"]) + ")")
    assert "septima-sim ablate abl.toml --kinds witch" in done.stderr


@pytest.mark.slow
def test_a_full_disk_while_writing_variants_is_one_line_and_resume_finishes(root: Path, tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    out = disk / "abl"
    shutil.copy(root / "abl.toml", tmp_path)
    args = ["ablate", "abl.toml", *FEW, "--jobs", "2", "--out", str(out), "--quiet"]
    with small_disk(disk, 100) as mounted:
        if mounted:
            done = subprocess.run([str(SCRIPT), *args], cwd=tmp_path, capture_output=True, text=True)
            (disk / "fill").unlink()  # space freed, and room for the games
            subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        else:  # no tmpfs here: the same failure injected into the copy of the pack
            inject = [sys.executable, "-c", ENOSPC_AFTER, "pack-copy", "20", *args]
            done = subprocess.run(inject, cwd=tmp_path, capture_output=True, text=True)
        assert_full_disk_line(done, out)
        assert not (out / "variants" / "witch-edith").exists()  # nothing half-written left in place
        resumed = subprocess.run([str(SCRIPT), *args, "--resume"], cwd=tmp_path, capture_output=True, text=True)
        assert resumed.returncode == 0, resumed.stderr
        assert same_outputs(out, root / "few")


@pytest.mark.slow
def test_a_full_disk_while_playing_names_the_ablate_resume_command(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "abl"
    shutil.copy(root / "abl.toml", tmp_path)
    args = ["ablate", "abl.toml", *FEW, "--jobs", "2", "--out", str(out), "--quiet"]
    inject = [sys.executable, "-c", ENOSPC_AFTER, "fsync", "12", *args]
    done = subprocess.run(inject, cwd=tmp_path, capture_output=True, text=True)
    assert_full_disk_line(done, out)
    resumed = subprocess.run([str(SCRIPT), *args, "--resume"], cwd=tmp_path, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert same_outputs(out, root / "few")
