"""GeoPandas shape tools: centroids, Voronoi, bounding geometry, main direction, clusters, XY lines."""

from __future__ import annotations

import numpy as np

from ...errors import ToolError, ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult
from ..io import crs_label, read_table
from ..metric import apply_per_zone, metric_crs, spans_zones, to_metric
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vector_result
from .overlay_ops import load_layer
from .proximity import back_to, metric_arrays, nearest

TOOLS, tool = tool_list()


def _measure_crs(ctx: RunContext, gdf):
    """Geometries in a metric CRS when the layer has one (shapes in degrees are distorted), else as they are."""
    if gdf.crs is None:
        return None, np.asarray(gdf.geometry.array)
    crs, (geoms,) = metric_arrays(ctx, gdf)
    return crs, geoms


def _per_feature(ctx: RunContext, gdf, fn):
    """fn(frame in metres) -> the same rows with a new geometry and/or fields, run on the layer in a metric CRS (a
    world-wide layer zone by zone) and returned in the layer's CRS and row order; also how it was measured."""
    base = gdf[[gdf.geometry.name]].reset_index(drop=True)
    if gdf.crs is None:
        return fn(base), None
    out = apply_per_zone(base, fn, ctx).sort_index()
    return out, "the UTM zone of each feature" if spans_zones(gdf) else crs_label(metric_crs(gdf, ctx))


@tool(
    ToolSpec(
        name="centroids",
        half="geojson",
        category="geometry",
        purpose="Centre points: centroid or a point guaranteed inside, per feature or for the whole layer.",
        params=(
            LAYER,
            Param("method", "enum", "Kind of centre", required=False, default="centroid",
                  enum=("centroid", "representative_point")),
            Param("whole_layer", "boolean", "One centre for the whole layer", required=False, default=False),
        ),
        returns="point layer (original attributes per feature; one point with a count for the whole layer)",
        paper_name="CalculateGeometricCenter",
        equivalent="qgis_centroids",
        keywords=("center", "middle", "point on surface"),
    )
)
def centroids(ctx: RunContext, layer: str, method: str = "centroid", whole_layer: bool = False) -> ToolResult:
    import geopandas as gpd
    import shapely

    gdf = load_layer(ctx, layer)
    centre = shapely.centroid if method == "centroid" else shapely.point_on_surface
    if whole_layer:
        crs, geoms = _measure_crs(ctx, gdf)
        used = crs_label(crs) if crs is not None else None
        whole = shapely.geometrycollections(geoms) if method == "centroid" else shapely.union_all(geoms)
        points = back_to([centre(whole)], crs, gdf.crs) if crs is not None else [centre(whole)]
        out = gpd.GeoDataFrame({"n_features": [len(gdf)]}, geometry=points, crs=gdf.crs)
    else:
        res, used = _per_feature(ctx, gdf, lambda f: f.set_geometry(centre(np.asarray(f.geometry.array)), crs=f.crs))
        out = gdf.set_geometry(np.asarray(res.geometry.array), crs=gdf.crs)
    label = method.replace("_", " ")
    what = f"{label.capitalize()} of {'the whole layer' if whole_layer else 'each feature'} of '{layer}'"
    if used is not None:
        what += f" (computed in {used})"
    return vector_result(ctx, out, f"{layer}_{method}s", what, len(gdf))


