"""Default styles for rasters a user would rather look at than read: an index in a red-to-green ramp, a change
between dates in a diverging ramp centred on no change, and a multiband image in natural colours from the bands its
file names red, green and blue, classes in their own colours (only the classes present). Anything else keeps QGIS's
own default."""

from __future__ import annotations

import re

from qgis.core import (
    QgsContrastEnhancement,
    QgsMultiBandColorRenderer,
    QgsPalettedRasterRenderer,
    QgsRasterLayer,
    QgsSingleBandPseudoColorRenderer,
    QgsStyle,
)

from .qgis_enums import ShaderClassificationMethod, ShaderInterpolationMethod

INDEX_WORDS = re.compile(r"(?<![a-z])(?:ndvi|ndwi|gndvi|ndbi|mndwi|normalized difference|nd_\w+)(?![a-z])", re.I)
CHANGE_WORDS = re.compile(r"(?<![a-z])(?:change|difference|diff)(?![a-z])", re.I)
STRETCH = QgsContrastEnhancement.ContrastEnhancementAlgorithm.StretchToMinimumMaximum
WATER_INDEX = re.compile(r"(?<![a-z])m?ndwi(?![a-z])", re.I)


def describe_bands(layer: QgsRasterLayer) -> list[str]:
    """The bands' names as QGIS shows them ('Band 1: blue'), from the file's band descriptions."""
    return [(layer.bandName(b) or "").lower() for b in range(1, 1 + layer.bandCount())]


def style_raster(layer: QgsRasterLayer) -> str:
    """Style `layer` by what it holds; returns the style's name ('index', 'change', 'natural colours', 'default')."""
    if not layer.isValid():
        return "default"
    names = describe_bands(layer)
    said = f"{layer.name()} {layer.source()} {' '.join(names)}"
    if layer.bandCount() == 1 and _has_colour_table(layer):
        _present_classes_only(layer)  # classes: the tool's own colours, without a GeoTIFF's 256 palette rows
        return "classes"
    if layer.bandCount() == 1 and CHANGE_WORDS.search(said):  # first: an NDVI difference is a change
        stats = layer.dataProvider().bandStatistics(1)
        if stats.minimumValue >= 0:  # a magnitude (how much, not which way): light to dark
            _pseudocolor(layer, "Reds", stats.minimumValue, stats.maximumValue)
        else:  # a signed difference: no change mid-ramp
            _pseudocolor(layer, "RdBu", *_symmetric(stats))
        return "change"
    if layer.bandCount() == 1 and INDEX_WORDS.search(said):
        ramp = "RdYlBu" if WATER_INDEX.search(said) else "RdYlGn"
        _pseudocolor(layer, ramp, *_symmetric(layer.dataProvider().bandStatistics(1), bound=1.0))
        return "index"
    rgb = [_band(names, colour) for colour in ("red", "green", "blue")]
    if layer.bandCount() >= 3 and all(rgb):
        _natural_colours(layer, *rgb)
        return "natural colours"
    return "default"


def _has_colour_table(layer: QgsRasterLayer) -> bool:
    return bool(layer.dataProvider().colorTable(1))


def _present_classes_only(layer: QgsRasterLayer) -> None:
    """A GeoTIFF's colour table has 256 rows; the legend shows the classes between the data's minimum and maximum."""
    renderer = layer.renderer()
    if not isinstance(renderer, QgsPalettedRasterRenderer):
        return
    stats = layer.dataProvider().bandStatistics(1)
    kept = [c for c in renderer.classes() if stats.minimumValue <= c.value <= stats.maximumValue]
    if kept and len(kept) < len(renderer.classes()):
        layer.setRenderer(QgsPalettedRasterRenderer(layer.dataProvider(), 1, kept))
        layer.triggerRepaint()


def _band(names: list[str], colour: str) -> int | None:
    hits = [i for i, name in enumerate(names, 1) if re.search(rf"(?<![a-z]){colour}(?![a-z])", name)]
    return hits[0] if len(hits) == 1 else None


def _symmetric(stats, bound: float | None = None) -> tuple[float, float]:
    """A range centred on 0 that holds the band's data (`stats`: its QgsRasterBandStats; an index: at most -1..1),
    so no change or 0 sits mid-ramp."""
    reach = max(abs(stats.minimumValue), abs(stats.maximumValue)) or 1.0
    if bound is not None:
        reach = min(reach, bound)
    return -reach, reach


def _pseudocolor(layer: QgsRasterLayer, ramp_name: str, low: float, high: float) -> None:
    renderer = QgsSingleBandPseudoColorRenderer(layer.dataProvider(), 1)
    renderer.setClassificationMin(low)
    renderer.setClassificationMax(high)
    ramp = QgsStyle.defaultStyle().colorRamp(ramp_name)
    renderer.createShader(ramp, ShaderInterpolationMethod.Linear, ShaderClassificationMethod.Continuous, 7)
    layer.setRenderer(renderer)
    layer.triggerRepaint()


def _natural_colours(layer: QgsRasterLayer, red: int, green: int, blue: int) -> None:
    provider = layer.dataProvider()
    renderer = QgsMultiBandColorRenderer(provider, red, green, blue)
    for band, setter in ((red, renderer.setRedContrastEnhancement), (green, renderer.setGreenContrastEnhancement),
                         (blue, renderer.setBlueContrastEnhancement)):  # fmt: skip
        stats = provider.bandStatistics(band)
        enhancement = QgsContrastEnhancement(provider.dataType(band))
        enhancement.setContrastEnhancementAlgorithm(STRETCH)
        enhancement.setMinimumValue(stats.minimumValue)
        enhancement.setMaximumValue(stats.maximumValue)
        setter(enhancement)
    layer.setRenderer(renderer)
    layer.triggerRepaint()
