"""The one registry of tools: specs from both halves, implementations where they can run, validation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import jsonschema

from ..errors import GeoClerkError, ToolError, ValidationError
from .context import RunContext, ToolResult, did_you_mean
from .metric import MAX_ZONE_SPAN_DEG
from .spec import ToolSpec

# An implementation takes the run context and the validated arguments as keywords.
Impl = Callable[..., ToolResult]


@dataclass
class Tool:
    """A spec and, where this Python can run it, its implementation."""

    spec: ToolSpec
    impl: Impl | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def available(self) -> bool:
        return self.impl is not None


class Registry:
    """Tools by name, enumerable, each with a spec; implementations bound per environment."""

    def __init__(self):
        self._tools: dict[str, Tool] = {}
        self._binder = None

    def set_binder(self, binder) -> None:
        """Bind implementations lazily: binder(registry) runs the first time a tool is chosen to run, so
        requests that never run a tool (chat, needs a model) do not pay for starting QGIS."""
        self._binder = binder

    def _ensure_bound(self) -> None:
        binder, self._binder = self._binder, None
        if binder is not None:
            binder(self)

    def register(self, spec: ToolSpec, impl: Impl | None = None) -> Tool:
        if spec.name in self._tools:
            raise ValueError(f"tool {spec.name} registered twice")
        tool = Tool(spec, impl)
        self._tools[spec.name] = tool
        return tool

    def bind(self, name: str, impl: Impl) -> None:
        """Attach an implementation to a registered spec (the QGIS adapters do this)."""
        self._tools[name].impl = impl

    def get(self, name: str) -> Tool:
        if name not in self._tools:
            raise ValidationError(
                f"There is no tool called '{name}'.", fix=did_you_mean(name, list(self._tools), "See `geoclerk tools`.")
            )
        return self._tools[name]

    def __contains__(self, name: str) -> bool:
        return name in self._tools

    def tools(self, half: str | None = None) -> list[Tool]:
        return [t for t in self._tools.values() if half is None or t.spec.half == half]

    def specs(self, half: str | None = None) -> list[ToolSpec]:
        return [t.spec for t in self.tools(half)]

    def names(self) -> list[str]:
        return list(self._tools)

    def preferred(self, name: str, args: dict | None = None) -> Tool:
        """The tool to run for `name`: its Processing equivalent when that one is available here and
        takes every argument given (a GeoPandas-only option such as buffer rings keeps GeoPandas)."""
        self._ensure_bound()
        tool = self.get(name)
        if name in KEEP_GEOPANDAS:
            return tool
        other = self._tools.get(tool.spec.equivalent or "")
        if other is None or not other.available:
            return tool
        if args is not None and not set(args) <= {p.name for p in other.spec.params}:
            return tool
        if tool.spec.half == "geojson" or not tool.available:
            return other
        return tool


# GeoPandas tools whose Processing equivalent gives another answer here, so the GeoPandas one always runs.
KEEP_GEOPANDAS = {
    # QGIS 3.22's native:splitwithlines cut the 8 sample districts by the 21 roads into 2,621 pieces; a
    # polygonize of each district with the roads crossing it (and shapely's split) gives 179.
    "split_polygons_by_lines",
}

_VALIDATORS: dict[int, tuple[ToolSpec, object]] = {}


def _validator(spec: ToolSpec):
    """A compiled validator per spec: jsonschema.validate would re-check the schema on every call."""
    cached = _VALIDATORS.get(id(spec))
    if cached is None or cached[0] is not spec:
        schema = spec.json_schema()
        cached = (spec, jsonschema.validators.validator_for(schema)(schema))
        _VALIDATORS[id(spec)] = cached
    return cached[1]


def validate_args(spec: ToolSpec, args: dict) -> dict:
    """Check arguments against the tool's JSON Schema; return them with defaults filled in."""
    if not isinstance(args, dict):
        raise ValidationError(f"Arguments for {spec.name} must be a JSON object.")
    # An optional parameter sent as null means 'not given' (small models write "field": null for every optional one;
    # the real 1.5B model failed three rounds of visualize_layer this way). A required one stays an error.
    required = {p.name for p in spec.params if p.required}
    args = {k: v for k, v in args.items() if v is not None or k in required}
    try:
        _validator(spec).validate(args)
    except jsonschema.ValidationError as exc:
        where = ".".join(str(p) for p in exc.absolute_path) or "arguments"
        raise ValidationError(
            f"Invalid {where} for {spec.name}: {exc.message}.",
            fix="Parameters: " + ", ".join(f"{p.name} ({p.kind})" for p in spec.params),
        ) from exc
    filled = dict(args)
    for p in spec.params:
        if p.name not in filled and p.default is not None:
            filled[p.name] = p.default
    return filled


