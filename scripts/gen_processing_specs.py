"""Derive the Processing tool specs from the live algorithms' parameter definitions (+ a curated overlay)."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "function_lib" / "processing_specs.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_processing_overlay import CURATED  # noqa: E402 - the overlay sits next to this script

KINDS = {
    "source": "layer",
    "vector": "layer",
    "raster": "layer",
    "multilayer": "layers",
    "distance": "distance",
    "enum": "enum",
    "boolean": "boolean",
    "crs": "crs",
    "expression": "expression",
    "string": "string",
    "band": "integer",
    "matrix": "numbers",
    "point": "numbers",
    "extent": "bbox",
    "field": "field",
    "raster_calc_expression": "expression",
}
OUTPUT_KINDS = {
    "sink": "vector",
    "vectorDestination": "vector",
    "rasterDestination": "raster",
    "fileDestination": "html",
}
RETURNS = {
    "vector": "new vector layer",
    "raster": "new GeoTIFF raster",
    "html": "HTML report and an answer",
    "table": "CSV table and an answer",
}


def _value(enum) -> int:
    """An enum's integer value, for PyQt5 plain enums and the scoped enums of QGIS 3.36+/Qt6 alike."""
    return int(getattr(enum, "value", enum))


def _optional(definition) -> bool:
    from geoclerk.geoclerk_plugin.qgis_enums import ProcessingParameterFlag

    return bool(_value(definition.flags()) & _value(ProcessingParameterFlag.Optional))


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