@tool(
    ToolSpec(
        name="voronoi",
        half="geojson",
        category="geometry",
        purpose="Thiessen (Voronoi) polygons around points, carrying the point attributes.",
        params=(LAYER,),
        returns="polygon layer, one cell per distinct point, clipped to the points' extent plus 10%",
        paper_name="CreateThiessenPolygon",
        equivalent="qgis_voronoi",
        keywords=("thiessen", "catchment", "service areas"),
    )
)
def voronoi(ctx: RunContext, layer: str) -> ToolResult:
    import shapely

    gdf = load_layer(ctx, layer, ("point",))
    if not (shapely.get_type_id(np.asarray(gdf.geometry.array)) == 0).all():
        raise ValidationError("voronoi expects single points, but the layer has multipoints.",
                              fix="Explode the multipoints first.")
    # cells are drawn in a local metric CRS when the layer is in degrees (a world-wide layer stays in degrees)
    crs, geoms = (None, np.asarray(gdf.geometry.array)) if spans_zones(gdf) else _measure_crs(ctx, gdf)
    xy = shapely.get_coordinates(geoms)
    _, first = np.unique(xy, axis=0, return_index=True)
    first = np.sort(first)
    if len(first) < len(gdf):
        ctx.note(tr("Left out {n} duplicate points: one cell per distinct location.").format(n=len(gdf) - len(first)))
    if len(first) < 2:
        raise ToolError("Voronoi polygons need at least two distinct points.", fix="Use a layer with more points.")
    xmin, ymin, xmax, ymax = shapely.total_bounds(geoms)
    pad = 0.1 * max(xmax - xmin, ymax - ymin)
    frame = shapely.box(xmin - pad, ymin - pad, xmax + pad, ymax + pad)
    cells = shapely.get_parts(shapely.voronoi_polygons(shapely.multipoints(geoms[first]), extend_to=frame,
                                                       ordered=True))
    cells = shapely.intersection(cells, frame)
    out = gdf.iloc[first].set_geometry(back_to(cells, crs, gdf.crs) if crs is not None else cells, crs=gdf.crs)
    what = tr("Voronoi polygons of '{layer}'").format(layer=layer)
    what += tr(" (drawn in {crs})").format(crs=crs_label(crs)) if crs is not None else ""
    return vector_result(ctx, out, f"{layer}_voronoi", what, len(gdf))


SHAPES = ("rectangle", "convex_hull", "circle", "envelope")


@tool(
    ToolSpec(
        name="bounding_geometry",
        half="geojson",
        category="geometry",
        purpose="Minimum bounding shape of the layer or of each group: rectangle, convex hull, circle or envelope.",
        params=(
            LAYER,
            Param("shape", "enum", "rectangle = oriented minimum rectangle", required=False, default="convex_hull",
                  enum=SHAPES),
            Param("by", "field", "One shape per value of this field", required=False, of_layer="layer"),
        ),
        returns="polygon layer with the group value, n_features and area_m2",
        paper_name="CreateMinPointgroupBorder",
        equivalent="qgis_minimum_bounding_geometry",
        keywords=("hull", "extent", "enclosing", "border"),
    )
)
def bounding_geometry(ctx: RunContext, layer: str, shape: str = "convex_hull", by: str | None = None) -> ToolResult:
    import geopandas as gpd
    import pandas as pd
    import shapely

    gdf = load_layer(ctx, layer)
    metric = shape in ("rectangle", "circle") and gdf.crs is not None
    crs, geoms = _measure_crs(ctx, gdf) if metric else (None, np.asarray(gdf.geometry.array))
    codes, groups = (pd.factorize(gdf[by], sort=True, use_na_sentinel=False) if by
                     else (np.zeros(len(gdf), dtype=int), None))
    order = np.argsort(codes, kind="stable")
    collections = shapely.geometrycollections(geoms[order], indices=codes[order])
    func = {"rectangle": shapely.oriented_envelope, "convex_hull": shapely.convex_hull,
            "circle": shapely.minimum_bounding_circle, "envelope": shapely.envelope}[shape]
    shapes = func(collections)
    if metric:
        shapes = back_to(shapes, crs, gdf.crs)
    data = {by: np.asarray(groups)} if by else {}
    data["n_features"] = np.bincount(codes)
    out = gpd.GeoDataFrame(data, geometry=shapes, crs=gdf.crs)
    if gdf.crs is not None:
        out["area_m2"] = to_metric(out, ctx, "area")[0].area.to_numpy()
    what = f"{shape.replace('_', ' ').capitalize()} of '{layer}'" + (f" per {by}" if by else "")
    return vector_result(ctx, out, f"{layer}_{shape}", what, len(gdf))


