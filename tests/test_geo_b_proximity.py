"""GEO-B proximity tools checked against closed forms and brute-force NumPy distances."""

from __future__ import annotations

import math

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib.registry import run_tool
from geoclerk.tests.geo_helpers import REGISTRY, gdf, make_ctx
from geoclerk.tests.geo_helpers import run_layer as run
from shapely.geometry import LineString, Point, box


def random_points(n, seed=1, scale=1000.0):
    xy = np.random.default_rng(seed).uniform(0, scale, size=(n, 2)) + [500000, 5000000]
    return gdf(gpd.points_from_xy(xy[:, 0], xy[:, 1]), pid=np.arange(n)), xy


def brute_nearest(a, b=None):
    d = np.hypot(*(a[:, None, :] - (a if b is None else b)[None, :, :]).transpose(2, 0, 1))
    if b is None:
        np.fill_diagonal(d, np.inf)
    return d.argmin(axis=1), d.min(axis=1)


def test_buffer_point_area_is_pi_r2(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(500000, 5000000)], name=["x"]))
    res, out = run(ctx, "buffer", layer="p", distance=100)
    assert out.area.iloc[0] == pytest.approx(math.pi * 100**2, rel=0.01)
    assert out["name"].tolist() == ["x"] and "EPSG:32633" in res.summary


def test_buffer_geographic_point_is_metric(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(15.0, 45.0)], crs="EPSG:4326"))
    res, out = run(ctx, "buffer", layer="p", distance=1000)
    assert out.crs.to_epsg() == 4326
    assert out.to_crs(32633).area.iloc[0] == pytest.approx(math.pi * 1e6, rel=0.01)
    assert "EPSG:32633" in res.summary and res.values["measured_in"] == "EPSG:32633"


def test_multi_ring_buffer_has_ring_and_distance(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(500000, 5000000), Point(600000, 5000000)], n=[1, 2]))
    _, out = run(ctx, "buffer", layer="p", distance=10, rings=3)
    assert len(out) == 6
    first = out[out["n"] == 1].sort_values("ring")
    assert first["ring"].tolist() == [1, 2, 3] and first["distance"].tolist() == [10, 20, 30]
    expected = [math.pi * (r2**2 - r1**2) for r1, r2 in ((0, 10), (10, 20), (20, 30))]
    assert first.area.tolist() == pytest.approx(expected, rel=0.01)


def test_dissolved_buffer_is_the_union(tmp_path):
    pts = [Point(0, 0), Point(50, 0)]
    ctx = make_ctx(tmp_path, p=gdf(pts))
    _, out = run(ctx, "buffer", layer="p", distance=40, dissolve=True)
    expected = pts[0].buffer(40).union(pts[1].buffer(40)).area
    assert len(out) == 1 and out.area.iloc[0] == pytest.approx(expected, rel=1e-9)


def test_buffer_without_crs_is_a_clear_error(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(0, 0)], crs=None))
    with pytest.raises(ValidationError, match="no CRS"):
        run(ctx, "buffer", layer="p", distance=10)


def test_within_distance_selects_by_metres(tmp_path):
    road = gdf([LineString([(0, 0), (100, 0)])])
    pts = gdf([Point(50, 5), Point(50, 15), Point(50, 25), Point(130, 0)], n=[1, 2, 3, 4])
    ctx = make_ctx(tmp_path, road=road, pts=pts)
    _, out = run(ctx, "within_distance", layer="pts", reference="road", distance=20)
    assert out["n"].tolist() == [1, 2]
    _, far = run(ctx, "within_distance", layer="pts", reference="road", distance=20, outside=True)
    assert far["n"].tolist() == [3, 4]  # 25 m and 30 m away: the complement, in input order


def test_distance_matrix_matches_numpy(tmp_path):
    pts, xy = random_points(6)
    ctx = make_ctx(tmp_path, p=pts)
    res = run_tool(REGISTRY, "distance_matrix", {"layer": "p"}, ctx)
    table = pd.read_csv(res.outputs[0].path)
    assert len(table) == 30
    expected = np.hypot(*(xy[table.from_index] - xy[table.to_index]).T)
    assert np.allclose(table.distance_m, expected)


