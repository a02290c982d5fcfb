"""The runner: identical rows whatever the backend, worker count or interruption; errors recorded; replay exact."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest
from rich.progress import Progress

import septima_sim
from septima_sim import runner, store
from septima_sim.cli import main
from septima_sim.content import Content
from septima_sim.engine import GameConfig, GameResult
from septima_sim.run_speed import games_per_second, rate_text
from tests.helpers import run_cli as cli

CONFIG = """
name = "t"
games_per_cell = {games}
seed = 77
shard_size = {shard}

[matrix]
players = [2, 4]
mode = ["full"]

[overrides]
"suspicion.start" = [1, 2]
"""


def rows(run_dir: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """games and players rows in a fixed order, without the columns that vary by run (id, timing)."""
    data = septima_sim.load(run_dir)
    games = data.games.drop("run_id", "duration_ms").sort("cell_id", "game_index").collect()
    players = data.players.drop("run_id").sort("cell_id", "game_index", "seat").collect()
    return games, players


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cfg") / "t.toml"
    path.write_text(CONFIG.format(games=120, shard=25))
    return path


@pytest.fixture(scope="module")
def reference(config_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref") / "run"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "argv", ["septima-sim", "run", str(config_file), "--jobs", "1", "--out", str(out), "-q"])
        main()
    return out


def test_reference_run_is_complete(reference: Path) -> None:
    games, players = rows(reference)
    assert games.height == 4 * 120 and games.select("cell_id", "game_index").is_duplicated().sum() == 0
    assert players.height == 120 * (2 + 4) * 2
    manifest = store.read_manifest(reference)
    assert manifest["status"] == "finished" and len(manifest["shards"]) == 4 * 5
    # common random numbers: game i has the same seed in every cell
    assert games.group_by("game_index").agg(pl.col("seed").n_unique()).get_column("seed").max() == 1
    assert set(games.get_column("suspicion.start")) == {1, 2}


@pytest.mark.slow
def test_jobs_2_gives_identical_rows(
    config_file: Path, reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    out = tmp_path / "run"
    code, _, _ = cli(["run", str(config_file), "--jobs", "2", "--out", str(out), "-q"], monkeypatch, capsys)
    assert code == 0
    assert rows(out)[0].equals(rows(reference)[0]) and rows(out)[1].equals(rows(reference)[1])


@pytest.mark.slow
def test_dask_local_cluster_gives_identical_rows(
    config_file: Path, reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as cluster:
        out = tmp_path / "run"
        args = ["run", str(config_file), "--backend", "dask", "--scheduler", cluster.scheduler_address]
        code, _, err = cli([*args, "--out", str(out), "-q"], monkeypatch, capsys)
    assert code == 0, err
    assert rows(out)[0].equals(rows(reference)[0]) and rows(out)[1].equals(rows(reference)[1])


@pytest.mark.slow
def test_sigkill_then_resume_loses_and_duplicates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    cfg = tmp_path / "k.toml"
    cfg.write_text(CONFIG.format(games=600, shard=20))
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "septima_sim.cli", "run", str(cfg), "--jobs", "2", "--out", str(out), "-q"]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            manifest = out / "manifest.json"
            if manifest.is_file() and len(json.loads(manifest.read_text())["shards"]) >= 8:
                break
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    before = store.read_manifest(out)
    assert before["status"] == "running" and len(before["shards"]) < 4 * 30, "the run finished before the kill"
    code, _, _ = cli(["run", "--resume", str(out), "--jobs", "2", "-q"], monkeypatch, capsys)
    assert code == 0
    assert store.read_manifest(out)["status"] == "finished"
    assert not list(out.rglob("*.partial"))
    ref = tmp_path / "ref"
    code, _, _ = cli(["run", str(cfg), "--jobs", "2", "--out", str(ref), "-q"], monkeypatch, capsys)
    assert code == 0
    assert rows(out)[0].equals(rows(ref)[0]) and rows(out)[1].equals(rows(ref)[1])


def test_ctrl_c_stops_cleanly_then_resume_completes(
    config_file: Path, reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    real = store.write_atomic
    calls = {"n": 0}

    def interrupting(path: Path, data: bytes) -> str:
        calls["n"] += 1
        if calls["n"] == 7:
            raise KeyboardInterrupt
        return real(path, data)

    monkeypatch.setattr(store, "write_atomic", interrupting)
    out = tmp_path / "run"
    code, _, err = cli(["run", str(config_file), "--jobs", "1", "--out", str(out), "-q"], monkeypatch, capsys)
    assert code == 130 and f"--resume {out}" in err
    assert store.read_manifest(out)["status"] == "interrupted"
    monkeypatch.setattr(store, "write_atomic", real)
    code, _, _ = cli(["run", "--resume", str(out), "--jobs", "1", "-q"], monkeypatch, capsys)
    assert code == 0
    assert rows(out)[0].equals(rows(reference)[0]) and rows(out)[1].equals(rows(reference)[1])


def test_game_that_raises_goes_to_errors_and_run_completes(
    config_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    bad_seed = runner.game_seed(77, 3)
    real = runner.play_game

    def flaky(config: GameConfig, content: Content, policies: list, seed: int, sink: object = None) -> GameResult:
        if seed == bad_seed:
            raise RuntimeError("injected engine fault")
        return real(config, content, policies, seed, sink)

    monkeypatch.setattr(runner, "play_game", flaky)
    out = tmp_path / "run"
    code, _, err = cli(["run", str(config_file), "--jobs", "1", "--out", str(out), "-q"], monkeypatch, capsys)
    assert code == 3 and "4 game(s) raised" in err
    data = septima_sim.load(out)
    assert data.errors is not None
    errors = data.errors.collect()
    assert errors.height == 4 and set(errors["game_index"]) == {3} and set(errors["seed"]) == {bad_seed}
    assert errors["error"][0] == "RuntimeError: injected engine fault" and "Traceback" in errors["traceback"][0]
    assert errors["replay"][0].startswith(f"septima-sim play --replay {out} --game ")
    games = data.games.collect()
    assert games.height == 4 * 120 - 4 and 3 not in set(games["game_index"])


def test_replay_prints_the_exact_game(reference: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    games, players = rows(reference)
    row = games.filter(pl.col("players") == 4, pl.col("game_index") == 17).row(0, named=True)
    cell = row["cell_id"]
    args = ["play", "--replay", str(reference), "--game", f"{cell}:17", "--format", "jsonl"]
    code, stdout, _ = cli(args, monkeypatch, capsys)
    assert code == 0
    end = json.loads(stdout.strip().splitlines()[-1])
    assert end["game"]["seed"] == row["seed"]
    assert end["game"]["winner_seats"] == row["winner_seats"]
    assert end["game"]["decisions"] == row["decisions"]
    seat_policies = players.filter(pl.col("cell_id") == cell, pl.col("game_index") == 17)["policy"].to_list()
    assert [p["policy"] for p in end["players"]] == seat_policies
    code, _, err = cli(["play", "--replay", str(reference), "--game", "nope:1"], monkeypatch, capsys)
    assert code == 2 and "no cell 'nope'" in err


def test_planning_is_lazy_up_to_the_games_bound(tmp_path: Path) -> None:
    from septima_sim.experiment import MAX_GAMES_PER_CELL, ExperimentError, build

    data = {"name": "big", "games_per_cell": MAX_GAMES_PER_CELL, "seed": 1, "shard_size": 1}
    exp = build({**data, "matrix": {"players": [2, 3, 4]}})
    tasks = runner.iter_tasks(exp, "big", tmp_path, events=False)
    first = [next(tasks) for _ in range(3)]  # 30 million shards: only what is taken is built
    assert [(t.part, t.start, t.stop) for t in first] == [(0, 0, 1), (1, 1, 2), (2, 2, 3)]
    with pytest.raises(ExperimentError, match="less than or equal to 10000000"):
        build({**data, "games_per_cell": MAX_GAMES_PER_CELL + 1})


def test_a_run_over_a_relative_content_folder_resumes(tmp_path: Path) -> None:
    """config.toml records the content folder absolute; the config hash is of that form too, so `--resume` of a
    run whose config named the pack relative to itself is not refused as "config changed" (it was, before)."""
    import shutil

    from septima_sim.content.loader import BASE_DIR

    shutil.copytree(BASE_DIR, tmp_path / "pack")
    (tmp_path / "c.toml").write_text(
        'name = "c"\nseed = 4\ngames_per_cell = 20\nshard_size = 10\ncontent = "pack"\n[matrix]\nplayers = [2]\n'
    )
    script = [str(Path(sys.executable).parent / "septima-sim")]
    done = subprocess.run([*script, "run", "c.toml", "--jobs", "1", "--out", "r", "-q"], cwd=tmp_path, check=False)
    assert done.returncode == 0
    first = rows(tmp_path / "r")
    shard = next((tmp_path / "r" / "games").glob("*/part-00001.parquet"))
    shard.unlink()
    again = subprocess.run(
        [*script, "run", "--resume", "r", "--jobs", "1", "-q"], cwd=tmp_path, capture_output=True, text=True
    )
    assert again.returncode == 0, again.stderr
    assert shard.is_file() and rows(tmp_path / "r")[1].equals(first[1])


def test_the_bar_and_the_end_of_run_table_share_one_games_per_second() -> None:
    """Games played this session over the wall time since they started: a resumed run's earlier games do not count,
    and a slow run reads 0.3 games/s, not 0."""
    clock = [100.0]
    progress = Progress(get_time=lambda: clock[0], disable=True)
    bar = progress.add_task("run", total=1000, completed=400, resumed=400)
    clock[0] += 8.0
    progress.update(bar, advance=480)
    shown = runner._Rate().render(progress.tasks[0]).plain
    summary = runner.Summary(Path("run"), 1000, 0, 480, 8.0, "joblib")
    assert shown == rate_text(summary.rate) == "60 games/s"
    assert rate_text(games_per_second(2, 6.0)) == "0.3 games/s" and rate_text(games_per_second(0, 0.0)) == "0.0 games/s"
