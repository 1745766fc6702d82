"""Inputs as users have them: plain tables, geometry found in their columns, GeoParquet, nested values, URLs."""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..errors import DependencyError, GeoClerkError, ToolError, ValidationError
from . import geometry_columns as gc

# Files that are tables unless their columns hold a geometry (a WKT column, X/Y or lon/lat columns).
TEXT_TABLE_SUFFIXES = {".csv", ".tsv", ".txt"}
SHEET_SUFFIXES = {".xlsx", ".xls", ".ods"}
TABLE_SUFFIXES = TEXT_TABLE_SUFFIXES | SHEET_SUFFIXES | {".dbf"}
PARQUET_SUFFIXES = {".parquet", ".geoparquet"}
URL = re.compile(r"^(?:https?|ftp)://", re.IGNORECASE)
SERVICE_PREFIXES = ("OAPIF:", "WFS:")


class NoGeometryError(ValidationError):
    """An input read as a layer that is a table: no geometry column, nor one found in its columns."""


def is_url(path) -> bool:
    text = str(path)
    return bool(URL.match(text)) or text.upper().startswith(SERVICE_PREFIXES)


def is_table(data) -> bool:
    """True for a plain DataFrame (a table), False for a GeoDataFrame or a QGIS layer."""
    return type(data).__name__ == "DataFrame"


def read_input(path, layer: str | None = None):
    """An input file or URL as a GeoDataFrame (a layer) or a DataFrame (a table without geometry).

    Tables get their geometry from their columns when it is there without doubt (see layer_or_table);
    a table that stays a table carries `attrs['geometry_hint']` when its columns could still become one."""
    if is_url(path):
        return _read_url(str(path), layer)
    path = Path(path)
    if not path.exists():
        raise ValidationError(f"The file '{path}' does not exist.", fix="Check the path and try again.")
    suffix = path.suffix.lower()
    try:
        if suffix in PARQUET_SUFFIXES:
            return _read_parquet(path)
        if suffix in TEXT_TABLE_SUFFIXES | SHEET_SUFFIXES or suffix == ".dbf":
            return layer_or_table(read_table_file(path, layer), path.name)
        return _as_layer_or_table(_read_ogr(path, layer), path.name)
    except GeoClerkError:
        raise
    except Exception as exc:  # noqa: BLE001 - any reader failure becomes one clear message
        raise unreadable(path, exc) from exc


def unreadable(path, exc) -> ToolError:
    """The message for an input no reader could open: the file, what was expected, the fix."""
    name = Path(str(path)).name or str(path)
    expected = (
        "a table (CSV, TSV, XLSX, ODS, DBF)"
        if Path(str(path)).suffix.lower() in TABLE_SUFFIXES
        else "a vector file (GeoPackage, GeoJSON, Shapefile, FlatGeobuf, GeoParquet, KML, GML) or a table"
    )
    return ToolError(
        f"Could not read '{name}' as {expected}: {str(exc).strip() or type(exc).__name__}",
        fix="Check that the file is complete and in that format (open it in QGIS to see), or export it again.",
    )


def read_table_file(path, layer: str | None = None):
    """A table file as a DataFrame: CSV/TSV (separator, encoding and decimal commas sniffed), XLSX/ODS (first or
    named sheet, through GDAL), DBF (its .cpg or cp1252 encoding through GDAL)."""
    from .io import read_csv_table

    path = Path(path)
    if path.suffix.lower() in TEXT_TABLE_SUFFIXES:
        return read_csv_table(path)
    import pandas as pd
    import pyogrio

    data = pyogrio.read_dataframe(path, layer=layer, read_geometry=False)
    return pd.DataFrame(data)


def _read_ogr(path: Path, layer: str | None):
    import geopandas as gpd

    return gpd.read_file(path, layer=layer) if layer else gpd.read_file(path)


def _as_layer_or_table(data, name: str):
    """What GDAL read: a layer when it has geometries, else a table (a GeoPackage attribute table, a DBF)."""
    import pandas as pd

    if type(data).__name__ == "GeoDataFrame" and data.geometry.name in data.columns:
        if data.geometry.notna().any() or not len(data):
            return data
        data = pd.DataFrame(data.drop(columns=data.geometry.name))
    return layer_or_table(pd.DataFrame(data), name)


