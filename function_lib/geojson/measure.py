"""GeoPandas tools that measure and count: length, area, X/Y, counts, points in polygons, group by, table join."""

from __future__ import annotations

import math
import numbers

from ...errors import ToolError, ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult, did_you_mean
from ..io import aligned, checked_layer, crs_label, note_if_disjoint, read_table, run_validated
from ..metric import apply_per_zone, spans_zones, to_metric
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vector_result
from .numbers import is_text, refuse_codes

TOOLS, tool = tool_list()

AGGREGATIONS = ("count", "sum", "mean", "min", "max", "median")


def _measured(ctx, gdf, purpose: str):
    """The geometry in a metric CRS (projected when in degrees), the factor from its unit to metres, and its label."""
    metric, _ = to_metric(gdf, ctx, purpose)
    return metric.geometry, _metres_per_unit(metric.crs), crs_label(metric.crs)


def _metres_per_unit(crs) -> float:
    """Metres in one unit of a projected CRS's axes (0.3048 for feet, 1200/3937 for US survey feet)."""
    axes = getattr(crs, "axis_info", None) or []
    factor = getattr(axes[0], "unit_conversion_factor", None) if axes else None
    return float(factor) if factor and getattr(crs, "is_projected", False) else 1.0


def _format_length(metres: float) -> str:
    return f"{metres / 1000:,.3f} km" if metres >= 10_000 else f"{metres:,.2f} m"


def _format_area(square_metres: float) -> str:
    return f"{square_metres / 1e6:,.3f} km²" if square_metres >= 1e6 else f"{square_metres:,.2f} m²"


# Metres (square metres) in one unit; international foot, yard and mile; the Chinese mu is 10000/15 m².
LENGTH_UNITS = {"m": 1.0, "km": 1000.0, "ft": 0.3048, "yd": 0.9144, "mi": 1609.344, "nmi": 1852.0}
AREA_UNITS = {
    "m2": 1.0, "km2": 1e6, "ha": 1e4, "acres": 4046.8564224, "mi2": 2589988.110336, "ft2": 0.09290304,
    "yd2": 0.83612736, "mu": 10000 / 15,
}  # fmt: skip
UNIT_LABELS = {"m2": "m²", "km2": "km²", "mi2": "mi²", "ft2": "ft²", "yd2": "yd²", "mu": "mu (亩)"}


def plain_number(value) -> str:
    """A number as people read it: 525,000 or 1,234.57 or 0.0123, never 5.25e+05."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}"
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    if abs(value) >= 1:
        return f"{value:,.2f}"
    return f"{value:.6f}".rstrip("0").rstrip(".") if abs(value) >= 1e-6 else f"{value:.3g}"


def _in_unit(value: float, unit: str) -> str:
    shown = f"{value:,.2f}" if abs(value) >= 1 else f"{value:.4g}" if abs(value) >= 1e-4 else plain_number(value)
    return f"{shown} {UNIT_LABELS.get(unit, unit)}"


_MEASURES = {"length": (LENGTH_UNITS, "m", _format_length), "area": (AREA_UNITS, "m2", _format_area)}


US_SURVEY_FOOT = 1200 / 3937


def _unit_size(ctx, gdf, kind: str, unit: str, units: dict) -> float:
    """Metres (m²) in one asked unit; feet are US survey feet when the layer's own CRS is in them (State Plane)."""
    if unit in ("ft", "ft2") and gdf.crs is not None:
        names = {ax.unit_name.lower() for ax in getattr(gdf.crs, "axis_info", [])}
        if any("us survey foot" in n for n in names):
            ctx.note(tr("Feet are US survey feet (1200/3937 m), the unit of the layer's CRS."))
            return US_SURVEY_FOOT if kind == "length" else US_SURVEY_FOOT**2
    return units[unit]


def _kind_word(kind: str) -> str:
    return {"area": tr("area"), "length": tr("length")}.get(kind, kind)


