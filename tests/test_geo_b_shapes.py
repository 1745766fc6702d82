"""GEO-B shape tools (centroids, Voronoi, bounding geometry, direction, clusters, XY lines) checked by value."""

from __future__ import annotations

import math

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from geoclerk.errors import ValidationError
from geoclerk.function_lib.context import RunContext
from geoclerk.tests.geo_helpers import CRS, gdf, make_ctx
from geoclerk.tests.geo_helpers import run_layer as run
from shapely import affinity
from shapely.geometry import MultiPoint, Point, Polygon, box

U_SHAPE = Polygon([(0, 0), (10, 0), (10, 10), (8, 10), (8, 2), (2, 2), (2, 10), (0, 10)])


def test_centroids_per_feature_and_whole_layer(tmp_path):
    two = gdf([box(0, 0, 2, 2), box(8, 0, 10, 2)])
    ctx = make_ctx(tmp_path, p=gdf([box(0, 0, 10, 10), U_SHAPE], n=[1, 2]), two=two)
    _, out = run(ctx, "centroids", layer="p")
    assert out.geometry.iloc[0].equals(Point(5, 5)) and out["n"].tolist() == [1, 2]
    assert out.geometry.iloc[1].distance(U_SHAPE.centroid) < 1e-9
    assert not U_SHAPE.contains(out.geometry.iloc[1])  # the U's centroid falls in its notch
    _, out = run(ctx, "centroids", layer="p", method="representative_point")
    assert U_SHAPE.contains(out.geometry.iloc[1])
    _, out = run(ctx, "centroids", layer="two", whole_layer=True)
    assert len(out) == 1 and out.geometry.iloc[0].distance(Point(5, 1)) < 1e-9 and out["n_features"].iloc[0] == 2


def test_voronoi_one_cell_per_point_carrying_attributes(tmp_path):
    xy = np.random.default_rng(7).uniform(0, 1000, size=(25, 2))
    pts = gdf(gpd.points_from_xy(xy[:, 0], xy[:, 1]), pid=np.arange(25))
    ctx = make_ctx(tmp_path, p=pts)
    _, out = run(ctx, "voronoi", layer="p")
    assert len(out) == 25
    inside = shapely.contains(np.asarray(out.geometry.array), np.asarray(pts.geometry.array)[out["pid"].to_numpy()])
    assert inside.all()
    # the cells tile the frame: points' extent grown by 10% of its larger side on every side
    xmin, ymin, xmax, ymax = pts.total_bounds
    pad = 0.1 * max(xmax - xmin, ymax - ymin)
    assert out.area.sum() == pytest.approx((xmax - xmin + 2 * pad) * (ymax - ymin + 2 * pad))


def test_voronoi_rejects_polygons(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([box(0, 0, 1, 1)]))
    with pytest.raises(ValidationError, match="point"):
        run(ctx, "voronoi", layer="p")


def test_bounding_geometry_shapes(tmp_path):
    pts = [Point(0, 0), Point(4, 0), Point(4, 3), Point(1, 1), Point(20, 20), Point(22, 20), Point(21, 23)]
    layer = gdf(pts, grp=["a"] * 4 + ["b"] * 3)
    ctx = make_ctx(tmp_path, p=layer)
    _, out = run(ctx, "bounding_geometry", layer="p", shape="envelope", by="grp")
    assert out["grp"].tolist() == ["a", "b"] and out["n_features"].tolist() == [4, 3]
    assert out.geometry.iloc[0].equals(box(0, 0, 4, 3)) and out["area_m2"].iloc[0] == pytest.approx(12)
    _, out = run(ctx, "bounding_geometry", layer="p", by="grp")  # convex hull by default
    assert out.area.iloc[0] == pytest.approx(MultiPoint(pts[:4]).convex_hull.area)
    _, out = run(ctx, "bounding_geometry", layer="p", shape="circle")
    assert len(out) == 1
    radius = shapely.minimum_bounding_radius(MultiPoint(pts))
    assert out.area.iloc[0] == pytest.approx(math.pi * radius**2, rel=0.01)
    _, out = run(ctx, "bounding_geometry", layer="p", shape="rectangle", by="grp")
    assert out.area.iloc[1] == pytest.approx(shapely.oriented_envelope(MultiPoint(pts[4:])).area)


