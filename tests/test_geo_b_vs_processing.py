"""GEO-B GeoPandas tools against their QGIS Processing equivalents on the same data (needs PyQGIS)."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, Point, box

pytest.importorskip("qgis.core")

from geoclerk.function_lib import load_registry  # noqa: E402
from geoclerk.function_lib.context import RunContext  # noqa: E402
from geoclerk.function_lib.io import read_vector  # noqa: E402
from geoclerk.function_lib.registry import run_tool  # noqa: E402

pytestmark = pytest.mark.qgis
CRS = "EPSG:32633"
X0, Y0 = 500000.0, 5000000.0


@pytest.fixture(scope="module")
def halves():
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    processing = load_registry()
    bind(processing)
    return load_registry(), processing


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(5)
    xy = rng.uniform(0, 1000, size=(60, 2)) + [X0, Y0]
    cells = [box(X0 + i * 100, Y0 + j * 100, X0 + (i + 1) * 100, Y0 + (j + 1) * 100)
             for i in range(10) for j in range(10)]
    layers = {
        "pts": gpd.GeoDataFrame({"pid": np.arange(60), "grp": np.arange(60) % 3}, geometry=shapely.points(xy), crs=CRS),
        "grid": gpd.GeoDataFrame({"cid": np.arange(100), "zone": np.arange(100) // 25}, geometry=cells, crs=CRS),
        "disc": gpd.GeoDataFrame({"k": [1]}, geometry=[Point(X0 + 500, Y0 + 500).buffer(330)], crs=CRS),
        "cuts": gpd.GeoDataFrame({"k": [1, 2]}, geometry=[LineString([(X0 + 250, Y0 - 10), (X0 + 250, Y0 + 1010)]),
                                                         LineString([(X0 - 10, Y0 + 555), (X0 + 1010, Y0 + 555)])],
                                 crs=CRS),
        "rings": gpd.GeoDataFrame({"k": [1, 2]}, geometry=[LineString([(X0, Y0), (X0 + 40, Y0), (X0 + 40, Y0 + 30),
                                                                       (X0, Y0)]),
                                                           box(X0 + 100, Y0, X0 + 150, Y0 + 20).exterior],
                                  crs=CRS),
    }
    folder = tmp_path_factory.mktemp("geo_b_data")
    for name, frame in layers.items():
        frame.to_file(folder / f"{name}.gpkg")
    return folder


def both(halves, data, tmp_path, ours: str, theirs: str, args: dict):
    results = []
    for registry, name, sub in ((halves[0], ours, "gp"), (halves[1], theirs, "qgis")):
        ctx = RunContext(tmp_path / sub)
        for path in data.glob("*.gpkg"):
            ctx.layers.add_path(path)
        res = run_tool(registry, name, args, ctx)
        results.append(read_vector(res.outputs[0].path))
    return results


def test_buffer(halves, data, tmp_path):
    gp, q = both(halves, data, tmp_path, "buffer", "qgis_buffer", {"layer": "pts", "distance": 25})
    assert len(gp) == len(q) == 60
    # both halves draw 16 segments per quarter circle (QGIS's default of 5 cut the circle by up to 1.2% of its radius)
    assert gp.area.sum() == pytest.approx(q.area.sum(), rel=1e-6)
    assert set(gp.geom_type) == {"Polygon"} and set(q.geom_type) == {"MultiPolygon"}  # two implementations ran


@pytest.mark.parametrize("ours, theirs, args", [
    ("clip", "qgis_clip", {"layer": "grid", "overlay": "disc"}),
    ("split_polygons_by_lines", "qgis_split_with_lines", {"layer": "grid", "lines": "cuts"}),
    ("lines_to_polygons", "qgis_lines_to_polygons", {"layer": "rings"}),
])
def test_polygon_results_match(halves, data, tmp_path, ours, theirs, args):
    gp, q = both(halves, data, tmp_path, ours, theirs, args)
    assert len(gp) == len(q)
    assert np.allclose(np.sort(gp.area.to_numpy()), np.sort(q.area.to_numpy()), rtol=1e-9)


def test_dissolve(halves, data, tmp_path):
    gp, q = both(halves, data, tmp_path, "dissolve", "qgis_dissolve", {"layer": "grid", "fields": ["zone"]})
    assert gp.sort_values("zone").area.tolist() == pytest.approx(q.sort_values("zone").area.tolist())


def test_to_lines(halves, data, tmp_path):
    gp, q = both(halves, data, tmp_path, "to_lines", "qgis_polygons_to_lines", {"layer": "grid"})
    assert len(gp) == len(q) and gp.length.sum() == pytest.approx(q.length.sum())


def test_centroids(halves, data, tmp_path):
    gp, q = both(halves, data, tmp_path, "centroids", "qgis_centroids", {"layer": "grid"})
    assert np.allclose(shapely.get_coordinates(gp.sort_values("cid").geometry.values),
                       shapely.get_coordinates(q.sort_values("cid").geometry.values))


def test_convex_hull_per_group(halves, data, tmp_path):
    args = {"layer": "pts", "shape": "convex_hull", "by": "grp"}
    gp, q = both(halves, data, tmp_path, "bounding_geometry", "qgis_minimum_bounding_geometry", args)
    assert gp.sort_values("grp").area.tolist() == pytest.approx(q.sort_values("grp").area.tolist())


def test_within_distance(halves, data, tmp_path):
    args = {"layer": "pts", "reference": "cuts", "distance": 60}
    gp, q = both(halves, data, tmp_path, "within_distance", "qgis_extract_within_distance", args)
    assert sorted(gp["pid"]) == sorted(q["pid"]) and len(gp) > 0


def test_voronoi_cells_hold_the_same_points(halves, data, tmp_path):
    gp, q = both(halves, data, tmp_path, "voronoi", "qgis_voronoi", {"layer": "pts"})
    assert len(gp) == len(q) == 60
    pts = read_vector(data / "pts.gpkg")
    for cells in (gp, q):
        hits = gpd.sjoin(pts, cells[["pid", "geometry"]], predicate="within")
        assert (hits["pid_left"] == hits["pid_right"]).all() and len(hits) == 60
