"""Derive the Processing tool specs from the live algorithms' parameter definitions (+ a curated overlay)."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "function_lib" / "processing_specs.json"


def T(name, category, purpose, ids, params, **extra):
    """One curated tool: our name, the ids to try in order, and our exposed parameters."""
    return {"name": name, "category": category, "purpose": purpose, "ids": ids, "params": params, **extra}


def P(name, qgis=None, **over):
    """One exposed parameter: our name, the QGIS parameter(s) it maps to (alternatives, first found)."""
    return {"name": name, "qgis": [qgis] if isinstance(qgis, str) else list(qgis or []), **over}


L = P("layer", "INPUT", desc="Input layer")
R = P("raster", "INPUT", desc="Raster layer")
PRED = {"intersects": "intersect", "contains": "contain", "disjoint": "disjoint", "equals": "equal",
        "touches": "touch", "overlaps": "overlap", "within": "are within", "crosses": "cross"}
JPRED = {k: k for k in ("intersects", "contains", "equals", "touches", "overlaps", "within", "crosses")}
OPS = {"=": "=", "!=": "≠", ">": ">", ">=": "≥", "<": "<", "<=": "≤", "begins_with": "begins with",
       "contains": "contains", "is_null": "is null", "is_not_null": "is not null"}
AGGS = ("count", "sum", "mean", "min", "max", "median")

CURATED = [
    T("qgis_buffer", "geometry", "Buffer features by a distance in metres (rings > 1: multi-ring).", ["native:buffer"],
      [L, P("distance", "DISTANCE", required=True, desc="Buffer distance"),
       P("rings", kind="integer", default=1, minimum=1, desc="Number of rings"),
       P("dissolve", "DISSOLVE", desc="Merge all buffers")],
      equivalent="buffer", handler="buffer", keywords=("buffer", "zone", "around")),
    T("qgis_multi_ring_buffer", "geometry", "Rings of constant width around features.",
      ["native:multiringconstantbuffer"],
      [L, P("rings", "RINGS", required=True, minimum=1), P("distance", "DISTANCE", required=True)],
      keywords=("rings", "concentric")),
    T("qgis_clip", "overlay", "Clip a layer to the polygons of another.", ["native:clip"],
      [L, P("overlay", "OVERLAY", desc="Clip polygons")], equivalent="clip"),
    T("qgis_intersection", "overlay", "Intersection of two layers, with attributes of both.", ["native:intersection"],
      [L, P("overlay", "OVERLAY")], keywords=("intersect", "overlap")),
    T("qgis_difference", "overlay", "Parts of a layer not covered by another.", ["native:difference"],
      [L, P("overlay", "OVERLAY")], keywords=("erase", "subtract")),
    T("qgis_union", "overlay", "Union of two layers (or of a layer with itself).", ["native:union"],
      [L, P("overlay", "OVERLAY")], keywords=("union", "combine")),
    T("qgis_symmetrical_difference", "overlay", "Parts in either layer but not both.",
      ["native:symmetricaldifference"], [L, P("overlay", "OVERLAY")], keywords=("xor", "symmetric")),
    T("qgis_dissolve", "overlay", "Merge features, optionally per value of fields.", ["native:dissolve"],
      [L, P("fields", "FIELD", desc="Fields to dissolve by")], equivalent="dissolve", keywords=("merge", "combine")),
    T("qgis_extract_by_location", "query", "Features of a layer in a spatial relation to another.",
      ["native:extractbylocation"],
      [L, P("reference", "INTERSECT", desc="Layer to compare with"),
       P("predicate", "PREDICATE", enum=PRED, default="intersects")], keywords=("inside", "touching", "select")),
    T("qgis_extract_by_attribute", "query", "Features whose field compares to a value.",
      ["native:extractbyattribute"],
      [L, P("field", "FIELD"), P("operator", "OPERATOR", enum=OPS, default="="), P("value", "VALUE")],
      keywords=("where", "equals", "select")),
    T("qgis_extract_by_expression", "query", "Features matching an expression.", ["native:extractbyexpression"],
      [L, P("expression", "EXPRESSION", desc="Condition, like pop > 1000 AND type = 'a'")],
      equivalent="filter_by_expression", handler="expression", keywords=("filter", "where")),
    T("qgis_extract_within_distance", "query", "Features within a distance of another layer.",
      ["native:extractwithindistance"],
      [L, P("reference", "REFERENCE", desc="Layer to measure from"), P("distance", "DISTANCE", required=True)],
      equivalent="within_distance", keywords=("near", "within", "close")),
    T("qgis_join_by_location", "join", "Add attributes of another layer by spatial relation.",
      ["native:joinattributesbylocation"],
      [L, P("join", "JOIN", desc="Layer whose attributes are added"),
       P("predicate", "PREDICATE", enum={**JPRED, "nearest": None}, default="intersects")],
      equivalent="spatial_join", handler="join_location", keywords=("spatial join",)),
    T("qgis_join_by_field", "join", "Join a table's attributes by a common field.", ["native:joinattributestable"],
      [L, P("field", "FIELD", desc="Key field"), P("table", "INPUT_2", desc="Table or layer to join"),
       P("table_field", "FIELD_2", desc="Key field of the table")], equivalent="join_table", keywords=("merge",)),
    T("qgis_join_by_nearest", "join", "Add attributes of the nearest feature of another layer.",
      ["native:joinbynearest"],
      [L, P("target", "INPUT_2", desc="Layer to search"),
       P("max_distance", "MAX_DISTANCE", kind="distance")], keywords=("closest", "nearest")),
    T("qgis_count_points_in_polygon", "statistics", "Count points in each polygon.",
      ["native:countpointsinpolygon", "qgis:countpointsinpolygon"],
      [P("polygons", "POLYGONS"), P("points", "POINTS"), P("field_name", "FIELD", default="count")],
      equivalent="count_points_in_polygons", keywords=("how many", "count")),
    T("qgis_field_calculator", "attributes", "Add a field computed by an expression or a value.",
      ["native:fieldcalculator", "qgis:fieldcalculator"],
      [L, P("field_name", "FIELD_NAME"), P("expression", "FORMULA", required=False, desc="Expression, like $area"),
       P("value", kind="string", required=False, desc="Constant value"),
       P("field_type", "FIELD_TYPE", default=None, required=False, desc="Type (guessed when omitted)")],
      equivalent="add_field", handler="field_calc", keywords=("calculate", "new field")),
    T("qgis_reproject", "crs", "Reproject a layer (or assign a CRS).", ["native:reprojectlayer"],
      [L, P("crs", "TARGET_CRS", required=True, default=None, desc="Target CRS, like EPSG:3857"),
       P("assign", kind="boolean", default=False, desc="Set the CRS without transforming")],
      equivalent="reproject", handler="reproject", keywords=("transform", "projection")),
    T("qgis_centroids", "geometry", "Centroid (or point on surface) of each feature or the layer.",
      ["native:centroids"],
      [L, P("method", kind="enum", enum={"centroid": None, "representative_point": None}, default="centroid",
         desc="Point type"),
       P("whole_layer", kind="boolean", default=False, desc="One point for the layer")],
      equivalent="centroids", handler="centroids", keywords=("center", "centre", "middle")),
    T("qgis_point_on_surface", "geometry", "A point guaranteed inside each feature.", ["native:pointonsurface"], [L]),
    T("qgis_convex_hull", "geometry", "Convex hull of each feature.", ["native:convexhull"], [L], keywords=("hull",)),
    T("qgis_minimum_bounding_geometry", "geometry", "Bounding shape of the layer or of groups.",
      ["qgis:minimumboundinggeometry", "native:minimumboundinggeometry"],
      [L, P("shape", "TYPE", default="envelope",
            enum={"envelope": "Envelope (Bounding Box)", "rectangle": "Minimum Oriented Rectangle",
                  "circle": "Minimum Enclosing Circle", "convex_hull": "Convex Hull"}),
       P("by", "FIELD", desc="Group field")], equivalent="bounding_geometry", keywords=("extent", "enclosing")),
    T("qgis_oriented_bounding_box", "geometry", "Smallest rotated rectangle of each feature.",
      ["native:orientedminimumboundingbox", "qgis:orientedminimumboundingbox"], [L], keywords=("rectangle",)),
    T("qgis_voronoi", "geometry", "Voronoi (Thiessen) polygons of points.",
      ["native:voronoipolygons", "qgis:voronoipolygons"],
      [L, P("buffer", "BUFFER", desc="Extent buffer (% of extent)")], equivalent="voronoi", keywords=("thiessen",)),
    T("qgis_delaunay", "geometry", "Delaunay triangulation of points.",
      ["native:delaunaytriangulation", "qgis:delaunaytriangulation"], [L], keywords=("triangles", "tin")),
    T("qgis_kmeans", "analysis", "K-means clusters of points (CLUSTER_ID field).", ["native:kmeansclustering"],
      [L, P("clusters", "CLUSTERS", required=True)], keywords=("cluster", "group")),
    T("qgis_dbscan", "analysis", "DBSCAN density clusters of points.", ["native:dbscanclustering"],
      [L, P("eps", "EPS", required=True, desc="Neighbourhood distance"), P("min_samples", "MIN_SIZE")],
      keywords=("cluster", "density")),
    T("qgis_nearest_neighbour_analysis", "analysis", "Nearest neighbour index of a point layer.",
      ["native:nearestneighbouranalysis", "qgis:nearestneighbouranalysis"], [L], metric=True, handler="nna",
      outputs={"OUTPUT_HTML_FILE": "html"}, keywords=("clustered", "dispersed", "pattern")),
    T("qgis_distance_matrix", "analysis", "Distances between points of two layers.",
      ["qgis:distancematrix", "native:distancematrix"],
      [L, P("target", "TARGET", required=False, desc="Target points (default: the layer)"),
       P("nearest", "NEAREST_POINTS", desc="Only the k nearest (0 = all)")],
      equivalent="distance_matrix", handler="distance_matrix", metric=True, keywords=("distances",)),
    T("qgis_shortest_path", "network", "Shortest route on a line network between two points.",
      ["native:shortestpathpointtopoint"],
      [L, P("start", "START_POINT", desc="Start [x, y] in the layer CRS"),
       P("end", "END_POINT", desc="End [x, y] in the layer CRS"), P("strategy", "STRATEGY")],
      handler="network", metric=True, keywords=("route", "path")),
    T("qgis_service_area", "network", "Network reachable within a distance from a point.",
      ["native:serviceareafrompoint"],
      [L, P("start", "START_POINT", desc="Start [x, y] in the layer CRS"),
       P("distance", ["TRAVEL_COST2", "TRAVEL_COST"], kind="distance", required=True, desc="Network distance")],
      handler="network", outputs={"OUTPUT_LINES": "vector"}, keywords=("reach", "isochrone")),
    T("qgis_create_grid", "creation", "A grid of cells over a layer's extent.", ["native:creategrid"],
      [P("layer", desc="Layer giving extent and CRS"), P("spacing", "HSPACING", copy_to=["VSPACING"], required=True),
       P("type", "TYPE", default="rectangle",
         enum={"point": "Point", "line": "Line", "rectangle": "Rectangle (Polygon)", "diamond": "Diamond (Polygon)",
               "hexagon": "Hexagon (Polygon)"})],
      handler="grid", keywords=("fishnet", "hexagons", "cells")),
    T("qgis_random_points_in_polygons", "creation", "Random points inside each polygon.",
      ["native:randompointsinpolygons", "qgis:randompointsinsidepolygons"],
      [L, P("count", ["POINTS_NUMBER", "VALUE"], required=True, desc="Points per polygon"),
       P("min_distance", "MIN_DISTANCE")], keywords=("sample", "random")),
    T("qgis_polygons_to_lines", "geometry", "Polygon boundaries as lines.", ["native:polygonstolines"], [L],
      equivalent="to_lines", keywords=("boundary", "outline")),
    T("qgis_lines_to_polygons", "geometry", "Closed lines to polygons.", ["native:linestopolygons", "qgis:linestopolygons"],
      [L], equivalent="lines_to_polygons"),
    T("qgis_extract_vertices", "geometry", "Vertices of features as points.", ["native:extractvertices"], [L],
      equivalent="vertices_to_points", keywords=("nodes",)),
    T("qgis_split_with_lines", "overlay", "Split features with a line layer.", ["native:splitwithlines"],
      [L, P("lines", "LINES", desc="Line layer to split with")], equivalent="split_polygons_by_lines"),
    T("qgis_add_xy_fields", "attributes", "Add x/y coordinate fields.", ["native:addxyfields"],
      [L, P("crs", "CRS", default=None, required=False, desc="CRS of the coordinates (default: layer CRS)")],
      equivalent="add_xy", handler="add_xy", keywords=("coordinates", "longitude", "latitude")),
    T("qgis_fix_geometries", "geometry", "Repair invalid geometries.", ["native:fixgeometries"], [L],
      keywords=("invalid", "repair")),
    T("qgis_merge_layers", "overlay", "Merge layers of the same geometry type into one.",
      ["native:mergevectorlayers"], [P("layers", "LAYERS", desc="Layers to merge"), P("crs", "CRS")],
      keywords=("append", "combine")),
    T("qgis_aggregate", "statistics", "Aggregate features (geometry and a field) per group.",
      ["native:aggregate", "qgis:aggregate"],
      [L, P("by", kind="field", of_layer="layer", required=False, desc="Group field (default: all)"),
       P("field", kind="field", of_layer="layer", required=False, desc="Field to aggregate"),
       P("agg", kind="enum", enum={a: None for a in AGGS}, default="sum", desc="Aggregate")],
      handler="aggregate", keywords=("group", "total")),
    T("qgis_statistics_by_categories", "statistics", "Statistics of a field per category.",
      ["qgis:statisticsbycategories", "native:statisticsbycategories"],
      [L, P("by", "CATEGORIES_FIELD_NAME", desc="Category fields"), P("field", "VALUES_FIELD_NAME"),
       P("agg", kind="enum", enum={a: None for a in AGGS}, default="count", desc="Statistic for the answer")],
      equivalent="group_by", handler="stats_by_categories", outputs={"OUTPUT": "table"}, keywords=("per", "group")),
    T("qgis_basic_statistics", "statistics", "Count, mean, min, max, sum... of a field.",
      ["qgis:basicstatisticsforfields", "native:basicstatisticsforfields"],
      [P("layer", "INPUT_LAYER", desc="Input layer"), P("field", "FIELD_NAME")], handler="basic_statistics",
      outputs={"OUTPUT_HTML_FILE": "html"}, keywords=("average", "mean", "summary")),
    T("qgis_heatmap", "raster", "Kernel density heatmap raster of points.",
      ["qgis:heatmapkerneldensityestimation", "native:heatmapkerneldensityestimation"],
      [L, P("radius", "RADIUS", required=True, desc="Kernel radius"),
       P("pixel_size", "PIXEL_SIZE", kind="distance", required=True, desc="Cell size"),
       P("weight_field", "WEIGHT_FIELD")], keywords=("density", "hotspot", "kde")),
    T("qgis_zonal_statistics", "raster", "Raster count/sum/mean/min/max per polygon.", ["native:zonalstatisticsfb"],
      [L, P("raster", "INPUT_RASTER")],
      fixed={"STATISTICS": ["Count", "Sum", "Mean", "Minimum", "Maximum"]}, keywords=("zonal", "average elevation")),
    T("qgis_sample_raster", "raster", "Raster values at points.", ["native:rastersampling"],
      [L, P("raster", "RASTERCOPY")], keywords=("sample", "extract values")),
    T("qgis_contours", "raster", "Contour lines of a raster.", ["gdal:contour"],
      [R, P("interval", "INTERVAL", required=True)], keywords=("isolines",)),
    T("qgis_slope", "raster", "Slope in degrees of a DEM.", ["native:slope"], [R],
      handler="terrain", keywords=("steepness", "gradient")),
    T("qgis_aspect", "raster", "Aspect (slope direction) of a DEM.", ["native:aspect"], [R],
      handler="terrain", keywords=("orientation",)),
    T("qgis_hillshade", "raster", "Hillshade of a DEM.", ["native:hillshade"],
      [R, P("azimuth", "AZIMUTH")],
      handler="terrain", keywords=("relief", "shading")),
    T("qgis_rasterize", "raster", "Burn a vector layer into a raster.", ["gdal:rasterize"],
      [L, P("pixel_size", "WIDTH", copy_to=["HEIGHT"], kind="distance", required=True, desc="Cell size"),
       P("field", "FIELD", desc="Field with burn values"), P("burn", "BURN", default=1, desc="Value when no field")],
      fixed={"UNITS": "Georeferenced units"}, keywords=("to raster",)),
    T("qgis_polygonize", "raster", "Raster regions to polygons.", ["gdal:polygonize"],
      [R], keywords=("vectorize", "to polygons")),
    T("qgis_raster_calculator", "raster", "Compute a raster from an expression on bands.",
      ["qgis:rastercalculator", "native:rastercalc"],
      [P("raster", "LAYERS", kind="layer", desc="Reference raster"),
       P("expression", "EXPRESSION", desc='Like "dem@1" * 2 (layer name@band)')],
      handler="raster_calc", keywords=("map algebra",)),
    T("qgis_reclassify_by_table", "raster", "Reclassify raster values by ranges.", ["native:reclassifybytable"],
      [P("raster", "INPUT_RASTER", desc="Raster layer"), P("table", "TABLE", desc="Flat [min, max, new, ...] triples")], keywords=("classes", "recode")),
]

KINDS = {"source": "layer", "vector": "layer", "raster": "layer", "multilayer": "layers", "distance": "distance",
         "enum": "enum", "boolean": "boolean", "crs": "crs", "expression": "expression", "string": "string",
         "band": "integer", "matrix": "numbers", "point": "numbers", "extent": "bbox", "field": "field",
         "raster_calc_expression": "expression"}
OUTPUT_KINDS = {"sink": "vector", "vectorDestination": "vector", "rasterDestination": "raster",
                "fileDestination": "html"}
RETURNS = {"vector": "new vector layer", "raster": "new GeoTIFF raster", "html": "HTML report and an answer",
           "table": "CSV table and an answer"}


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
            kind = "integer" if definition.dataType() == 0 else "number"
        if qtype in ("number", "distance"):
            if definition.minimum() > -1e300:
                param["minimum"] = definition.minimum()
            if definition.maximum() < 1e300:
                param["maximum"] = definition.maximum()
        param["kind"] = param["kind"] or kind
        param["description"] = param["description"] or definition.description()
        optional = bool(definition.flags() & definition.FlagOptional)
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
            is_raster = qtype == "raster" or (qtype == "multilayer" and definition.layerType() == 3)
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
        outputs = {n: OUTPUT_KINDS[d.type()] for n, d in defs.items()
                   if d.type() in OUTPUT_KINDS and not d.flags() & d.FlagOptional}
    kinds = set(outputs.values())
    metric = bool(tool.get("metric")) or any(p["kind"] == "distance" for p in params)
    return {
        "name": tool["name"], "category": tool["category"], "purpose": tool["purpose"],
        "returns": RETURNS["raster" if "raster" in kinds else sorted(kinds)[0] if kinds else "vector"],
        "algorithm_ids": tool["ids"], "resolved_id": alg.id(), "equivalent": tool.get("equivalent"),
        "keywords": list(tool.get("keywords", ())), "params": params,
        "binding": {"params": bindings, "fixed": tool.get("fixed", {}), "outputs": outputs,
                    "handler": tool.get("handler"), "metric": metric},
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
    from geoagent.geoagent_plugin.qgis_env import ensure_qgis

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