def _read_parquet(path: Path):
    """GeoParquet as a layer; a Parquet file without 'geo' metadata as a table (geometry found in its columns)."""
    need_pyarrow()
    import geopandas as gpd
    import pyarrow.parquet as pq

    metadata = pq.read_schema(path).metadata or {}
    if b"geo" in metadata:
        return gpd.read_parquet(path)
    return layer_or_table(pq.read_table(path).to_pandas(), path.name)


def need_pyarrow() -> None:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError as exc:
        raise DependencyError(
            "Parquet files need the pyarrow package, which is not installed.",
            fix="Install it (pip install pyarrow) or choose gpkg, geojson, fgb, shp or csv.",
        ) from exc


def _read_url(url: str, layer: str | None):
    """A GeoJSON/FlatGeobuf/GeoPackage at a URL, or an OGC API Features / WFS endpoint, through GDAL."""
    import geopandas as gpd

    source = url
    plain = url.split("?")[0].lower()
    if not url.upper().startswith(SERVICE_PREFIXES):
        if "/collections/" in plain and not plain.endswith((".json", ".geojson", ".fgb", ".gpkg")):
            source = "OAPIF:" + url  # an OGC API Features collection
        elif "service=wfs" in url.lower():
            source = "WFS:" + url
    try:
        data = gpd.read_file(source, layer=layer) if layer else gpd.read_file(source)
    except Exception as exc:  # noqa: BLE001 - unreachable server, not GIS data, …
        raise ToolError(
            f"Could not read '{url}' as a vector layer (GeoJSON, FlatGeobuf, GeoPackage, OGC API Features or WFS): "
            f"{str(exc).strip() or type(exc).__name__}",
            fix="Check that the URL opens in a browser and returns GIS data, or download the file and give its path.",
        ) from exc
    return _as_layer_or_table(data, url)


def layer_or_table(df, name: str):
    """df as a layer when its columns give each row a geometry without doubt, else df itself (a table).

    A text column whose values all parse as WKT, WKB (hex) or GeoJSON is the geometry (the first such column;
    others stay text); else one pair of X/Y, lon/lat or easting/northing columns (en/de/zh names) gives points.
    Several pairs (an origin-destination table) leave a table that says how to make lines."""
    import geopandas as gpd
    import pandas as pd

    attrs = dict(df.attrs)  # how it was read (separator, encoding): kept for the description
    df = pd.DataFrame(df)
    df.attrs.update(attrs)
    texts = gc.geometry_text_columns(df)
    if texts:
        column, kind = _preferred(texts)
        geoms, bad = gc.parse_geometry_column(df[column], kind)
        srid = gc.ewkt_srid(df[column].dropna().tolist()) if kind == "wkt" else None
        gdf = gpd.GeoDataFrame(df.drop(columns=[column]), geometry=gpd.GeoSeries(geoms, index=df.index), crs=srid)
        notes = [f"'{name}': geometry read from the {kind.upper()} column '{column}'."]
        if bad:
            notes.append(f"{bad} value{'s' if bad != 1 else ''} of '{column}' did not parse as {kind.upper()} and "
                         "became empty geometries.")  # fmt: skip
        if len(texts) > 1:
            others = ", ".join(c for c, _ in texts if c != column)
            notes.append(f"'{name}' has further geometry columns ({others}), kept as text.")
        return _with_crs_note(gdf, name, f"its {kind.upper()} column '{column}'", notes, srid)
    pairs = gc.coordinate_pairs(df)
    numeric = [p for p in pairs if p.numeric]
    if pairs and not numeric:
        first = pairs[0]
        raise ValidationError(
            f"'{name}' has {first.label} columns, but they hold no numbers (first values: "
            f"{df[first.x].iloc[0]!r}, {df[first.y].iloc[0]!r}).",
            fix="Write the coordinates as plain numbers (decimal point or decimal comma).",
        )
    if len(numeric) == 1:
        pair = numeric[0]
        x, y = (pd.to_numeric(df[c], errors="coerce") for c in (pair.x, pair.y))
        gdf = gpd.GeoDataFrame(df, geometry=gpd.points_from_xy(x, y), crs=None)
        gdf.loc[x.isna() | y.isna(), gdf.geometry.name] = None
        return _with_crs_note(gdf, name, f"its {pair.label} columns", [], None, pair)
    if len(numeric) > 1:
        labels = ", ".join(p.label for p in numeric)
        df.attrs["geometry_hint"] = (
            f"coordinate pairs {labels}: not one location per row, so no geometry was made; lines from one pair to "
            "the next with xy_to_line, or points from one pair with a filter or generated code"
        )
        df.attrs["coordinate_pairs"] = [[p.x, p.y] for p in numeric]
    return df