def _measure_result(ctx, gdf, layer: str, kind: str, base_values, unit: str | None, used: str) -> ToolResult:
    """The layer with <kind>_<unit> from per-feature values in metres (m²), and its total in the answer."""
    units, base, format_base = _MEASURES[kind]
    column = f"{kind}_{unit or base}"
    out = gdf.copy()
    out[column] = base_values / _unit_size(ctx, gdf, kind, unit or base, units)
    total_base = float(base_values.sum())
    total = float(out[column].sum())
    shown = _in_unit(total, unit) if unit else format_base(total_base)
    result = vector_result(
        ctx,
        out,
        f"{layer}_{kind}",
        tr("Measured the {kind} of '{layer}' in {crs} into {field}, total {total}").format(
            kind=_kind_word(kind), layer=layer, crs=used, field=column, total=shown
        ),
        len(gdf),
        **{f"total_{base}": total_base},
        total=total,
        unit=unit or base,
        measure_crs=used,
    )
    result.answer = tr("The total {kind} of '{layer}' is {total} ({n} features, measured in {crs}).").format(
        kind=_kind_word(kind), layer=layer, total=shown, n=len(out), crs=used
    )
    return result


@tool(
    ToolSpec(
        name="geometry_length",
        half="geojson",
        category="measure",
        paper_name="CalculateGeometryLength",
        purpose="Length of each line (perimeter of each polygon) in a field length_<unit>.",
        params=(LAYER, Param("unit", "enum", "Output unit", required=False, enum=tuple(LENGTH_UNITS))),
        returns="A new layer with length_<unit>; the total in the answer.",
        keywords=("length", "how long", "perimeter", "kilometres of road"),
    )
)
def geometry_length(ctx: RunContext, layer: str, unit: str | None = None) -> ToolResult:
    gdf = checked_layer(ctx, layer, expect=("line", "polygon"))
    if spans_zones(gdf):
        # A world-wide layer: each feature is measured in its own UTM zone.
        lengths = apply_per_zone(gdf, lambda part: part.assign(length_m=part.geometry.length.to_numpy()), ctx)
        metres = lengths["length_m"].reindex(gdf.index).to_numpy()  # geometries stay exactly as given
        used = "the UTM zone of each feature"
    else:
        geoms, factor, used = _measured(ctx, gdf, "distance")
        metres = geoms.length.to_numpy() * factor
    return _measure_result(ctx, gdf, layer, "length", metres, unit, used)


@tool(
    ToolSpec(
        name="geometry_area",
        half="geojson",
        category="measure",
        paper_name=None,
        purpose="Area of each polygon (equal-area CRS when in degrees) in a field area_<unit>.",
        params=(LAYER, Param("unit", "enum", "Output unit", required=False, enum=tuple(AREA_UNITS))),
        returns="A new layer with area_<unit>; the total in the answer.",
        keywords=("area", "how big", "size", "square kilometres", "hectares"),
    )
)
def geometry_area(ctx: RunContext, layer: str, unit: str | None = None) -> ToolResult:
    gdf = checked_layer(ctx, layer, expect="polygon")
    geoms, factor, used = _measured(ctx, gdf, "area")
    return _measure_result(ctx, gdf, layer, "area", geoms.area.to_numpy() * factor**2, unit, used)


@tool(
    ToolSpec(
        name="add_xy",
        half="geojson",
        category="measure",
        paper_name="AddXYCoordinates",
        purpose="Add x and y fields with each point's coordinates (optionally in another CRS).",
        params=(LAYER, Param("crs", "crs", "CRS of the coordinates (default: the layer's)", required=False)),
        returns="A new point layer with x and y fields.",
        equivalent="qgis_add_xy_fields",
        keywords=("coordinates", "add x y", "latitude longitude fields"),
    )
)
def add_xy(ctx: RunContext, layer: str, crs: str | None = None) -> ToolResult:
    gdf = checked_layer(ctx, layer, expect="point")
    points = gdf.geometry
    used = crs_label(gdf.crs)
    if crs:
        if gdf.crs is None:
            raise ValidationError(
                f"Layer '{layer}' has no CRS, so its points cannot be converted to {crs}.",
                fix="Assign its CRS first (reproject with assign=true).",
            )
        points = points.to_crs(crs)
        used = crs_label(points.crs)
    if (points.geom_type == "MultiPoint").any():
        ctx.note(tr("Multi-point features got the coordinates of their centroid."))
        points = points.centroid
    out = gdf.copy()
    for name in ("x", "y"):
        if name in out.columns:
            ctx.note(tr("Field '{field}' existed and was overwritten.").format(field=name))
    out["x"], out["y"] = points.x.to_numpy(), points.y.to_numpy()
    said = tr("Added x/y fields in {crs} to '{layer}'").format(crs=used, layer=layer)
    return vector_result(ctx, out, f"{layer}_xy", said, len(gdf))


