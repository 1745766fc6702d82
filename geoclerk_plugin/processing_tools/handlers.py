"""Per-tool logic beyond parameter mapping: alternative algorithms, derived parameters and answers."""

from __future__ import annotations

import csv
import re

from qgis.core import (
    NULL,
    QgsExpression,
    QgsExpressionContext,
    QgsExpressionContextUtils,
    QgsFeature,
    QgsFeatureRequest,
    QgsRasterLayer,
    QgsReferencedRectangle,
)

from ...errors import ValidationError
from ...function_lib.context import did_you_mean
from ...function_lib.geojson._base import vanished_note, zero_buffer_error
from ...function_lib.geojson.measure import free_field_name, plain_number
from ...lang import tr as core_tr
from ..qgis_enums import FeatureRequestFlag, GeometryType
from .inputs import LINE_OR_POLYGON, crs_label, is_metric, load_layer, metric_crs_for

AGG_NAMES = {"count": "count", "sum": "sum", "mean": "mean", "min": "minimum", "max": "maximum", "median": "median"}


def _buffer(call):
    layer, distance = call.layers["layer"], call.args.get("distance") or 0
    polygons = layer.geometryType() == LINE_OR_POLYGON[1]
    if distance == 0 and not polygons:
        raise zero_buffer_error("points or lines")
    if distance < 0 and not polygons:
        raise ValidationError("A negative buffer needs a polygon layer.", fix="Use a positive distance.")
    # QGIS's default of 5 segments per quarter circle cuts up to 1.2% of the radius off between vertices: a point
    # 30 m inside a 3 km buffer fell outside it. The GeoPandas half's circle (QUAD_SEGS) keeps both halves alike.
    from ...function_lib.geojson.proximity import QUAD_SEGS

    call.params["SEGMENTS"] = QUAD_SEGS
    rings = call.args.get("rings") or 1
    if rings > 1:
        p = call.params
        call.switch("native:multiringconstantbuffer", {"INPUT": p["INPUT"], "RINGS": rings, "DISTANCE": p["DISTANCE"]})


def _buffer_post(call, results, outputs):
    """An inward buffer that erased polygons says how many vanished."""
    distance = call.args.get("distance") or 0
    if distance >= 0 or not outputs:
        return
    from qgis.core import QgsVectorLayer

    def empties(layer):
        request = QgsFeatureRequest().setNoAttributes()
        return sum(1 for f in layer.getFeatures(request) if f.geometry().isNull() or f.geometry().isEmpty())

    source = call.layers["layer"]
    vanished = empties(QgsVectorLayer(outputs[0].path, "out", "ogr")) - empties(source)
    if vanished > 0:
        call.ctx.note(vanished_note(vanished, source.featureCount(), distance))


def _convex_hull(call):
    """A point's own hull is the point: the convex hull of a layer of single points is one hull of all of them."""
    from qgis.core import QgsApplication, QgsWkbTypes

    layer = call.layers["layer"]
    if layer.geometryType() != GeometryType.Point or QgsWkbTypes.isMultiType(layer.wkbType()):
        return
    registry = QgsApplication.processingRegistry()
    alg_id = next(a for a in ("native:minimumboundinggeometry", "qgis:minimumboundinggeometry", "native:convexhull")
                  if registry.algorithmById(a) is not None)
    if alg_id == "native:convexhull":
        return
    call.switch(alg_id, {"INPUT": call.params["INPUT"], "TYPE": 3})
    call.ctx.note(f"'{call.main_name()}' is a point layer, so its convex hull is one hull around all its points "
                  "(one per point would be the points themselves).")


def _reproject(call):
    if call.args.get("assign"):
        call.switch("native:assignprojection", {"INPUT": call.params["INPUT"], "CRS": call.params["TARGET_CRS"]})


def _centroids(call):
    source = call.params["INPUT"]
    if call.args.get("whole_layer"):
        source = call.run_child("native:collect", {"INPUT": source, "OUTPUT": "TEMPORARY_OUTPUT"})["OUTPUT"]
    alg = "native:pointonsurface" if call.args.get("method") == "representative_point" else "native:centroids"
    call.switch(alg, {"INPUT": source, "ALL_PARTS": False})


def normalise_expression(text: str, fields=()) -> str:
    """Python-isms models write, in QGIS syntax: == becomes =, and "text" that names no field becomes 'text'."""
    text = re.sub(r"==", "=", text)
    return re.sub(r'"([^"]*)"', lambda m: m.group(0) if m.group(1) in fields else "'" + m.group(1) + "'", text)


