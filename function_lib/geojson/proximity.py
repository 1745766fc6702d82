"""GeoPandas proximity tools: buffers, distances and nearest neighbours, measured in metres."""

from __future__ import annotations

import numpy as np

from ...errors import ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult
from ..io import crs_label
from ..metric import apply_per_zone, metric_crs, spans_zones
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vanished_note, vector_result, zero_buffer_error
from .overlay_ops import load_layer, second_layer, table_result

TOOLS, tool = tool_list()

MAX_MATRIX_PAIRS = 1_000_000
QUAD_SEGS = 16  # segments per quarter circle, as GeoSeries.buffer


# -- helpers shared with shapes.py ----------------------------------------------------------------
def metric_arrays(ctx: RunContext, gdf, *others):
    """The metric CRS for `gdf` and the geometry arrays of `gdf` and `others` in it."""
    crs = metric_crs(gdf, ctx, "distance")
    same = gdf.crs is not None and crs.equals(gdf.crs)
    arrays = [np.asarray((g if same else g.to_crs(crs)).geometry.array) for g in (gdf, *others)]
    return crs, arrays


def back_to(geoms, from_crs, to_crs):
    """Geometries computed in `from_crs` as an array in `to_crs` (no copy when they are the same)."""
    import geopandas as gpd

    if to_crs is None or from_crs.equals(to_crs):
        return np.asarray(geoms)
    return np.asarray(gpd.GeoSeries(geoms, crs=from_crs).to_crs(to_crs).array)


def buffered(geoms, radii):
    """shapely.buffer(geoms, radii); single points take a translated, scaled copy of one GEOS circle (the same
    vertices, several times faster than buffering each point)."""
    import shapely

    radii = np.broadcast_to(np.asarray(radii, dtype=float), (len(geoms),))
    if not len(geoms) or not _all_points(geoms) or (radii <= 0).any() or shapely.has_z(geoms).any():
        return shapely.buffer(geoms, radii, quad_segs=QUAD_SEGS)
    circle = shapely.get_coordinates(shapely.buffer(shapely.Point(0.0, 0.0), 1.0, quad_segs=QUAD_SEGS).exterior)
    xy = shapely.get_coordinates(geoms)
    return shapely.polygons(xy[:, None, :] + radii[:, None, None] * circle[None, :, :])


def _all_points(geoms) -> bool:
    import shapely

    return bool((shapely.get_type_id(geoms) == 0).all())


def nearest(src, dst=None):
    """For each geometry of `src`, the index of the nearest one in `dst` (in `src` but itself when None) and
    the distance. Points use a k-d tree; other geometries a Shapely STRtree."""
    import shapely

    same = dst is None
    target = src if same else dst
    if same and len(src) < 2:
        raise ValidationError("Nearest neighbours need at least two features.", fix="Use a layer with more features.")
    if _all_points(src) and _all_points(target):
        return _kd_nearest(shapely.get_coordinates(src), shapely.get_coordinates(target), same)
    tree = shapely.STRtree(target)
    (i_src, i_dst), dist = tree.query_nearest(src, return_distance=True, all_matches=False, exclusive=same)
    idx = np.full(len(src), -1)
    d = np.full(len(src), np.nan)
    idx[i_src], d[i_src] = i_dst, dist
    return idx, d


def _kd_nearest(xy, txy, same: bool):
    from scipy.spatial import cKDTree

    if not same:
        dist, idx = cKDTree(txy).query(xy, k=1)
        return idx, dist
    dist, idx = cKDTree(txy).query(xy, k=2)
    # with duplicate points the tree may list the twin first; never return the point itself
    return np.where(idx[:, 1] == np.arange(len(xy)), idx[:, 0], idx[:, 1]), dist[:, 1]


# -- world-wide point layers: geodesic distances, since no single projection keeps metres everywhere --------
GEODESIC = "geodesic distances on the WGS84 ellipsoid"


