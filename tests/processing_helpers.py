"""Shared helpers for the Processing tool tests: small frames in EPSG:32633, GeoTIFFs and run contexts."""

from __future__ import annotations

import geopandas as gpd
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.registry import run_tool
from shapely.geometry import Point, box

CRS = "EPSG:32633"
X0, Y0 = 500000.0, 5000000.0
CELL = 10.0


def pt(x, y):
    return Point(X0 + x, Y0 + y)


def sq(x, y, size=100.0):
    return box(X0 + x, Y0 + y, X0 + x + size, Y0 + y + size)


def gdf(geoms, crs=CRS, **cols):
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=crs)


def write_tif(path, array, epsg=32633, origin=(X0, Y0 + 100), cell=CELL):
    """A one-band north-up Float32 GeoTIFF of `array` with its top-left corner at `origin`."""
    from osgeo import gdal, osr

    rows, cols = array.shape
    ds = gdal.GetDriverByName("GTiff").Create(str(path), cols, rows, 1, gdal.GDT_Float32)
    ds.SetGeoTransform((origin[0], cell, 0, origin[1], 0, -cell))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    ds.SetProjection(srs.ExportToWkt())
    ds.GetRasterBand(1).WriteArray(array)
    ds = None
    return path


def add_frames(ctx, tmp_path, layers):
    """Write each frame to tmp_path/<name>.gpkg and add it to the context by path, in order."""
    for name, frame in layers.items():
        path = tmp_path / f"{name}.gpkg"
        frame.to_file(path)
        ctx.layers.add_path(path)
    return ctx


def run(reg, tmp_path, tool, args, **layers):
    """Run a tool on frames saved as GeoPackages; returns the result and its first vector output (or None)."""
    ctx = add_frames(RunContext(tmp_path / "out"), tmp_path, layers)
    result = run_tool(reg, tool, args, ctx)
    out = gpd.read_file(result.outputs[0].path) if result.outputs and result.outputs[0].kind == "vector" else None
    return result, out
