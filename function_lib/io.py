"""Reading and writing vector data with GeoPandas: every format the library accepts."""

from __future__ import annotations

from pathlib import Path

from ..errors import ToolError, ValidationError
from .tables import PARQUET_SUFFIXES, TABLE_SUFFIXES, is_table, need_pyarrow, nested_as_text

# GeoPackage 1.2: older GDALs (QGIS 3.22 on Debian 12 has 3.6) warn on every open of a 1.4 file.
GPKG_OPTIONS = {"GPKG": {"VERSION": "1.2"}}

WRITE_DRIVERS = {
    ".gpkg": "GPKG",
    ".geojson": "GeoJSON",
    ".json": "GeoJSON",
    ".shp": "ESRI Shapefile",
    ".fgb": "FlatGeobuf",
    ".kml": "KML",  # GDAL writes KML in EPSG:4326 whatever the layer's CRS
}


def read_vector(path: str | Path, layer: str | None = None):
    """Read GeoJSON, GeoPackage, Shapefile, FlatGeobuf, GeoParquet, a URL, or a table whose columns hold the
    geometry (WKT/WKB/GeoJSON text, X/Y or lon/lat) (layer: one layer of a multi-layer file, else its first).

    A table without geometry raises NoGeometryError, which says what the table can be used for."""
    from .tables import read_input

    data = read_input(path, layer)
    if is_table(data):
        raise no_geometry_error(data, Path(str(path)).name)
    return data


def no_geometry_error(df, name: str):
    """NoGeometryError for a table asked for as a layer: its columns, a hint from them, and what to do."""
    from .tables import NoGeometryError

    columns = [str(c) for c in df.columns]
    shown = ", ".join(columns[:12]) + (f", … ({len(columns)} columns)" if len(columns) > 12 else "")
    hint = df.attrs.get("geometry_hint")
    found = f"it has {hint}" if hint else (
        f"none of its columns ({shown}) holds WKT/WKB/GeoJSON geometries or an X/Y or lon/lat pair")
    return NoGeometryError(
        f"'{name}' is a table without geometry: {found}.",
        fix="Use it as a table (join it to a layer by a key, statistics), or add a WKT column or X and Y "
        "(lon and lat) columns.",
    )


CSV_SEPARATORS = (",", ";", "\t", "|")
# A number written with a decimal comma, optionally with '.' or a space as thousands separator: 1200,5 / 1.200,5
# (a literal no-break space, not the escape: pandas runs these on pyarrow's RE2 when pyarrow is installed)
_DECIMAL_COMMA = r"^[+-]?(?:\d{1,3}(?:[.  ]\d{3})+|\d+)(?:,\d+)?$"


def read_csv_table(path: str | Path, nrows: int | None = None):
    """A CSV/TSV as a DataFrame: the separator (, ; tab |) and the encoding sniffed, and columns written with a
    decimal comma (the European Excel export: `umsatz;lat` / `1200,5;52,52`) read as numbers."""
    import pandas as pd

    path = Path(path)
    raw = path.read_bytes()[:65536]
    encoding = "utf-8-sig"
    try:
        sample = raw.decode(encoding)
    except UnicodeDecodeError as exc:  # a cut multi-byte character at the sample's end is still UTF-8
        if exc.start >= len(raw) - 3:
            sample = raw[: exc.start].decode(encoding)
        else:
            encoding = "cp1252"
            sample = raw.decode(encoding, errors="replace")
    sep = "\t" if path.suffix.lower() == ".tsv" else sniff_separator(sample)
    df = pd.read_csv(path, sep=sep, encoding=encoding, nrows=nrows)
    if sep != ",":
        before = set(df.select_dtypes("number").columns)
        df = decimal_comma_columns(df)
        df.attrs["decimal_comma"] = set(df.select_dtypes("number").columns) != before
    df.attrs.update(separator=sep, encoding=encoding)  # how generated code reads it the same way
    return df