def _world_points(gdf, other=None) -> bool:
    layers = [g for g in (gdf, other) if g is not None]
    return any(spans_zones(g) for g in layers) and all(_all_points(np.asarray(g.geometry.array)) for g in layers)


def _lonlat(gdf):
    import shapely

    return shapely.get_coordinates(np.asarray(gdf.geometry.to_crs(4326).array))


def _geodesic(a, b):
    from pyproj import Geod

    return np.asarray(Geod(ellps="WGS84").inv(a[:, 0], a[:, 1], b[:, 0], b[:, 1])[2])


def _unit_xyz(lonlat):
    lon, lat = np.radians(lonlat[:, 0]), np.radians(lonlat[:, 1])
    return np.column_stack([np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)])


def nearest_in(ctx: RunContext, gdf, other=None):
    """Per feature of `gdf`: index of the nearest feature of `other` (of `gdf` but itself when None), the distance in
    metres, how it was measured, and (crs, arrays) of the metric CRS used (None for geodesic distances)."""
    if _world_points(gdf, other):
        src = _lonlat(gdf)
        dst = src if other is None else _lonlat(other)
        if other is None and len(src) < 2:
            raise ValidationError("Nearest neighbours need at least two features.", fix="Use more features.")
        idx, _ = _kd_nearest(_unit_xyz(src), _unit_xyz(dst), other is None)  # chord order = great-circle order
        return idx, _geodesic(src, dst[idx]), GEODESIC, None
    crs, arrays = metric_arrays(ctx, gdf, *([other] if other is not None else []))
    idx, dist = nearest(arrays[0], arrays[1] if other is not None else None)
    return idx, dist, crs_label(crs), (crs, arrays)


def _links(gdf, target, idx, metric, rows=slice(None)):
    """Shortest lines from features of gdf (rows) to their nearest target features, in gdf's CRS."""
    import shapely

    if metric is None:  # geodesic points: a straight segment between the two points
        return shapely.shortest_line(np.asarray(gdf.geometry.array)[rows], np.asarray(target.geometry.array)[idx])
    crs, arrays = metric
    return back_to(shapely.shortest_line(arrays[0][rows], arrays[-1][idx]), crs, gdf.crs)


def _distance_param(description):
    return Param("distance", "distance", description)


def _target_param(description="Other layer (default: the same layer)"):
    return Param("target", "layer", description, required=False)