def check_layers_and_fields(spec: ToolSpec, args: dict, ctx: RunContext) -> None:
    """Unknown layers and fields fail before any work, with the closest names suggested."""
    for p in spec.params:
        value = args.get(p.name)
        if value is None:
            continue
        if p.kind == "layer":
            ctx.layers.get(value)
        elif p.kind == "layers":
            for v in value:
                ctx.layers.get(v)
    for p in spec.params:
        value = args.get(p.name)
        if value is None or p.kind not in ("field", "fields") or not p.of_layer or p.of_layer not in args:
            continue
        columns = [c for c in _columns(ctx, args[p.of_layer]) if c != "geometry"]
        for f in [value] if p.kind == "field" else value:
            if f not in columns:
                raise ValidationError(
                    f"Layer '{args[p.of_layer]}' has no field '{f}'.",
                    fix=did_you_mean(f, columns, "Fields: " + ", ".join(map(str, columns))),
                )


def _columns(ctx: RunContext, name: str):
    """A layer's or a table's columns (a CSV, a sheet, a DBF without geometry is read as a plain table)."""
    data = ctx.data(name)
    return data.columns if hasattr(data, "columns") else ctx.gdf(name).columns


# Above this many features the GeoPandas half is several times faster than Processing on the same job
# (`make bench-functions`: at 100k features Processing took 9-47 s, the GeoPandas tools 1-5 s).
PROCESSING_MAX_FEATURES = 50_000


def choose_tool(registry: Registry, name: str, args, ctx: RunContext) -> Tool:
    """The implementation to run: Processing where it is available and suits the data, else GeoPandas."""
    tool = registry.preferred(name, args if isinstance(args, dict) else None)
    if tool.name == name or tool.spec.half != "processing":
        return tool
    reason = _processing_unsuited(tool.spec, args, ctx)
    if reason:
        ctx.note(f"Ran with GeoPandas rather than QGIS Processing because {reason}.")
        return registry.get(name)
    return tool


def _processing_unsuited(spec: ToolSpec, args: dict, ctx: RunContext) -> str | None:
    distances = [args.get(p.name) for p in spec.params if p.kind == "distance"]
    has_distance = any(d is not None for d in distances)
    if any(isinstance(d, (int, float)) and d < 0 for d in distances):
        # QGIS returns empty geometries for an inward buffer of points or lines; GeoPandas refuses it clearly.
        return "the distance is negative (an inward buffer)"
    for p in spec.params:
        value = args.get(p.name)
        if p.kind != "layer" or not isinstance(value, str) or ctx.layers.find(value) is None:
            continue
        peek = ctx.peek(value)
        if peek.is_table:
            return f"'{value}' is a table (its geometry, if any, comes from its coordinate columns)"
        if peek.mixed:
            return f"'{value}' mixes geometry types, and QGIS would read only one of them"
        if peek.count is not None and peek.count > PROCESSING_MAX_FEATURES:
            return f"'{value}' has {peek.count:,} features, where GeoPandas is faster"
        if has_distance and peek.lon_span is not None and peek.lon_span > MAX_ZONE_SPAN_DEG:
            return f"'{value}' spans {peek.lon_span:.0f}° of longitude and is measured UTM zone by zone"
    return None


def run_tool(registry: Registry, name: str, args: dict, ctx: RunContext) -> ToolResult:
    """Validate a call, check its layers and fields, and run the implementation that suits the data."""
    ctx.begin_call()
    large = _large_engine(registry, name, args, ctx)
    if large is not None:
        impl, args = large
        ctx.check_cancelled()
        return _call(impl, name, args, ctx)
    tool = choose_tool(registry, name, args, ctx)
    if not tool.available:
        raise ToolError(
            f"The tool '{name}' needs QGIS Processing, which is not available here.",
            fix="Run it inside QGIS or on a machine with PyQGIS.",
        )
    args = validate_args(tool.spec, args)
    if tool.spec.half == "geojson":
        check_layers_and_fields(tool.spec, args, ctx)
    ctx.check_cancelled()
    return _call(tool.impl, name, args, ctx)


def _large_engine(registry: Registry, name: str, args, ctx: RunContext):
    """(implementation, validated arguments) of the large-input engine (dask_engine) when an input is large and the
    GeoPandas tool is ported for them; None to choose between Processing and GeoPandas as usual."""
    if not isinstance(args, dict) or name not in registry or registry.get(name).spec.half != "geojson":
        return None
    spec = registry.get(name).spec
    try:
        filled = validate_args(spec, args)
        for p in spec.params:
            if p.kind == "layer" and isinstance(filled.get(p.name), str):
                ctx.layers.get(filled[p.name])
    except GeoClerkError:
        return None  # the usual path reports it
    from .dask_engine import large_impl

    impl = large_impl(spec, filled, ctx)
    return (impl, filled) if impl is not None else None


def _call(impl: Impl, name: str, args: dict, ctx: RunContext) -> ToolResult:
    try:
        return impl(ctx, **args)
    except GeoClerkError:
        raise
    except Exception as exc:  # noqa: BLE001 - a tool's own failure is reported, never a traceback
        raise ToolError(f"{name} failed: {failure_text(exc)}", fix=FAILURE_FIX, details=repr(exc)) from exc


FAILURE_FIX = "Check that every layer, field and value the tool needs is named in the request, then try again."


def failure_text(exc: Exception) -> str:
    """An unexpected exception in words: a bare KeyError ('layer') names what was missing."""
    if isinstance(exc, KeyError) and exc.args:
        return f"a value it needs ('{exc.args[0]}') was not given or not found"
    text = str(exc).strip()
    return text if text else type(exc).__name__
