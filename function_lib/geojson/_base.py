"""Shared pieces of the GeoPandas tools: the per-module tool list, common params, result helpers."""

from __future__ import annotations

from ...lang import tr
from ..context import RunContext, ToolResult, feature_counts
from ..spec import Param, ToolSpec


def tool_list():
    """A module's (spec, implementation) list and the decorator that fills it."""
    tools: list[tuple[ToolSpec, object]] = []

    def tool(spec: ToolSpec):
        def register(fn):
            tools.append((spec, fn))
            return fn

        return register

    return tools, tool


LAYER = Param("layer", "layer", "Input layer (layer name, file path or an earlier result)")


def vector_result(
    ctx: RunContext, gdf, name: str, summary: str, n_in: int | None = None, fmt: str = "gpkg", **values
) -> ToolResult:
    """Save a result layer (GeoPackage unless fmt says otherwise) and build the summary: what was done,
    features in and out, notes."""
    out = ctx.save_vector(gdf, name, fmt)
    text = summary + feature_counts(n_in, len(gdf)) + tr(".")
    if ctx.call_notes:
        text += " " + " ".join(ctx.call_notes)
    return ToolResult(summary=text, outputs=[out], values={"feature_count": len(gdf), **values})


def vanished_note(vanished: int, polygons: int, distance: float) -> str:
    """What the summary says when an inward buffer erased polygons (their result geometry is empty)."""
    if not vanished:
        return ""
    if polygons == 1:
        some = "The polygon"
    else:
        some = f"{'All' if vanished == polygons else vanished} of {polygons} polygons"
    return (
        f"{some} vanished (empty geometry): the inward buffer of {abs(distance):g} m is larger than "
        f"{'it' if vanished == 1 else 'them'}."
    )


def zero_buffer_error(families: str):
    """0 m buffers of points or lines are empty polygons: refused before any work."""
    from ...errors import ValidationError

    return ValidationError(
        f"A 0 m buffer of {families} is an empty polygon for every feature.",
        fix="Give a distance above 0 (for example 10 m).",
    )
