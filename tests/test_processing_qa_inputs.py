"""Processing-side fixes from QA round 3 (multi-layer inputs, empty buffers, hulls of points, grids)."""

from __future__ import annotations

import geopandas as gpd
import pytest
from shapely.geometry import LineString, Point, box

pytest.importorskip("qgis.core")

from geoclerk.errors import ValidationError  # noqa: E402
from geoclerk.function_lib.context import RunContext  # noqa: E402
from geoclerk.function_lib.registry import run_tool  # noqa: E402

CRS = "EPSG:32633"


def test_qgis_tool_reads_the_named_layer_of_a_geopackage(reg, tmp_path):
    path = tmp_path / "city.gpkg"
    gpd.GeoDataFrame({"pid": [1, 2, 3]}, geometry=[box(i * 100, 0, i * 100 + 50, 50) for i in range(3)],
                     crs=CRS).to_file(path, layer="parcels")
    gpd.GeoDataFrame({"rname": ["A", "B"]}, geometry=[LineString([(0, 100), (300, 100)]),
                                                      LineString([(0, 200), (300, 200)])], crs=CRS).to_file(
        path, layer="roads")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(reg, "qgis_buffer", {"layer": "roads", "distance": 10}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert sorted(out["rname"]) == ["A", "B"] and "pid" not in out.columns
    assert out.area.sum() == pytest.approx(2 * (300 * 20 + 3.14159 * 100), rel=0.01)


def _points(tmp_path, name="pts", n=5):
    path = tmp_path / f"{name}.gpkg"
    gpd.GeoDataFrame({"v": list(range(n))}, geometry=[Point(500000 + 450 * i, 5000000 + 300 * i) for i in range(n)],
                     crs=CRS).to_file(path)
    return path


def test_grid_without_a_named_layer_covers_the_only_layer(reg, tmp_path):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_points(tmp_path))
    res = run_tool(reg, "qgis_create_grid", {"spacing": 1000}, ctx)
    grid = gpd.read_file(res.outputs[0].path)
    assert grid.crs.to_epsg() == 32633
    assert len(grid) == 2 * 2  # 1800 m x 1200 m extent in 1 km cells
    assert grid.area.round().unique().tolist() == [1e6]
    assert "only layer loaded" in res.summary


def test_grid_without_a_layer_among_several_names_them(reg, tmp_path):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_points(tmp_path, "a"))
    ctx.layers.add_path(_points(tmp_path, "b"))
    with pytest.raises(ValidationError) as err:
        run_tool(reg, "qgis_create_grid", {"spacing": 1000}, ctx)
    assert "none was named" in err.value.message and "a, b" in err.value.fix


def _lakes(tmp_path):
    path = tmp_path / "lakes.gpkg"
    squares = [box(0, 0, 2000, 2000), box(5000, 0, 5500, 500), box(8000, 0, 8800, 800)]
    gpd.GeoDataFrame({"lake": ["big", "s1", "s2"]}, geometry=squares, crs=CRS).to_file(path)
    return path


@pytest.mark.parametrize("tool", ["buffer", "qgis_buffer"])
def test_inward_buffer_says_how_many_polygons_vanished(reg, tmp_path, tool):
    from geoclerk.tests.geo_helpers import REGISTRY

    registry = reg if tool.startswith("qgis") else REGISTRY
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_lakes(tmp_path))
    res = run_tool(registry, tool, {"layer": "lakes", "distance": -600}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    vanished = out.geometry.isna() | out.geometry.is_empty
    assert vanished.tolist() == [False, True, True]
    assert out.geometry[0].area == pytest.approx(800 * 800, rel=0.02)
    assert "2 of 3 polygons vanished (empty geometry): the inward buffer of 600 m is larger than them." in res.summary


@pytest.mark.parametrize("tool", ["buffer", "qgis_buffer"])
def test_zero_buffer_of_points_is_refused(reg, tmp_path, tool):
    from geoclerk.tests.geo_helpers import REGISTRY

    registry = reg if tool.startswith("qgis") else REGISTRY
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_points(tmp_path))
    with pytest.raises(ValidationError) as err:
        run_tool(registry, tool, {"layer": "pts", "distance": 0}, ctx)
    assert "0 m buffer of points or lines" in err.value.message
    assert not list((tmp_path / "out").glob("*.gpkg"))


def test_convex_hull_of_a_point_layer_is_one_hull(reg, tmp_path):
    path = tmp_path / "pts.gpkg"
    pts = [Point(0, 0), Point(100, 0), Point(100, 50), Point(0, 50), Point(50, 20)]
    gpd.GeoDataFrame({"v": range(5)}, geometry=pts, crs=CRS).to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(reg, "qgis_convex_hull", {"layer": "pts"}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert len(out) == 1 and out.geom_type.tolist() == ["Polygon"]
    assert out.area.iloc[0] == pytest.approx(5000.0)
    assert "one hull around all its points" in res.summary


def test_convex_hull_of_polygons_stays_per_feature(reg, tmp_path):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_lakes(tmp_path))
    res = run_tool(reg, "qgis_convex_hull", {"layer": "lakes"}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert sorted(out.area.round()) == [250000.0, 640000.0, 4000000.0]


def test_grid_after_an_earlier_step_still_covers_the_only_input(reg, tmp_path):
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(_points(tmp_path))
    run_tool(reg, "qgis_buffer", {"layer": "pts", "distance": 10}, ctx)
    res = run_tool(reg, "qgis_create_grid", {"spacing": 1000}, ctx)
    assert len(gpd.read_file(res.outputs[0].path)) == 4 and "'pts', the only layer loaded" in res.summary