@tool(
    ToolSpec(
        name="count_features",
        half="geojson",
        category="measure",
        paper_name="CountTheQuantityOfSpatialFeatures",
        purpose="Count features, in total or per value of a field.",
        params=(LAYER, Param("by", "field", "Count per value of this field", required=False, of_layer="layer")),
        returns="The count (answer); with by, a table of counts.",
        keywords=("how many", "count", "number of"),
    )
)
def count_features(ctx: RunContext, layer: str, by: str | None = None) -> ToolResult:
    gdf = ctx.gdf(layer)
    if by is None:
        n = len(gdf)
        answer = (tr("Layer '{layer}' has 1 feature.") if n == 1 else tr("Layer '{layer}' has {n} features.")).format(
            layer=layer, n=n
        )
        return ToolResult(summary=answer, answer=answer, values={"count": n})
    counts = gdf[by].value_counts(dropna=False).rename_axis(by).reset_index(name="count")
    out = ctx.save_table(counts, f"{layer}_count_by_{by}")
    top = ", ".join(f"{k}: {v}" for k, v in zip(counts[by].head(5), counts["count"].head(5)))
    more = ", ..." if len(counts) > 5 else ""
    summary = tr("Counted {n} features of '{layer}' in {groups} groups of {field} ({values}).").format(
        n=len(gdf), layer=layer, groups=len(counts), field=by, values=top + more
    )
    return ToolResult(summary=summary, outputs=[out], values={"count": len(gdf), "groups": len(counts)})


@tool(
    ToolSpec(
        name="count_points_in_polygons",
        half="geojson",
        category="measure",
        paper_name="CountTheQuantityOfSpatialFeatures",
        purpose="Count the points inside each polygon (spatial index).",
        params=(
            Param("polygons", "layer", "Polygon layer"),
            Param("points", "layer", "Point layer"),
            Param("field_name", "string", "Name of the count field", required=False, default="count"),
        ),
        returns="A new polygon layer with the count field.",
        equivalent="qgis_count_points_in_polygon",
        keywords=("how many in each", "points per polygon", "count within"),
    )
)
def count_points_in_polygons(ctx: RunContext, polygons: str, points: str, field_name: str = "count") -> ToolResult:
    import numpy as np
    import shapely

    polys = checked_layer(ctx, polygons, expect="polygon", repair=False)
    pts = aligned(ctx, polys, checked_layer(ctx, points, expect="point", repair=False), polygons, points)
    point_geoms = np.asarray(pts.geometry.array)

    def count(polys):
        # the STRtree query gpd.sjoin runs, without building the joined frame: only positions are needed
        tree = shapely.STRtree(np.asarray(polys.geometry.array))
        point_pos, poly_pos = tree.query(point_geoms, predicate="intersects")
        return polys, point_pos, poly_pos

    polys, point_pos, poly_pos = run_validated(ctx, count, (polys, polygons))
    out = polys.copy()
    if field_name in out.columns:  # never replace a field of the user's layer: take the next free name
        asked, field_name = field_name, free_field_name(field_name, out.columns)
        ctx.note(
            tr("'{layer}' already has a field '{field}'; the counts are in the new field '{new}'.").format(
                layer=polygons, field=asked, new=field_name
            )
        )
    out[field_name] = np.bincount(poly_pos, minlength=len(polys)).astype("int64")
    inside = int(np.unique(point_pos).size)
    if not inside:
        note_if_disjoint(ctx, polys, pts, polygons, points, "every count is 0")
    result = vector_result(
        ctx,
        out,
        f"{polygons}_{field_name}",
        tr("Counted {inside} of {n} points of '{points}' in the polygons of '{polygons}'").format(
            inside=inside, n=len(pts), points=points, polygons=polygons
        ),
        len(polys),
        points_inside=inside,
    )
    result.answer = tr("{inside} of {n} points of '{points}' fall inside the {m} polygons of '{polygons}'.").format(
        inside=inside, n=len(pts), points=points, m=len(polys), polygons=polygons
    )
    return result


