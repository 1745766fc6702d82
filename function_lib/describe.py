"""Layer context ("schema analysis"): what the router and the models know about each layer in play."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class FieldInfo:
    """A field: name, a simple type (integer, real, string, date, boolean) and a few sample values."""

    name: str
    type: str
    samples: list = field(default_factory=list)


@dataclass
class LayerInfo:
    """One layer in play, as the router, the planner and the code worker see it."""

    name: str
    path: str | None = None
    layer: str | None = None  # the layer inside a multi-layer file (GeoPackage 'roads'); None: the file's only one
    kind: str = "vector"  # vector or raster
    geometry_type: str | None = None  # Point, LineString, Polygon, Multi..., None for tables
    crs: str | None = None  # "EPSG:4326"; None when the layer has no CRS
    crs_is_geographic: bool | None = None
    feature_count: int = 0
    fields: list[FieldInfo] = field(default_factory=list)
    selected_count: int = 0
    bounds: list[float] | None = None
    origin: str | None = None  # a result of an earlier request: that request ('buffer the schools by 100 m')

    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def to_json(self) -> dict:
        return asdict(self)

    def prompt_text(self) -> str:
        """A compact description for a model prompt."""
        crs = self.crs or "no CRS"
        head = f"- {self.name}: {self.kind}"
        if self.kind == "vector":
            head += f", {self.geometry_type}, {self.feature_count} features, {crs}"
        else:
            head += f", {crs}"
        if self.path:
            head += f", file {Path(self.path).name}"
            if self.layer:
                head += f", layer '{self.layer}' (read it with layer='{self.layer}')"
        lines = [head]
        if self.origin:  # a follow-up's 'them' or 'the same for the cafes' is read against it
            lines.append(f"    (the result of an earlier request: {self.origin!r})")
        for f in self.fields:
            samples = ", ".join(repr(s) for s in f.samples[:3])
            lines.append(f"    {f.name} ({f.type}): {samples}")
        return "\n".join(lines)


def _simple_type(dtype) -> str:
    kind = getattr(dtype, "kind", "O")
    return {"i": "integer", "u": "integer", "f": "real", "b": "boolean", "M": "date"}.get(kind, "string")


def describe_gdf(gdf, name: str, path: str | None = None, samples: int = 3, layer: str | None = None) -> LayerInfo:
    """Describe a GeoDataFrame: geometry type, CRS, count, fields with sample values."""
    geom_types = gdf.geometry.geom_type.dropna().unique().tolist() if len(gdf) else []
    if len(geom_types) == 2 and {t.removeprefix("Multi") for t in geom_types} == {geom_types[0].removeprefix("Multi")}:
        geom_types = ["Multi" + geom_types[0].removeprefix("Multi")]  # Polygon + MultiPolygon is one family
    crs = gdf.crs
    fields = []
    for col in gdf.columns:
        if col == gdf.geometry.name:
            continue
        values = gdf[col].dropna().unique()[:samples].tolist()
        fields.append(FieldInfo(col, _simple_type(gdf[col].dtype), [_plain(v) for v in values]))
    return LayerInfo(
        name=name,
        path=path,
        layer=layer,
        geometry_type=geom_types[0] if len(geom_types) == 1 else ("Mixed" if geom_types else None),
        crs=crs.to_string() if crs is not None else None,
        crs_is_geographic=crs.is_geographic if crs is not None else None,
        feature_count=int(len(gdf)),
        fields=fields,
        bounds=[float(b) for b in gdf.total_bounds] if len(gdf) else None,
    )


def describe_path(path: str | Path, name: str | None = None) -> LayerInfo:
    """Describe a vector or raster file on disk."""
    from .context import RASTER_SUFFIXES

    path = Path(path)
    name = name or path.stem
    if path.suffix.lower() in RASTER_SUFFIXES:
        return _describe_raster(path, name)
    from .io import read_vector

    return describe_gdf(read_vector(path), name, str(path))


def _describe_raster(path: Path, name: str) -> LayerInfo:
    info = LayerInfo(name=name, path=str(path), kind="raster")
    try:
        from osgeo import gdal, osr

        ds = gdal.Open(str(path))
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
    if hasattr(value, "item"):
        return value.item()
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)
