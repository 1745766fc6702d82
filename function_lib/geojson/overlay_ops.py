"""GeoPandas overlay tools: clip, overlay, dissolve, split, lines and vertices (plus input checks)."""

from __future__ import annotations

import numpy as np

from ...errors import ToolError, ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult
from ..io import aligned, checked_layer, note_if_disjoint, run_validated
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vector_result
from .numbers import is_text, numeric_values

TOOLS, tool = tool_list()

DISSOLVE_AGGS = ("sum", "mean", "min", "max", "count", "first")
# Shapely type ids per geometry family (2 = LinearRing, counted as a line).
FAMILIES = {"point": {0, 4}, "line": {1, 2, 5}, "polygon": {3, 6}}


# -- input checks shared by the GEO-B modules (on top of io.checked_layer / io.aligned) ------------
def load_layer(ctx: RunContext, name: str, expect: tuple[str, ...] = (), repair: bool = True):
    """The named layer checked by io.checked_layer, with features lacking a geometry left out (and noted).

    repair=False leaves the validity test to io.run_validated, which runs it alongside the operation."""
    import shapely

    gdf = checked_layer(ctx, name, expect or None, repair=repair)
    geoms = np.asarray(gdf.geometry.array)
    missing = shapely.is_missing(geoms) | shapely.is_empty(geoms)
    if missing.all():
        raise ToolError(f"Layer '{name}' has no geometries.", fix="Choose a layer with geometries.")
    if missing.any():
        gdf = gdf[~missing]
        ctx.note(tr("Skipped {n} features of '{layer}' without geometry.").format(n=int(missing.sum()), layer=name))
    return gdf


def second_layer(ctx: RunContext, gdf, name: str, expect: tuple[str, ...] = (), first_name: str = "the layer",
                 repair: bool = True, near: bool = False):
    """A second input, checked like the first and reprojected to the first layer's CRS when needed.

    near=True keeps only the features around the first layer, picked before reprojecting: a world-wide layer
    cannot be projected into a local CRS as a whole. Features that do not project to finite coordinates are
    left out and noted."""
    import shapely

    other = load_layer(ctx, name, expect, repair)
    if gdf.crs is None or other.crs is None or gdf.crs.equals(other.crs):
        return aligned(ctx, gdf, other, first_name, name)
    if near:
        xmin, ymin, xmax, ymax = gdf.total_bounds
        pad = 0.01 * max(xmax - xmin, ymax - ymin) or 1e-6 * max(abs(xmin), abs(ymin), 1.0)  # never a flat frame
        frame = shapely.box(xmin - pad, ymin - pad, xmax + pad, ymax + pad)
        frame = shapely.segmentize(frame, (max(xmax - xmin, ymax - ymin) + 2 * pad) / 32)
        area = type(gdf.geometry)([frame], crs=gdf.crs).to_crs(other.crs).iloc[0]
        other = other.iloc[np.sort(shapely.STRtree(np.asarray(other.geometry.array)).query(area, "intersects"))]
        if len(other) == 0:
            raise ToolError(f"No feature of '{name}' lies in the area of '{first_name}'.",
                            fix="Check that the two layers cover the same place.")
    other = aligned(ctx, gdf, other, first_name, name)
    finite = np.isfinite(shapely.bounds(np.asarray(other.geometry.array))).all(axis=1)
    if not finite.all():
        ctx.note(
            tr(
                "Left out {n} features of '{layer}' that cannot be expressed in the CRS of '{other}' (too far from "
                "its area of use)."
            ).format(n=int((~finite).sum()), layer=name, other=first_name)
        )
        other = other[finite]
    if len(other) == 0:
        raise ToolError(f"No feature of '{name}' can be used in the CRS of '{first_name}'.",
                        fix=f"Reproject '{first_name}' to a CRS that covers both layers (EPSG:4326, say).")
    return other


def table_result(ctx: RunContext, df, name: str, summary: str, answer: str | None = None, **values) -> ToolResult:
    """Save a table result as CSV and build the summary with the run's notes."""
    out = ctx.save_table(df, name)
    text = summary + (" " + " ".join(ctx.notes) if ctx.notes else "")
    return ToolResult(summary=text, outputs=[out], answer=answer, values={"row_count": len(df), **values})