def _plain(value):
    """A JSON value from a QGIS default (QVariant NULL and odd types become None)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (int, float, str)) for v in value):
        return value
    return None


def derive_param(over: dict, definition, by_qgis: dict) -> tuple[dict, dict]:
    """Our Param fields and the binding for one exposed parameter, from its QGIS definition."""
    name = over["name"]
    param = {"name": name, "kind": over.get("kind"), "description": over.get("desc"), "required": over.get("required")}
    binding = {"qgis": over["qgis"], "kind": None}
    if over.get("copy_to"):
        binding["copy_to"] = over["copy_to"]
    default = over.get("default", "unset")
    if definition is not None:
        qtype = definition.type()
        kind = KINDS.get(qtype, "string")
        if qtype == "field":
            kind = "fields" if definition.allowMultiple() else "field"
            param["of_layer"] = by_qgis.get(definition.parentLayerParameterName())
        if qtype == "number":
            kind = "integer" if _value(definition.dataType()) == 0 else "number"
        if qtype in ("number", "distance"):
            if definition.minimum() > -1e300:
                param["minimum"] = definition.minimum()
            if definition.maximum() < 1e300:
                param["maximum"] = definition.maximum()
        param["kind"] = param["kind"] or kind
        param["description"] = param["description"] or definition.description()
        optional = _optional(definition)
        qdefault = _plain(definition.defaultValue())
        if qtype == "enum":
            labels = list(definition.options())
            mapping = over.get("enum") or {slug(lab): lab for lab in labels}
            binding["enum"] = {k: [lab, labels.index(lab)] for k, lab in mapping.items() if lab in labels}
            binding["enum"].update({k: None for k, lab in mapping.items() if lab is None})
            binding["multi"] = bool(definition.allowMultiple())
            param["enum"] = list(mapping)
            if isinstance(qdefault, list):
                qdefault = qdefault[0] if qdefault else None
            by_index = {v[1]: k for k, v in binding["enum"].items() if v}
            qdefault = by_index.get(qdefault) if isinstance(qdefault, int) else None
        if qtype in ("source", "vector", "raster", "multilayer"):
            is_raster = qtype == "raster" or (qtype == "multilayer" and _value(definition.layerType()) == 3)
            binding["source"] = "raster" if is_raster else "vector"
        if default == "unset":
            default = qdefault
        if param["required"] is None:
            param["required"] = not optional and default is None
    else:
        if over.get("enum"):
            param["enum"] = list(over["enum"])
            binding["enum"] = {k: None for k in over["enum"]}
        param["required"] = bool(param["required"])
        default = None if default == "unset" else default
        binding["source"] = "vector" if param["kind"] in ("layer", "layers") else None
    if param["description"] is None:
        raise ValueError(f"{name}: a parameter without a QGIS definition needs desc=")
    if param["kind"] is None:
        param["kind"] = "layer"
        binding["source"] = "vector"
    if over.get("of_layer"):
        param["of_layer"] = over["of_layer"]
    for key in ("minimum", "maximum"):
        if key in over:
            param[key] = over[key]
    param["default"] = None if param["required"] else default
    if param["kind"] == "layer" and binding.get("source") is None:
        binding["source"] = "vector"
    binding["kind"] = param["kind"]
    return {k: v for k, v in param.items() if v is not None}, binding


def derive_tool(tool: dict, registry) -> dict | None:
    """One tool's spec fields and binding from the first algorithm id this QGIS has; None if none."""
    alg = next((registry.algorithmById(i) for i in tool["ids"] if registry.algorithmById(i)), None)
    if alg is None:
        return None
    defs = {d.name(): d for d in alg.parameterDefinitions()}
    by_qgis = {q: p["name"] for p in tool["params"] for q in p["qgis"]}
    params, bindings = [], {}
    for over in tool["params"]:
        definition = next((defs[q] for q in over["qgis"] if q in defs), None)
        if over["qgis"] and definition is None:
            raise ValueError(f"{tool['name']}: {alg.id()} has none of {over['qgis']}")
        param, binding = derive_param(over, definition, by_qgis)
        params.append(param)
        bindings[param["name"]] = binding
    outputs = tool.get("outputs")
    if outputs is None:
        outputs = {n: OUTPUT_KINDS[d.type()] for n, d in defs.items() if d.type() in OUTPUT_KINDS and not _optional(d)}
        if not outputs:  # every output optional (the joins): the first one is the main one
            first = next(n for n, d in defs.items() if d.type() in OUTPUT_KINDS)
            outputs = {first: OUTPUT_KINDS[defs[first].type()]}
    kinds = set(outputs.values())
    metric = bool(tool.get("metric")) or any(p["kind"] == "distance" for p in params)
    return {
        "name": tool["name"],
        "category": tool["category"],
        "purpose": tool["purpose"],
        "returns": RETURNS["raster" if "raster" in kinds else sorted(kinds)[0] if kinds else "vector"],
        "algorithm_ids": tool["ids"],
        "resolved_id": alg.id(),
        "equivalent": tool.get("equivalent"),
        "keywords": list(tool.get("keywords", ())),
        "params": params,
        "binding": {
            "params": bindings,
            "fixed": tool.get("fixed", {}),
            "outputs": outputs,
            "handler": tool.get("handler"),
            "query": tool.get("query", []),
            "metric": metric,
        },
    }


def derive(previous: dict | None = None) -> dict:
    """All curated tools derived from this QGIS; tools it lacks keep their previous entry."""
    from qgis.core import Qgis, QgsApplication

    registry = QgsApplication.processingRegistry()
    old = {t["name"]: t for t in (previous or {}).get("tools", [])}
    tools, missing = [], []
    for tool in CURATED:
        derived = derive_tool(tool, registry)
        if derived is None:
            missing.append(tool["name"])
            if tool["name"] in old:
                tools.append(old[tool["name"]])
            continue
        tools.append(derived)
    return {"qgis_version": Qgis.QGIS_VERSION.split("-")[0], "missing": missing, "tools": tools}


def main() -> int:
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        print(f"PyQGIS is needed to derive the specs: {status.reason}", file=sys.stderr)
        return 1
    previous = json.loads(OUT.read_text()) if OUT.exists() else None
    data = derive(previous)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(data['tools'])} tools written to {OUT} (missing here: {data['missing'] or 'none'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
