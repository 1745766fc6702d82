"""QA fixes in the Processing runner: rasters that miss the layer, disjoint overlays, mixed GeoJSON, CSV points."""

from __future__ import annotations

import json

import geopandas as gpd
import numpy as np
import pytest
from shapely.geometry import Point, box

pytest.importorskip("qgis.core")

from geoclerk.errors import ToolError, ValidationError  # noqa: E402
from geoclerk.function_lib.context import RunContext  # noqa: E402
from geoclerk.function_lib.registry import run_tool  # noqa: E402
from geoclerk.tests.processing_helpers import CRS, X0, Y0, add_frames, write_tif  # noqa: E402

GRID = np.arange(100, dtype="float32").reshape(10, 10)


def context(tmp_path, rasters=(), **layers):
    ctx = RunContext(tmp_path / "out")
    for name, origin in rasters:
        ctx.layers.add_path(write_tif(tmp_path / f"{name}.tif", GRID, origin=origin))
    return add_frames(ctx, tmp_path, layers)


def frame(geoms):
    return gpd.GeoDataFrame({"id": list(range(len(geoms)))}, geometry=list(geoms), crs=CRS)


@pytest.mark.parametrize("tool", ["qgis_sample_raster", "qgis_zonal_statistics"])
def test_raster_that_misses_the_layer_is_an_error(reg, tmp_path, tool):
    far = [("dem", (X0 + 10_000, Y0 + 10_100))]
    geoms = [Point(X0 + 5, Y0 + 5)] if tool == "qgis_sample_raster" else [box(X0, Y0, X0 + 50, Y0 + 50)]
    ctx = context(tmp_path, far, z=frame(geoms))
    with pytest.raises(ToolError) as err:
        run_tool(reg, tool, {"layer": "z", "raster": "dem"}, ctx)
    assert "do not overlap" in err.value.message and "510000" in err.value.message


def test_raster_over_the_layer_still_samples(reg, tmp_path):
    ctx = context(tmp_path, [("dem", (X0, Y0 + 100))], p=frame([Point(X0 + 5, Y0 + 95), Point(X0 + 15, Y0 + 95)]))
    res = run_tool(reg, "qgis_sample_raster", {"layer": "p", "raster": "dem"}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    values = out[[c for c in out.columns if c not in ("id", "geometry")][0]]
    assert values.tolist() == [0.0, 1.0] and "overlap" not in res.summary


def test_clip_of_disjoint_layers_says_so(reg, tmp_path):
    ctx = context(tmp_path, pts=frame([Point(X0, Y0)]), area=frame([box(X0 + 1000, Y0, X0 + 2000, Y0 + 1000)]))
    res = run_tool(reg, "qgis_clip", {"layer": "pts", "overlay": "area"}, ctx)
    assert res.values["feature_count"] == 0
    assert "do not overlap" in res.summary and "the result is empty" in res.summary


def test_mixed_geojson_is_refused_with_the_type_counts(reg, tmp_path):
    features = [
        {"type": "Feature", "properties": {"k": 1}, "geometry": {"type": "Point", "coordinates": [13.0, 45.0]}},
        {"type": "Feature", "properties": {"k": 2},
         "geometry": {"type": "LineString", "coordinates": [[13.0, 45.0], [13.1, 45.1]]}},
        {"type": "Feature", "properties": {"k": 3},
         "geometry": {"type": "Polygon", "coordinates": [[[13, 45], [13.01, 45], [13.01, 45.01], [13, 45]]]}},
    ]
    path = tmp_path / "mixed.geojson"
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    with pytest.raises(ValidationError) as err:
        run_tool(reg, "qgis_buffer", {"layer": "mixed", "distance": 100}, ctx)
    assert "1 lines, 1 points, 1 polygons" in err.value.message


def test_polygon_and_multipolygon_geojson_is_not_mixed(reg, tmp_path):
    polys = gpd.GeoDataFrame(
        {"k": [1, 2]},
        geometry=[box(13, 45, 13.01, 45.01), box(13.02, 45, 13.03, 45.01).union(box(13.04, 45, 13.05, 45.01))],
        crs="EPSG:4326",
    )
    polys.to_file(tmp_path / "parts.geojson", driver="GeoJSON")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(tmp_path / "parts.geojson")
    res = run_tool(reg, "qgis_buffer", {"layer": "parts", "distance": 10}, ctx)
    assert res.values["feature_count"] == 2


def test_csv_with_lon_lat_is_a_point_layer_for_processing(reg, tmp_path):
    path = tmp_path / "air_stations.csv"
    path.write_text("station,lon,lat,pm25\nS0,-9.15,38.72,5\nS1,-9.145,38.724,12\nS2,-9.14,38.728,30\n")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(reg, "qgis_buffer", {"layer": "air_stations", "distance": 1000}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert len(out) == 3 and out.crs.to_epsg() == 4326
    assert out.to_crs("EPSG:32629").area.tolist() == pytest.approx([np.pi * 1e6] * 3, rel=0.03)
    assert "assumed EPSG:4326" in res.summary
    assert sorted(out["station"]) == ["S0", "S1", "S2"]


def test_csv_without_coordinates_still_joins_as_a_table(reg, tmp_path):
    (tmp_path / "pop.csv").write_text("code,pop\na,10\nb,20\n")
    zones = frame([box(X0, Y0, X0 + 10, Y0 + 10), box(X0 + 10, Y0, X0 + 20, Y0 + 10)]).assign(code=["a", "b"])
    ctx = context(tmp_path, zones=zones)
    ctx.layers.add_path(tmp_path / "pop.csv")
    args = {"layer": "zones", "field": "code", "table": "pop", "table_field": "code"}
    res = run_tool(reg, "qgis_join_by_field", args, ctx)
    out = gpd.read_file(res.outputs[0].path).sort_values("code")
    assert out["pop"].astype(int).tolist() == [10, 20]