def test_nearest_distance_summary_matches_brute_force(tmp_path):
    pts, xy = random_points(60)
    pts["grp"] = np.where(np.arange(60) < 30, "a", "b")
    ctx = make_ctx(tmp_path, p=pts)
    res, out = run(ctx, "nearest_distance_summary", layer="p", by="grp")
    idx, dist = brute_nearest(xy)
    assert np.allclose(out["nn_distance"], dist) and (out["nn_index"].to_numpy() == idx).all()
    assert res.values["mean_m"] == pytest.approx(dist.mean())
    table = pd.read_csv(res.outputs[1].path)
    assert table["mean"].tolist() == pytest.approx([dist[:30].mean(), dist[30:].mean()])
    assert 0.5 < res.values["clark_evans_r"] < 1.5  # uniform random points are near 1


def test_join_nearest_same_and_target_layers(tmp_path):
    pts, xy = random_points(40, seed=2)
    targets, txy = random_points(15, seed=3)
    targets["label"] = [f"t{i}" for i in range(15)]
    ctx = make_ctx(tmp_path, p=pts, t=targets)
    _, out = run(ctx, "join_nearest", layer="p")
    idx, dist = brute_nearest(xy)
    assert np.allclose(out["distance"], dist) and np.allclose(out.length, dist)
    _, out = run(ctx, "join_nearest", layer="p", target="t")
    idx, dist = brute_nearest(xy, txy)
    assert np.allclose(out["distance"], dist)
    assert out["label"].tolist() == [f"t{i}" for i in idx]  # the target's own field name, as in QGIS
    assert out["pid"].tolist() == list(range(40))  # the source keeps its own pid...
    assert out["nearest_pid"].tolist() == targets["pid"].iloc[idx].tolist()  # ...and the target's is prefixed


def test_join_nearest_handles_duplicate_points(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(0, 0), Point(0, 0), Point(10, 0)]))
    _, out = run(ctx, "join_nearest", layer="p")
    assert out["nearest_index"].tolist()[:2] == [1, 0] and out["nearest_index"].iloc[2] in (0, 1)
    assert out["distance"].tolist() == [0, 0, 10]


def test_connect_closest_pair(tmp_path):
    pts, xy = random_points(30, seed=4)
    ctx = make_ctx(tmp_path, p=pts)
    res, out = run(ctx, "connect_closest_pair", layer="p")
    _, dist = brute_nearest(xy)
    a = int(dist.argmin())
    assert out["distance"].iloc[0] == pytest.approx(dist.min())
    assert a in (out["from_index"].iloc[0], out["to_index"].iloc[0])
    assert out.length.iloc[0] == pytest.approx(dist.min())


def test_nearest_point_on_line(tmp_path):
    lines = gdf([LineString([(0, 0), (10, 0)]), LineString([(0, 20), (10, 20)])], road=["a", "b"])
    pts = gdf([Point(3, 5), Point(12, 19), Point(-4, -3)])
    ctx = make_ctx(tmp_path, l=lines, p=pts)
    _, out = run(ctx, "nearest_point_on_line", layer="p", lines="l")
    assert out[["x", "y"]].values.tolist() == [[3, 0], [10, 20], [0, 0]]
    assert out["distance"].tolist() == pytest.approx([5, math.hypot(2, 1), 5])
    assert out["line_index"].tolist() == [0, 1, 0]


def test_perpendicular_distance_and_wrong_type(tmp_path):
    lines = gdf([LineString([(0, 0), (10, 10)]), LineString([(20, 0), (20, 10)])])
    pts = gdf([Point(0, 10), Point(18, 5)], n=[1, 2])
    ctx = make_ctx(tmp_path, l=lines, p=pts, poly=gdf([box(0, 0, 1, 1)]))
    _, out = run(ctx, "perpendicular_distance", layer="p", lines="l")
    assert out["distance"].tolist() == pytest.approx([math.sqrt(50), 2.0])
    assert out["line_index"].tolist() == [0, 1] and out["n"].tolist() == [1, 2]
    with pytest.raises(ValidationError) as err:
        run(ctx, "perpendicular_distance", layer="poly", lines="l")
    assert "point" in err.value.message and "Polygon" in err.value.message