def _overlay_param(description="Layer to cut with (polygons)"):
    return Param("overlay", "layer", description)


# -- tools ------------------------------------------------------------------------------------------
@tool(
    ToolSpec(
        name="clip",
        half="geojson",
        category="overlay",
        purpose="Clip a layer to the polygons of another layer; keeps only the parts inside.",
        params=(LAYER, _overlay_param()),
        returns="layer with the clipped features and their attributes",
        paper_name="ClipGeoDataFrame",
        equivalent="qgis_clip",
        keywords=("cut", "crop", "inside", "mask"),
    )
)
def clip(ctx: RunContext, layer: str, overlay: str) -> ToolResult:
    gdf = load_layer(ctx, layer, repair=False)
    mask = second_layer(ctx, gdf, overlay, ("polygon",), layer, repair=False, near=True)
    out = run_validated(ctx, _clipped, (gdf, layer), (mask, overlay))
    if len(out) == 0:
        note_if_disjoint(ctx, gdf, mask, layer, overlay)
    said = tr("Clipped '{layer}' to '{overlay}'").format(layer=layer, overlay=overlay)
    return vector_result(ctx, out, f"{layer}_clipped", said, len(gdf))


def _clipped(gdf, mask):
    import geopandas as gpd
    import shapely

    region = shapely.union_all(np.asarray(mask.geometry.array))
    shapely.prepare(region)
    geoms = np.asarray(gdf.geometry.array)
    hit = np.sort(shapely.STRtree(geoms).query(region, predicate="intersects"))
    # features wholly inside the mask are kept as they are; only those crossing its edge are intersected
    inside = shapely.contains_properly(region, geoms[hit])
    edge = hit[~inside]
    cut = gpd.clip(gpd.GeoDataFrame(geometry=geoms[edge], crs=gdf.crs), region, keep_geom_type=True)
    rows = np.concatenate([hit[inside], edge[cut.index.to_numpy()]])
    parts = np.concatenate([geoms[hit[inside]], np.asarray(cut.geometry.array)])
    order = np.argsort(rows, kind="stable")
    return gdf.iloc[rows[order]].set_geometry(parts[order], crs=gdf.crs)


OVERLAY_HOWS = ("intersection", "union", "difference", "symmetric_difference", "identity")


@tool(
    ToolSpec(
        name="overlay",
        half="geojson",
        category="overlay",
        purpose="Overlay two polygon layers: intersection, union, difference, symmetric difference or identity.",
        params=(
            LAYER,
            _overlay_param("Second layer (polygons)"),
            Param("how", "enum", "Overlay operation", enum=OVERLAY_HOWS),
        ),
        returns="layer with the overlay pieces carrying the attributes of both inputs",
        examples=({"layer": "districts", "overlay": "flood_zones", "how": "difference"},),
        paper_name="OverlayAnalysis",
        keywords=("intersect", "erase", "combine"),
    )
)
def overlay(ctx: RunContext, layer: str, overlay: str, how: str) -> ToolResult:
    import geopandas as gpd

    expect = ("polygon",) if how in ("union", "symmetric_difference", "identity") else ("point", "line", "polygon")
    gdf = load_layer(ctx, layer, expect, repair=False)
    near = how in ("intersection", "difference", "identity")  # only the other layer's overlapping parts matter
    other = second_layer(ctx, gdf, overlay, ("polygon",), layer, repair=False, near=near)
    def pieces(a, b):
        return gpd.overlay(a, b, how=how, keep_geom_type=True)

    out = run_validated(ctx, pieces, (gdf, layer), (other, overlay))
    if how == "intersection" and len(out) == 0:
        note_if_disjoint(ctx, gdf, other, layer, overlay)
    what = f"{how.replace('_', ' ').capitalize()} of '{layer}' and '{overlay}'"
    return vector_result(ctx, out, f"{layer}_{how}", what, len(gdf))