@tool(
    ToolSpec(
        name="main_direction",
        half="geojson",
        category="geometry",
        purpose="Main orientation of each polygon or line in degrees (0-180, counter-clockwise from east).",
        params=(LAYER,),
        returns="the layer with main_direction (degrees), length_m and width_m of the oriented minimum rectangle",
        paper_name="CalculateMainDirectionOfPolygon",
        keywords=("orientation", "azimuth", "angle"),
    )
)
def main_direction(ctx: RunContext, layer: str) -> ToolResult:

    gdf = load_layer(ctx, layer, ("polygon", "line"))
    # on a layer in degrees the angle is turned back from grid east to true east (meridian convergence)
    true_east = gdf.crs is not None and gdf.crs.is_geographic
    res, used = _per_feature(ctx, gdf, lambda frame: _direction_fields(frame, true_east))
    out = gdf.copy()
    unit = "_m" if used is not None else ""
    out["main_direction"] = res["main_direction"].to_numpy()
    out["length" + unit], out["width" + unit] = res["length"].to_numpy(), res["width"].to_numpy()
    what = tr("Main direction of each feature of '{layer}'").format(layer=layer)
    if used is not None:
        what += tr(" (computed in {crs})").format(crs=used)
    return vector_result(ctx, out, f"{layer}_direction", what, len(gdf))


def _direction_fields(frame, true_east: bool = False):
    """Angle (0-180°, counter-clockwise from the x axis) of the long side of each oriented minimum rectangle."""
    import shapely
    from pyproj import Proj

    rect = shapely.oriented_envelope(np.asarray(frame.geometry.array))
    ring = np.where(shapely.get_type_id(rect) == 3, shapely.get_exterior_ring(rect), rect)
    p0, p1 = _point_coords(ring, 0), _point_coords(ring, 1)
    # a degenerate rectangle is a line (2 points); its third point does not exist
    p2 = np.where((shapely.get_num_points(ring) >= 3)[:, None], _point_coords(ring, 2), p1)
    e1, e2 = p1 - p0, p2 - p1
    len1, len2 = np.hypot(*e1.T), np.hypot(*e2.T)
    long_edge = np.where((len1 >= len2)[:, None], e1, e2)
    angle = np.degrees(np.arctan2(long_edge[:, 1], long_edge[:, 0]))
    if true_east:
        centre = frame.geometry.representative_point().to_crs(4326)
        angle -= Proj(frame.crs).get_factors(centre.x.to_numpy(), centre.y.to_numpy()).meridian_convergence
    angle %= 180.0
    return frame.assign(main_direction=np.round(angle, 6) % 180.0, length=np.maximum(len1, len2),
                        width=np.minimum(len1, len2))


def _point_coords(ring, k):
    import shapely

    pts = shapely.get_point(ring, k)
    xy = np.full((len(ring), 2), np.nan)
    ok = ~shapely.is_missing(pts)
    xy[ok] = shapely.get_coordinates(pts[ok])
    return xy


