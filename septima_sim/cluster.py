"""A Dask cluster for the games: connect to a scheduler (or start a LocalCluster), and refuse, in one line and well
within a minute, a cluster that cannot play them: a scheduler that does not answer, no worker joining, a worker that
cannot import septima-sim or runs another version of it (or of the rules, or of Python).

``SEPTIMA_DASK_TIMEOUT`` (seconds, default 25) bounds each wait: reaching the scheduler, then the first worker.
"""

from __future__ import annotations

import os
import platform
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class ClusterError(ValueError):
    """A cluster that cannot play the games: bad input, exit code 2 (``RunError`` subclasses it for the runner)."""


def timeout() -> float:
    """Seconds to wait for the scheduler and then for a worker (``SEPTIMA_DASK_TIMEOUT``, default 25)."""
    raw = os.environ.get("SEPTIMA_DASK_TIMEOUT", "25")
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value <= 3600:
        raise ClusterError(f"SEPTIMA_DASK_TIMEOUT must be seconds between 0 and 3600, got {raw!r}")
    return value


def identity() -> dict[str, str]:
    """What a process plays with: the septima-sim version, the rules version and the Python minor version (the
    shard tasks are pickled, which needs the same Python). Run on every worker and compared with the driver's."""
    import septima_sim
    from septima_sim.engine.results import RULES_VERSION

    return {
        "septima-sim": septima_sim.__version__,
        "rules": RULES_VERSION,
        "python": ".".join(platform.python_version_tuple()[:2]),
    }


def check_workers(client: Any) -> None:
    """Every worker of the cluster imports septima-sim and matches this process's identity (ClusterError)."""
    mine = identity()
    answers = client.run(identity, on_error="return")
    for address, theirs in sorted(answers.items()):
        if isinstance(theirs, BaseException):
            raise ClusterError(
                f"dask worker {address} cannot run septima-sim ({type(theirs).__name__}: {theirs}): install the "
                f"same septima-sim ({mine['septima-sim']}) on every worker"
            )
        differs = [f"{k} {theirs.get(k)} (here {v})" for k, v in mine.items() if theirs.get(k) != v]
        if differs:
            raise ClusterError(
                f"dask worker {address} runs {', '.join(differs)}: install the same septima-sim on every worker"
            )


@contextmanager
def connect(scheduler: str | None, jobs: int | None) -> Iterator[Any]:
    """A checked ``dask.distributed.Client``: of ``scheduler``, or of a LocalCluster of ``jobs`` worker processes on
    127.0.0.1 when no address is given. Closed (with its LocalCluster) on the way out."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--backend dask needs the dask extra: pip install 'septima-sim[dask]'") from None
    wait = timeout()
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout=wait)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the dask scheduler {scheduler} within {wait:g} s: {exc}") from None
    else:
        n = jobs if jobs and jobs > 0 else None
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    try:
        try:
            client.wait_for_workers(1, timeout=wait)
        except TimeoutError:
            raise ClusterError(f"no dask worker joined the scheduler {scheduler} within {wait:g} s") from None
        check_workers(client)
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