@tool(
    ToolSpec(
        name="dissolve",
        half="geojson",
        category="overlay",
        purpose="Merge features into one per value of the given fields (or all into one).",
        params=(
            LAYER,
            Param("fields", "fields", "Fields to dissolve by", required=False, of_layer="layer"),
            Param("field", "field", "Field to aggregate per group", required=False, of_layer="layer"),
            Param("agg", "enum", "How to aggregate field", required=False, enum=DISSOLVE_AGGS),
        ),
        returns="layer with one merged feature per group, a feature count and field_agg",
        equivalent="qgis_dissolve",
        keywords=("merge", "union", "aggregate"),
    )
)
def dissolve(ctx: RunContext, layer: str, fields: list | None = None, field: str | None = None,
             agg: str | None = None) -> ToolResult:
    gdf = load_layer(ctx, layer, repair=False)
    by = list(fields) if fields else None
    if agg and not field:
        raise ValidationError(f"The aggregation '{agg}' needs a field to aggregate.", fix="Give field, like POP2020.")
    if field and not agg:
        # A numeric field alone means its sum; a text field (codes, names) is aggregated only when asked.
        agg = None if is_text(gdf[field]) else "sum"
        field = field if agg else None
    values = _agg_values(ctx, gdf, field, agg) if field else None
    out = run_validated(ctx, lambda g: _dissolved(g, by, values, agg), (gdf, layer))
    what, extra = dissolve_summary(ctx, out, layer, by, field, agg)
    return vector_result(ctx, out, f"{layer}_dissolved", what, len(gdf), **extra)


def dissolve_summary(ctx, out, layer: str, by: list, field: str | None, agg: str | None) -> tuple[str, dict]:
    """What a dissolve did, in words, and the result's extra values: one text for the in-memory tool and the dask
    engine's (function_lib/dask_engine/tools.py), whose summaries must read the same."""
    if by:
        what = tr("Dissolved '{layer}' by {fields}").format(layer=layer, fields=", ".join(by))
    else:
        what = tr("Dissolved all of '{layer}' into one feature").format(layer=layer)
    extra = {}
    if field:
        column = f"{field}_{agg}"
        shown = ", ".join(_group_value(out, by, column, k) for k in range(min(len(out), 5)))
        what += tr(", {agg} of {field} per group in {column} ({values})").format(
            agg=agg, field=field, column=column, values=shown + (", ..." if len(out) > 5 else "")
        )
        extra["aggregated"] = column
    elif by:
        ctx.note(tr("Other fields keep the first feature's value of each group (give field and agg to aggregate one)."))
    return what, extra


def _agg_values(ctx, gdf, field: str, agg: str):
    """The field to aggregate: numbers for sum/mean (text codes and words refused, numbers in text cast and
    noted), as given otherwise."""
    if agg in ("sum", "mean"):
        return numeric_values(gdf[field], field, agg, ctx.note)
    return gdf[field]


def _group_value(out, by, column: str, k: int) -> str:
    value = out[column].iloc[k]
    value = f"{value:,.6g}" if isinstance(value, (float, np.floating)) else str(value)
    label = " / ".join(str(out[b].iloc[k]) for b in by) if by else "all"
    return f"{label}: {value}"


def _dissolved(gdf, by, values=None, agg=None):
    import geopandas as gpd
    import pandas as pd

    if by:
        grouped = gdf.drop(columns=gdf.geometry.name).groupby(by, sort=True, dropna=False)
        codes = grouped.ngroup().to_numpy()
        first = grouped.first().reset_index()
        out = gpd.GeoDataFrame(first, geometry=merged(gdf, codes, len(first)), crs=gdf.crs)
    else:
        codes = np.zeros(len(gdf), dtype=np.intp)
        out = gpd.GeoDataFrame(geometry=merged(gdf, codes, 1), crs=gdf.crs)
    out["n_features"] = np.bincount(codes)
    if values is not None:
        column = f"{values.name}_{agg}"
        series = pd.Series(values.to_numpy(), index=codes)
        out[column] = series.groupby(level=0, sort=True).agg(agg).reindex(range(len(out))).to_numpy()
    return out