def check_expression(call, text: str, layer) -> QgsExpression:
    """Parse an expression with QGIS's parser (no eval) and check its fields exist."""
    expression = QgsExpression(text)
    if expression.hasParserError():
        raise ValidationError(
            f"The expression '{text}' does not parse: {expression.parserErrorString()}",
            fix="Use QGIS expression syntax: field names bare or in double quotes, text in 'single quotes'.",
        )
    names = layer.fields().names()
    for column in expression.referencedColumns():
        if column != QgsFeatureRequest.ALL_ATTRIBUTES and column not in names:
            raise ValidationError(
                f"Layer '{call.main_name()}' has no field '{column}'.",
                fix=did_you_mean(column, names, "Fields: " + ", ".join(names)) + " Text values go in 'single quotes'.",
            )
    return expression


def _expression(call):
    text = normalise_expression(call.args["expression"], call.layers["layer"].fields().names())
    check_expression(call, text, call.layers["layer"])
    call.params["EXPRESSION"] = text


def _field_calc(call):
    layer = call.layers["layer"]
    formula, value = call.args.get("expression"), call.args.get("value")
    if formula is None and value is None:
        raise ValidationError("Give an expression or a value for the new field.", fix="For example expression: $area.")
    if formula is not None:
        formula = normalise_expression(formula, layer.fields().names())
        check_expression(call, formula, layer)
        guess = _guess_type(layer, formula)
    else:
        guess = _value_type(value)
        formula = QgsExpression.quotedValue(_typed(value, guess))
    qname = call.qname("expression")
    call.params[qname] = formula
    if call.args.get("field_type") is None:
        call.params["FIELD_TYPE"] = call.enum_index("FIELD_TYPE", guess)
    if call.params.get("FIELD_TYPE") == call.enum_index("FIELD_TYPE", "String", 2):
        call.params["FIELD_LENGTH"] = 255


def _value_type(value: str) -> str:
    for label, cast in (("Integer", int), ("Float", float)):
        try:
            cast(value)
            return label
        except ValueError:
            pass
    return "String"


def _typed(value: str, label: str):
    return int(value) if label == "Integer" else float(value) if label == "Float" else value


def _guess_type(layer, formula: str) -> str:
    """The type of an expression's value on the first feature (Float when it cannot be told)."""
    expression = QgsExpression(formula)
    context = QgsExpressionContext(QgsExpressionContextUtils.globalProjectLayerScopes(layer))
    feature = next(layer.getFeatures(QgsFeatureRequest().setLimit(1)), QgsFeature())
    context.setFeature(feature)
    expression.prepare(context)
    result = expression.evaluate(context)
    if isinstance(result, bool) or isinstance(result, int):
        return "Integer"
    if isinstance(result, str):
        return "String"
    return "Float"


def _join_location(call):
    if call.args.get("predicate") == "nearest":
        p = call.params
        call.switch("native:joinbynearest", {"INPUT": p["INPUT"], "INPUT_2": p["JOIN"], "NEIGHBORS": 1})


def _distance_matrix(call):
    layer = call.layers["layer"]
    target = call.layers.get("target", layer)
    call.params["TARGET"] = target
    call.params["INPUT_FIELD"] = _id_field(layer, call.main_name())
    call.params["TARGET_FIELD"] = _id_field(target, call.args.get("target") or call.main_name())


def _id_field(layer, name: str) -> str:
    names = layer.fields().names()
    if not names:
        raise ValidationError(f"Layer '{name}' has no fields to identify its points.", fix="Add an id field.")
    return "fid" if "fid" in names else names[0]


def _network_post(call, results, outputs):
    cost = results.get("TRAVEL_COST")
    if isinstance(cost, (int, float)):
        unit = "m" if call.work_crs or is_metric(call.layers["layer"].crs()) else "map units"
        call.answer = f"Route length: {cost:.1f} {unit}."


def _grid(call):
    layer = call.layers["layer"]  # filled in by default_extent_layer when the request named none
    call.params["EXTENT"] = QgsReferencedRectangle(layer.extent(), layer.crs())
    call.params["CRS"] = layer.crs()


