"""``tune`` under faults and bad budgets, through the installed console script (issue 34): budgets, ``--jobs`` and
``--trials`` out of bounds and unreadable space entries are one line with nothing written (D8, D9, D19, D22); a
finite space ends the study once exhausted (D26) with no library warning on stderr (D14); a damaged study file
(D6), a changed tune file (D21) and a full disk (D7) are one line, exit 2, and the folder stays resumable; a tune
whose every game raised exits 3 with trials.csv (D20); SIGTERM prints a quoted command that resumes (D13, D16)."""

from __future__ import annotations

import shlex
import shutil
import signal
import sqlite3
import subprocess
import textwrap
import time
from pathlib import Path

import polars as pl
import pytest

from tests.helpers import SCRIPT, script, tune_text

RAISERS = '[lineups]\nraisers = ["py:raiser:Raiser", "random"]'
POINTS = 9
"""cat.amount 0..2 times serpent.picks 1..3."""
RAISER = textwrap.dedent(
    """
    class Raiser:
        def reset(self, seat, rng):
            pass

        def choose(self, decision, view):
            raise RuntimeError("boom")
    """
)


def one_line(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert done.returncode == code, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


@pytest.fixture(scope="module")
def exhausted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A finished study of the 9-point space asked for 10,000 trials (it ends once every point was played)."""
    root = tmp_path_factory.mktemp("tune-faults")
    (root / "t.toml").write_text(tune_text("faults"))
    done = script("tune", "t.toml", "--trials", "10000", "--jobs", "1", "--out", "study", "--quiet", cwd=root)
    assert done.returncode == 0, done.stderr
    return root / "study", done


@pytest.mark.slow
def test_an_exhausted_finite_space_ends_the_study_without_library_warnings(
    exhausted: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    study, done = exhausted
    assert done.stderr.splitlines() == [
        f"the space's {POINTS} point(s) have all been played: the study ended after "
        f"{pl.read_csv(study / 'trials.csv').height} trials"
    ]
    trials = pl.read_csv(study / "trials.csv")
    assert trials.height < 100
    assert trials.select("animals.cat.amount", "animals.serpent.picks").unique().height == POINTS


def copy_study(exhausted: tuple[Path, subprocess.CompletedProcess[str]], to: Path) -> Path:
    shutil.copytree(exhausted[0], to)
    return to


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["truncated", "empty"])
def test_a_damaged_study_file_is_one_line_naming_it_and_is_left_as_it_was(
    exhausted: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path, damage: str
) -> None:
    folder = copy_study(exhausted, tmp_path / "study")
    path = folder / "study.sqlite3"
    path.write_bytes(path.read_bytes()[:5000] if damage == "truncated" else b"")
    before = path.read_bytes()
    line = one_line(script("tune", "--resume", str(folder)))
    assert f"{path}: damaged" in line and "another --out" in line
    assert path.read_bytes() == before  # optuna never opened it (it writes a schema into an empty file)


@pytest.mark.slow
def test_resume_refuses_a_changed_tune_file(
    exhausted: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    folder = copy_study(exhausted, tmp_path / "study")
    resolved = folder / "tune.toml"
    resolved.write_text(resolved.read_text().replace("seed = 11", "seed = 12"))
    trials = sqlite3.connect(folder / "study.sqlite3").execute("SELECT COUNT(*) FROM trials").fetchone()
    line = one_line(script("tune", "--resume", str(folder), "--trials", "12"))
    assert "changed since the study started" in line and "only --trials may change" in line
    assert sqlite3.connect(folder / "study.sqlite3").execute("SELECT COUNT(*) FROM trials").fetchone() == trials


BAD = [
    pytest.param(["--games", "1000000000000"], "", "--games must be between 1 and 10,000,000", id="games-option"),
    pytest.param([], "games = 20", "budget.games: Input should be less than or equal to 10000000", id="games-file"),
    pytest.param(["--jobs", "5000"], "", "--jobs must be 1..1024", id="jobs-high"),
    pytest.param(["--jobs", "-5000"], "", "--jobs must be 1..1024", id="jobs-negative"),
    pytest.param(["--trials", "1000000000000"], "", "--trials must be between 1 and 10,000", id="trials"),
    pytest.param([], "min_games", "min_games (100) is more than games (20)", id="min-games-above-games"),
    pytest.param(
        [],
        "low-equals-high",
        "space.animals.cat.amount: low must be below high (got low=2, high=2)",
        id="space-low-equals-high",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "change", "message"), BAD)
def test_bad_budgets_options_and_space_entries_are_one_line_and_write_nothing(
    tmp_path: Path, args: list[str], change: str, message: str
) -> None:
    text = tune_text("faults")
    if change == "games = 20":
        text = text.replace("\ngames = 20\n", "\ngames = 1000000000000\n")
    elif change == "min_games":
        text = text.replace("\ngames = 20\n", "\ngames = 20\nmin_games = 100\n")
    elif change == "low-equals-high":
        text = text.replace("{ low = 0, high = 2 }", "{ low = 2, high = 2 }")
    (tmp_path / "t.toml").write_text(text)
    line = one_line(script("tune", "t.toml", *args, "--out", "out", cwd=tmp_path))
    assert message in line and "function-after" not in line and "Extra inputs" not in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]


@pytest.mark.slow
def test_a_tune_whose_every_game_raises_exits_3_and_writes_trials_csv(tmp_path: Path) -> None:
    (tmp_path / "raiser.py").write_text(RAISER)
    (tmp_path / "t.toml").write_text(tune_text("faults", lineup="raisers", trials=2, extra=RAISERS))
    env = {"PYTHONPATH": str(tmp_path)}
    args = [str(SCRIPT), "tune", "t.toml", "--jobs", "1", "--out", "out", "--quiet"]
    done = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, env=env, check=False)
    line = one_line(done, 3)
    assert line.startswith("no trial completed: 40 game(s) raised in the trials")
    assert "py:raiser:Raiser" in line and "replay it with: septima-sim play --replay out/trials/0000" in line
    trials = pl.read_csv(tmp_path / "out" / "trials.csv")
    assert trials["state"].to_list() == ["fail", "fail"]


@pytest.mark.slow
def test_sigterm_during_confirmation_prints_a_quoted_command_that_resumes(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(tune_text("faults"))
    out = "t q$(touch PWNED)"
    args = [str(SCRIPT), "tune", "t.toml", "--jobs", "1", "--out", out, "--quiet"]
    proc = subprocess.Popen(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while not (tmp_path / out / "confirm").is_dir():
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.005)
        proc.send_signal(signal.SIGTERM)
    finally:
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err == f"interrupted; continue with: {shlex.join(['septima-sim', 'tune', '--resume', out])}\n"
    command = shlex.split(err.removeprefix("interrupted; continue with: "))
    done = subprocess.run([str(SCRIPT), *command[1:], "--quiet"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / out / "best.toml").is_file() and not (tmp_path / "PWNED").exists()


@pytest.mark.slow
def test_a_full_disk_is_one_line_and_the_tune_resumes_once_space_is_freed(tmp_path: Path) -> None:
    (tmp_path / "t.toml").write_text(tune_text("faults"))
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        (disk / "fill").write_bytes(b"\0" * (1400 * 1024))
        args = [str(SCRIPT), "tune", "t.toml", "--jobs", "1", "--out", str(disk / "t"), "--quiet"]
        line = one_line(subprocess.run(args, cwd=tmp_path, capture_output=True, text=True))
        assert "No space left on device" in line or "disk is full" in line, line
        assert line.rstrip().endswith(f"then {shlex.join(['septima-sim', 'tune', '--resume', str(disk / 't')])})")
        (disk / "fill").unlink()
        subprocess.run(["mount", "-o", "remount,size=64m", str(disk)], check=True)
        done = script("tune", "--resume", str(disk / "t"), "--quiet")
        assert done.returncode == 0, done.stderr
        assert (disk / "t" / "best.toml").is_file()
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
