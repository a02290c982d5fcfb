"""Every command that plays games runs on a Dask cluster (a scheduler and two worker processes started as a user
would, `dask scheduler` and `dask worker`) and gives what the same command gives locally: the same baseline and
check table, ladder tables, ablation table, tune trials and confirmation. The content pack travels with the tasks
(a content folder of the driver's). A cluster that cannot play (a scheduler that does not answer, no worker, a
worker without septima-sim or with another version of it) is one line and exit 2 within a minute."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import tomli_w

from septima_sim.content.loader import BASE_DIR

pytest.importorskip("dask.distributed")

BIN = Path(sys.executable).parent
SCRIPT = BIN / "septima-sim"
CONFIG = """name = "dk"
games_per_cell = 20
seed = 5
shard_size = 10
content = "pack"
[matrix]
players = [2]
lineup = ["all-random"]
"""
pytestmark = pytest.mark.slow


def cli(*args: str | Path, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        timeout=timeout,
        env={**os.environ, **env},
    )


class Cluster:
    """A `dask scheduler` and `dask worker` processes on 127.0.0.1, stopped (and reaped) on close."""

    def __init__(self, root: Path, *, workers: int = 2, preload: Path | None = None) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.file = root / "scheduler.json"
        common = ["--no-dashboard", "--scheduler-file", str(self.file)]
        self.procs = [self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", *common], "scheduler.log")]
        deadline = time.monotonic() + 60
        while not self.file.is_file():
            assert time.monotonic() < deadline, (root / "scheduler.log").read_text()
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        if workers:
            extra = ["--preload", str(preload)] if preload else []
            args = ["worker", "--nworkers", str(workers), "--nthreads", "1", "--host", "127.0.0.1", *common, *extra]
            self.procs.append(self._start(args, "worker.log"))
            self._wait_for(workers)

    def _start(self, args: list[str], log: str) -> subprocess.Popen[bytes]:
        with (self.root / log).open("wb") as out:
            return subprocess.Popen([str(BIN / "dask"), *args], stdout=out, stderr=subprocess.STDOUT)

    def _wait_for(self, workers: int) -> None:
        from dask.distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)

    def close(self) -> None:
        for proc in reversed(self.procs):
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config over a content folder of the driver's (a copy of the built-in pack with Plead worth 3)."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(BASE_DIR, root / "pack")
    actions = root / "pack" / "actions.toml"
    head, _, tail = actions.read_text().partition('id = "plead"')
    actions.write_text(head + 'id = "plead"' + tail.replace("wisdom = 2", "wisdom = 3", 1))
    (root / "dk.toml").write_text(CONFIG)
    return root


def on(cluster: Cluster) -> list[str]:
    return ["--backend", "dask", "--scheduler", cluster.address]


def test_baseline_and_check_on_the_cluster_match_the_local_ones(cluster: Cluster, project: Path) -> None:
    local = cli("baseline", "dk.toml", "--out", "local.json", "--jobs", "2", cwd=project)
    remote = cli("baseline", "dk.toml", "--out", "remote.json", *on(cluster), cwd=project)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr

    def body(name: str) -> dict[str, object]:
        data = json.loads((project / name).read_text())
        data.pop("created")
        return data

    assert body("local.json") == body("remote.json")
    checks = [cli("check", "--baseline", "local.json", *args, cwd=project) for args in (["--jobs", "2"], on(cluster))]
    assert [c.returncode for c in checks] == [0, 0], checks[1].stderr
    assert checks[0].stdout == checks[1].stdout and "| pass |" in checks[1].stdout


def test_the_ladder_on_the_cluster_writes_the_local_tables(cluster: Cluster, tmp_path: Path) -> None:
    args = ["ladder", "--players", "2", "--policies", "random,balanced", "--games", "10", "-q"]
    local = cli(*args, "--jobs", "2", "--out", "local", cwd=tmp_path)
    remote = cli(*args, *on(cluster), "--out", "remote", cwd=tmp_path)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr
    for table in ("matchups.csv", "ratings.csv"):
        assert (tmp_path / "local" / table).read_bytes() == (tmp_path / "remote" / table).read_bytes()


def test_learn_on_the_cluster_writes_the_local_models_for_the_configs_pack(cluster: Cluster, project: Path) -> None:
    args = ["learn", "dk.toml", "--games", "10", "--distill", "5", "-q"]
    local = cli(*args, "--jobs", "2", "--out", "learn-local", cwd=project)
    remote = cli(*args, *on(cluster), "--out", "learn-remote", cwd=project)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr
    model = (project / "learn-local" / "model.json").read_bytes()
    assert model == (project / "learn-remote" / "model.json").read_bytes()
    chooser = (project / "learn-local" / "chooser.json").read_bytes()
    assert chooser == (project / "learn-remote" / "chooser.json").read_bytes()
    from septima_sim.content import load_content

    assert json.loads(model)["pack_hash"] == load_content(project / "pack").hash != load_content().hash


def test_an_ablation_on_the_cluster_gives_the_local_table(cluster: Cluster, project: Path) -> None:
    args = ["ablate", "dk.toml", "--kinds", "witch", "--only", "aylana,tommy", "--games", "40", "--arms", "removed"]
    local = cli(*args, "--jobs", "2", "--out", "abl-local", "-q", cwd=project)
    remote = cli(*args, *on(cluster), "--out", "abl-remote", "-q", cwd=project)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr
    assert (project / "abl-local" / "ablation.csv").read_text() == (project / "abl-remote" / "ablation.csv").read_text()


def test_a_seeded_tune_in_batches_on_the_cluster_gives_the_local_trials(cluster: Cluster, project: Path) -> None:
    study = {
        "name": "tk",
        "seed": 3,
        "content": "pack",
        "base": {"players": 2, "lineup": "all-random"},
        "space": {"actions.plead.wisdom": {"low": 1, "high": 4}},
        "targets": {"seat_fairness": {"band": 25.0}},
        # two trials in flight at once, their rungs one stream of tasks (successive halving prunes within a batch)
        "budget": {
            "trials": 5,
            "games": 40,
            "min_games": 20,
            "reduction": 2,
            "batch": 2,
            "confirm_games": 40,
            "confirm_top": 1,
        },
    }
    (project / "tk.toml").write_text(tomli_w.dumps(study))
    local = cli("tune", "tk.toml", "--jobs", "2", "--out", "tune-local", "-q", cwd=project)
    remote = cli("tune", "tk.toml", *on(cluster), "--out", "tune-remote", "-q", cwd=project)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr

    for name in ("trials.csv", "confirmation.csv"):  # every trial value, objective and verdict
        assert (project / "tune-local" / name).read_bytes() == (project / "tune-remote" / name).read_bytes()
    trials = (project / "tune-local" / "trials.csv").read_text().splitlines()
    assert len(trials) == 6 and (project / "tune-local" / "trials" / "0004").is_dir()
    assert local.stdout.splitlines()[0] == remote.stdout.splitlines()[0]


# --------------------------------------------------------------------------------------------- fail fast
def test_a_scheduler_that_does_not_answer_is_one_line_and_exit_2(project: Path) -> None:
    t0 = time.monotonic()
    done = cli("run", "dk.toml", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--out", "r", cwd=project,
               SEPTIMA_DASK_TIMEOUT="5")  # fmt: skip
    assert done.returncode == 2 and time.monotonic() - t0 < 60
    assert done.stderr.startswith("error: cannot reach the dask scheduler tcp://127.0.0.1:9 within 5 s")
    assert len(done.stderr.strip().splitlines()) == 1 and not (project / "r").exists()


def test_a_scheduler_without_workers_is_one_line_and_exit_2(project: Path, tmp_path: Path) -> None:
    empty = Cluster(tmp_path / "empty", workers=0)
    try:
        done = cli("run", "dk.toml", *on(empty), "--out", "r", cwd=project, SEPTIMA_DASK_TIMEOUT="3")
    finally:
        empty.close()
    assert done.returncode == 2 and done.stderr.startswith(
        f"error: no dask worker joined the scheduler {empty.address}"
    )
    assert len(done.stderr.strip().splitlines()) == 1 and not (project / "r").exists()


@pytest.mark.parametrize(
    ("preload", "message"),
    [
        ("import sys\nsys.modules['septima_sim'] = None\n", "cannot run septima-sim (Exception: ModuleNotFoundError"),
        ("import septima_sim\nseptima_sim.__version__ = '0.0.1'\n", "runs septima-sim 0.0.1 (here "),
    ],
    ids=["cannot-import", "other-version"],
)
def test_a_worker_that_cannot_play_is_named_in_one_line(
    project: Path, tmp_path: Path, preload: str, message: str
) -> None:
    script = tmp_path / "preload.py"
    script.write_text(preload)
    bad = Cluster(tmp_path / "bad", workers=1, preload=script)
    try:
        for command in (["run", "dk.toml", "--out", "r"], ["baseline", "dk.toml", "--out", "b.json"]):
            done = cli(*command, *on(bad), cwd=project, timeout=60)
            assert done.returncode == 2, done.stderr
            line = done.stderr.strip()
            assert line.startswith("error: dask worker tcp://127.0.0.1:") and message in line and "\n" not in line
    finally:
        bad.close()
    assert not (project / "r").exists() and not (project / "b.json").exists()


def test_ctrl_c_cancels_the_clusters_tasks_and_the_run_resumes(cluster: Cluster, project: Path) -> None:
    (project / "long.toml").write_text(CONFIG.replace("games_per_cell = 20", "games_per_cell = 600").replace(
        "all-random", "all-balanced"))  # fmt: skip
    out = project / "long"
    proc = subprocess.Popen(
        [str(SCRIPT), "run", "long.toml", *on(cluster), "--out", "long", "-q"],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not list((out / "games").glob("*/*.parquet")):  # the first shard is in: stop it now
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().endswith("septima-sim run --resume long"), err
    from dask.distributed import Client

    with Client(cluster.address, timeout=30) as client:
        deadline = time.monotonic() + 30
        while any(client.processing().values()):  # the run's tasks were cancelled, not left to finish
            assert time.monotonic() < deadline, client.processing()
            time.sleep(0.2)
    done = cli("run", "--resume", "long", *on(cluster), "-q", cwd=project)
    assert done.returncode == 0, done.stderr
    games = sum(1 for _ in (out / "games").glob("*/*.parquet"))
    assert games == 60 and json.loads((out / "manifest.json").read_text())["status"] == "finished"