def free_field_name(name: str, taken) -> str:
    """`name`, or `name_1`, `name_2`, ... the first one not in `taken` (compared case-insensitively)."""
    lower = {str(t).lower() for t in taken}
    candidate, i = name, 0
    while candidate.lower() in lower:
        i += 1
        candidate = f"{name}_{i}"
    return candidate


@tool(
    ToolSpec(
        name="group_by",
        half="geojson",
        category="measure",
        paper_name="GroupByOneGeoDataFrames",
        purpose="Group features by fields and aggregate a field.",
        params=(
            LAYER,
            Param("by", "fields", "Fields to group by", of_layer="layer"),
            Param("field", "field", "Field to aggregate", required=False, of_layer="layer"),
            Param("agg", "enum", "Aggregation", required=False, default="count", enum=AGGREGATIONS),
        ),
        returns="A table, one row per group.",
        equivalent="qgis_statistics_by_categories",
        examples=({"layer": "houses", "by": ["district"], "field": "price", "agg": "mean"},),
        keywords=("group by", "per", "statistics by category", "average per", "total per"),
    )
)
def group_by(ctx: RunContext, layer: str, by: list, field: str | None = None, agg: str = "count") -> ToolResult:
    import pandas as pd

    if not by:
        raise ValidationError("group_by needs at least one field in by.")
    if agg != "count" and field is None:
        raise ValidationError(f"The aggregation '{agg}' needs a field to aggregate.", fix="Give field, like price.")
    if ctx.is_table(layer):  # a table without geometry groups as well as a layer's attributes
        data = read_table(ctx, layer)
        if not len(data):
            raise ToolError(f"Table '{layer}' is empty (0 rows).", fix="Choose a table that has rows.")
    else:
        gdf = checked_layer(ctx, layer, repair=False)
        data = pd.DataFrame(gdf.drop(columns=gdf.geometry.name))
    n_in = len(data)
    grouped = data.groupby(list(by), dropna=False, sort=True)
    table = grouped.size().rename("count").to_frame()
    column = None
    if agg != "count":
        if agg not in ("min", "max"):
            refuse_codes(data[field], field, agg)  # zero-padded codes (01003) are never added up
        values = pd.to_numeric(data[field], errors="coerce")
        if values.notna().sum() == 0:
            raise ValidationError(
                f"Field '{field}' has no numbers, so {agg} cannot be computed.",
                fix="Use agg=count, or a numeric field.",
            )
        if is_text(data[field]):
            text = tr("'{field}' is a text field; its values were read as numbers (others left out).")
            ctx.note(text.format(field=field))
        column = f"{field}_{agg}"
        table[column] = values.groupby([data[b] for b in by], dropna=False, sort=True).agg(agg)
    table = table.reset_index()
    out = ctx.save_table(table, f"{layer}_by_{'_'.join(by)}")
    shown = column or "count"
    head = ", ".join(
        f"{' / '.join(map(str, row[: len(by)]))}: {_short(row[-1])}"
        for row in table[list(by) + [shown]].head(5).itertuples(index=False)
    )
    of = tr("{agg} of {field}").format(agg=agg, field=field) if column else agg
    template = (
        tr("Grouped {n} rows of '{layer}' by {fields} into {groups} groups, {what} ({values}).")
        if ctx.is_table(layer)
        else tr("Grouped {n} features of '{layer}' by {fields} into {groups} groups, {what} ({values}).")
    )
    summary = template.format(
        n=n_in, layer=layer, fields=", ".join(by), groups=len(table), what=of,
        values=head + (", ..." if len(table) > 5 else ""),
    )
    return ToolResult(summary=summary, outputs=[out], values={"groups": len(table)})