def default_extent_layer(call) -> None:
    """A grid over no named layer covers the only vector layer loaded; with none or several, a clear error."""
    if call.binding.get("handler") != "grid" or call.args.get("layer") is not None:
        return
    from ...function_lib.context import output_kind

    results = {out.path for out in call.ctx.outputs}  # an earlier step's result is no input the user loaded
    entries = [call.ctx.layers.get(n) for n in call.ctx.layers.names()]
    names = [e.name for e in entries if output_kind(e.path or "x.gpkg") == "vector" and e.path not in results]
    if len(names) != 1:
        raise ValidationError(
            f"{call.spec.name} needs a layer to give the grid's extent and CRS, and none was named.",
            fix=f"Name the layer the grid should cover (layers: {', '.join(names) or 'none is loaded'}).",
        )
    call.args["layer"] = names[0]
    call.ctx.note(f"The grid covers the extent of '{names[0]}', the only layer loaded.")


def _rasterize(call):
    """Cells aligned on the layer's extent (GDAL alone pads it by half a cell)."""
    layer = call.layers["layer"]
    call.params["EXTENT"] = QgsReferencedRectangle(layer.extent(), layer.crs())


def _add_xy(call):
    if call.args.get("crs") is None:
        call.params["CRS"] = call.layers["layer"].crs()


def _aggregate(call):
    layer = call.layers["layer"]
    by, field, agg = call.args.get("by"), call.args.get("field"), call.args.get("agg", "sum")
    aggregates = []
    if by:
        aggregates.append(_agg_def(layer, by, "first_value", by))
    if field and agg != "count":
        aggregate = _agg_def(layer, field, AGG_NAMES[agg], f"{field}_{agg}")
        if agg in ("sum", "mean", "median") and _text_numbers(call, layer, field, agg):
            aggregate["input"] = f"to_real({QgsExpression.quotedColumnRef(field)})"
        aggregates.append(aggregate)
    aggregates.append(
        {
            "aggregate": "count",
            "delimiter": ",",
            "input": "$id",
            "length": 0,
            "name": "count",
            "precision": 0,
            "type": 4,
        }
    )
    call.params["GROUP_BY"] = QgsExpression.quotedColumnRef(by) if by else "NULL"
    call.params["AGGREGATES"] = aggregates


def _text_numbers(call, layer, field: str, agg: str) -> bool:
    """True when a text field holds plain numbers (cast, noted); codes (01003) and words are refused."""
    import pandas as pd

    from ...function_lib.geojson.numbers import numeric_values

    qfield = layer.fields().field(field)
    if qfield.isNumeric():
        return False
    values = pd.Series([None if v is None or v == NULL else str(v) for v in layer.uniqueValues(layer.fields().indexOf(
        field))], dtype=object)
    numeric_values(values, field, agg, call.ctx.note)
    return True


def _agg_def(layer, field: str, aggregate: str, name: str) -> dict:
    qfield = layer.fields().field(field)
    numeric = aggregate in ("sum", "mean", "median")
    return {
        "aggregate": aggregate,
        "delimiter": ",",
        "input": QgsExpression.quotedColumnRef(field),
        "length": 0 if numeric else qfield.length(),
        "name": name,
        "precision": 0,
        "type": 6 if numeric else int(qfield.type()),
    }


def _stats_by_categories(call):
    """A text field holding plain numbers is summed as numbers (a float copy of it, noted); codes are refused."""
    field, agg = call.args.get("field"), call.args.get("agg", "count")
    layer = call.layers["layer"]
    if not field or agg == "count" or not _text_numbers(call, layer, field, agg):
        return
    numeric = f"{field}_number"
    made = call.run_child("native:fieldcalculator", {
        "INPUT": call.params["INPUT"], "FIELD_NAME": numeric, "FIELD_TYPE": 0, "FIELD_LENGTH": 0,
        "FIELD_PRECISION": 0, "FORMULA": f"to_real({QgsExpression.quotedColumnRef(field)})",
        "OUTPUT": "TEMPORARY_OUTPUT"})["OUTPUT"]
    call.params["INPUT"] = call.layer_from(made)
    call.params["VALUES_FIELD_NAME"] = numeric


