"""The router: a local classifier that routes each request and plans standard ones with no LLM (no qgis)."""

from __future__ import annotations


def load_router(registry=None):
    """A ready Router for `registry` (the cached model, or one trained now from the corpus when stale)."""
    from .core import Router

    if registry is None:
        from ..function_lib import load_registry

        registry = load_registry()
    return Router(registry)


def route_batch(router, items):
    """Route (request, layers) pairs with one loaded router; a list of RouteResult in order."""
    return router.route_batch(items)