def sniff_separator(sample: str) -> str:
    """The separator of a CSV sample: the candidate splitting the header into the most columns that splits
    the next lines into the same number (quoted text is respected)."""
    import csv
    import io

    lines = [line for line in sample.splitlines()[:20] if line.strip()]
    if len(lines) > 1 and not sample.endswith(("\n", "\r")):
        lines = lines[:-1]  # the sample may cut the last line
    best, best_cols = ",", 1
    for sep in CSV_SEPARATORS:
        rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=sep))
        if not rows:
            continue
        cols = len(rows[0])
        if cols > best_cols and all(len(r) == cols for r in rows[1:]):
            best, best_cols = sep, cols
    return best


def decimal_comma_columns(df):
    """df with text columns whose every value is a decimal-comma number (1200,5 / 1.200,5) made numeric."""
    import pandas as pd

    for column in df.columns:
        values = df[column]
        if values.dtype != object and not pd.api.types.is_string_dtype(values):
            continue
        text = values.dropna().astype(str).str.strip()
        text = text[text != ""]
        if text.empty or not text.str.contains(",").any() or not text.str.fullmatch(_DECIMAL_COMMA).all():
            continue
        plain = text.str.replace("[.  ]", "", regex=True).str.replace(",", ".", regex=False)
        df[column] = pd.to_numeric(plain, errors="coerce").reindex(df.index)
    return df


def sidecars(path: Path) -> list[Path]:
    """A shapefile's companion files (.dbf, .shx, .prj, .cpg, …), which travel with it; none for other formats."""
    if path.suffix.lower() != ".shp":
        return []
    return [p for p in path.parent.glob(path.stem + ".*") if p != path]


def write_vector(gdf, path: str | Path) -> str:
    """Write a GeoDataFrame; the format follows the suffix (GeoPackage by default)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".geoparquet"):
        need_pyarrow()
        gdf.to_parquet(path)
    elif suffix == ".csv":
        out = nested_as_text(gdf.copy())
        out["wkt"] = gdf.geometry.to_wkt()
        out.drop(columns=gdf.geometry.name).to_csv(path, index=False)
    else:
        driver = WRITE_DRIVERS.get(suffix)
        if driver is None:
            raise ValidationError(
                f"Cannot write '{suffix}' files.", fix="Use gpkg, geojson, shp, fgb, kml, csv or parquet."
            )
        # structs and lists (GeoParquet, Overture) have no field type in these formats: written as JSON text
        nested_as_text(gdf).to_file(path, driver=driver, **GPKG_OPTIONS.get(driver, {}))
    return str(path)


# -- checked inputs: the validation every tool does before any work ---------------------------
GEOMETRY_FAMILIES = {
    "point": {"Point", "MultiPoint"},
    "line": {"LineString", "MultiLineString", "LinearRing"},
    "polygon": {"Polygon", "MultiPolygon"},
}
# shapely.get_type_id codes: -1 missing, 0 Point, 1 LineString, 2 LinearRing, 3 Polygon, 4 MultiPoint, ...
TYPE_NAMES = {0: "Point", 1: "LineString", 2: "LinearRing", 3: "Polygon", 4: "MultiPoint", 5: "MultiLineString",
              6: "MultiPolygon", 7: "GeometryCollection"}  # fmt: skip


def checked_layer(ctx, name: str, expect: tuple[str, ...] | str | None = None, repair: bool = True):
    """The named layer, refused when empty or of the wrong geometry type, invalid geometries repaired.

    expect names the accepted geometry families ("point", "line", "polygon"). Repaired geometries
    are noted in ctx; the cached input is never modified (a repaired copy is returned).
    """
    gdf = ctx.gdf(name)
    if len(gdf) == 0:
        raise ToolError(f"Layer '{name}' is empty (0 features).", fix="Choose a layer that has features.")
    note_read_crs(ctx, name, gdf)
    if expect or repair:
        type_ids = _type_ids(gdf)
    if expect:
        check_geometry_type(gdf, name, (expect,) if isinstance(expect, str) else expect, type_ids)
    if repair:
        gdf = repaired(ctx, gdf, name, type_ids)
    return gdf


READ_FROM_COLUMNS = TABLE_SUFFIXES | PARQUET_SUFFIXES  # files whose geometry may come from their columns


def note_read_crs(ctx, name: str, gdf) -> None:
    """Say where a table's geometry and CRS came from when read (only for the input itself, not later results)."""
    text = gdf.attrs.get("crs_note")
    entry = ctx.layers.find(name)
    if text and entry is not None and entry.path and Path(entry.path).suffix.lower() in READ_FROM_COLUMNS:
        ctx.note(text)