# -- tools ------------------------------------------------------------------------------------------
@tool(
    ToolSpec(
        name="buffer",
        half="geojson",
        category="proximity",
        purpose="Buffer features by a distance in metres; several rings for a multi-ring buffer.",
        params=(
            LAYER,
            _distance_param("Buffer distance (ring width when rings > 1)"),
            Param("rings", "integer", "Number of rings", required=False, default=1, minimum=1, maximum=100),
            Param("dissolve", "boolean", "Merge overlapping buffers", required=False, default=False),
        ),
        returns="polygon layer; multi-ring buffers add ring and distance fields",
        examples=({"layer": "schools", "distance": 500, "rings": 3},),
        paper_name="CreateMultiRingBufferFromGeoDataFrame",
        equivalent="qgis_buffer",
        keywords=("around", "zone", "within", "rings"),
    )
)
def buffer(ctx: RunContext, layer: str, distance: float, rings: int = 1, dissolve: bool = False) -> ToolResult:
    import geopandas as gpd
    import shapely

    gdf = load_layer(ctx, layer)
    type_ids = shapely.get_type_id(np.asarray(gdf.geometry.array))
    polygonal = np.isin(type_ids, [3, 6])
    if distance == 0 and not polygonal[type_ids >= 0].all():
        raise zero_buffer_error("points or lines")
    if distance == 0 or (distance < 0 and rings > 1):
        raise ValidationError(f"Buffer distance must be positive, got {distance} m.", fix="Give a distance above 0.")
    if distance < 0 and not polygonal[type_ids >= 0].all():
        raise ValidationError("A negative buffer needs a polygon layer.", fix="Use a positive distance.")
    radii = distance * np.arange(1, rings + 1)
    if spans_zones(gdf):
        # world-wide layer: every feature is buffered in its own UTM zone, so 1 km is 1 km everywhere
        used = "the UTM zone of each feature"
        discs = np.stack([np.asarray(apply_per_zone(gdf, lambda part, r=r: part.set_geometry(
            buffered(np.asarray(part.geometry.array), r), crs=part.crs), ctx).geometry.array) for r in radii])
    else:
        crs, (geoms,) = metric_arrays(ctx, gdf)
        used = crs_label(crs)
        discs = buffered(np.tile(geoms, rings), np.repeat(radii, len(geoms))).reshape(rings, len(geoms))
        discs = back_to(discs.ravel(), crs, gdf.crs).reshape(rings, len(geoms))
    if dissolve:
        discs = shapely.union_all(discs, axis=1)[:, None]
    donuts = discs.copy()
    donuts[1:] = shapely.difference(discs[1:], discs[:-1])
    if dissolve:
        out = gpd.GeoDataFrame({"distance": radii}, geometry=donuts.ravel(), crs=gdf.crs)
    elif rings == 1:
        out = gdf.set_geometry(donuts[0], crs=gdf.crs)
    else:
        attrs = gdf.drop(columns=gdf.geometry.name)
        data = {c: np.tile(attrs[c].to_numpy(), rings) for c in attrs.columns}
        data["distance"] = np.repeat(radii, len(gdf))
        out = gpd.GeoDataFrame(data, geometry=donuts.ravel(), crs=gdf.crs)
    if rings > 1:
        out.insert(len(out.columns) - 2, "ring", np.repeat(np.arange(1, rings + 1), len(out) // rings))
    if distance < 0:
        vanished = int((polygonal & ~shapely.is_empty(np.asarray(gdf.geometry.array)) & shapely.is_empty(
            np.asarray(out.geometry.array))).sum())
        if vanished:
            ctx.note(vanished_note(vanished, int(polygonal.sum()), distance))
    what = tr("Buffered '{layer}' by {distance} m").format(layer=layer, distance=f"{distance:g}")
    what += tr(" in {n} rings").format(n=rings) if rings > 1 else ""
    what += (tr(", dissolved") if dissolve else "") + tr(" (measured in {crs})").format(crs=used)
    return vector_result(ctx, out, f"{layer}_buffer", what, len(gdf), measured_in=used)


@tool(
    ToolSpec(
        name="within_distance",
        half="geojson",
        category="proximity",
        purpose="Select the features that lie within a distance (metres) of another layer, or farther away.",
        params=(
            LAYER,
            Param("reference", "layer", "Layer to measure from"),
            _distance_param("Maximum distance"),
            Param("outside", "boolean", "Keep the features farther than the distance instead", required=False,
                  default=False),
        ),
        returns="layer with the matching features and their attributes",
        equivalent="qgis_extract_within_distance",
        keywords=("near", "close to", "less than"),
    )
)
def within_distance(ctx: RunContext, layer: str, reference: str, distance: float, outside: bool = False) -> ToolResult:
    import shapely

    if distance < 0:
        raise ValidationError(f"Distance must not be negative, got {distance} m.", fix="Give a distance of 0 or more.")
    gdf = load_layer(ctx, layer)
    ref = second_layer(ctx, gdf, reference, first_name=layer)
    crs, (geoms, ref_geoms) = metric_arrays(ctx, gdf, ref)
    hits = np.unique(shapely.STRtree(ref_geoms).query(geoms, predicate="dwithin", distance=distance)[0])
    if outside:
        far = np.ones(len(gdf), dtype=bool)
        far[hits] = False
        out = gdf.iloc[np.flatnonzero(far)]
        what = tr("Selected features of '{layer}' farther than {distance} m from '{reference}'").format(
            layer=layer, distance=f"{distance:g}", reference=reference
        )
        name = f"{layer}_beyond_{distance:g}m"
    else:
        out = gdf.iloc[hits]
        what = tr("Selected features of '{layer}' within {distance} m of '{reference}'").format(
            layer=layer, distance=f"{distance:g}", reference=reference
        )
        name = f"{layer}_within_{distance:g}m"
    what += tr(" (measured in {crs})").format(crs=crs_label(crs))
    return vector_result(ctx, out, name, what, len(gdf), measured_in=crs_label(crs))


@tool(
    ToolSpec(
        name="distance_matrix",
        half="geojson",
        category="proximity",
        purpose="Distances in metres between every pair of features (of one layer or two layers).",
        params=(LAYER, _target_param()),
        returns="table from_index, to_index, distance_m",
        paper_name="CalculateDistanceBetweenPoints",
        equivalent="qgis_distance_matrix",
        keywords=("pairwise", "distance between"),
    )
)
def distance_matrix(ctx: RunContext, layer: str, target: str | None = None) -> ToolResult:
    import pandas as pd
    import shapely

    gdf = load_layer(ctx, layer)
    other = second_layer(ctx, gdf, target, first_name=layer) if target else gdf
    pairs = len(gdf) * len(other)
    if pairs > MAX_MATRIX_PAIRS:
        raise ValidationError(
            f"A distance matrix of {len(gdf)} × {len(other)} features has {pairs:,} pairs, too many.",
            fix="Use nearest_distance_summary or join_nearest, or select fewer features first.",
        )
    i, j = np.meshgrid(np.arange(len(gdf)), np.arange(len(other)), indexing="ij")
    if _world_points(gdf, other):
        used = GEODESIC
        dist = _geodesic(_lonlat(gdf)[i.ravel()], _lonlat(other)[j.ravel()]).reshape(i.shape)
    else:
        crs, (geoms, tgeoms) = metric_arrays(ctx, gdf, other)
        used = crs_label(crs)
        if _all_points(geoms) and _all_points(tgeoms):
            from scipy.spatial.distance import cdist

            dist = cdist(shapely.get_coordinates(geoms), shapely.get_coordinates(tgeoms))
        else:
            dist = shapely.distance(geoms[:, None], tgeoms[None, :])
    keep = (i != j) if target is None else np.ones_like(i, dtype=bool)
    table = pd.DataFrame({"from_index": gdf.index.to_numpy()[i[keep]], "to_index": other.index.to_numpy()[j[keep]],
                          "distance_m": dist[keep]})
    what = f"Distance matrix of '{layer}'" + (f" to '{target}'" if target else "")
    span = f"{table.distance_m.min():.1f}–{table.distance_m.max():.1f} m"
    what += f": {len(table)} pairs, {span} ({used if used == GEODESIC else 'measured in ' + used})."
    return table_result(ctx, table, f"{layer}_distance_matrix", what, measured_in=used)


@tool(
    ToolSpec(
        name="nearest_distance_summary",
        half="geojson",
        category="proximity",
        purpose="Nearest-neighbour distance of each feature and a summary (mean, min, max; per group).",
        params=(LAYER, _target_param(), Param("by", "field", "Group field", required=False, of_layer="layer")),
        returns="layer with nn_distance and nn_index, and a summary table",
        paper_name="SummarizeNearestDistances",
        keywords=("nearest neighbour", "average distance", "clark evans"),
    )
)
def nearest_distance_summary(ctx: RunContext, layer: str, target: str | None = None, by: str | None = None):
    import pandas as pd
    import shapely

    gdf = load_layer(ctx, layer)
    other = second_layer(ctx, gdf, target, first_name=layer) if target else None
    idx, dist, used, metric = nearest_in(ctx, gdf, other)
    out = gdf.copy()
    out["nn_index"] = (other if other is not None else gdf).index.to_numpy()[idx]
    out["nn_distance"] = dist
    stats = ["count", "mean", "min", "median", "max", "std"]
    if by:
        table = out.groupby(by, dropna=False)["nn_distance"].agg(stats).reset_index()
    else:
        table = pd.DataFrame([out["nn_distance"].agg(stats)])
    answer = tr("mean nearest distance {mean} m (min {min}, max {max})").format(
        mean=f"{dist.mean():.1f}", min=f"{dist.min():.1f}", max=f"{dist.max():.1f}"
    )
    values = {"mean_m": float(dist.mean()), "min_m": float(dist.min()), "max_m": float(dist.max())}
    if other is None and metric is not None and _all_points(metric[1][0]) and len(gdf) >= 3:
        area = shapely.area(shapely.convex_hull(shapely.multipoints(metric[1][0])))
        if area > 0:
            values["clark_evans_r"] = float(dist.mean() / (0.5 * np.sqrt(area / len(gdf))))
            r = f"{values['clark_evans_r']:.2f}"
            answer += tr("; Clark-Evans R = {r} (<1 clustered, >1 dispersed)").format(r=r)
    what = tr("Nearest-neighbour distances of '{layer}'").format(layer=layer)
    what += tr(" to '{target}'").format(target=target) if target else ""
    what += f": {answer}" + tr(" (measured in {crs})").format(crs=used)
    result = vector_result(ctx, out, f"{layer}_nearest", what, len(gdf), measured_in=used, **values)
    result.outputs.append(ctx.save_table(table, f"{layer}_nearest_summary"))
    result.answer = answer
    return result


@tool(
    ToolSpec(
        name="join_nearest",
        half="geojson",
        category="proximity",
        purpose="Connect each feature to its nearest neighbour (same layer or a target layer) with a line.",
        params=(LAYER, _target_param()),
        returns="line layer with the source attributes, nearest_index, the target's attributes (prefixed nearest_ "
        "where a source field has the name) and distance",
        paper_name="JoinNearestPoints",
        keywords=("closest", "nearest neighbour", "connect"),
    )
)
def join_nearest(ctx: RunContext, layer: str, target: str | None = None) -> ToolResult:
    gdf = load_layer(ctx, layer)
    other = second_layer(ctx, gdf, target, first_name=layer) if target else None
    idx, dist, used, metric = nearest_in(ctx, gdf, other)
    tgt = other if other is not None else gdf
    out = gdf.set_geometry(_links(gdf, tgt, idx, metric), crs=gdf.crs)
    out["nearest_index"] = tgt.index.to_numpy()[idx]
    if other is not None:  # the target's fields keep their names, as QGIS's join by nearest does; a name the
        for c in other.columns.drop(other.geometry.name):  # source has already gets a 'nearest_' prefix
            name = c if c not in out.columns else f"nearest_{c}"
            while name in out.columns:
                name = f"nearest_{name}"
            out[name] = other[c].to_numpy()[idx]
    out["distance"] = dist
    if target:
        what = tr("Joined each feature of '{layer}' to its nearest feature of '{target}'")
        what = what.format(layer=layer, target=target)
    else:
        what = tr("Joined each feature of '{layer}' to its nearest neighbour").format(layer=layer)
    what += tr(" (mean {mean} m, measured in {crs})").format(mean=f"{dist.mean():.1f}", crs=used)
    return vector_result(ctx, out, f"{layer}_nearest_lines", what, len(gdf), measured_in=used)


@tool(
    ToolSpec(
        name="connect_closest_pair",
        half="geojson",
        category="proximity",
        purpose="Find the two closest features of a layer and draw the line between them.",
        params=(LAYER,),
        returns="one line with from_index, to_index and distance",
        paper_name="CreateLineConnectingNearestPoints",
        keywords=("closest two", "shortest distance"),
    )
)
def connect_closest_pair(ctx: RunContext, layer: str) -> ToolResult:
    import geopandas as gpd

    gdf = load_layer(ctx, layer)
    idx, dist, used, metric = nearest_in(ctx, gdf)
    a = int(np.nanargmin(dist))
    b = int(idx[a])
    line = _links(gdf, gdf, idx[[a]], metric, rows=[a])
    ids = gdf.index.to_numpy()
    out = gpd.GeoDataFrame({"from_index": [ids[a]], "to_index": [ids[b]], "distance": [dist[a]]},
                           geometry=line, crs=gdf.crs)
    answer = tr("features {a} and {b} are closest, {distance} m apart").format(
        a=ids[a], b=ids[b], distance=f"{dist[a]:.1f}"
    )
    what = tr("Closest pair in '{layer}': {answer}").format(layer=layer, answer=answer)
    what += tr(" (measured in {crs})").format(crs=used)
    result = vector_result(ctx, out, f"{layer}_closest_pair", what, len(gdf), distance_m=float(dist[a]))
    result.answer = answer
    return result


def _lines_param():
    return Param("lines", "layer", "Line layer")


def _to_lines(ctx: RunContext, layer: str, lines: str):
    gdf = load_layer(ctx, layer, ("point",))
    line_gdf = second_layer(ctx, gdf, lines, ("line",), layer)
    crs, (points, line_geoms) = metric_arrays(ctx, gdf, line_gdf)
    idx, dist = nearest(points, line_geoms)
    return gdf, line_gdf, crs, points, line_geoms, idx, dist


@tool(
    ToolSpec(
        name="nearest_point_on_line",
        half="geojson",
        category="proximity",
        purpose="For each point, the nearest point on a line layer, with distance and X/Y.",
        params=(LAYER, _lines_param()),
        returns="point layer on the lines with the original attributes, line_index, distance, x, y",
        paper_name="nearest_point_on_line",
        keywords=("snap", "project onto line"),
    )
)
def nearest_point_on_line(ctx: RunContext, layer: str, lines: str) -> ToolResult:
    import shapely

    gdf, line_gdf, crs, points, line_geoms, idx, dist = _to_lines(ctx, layer, lines)
    on_line = shapely.get_point(shapely.shortest_line(points, line_geoms[idx]), 1)
    on_line = back_to(on_line, crs, gdf.crs)
    out = gdf.set_geometry(on_line, crs=gdf.crs)
    out["line_index"] = line_gdf.index.to_numpy()[idx]
    out["distance"] = dist
    out["x"], out["y"] = shapely.get_x(on_line), shapely.get_y(on_line)
    what = tr("Found the nearest point on '{lines}' for each point of '{layer}'").format(lines=lines, layer=layer)
    what += tr(" (measured in {crs})").format(crs=crs_label(crs))
    return vector_result(ctx, out, f"{layer}_on_{lines}", what, len(gdf), measured_in=crs_label(crs))


@tool(
    ToolSpec(
        name="perpendicular_distance",
        half="geojson",
        category="proximity",
        purpose="Perpendicular (shortest) distance in metres from each point to the nearest line.",
        params=(LAYER, _lines_param()),
        returns="the points with line_index and distance fields",
        paper_name="CalculatePerpendicularDistanceFromPointToLine",
        keywords=("distance to road", "offset"),
    )
)
def perpendicular_distance(ctx: RunContext, layer: str, lines: str) -> ToolResult:
    gdf, line_gdf, crs, points, line_geoms, idx, dist = _to_lines(ctx, layer, lines)
    out = gdf.copy()
    out["line_index"] = line_gdf.index.to_numpy()[idx]
    out["distance"] = dist
    what = tr("Distance from each point of '{layer}' to the nearest line of '{lines}': mean {mean} m").format(
        layer=layer, lines=lines, mean=f"{dist.mean():.1f}"
    )
    what += tr(" (measured in {crs})").format(crs=crs_label(crs))
    return vector_result(ctx, out, f"{layer}_distance_to_{lines}", what, len(gdf), measured_in=crs_label(crs),
                         mean_m=float(dist.mean()))