def _coverage_union(geoms):
    import shapely

    try:
        return shapely.coverage_union_all(geoms)
    except shapely.errors.GEOSException:  # not a coverage (overlaps, unmatched edges): the full union follows
        return None


def merged(gdf, codes, n_groups):
    """The union of each group's geometries. Polygons that form a coverage (no overlaps: districts, parcels, grids)
    take the fast coverage union, kept only where it is valid and keeps the total area (else a full union)."""
    import shapely

    geoms = np.asarray(gdf.geometry.array)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(n_groups + 1))
    groups = [geoms[order[bounds[k]:bounds[k + 1]]] for k in range(n_groups)]
    polygonal = np.isin(shapely.get_type_id(geoms), list(FAMILIES["polygon"])).all()
    if not polygonal:
        return np.asarray([shapely.union_all(g) for g in groups])
    fast = np.asarray([_coverage_union(g) for g in groups])
    area_in = np.bincount(codes, weights=shapely.area(geoms), minlength=n_groups)
    good = ~shapely.is_missing(fast)
    good[good] = shapely.is_valid(fast[good]) & np.isclose(shapely.area(fast[good]), area_in[good], rtol=1e-7, atol=0)
    for k in np.flatnonzero(~good):
        fast[k] = shapely.union_all(groups[k])
    return fast


@tool(
    ToolSpec(
        name="split_polygons_by_lines",
        half="geojson",
        category="overlay",
        purpose="Split polygons with the lines of another layer.",
        params=(LAYER, Param("lines", "layer", "Line layer to split with")),
        returns="polygon layer with one feature per piece and the original attributes",
        paper_name="SplitPolygonByLine",
        equivalent="qgis_split_with_lines",
        keywords=("cut", "divide"),
    )
)
def split_polygons_by_lines(ctx: RunContext, layer: str, lines: str) -> ToolResult:
    import geopandas as gpd
    import shapely

    gdf = load_layer(ctx, layer, ("polygon",))
    cutters = second_layer(ctx, gdf, lines, ("line",), layer, near=True)
    polys = np.asarray(gdf.geometry.array)
    line_geoms = np.asarray(cutters.geometry.array)
    line_idx, poly_idx = shapely.STRtree(polys).query(line_geoms, predicate="intersects")
    hit = np.unique(poly_idx)
    rows, pieces = [], []
    order = np.argsort(poly_idx, kind="stable")
    bounds = np.searchsorted(poly_idx[order], hit, side="left"), np.searchsorted(poly_idx[order], hit, side="right")
    # Polygonizing is per polygon (GEOS has no grouped polygonize); only polygons a line touches pay for it.
    for k, p in enumerate(hit):
        cut = line_geoms[line_idx[order[bounds[0][k]:bounds[1][k]]]]
        noded = shapely.union_all(np.concatenate([[shapely.boundary(polys[p])], cut]))
        parts = np.asarray(shapely.get_parts(shapely.polygonize(shapely.get_parts(noded))))
        inside = shapely.contains_properly(polys[p], shapely.point_on_surface(parts)) if len(parts) else []
        parts = parts[np.asarray(inside, dtype=bool)] if len(parts) else parts
        if len(parts) == 0:
            parts = np.asarray([polys[p]])
        pieces.append(parts)
        rows.append(np.full(len(parts), p))
    untouched = np.setdiff1d(np.arange(len(gdf)), hit)
    all_rows = np.concatenate(rows + [untouched]) if rows else untouched
    all_geoms = np.concatenate(pieces + [polys[untouched]]) if pieces else polys[untouched]
    order = np.argsort(all_rows, kind="stable")
    out = gpd.GeoDataFrame(gdf.iloc[all_rows[order]].reset_index(drop=True), geometry=all_geoms[order], crs=gdf.crs)
    said = tr("Split {n} polygons of '{layer}' with '{lines}'").format(n=len(hit), layer=layer, lines=lines)
    return vector_result(ctx, out, f"{layer}_split", said, len(gdf), split_polygons=int(len(hit)))