def _type_ids(gdf):
    import numpy as np
    import shapely

    return shapely.get_type_id(np.asarray(gdf.geometry.array))


def check_geometry_type(gdf, name: str, expect: tuple[str, ...], type_ids=None) -> None:
    """ValidationError naming the expected and the actual geometry types when they do not fit."""
    import numpy as np

    type_ids = _type_ids(gdf) if type_ids is None else type_ids
    allowed = set().union(*(GEOMETRY_FAMILIES[e] for e in expect))
    present = {TYPE_NAMES[int(t)] for t in np.unique(type_ids) if t >= 0}
    wrong = present - allowed
    if wrong or not present:
        got = ", ".join(sorted(present)) or "no geometries"
        raise ValidationError(
            f"Layer '{name}' has {got} geometries, but this tool expects {' or '.join(expect)} geometries.",
            fix=f"Use a {' or '.join(expect)} layer, or convert the layer first.",
        )


def repaired(ctx, gdf, name: str, type_ids=None):
    """gdf with invalid geometries made valid (vectorized make_valid), noted in ctx; gdf itself if all valid."""
    return _repair(ctx, gdf, name, invalid_mask(gdf, type_ids))


def invalid_mask(gdf, type_ids=None):
    """True where a geometry is invalid (points are always valid and skip the costly GEOS test)."""
    return cached_invalid(gdf.geometry.array, type_ids)


# id(GeometryArray) -> (weak reference, invalid mask): a layer's validity is tested once, so a chain or a second
# request on the same cached input does not test it again. Tools never change an input's geometries in place.
_VALIDITY: dict[int, tuple] = {}


def cached_invalid(array, type_ids=None):
    """_invalid for a GeometryArray, remembered while that array lives."""
    import numpy as np

    key = id(array)
    hit = _VALIDITY.get(key)
    if hit is not None and hit[0]() is array and len(hit[1]) == len(array):
        return hit[1]
    mask = _invalid(np.asarray(array), type_ids)
    remember_validity(array, mask)
    return mask


def remember_validity(array, mask) -> None:
    import weakref

    key = id(array)
    try:
        ref = weakref.ref(array, lambda _, key=key: _VALIDITY.pop(key, None))
    except TypeError:  # not weak-referenceable: nothing is cached
        return
    _VALIDITY[key] = (ref, mask)


def _invalid(geoms, type_ids=None):
    """invalid_mask on a plain array of geometries: pure Shapely, so it may run in another thread."""
    import numpy as np
    import shapely

    type_ids = shapely.get_type_id(geoms) if type_ids is None else type_ids
    invalid = np.zeros(len(geoms), dtype=bool)
    to_test = (type_ids >= 0) & ~np.isin(type_ids, (0, 4))
    if to_test.any():
        invalid[to_test] = ~shapely.is_valid(geoms[to_test])
    return invalid


def _repair(ctx, gdf, name: str, invalid):
    import numpy as np
    import shapely

    count = int(invalid.sum())
    if not count:
        return gdf
    geoms = np.asarray(gdf.geometry.array).copy()
    geoms[invalid] = shapely.make_valid(geoms[invalid])
    fixed = gdf.set_geometry(type(gdf.geometry)(geoms, index=gdf.index, crs=gdf.crs, name=gdf.geometry.name))
    remember_validity(fixed.geometry.array, np.zeros(len(fixed), dtype=bool))  # make_valid output is valid
    ctx.note(f"Repaired {count} invalid geometr{'y' if count == 1 else 'ies'} in '{name}' with make_valid.")
    return fixed


