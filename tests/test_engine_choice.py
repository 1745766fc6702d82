"""Which half runs a job: Processing where it suits the data, GeoPandas for large or world-wide layers."""

from __future__ import annotations

import math

import geopandas as gpd
import pytest
from geoclerk.function_lib import registry as reg_mod
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.registry import run_tool
from shapely.geometry import Point


def _ctx(tmp_path, gdf, name):
    path = tmp_path / f"{name}.gpkg"
    gdf.to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    return ctx


def test_small_local_layer_runs_on_processing(bound_registry, tmp_path):
    pts = gpd.GeoDataFrame({"id": [1, 2]}, geometry=[Point(500000, 5800000), Point(501000, 5800000)], crs=32633)
    ctx = _ctx(tmp_path, pts, "pts")
    result = run_tool(bound_registry, "buffer", {"layer": "pts", "distance": 100}, ctx)
    assert "GeoPandas" not in result.summary
    assert gpd.read_file(result.outputs[0].path).area.mean() == pytest.approx(math.pi * 100**2, rel=0.02)


def test_world_wide_layer_is_buffered_zone_by_zone(bound_registry, tmp_path):
    pts = gpd.GeoDataFrame({"id": [1, 2, 3]}, geometry=[Point(-150, 61), Point(174.8, -41.3), Point(10, 50)], crs=4326)
    ctx = _ctx(tmp_path, pts, "world")
    result = run_tool(bound_registry, "buffer", {"layer": "world", "distance": 50_000}, ctx)
    assert "GeoPandas rather than QGIS Processing" in result.summary
    out = gpd.read_file(result.outputs[0].path)
    for i in range(3):
        one = out.iloc[[i]]
        assert one.to_crs(one.estimate_utm_crs()).area.iloc[0] == pytest.approx(math.pi * 50_000**2, rel=0.01)


def test_large_layer_runs_on_geopandas(bound_registry, tmp_path, monkeypatch):
    monkeypatch.setattr(reg_mod, "PROCESSING_MAX_FEATURES", 5)
    pts = gpd.GeoDataFrame({"id": range(10)}, geometry=[Point(500000 + i * 10, 5800000) for i in range(10)], crs=32633)
    ctx = _ctx(tmp_path, pts, "many")
    result = run_tool(bound_registry, "buffer", {"layer": "many", "distance": 1}, ctx)
    assert "'many' has 10 features" in result.summary
    assert len(gpd.read_file(result.outputs[0].path)) == 10


def test_mixed_geometry_layer_keeps_every_feature(bound_registry, tmp_path):
    from shapely.geometry import LineString, Polygon

    mixed = gpd.GeoDataFrame(
        {"kind": ["p", "l", "a"]},
        geometry=[
            Point(500000, 5800000),
            LineString([(500000, 5800100), (500300, 5800100)]),
            Polygon([(500500, 5800500), (500600, 5800500), (500600, 5800600)]),
        ],
        crs=32633,
    )
    path = tmp_path / "mixed.geojson"
    mixed.to_file(path, driver="GeoJSON")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    result = run_tool(bound_registry, "buffer", {"layer": "mixed", "distance": 10}, ctx)
    assert "mixes geometry types" in result.summary
    assert sorted(gpd.read_file(result.outputs[0].path)["kind"]) == ["a", "l", "p"]


def test_csv_with_coordinates_runs_on_geopandas(bound_registry, tmp_path):
    path = tmp_path / "stations.csv"
    path.write_text("id,lon,lat\n1,13.40,52.50\n2,13.41,52.51\n")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    result = run_tool(bound_registry, "buffer", {"layer": "stations", "distance": 1000}, ctx)
    assert "coordinate columns" in result.summary
    out = gpd.read_file(result.outputs[0].path)
    assert out.to_crs(out.estimate_utm_crs()).area.mean() == pytest.approx(math.pi * 1000**2, rel=0.02)


def test_negative_buffer_of_points_is_refused_not_empty(bound_registry, tmp_path):
    from geoclerk.errors import ValidationError

    pts = gpd.GeoDataFrame({"id": [1]}, geometry=[Point(500000, 5800000)], crs=32633)
    ctx = _ctx(tmp_path, pts, "pts")
    with pytest.raises(ValidationError, match="negative buffer needs a polygon"):
        run_tool(bound_registry, "buffer", {"layer": "pts", "distance": -200}, ctx)


def test_two_inputs_with_the_same_name_both_stay(tmp_path):
    from geoclerk.function_lib.context import LayerStore

    store = LayerStore()
    store.add_path(tmp_path / "a" / "points.geojson")
    store.add_path(tmp_path / "b" / "points.geojson")
    assert store.names() == ["points", "points_2"]
    assert store.get("points_2").path.endswith("b/points.geojson")
