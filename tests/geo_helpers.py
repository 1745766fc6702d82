"""Shared helpers for the GeoPandas tool tests: one registry of the geojson tools, contexts and small frames."""

from __future__ import annotations

import geopandas as gpd
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.geojson import TOOLS
from geoclerk.function_lib.registry import Registry, run_tool

CRS = "EPSG:32633"
REGISTRY = Registry()
for _spec, _impl in TOOLS:
    REGISTRY.register(_spec, _impl)


def make_ctx(tmp_path, **layers) -> RunContext:
    """A run context whose layers are the given in-memory frames, under their keyword names."""
    ctx = RunContext(tmp_path / "out")
    for name, data in layers.items():
        ctx.layers.add(name, data=data)
    return ctx


def run_result(ctx, tool_name, **args):
    """Run one geojson tool and return its ToolResult."""
    return run_tool(REGISTRY, tool_name, args, ctx)


def run_layer(ctx, tool_name, **args):
    """Run one geojson tool and return its ToolResult and its first output as a GeoDataFrame."""
    result = run_tool(REGISTRY, tool_name, args, ctx)
    return result, ctx.gdf(result.outputs[0].name)


def gdf(geoms, crs=CRS, **cols):
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=crs)