def run_validated(ctx, compute, *layers):
    """compute(*gdfs) for (gdf, name) layers while their validity is tested alongside in a thread.

    Invalid geometries are rare, so the operation runs speculatively on the inputs as given and the
    GEOS validity test (which releases the GIL) uses the other core. When some geometry was invalid,
    the inputs are repaired (and noted) and compute runs again on them: the result is the same as
    repairing first, at no extra wall time in the common case.
    """
    from concurrent.futures import ThreadPoolExecutor

    gdfs = [gdf for gdf, _ in layers]
    # The thread only reads the geometry arrays taken here (validity cached per array): no pandas object.
    arrays = [gdf.geometry.array for gdf in gdfs]
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(lambda: [cached_invalid(array) for array in arrays])
        result, error = None, None
        try:
            result = compute(*gdfs)
        except Exception as exc:  # noqa: BLE001 - an invalid geometry may be the cause; decided below
            error = exc
        masks = future.result()
    if not any(mask.any() for mask in masks):
        if error is not None:
            raise error
        return result
    return compute(*(_repair(ctx, gdf, name, mask) for (gdf, name), mask in zip(layers, masks)))


def aligned(ctx, first, second, first_name: str, second_name: str):
    """second in the CRS of first (reprojected and noted when they differ); refused when only one has a CRS."""
    if first.crs is None and second.crs is None:
        return second
    if first.crs is None or second.crs is None:
        missing = first_name if first.crs is None else second_name
        raise ValidationError(
            f"Layer '{missing}' has no CRS, so it cannot be matched with the other layer.",
            fix=f"Assign the right CRS to '{missing}' first (reproject with assign=true).",
        )
    if first.crs == second.crs:
        return second
    ctx.note(
        f"Reprojected '{second_name}' from {crs_label(second.crs)} to {crs_label(first.crs)} to match '{first_name}'."
    )
    return second.to_crs(first.crs)


def note_if_disjoint(ctx, first, second, first_name: str, second_name: str, what: str = "the result is empty") -> None:
    """Note that two layers (same CRS) do not overlap at all, when a tool found nothing: say why it is empty."""
    import shapely

    if len(first) == 0 or len(second) == 0:
        return
    a, b = shapely.box(*first.total_bounds), shapely.box(*second.total_bounds)
    if not a.intersects(b):
        fmt = ", ".join
        ctx.note(
            f"'{first_name}' and '{second_name}' do not overlap (extents [{fmt(f'{v:.6g}' for v in a.bounds)}] and "
            f"[{fmt(f'{v:.6g}' for v in b.bounds)}] in {crs_label(first.crs)}), so {what}."
        )


LOCAL_PROJECTIONS = ("Lambert Azimuthal Equal Area", "Azimuthal Equidistant")


def crs_label(crs) -> str:
    """'EPSG:32633' when the CRS has a code; a local projection described with its centre; else its name."""
    if crs is None:
        return "no CRS"
    epsg = crs.to_epsg()
    if epsg:
        return f"EPSG:{epsg}"
    operation = getattr(crs, "coordinate_operation", None)
    method = operation.method_name if operation is not None else ""
    if any(name.lower() in method.lower() for name in LOCAL_PROJECTIONS):
        params = {p.name: p.value for p in operation.params}
        lat, lon = params.get("Latitude of natural origin", 0), params.get("Longitude of natural origin", 0)
        return f"a local {method} projection centred on lat {lat:g}, lon {lon:g}"
    return crs.name


def read_table(ctx, name: str):
    """The named layer or table as a plain DataFrame (a layer's attributes without its geometry)."""
    import pandas as pd

    data = ctx.data(name)
    if _has_geometry(data):
        return pd.DataFrame(data.drop(columns=data.geometry.name))
    return data


def _has_geometry(data) -> bool:
    return type(data).__name__ == "GeoDataFrame"
