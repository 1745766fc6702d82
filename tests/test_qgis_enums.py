"""geoclerk_plugin/qgis_enums.py: each QGIS-4 name is the value this QGIS itself gives, whichever QGIS runs."""

from __future__ import annotations

from pathlib import Path

from geoclerk.geoclerk_plugin import qgis_enums
from geoclerk.geoclerk_plugin.qgis_enums import (
    DistanceUnit,
    FeatureRequestFlag,
    GeometryType,
    LayerType,
    LayoutUnit,
    LegendComponent,
    ProcessingParameterFlag,
    ProcessingSourceType,
)
from qgis.core import (
    Qgis,
    QgsCoordinateReferenceSystem,
    QgsFeatureRequest,
    QgsLayoutItemLegend,
    QgsLayoutMeasurement,
    QgsPrintLayout,
    QgsProcessingParameterMultipleLayers,
    QgsProcessingParameterString,
    QgsProject,
    QgsRasterLayer,
    QgsVectorLayer,
)
from qgis.PyQt.QtGui import QFont

DEM = Path(__file__).resolve().parent.parent / "data" / "sample" / "dem.tif"


def test_geometry_and_layer_types_are_what_layers_report(qgis_new_project):
    for uri, kind in (
        ("Point", GeometryType.Point),
        ("LineString", GeometryType.Line),
        ("Polygon", GeometryType.Polygon),
    ):
        layer = QgsVectorLayer(f"{uri}?crs=EPSG:4326", uri, "memory")
        assert layer.geometryType() == kind and layer.type() == LayerType.Vector
        assert layer.geometryType() not in {GeometryType.Unknown, GeometryType.Null}
    raster = QgsRasterLayer(str(DEM), "dem")
    assert raster.isValid() and raster.type() == LayerType.Raster != LayerType.Vector


def test_processing_names_are_what_parameters_report():
    layers = QgsProcessingParameterMultipleLayers("L", "layers", ProcessingSourceType.Raster, optional=True)
    assert layers.layerType() == ProcessingSourceType.Raster != ProcessingSourceType.Vector
    assert layers.flags() & ProcessingParameterFlag.Optional
    assert not QgsProcessingParameterString("S", "text").flags() & ProcessingParameterFlag.Optional


def test_units_request_flags_and_legend_components_round_trip(qgis_new_project):
    assert QgsCoordinateReferenceSystem("EPSG:3857").mapUnits() == DistanceUnit.Meters != DistanceUnit.Unknown
    assert QgsLayoutMeasurement(5, LayoutUnit.Millimeters).units() == LayoutUnit.Millimeters
    request = QgsFeatureRequest().setFlags(FeatureRequestFlag.NoGeometry)
    assert request.flags() & FeatureRequestFlag.NoGeometry
    legend = QgsLayoutItemLegend(QgsPrintLayout(QgsProject.instance()))
    sizes = {LegendComponent.Title: 11, LegendComponent.SymbolLabel: 8, LegendComponent.Subgroup: 9}
    for component, size in sizes.items():
        legend.setStyleFont(component, QFont("DejaVu Sans", size))
    assert {c: legend.styleFont(c).pointSize() for c in sizes} == sizes


def test_the_qgis_enum_is_used_where_this_qgis_has_it():
    for name in ("GeometryType", "LayerType", "ProcessingSourceType", "DistanceUnit", "LegendComponent"):
        if hasattr(Qgis, name):
            assert getattr(qgis_enums, name) is getattr(Qgis, name)
        else:
            assert type(getattr(qgis_enums, name)).__name__ == "SimpleNamespace"