@tool(
    ToolSpec(
        name="cluster_points",
        half="geojson",
        category="geometry",
        purpose="Cluster points with DBSCAN (eps in metres) or k-means, with a cluster summary table.",
        params=(
            LAYER,
            Param("method", "enum", "Algorithm", required=False, default="dbscan", enum=("dbscan", "kmeans")),
            Param("clusters", "integer", "Number of clusters (k-means)", required=False, minimum=1),
            Param("eps", "distance", "Neighbourhood radius (DBSCAN)", required=False, minimum=0),
            Param("min_samples", "integer", "Points needed for a DBSCAN core", required=False, minimum=1),
        ),
        returns="the points with cluster_id (-1 = noise), and a table of clusters with counts and centres",
        examples=({"layer": "cafes", "method": "dbscan", "eps": 200, "min_samples": 4},),
        paper_name="SpatialAnalysisOfAggregationPoints",
        keywords=("hotspot", "group", "dbscan", "kmeans"),
    )
)
def cluster_points(ctx: RunContext, layer: str, method: str = "dbscan", clusters: int | None = None,
                   eps: float | None = None, min_samples: int | None = None) -> ToolResult:
    import pandas as pd
    import shapely

    gdf = load_layer(ctx, layer, ("point",))
    crs, (geoms,) = metric_arrays(ctx, gdf)
    xy = shapely.get_coordinates(shapely.centroid(geoms))
    if method == "kmeans":
        from sklearn.cluster import KMeans

        k = clusters or min(5, len(gdf))
        if clusters is None:
            ctx.note(tr("No cluster count given; used k = {k}.").format(k=k))
        if k > len(gdf):
            raise ValidationError(f"Cannot make {k} clusters from {len(gdf)} points.", fix="Ask for fewer clusters.")
        labels = KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(xy)
        how = f"k-means, k = {k}"
    else:
        from sklearn.cluster import DBSCAN

        samples = min_samples or min(5, len(gdf))
        if eps is None:
            _, nn = nearest(geoms) if len(gdf) > 1 else (None, np.array([1.0]))
            eps = float(2 * np.mean(nn)) or 1.0
            text = tr("No eps given; used {eps} m (twice the mean nearest-neighbour distance).")
            ctx.note(text.format(eps=f"{eps:.1f}"))
        labels = DBSCAN(eps=eps, min_samples=samples).fit_predict(xy)
        how = f"DBSCAN, eps = {eps:g} m, min_samples = {samples}"
    out = gdf.copy()
    out["cluster_id"] = labels
    frame = pd.DataFrame({"cluster_id": labels, "x": xy[:, 0], "y": xy[:, 1]})
    table = frame.groupby("cluster_id").agg(count=("x", "size"), center_x=("x", "mean"), center_y=("y", "mean"))
    table = table.reset_index()
    centres = back_to(shapely.points(table[["center_x", "center_y"]].to_numpy()), crs, gdf.crs)
    table["center_x"], table["center_y"] = shapely.get_x(centres), shapely.get_y(centres)
    n_clusters = int((table.cluster_id >= 0).sum())
    noise = int((labels < 0).sum())
    answer = tr("{n} clusters").format(n=n_clusters)
    answer += tr(", {n} noise points").format(n=noise) if method == "dbscan" else ""
    what = tr("Clustered '{layer}' ({how}, in {crs}): {answer}").format(
        layer=layer, how=how, crs=crs_label(crs), answer=answer
    )
    result = vector_result(ctx, out, f"{layer}_clusters", what, len(gdf), clusters=n_clusters, noise=noise)
    result.outputs.append(ctx.save_table(table, f"{layer}_cluster_summary"))
    result.answer = answer
    return result


@tool(
    ToolSpec(
        name="xy_to_line",
        half="geojson",
        category="geometry",
        purpose="Make a line per row from start (x1, y1) and end (x2, y2) coordinate fields.",
        params=(
            LAYER,
            Param("x1", "field", "Start X field", of_layer="layer"),
            Param("y1", "field", "Start Y field", of_layer="layer"),
            Param("x2", "field", "End X field", of_layer="layer"),
            Param("y2", "field", "End Y field", of_layer="layer"),
        ),
        returns="line layer in the layer's CRS with the original attributes",
        paper_name="XYCoordinatesToLine",
        keywords=("origin destination", "od lines", "flows"),
    )
)
def xy_to_line(ctx: RunContext, layer: str, x1: str, y1: str, x2: str, y2: str) -> ToolResult:
    import geopandas as gpd
    import pandas as pd
    import shapely

    table = read_table(ctx, layer)  # a layer's attributes, or a CSV/XLSX table without geometry
    if len(table) == 0:
        raise ToolError(f"Layer '{layer}' is empty.", fix="Choose a layer with at least one row.")
    cols = [x1, y1, x2, y2]
    values = table[cols].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    ok = np.isfinite(values).all(axis=1)
    if not ok.any():
        raise ValidationError(f"The fields {', '.join(cols)} hold no numeric coordinates.",
                              fix="Choose the fields that hold the start and end coordinates.")
    if not ok.all():
        ctx.note(tr("Skipped {n} rows with missing or non-numeric coordinates.").format(n=int((~ok).sum())))
    crs = getattr(ctx.layers.get(layer).data, "crs", None)
    xs, ys = values[ok][:, [0, 2]], values[ok][:, [1, 3]]
    if crs is None and (np.abs(xs) <= 180).all() and (np.abs(ys) <= 90).all():
        crs = "EPSG:4326"
        ctx.note(tr("The table has no CRS and its coordinates look like longitude/latitude, so EPSG:4326 was assumed."))
    lines = shapely.linestrings(values[ok].reshape(-1, 2, 2))
    out = gpd.GeoDataFrame(table[ok].reset_index(drop=True), geometry=lines, crs=crs)
    return vector_result(ctx, out, f"{layer}_lines", f"Lines from {x1},{y1} to {x2},{y2} in '{layer}'", len(table))
