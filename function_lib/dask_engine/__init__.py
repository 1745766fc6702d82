"""The large-input engine of the GeoPandas half: when an input file is large (settings.min_features or min_bytes),
a ported tool runs on dask-geopandas, partition by partition, on a local Dask cluster or an existing one; a tool
that is not ported says so and runs in memory as before. Nothing here is imported (nor dask) until an input is
large."""

from __future__ import annotations

from pathlib import Path

from .settings import SETTINGS, configure  # noqa: F401 - the CLI and the plugin set the scheduler here

# tool -> the parameter naming the large (partitioned) layer; the tool's other layers are read whole.
PORTED = {
    "filter_by_expression": "layer",
    "geometry_area": "layer",
    "geometry_length": "layer",
    "reproject": "layer",
    "buffer": "layer",
    "clip": "layer",
    "spatial_join": "layer",
    "count_points_in_polygons": "points",
    "dissolve": "layer",
    "group_by": "layer",
}
_NUMERIC = ("int", "uint", "float", "double")


def _maybe_large(ctx, name) -> bool:
    """A cheap first test from the file size alone, so small inputs never pay for reading a header."""
    from .parts import PARTITIONED, file_size

    entry = ctx.layers.find(name) if isinstance(name, str) else None
    if entry is None or not entry.path:  # a layer only in memory (made by code) stays there
        return False
    if entry.data is not None and type(entry.data).__name__ != "GeoDataFrame":
        return False  # a QGIS layer: its subset string or edits are not in the file
    if Path(entry.path).suffix.lower() not in PARTITIONED:
        return False
    size = file_size(ctx, name)
    return size >= SETTINGS.min_bytes > 0 or size >= 4 * SETTINGS.min_features


def _large(ctx, name):
    """The input's Source when it is large, else None."""
    from .parts import file_size, source

    if not _maybe_large(ctx, name):
        return None
    src = source(ctx, name)
    if src is None:
        return None
    big = (SETTINGS.min_features and src.count >= SETTINGS.min_features) or (
        SETTINGS.min_bytes and file_size(ctx, name) >= SETTINGS.min_bytes
    )
    return src if big else None


def large_impl(spec, args: dict, ctx):
    """The engine's implementation for this call when one of its layers is large and the tool is ported for these
    arguments; None otherwise (a large input of a tool that is not ported is noted: it runs in memory)."""
    layers = [args.get(p.name) for p in spec.params if p.kind == "layer"]
    large = {name: src for name in layers if (src := _large(ctx, name)) is not None}
    if not large:
        return None
    main = args.get(PORTED.get(spec.name, ""))
    reason = None
    if spec.name not in PORTED:
        reason = "it has no partitioned version yet"
    elif main not in large:
        reason = f"its other layer ('{next(iter(large))}') is the large one"
    elif len(large) > 1:
        reason = "more than one of its layers is large"
    else:
        reason = _unsuited(spec.name, args, large[main])
    if reason:
        names = ", ".join(f"'{n}' ({s.count:,} features)" for n, s in large.items())
        ctx.note(f"{names}: {spec.name} ran in memory rather than on Dask because {reason}.")
        return None
    _check_fields(spec, args, large[main], main)
    from . import tools

    return getattr(tools, spec.name)


def _numeric(src, field) -> bool:
    return field in src.dtypes and src.dtypes[field].startswith(_NUMERIC)


def _unsuited(name: str, args: dict, src) -> str | None:
    """Why this call of a ported tool still runs in memory (arguments the partitioned version does not cover)."""
    if src.crs is None and name in ("geometry_area", "geometry_length", "buffer"):
        return "the layer has no CRS"
    if src.bounds is None and name in ("geometry_area", "geometry_length", "buffer"):
        return "its file records no extent"
    if name in ("geometry_length", "buffer"):
        from ..metric import spans_zones
        from .tools import _crs_frame

        if spans_zones(_crs_frame(src)):
            return "it spans more than one UTM zone and is measured zone by zone"
    if name == "buffer" and (args.get("rings", 1) != 1 or args.get("dissolve") or not args.get("distance", 0) > 0):
        return "multi-ring, dissolved and inward buffers are not partitioned"
    if name == "spatial_join" and args.get("predicate") == "nearest":
        return "the nearest join is not partitioned"
    if name == "dissolve" and (args.get("agg") == "first" or (args.get("field") and not _numeric(src, args["field"]))):
        return "only numeric fields are aggregated per partition"
    if name == "group_by" and (args.get("agg") == "median" or (
            args.get("agg", "count") != "count" and not _numeric(src, args.get("field")))):
        return "a median and text fields are not aggregated per partition"
    if name == "reproject" and str(args.get("crs", "")).strip().lower() in ("none", "", "null"):
        return "clearing a CRS is not partitioned"
    return None


def _check_fields(spec, args: dict, src, main: str) -> None:
    """Unknown fields of the large layer fail before any work, from its header (the file is never read whole)."""
    from ...errors import ValidationError
    from ..context import did_you_mean

    for p in spec.params:
        value = args.get(p.name)
        if value is None or p.kind not in ("field", "fields") or args.get(p.of_layer) != main:
            continue
        for f in [value] if p.kind == "field" else value:
            if f not in src.columns:
                raise ValidationError(
                    f"Layer '{main}' has no field '{f}'.",
                    fix=did_you_mean(f, src.columns, "Fields: " + ", ".join(src.columns)),
                )