def _short(value) -> str:
    return plain_number(value)


@tool(
    ToolSpec(
        name="join_table",
        half="geojson",
        category="measure",
        paper_name="MergeDataFrameToGeoDataFrame",
        purpose="Join a table's attributes to a layer by a common key field.",
        params=(
            LAYER,
            Param("field", "field", "Key field of the layer", of_layer="layer"),
            Param("table", "layer", "Table (CSV or layer) to join"),
            Param("table_field", "string", "Key field of the table"),
        ),
        returns="A new layer with the table's fields (first match per key).",
        equivalent="qgis_join_by_field",
        keywords=("join table", "merge", "attribute join", "vlookup"),
    )
)
def join_table(ctx: RunContext, layer: str, field: str, table: str, table_field: str) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    tab = read_table(ctx, table)
    if table_field not in tab.columns:
        columns = [str(c) for c in tab.columns]
        raise ValidationError(
            f"Table '{table}' has no field '{table_field}'.",
            fix=did_you_mean(table_field, columns, "Fields: " + ", ".join(columns)),
        )
    left_key, right_key = _join_keys(gdf[field], tab[table_field])
    extra = tab.drop(columns=[table_field]).assign(_join_key=right_key.to_numpy())
    duplicates = int(extra["_join_key"].duplicated().sum())
    if duplicates:
        ctx.note(f"{duplicates} rows of '{table}' repeat a key; the first row per key was used.")
        extra = extra.drop_duplicates("_join_key")
    out = gdf.assign(_join_key=left_key.to_numpy()).merge(extra, on="_join_key", how="left", suffixes=("", "_table"))
    out.index = gdf.index
    hits = left_key.isin(extra["_join_key"].dropna())
    matched = int(hits.sum())
    out = out.drop(columns="_join_key")
    unused = extra["_join_key"].dropna()
    unused = unused[~unused.isin(left_key.dropna())]
    if matched < len(gdf):
        ctx.note(f"{len(gdf) - matched} feature{'s' if len(gdf) - matched != 1 else ''} of '{layer}' found no row "
                 f"in '{table}' ({field}: {_keys(gdf[field][~hits.to_numpy()])}); their table fields are empty.")
    if len(unused):
        ctx.note(f"{len(unused)} row{'s' if len(unused) != 1 else ''} of '{table}' matched no feature "
                 f"({table_field}: {_keys(unused)}).")
    return vector_result(
        ctx,
        out,
        f"{layer}_{table}",
        f"Joined '{table}' to '{layer}' on {field} = {table_field}: {matched} of {len(gdf)} features matched",
        len(gdf),
        matched=matched,
        unmatched_features=len(gdf) - matched,
        unmatched_rows=len(unused),
    )


def _keys(values, shown: int = 5) -> str:
    """The first few key values, as the user wrote them ('7, 12, 15, … (9 in all)')."""
    items = [plain_number(v) if isinstance(v, numbers.Number) else str(v) for v in list(values)[:shown]]
    return ", ".join(items) + (f", … ({len(values)} in all)" if len(values) > shown else "")


def _join_keys(left, right):
    """Keys that match across types: a number field meets text that reads as numbers as numbers ('7' = 7);
    two text fields compare as trimmed text, so codes keep their leading zeros ('007' is not '7')."""
    import pandas as pd

    numbers = [pd.to_numeric(s, errors="coerce") for s in (left, right)]
    one_numeric = any(pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s) for s in (left, right))
    if one_numeric and all(n.notna().sum() == s.notna().sum() for n, s in zip(numbers, (left, right))):
        return numbers[0].astype("float64"), numbers[1].astype("float64")
    return left.astype("string").str.strip(), right.astype("string").str.strip()
