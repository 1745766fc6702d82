"""Sensible default styles for result layers: graduated, categorized, buffer outlines or a single symbol.

Results are drawn over the layers they came from, so polygon fills are semi-transparent; graduated classes follow
the data (whole-number breaks and labels for counts, fewer classes for few features), and a small layer of a
measure shows its values as labels.
"""

from __future__ import annotations

import math
import re

from qgis.core import (
    QgsCategorizedSymbolRenderer,
    QgsClassificationQuantile,
    QgsGradientColorRamp,
    QgsGraduatedSymbolRenderer,
    QgsPalLayerSettings,
    QgsRendererCategory,
    QgsRendererRange,
    QgsSingleSymbolRenderer,
    QgsStyle,
    QgsSymbol,
    QgsVectorLayer,
    QgsVectorLayerSimpleLabeling,
)
from qgis.PyQt.QtGui import QColor

from .qgis_enums import GeometryType, LabelPlacement

CLASS_FIELD_WORDS = ("cluster", "class", "category")  # fields tools add to label classes
MEASURE_WORDS = ("count", "area", "length", "distance", "density", "sum", "mean", "total")
MEASURE_TOOLS = ("count", "area", "length", "density", "distance", "statistics")
ACCENT = QColor(214, 39, 40)
MAX_CLASSES = 5
FILL_ALPHA = 170  # of 255: the inputs under a result polygon stay visible
LABEL_LIMIT = 30  # label each feature with its value up to this many features (beyond, labels clutter)


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
        layer.setRenderer(_graduated(layer, field))
        if layer.featureCount() <= LABEL_LIMIT and layer.geometryType() != GeometryType.Line:
            _label_values(layer, field)
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
        layer.setRenderer(QgsSingleSymbolRenderer(_fill_symbol(layer, ACCENT)))
    layer.triggerRepaint()
    return kind if field is None else f"{kind}:{field}"


def class_count(n_features: int, n_distinct: int, limit: int = MAX_CLASSES) -> int:
    """Sturges' rule (1 + log2 n), at most `limit` and never more classes than distinct values: 5 features get
    3 classes, 16 or more get 5."""
    if n_distinct <= 1:
        return n_distinct
    return max(1, min(limit, n_distinct, 1 + int(math.log2(max(n_features, 1)))))


def class_breaks(values: list[float], limit: int = MAX_CLASSES) -> list[tuple[float, float]]:
    """(lower, upper) per class by quantiles. Whole numbers (counts) get whole-number classes that do not
    overlap ('0 - 2', '3 - 5'); few distinct values get one class each."""
    data = sorted(v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v)))
    if not data:
        return []
    distinct = sorted(set(data))
    k = class_count(len(data), len(distinct), limit)
    if k <= 1:
        return [(data[0], data[-1])]
    if len(distinct) <= k:
        return [(v, v) for v in distinct]
    integral = all(float(v).is_integer() for v in data)
    uppers = []
    for i in range(1, k):
        position = i * (len(data) - 1) / k
        low, frac = int(position), position - int(position)
        value = data[low] + (data[min(low + 1, len(data) - 1)] - data[low]) * frac
        uppers.append(math.floor(value) if integral else value)
    uppers = sorted(set(u for u in uppers if data[0] <= u < data[-1])) + [data[-1]]
    ranges, lower = [], data[0]
    for upper in uppers:
        ranges.append((lower, upper))
        lower = upper + 1 if integral else upper
    return ranges


def _precision(ranges: list[tuple[float, float]], integral: bool) -> int:
    """Decimals that tell the classes apart: none for whole numbers, else enough for the narrowest class."""
    if integral:
        return 0
    widths = [hi - lo for lo, hi in ranges if hi > lo] or [1.0]
    return max(0, min(4, 1 - math.floor(math.log10(min(widths)))))


def _number(value: float, decimals: int) -> str:
    return f"{value:,.{decimals}f}"


def _graduated(layer: QgsVectorLayer, field: str) -> QgsGraduatedSymbolRenderer:
    index = layer.fields().indexOf(field)
    values = [f.attributes()[index] for f in layer.getFeatures()]
    values = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    ranges = class_breaks(values)
    integral = all(v.is_integer() for v in values)
    decimals = _precision(ranges, integral)
    ramp = _ramp()
    renderer = QgsGraduatedSymbolRenderer(field)
    method = QgsClassificationQuantile()  # what the Symbology panel re-classifies with, at the same precision
    method.setLabelPrecision(decimals)
    method.setLabelTrimTrailingZeroes(not integral)
    renderer.setClassificationMethod(method)
    renderer.setSourceSymbol(_fill_symbol(layer, ACCENT))
    renderer.setSourceColorRamp(ramp.clone())
    for i, (lower, upper) in enumerate(ranges):
        symbol = _fill_symbol(layer, ramp.color(i / max(len(ranges) - 1, 1)))
        low, high = _number(lower, decimals), _number(upper, decimals)
        label = low if lower == upper else f"{low} - {high}"
        renderer.addClassRange(QgsRendererRange(lower, upper, symbol, label))
    return renderer


def _fill_symbol(layer: QgsVectorLayer, colour: QColor) -> QgsSymbol:
    """The layer's default symbol in `colour`; polygons are filled semi-transparently (the inputs show through)."""
    symbol = QgsSymbol.defaultSymbol(layer.geometryType())
    fill = QColor(colour)
    if layer.geometryType() == GeometryType.Polygon:
        fill.setAlpha(FILL_ALPHA)
    symbol.setColor(fill)
    return symbol


def _label_values(layer: QgsVectorLayer, field: str) -> None:
    """Each feature's value as its label (a few districts with their counts read better than a legend)."""
    index = layer.fields().indexOf(field)
    values = [v for v in layer.uniqueValues(index) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    integral = all(float(v).is_integer() for v in values)
    decimals = 0 if integral else _precision(class_breaks([float(v) for v in values]), False)
    settings = QgsPalLayerSettings()
    settings.isExpression = True
    settings.fieldName = f'format_number("{field}", {decimals})'
    if layer.geometryType() == GeometryType.Polygon:
        settings.placement = LabelPlacement.OverPoint
    fmt = settings.format()
    buffer = fmt.buffer()
    buffer.setEnabled(True)
    buffer.setSize(1.0)
    fmt.setBuffer(buffer)
    settings.setFormat(fmt)
    layer.setLabeling(QgsVectorLayerSimpleLabeling(settings))
    layer.setLabelsEnabled(True)


def _ramp():
    ramp = QgsStyle.defaultStyle().colorRamp("Viridis") if QgsStyle.defaultStyle() else None
    return ramp or QgsGradientColorRamp(QColor(255, 247, 188), QColor(204, 76, 2))


def _categorized(layer: QgsVectorLayer, field: str) -> QgsCategorizedSymbolRenderer:
    index = layer.fields().indexOf(field)
    values = sorted(layer.uniqueValues(index), key=lambda v: (v is None, str(v)))
    ramp = QgsStyle.defaultStyle().colorRamp("Spectral") if QgsStyle.defaultStyle() else None
    categories = []
    for i, value in enumerate(values):
        t = i / max(len(values) - 1, 1)
        symbol = _fill_symbol(layer, ramp.color(t) if ramp else QColor.fromHsv(int(300 * t), 180, 220))
        categories.append(QgsRendererCategory(value, symbol, str(value)))
    return QgsCategorizedSymbolRenderer(field, categories)