_GEOMETRY_NAMES = re.compile(r"geom|wkt|wkb|shape|geojson|the_geom|footprint|boundary|几何|geometrie", re.IGNORECASE)


def _preferred(texts):
    named = [t for t in texts if _GEOMETRY_NAMES.search(t[0])]
    return (named or texts)[0]


def _with_crs_note(gdf, name: str, source: str, notes: list[str], srid, pair=None):
    """gdf with EPSG:4326 assumed only when the coordinates leave no doubt (degrees), else no CRS and a note."""
    import numpy as np

    if srid is None and len(gdf):
        valid = gdf.geometry[gdf.geometry.notna() & ~gdf.geometry.is_empty]
        bounds = valid.bounds.to_numpy() if len(valid) else np.empty((0, 4))
        xs, ys = bounds[:, [0, 2]].ravel(), bounds[:, [1, 3]].ravel()
        named_xy = pair is None or pair.family in gc.DEGREE_FAMILIES or pair.family == "xy"
        if named_xy and gc.in_degrees(xs, ys):
            gdf = gdf.set_crs("EPSG:4326")
            notes.append(f"'{name}' has no CRS; assumed EPSG:4326 (WGS 84 longitude/latitude) from {source}, whose "
                         "values are all degrees.")  # fmt: skip
        else:
            why = "are not longitude/latitude" if pair is None or pair.family != "lonlat" else "exceed ±180/±90"
            if pair is not None and pair.family == "lonlat" and len(xs) and gc.in_degrees(ys, xs):
                why += f"; they fit as degrees with {pair.x} and {pair.y} swapped: check the column names"
            notes.append(f"'{name}' has no CRS (the coordinates of {source} {why}); assign one with reproject and "
                         "assign=true (e.g. crs EPSG:32633) before measuring.")  # fmt: skip
    gdf.attrs["crs_note"] = " ".join(notes)
    return gdf


# -- nested values (Overture-style structs and lists) ---------------------------------------------
def is_nested(value) -> bool:
    return isinstance(value, (dict, list, tuple)) or type(value).__name__ == "ndarray"


def as_json_text(value):
    """A nested value (dict, list, array) as compact JSON text; other values unchanged."""
    if not is_nested(value):
        return value
    return json.dumps(_plain_nested(value), ensure_ascii=False, separators=(",", ":"), default=str)


def _plain_nested(value):
    if isinstance(value, dict):
        return {str(k): _plain_nested(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ndarray":
        return [_plain_nested(v) for v in list(value)]
    return value.item() if hasattr(value, "item") else value


def nested_columns(df) -> list[str]:
    """The object columns holding dicts, lists or arrays (checked on their first non-empty values)."""
    found = []
    for column in df.columns:
        if column == getattr(df, "_geometry_column_name", None) or df[column].dtype.kind != "O":
            continue
        head = df[column].dropna().head(20).tolist()
        if any(is_nested(v) for v in head):
            found.append(column)
    return found


def nested_as_text(df):
    """A copy of df with nested columns written as JSON text (for formats that cannot store them)."""
    columns = nested_columns(df)
    if not columns:
        return df
    out = df.copy()
    for column in columns:
        out[column] = out[column].map(as_json_text)
    return out


def flatten_nested(df, columns=None, sep: str = "."):
    """df with struct (dict) columns spread into one column per key ('names.primary'); lists stay JSON text."""
    import pandas as pd

    columns = nested_columns(df) if columns is None else columns
    out = df
    for column in columns:
        values = out[column]
        if values.dropna().map(lambda v: isinstance(v, dict)).all() and values.notna().any():
            spread = pd.json_normalize([v if isinstance(v, dict) else {} for v in values], sep=sep)
            spread.index = out.index
            spread.columns = [f"{column}{sep}{c}" for c in spread.columns]
            spread = spread.map(as_json_text)
            position = list(out.columns).index(column)
            left, right = out.iloc[:, :position], out.iloc[:, position + 1 :]
            out = pd.concat([left, spread, right], axis=1)
            if type(df).__name__ == "GeoDataFrame":
                import geopandas as gpd

                out = gpd.GeoDataFrame(out, geometry=df.geometry.name, crs=df.crs)
        else:
            out = out.assign(**{column: values.map(as_json_text)})
    return out