def test_bounding_circle_of_geographic_points_is_round_in_metres(tmp_path):
    utm = gdf([Point(500000, 5000000), Point(502000, 5000000)])
    ctx = make_ctx(tmp_path, p=utm.to_crs(4326))
    res, out = run(ctx, "bounding_geometry", layer="p", shape="circle")
    assert out.crs.to_epsg() == 4326
    assert out.to_crs(CRS).area.iloc[0] == pytest.approx(math.pi * 1000**2, rel=0.01)


@pytest.mark.parametrize("angle", [0, 30, 75, 120, 165])
def test_main_direction_of_rotated_rectangle(tmp_path, angle):
    rect = affinity.rotate(box(0, 0, 100, 20), angle, origin=(0, 0))
    ctx = make_ctx(tmp_path, p=gdf([rect], n=[1]))
    _, out = run(ctx, "main_direction", layer="p")
    got = out["main_direction"].iloc[0]
    assert min(abs(got - angle), 180 - abs(got - angle)) < 1e-6
    assert out["length_m"].iloc[0] == pytest.approx(100) and out["width_m"].iloc[0] == pytest.approx(20)


def test_main_direction_rejects_points(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(0, 0)]))
    with pytest.raises(ValidationError, match="Point"):
        run(ctx, "main_direction", layer="p")


def blobs(seed=3):
    rng = np.random.default_rng(seed)
    a = rng.normal([500000, 5000000], 10, size=(30, 2))
    b = rng.normal([502000, 5000000], 10, size=(20, 2))
    xy = np.vstack([a, b])
    return gdf(gpd.points_from_xy(xy[:, 0], xy[:, 1]), pid=np.arange(50))


def test_dbscan_finds_two_blobs(tmp_path):
    ctx = make_ctx(tmp_path, p=blobs())
    res, out = run(ctx, "cluster_points", layer="p", eps=100, min_samples=3)
    labels = out["cluster_id"].to_numpy()
    assert res.values["clusters"] == 2 and res.values["noise"] == 0
    assert len(set(labels[:30])) == 1 and len(set(labels[30:])) == 1 and labels[0] != labels[30]
    table = pd.read_csv(res.outputs[1].path)
    assert sorted(table["count"]) == [20, 30]
    big = table[table["count"] == 30].iloc[0]
    assert big.center_x == pytest.approx(out.geometry.x[:30].mean())


def test_kmeans_two_clusters_and_default_eps(tmp_path):
    ctx = make_ctx(tmp_path, p=blobs(4))
    res, out = run(ctx, "cluster_points", layer="p", method="kmeans", clusters=2)
    labels = out["cluster_id"].to_numpy()
    assert len(set(labels[:30])) == 1 and len(set(labels[30:])) == 1 and labels[0] != labels[30]
    res, _ = run(ctx, "cluster_points", layer="p")
    assert res.values["clusters"] == 2 and "No eps given" in res.summary


def test_dbscan_on_geographic_points_uses_metres(tmp_path):
    ctx = make_ctx(tmp_path, p=blobs().to_crs(4326))
    res, _ = run(ctx, "cluster_points", layer="p", eps=100, min_samples=3)
    assert res.values["clusters"] == 2 and "EPSG:32633" in res.summary


