"""The Processing half's tool specs, loaded from the derived data file (no qgis import needed)."""

from __future__ import annotations

import json
from pathlib import Path

from .spec import Param, ToolSpec

DATA = Path(__file__).with_name("processing_specs.json")
PARAM_FIELDS = ("name", "kind", "description", "required", "default", "enum", "unit", "minimum", "maximum", "of_layer")


def _param(entry: dict) -> Param:
    args = {k: entry[k] for k in PARAM_FIELDS if k in entry}
    if "enum" in args:
        args["enum"] = tuple(args["enum"])
    return Param(**args)


def _spec(entry: dict) -> ToolSpec:
    return ToolSpec(
        name=entry["name"],
        half="processing",
        category=entry["category"],
        purpose=entry["purpose"],
        params=tuple(_param(p) for p in entry["params"]),
        returns=entry["returns"],
        algorithm_ids=tuple(entry["algorithm_ids"]),
        equivalent=entry.get("equivalent"),
        keywords=tuple(entry.get("keywords", ())),
    )


def load_data() -> dict:
    """The derived data file: QGIS version it came from, tools, and each tool's QGIS binding."""
    return json.loads(DATA.read_text(encoding="utf-8"))


_DATA = load_data()
PROCESSING_SPECS: tuple[ToolSpec, ...] = tuple(_spec(t) for t in _DATA["tools"])
# How each tool's parameters map onto QGIS parameters (used by geoclerk_plugin.processing_tools).
PROCESSING_BINDINGS: dict[str, dict] = {t["name"]: t["binding"] for t in _DATA["tools"]}