@tool(
    ToolSpec(
        name="to_lines",
        half="geojson",
        category="overlay",
        purpose="Convert polygons (or lines) to their boundary lines.",
        params=(LAYER,),
        returns="line layer with the original attributes",
        paper_name="FeatureToLine",
        equivalent="qgis_polygons_to_lines",
        keywords=("outline", "boundary", "polygons to lines"),
    )
)
def to_lines(ctx: RunContext, layer: str) -> ToolResult:
    import shapely

    gdf = load_layer(ctx, layer, ("polygon", "line"))
    geoms = np.asarray(gdf.geometry.array)
    poly = np.isin(shapely.get_type_id(geoms), list(FAMILIES["polygon"]))
    lines = geoms.copy()
    lines[poly] = shapely.boundary(geoms[poly])
    out = gdf.set_geometry(lines, crs=gdf.crs)
    return vector_result(ctx, out, f"{layer}_lines", tr("Converted '{layer}' to lines").format(layer=layer), len(gdf))


@tool(
    ToolSpec(
        name="lines_to_polygons",
        half="geojson",
        category="overlay",
        purpose="Convert closed lines (rings) to polygons; open lines are closed.",
        params=(LAYER,),
        returns="polygon layer with the original attributes",
        paper_name="FeatureToPolygon",
        equivalent="qgis_lines_to_polygons",
        keywords=("close", "rings to polygons"),
    )
)
def lines_to_polygons(ctx: RunContext, layer: str) -> ToolResult:
    import shapely

    gdf = load_layer(ctx, layer, ("line",))
    parts, part_of = shapely.get_parts(np.asarray(gdf.geometry.array), return_index=True)
    coords, coord_of = shapely.get_coordinates(parts, return_index=True)
    counts = np.bincount(coord_of, minlength=len(parts))
    closed_dup = shapely.is_closed(parts)  # a closed ring repeats its first point
    usable = (counts - closed_dup.astype(int)) >= 3
    keep_coord = usable[coord_of]
    rings = shapely.linearrings(coords[keep_coord], indices=np.unique(coord_of[keep_coord], return_inverse=True)[1])
    polys = shapely.polygons(rings)
    owner = part_of[usable]
    kept_rows = np.unique(owner)
    multi = shapely.multipolygons(polys, indices=np.searchsorted(kept_rows, owner))
    n_single = np.bincount(owner, minlength=len(gdf))[kept_rows] == 1
    first = np.searchsorted(owner, kept_rows)
    geoms = np.where(n_single, polys[first], multi)
    out = gdf.iloc[kept_rows].set_geometry(geoms, crs=gdf.crs)
    if len(kept_rows) < len(gdf):
        ctx.note(tr("Dropped {n} lines with fewer than 3 distinct vertices.").format(n=len(gdf) - len(kept_rows)))
    if len(out) == 0:
        raise ToolError(f"No line of '{layer}' can form a polygon.", fix="Lines need at least 3 vertices.")
    said = tr("Converted the lines of '{layer}' to polygons").format(layer=layer)
    return vector_result(ctx, out, f"{layer}_polygons", said, len(gdf))


@tool(
    ToolSpec(
        name="vertices_to_points",
        half="geojson",
        category="overlay",
        purpose="Turn every vertex of lines or polygons into a point.",
        params=(LAYER,),
        returns="point layer with the original attributes and vertex_index",
        paper_name="FeatureVerticesToPoints",
        equivalent="qgis_extract_vertices",
        keywords=("nodes", "vertices", "extract vertices"),
    )
)
def vertices_to_points(ctx: RunContext, layer: str) -> ToolResult:
    import geopandas as gpd
    import shapely

    gdf = load_layer(ctx, layer)
    coords, row = shapely.get_coordinates(np.asarray(gdf.geometry.array), return_index=True)
    starts = np.searchsorted(row, row, side="left")
    out = gpd.GeoDataFrame(gdf.drop(columns=gdf.geometry.name).iloc[row].reset_index(drop=True),
                           geometry=shapely.points(coords), crs=gdf.crs)
    out["vertex_index"] = np.arange(len(row)) - starts
    said = tr("Extracted the vertices of '{layer}'").format(layer=layer)
    return vector_result(ctx, out, f"{layer}_vertices", said, len(gdf))