def test_xy_to_line(tmp_path):
    table = gpd.GeoDataFrame({"x1": [0, 10, 5], "y1": [0, 0, 5], "x2": [3, 10, None], "y2": [4, 7, 1],
                              "name": ["a", "b", "c"]}, geometry=[None] * 3, crs=CRS)
    ctx = make_ctx(tmp_path, t=table)
    res, out = run(ctx, "xy_to_line", layer="t", x1="x1", y1="y1", x2="x2", y2="y2")
    assert out["name"].tolist() == ["a", "b"] and out.length.tolist() == pytest.approx([5.0, 7.0])
    assert "Skipped 1 rows" in res.summary and out.crs.to_epsg() == 32633
    with pytest.raises(ValidationError, match="x3"):
        run(ctx, "xy_to_line", layer="t", x1="x3", y1="y1", x2="x2", y2="y2")


def test_xy_to_line_from_a_plain_csv_table(tmp_path):
    csv = tmp_path / "flows.csv"
    pd.DataFrame({"from_lon": [13.4, 2.35], "from_lat": [52.5, 48.85], "to_lon": [16.37, 12.5],
                  "to_lat": [48.2, 41.9], "trips": [10, 4]}).to_csv(csv, index=False)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(csv)
    res, out = run(ctx, "xy_to_line", layer="flows", x1="from_lon", y1="from_lat", x2="to_lon", y2="to_lat")
    assert out.crs.to_epsg() == 4326 and "EPSG:4326 was assumed" in res.summary
    assert list(out.geometry.iloc[0].coords) == [(13.4, 52.5), (16.37, 48.2)] and out["trips"].tolist() == [10, 4]
    with pytest.raises(ValidationError) as err:
        run(ctx, "xy_to_line", layer="flows", x1="from_lo", y1="from_lat", x2="to_lon", y2="to_lat")
    assert "from_lon" in err.value.fix


def test_voronoi_of_geographic_points_and_duplicates(tmp_path):
    xy = np.random.default_rng(8).uniform(0, 5000, size=(15, 2)) + [500000, 5000000]
    pts = gdf(gpd.points_from_xy(xy[:, 0], xy[:, 1]), pid=np.arange(15))
    pts = gpd.GeoDataFrame(pd.concat([pts, pts.iloc[[0]]], ignore_index=True), crs=CRS).to_crs(4326)
    ctx = make_ctx(tmp_path, p=pts)
    res, out = run(ctx, "voronoi", layer="p")
    assert len(out) == 15 and out.crs.to_epsg() == 4326 and "EPSG:32633" in res.summary
    assert "Left out 1 duplicate" in res.summary
    local = out.to_crs(CRS)
    assert shapely.contains(np.asarray(local.geometry.array), shapely.points(xy[out["pid"]])).all()


def test_world_wide_centroids_and_directions_are_metric_per_feature(tmp_path):
    centres = [(-150.0, 61.0), (15.0, 45.0), (174.8, -41.3)]
    polys = []
    for lon, lat in centres:
        local = f"+proj=aeqd +lat_0={lat} +lon_0={lon} +units=m"
        rect = affinity.rotate(box(-5000, -1000, 5000, 1000), 30, origin=(0, 0))
        polys.append(gpd.GeoSeries([U_SHAPE.buffer(0).union(rect)], crs=local).to_crs(4326).iloc[0])
    ctx = make_ctx(tmp_path, w=gdf(polys, crs="EPSG:4326", n=[1, 2, 3]))
    res, out = run(ctx, "centroids", layer="w")
    assert "UTM zone of each feature" in res.summary and out["n"].tolist() == [1, 2, 3]
    for (lon, lat), geom, poly in zip(centres, out.geometry, polys):
        local = f"+proj=aeqd +lat_0={lat} +lon_0={lon} +units=m"
        got = gpd.GeoSeries([geom], crs=4326).to_crs(local).iloc[0]
        expected = gpd.GeoSeries([poly], crs=4326).to_crs(local).iloc[0].centroid
        assert got.distance(expected) < 5.0
    _, out = run(ctx, "main_direction", layer="w")
    assert np.allclose(out["main_direction"], 30.0, atol=0.05)  # from true east, not from the UTM grid
    assert np.allclose(out["length_m"], 10000, rtol=0.01)
