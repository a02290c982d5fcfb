"""The life of a run directory: created (``--force`` replaces only a septima-sim run), reopened for ``--resume``
(the lock taken, a truncated or missing manifest rebuilt from config.toml and the shard files), locked while written.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
from datetime import datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

import polars as pl
import tomli_w

from septima_sim import __version__, store
from septima_sim.content import load_content
from septima_sim.engine.results import RULES_VERSION
from septima_sim.experiment import Experiment, ExperimentError, load_experiment
from septima_sim.run_lock import RunLock, RunLocked, holder
from septima_sim.runner import RunError, RunWriteError, ShardTask, iter_tasks, now


def _git_sha() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    """The versions the manifest records, read from the installed distributions' metadata: numpy and joblib are
    not imported by a one-job run (start-up time)."""
    return {
        "python": platform.python_version(),
        "septima-sim": __version__,
        "numpy": version("numpy"),
        "polars": pl.__version__,
        "joblib": version("joblib"),
        "pydantic": version("pydantic"),
    }


NOTHING_WRITTEN = "nothing written; free space or fix permissions and run again"


def default_run_dir(name: str) -> Path:
    """``runs/<name>-<timestamp>``, with a suffix if that already exists."""
    base = Path("runs") / f"{name}-{datetime.now().strftime('%Y%m%d-%H%M%S')}"
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path


def check_out_dir(run_dir: Path, *, force: bool) -> None:
    """Refuse an output path that cannot become this run: an existing one without ``--force``, a file, or (even with
    ``--force``) a directory that is not a septima-sim run or is being written."""
    if not run_dir.exists() and not run_dir.is_symlink():
        for parent in run_dir.absolute().parents:
            if parent.exists():
                if not parent.is_dir():
                    raise RunError(f"--out {run_dir}: {parent} is not a directory")
                break
        return
    if not run_dir.is_dir():
        raise RunError(f"--out {run_dir}: exists and is not a directory")
    if not force:
        raise RunError(f"output directory {run_dir} exists (use --resume {run_dir} or --force)")
    if not any(run_dir.iterdir()):
        return  # an empty folder: nothing to lose
    try:
        store.read_manifest(run_dir)
    except store.RunVersionError:
        pass  # a septima-sim run of another table schema: ours to replace
    except store.RunDirError as exc:
        raise RunError(f"--force replaces only a septima-sim run directory: {exc}; remove it by hand") from None
    pid = holder(run_dir)
    if pid is not None:
        raise RunError(f"--force: {run_dir} is being written by process {pid}")


def new_manifest(exp: Experiment, run_id: str, *, events: bool) -> dict[str, Any]:
    """The manifest of a run that has not finished any shard yet."""
    return {
        "schema": store.MANIFEST_SCHEMA,
        "schema_version": store.SCHEMA_VERSION,
        "run_id": run_id,
        "status": "running",
        "started": now(),
        "finished": None,
        "config": exp.resolved(),
        "config_hash": exp.hash,
        "content_hash": load_content(exp.content_dir).hash,
        "rules_version": RULES_VERSION,
        "package_version": __version__,
        "git_sha": _git_sha(),
        "versions": _versions(),
        "events": events,
        "cells": [c.id for c in exp.cells],
        "modules": exp.module_records(),
        "shards": {},
    }


def create_run_dir(exp: Experiment, run_dir: Path, *, force: bool, events: bool) -> tuple[dict[str, Any], RunLock]:
    """Make a fresh, locked run directory with config.toml and the manifest (``check_out_dir`` rules apply).

    The directory is built beside its place (``.<name>.creating-<pid>``) and renamed into it whole, so a process
    killed at any moment leaves either no run directory or one that ``--resume`` finishes. On a write error (disk
    full, permission) nothing is left behind and RunError is raised."""
    check_out_dir(run_dir, force=force)
    if run_dir.exists():
        shutil.rmtree(run_dir)
    fresh = run_dir.with_name(f".{run_dir.name}.creating-{os.getpid()}")
    try:
        run_dir.parent.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir()
        manifest = new_manifest(exp, run_dir.name, events=events)
        store.write_atomic(fresh / "config.toml", tomli_w.dumps(exp.resolved()).encode())
        store.write_json_atomic(fresh / "manifest.json", manifest)
        fresh.rename(run_dir)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        raise RunWriteError(run_dir, exc.strerror or str(exc), NOTHING_WRITTEN) from None
    except BaseException:
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    lock = RunLock(run_dir)
    try:
        lock.acquire()
    except RunLocked as exc:  # another process took the new folder between the rename and here
        raise RunError(f"{run_dir}: {exc}") from None
    return manifest, lock


def open_for_resume(run_dir: Path, *, same_config: bool = True) -> tuple[Experiment, dict[str, Any], RunLock]:
    """Lock a run directory and load its config and manifest to finish it; a missing or unreadable manifest is
    rebuilt from config.toml and the shard files (``rebuild_manifest``). Refuses a run whose config changed, unless
    ``same_config`` is False (``ablate`` and ``tune`` grow a run to more games: they write the new config)."""
    if not (run_dir / "config.toml").is_file():
        raise RunError(f"--resume {run_dir}: not a run directory (no config.toml)")
    lock = RunLock(run_dir)
    try:
        lock.acquire()
    except RunLocked as exc:
        raise RunError(f"--resume: {exc}") from None
    try:
        exp, manifest = _load_or_rebuild(run_dir, same_config)
    except BaseException:
        lock.release()
        raise
    store.remove_partials(run_dir)
    return exp, manifest, lock


def _load_or_rebuild(run_dir: Path, same_config: bool) -> tuple[Experiment, dict[str, Any]]:
    try:
        exp = load_experiment(run_dir / "config.toml")
    except ExperimentError as exc:
        raise RunError(f"--resume: {exc}") from None
    try:
        manifest = store.read_manifest(run_dir)
    except store.RunVersionError as exc:
        raise RunError(f"--resume: {exc}") from None
    except store.RunDirError:
        if _is_foreign_manifest(run_dir):
            raise RunError(f"--resume {run_dir}: manifest.json is not a septima-sim run manifest") from None
        manifest = rebuild_manifest(exp, run_dir)
        store.write_json_atomic(run_dir / "manifest.json", manifest)
    if same_config and exp.hash != manifest["config_hash"]:
        raise RunError(f"--resume {run_dir}: config.toml does not match the manifest's config hash")
    return exp, manifest


def _is_foreign_manifest(run_dir: Path) -> bool:
    """A manifest.json that parses as JSON but is not ours (rebuilding over it would destroy someone's file)."""
    try:
        data = json.loads((run_dir / "manifest.json").read_bytes())
    except (OSError, ValueError):
        return False
    return not store.is_run_manifest(data)


def _rows(path: Path) -> int | None:
    """Rows of a Parquet file, or None if it is missing or unreadable."""
    try:
        return int(pl.scan_parquet(path).select(pl.len()).collect().item())
    except (OSError, pl.exceptions.PolarsError):
        return None


def _recovered_shard(run_dir: Path, task: ShardTask, events: bool) -> dict[str, Any] | None:
    """The manifest entry of a shard whose files are all on disk, readable and complete, else None (replayed)."""
    tables = ["games", "players", *(["events"] if events else [])]
    errors_path = store.shard_path(run_dir, "errors", task.cell.id, task.part)
    if errors_path.is_file():
        tables.append("errors")
    files: dict[str, dict[str, Any]] = {}
    for table in tables:
        path = store.shard_path(run_dir, table, task.cell.id, task.part)
        rows = _rows(path)
        if rows is None:
            return None
        files[table] = {"path": str(path.relative_to(run_dir)), "rows": rows, "sha256": store.file_sha256(path)}
    errors = files["errors"]["rows"] if "errors" in files else 0
    if files["games"]["rows"] + errors != task.stop - task.start:
        return None
    return {"games": task.stop - task.start, "errors": errors, "files": files, "finished": None}


def rebuild_manifest(exp: Experiment, run_dir: Path) -> dict[str, Any]:
    """A manifest for a run whose manifest.json is missing or truncated: config from config.toml, and every shard
    whose files are whole (readable Parquet, games + errors rows = the shard's games) counted as finished."""
    events = (run_dir / "events").is_dir()
    manifest = new_manifest(exp, run_dir.name, events=events)
    manifest["status"] = "interrupted"
    manifest["started"] = None
    manifest["repaired"] = now()
    for task in iter_tasks(exp, run_dir.name, run_dir, events):
        entry = _recovered_shard(run_dir, task, events)
        if entry is not None:
            manifest["shards"][task.key] = entry
    return manifest
