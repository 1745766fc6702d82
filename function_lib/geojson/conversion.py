"""GeoPandas tools for acquisition, storage and conversion: download, read, fields, save, reproject, convert."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from ...errors import ToolError, ValidationError
from ...lang import tr
from ..context import RunContext, ToolResult, safe_name
from ..io import checked_layer, read_vector
from ..spec import Param, ToolSpec
from ._base import LAYER, tool_list, vector_result

TOOLS, tool = tool_list()

OVERPASS_URL = "https://overpass-api.de/api/interpreter"
FORMATS = ("gpkg", "geojson", "shp", "csv", "parquet", "fgb", "kml")
DOWNLOAD_TIMEOUT_S = 30


@tool(
    ToolSpec(
        name="download_geojson",
        half="geojson",
        category="acquisition",
        paper_name="DownloadGeoJSONData",
        purpose="Download GeoJSON from a URL, or OSM features by tag in a bbox.",
        params=(
            Param("url", "url", "GeoJSON URL", required=False),
            Param("bbox", "bbox", "[west, south, east, north] in degrees", required=False),
            Param("tag", "string", "OSM tag, like amenity=cafe", required=False),
        ),
        returns="A new layer (EPSG:4326).",
        examples=({"bbox": [13.3, 52.5, 13.4, 52.55], "tag": "amenity=cafe"},),
        keywords=("download", "fetch", "osm", "overpass", "openstreetmap"),
    )
)
def download_geojson(
    ctx: RunContext, url: str | None = None, bbox: list | None = None, tag: str | None = None
) -> ToolResult:
    import geopandas as gpd

    if url:
        payload = _fetch(url)
        source = url
    elif bbox and tag:
        west, south, east, north = bbox
        if not (-180 <= west < east <= 180 and -90 <= south < north <= 90):
            raise ValidationError(f"The bounding box {bbox} is not [west, south, east, north] in degrees.")
        key, _, value = (part.strip() for part in tag.partition("="))
        if not re.fullmatch(r"[\w:.\- ]+", key) or (value and not re.fullmatch(r"[\w:.\- ]+", value)):
            raise ValidationError(f"'{tag}' is not an OSM tag.", fix="Write it as key=value, like amenity=cafe.")
        selector = f'["{key}"="{value}"]' if value else f'["{key}"]'
        query = f"[out:json][timeout:25];nwr{selector}({south},{west},{north},{east});out geom;"
        endpoint = os.environ.get("GEOCLERK_OVERPASS_URL", OVERPASS_URL)
        payload = _osm_to_geojson(_fetch(endpoint, data=urllib.parse.urlencode({"data": query}).encode()))
        source = f"OpenStreetMap {tag} in {bbox}"
    else:
        raise ValidationError("Give either a url, or a bbox and an OSM tag.", fix="For example tag='amenity=cafe'.")
    features = payload.get("features") if isinstance(payload, dict) else None
    if features is None:
        raise ToolError(
            f"{source} did not return GeoJSON features.", fix="Check that the URL serves a FeatureCollection."
        )
    if not features:
        raise ToolError(f"{source} returned no features.", fix="Widen the area or check the tag.")
    gdf = gpd.GeoDataFrame.from_features(features, crs="EPSG:4326")
    name = Path(urllib.parse.urlparse(url).path).stem if url else f"osm_{tag}"
    return vector_result(ctx, gdf, name or "download", f"Downloaded {len(gdf)} features from {source}")


def _fetch(url: str, data: bytes | None = None):
    if urllib.parse.urlparse(url).scheme not in ("http", "https"):
        raise ValidationError(f"'{url}' is not an http(s) URL.", fix="Give a full http:// or https:// address.")
    request = urllib.request.Request(url, data=data, headers={"User-Agent": "GeoClerk"})
    try:
        with urllib.request.urlopen(request, timeout=DOWNLOAD_TIMEOUT_S) as response:
            body = response.read()
    except urllib.error.HTTPError as exc:
        raise ToolError(f"The server at {url} answered HTTP {exc.code}.", fix="Check the URL or query.") from exc
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ToolError(
            f"Could not reach {url} ({reason}); this machine may be offline.",
            fix="Check the internet connection, or download the file yourself and read it with read_vector.",
        ) from exc
    try:
        return json.loads(body)
    except ValueError as exc:
        raise ToolError(f"{url} did not return JSON.", fix="Check that the URL serves GeoJSON.") from exc


def _osm_to_geojson(osm: dict) -> dict:
    """Overpass JSON (with `out geom`) to GeoJSON: nodes as points, closed ways as polygons, others as lines."""
    features = []
    for element in osm.get("elements", []):
        props = {"osm_id": element.get("id"), "osm_type": element.get("type"), **element.get("tags", {})}
        if element.get("type") == "node":
            geometry = {"type": "Point", "coordinates": [element["lon"], element["lat"]]}
        elif element.get("geometry"):
            coords = [[p["lon"], p["lat"]] for p in element["geometry"]]
            closed = len(coords) >= 4 and coords[0] == coords[-1]
            geometry = (
                {"type": "Polygon", "coordinates": [coords]}
                if closed
                else {"type": "LineString", "coordinates": coords}
            )
        else:
            continue
        features.append({"type": "Feature", "properties": props, "geometry": geometry})
    return {"type": "FeatureCollection", "features": features}


@tool(
    ToolSpec(
        name="read_vector",
        half="geojson",
        category="acquisition",
        paper_name="ReadingDataFromGeoJSON",
        purpose="Read a vector file (GeoJSON, GPKG, SHP, FlatGeobuf, GeoParquet, CSV with WKT or X/Y).",
        params=(Param("path", "string", "File path"),),
        returns="A new layer, a copy of the file.",
        keywords=("open", "load", "read", "import"),
    )
)
def read_vector_tool(ctx: RunContext, path: str) -> ToolResult:
    gdf = read_vector(path)
    crs = gdf.crs.to_string() if gdf.crs is not None else "no CRS"
    types = ", ".join(sorted(gdf.geometry.geom_type.dropna().unique())) or "no geometries"
    return vector_result(
        ctx, gdf, Path(path).stem, f"Read {Path(path).name}: {types}, {crs}, fields {_field_list(gdf)}"
    )


def _field_list(gdf) -> str:
    return ", ".join(str(c) for c in gdf.columns if c != gdf.geometry.name) or "none"


@tool(
    ToolSpec(
        name="add_field",
        half="geojson",
        category="storage",
        paper_name="AddFieldToGeoDataFrame",
        purpose="Add a field: a constant value or an expression of other fields.",
        params=(
            LAYER,
            Param("field_name", "string", "Name of the new field"),
            Param("expression", "expression", "Expression, like population / 1000 or $area", required=False),
            Param("value", "string", "Constant value", required=False),
        ),
        returns="A new layer with the field.",
        equivalent="qgis_field_calculator",
        examples=({"layer": "districts", "field_name": "density", "expression": "population / $area"},),
        keywords=("calculate", "compute", "new column", "field calculator"),
    )
)
def add_field(
    ctx: RunContext, layer: str, field_name: str, expression: str | None = None, value: str | None = None
) -> ToolResult:
    from ..expression import evaluate

    if (expression is None) == (value is None):
        raise ValidationError(
            "add_field needs exactly one of expression or value.", fix="Give a constant value or an expression."
        )
    if not field_name.strip():
        raise ValidationError("The new field needs a name.")
    gdf = checked_layer(ctx, layer)
    out = gdf.copy()
    if field_name in out.columns:
        ctx.note(tr("Field '{field}' existed and was overwritten in the new layer.").format(field=field_name))
    out[field_name] = evaluate(expression, gdf) if expression is not None else _typed(value)
    how = f"= {expression}" if expression is not None else f"= {value!r}"
    said = tr("Added field '{field}' {how} to '{layer}'").format(field=field_name, how=how, layer=layer)
    return vector_result(ctx, out, f"{layer}_{field_name}", said, len(gdf))


def _typed(value: str):
    """A constant given as text keeps its type: '3' is an integer, '2.5' a real, anything else text."""
    text = str(value).strip()
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            continue
    return value


@tool(
    ToolSpec(
        name="rename_field",
        half="geojson",
        category="storage",
        paper_name="RenameColumnOfGeoDataFrame",
        purpose="Rename a field.",
        params=(
            LAYER,
            Param("field", "field", "Field to rename", of_layer="layer"),
            Param("new_name", "string", "New field name"),
        ),
        returns="A new layer with the field renamed.",
        keywords=("rename", "column name"),
    )
)
def rename_field(ctx: RunContext, layer: str, field: str, new_name: str) -> ToolResult:
    gdf = checked_layer(ctx, layer, repair=False)
    if not new_name.strip():
        raise ValidationError("The new field name is empty.")
    if new_name in gdf.columns and new_name != field:
        raise ValidationError(f"Layer '{layer}' already has a field '{new_name}'.", fix="Choose another name.")
    out = gdf.rename(columns={field: new_name})
    said = tr("Renamed '{field}' to '{new}' in '{layer}'").format(field=field, new=new_name, layer=layer)
    return vector_result(ctx, out, f"{layer}_renamed", said, len(gdf))


@tool(
    ToolSpec(
        name="save_result",
        half="geojson",
        category="storage",
        paper_name="SaveAsFinalResult",
        purpose="Save a layer as a file in the chosen format.",
        params=(
            LAYER,
            Param("format", "format", "File format", enum=FORMATS),
            Param("name", "string", "File name without extension", required=False),
        ),
        returns="The written file.",
        keywords=("save", "export", "write"),
    )
)
def save_result(ctx: RunContext, layer: str, format: str, name: str | None = None) -> ToolResult:  # noqa: A002
    gdf = checked_layer(ctx, layer, repair=False)
    said = tr("Saved '{layer}' as {format}").format(layer=layer, format=format.upper())
    return _write_as(ctx, gdf, name or layer, format, said)


@tool(
    ToolSpec(
        name="convert_format",
        half="geojson",
        category="storage",
        paper_name="ConvertFileFormat",
        purpose="Convert a layer to another file format.",
        params=(LAYER, Param("format", "format", "Target format", enum=FORMATS)),
        returns="The converted file.",
        keywords=("convert", "to shapefile", "to geojson", "to geopackage"),
    )
)
def convert_format(ctx: RunContext, layer: str, format: str) -> ToolResult:  # noqa: A002
    gdf = checked_layer(ctx, layer, repair=False)
    source = ctx.layers.get(layer).path
    origin = Path(source).suffix.lstrip(".").upper() if source else "memory"
    said = tr("Converted '{layer}' from {origin} to {format}").format(layer=layer, origin=origin, format=format.upper())
    return _write_as(ctx, gdf, layer, format, said)


def _write_as(ctx: RunContext, gdf, name: str, fmt: str, summary: str) -> ToolResult:
    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise ValidationError(f"Unknown format '{fmt}'.", fix="Use one of: " + ", ".join(FORMATS))
    if fmt == "geojson" and gdf.crs is not None and not gdf.crs.equals("EPSG:4326"):
        ctx.note(tr("GeoJSON files are written in the layer's CRS, which RFC 7946 readers may assume is EPSG:4326."))
    if fmt == "shp":
        long_names = [c for c in gdf.columns if len(str(c)) > 10]
        if long_names:
            names = ", ".join(map(str, long_names))
            ctx.note(tr("Shapefile truncates field names to 10 characters: {names}.").format(names=names))
    result = vector_result(ctx, gdf, safe_name(name), summary, len(gdf), fmt=fmt)
    result.summary += tr(" File: {path}").format(path=result.outputs[0].path)
    return result


@tool(
    ToolSpec(
        name="reproject",
        half="geojson",
        category="storage",
        paper_name="TransformProjectionOfGeoDataFrame",
        purpose="Reproject a layer to a CRS; with assign=true only set (or, with crs 'none', clear) the CRS.",
        params=(
            LAYER,
            Param("crs", "crs", "Target CRS, like EPSG:3857"),
            Param("assign", "boolean", "Set the CRS without transforming coordinates", required=False, default=False),
        ),
        returns="A new layer in the target CRS.",
        equivalent="qgis_reproject",
        keywords=("reproject", "transform", "projection", "crs", "epsg"),
    )
)
def reproject(ctx: RunContext, layer: str, crs: str, assign: bool = False) -> ToolResult:
    from pyproj import CRS
    from pyproj.exceptions import CRSError

    gdf = checked_layer(ctx, layer, repair=False)
    old = gdf.crs.to_string() if gdf.crs is not None else "no CRS"
    if crs.strip().lower() in ("none", "", "null"):
        if not assign:
            raise ValidationError(
                "Clearing a CRS needs assign=true.", fix="Call reproject with crs='none', assign=true."
            )
        out = gdf.set_crs(None, allow_override=True)
        return vector_result(ctx, out, f"{layer}_nocrs", f"Cleared the CRS of '{layer}' (was {old})", len(gdf))
    try:
        target = CRS.from_user_input(crs)
    except CRSError as exc:
        raise ValidationError(f"'{crs}' is not a CRS I know.", fix="Use an authority code like EPSG:4326.") from exc
    label = target.to_string()
    if assign:
        out = gdf.set_crs(target, allow_override=True)
        return vector_result(
            ctx, out, f"{layer}_{safe_name(label)}", f"Assigned {label} to '{layer}' (was {old})", len(gdf)
        )
    if gdf.crs is None:
        raise ValidationError(
            f"Layer '{layer}' has no CRS, so it cannot be reprojected.",
            fix="If you know its CRS, assign it first (reproject with assign=true).",
        )
    out = gdf.to_crs(target)
    bad = int((~out.geometry.is_empty & out.geometry.notna() & ~_finite(out)).sum())
    if bad:
        ctx.note(f"{bad} features fall outside the area of {label} and have invalid coordinates.")
    return vector_result(
        ctx, out, f"{layer}_{safe_name(label)}", f"Reprojected '{layer}' from {old} to {label}", len(gdf)
    )


def _finite(gdf):
    import numpy as np

    bounds = gdf.geometry.bounds.to_numpy()
    return np.isfinite(bounds).all(axis=1)


@tool(
    ToolSpec(
        name="flatten_fields",
        half="geojson",
        category="conversion",
        purpose="Spread nested fields (structs and lists, as in GeoParquet from Overture) into plain columns.",
        params=(
            LAYER,
            Param("fields", "fields", "Nested fields to flatten (default: every nested one)", required=False,
                  of_layer="layer"),
        ),  # fmt: skip
        returns="A copy with each struct key in its own column ('names.primary'); lists become JSON text.",
        keywords=("flatten", "unnest", "expand nested fields", "json normalize", "struct columns"),
    )
)
def flatten_fields(ctx: RunContext, layer: str, fields: list | None = None) -> ToolResult:
    from ..tables import flatten_nested, is_table, nested_columns

    data = ctx.data(layer)
    if not is_table(data):
        data = checked_layer(ctx, layer, repair=False)
    nested = nested_columns(data)
    if not nested:
        raise ValidationError(
            f"'{layer}' has no nested fields (structs or lists) to flatten.",
            fix="Nested fields show as type json in the layer's description; this layer has none.",
        )
    plain = [f for f in fields or [] if f not in nested]
    if plain:
        raise ValidationError(
            f"{', '.join(plain)} of '{layer}' {'is' if len(plain) == 1 else 'are'} not nested.",
            fix="Nested fields of '" + layer + "': " + ", ".join(nested),
        )
    chosen = list(fields or nested)
    out = flatten_nested(data, chosen)
    added = [c for c in out.columns if c not in data.columns]
    spread = [c for c in chosen if c not in out.columns]
    texts = [c for c in chosen if c in out.columns]
    summary = f"Flattened '{layer}'"
    if spread:
        summary += f": {', '.join(spread)} into {len(added)} columns ({', '.join(added[:6])}"
        summary += ", …)" if len(added) > 6 else ")"
    if texts:
        summary += f"{';' if spread else ':'} {', '.join(texts)} (lists) written as JSON text"
    if is_table(data):
        return ToolResult(summary=summary + ".", outputs=[ctx.save_table(out, f"{layer}_flat")])
    return vector_result(ctx, out, f"{layer}_flat", summary, len(data))
