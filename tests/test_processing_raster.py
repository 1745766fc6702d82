"""Processing raster tools on a small numpy GeoTIFF, against values computed by hand with numpy."""

from __future__ import annotations

import math

import geopandas as gpd
import numpy as np
import pytest
import shapely
from shapely.geometry import Point, box

pytest.importorskip("qgis.core")

from geoclerk.function_lib.context import RunContext  # noqa: E402
from geoclerk.function_lib.registry import run_tool  # noqa: E402
from geoclerk.tests.processing_helpers import CELL, X0, Y0, add_frames, gdf, write_tif  # noqa: E402
from osgeo import gdal  # noqa: E402

VALUES = np.arange(100, dtype="float32").reshape(10, 10)  # row * 10 + col, north-up
RAMP = np.tile(np.arange(10, dtype="float32") * CELL + CELL / 2, (10, 1))  # z = x offset of the cell centre


def read_tif(path):
    ds = gdal.Open(str(path))
    return ds.GetRasterBand(1).ReadAsArray(), ds.GetGeoTransform()


def run(reg, tmp_path, tool, args, rasters=None, **layers):
    ctx = RunContext(tmp_path / "out")
    for name, array in (rasters or {}).items():
        ctx.layers.add_path(write_tif(tmp_path / f"{name}.tif", array))
    return run_tool(reg, tool, args, add_frames(ctx, tmp_path, layers))


def test_heatmap_is_zero_outside_the_radius(reg, tmp_path):
    args = {"layer": "p", "radius": 30, "pixel_size": 10}
    res = run(reg, tmp_path, "qgis_heatmap", args, p=gdf([Point(X0 + 50, Y0 + 50)]))
    grid, gt = read_tif(res.outputs[0].path)
    xs = gt[0] + gt[1] * (np.arange(grid.shape[1]) + 0.5)
    ys = gt[3] + gt[5] * (np.arange(grid.shape[0]) + 0.5)
    dist = np.hypot(*np.meshgrid(xs - (X0 + 50), ys - (Y0 + 50)))
    assert (grid[dist >= 30] <= 0).all() and (grid[dist < 30] > 0).all()  # 0 or nodata outside
    assert grid[np.unravel_index(dist.argmin(), dist.shape)] == grid.max()


def test_zonal_statistics(reg, tmp_path):
    zone = box(X0, Y0 + 50, X0 + 50, Y0 + 100)  # the top-left 5 x 5 cells
    res = run(reg, tmp_path, "qgis_zonal_statistics", {"layer": "z", "raster": "r"}, {"r": VALUES}, z=gdf([zone]))
    out = gpd.read_file(res.outputs[0].path)
    block = VALUES[:5, :5]
    assert [out["_count"][0], out["_sum"][0], out["_mean"][0]] == [25, block.sum(), block.mean()]
    assert [out["_min"][0], out["_max"][0]] == [block.min(), block.max()]


def test_sample_raster_at_cell_centres(reg, tmp_path):
    pts = [Point(X0 + 5, Y0 + 95), Point(X0 + 35, Y0 + 45), Point(X0 + 95, Y0 + 5)]
    res = run(reg, tmp_path, "qgis_sample_raster", {"layer": "p", "raster": "r"}, {"r": VALUES}, p=gdf(pts))
    out = gpd.read_file(res.outputs[0].path)
    assert out.filter(like="SAMPLE").iloc[:, 0].tolist() == [VALUES[0, 0], VALUES[5, 3], VALUES[9, 9]]


def test_contours_of_a_ramp(reg, tmp_path):
    res = run(reg, tmp_path, "qgis_contours", {"raster": "r", "interval": 20}, {"r": RAMP})
    out = gpd.read_file(res.outputs[0].path)
    assert sorted(out["ELEV"]) == [20, 40, 60, 80]
    for elev, line in zip(out["ELEV"], out.geometry):
        assert shapely.get_coordinates(line)[:, 0] == pytest.approx(X0 + elev)


def test_slope_and_aspect_of_a_ramp(reg, tmp_path):
    res = run(reg, tmp_path, "qgis_slope", {"raster": "r"}, {"r": RAMP})
    slope, _ = read_tif(res.outputs[0].path)
    assert slope[2:-2, 2:-2] == pytest.approx(math.degrees(math.atan(1.0)))
    res = run(reg, tmp_path, "qgis_aspect", {"raster": "r"}, {"r": RAMP})
    aspect, _ = read_tif(res.outputs[0].path)
    assert aspect[2:-2, 2:-2] == pytest.approx(270.0)  # rising to the east, so it faces west


