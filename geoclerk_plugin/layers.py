"""Project layers as the core sees them: a LayerStore of paths and LayerInfo descriptions."""

from __future__ import annotations

from pathlib import Path

from qgis.core import (
    QgsCoordinateTransformContext,
    QgsMapLayer,
    QgsProject,
    QgsProviderRegistry,
    QgsRasterLayer,
    QgsVectorFileWriter,
    QgsVectorLayer,
    QgsWkbTypes,
)
from qgis.PyQt.QtCore import QMetaType

from ..errors import ToolError
from ..function_lib.context import RASTER_SUFFIXES, VECTOR_SUFFIXES, LayerStore, safe_name
from ..function_lib.describe import FieldInfo, LayerInfo
from .results import origin_of

# QgsField.type() gives a QVariant.Type before QGIS 3.38 and a QMetaType.Type since; under Qt5 both are the same
# numbers (QVariant.Int == QMetaType.Int == 2), under Qt6 only QMetaType.Type exists.
NUMERIC = {
    QMetaType.Type.Int: "integer",
    QMetaType.Type.LongLong: "integer",
    QMetaType.Type.UInt: "integer",
    QMetaType.Type.ULongLong: "integer",
    QMetaType.Type.Double: "real",
    QMetaType.Type.Bool: "boolean",
    QMetaType.Type.QDate: "date",
    QMetaType.Type.QDateTime: "date",
}


def field_type(qfield) -> str:
    return NUMERIC.get(qfield.type(), "string")


def _plain(value):
    if value is None or (hasattr(value, "isNull") and value.isNull()):
        return None
    if isinstance(value, (int, float, str, bool)):
        return value
    return str(value)


def describe_layer(layer: QgsMapLayer, samples: int = 3, scan: int = 50) -> LayerInfo:
    """Name, geometry type, CRS, counts, fields with types and a few sample values."""
    crs = layer.crs()
    info = LayerInfo(
        name=layer.name(),
        path=source_path(layer),
        kind="raster" if isinstance(layer, QgsRasterLayer) else "vector",
        crs=crs.authid() or None if crs.isValid() else None,
        crs_is_geographic=crs.isGeographic() if crs.isValid() else None,
    )
    extent = layer.extent()
    if not extent.isEmpty():
        info.bounds = [extent.xMinimum(), extent.yMinimum(), extent.xMaximum(), extent.yMaximum()]
    if isinstance(layer, QgsRasterLayer):
        info.fields = [FieldInfo(f"band_{i}", "real") for i in range(1, layer.bandCount() + 1)]
        return info
    info.geometry_type = QgsWkbTypes.displayString(layer.wkbType()) if layer.isSpatial() else None
    if not layer.isSpatial():
        info.kind = "table"  # a CSV or sheet without geometry: joined or summarised, never buffered
    info.feature_count = max(int(layer.featureCount()), 0)
    info.selected_count = int(layer.selectedFeatureCount())
    seen: dict[str, list] = {f.name(): [] for f in layer.fields()}
    for n, feature in enumerate(layer.getFeatures()):
        if n >= scan:
            break
        for name, values in seen.items():
            value = _plain(feature[name])
            if value is not None and len(values) < samples and value not in values:
                values.append(value)
    info.fields = [FieldInfo(f.name(), field_type(f), seen[f.name()]) for f in layer.fields()]
    return info


def source_path(layer: QgsMapLayer) -> str | None:
    """The file behind a layer when the core can read it as is (a whole single-layer file), else None."""
    if layer.providerType() not in ("ogr", "gdal"):
        return None
    parts = QgsProviderRegistry.instance().decodeUri(layer.providerType(), layer.source())
    path = parts.get("path") or ""
    if not path or not Path(path).is_file():
        return None
    suffix = Path(path).suffix.lower()
    if isinstance(layer, QgsRasterLayer):
        return path if suffix in RASTER_SUFFIXES else None
    if suffix not in VECTOR_SUFFIXES or (isinstance(layer, QgsVectorLayer) and layer.subsetString()):
        return None
    if parts.get("layerName") and suffix == ".gpkg" and _gpkg_layer_count(path) > 1:
        return None
    return path


def _gpkg_layer_count(path: str) -> int:
    layer = QgsVectorLayer(path, "probe", "ogr")
    return len(layer.dataProvider().subLayers()) if layer.isValid() else 0


def export_layer(layer: QgsVectorLayer, folder: Path, selected_only: bool = False) -> str:
    """Write a memory, database or filtered layer (or only its selected features) to a GeoPackage so the core can
    read it."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{safe_name(layer.name())}.gpkg"
    n = 2
    while target.exists():
        target = folder / f"{safe_name(layer.name())}_{n}.gpkg"
        n += 1
    options = QgsVectorFileWriter.SaveVectorOptions()
    options.driverName = "GPKG"
    options.layerName = safe_name(layer.name())
    options.onlySelectedFeatures = selected_only
    context = QgsProject.instance().transformContext() if QgsProject.instance() else QgsCoordinateTransformContext()
    result = QgsVectorFileWriter.writeAsVectorFormatV3(layer, str(target), context, options)
    if result[0] != QgsVectorFileWriter.WriterError.NoError:
        raise ToolError(f"Could not export layer '{layer.name()}': {result[1]}", fix="Save the layer to a file first.")
    return str(target)


def build_inputs(layers: list[QgsMapLayer], scratch: Path, selected_only=()) -> tuple[LayerStore, list[LayerInfo]]:
    """A LayerStore (paths only; nothing QGIS is touched later in the worker) and the layers' infos. The layers
    whose ids are in `selected_only` are read as their selected features (a follow-up on a selection GeoClerk made).

    Must run on the main thread: it reads features and may export layers to `scratch`.
    """
    store = LayerStore()
    infos = []
    for layer in layers:
        info = describe_layer(layer)
        path = info.path
        if layer.id() in selected_only:
            path = export_layer(layer, scratch, selected_only=True)
            info.path, info.feature_count = path, layer.selectedFeatureCount()
        if path is None:
            if not isinstance(layer, QgsVectorLayer):
                raise ToolError(f"Layer '{layer.name()}' is not a file GeoClerk can read.", fix="Save it as GeoTIFF.")
            path = export_layer(layer, scratch)
            info.path = path
        store.add(layer.name(), path=path)
        info.origin = origin_of(layer)  # a result of an earlier request: named by its title or by 'them'
        infos.append(info)
    return store, infos
