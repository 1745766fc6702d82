"""Render a result layer over its inputs to a PNG with QGIS's layout engine (map, title, legend)."""

from __future__ import annotations

from pathlib import Path

from qgis.core import (
    QgsLayoutExporter,
    QgsLayoutItemLabel,
    QgsLayoutItemLegend,
    QgsLayoutItemMap,
    QgsLayoutPoint,
    QgsLayoutSize,
    QgsMapLayer,
    QgsPrintLayout,
    QgsProject,
    QgsRasterLayer,
    QgsRectangle,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QSize
from qgis.PyQt.QtGui import QColor, QFont

from .qgis_enums import GeometryType, LayoutUnit, LegendComponent


def load_layer(path: str, name: str | None = None) -> QgsMapLayer | None:
    """A vector or raster layer from a file, or None when QGIS cannot open it."""
    name = name or Path(path).stem
    layer = QgsVectorLayer(path, name, "ogr")
    if layer.isValid() and layer.geometryType() is not None:
        return layer
    raster = QgsRasterLayer(path, name)
    return raster if raster.isValid() else None


def render_png(
    result_layers: list[QgsMapLayer],
    context_layers: list[QgsMapLayer],
    target: str | Path,
    title: str,
    subtitle: str = "",
    size_mm: tuple[float, float] = (240.0, 170.0),
    dpi: int = 110,
) -> Path:
    """Export a layout with the result layers drawn over the context layers, a title and a legend."""
    project = QgsProject.instance()
    layers = _draw_order(list(result_layers), list(context_layers))
    for layer in layers:
        project.addMapLayer(layer, False)
    try:
        layout = QgsPrintLayout(project)
        layout.initializeDefaults()
        legend_w = 78.0
        crs = result_layers[0].crs() if result_layers else layers[0].crs()
        extent = _extent(result_layers or layers, crs)
        map_w = size_mm[0] - legend_w - 10
        # The page follows the data's shape (a world map is wide and low), within the size asked for.
        aspect = extent.height() / extent.width() if extent.width() > 0 else 1.0
        map_h = min(size_mm[1] - 22, max(60.0, map_w * aspect))
        page = layout.pageCollection().page(0)
        page.setPageSize(QgsLayoutSize(size_mm[0], map_h + 22, LayoutUnit.Millimeters))
        map_item = QgsLayoutItemMap(layout)
        map_item.attemptMove(QgsLayoutPoint(4, 18, LayoutUnit.Millimeters))
        map_item.attemptResize(QgsLayoutSize(map_w, map_h, LayoutUnit.Millimeters))
        map_item.setLayers(layers)
        map_item.setCrs(crs)
        map_item.setExtent(extent)
        map_item.setFrameEnabled(True)
        map_item.setBackgroundColor(QColor("#fbfbf8"))
        layout.addLayoutItem(map_item)

        label = QgsLayoutItemLabel(layout)
        label.setText(title + (f"\n{subtitle}" if subtitle else ""))
        label.setFont(QFont("DejaVu Sans", 12))
        label.attemptMove(QgsLayoutPoint(4, 2, LayoutUnit.Millimeters))
        label.attemptResize(QgsLayoutSize(size_mm[0] - 8, 15, LayoutUnit.Millimeters))
        layout.addLayoutItem(label)

        legend = QgsLayoutItemLegend(layout)
        legend.setLinkedMap(map_item)
        legend.setTitle("Legend")
        fonts = ((LegendComponent.Title, 11), (LegendComponent.SymbolLabel, 8), (LegendComponent.Subgroup, 9))
        for style, size in fonts:
            legend.setStyleFont(style, QFont("DejaVu Sans", size))
        legend.setAutoUpdateModel(False)
        root = legend.model().rootGroup()
        root.removeAllChildren()
        for layer in layers:
            root.addLayer(layer)
        legend.attemptMove(QgsLayoutPoint(size_mm[0] - legend_w - 2, 18, LayoutUnit.Millimeters))
        layout.addLayoutItem(legend)

        target = Path(target)
        # renderPageToImage + QImage.save, not exportToImage: the latter georeferences the PNG through
        # GDAL, which cannot update PNGs and prints an error for every map.
        image = QgsLayoutExporter(layout).renderPageToImage(0, QSize(), dpi)
        if image.isNull() or not image.save(str(target), "PNG"):
            raise RuntimeError(f"QGIS could not render the map image {target}")
        return target
    finally:
        for layer in layers:
            project.removeMapLayer(layer.id())


def _draw_order(results: list[QgsMapLayer], context: list[QgsMapLayer]) -> list[QgsMapLayer]:
    """Top first: points, then lines, then polygons, then rasters; results above context of the same kind,
    so a polygon result never hides the points it was computed from."""

    def rank(layer):
        if isinstance(layer, QgsVectorLayer):
            return {GeometryType.Point: 0, GeometryType.Line: 1}.get(layer.geometryType(), 2)
        return 3

    tagged = [(rank(lyr), 0, i, lyr) for i, lyr in enumerate(results)]
    tagged += [(rank(lyr), 1, i, lyr) for i, lyr in enumerate(context)]
    return [t[3] for t in sorted(tagged, key=lambda t: t[:3])]


def _extent(layers: list[QgsMapLayer], crs) -> QgsRectangle:
    from qgis.core import QgsCoordinateTransform

    extent = QgsRectangle()
    extent.setMinimal()
    for layer in layers:
        rect = layer.extent()
        if layer.crs() != crs and layer.crs().isValid():
            rect = QgsCoordinateTransform(layer.crs(), crs, QgsProject.instance()).transformBoundingBox(rect)
        extent.combineExtentWith(rect)
    extent.scale(1.08)
    return extent
