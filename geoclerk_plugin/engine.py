"""The core's registry and router, built once per QGIS session, with the Processing half bound."""

from __future__ import annotations

import threading

# Separate locks: the router may train for a minute in the background, and binding on the main
# thread must never wait for that.
_specs_lock = threading.Lock()
_bind_lock = threading.Lock()
_router_lock = threading.Lock()
_cache: dict[str, object] = {}


def specs_registry():
    """Every tool spec, the Processing half not yet bound: safe to build in any thread."""
    with _specs_lock:
        if "specs" not in _cache:
            from .native_libs import isolate_wheel_libraries

            isolate_wheel_libraries()  # before anything imports geopandas inside the QGIS binary
            from ..function_lib import load_registry

            _cache["specs"] = load_registry()
        return _cache["specs"]


def registry():
    """The tool registry with Processing tools bound (binding creates QObjects: call it on the thread
    that will own them, the main thread in the dock, the algorithm's thread in Processing)."""
    with _bind_lock:
        if "registry" not in _cache:
            reg = specs_registry()
            try:
                from .processing_tools import bind
            except ImportError:
                bind = None
            if bind is not None:
                bind(reg)
            _cache["registry"] = reg
        return _cache["registry"]


def router():
    """The local router (loaded, or trained when its cached model is stale; call it off the main thread)."""
    with _router_lock:
        if "router" not in _cache:
            from ..router import load_router

            _cache["router"] = load_router(specs_registry())
        return _cache["router"]


def router_ready() -> bool:
    return "router" in _cache


def warm_up() -> None:
    """Import the library and load the router ahead of the first request (run in a background task)."""
    specs_registry()
    router()


def reset() -> None:
    """Forget the cached registry and router (tests, or after installing packages)."""
    with _specs_lock, _bind_lock, _router_lock:
        _cache.clear()