def _stats_by_categories_post(call, results, outputs):
    agg = call.args.get("agg", "count")
    with open(outputs[0].path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    by = call.args["by"]
    column = agg if rows and agg in rows[0] else "count"
    parts = [f"{'/'.join(str(r.get(b)) for b in by)}: {r.get(column)}" for r in rows[:12]]
    call.answer = f"{column} of {call.args.get('field') or 'features'} by {', '.join(by)}: " + "; ".join(parts)
    call.values["rows"] = len(rows)


def _basic_statistics_post(call, results, outputs):
    keys = ("COUNT", "MEAN", "MIN", "MAX", "SUM", "STD_DEV", "MEDIAN")
    field = call.args["field"]
    layer = call.layers["layer"]
    if not layer.fields().field(field).isNumeric():
        results = _text_field_statistics(call, layer, field, results)
    names = {"COUNT": core_tr("count"), "MEAN": core_tr("mean"), "MIN": core_tr("min"), "MAX": core_tr("max"),
             "SUM": core_tr("sum"), "STD_DEV": core_tr("std_dev"), "MEDIAN": core_tr("median")}  # fmt: skip
    parts = [f"{names[k]} {_fmt(results[k])}" for k in keys if isinstance(results.get(k), (int, float))]
    call.answer = f"{field}: " + ", ".join(parts) + core_tr(".")
    if results.get("TEXT_REASON"):
        call.answer += " " + results["TEXT_REASON"]


def _text_field_statistics(call, layer, field: str, results: dict) -> dict:
    """Statistics of a text field: computed on its values read as numbers when they are plain numbers (noted),
    else QGIS's count with the reason there is no sum or mean."""
    import pandas as pd

    from ...function_lib.geojson.numbers import text_number_kind

    index = layer.fields().indexOf(field)
    request = QgsFeatureRequest().setFlags(FeatureRequestFlag.NoGeometry).setSubsetOfAttributes([index])
    raw = pd.Series([None if f[index] == NULL else str(f[index]) for f in layer.getFeatures(request)], dtype=object)
    kind = text_number_kind(raw)
    if kind != "numbers":
        what = "codes written with leading zeros" if kind == "codes" else "words, not numbers"
        reason = f"'{field}' is a text field holding {what}, so it has no sum or mean."
        return {"COUNT": results.get("COUNT", raw.notna().sum()), "TEXT_REASON": reason}
    values = pd.to_numeric(raw, errors="coerce").dropna()
    call.ctx.note(f"'{field}' is a text field; its values were read as numbers.")
    if values.empty:
        return {"COUNT": 0}
    stats = {"MEAN": values.mean(), "MIN": values.min(), "MAX": values.max(), "SUM": values.sum(),
             "STD_DEV": values.std(ddof=0), "MEDIAN": values.median()}
    call.values.update({k: float(v) for k, v in stats.items()})
    return {"COUNT": len(values), **{k: float(v) for k, v in stats.items()}}


def _nna_post(call, results, outputs):
    index, observed, expected = results.get("NN_INDEX"), results.get("OBSERVED_MD"), results.get("EXPECTED_MD")
    pattern = "clustered" if index < 1 else "dispersed" if index > 1 else "random"
    call.answer = (
        f"Nearest neighbour index {index:.3f} ({pattern}): observed mean distance {observed:.1f} m, "
        f"expected {expected:.1f} m, z-score {results.get('Z_SCORE', 0):.2f}."
    )


def _count(call):
    """Polygons must be polygons and points points; the count never replaces a field of the polygons."""
    from qgis.core import QgsWkbTypes

    for key, want in (("polygons", GeometryType.Polygon), ("points", GeometryType.Point)):
        layer = call.layers[key]
        if layer.geometryType() != want:
            have = QgsWkbTypes.geometryDisplayString(layer.geometryType())
            other = "a polygon" if key == "polygons" else "a point"
            raise ValidationError(
                f"{key} must be {other} layer; '{call.args[key]}' has {have} geometry.",
                fix=f"Give {other} layer as {key}.",
            )
    field = call.params.get("FIELD") or "NUMPOINTS"
    names = call.layers["polygons"].fields().names()
    if field in names or field.lower() in {n.lower() for n in names}:
        call.params["FIELD"] = free_field_name(field, names)
        call.ctx.note(
            f"'{call.args['polygons']}' already has a field '{field}'; the counts are in the new field "
            f"'{call.params['FIELD']}'."
        )


def _count_post(call, results, outputs):
    """How many points fell in the polygons, in total and at most in one (one SQL query on the GeoPackage:
    two QGIS aggregates over 100k polygons took 0.8 s)."""
    from osgeo import ogr

    field = call.params.get("FIELD") or "NUMPOINTS"
    source = ogr.Open(outputs[0].path)
    table = source.GetLayer(0).GetName()
    quoted = field.replace('"', '""')
    rows = source.ExecuteSQL(
        f'SELECT SUM(CAST("{quoted}" AS REAL)), MAX(CAST("{quoted}" AS REAL)), COUNT(*) FROM "{table}"'
    )
    row = rows.GetNextFeature()
    total, most, n = (row.GetField(i) for i in range(3))
    source.ReleaseResultSet(rows)
    total, most = total or 0, most or 0
    call.values.update({"total": total, "max": most})
    distinct = _points_inside_overlaps(call, outputs[0].path) if total else None
    if distinct is None:
        call.answer = core_tr("{total} points in {n} polygons (at most {most} in one).").format(
            total=_fmt(total), n=n, most=_fmt(most)
        )
        return
    # Overlapping polygons (buffers of nearby features): a point inside two is counted in each, so the counts add up
    # to more points than there are inside ('wie viele Häuser liegen darin' is the points, each once).
    call.values["points_inside"] = distinct
    call.answer = core_tr(
        "{inside} points lie inside the {n} polygons; the polygons overlap, so their counts add up to {total} "
        "(at most {most} in one)."
    ).format(inside=distinct, n=n, total=_fmt(total), most=_fmt(most))


def _points_inside_overlaps(call, polygons_path: str) -> int | None:
    """How many points lie inside the polygons, each once, when some polygons overlap; None when none do (the sum of
    the counts is then that number)."""
    import numpy as np
    import pyogrio
    import shapely

    polys = pyogrio.read_dataframe(polygons_path, columns=[])
    geoms = np.asarray(polys.geometry.array)
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    pairs = left < right
    if not pairs.any() or not (shapely.area(shapely.intersection(geoms[left[pairs]], geoms[right[pairs]])) > 0).any():
        return None
    points = call.ctx.gdf(call.args["points"])
    if polys.crs is not None and points.crs is not None:
        points = points.to_crs(polys.crs)
    inside, _ = tree.query(np.asarray(points.geometry.array), predicate="intersects")
    return int(np.unique(inside).size)


def _dbscan_post(call, results, outputs):
    call.answer = core_tr("{n} clusters found.").format(n=results.get("NUM_CLUSTERS", 0))


def _fmt(value) -> str:
    return plain_number(value)  # 525,000 and 1,234.57, never 5.25e+05


def _terrain(call):
    """Slope/aspect/hillshade need metres: a DEM in degrees is warped to a metric CRS first. Slope in percent
    runs GDAL's slope (QGIS's own gives degrees only)."""
    raster = call.layers["raster"]
    if call.args.get("measure") == "percent":
        call.switch("gdal:slope", {"INPUT": call.params["INPUT"], "BAND": 1, "AS_PERCENT": True,
                                   "COMPUTE_EDGES": True})
    if is_metric(raster.crs()) or not raster.crs().isValid():
        return
    target = metric_crs_for(raster, call.ctx)
    warped = call.run_child(
        "gdal:warpreproject", {"INPUT": raster, "TARGET_CRS": target, "RESAMPLING": 1, "OUTPUT": "TEMPORARY_OUTPUT"}
    )["OUTPUT"]
    call.params["INPUT"] = QgsRasterLayer(warped, "warped")
    call.ctx.note(f"The DEM was warped to {crs_label(target)} so slopes are computed in metres.")


def _raster_calc(call):
    main = call.layers["raster"]
    layers = [main]
    names = {call.ctx.layers.get(call.args["raster"]).name}
    for name in re.findall(r'"?([^"@\s()+\-*/]+)@\d+"?', call.args["expression"]):
        if name in names:
            continue
        if call.ctx.layers.find(name) is None:
            raise ValidationError(
                f"The expression names a raster '{name}' that is not loaded.",
                fix=did_you_mean(name, call.ctx.layers.names(), f'Refer to bands as "{main.name()}@1".'),
            )
        layers.append(load_layer(call.ctx, name, "raster"))
        names.add(name)
    call.params[call.qname("raster")] = layers


HANDLERS = {
    "buffer": (_buffer, _buffer_post),
    "reproject": (_reproject, None),
    "convex_hull": (_convex_hull, None),
    "centroids": (_centroids, None),
    "expression": (_expression, None),
    "field_calc": (_field_calc, None),
    "join_location": (_join_location, None),
    "distance_matrix": (_distance_matrix, None),
    "network": (None, _network_post),
    "grid": (_grid, None),
    "add_xy": (_add_xy, None),
    "rasterize": (_rasterize, None),
    "aggregate": (_aggregate, None),
    "stats_by_categories": (_stats_by_categories, _stats_by_categories_post),
    "basic_statistics": (None, _basic_statistics_post),
    "nna": (None, _nna_post),
    "count": (_count, _count_post),
    "dbscan": (None, _dbscan_post),
    "terrain": (_terrain, None),
    "raster_calc": (_raster_calc, None),
}