def test_fast_point_buffers_equal_geos_buffers():
    import shapely
    from geoclerk.function_lib.geojson.proximity import buffered

    _, xy = random_points(200, seed=9)
    points = shapely.points(xy)
    radii = np.linspace(1, 500, 200)
    assert shapely.equals_exact(buffered(points, radii), shapely.buffer(points, radii, quad_segs=16), 1e-9).all()
    lines = np.asarray([LineString([(0, 0), (10, 0)])])
    assert buffered(lines, 2.0)[0].area == pytest.approx(shapely.buffer(lines[0], 2.0, quad_segs=16).area)


def test_world_wide_buffer_is_metric_everywhere(tmp_path):
    lonlat = [(-150.0, 61.0), (0.0, 0.0), (174.8, -41.3)]
    ctx = make_ctx(tmp_path, p=gdf([Point(x, y) for x, y in lonlat], crs="EPSG:4326", n=[1, 2, 3]))
    res, out = run(ctx, "buffer", layer="p", distance=1000)
    assert out["n"].tolist() == [1, 2, 3] and out.crs.to_epsg() == 4326
    for (x, y), geom in zip(lonlat, out.geometry):
        local = gpd.GeoSeries([geom], crs=4326).to_crs(f"+proj=aeqd +lat_0={y} +lon_0={x} +units=m")
        assert local.area.iloc[0] == pytest.approx(math.pi * 1e6, rel=0.01)
    assert "own UTM zone" in res.summary


def test_dissolved_multi_ring_buffer(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(0, 0), Point(15, 0)]))
    _, out = run(ctx, "buffer", layer="p", distance=10, rings=2, dissolve=True)
    inner = Point(0, 0).buffer(10).union(Point(15, 0).buffer(10))
    outer = Point(0, 0).buffer(20).union(Point(15, 0).buffer(20))
    assert out["ring"].tolist() == [1, 2] and out["distance"].tolist() == [10, 20]
    assert out.area.tolist() == pytest.approx([inner.area, outer.area - inner.area], rel=1e-9)


CITIES = {"tokyo": (139.69, 35.69), "seoul": (126.98, 37.57), "paris": (2.35, 48.86), "london": (-0.13, 51.51),
          "lima": (-77.04, -12.05), "santiago": (-70.67, -33.45), "sydney": (151.21, -33.87)}


def test_world_wide_points_get_geodesic_nearest_distances(tmp_path):
    from pyproj import Geod

    names = list(CITIES)
    cities = gdf([Point(*CITIES[n]) for n in names], crs="EPSG:4326", name=names)
    ctx = make_ctx(tmp_path, c=cities)
    res, out = run(ctx, "join_nearest", layer="c")
    geod = Geod(ellps="WGS84")
    lon, lat = np.array([CITIES[n] for n in names]).T
    full = np.array([[geod.inv(lon[i], lat[i], lon[j], lat[j])[2] if i != j else np.inf for j in range(7)]
                     for i in range(7)])
    assert np.allclose(out["distance"], full.min(axis=1), rtol=1e-9)
    assert [names[i] for i in out["nearest_index"]] == [names[i] for i in full.argmin(axis=1)]
    assert "geodesic" in res.summary
    res, out = run(ctx, "connect_closest_pair", layer="c")
    assert out["distance"].iloc[0] == pytest.approx(full.min(), rel=1e-9)  # London-Paris
    table = pd.read_csv(run_tool(REGISTRY, "distance_matrix", {"layer": "c"}, ctx).outputs[0].path)
    assert np.allclose(table.distance_m, full[table.from_index, table.to_index], rtol=1e-9)
