"""Result files become project layers on the main thread: grouped, named, styled, with provenance."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from pathlib import Path

from qgis.core import QgsApplication, QgsLayerMetadata, QgsProject, QgsRasterLayer, QgsVectorLayer

from .i18n import tr
from .raster_style import style_raster
from .styling import apply_style

GROUP_NAME = "GeoClerk results"  # the English name, also found in projects saved before a language change
PROVENANCE_KEY = "geoclerk/provenance"


def results_dir(project: QgsProject) -> Path:
    """Where result files live (the dock's and the toolbox's): next to a saved project, else in the QGIS profile
    (never a temp dir: qgis_process removes its temporary folder when it exits)."""
    if project.fileName():
        base = Path(project.absolutePath()) / "geoclerk_results"
    else:
        base = Path(QgsApplication.qgisSettingsDirPath()) / "geoclerk" / "results"
    folder = base / time.strftime("%Y%m%d-%H%M%S")
    n = 2
    while folder.exists():
        folder = base / f"{time.strftime('%Y%m%d-%H%M%S')}-{n}"
        n += 1
    return folder


def group_name() -> str:
    return tr("GeoClerk results")


def results_group(project: QgsProject):
    """The results group in the user's language (an existing one of the English name is used as it is)."""
    root = project.layerTreeRoot()
    group = root.findGroup(group_name()) or root.findGroup(GROUP_NAME)
    return group or root.insertGroup(0, group_name())


def layer_title(request: str, index: int, total: int, limit: int = 60) -> str:
    """The layer name: the request itself (shortened), numbered when a request made several layers."""
    title = " ".join(request.split())
    if len(title) > limit:
        title = title[: limit - 1].rstrip() + "…"
    return f"{title} ({index + 1})" if total > 1 else title


def provenance(report: dict, secrets: tuple[str, ...] = ()) -> dict:
    """What made a layer: request, route and tier, calls or code, model, timings, usage (never a key)."""
    data = {
        "request": report.get("request"),
        "route": report.get("route"),
        "tier": report.get("tier"),
        "steps": report.get("steps", []),
        "model": report.get("model"),
        "usage": report.get("usage"),
        "timings_ms": report.get("timings_ms"),
        "notes": report.get("notes", []),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "tool": "GeoClerk",
    }
    text = json.dumps(data, ensure_ascii=False, default=str)
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return json.loads(text)


def _set_metadata(layer, prov: dict) -> None:
    meta = layer.metadata() if hasattr(layer, "metadata") else QgsLayerMetadata()
    meta.setTitle(prov["request"] or layer.name())
    meta.setAbstract(json.dumps(prov, ensure_ascii=False, indent=1))
    meta.addKeywords("GeoClerk", [f"route:{prov['route']}", f"tier:{prov['tier']}"])
    meta.setHistory([f"{prov['created']} GeoClerk {prov['route']} tier {prov['tier']}: {prov['request']}"])
    layer.setMetadata(meta)
    layer.setCustomProperty(PROVENANCE_KEY, json.dumps(prov, ensure_ascii=False))


def intermediate_paths(report: dict) -> set[str]:
    """The files of a request of several steps that are not its final result: every step's output but the last."""
    made = [s.get("output") for s in report.get("steps", []) if "tool" in s and s.get("output")]
    finals = {o["path"] for o in report.get("outputs", [])[-1:]}
    return {p for p in made[:-1] if p not in finals} if len(made) >= 2 else set()


def load_outputs(report: dict, project: QgsProject, secrets: tuple[str, ...] = (), extra: list[str] = ()) -> list:
    """Add the report's vector and raster outputs (and `extra` vector files to show) to the project. A request of
    several steps: the final result on top of the results group, the steps' own results in a collapsed group named
    after the request beneath it."""
    spatial = [o for o in report.get("outputs", []) if o.get("kind") in ("vector", "raster")]
    spatial += [{"path": p, "kind": "vector"} for p in extra]
    prov = provenance(report, secrets)
    group = results_group(project) if spatial else None
    between = intermediate_paths(report)
    steps_group = None
    added = []
    for i, out in enumerate(spatial):
        name = layer_title(report.get("request") or Path(out["path"]).stem, i, len(spatial))
        if out["kind"] == "vector":
            layer = QgsVectorLayer(out["path"], name, "ogr")
        else:
            layer = QgsRasterLayer(out["path"], name, "gdal")
        if not layer.isValid():
            continue
        if isinstance(layer, QgsVectorLayer) and layer.isSpatial():
            prov["style"] = apply_style(layer, report.get("request") or "", report.get("steps", []))
        elif isinstance(layer, QgsRasterLayer):
            prov["style"] = style_raster(layer)
        _set_metadata(layer, prov)
        project.addMapLayer(layer, False)
        if out["path"] in between:
            if steps_group is None:
                steps_group = group.insertGroup(0, layer_title(tr("Steps of: {request}").format(
                    request=report.get("request") or ""), 0, 1))  # fmt: skip
                steps_group.setExpanded(False)
            steps_group.addLayer(layer)
        else:
            group.insertLayer(0, layer)
        added.append(layer)
    return added


def present_layer(layer, report: dict, project: QgsProject) -> None:
    """A result layer another part of QGIS added (the Processing algorithm's OUTPUT): styled as the dock styles its
    results, with provenance, and moved into the results group."""
    prov = provenance(report)
    if isinstance(layer, QgsVectorLayer) and layer.isSpatial():
        prov["style"] = apply_style(layer, report.get("request") or "", report.get("steps", []))
    elif isinstance(layer, QgsRasterLayer):
        prov["style"] = style_raster(layer)
    _set_metadata(layer, prov)
    root = project.layerTreeRoot()
    node = root.findLayer(layer.id())
    group = results_group(project)
    if node is not None and node.parent() is not group:
        group.insertChildNode(0, node.clone())
        node.parent().removeChildNode(node)


def read_provenance(layer) -> dict | None:
    raw = layer.customProperty(PROVENANCE_KEY)
    return json.loads(raw) if raw else None


def origin_of(layer) -> str | None:
    """The request that made `layer`, when GeoClerk made it (its provenance), else None."""
    try:
        return (read_provenance(layer) or {}).get("request")
    except ValueError:  # a provenance property that is not JSON: not ours
        return None
