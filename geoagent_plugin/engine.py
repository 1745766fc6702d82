"""The core's registry and router, built once per QGIS session, with the Processing half bound."""

from __future__ import annotations

import threading

_lock = threading.Lock()
_cache: dict[str, object] = {}


def registry():
    """The tool registry; Processing tools are bound when the PROC adapter is importable."""
    with _lock:
        if "registry" not in _cache:
            from .native_libs import isolate_wheel_libraries

            isolate_wheel_libraries()  # before anything imports geopandas inside the QGIS binary
            from ..function_lib import load_registry

            reg = load_registry()
            try:
                from .processing_tools import bind
            except ImportError:
                bind = None
            if bind is not None:
                bind(reg)
            _cache["registry"] = reg
        return _cache["registry"]


def router():
    """The local router (loaded or trained on first use; may take a moment, so call it in a task)."""
    reg = registry()
    with _lock:
        if "router" not in _cache:
            from ..router import load_router

            _cache["router"] = load_router(reg)
        return _cache["router"]


def router_ready() -> bool:
    return "router" in _cache


def reset() -> None:
    """Forget the cached registry and router (tests, or after installing packages)."""
    with _lock:
        _cache.clear()
