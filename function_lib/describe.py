"""Layer context ("schema analysis"): what the router and the models know about each layer in play."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from .context import url_file_name
from .tables import is_url

# Characters of one layer's description: ≤ ~1.4k tokens even for field names like attribute_number_017, which
# tokenise at under 3 characters a token (tests/test_inputs_content.py counts with the agent's tokenizer).
PROMPT_BUDGET = 4000
SAMPLE_CHARS = 60  # a sample longer than this (a WKT, a JSON struct) is cut


@dataclass
class FieldInfo:
    """A field: name, a simple type (integer, real, string, date, boolean) and a few sample values."""

    name: str
    type: str
    samples: list = field(default_factory=list)


@dataclass
class LayerInfo:
    """One layer (or table) in play, as the router, the planner and the code worker see it."""

    name: str
    path: str | None = None
    layer: str | None = None  # the layer inside a multi-layer file (GeoPackage 'roads'); None: the file's only one
    kind: str = "vector"  # vector, raster, or table (rows without geometry)
    geometry_type: str | None = None  # Point, LineString, Polygon, Multi..., None for tables
    crs: str | None = None  # "EPSG:4326"; None when the layer has no CRS
    crs_is_geographic: bool | None = None
    feature_count: int = 0
    fields: list[FieldInfo] = field(default_factory=list)
    selected_count: int = 0
    bounds: list[float] | None = None
    origin: str | None = None  # a result of an earlier request: that request ('buffer the schools by 100 m')
    hint: str | None = None  # how to read it, or what its columns could become (a table's coordinate pairs)

    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def to_json(self) -> dict:
        return asdict(self)

    def prompt_text(self, budget: int = PROMPT_BUDGET) -> str:
        """A compact description for a model prompt, at most ~budget characters (≈ budget/4 tokens): fields with
        samples while they fit, then the names of the rest, then how many were left out."""
        crs = self.crs or "no CRS"
        head = f"- {self.name}: {self.kind}"
        if self.kind == "vector":
            head += f", {self.geometry_type}, {self.feature_count} features, {crs}"
        elif self.kind == "table":
            head += f" (no geometry), {self.feature_count} rows"
        else:
            head += f", {crs}"
        if self.path and is_url(self.path):
            head += f", from {self.path} (file {url_file_name(self.name, self.kind == 'table')} for code)"
        elif self.path:
            head += f", file {Path(self.path).name}"
            if self.layer:
                what = "sheet" if Path(self.path).suffix.lower() in (".xlsx", ".xls", ".ods") else "layer"
                head += f", {what} '{self.layer}' (read it with layer='{self.layer}')"
        lines = [head] + ([f"    ({self.hint})"] if self.hint else [])
        if self.origin:  # a follow-up's 'them' or 'the same for the cafes' is read against it
            lines.append(f"    (the result of an earlier request: {self.origin!r})")
        used = sum(len(line) + 1 for line in lines)
        for n, f in enumerate(self.fields):
            samples = ", ".join(_short(repr(s)) for s in f.samples[:3])
            line = f"    {f.name} ({f.type}): {samples}"
            if used + len(line) + 1 > budget * 0.7:
                rest = self.fields[n:]
                names = _names_within([x.name for x in rest], budget - used - 80)
                tail = f"    {len(rest)} more fields ({'names only' if names else 'not shown'}"
                tail += f": {', '.join(names)}" if names else ""
                left = len(rest) - len(names)
                tail += f"; {left} not shown" if names and left else ""
                lines.append(tail + ")")
                break
            lines.append(line)
            used += len(line) + 1
        return "\n".join(lines)


def _short(text: str) -> str:
    return text if len(text) <= SAMPLE_CHARS else text[: SAMPLE_CHARS - 1] + "…"


def _names_within(names: list[str], budget: int) -> list[str]:
    shown, used = [], 0
    for name in names:
        if used + len(name) + 2 > budget:
            break
        shown.append(name)
        used += len(name) + 2
    return shown


def _simple_type(dtype) -> str:
    kind = getattr(dtype, "kind", "O")
    return {"i": "integer", "u": "integer", "f": "real", "b": "boolean", "M": "date"}.get(kind, "string")


def _fields(df, skip: str | None, samples: int) -> list[FieldInfo]:
    """Fields with a simple type and the first distinct sample values; nested values (structs, lists) as JSON
    text, typed 'json', so a GeoParquet from Overture is described rather than crashing on unhashable dicts."""
    from .tables import as_json_text, is_nested

    fields = []
    for col in df.columns:
        if col == skip:
            continue
        values = df[col].dropna()
        if values.dtype.kind == "O" and len(values) and any(is_nested(v) for v in values.head(20)):
            seen: list = []
            for v in values.head(200):
                text = as_json_text(v)
                if text not in seen:
                    seen.append(text)
                if len(seen) >= samples:
                    break
            fields.append(FieldInfo(str(col), "json", seen))
            continue
        head = values.head(2000)
        try:
            picked = head.unique()[:samples].tolist()
        except TypeError:  # other unhashable objects
            picked = list(dict.fromkeys(map(str, head)))[:samples]
        fields.append(FieldInfo(str(col), _simple_type(df[col].dtype), [_plain(v) for v in picked]))
    return fields


def describe_gdf(gdf, name: str, path: str | None = None, samples: int = 3, layer: str | None = None) -> LayerInfo:
    """Describe a GeoDataFrame: geometry type, CRS, count, fields with sample values."""
    geom_types = gdf.geometry.geom_type.dropna().unique().tolist() if len(gdf) else []
    if len(geom_types) == 2 and {t.removeprefix("Multi") for t in geom_types} == {geom_types[0].removeprefix("Multi")}:
        geom_types = ["Multi" + geom_types[0].removeprefix("Multi")]  # Polygon + MultiPolygon is one family
    crs = gdf.crs
    valid = gdf.geometry.notna() & ~gdf.geometry.is_empty if len(gdf) else None
    return LayerInfo(
        name=name,
        path=path,
        layer=layer,
        geometry_type=geom_types[0] if len(geom_types) == 1 else ("Mixed" if geom_types else None),
        crs=crs.to_string() if crs is not None else None,
        crs_is_geographic=crs.is_geographic if crs is not None else None,
        feature_count=int(len(gdf)),
        fields=_fields(gdf, gdf.geometry.name, samples),
        bounds=[float(b) for b in gdf[valid].total_bounds] if valid is not None and valid.any() else None,
    )


def describe_table(df, name: str, path: str | None = None, samples: int = 3, layer: str | None = None) -> LayerInfo:
    """Describe a table without geometry: row count, columns with types and samples, and a hint from its columns."""
    hint = df.attrs.get("geometry_hint")
    if path and Path(path).suffix.lower() in (".csv", ".tsv", ".txt"):
        sep = df.attrs.get("separator")
        read = f"read it with pandas.read_csv(sep={sep!r}" + (", decimal=','" if df.attrs.get("decimal_comma") else "")
        hint = "; ".join(filter(None, [hint, read + (f", encoding={df.attrs['encoding']!r})" if df.attrs.get(
            "encoding") not in (None, "utf-8-sig") else ")")]))  # fmt: skip
    return LayerInfo(
        name=name, path=path, layer=layer, kind="table", feature_count=int(len(df)),
        fields=_fields(df, None, samples), hint=hint,
    )  # fmt: skip


def describe_data(data, name: str, path: str | None = None, layer: str | None = None) -> LayerInfo:
    """describe_gdf for a layer, describe_table for a table."""
    if type(data).__name__ == "DataFrame":
        return describe_table(data, name, path, layer=layer)
    return describe_gdf(data, name, path, layer=layer)


def describe_path(path: str | Path, name: str | None = None) -> LayerInfo:
    """Describe a vector, table or raster file on disk (a big vector file through its driver, never read whole)."""
    from .context import RASTER_SUFFIXES

    path = Path(path)
    name = name or path.stem
    if path.suffix.lower() in RASTER_SUFFIXES:
        return _describe_raster(path, name)
    from .large import describe_large

    info = describe_large(path, name)
    if info is not None:
        return info
    from .tables import read_input

    return describe_data(read_input(path), name, str(path))


def _describe_raster(path: Path, name: str) -> LayerInfo:
    info = LayerInfo(name=name, path=str(path), kind="raster")
    try:
        from osgeo import gdal, osr

        try:
            ds = gdal.Open(str(path))
        except RuntimeError as exc:  # GDAL with exceptions on
            ds, reason = None, str(exc)
        else:
            reason = gdal.GetLastErrorMsg()
        if ds is None:
            from ..errors import ToolError

            raise ToolError(
                f"Could not read '{path.name}' as a raster (GeoTIFF, ASCII grid, VRT, NetCDF, …): "
                f"{reason.strip() or 'GDAL cannot open it'}",
                fix="Check that the file is complete and in that format (open it in QGIS to see), or export it again.",
            )
        srs = osr.SpatialReference(wkt=ds.GetProjection()) if ds.GetProjection() else None
        if srs is not None:
            srs.AutoIdentifyEPSG()
            code = srs.GetAuthorityCode(None)
            info.crs = f"EPSG:{code}" if code else srs.ExportToProj4()
            info.crs_is_geographic = bool(srs.IsGeographic())
        info.fields = [FieldInfo(f"band_{i}", "real") for i in range(1, ds.RasterCount + 1)]
    except ImportError:
        pass
    return info


def _plain(value):
    """JSON-friendly sample value."""
    if hasattr(value, "item") and getattr(value, "ndim", 0) == 0:
        return value.item()
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def describe_entry(entry, ctx=None) -> LayerInfo:
    """Describe one input of a LayerStore: a raster from GDAL, a large vector file through its driver, anything
    else from its read (through ctx when given, so the tools reuse that read)."""
    from .context import output_kind
    from .large import describe_large

    if entry.path and entry.data is None and entry.loader is None:
        if output_kind(entry.path) == "raster":
            return describe_path(entry.path, entry.name)
        large = describe_large(entry.path, entry.name, entry.layer)
        if large is not None:
            return large
    if ctx is not None:
        data = ctx.data(entry.name)
    else:
        from .tables import read_input

        data = read_input(entry.path, layer=entry.layer)
    return describe_data(data, entry.name, entry.path, layer=entry.layer)
