"""When a library tool runs on Dask, and on which cluster: one settings object, read from the environment once and
changed by the CLI (--scheduler) or the plugin (its settings dialog's dask_scheduler)."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _int_env(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, "") or default)
    except ValueError:
        return default


@dataclass
class EngineSettings:
    """min_features / min_bytes: an input above either is large (0 turns that test off); partition_rows: features
    per partition; scheduler: the address of an existing Dask scheduler ('' = a local cluster started on first use);
    workers and memory_limit: the local cluster's processes (0 = one per core) and the limit of each ('auto' = the
    machine's memory shared out); output_format: the format of large results ('' = GeoParquet for a GeoParquet input,
    else GeoPackage, which every QGIS opens)."""

    min_features: int = 2_000_000
    min_bytes: int = 512 * 1024 * 1024
    partition_rows: int = 500_000
    scheduler: str = ""
    workers: int = 0
    memory_limit: str = "auto"
    output_format: str = ""

    @classmethod
    def from_env(cls) -> EngineSettings:
        return cls(
            min_features=_int_env("GEOCLERK_DASK_MIN_FEATURES", cls.min_features),
            min_bytes=_int_env("GEOCLERK_DASK_MIN_BYTES", cls.min_bytes),
            partition_rows=max(1, _int_env("GEOCLERK_DASK_PARTITION_ROWS", cls.partition_rows)),
            scheduler=os.environ.get("GEOCLERK_DASK_SCHEDULER", "").strip(),
            workers=_int_env("GEOCLERK_DASK_WORKERS", 0),
            memory_limit=os.environ.get("GEOCLERK_DASK_MEMORY_LIMIT", "").strip() or "auto",
            output_format=os.environ.get("GEOCLERK_DASK_FORMAT", "").strip().lower().lstrip("."),
        )


SETTINGS = EngineSettings.from_env()


def configure(**changes) -> EngineSettings:
    """Change the settings in place (None leaves a value as it is); a new scheduler drops the cached client."""
    from . import cluster

    for key, value in changes.items():
        if value is None:
            continue
        if not hasattr(SETTINGS, key):
            raise AttributeError(f"no engine setting {key}")
        if key in ("scheduler", "workers", "memory_limit") and getattr(SETTINGS, key) != value:
            cluster.close()
        setattr(SETTINGS, key, value)
    return SETTINGS
