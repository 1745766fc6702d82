"""QGIS enums under the names QGIS 4 keeps: the scoped Qgis.* enums where this QGIS has them, the old ones before.

QGIS 3.26–3.36 moved many enums from their classes to Qgis (QgsWkbTypes.PointGeometry is Qgis.GeometryType.Point
since 3.30, QgsProcessing.TypeVector Qgis.ProcessingSourceType.Vector since 3.36); QGIS 4 drops the old names.
The plugin writes `GeometryType.Point`, `LayerType.Vector`, …: on a QGIS that has the Qgis enum that is exactly
the Qgis enum; on an older one (3.22) a namespace of the old members under the new member names. The old names
live only here, as data, for the older QGIS (tests/qt6_scan.py flags them anywhere else).
"""

from __future__ import annotations

from types import SimpleNamespace

from qgis.core import (
    Qgis,
    QgsColorRampShader,
    QgsFeatureRequest,
    QgsLegendStyle,
    QgsMapLayer,
    QgsPalLayerSettings,
    QgsProcessing,
    QgsProcessingParameterDefinition,
    QgsUnitTypes,
    QgsWkbTypes,
)


def scoped_enum(name: str, old_owner: type, members: dict[str, str]):
    """Qgis.<name> when this QGIS has it; else the old class's members (`members`: new name → old name).

    The old names are looked up only on a QGIS without Qgis.<name>, so QGIS 4 (without them) never touches them."""
    scoped = getattr(Qgis, name, None)
    if scoped is not None:
        return scoped
    return SimpleNamespace(**{new: getattr(old_owner, old) for new, old in members.items()})


GeometryType = scoped_enum(  # 3.30
    "GeometryType",
    QgsWkbTypes,
    {
        "Point": "PointGeometry",
        "Line": "LineGeometry",
        "Polygon": "PolygonGeometry",
        "Unknown": "UnknownGeometry",
        "Null": "NullGeometry",
    },
)
LayerType = scoped_enum("LayerType", QgsMapLayer, {"Vector": "VectorLayer", "Raster": "RasterLayer"})  # 3.30
ProcessingSourceType = scoped_enum(  # 3.36
    "ProcessingSourceType",
    QgsProcessing,
    {"Vector": "TypeVector", "Raster": "TypeRaster", "VectorPoint": "TypeVectorPoint", "VectorLine": "TypeVectorLine",
     "VectorPolygon": "TypeVectorPolygon", "VectorAnyGeometry": "TypeVectorAnyGeometry"},  # fmt: skip
)
ProcessingParameterFlag = scoped_enum(  # 3.36
    "ProcessingParameterFlag", QgsProcessingParameterDefinition, {"Optional": "FlagOptional"}
)
FeatureRequestFlag = scoped_enum("FeatureRequestFlag", QgsFeatureRequest, {"NoGeometry": "NoGeometry"})  # 3.36
DistanceUnit = scoped_enum(  # 3.30
    "DistanceUnit", QgsUnitTypes, {"Meters": "DistanceMeters", "Unknown": "DistanceUnknownUnit"}
)
LayoutUnit = scoped_enum("LayoutUnit", QgsUnitTypes, {"Millimeters": "LayoutMillimeters"})  # 3.30
LegendComponent = scoped_enum(  # 3.32
    "LegendComponent", QgsLegendStyle, {"Title": "Title", "Subgroup": "Subgroup", "SymbolLabel": "SymbolLabel"}
)
# 3.26; on 3.44 QgsPalLayerSettings.OverPoint is a member of another enum (Qgis.LabelPredefinedPointPosition)
LabelPlacement = scoped_enum("LabelPlacement", QgsPalLayerSettings, {"OverPoint": "OverPoint"})
ShaderInterpolationMethod = scoped_enum(  # 3.30
    "ShaderInterpolationMethod",
    QgsColorRampShader,
    {"Linear": "Interpolated", "Discrete": "Discrete", "Exact": "Exact"},
)
ShaderClassificationMethod = scoped_enum(  # 3.30
    "ShaderClassificationMethod",
    QgsColorRampShader,
    {"Continuous": "Continuous", "EqualInterval": "EqualInterval", "Quantile": "Quantile"},
)
