"""Inputs of a Processing call: layers from the run context, field checks, and the metric CRS choice."""

from __future__ import annotations

from qgis.core import (
    QgsCoordinateReferenceSystem,
    QgsMapLayer,
    QgsRasterLayer,
    QgsVectorLayer,
)

from ...errors import ValidationError
from ...function_lib.context import RASTER_SUFFIXES, did_you_mean
from ..qgis_enums import DistanceUnit, GeometryType, LayerType

METRES = DistanceUnit.Meters
UNKNOWN_UNIT = DistanceUnit.Unknown
RASTER = LayerType.Raster
VECTOR = LayerType.Vector
LINE_OR_POLYGON = (GeometryType.Line, GeometryType.Polygon)


def load_layer(ctx, name: str, source: str = "vector") -> QgsMapLayer:
    """The named context layer as a QGIS layer: the plugin's own layer object, or opened from its file."""
    entry = ctx.layers.get(name)
    if isinstance(entry.data, QgsMapLayer):
        layer = entry.data
    else:
        path = ctx.path(entry.name)
        if source == "raster" or path.lower().endswith(tuple(RASTER_SUFFIXES)):
            layer = QgsRasterLayer(path, entry.name)
        elif path.lower().endswith(TEXT_SUFFIXES) and _has_points(ctx, entry.name):
            layer = _from_geodataframe(ctx, entry.name)
        else:
            source_uri = f"{path}|layername={entry.layer}" if entry.layer and entry.path == path else path
            layer = QgsVectorLayer(source_uri, entry.name, "ogr")
    if not layer.isValid():
        raise ValidationError(f"Layer '{name}' could not be opened.", fix="Check that the file is a readable GIS file.")
    if source == "raster" and layer.type() != RASTER:
        raise ValidationError(f"Layer '{name}' is not a raster.", fix="Give a raster layer (a GeoTIFF, for example).")
    if source == "vector" and layer.type() != VECTOR:
        raise ValidationError(f"Layer '{name}' is not a vector layer.", fix="Give a vector layer for this tool.")
    if source == "vector" and layer.featureCount() == 0:
        raise ValidationError(f"Layer '{name}' has no features.", fix="Use a layer with at least one feature.")
    return layer


TEXT_SUFFIXES = (".csv", ".tsv", ".txt")


def _has_points(ctx, name: str) -> bool:
    """True when GeoPandas reads the CSV as a point layer; a CSV without coordinates stays a plain table."""
    try:
        ctx.gdf(name)
    except ValidationError:
        return False
    return True


def _from_geodataframe(ctx, name: str) -> QgsVectorLayer:
    """A CSV layer as GeoPandas reads it (WKT or X/Y columns, lon/lat taken as EPSG:4326 and noted), saved to
    a temporary GeoPackage: OGR alone would open the CSV as a table without geometry."""
    import tempfile
    from pathlib import Path

    from ...function_lib.io import note_read_crs, write_vector

    gdf = ctx.gdf(name)
    note_read_crs(ctx, name, gdf)
    folder = getattr(ctx, "_csv_layers_dir", None) or tempfile.mkdtemp(prefix="geoclerk_csv_")
    ctx._csv_layers_dir = folder
    path = write_vector(gdf, Path(folder) / f"{len(list(Path(folder).iterdir()))}.gpkg")
    return QgsVectorLayer(path, name, "ogr")


def _split_by_type(layer) -> bool:
    """True when OGR offers one table as several geometry-type sublayers (a mixed GeoJSON, say)."""
    parts = [entry.split("!!::!!") for entry in layer.dataProvider().subLayers()]
    parts = [p for p in parts if len(p) > 3]
    return len(parts) > 1 and len({p[1] for p in parts}) == 1 and len({p[3] for p in parts}) > 1


