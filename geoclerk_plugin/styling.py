"""Sensible default styles for result layers: graduated, categorized, buffer outlines or a single symbol."""

from __future__ import annotations

import re

from qgis.core import (
    QgsCategorizedSymbolRenderer,
    QgsClassificationQuantile,
    QgsGradientColorRamp,
    QgsGraduatedSymbolRenderer,
    QgsRendererCategory,
    QgsSingleSymbolRenderer,
    QgsStyle,
    QgsSymbol,
    QgsVectorLayer,
    QgsWkbTypes,
)
from qgis.PyQt.QtGui import QColor

CLASS_FIELD_WORDS = ("cluster", "class", "category")  # fields tools add to label classes
MEASURE_WORDS = ("count", "area", "length", "distance", "density", "sum", "mean", "total")
MEASURE_TOOLS = ("count", "area", "length", "density", "distance", "statistics")
ACCENT = QColor(214, 39, 40)


def choose_style(layer: QgsVectorLayer, request: str, steps: list[dict]) -> tuple[str, str | None]:
    """('graduated'|'categorized'|'buffer'|'single', field) for a result layer and the request behind it."""
    text = request.lower()
    tools = " ".join(str(s.get("tool", "")) for s in steps).lower()
    code = " ".join(str(s.get("code", "")) for s in steps).lower()
    numeric, textual = [], []
    for f in layer.fields():
        (numeric if f.isNumeric() else textual).append(f.name())
    mentioned = [n for n in numeric if _mentions(text, n)]
    if mentioned:
        return "graduated", mentioned[0]
    for n in textual:
        if _mentions(text, n) and _few_values(layer, n):
            return "categorized", n
    if "buffer" in tools or "buffer" in code or re.search(r"\bbuffer", text):
        return "buffer", None
    for n in numeric + textual:
        if any(w in n.lower() for w in CLASS_FIELD_WORDS) and _few_values(layer, n):
            return "categorized", n
    if any(w in tools for w in MEASURE_TOOLS):
        # A tool that measures or counts per feature appends its field last: that is what to see.
        for n in reversed(numeric):
            if any(w in n.lower() for w in MEASURE_WORDS + ("numpoints",)):
                return "graduated", n
    for s in steps:
        name = (s.get("params") or {}).get("field_name")
        if name in numeric and any(w in text for w in ("map", "show", "colour", "color", "choropleth")):
            return "graduated", name
    if any(w in text for w in ("map", "choropleth", "colour", "color", "shade")):
        for n in numeric:
            if any(w in n.lower() for w in MEASURE_WORDS):
                return "graduated", n
    return "single", None


def _mentions(text: str, field: str) -> bool:
    words = {field.lower(), field.lower().replace("_", " ")}
    return any(re.search(rf"\b{re.escape(w)}\b", text) for w in words if len(w) > 1)


def _few_values(layer: QgsVectorLayer, field: str, limit: int = 12) -> bool:
    index = layer.fields().indexOf(field)
    return index >= 0 and 1 < len(layer.uniqueValues(index, limit + 1)) <= limit


def apply_style(layer: QgsVectorLayer, request: str, steps: list[dict]) -> str:
    """Style the layer in place; returns the style chosen (for provenance and tests)."""
    kind, field = choose_style(layer, request, steps)
    if kind == "graduated":
        renderer = QgsGraduatedSymbolRenderer(field)
        renderer.setSourceSymbol(QgsSymbol.defaultSymbol(layer.geometryType()))
        renderer.setSourceColorRamp(_ramp())
        renderer.setClassificationMethod(QgsClassificationQuantile())
        renderer.updateClasses(layer, 5)
        layer.setRenderer(renderer)
    elif kind == "categorized":
        layer.setRenderer(_categorized(layer, field))
    elif kind == "buffer":
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        fill = QColor(ACCENT)
        fill.setAlpha(50)
        symbol.setColor(fill)
        if symbol.symbolLayerCount() and hasattr(symbol.symbolLayer(0), "setStrokeColor"):
            symbol.symbolLayer(0).setStrokeColor(ACCENT)
            symbol.symbolLayer(0).setStrokeWidth(0.6)
        layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    else:
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        symbol.setColor(ACCENT)
        if layer.geometryType() == QgsWkbTypes.PolygonGeometry:
            fill = QColor(ACCENT)
            fill.setAlpha(140)
            symbol.setColor(fill)
        layer.setRenderer(QgsSingleSymbolRenderer(symbol))
    layer.triggerRepaint()
    return kind if field is None else f"{kind}:{field}"


def _ramp():
    ramp = QgsStyle.defaultStyle().colorRamp("Viridis") if QgsStyle.defaultStyle() else None
    return ramp or QgsGradientColorRamp(QColor(255, 247, 188), QColor(204, 76, 2))


def _categorized(layer: QgsVectorLayer, field: str) -> QgsCategorizedSymbolRenderer:
    index = layer.fields().indexOf(field)
    values = sorted(layer.uniqueValues(index), key=lambda v: (v is None, str(v)))
    ramp = QgsStyle.defaultStyle().colorRamp("Spectral") if QgsStyle.defaultStyle() else None
    categories = []
    for i, value in enumerate(values):
        symbol = QgsSymbol.defaultSymbol(layer.geometryType())
        t = i / max(len(values) - 1, 1)
        symbol.setColor(ramp.color(t) if ramp else QColor.fromHsv(int(300 * t), 180, 220))
        categories.append(QgsRendererCategory(value, symbol, str(value)))
    return QgsCategorizedSymbolRenderer(field, categories)