def test_slope_in_percent_of_a_gentle_ramp(reg, tmp_path):
    """Rise 1 m per 10 m: 10 percent (5.71 degrees when asked in degrees), edges included."""
    gentle = RAMP / 10.0
    res = run(reg, tmp_path, "qgis_slope", {"raster": "r", "measure": "percent"}, {"r": gentle})
    slope, _ = read_tif(res.outputs[0].path)
    assert slope[1:-1, 1:-1] == pytest.approx(10.0, rel=1e-4)
    res = run(reg, tmp_path, "qgis_slope", {"raster": "r"}, {"r": gentle})
    degrees, _ = read_tif(res.outputs[0].path)
    assert degrees[2:-2, 2:-2] == pytest.approx(math.degrees(math.atan(0.1)), rel=1e-4)


def test_slope_of_a_dem_in_degrees_is_computed_in_metres(reg, tmp_path):
    cell = 0.0001  # degrees; at the equator about 11.13 m east-west
    metres = cell * 111_320
    ramp = np.tile(np.arange(20, dtype="float32") * metres, (20, 1))  # rises 1 m per metre eastwards
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(write_tif(tmp_path / "dem.tif", ramp, epsg=4326, origin=(15.0, 0.001), cell=cell))
    res = run_tool(reg, "qgis_slope", {"raster": "dem"}, ctx)
    slope, _ = read_tif(res.outputs[0].path)
    interior = slope[4:-4, 4:-4]
    assert np.median(interior[interior > 0]) == pytest.approx(45.0, abs=1.0)
    assert "warped to EPSG:32633" in res.summary


def test_hillshade_of_flat_ground_and_a_lit_slope(reg, tmp_path):
    res = run(reg, tmp_path, "qgis_hillshade", {"raster": "r"}, {"r": np.full((10, 10), 100, "float32")})
    shade, _ = read_tif(res.outputs[0].path)
    # QGIS's hillshade puts its vertical angle (default 40) in the zenith term: 255 * cos(40 deg) on flat ground
    assert shade[2:-2, 2:-2] == pytest.approx(255 * math.cos(math.radians(40)), abs=1.0)
    west = read_tif(run(reg, tmp_path, "qgis_hillshade", {"raster": "r", "azimuth": 270}, {"r": RAMP}).outputs[0].path)
    east = read_tif(run(reg, tmp_path, "qgis_hillshade", {"raster": "r", "azimuth": 90}, {"r": RAMP}).outputs[0].path)
    assert (west[0][2:-2, 2:-2] > east[0][2:-2, 2:-2] + 50).all()  # the ramp faces west


def test_rasterize_burns_a_square(reg, tmp_path):
    square = box(X0, Y0, X0 + 50, Y0 + 50)
    corner = Point(X0 + 100, Y0 + 100)  # stretches the extent to 100 m x 100 m
    args = {"layer": "s", "pixel_size": 10, "field": "v"}
    res = run(reg, tmp_path, "qgis_rasterize", args, s=gdf([square, corner], v=[7, 0]))
    grid, gt = read_tif(res.outputs[0].path)
    assert grid.shape == (10, 10) and gt[1] == 10 and gt[5] == -10
    xs = gt[0] + gt[1] * (np.arange(grid.shape[1]) + 0.5)
    ys = gt[3] + gt[5] * (np.arange(grid.shape[0]) + 0.5)
    cx, cy = np.meshgrid(xs, ys)
    inside = shapely.contains_xy(square, cx, cy)
    assert inside.sum() == 25 and (grid[inside] == 7).all() and (grid[~inside] != 7).all()


def test_polygonize_two_halves(reg, tmp_path):
    halves = np.where(np.arange(10) < 5, 1, 2).astype("float32")[None, :].repeat(10, axis=0)
    res = run(reg, tmp_path, "qgis_polygonize", {"raster": "r"}, {"r": halves})
    out = gpd.read_file(res.outputs[0].path)
    assert dict(zip(out["DN"], out.area)) == {1: 5000.0, 2: 5000.0}


def test_raster_calculator_doubles_values(reg, tmp_path):
    res = run(reg, tmp_path, "qgis_raster_calculator", {"raster": "r", "expression": '"r@1" * 2'}, {"r": VALUES})
    grid, _ = read_tif(res.outputs[0].path)
    assert grid == pytest.approx(VALUES * 2)


def test_reclassify_by_table(reg, tmp_path):
    args = {"raster": "r", "table": [0, 50, 1, 50, 100, 2]}
    res = run(reg, tmp_path, "qgis_reclassify_by_table", args, {"r": VALUES})
    grid, _ = read_tif(res.outputs[0].path)
    expected = np.where((VALUES > 0) & (VALUES <= 50), 1, np.where(VALUES > 50, 2, VALUES))
    assert grid == pytest.approx(expected)