def refuse_mixed(ctx, layer, name: str) -> None:
    """Refuse a file mixing points, lines and polygons: QGIS types the layer by one of them, and a feature
    sink of that type (reprojection, clip, extract) silently drops the others. Polygon plus MultiPolygon is
    one type to QGIS. GDAL algorithms read the file themselves and are not affected: the runner skips them."""
    if not (isinstance(layer, QgsVectorLayer) and layer.providerType() == "ogr" and _split_by_type(layer)):
        return
    import numpy as np
    import shapely

    from ...function_lib.io import TYPE_NAMES, read_vector

    entry = ctx.layers.get(name)
    gdf = ctx.gdf(name) if entry.path or entry.loader else read_vector(layer.source().split("|")[0])
    types = shapely.get_type_id(np.asarray(gdf.geometry.array))
    families = {"Point": "points", "MultiPoint": "points", "LineString": "lines", "MultiLineString": "lines",
                "LinearRing": "lines", "Polygon": "polygons", "MultiPolygon": "polygons"}
    found: dict[str, int] = {}
    for t in types[types >= 0]:
        family = families.get(TYPE_NAMES[int(t)], "geometry collections")
        found[family] = found.get(family, 0) + 1
    if len(found) > 1:
        counts = ", ".join(f"{n} {family}" for family, n in sorted(found.items()))
        raise ValidationError(
            f"Layer '{name}' mixes geometry types ({counts}); QGIS types such a layer by one of them and "
            "Processing may silently drop the others.",
            fix="Use the GeoPandas tool for this job (it handles mixed layers), or split the layer by geometry type.",
        )


def check_fields(layer: QgsVectorLayer, fields, layer_name: str) -> None:
    """Every named field exists, or a 'did you mean' error before any work."""
    names = layer.fields().names()
    for field in [fields] if isinstance(fields, str) else fields:
        if field not in names:
            raise ValidationError(
                f"Layer '{layer_name}' has no field '{field}'.",
                fix=did_you_mean(field, names, "Fields: " + ", ".join(names)),
            )


WEB_MERCATOR = ("EPSG:3857", "EPSG:900913", "EPSG:3785", "EPSG:102100")


def is_metric(crs: QgsCoordinateReferenceSystem) -> bool:
    """True when map units are ground metres; Web Mercator's are not (300 of them are ~180 m at 52°N)."""
    return crs.isValid() and not crs.isGeographic() and crs.mapUnits() == METRES and crs.authid() not in WEB_MERCATOR


def has_crs(crs: QgsCoordinateReferenceSystem) -> bool:
    """False for a missing CRS and for GDAL's "Undefined SRS" (a layer written without one)."""
    return crs.isValid() and not (not crs.authid() and crs.mapUnits() == UNKNOWN_UNIT)


def require_crs(layer: QgsMapLayer, name: str) -> QgsCoordinateReferenceSystem:
    crs = layer.crs()
    if not has_crs(crs):
        raise ValidationError(
            f"Layer '{name}' has no CRS, so metres cannot be measured on it.",
            fix="Assign the right CRS first (for example with reproject/assign CRS), then try again.",
        )
    return crs


def metric_crs_for(layer: QgsMapLayer, ctx) -> QgsCoordinateReferenceSystem:
    """A CRS in metres for `layer`, chosen by function_lib.metric (local UTM or equidistant), noted in ctx."""
    import geopandas as gpd
    from shapely.geometry import box

    from ...function_lib.metric import metric_crs

    crs = layer.crs()
    ext = layer.extent()
    bounds = box(ext.xMinimum(), ext.yMinimum(), ext.xMaximum(), ext.yMaximum())
    gdf = gpd.GeoDataFrame(geometry=[bounds], crs=crs.authid() or crs.toWkt())
    target = metric_crs(gdf, ctx, "distance")
    epsg = target.to_epsg()
    if epsg:
        return QgsCoordinateReferenceSystem(f"EPSG:{epsg}")
    return QgsCoordinateReferenceSystem.fromWkt(target.to_wkt())


def crs_label(crs: QgsCoordinateReferenceSystem) -> str:
    described = crs.description() if crs.description().lower() not in ("", "unknown") else ""
    return crs.authid() or described or crs.toProj() or "a custom CRS"


def parse_crs(value: str) -> QgsCoordinateReferenceSystem:
    crs = QgsCoordinateReferenceSystem(str(value))
    if not crs.isValid():
        raise ValidationError(f"'{value}' is not a CRS QGIS knows.", fix="Use an authority id like EPSG:3857.")
    return crs
