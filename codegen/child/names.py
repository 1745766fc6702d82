"""The variables a conversation's earlier cells left in the sandbox, in a line each, for the model's prompt.

Runs in the child under the guard. Only values of exactly known types are looked into (a table's rows and columns,
an array's shape), through the class's own slots, so an object the code defined cannot run code when described.
"""

from __future__ import annotations

import sys
import types

MAX_NAMES = 20
MAX_COLUMNS = 10
_CONTAINERS = (list, dict, tuple, set)


def describe_names(namespace: dict) -> list[str]:
    """'name: kind (details)' for the user's variables (no modules, no dunder names), at most MAX_NAMES."""
    lines = []
    for name, value in list(namespace.items()):
        if name.startswith("_") or type(value) is types.ModuleType or type(value) is type:  # imports, classes
            continue
        lines.append(f"{name}: {_kind(value)}")
        if len(lines) >= MAX_NAMES:
            lines.append("(more names not listed)")
            break
    return lines


def _kind(value) -> str:
    cls = type(value)
    table = _table_class(cls)
    if table:
        columns = [str(c) for c in list(value.columns)[:MAX_COLUMNS]]
        more = ", ..." if len(value.columns) > MAX_COLUMNS else ""
        crs = f"; CRS {value.crs.to_string()}" if table == "GeoDataFrame" and value.crs is not None else ""
        return f"{table} ({len(value)} rows; columns {', '.join(columns)}{more}{crs})"
    if _is(cls, "pandas", "Series") or _is(cls, "geopandas", "GeoSeries"):
        return f"{type.__dict__['__name__'].__get__(cls)} ({len(value)} values)"
    if _is(cls, "numpy", "ndarray"):
        return f"numpy array (shape {tuple(value.shape)}, {value.dtype})"
    if cls is int or cls is float or cls is bool:
        return repr(value)
    if cls is str:
        return f"text of {len(value)} characters"
    if any(cls is plain for plain in _CONTAINERS):
        return f"{cls.__name__} of {len(value)} items"
    if cls is types.FunctionType:
        return "function"
    return "object"


def _table_class(cls) -> str | None:
    if _is(cls, "geopandas", "GeoDataFrame"):
        return "GeoDataFrame"
    if _is(cls, "pandas", "DataFrame"):
        return "DataFrame"
    return None


def _is(cls, module: str, name: str) -> bool:
    """Is `cls` exactly the library's class (looked up only when the library is loaded)?"""
    loaded = sys.modules.get(module)
    return loaded is not None and cls is getattr(loaded, name, None)
