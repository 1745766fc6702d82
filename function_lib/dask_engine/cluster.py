"""The Dask client the large-input engine computes on: a local cluster (one worker process per core, a memory limit
each) started on first use, or an existing scheduler (settings.scheduler, `geoclerk run --scheduler ADDRESS`).

compute() runs partition tasks as futures with a bounded number in flight, hands each result back in partition order
(so a result is written partition by partition, never gathered), reports progress to the run context, cancels the
futures when the run is cancelled, and turns a lost worker into a clear error."""

from __future__ import annotations

import atexit
import logging
import os
import threading
import time

from ...errors import CancelledError, ToolError

_LOCK = threading.Lock()
_STATE: dict = {"client": None, "cluster": None, "key": None}


def _settings():
    from .settings import SETTINGS

    return SETTINGS


def get_client():
    """The shared client for the current settings (started once, reused by every tool call)."""
    settings = _settings()
    key = (settings.scheduler, settings.workers, settings.memory_limit)
    with _LOCK:
        client = _STATE["client"]
        if client is not None and _STATE["key"] == key and client.status == "running":
            return client
        _close_locked()
        from distributed import Client, LocalCluster

        if settings.scheduler:
            try:
                client = Client(settings.scheduler, timeout=15, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ToolError(
                    f"Could not reach the Dask scheduler at {settings.scheduler} ({exc}).",
                    fix="Check that the scheduler runs and the address is right (tcp://HOST:8786), or run without "
                    "--scheduler to use a local cluster.",
                ) from exc
            cluster = None
        else:
            workers = settings.workers or max(1, os.cpu_count() or 1)
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                memory_limit=settings.memory_limit,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = Client(cluster, set_as_default=False)
        _STATE.update(client=client, cluster=cluster, key=key)
        try:
            client.run(_warm)  # the workers import the partition code now, not inside the first tool's time
        except Exception:  # noqa: BLE001 - a worker that cannot import it fails its first task with the reason
            pass
        return client


def _warm() -> bool:
    import dask.dataframe  # noqa: F401 - what reading a partition needs, imported once per worker
    import dask_geopandas  # noqa: F401
    import pyogrio  # noqa: F401

    from ..geojson import overlay_ops, proximity, query  # noqa: F401
    from . import partfns  # noqa: F401 - imports geopandas, shapely, pyproj and the library's tools

    return True


def where_note(client, partitions: int) -> str:
    """What the report says of the engine: the partitions and the cluster they ran on, in the user's language."""
    from ...lang import tr

    workers = len(client.scheduler_info(n_workers=-1).get("workers", {})) if client.status == "running" else 0
    local = _STATE.get("cluster") is not None
    if local:
        template = (tr("Ran on dask-geopandas in {n} partitions on a local Dask cluster (1 worker).") if workers == 1
                    else tr("Ran on dask-geopandas in {n} partitions on a local Dask cluster ({workers} workers)."))
    elif workers == 1:
        template = tr("Ran on dask-geopandas in {n} partitions on the Dask cluster at {address} (1 worker).")
    else:
        template = tr("Ran on dask-geopandas in {n} partitions on the Dask cluster at {address} ({workers} workers).")
    return template.format(n=partitions, workers=workers, address=client.scheduler.address)


def worker_count(client) -> int:
    return max(1, len(client.scheduler_info(n_workers=-1).get("workers", {})))


def close() -> None:
    """Close the client (and the local cluster it started)."""
    with _LOCK:
        _close_locked()


def _close_locked() -> None:
    client, cluster = _STATE["client"], _STATE["cluster"]
    _STATE.update(client=None, cluster=None, key=None)
    for thing in (client, cluster):
        if thing is not None:
            try:
                thing.close()
            except Exception:  # noqa: BLE001 - closing a broken cluster must not hide the real error
                pass


atexit.register(close)

LOST_FIX = (
    "Give each worker more memory (GEOCLERK_DASK_MEMORY_LIMIT) or use smaller partitions "
    "(GEOCLERK_DASK_PARTITION_ROWS), check the cluster's workers, and run again."
)


def _lost_worker_types():
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    return KilledWorker, CommClosedError, FutureCancelledError


def compute(ctx, tasks, label: str, on_result=None, window: int | None = None):
    """Run dask.delayed tasks on the cluster; results in task order, to on_result(i, value) when given (at most
    `window` tasks in flight, default two per worker) else returned as a list. ctx.progress follows the finished
    tasks; ctx.cancel_event cancels every future; a lost worker raises a ToolError that says so."""
    client = get_client()
    n = len(tasks)
    if window is None:
        window = n if on_result is None else 2 * worker_count(client)
    window = max(1, window)
    results = [] if on_result is None else None
    pending: dict[int, object] = {}
    submitted = emitted = 0
    lost = _lost_worker_types()
    try:
        while emitted < n:
            while submitted < n and submitted - emitted < window:
                pending[submitted] = client.compute(tasks[submitted])
                submitted += 1
            future = pending[emitted]
            if ctx.cancel_event.is_set():
                raise CancelledError()
            while not future.done():  # the scheduler pushes each task's state to the client: polled, not waited on
                if ctx.cancel_event.is_set():
                    raise CancelledError()
                time.sleep(0.02)
            value = future.result()
            del pending[emitted]
            if on_result is None:
                results.append(value)
            else:
                on_result(emitted, value)
            emitted += 1
            ctx.progress(100.0 * emitted / n, f"{label}: {emitted} of {n} partitions")
    except lost as exc:
        raise ToolError(
            f"A Dask worker was lost while running {label} (it ran out of memory or its process ended): "
            f"{type(exc).__name__}: {exc}",
            fix=LOST_FIX,
        ) from exc
    finally:
        if pending:
            client.cancel(list(pending.values()))
    return results


def scatter(value):
    """A value every task uses (the small layer of a join, a clip mask), sent to the workers once."""
    return get_client().scatter(value, broadcast=True, hash=False)
