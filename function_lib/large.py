"""Large inputs described through their driver: count, fields, CRS and extent from the header, samples from the
first rows, never the whole file."""

from __future__ import annotations

import re
from pathlib import Path

# Above this size a vector file is described from its header and first rows; below it, reading it whole is quick
# and the read is reused by the tools.
LARGE_FILE_BYTES = 32 * 1024 * 1024
SAMPLE_ROWS = 200
_BLANK = re.compile(rb"\n(?=\r?\n)")  # a line break followed by an empty line
HEADER_SUFFIXES = {".gpkg", ".fgb", ".shp", ".sqlite", ".parquet", ".geoparquet", ".geojson", ".json", ".csv", ".tsv"}


def is_large(path, layer: str | None = None) -> bool:
    """True for a file (GeoPackage, FlatGeobuf, Shapefile, Parquet, GeoJSON, CSV) big enough to be described from its
    header or first rows."""
    path = Path(path)
    if path.suffix.lower() not in HEADER_SUFFIXES or not path.is_file():
        return False
    size = path.stat().st_size + sum(p.stat().st_size for p in path.parent.glob(path.stem + ".dbf"))
    return size > LARGE_FILE_BYTES


def describe_large(path, name: str, layer: str | None = None):
    """The LayerInfo of a large file from its driver (None when the file is small: it is read whole instead)."""
    if not is_large(path, layer):
        return None
    path = Path(path)
    if path.suffix.lower() in (".parquet", ".geoparquet"):
        return _describe_parquet(path, name)
    if path.suffix.lower() in (".csv", ".tsv"):
        return _describe_csv(path, name)
    import pyogrio

    from .describe import LayerInfo, describe_data
    from .tables import layer_or_table

    info = pyogrio.read_info(path, layer=layer, force_feature_count=True)
    head = pyogrio.read_dataframe(path, layer=layer, max_features=SAMPLE_ROWS)
    if type(head).__name__ != "GeoDataFrame":
        head = layer_or_table(head, path.name)
    described: LayerInfo = describe_data(head, name, str(path), layer=layer)
    described.feature_count = int(info["features"])
    if described.kind == "vector":
        geometry_type = info.get("geometry_type")
        if geometry_type and geometry_type != "Unknown":
            described.geometry_type = geometry_type.removesuffix(" Z").removesuffix(" M").replace("2.5D ", "")
        bounds = _header_bounds(path, layer)
        described.bounds = bounds if bounds is not None else None
    described.hint = (described.hint + "; " if described.hint else "") + (
        f"large file: described from its first {min(SAMPLE_ROWS, described.feature_count)} rows"
    )
    return described


def _header_bounds(path: Path, layer: str | None):
    """The extent the file's header records (GeoPackage contents, FlatGeobuf header), without a scan."""
    try:
        import pyogrio

        bounds = pyogrio.read_info(path, layer=layer, force_total_bounds=False).get("total_bounds")
    except Exception:  # noqa: BLE001 - no recorded extent: the description goes without one
        return None
    return [float(b) for b in bounds] if bounds is not None else None


def _describe_parquet(path: Path, name: str):
    """A large (Geo)Parquet from its footer (row count) and its first row group."""
    from .tables import need_pyarrow

    need_pyarrow()
    import pyarrow.parquet as pq

    from .describe import describe_data
    from .tables import layer_or_table

    handle = pq.ParquetFile(path)
    rows = handle.metadata.num_rows
    schema = handle.schema_arrow
    first = handle.read_row_group(0).slice(0, SAMPLE_ROWS) if handle.num_row_groups else schema.empty_table()
    if b"geo" in (handle.schema_arrow.metadata or {}):
        import geopandas as gpd

        head = gpd.GeoDataFrame.from_arrow(first) if hasattr(gpd.GeoDataFrame, "from_arrow") else None
        if head is None:
            return None
    else:
        head = layer_or_table(first.to_pandas(), path.name)
    described = describe_data(head, name, str(path))
    described.feature_count = int(rows)
    described.hint = f"large file: described from its first {min(SAMPLE_ROWS, rows)} rows"
    return described


def _describe_csv(path: Path, name: str):
    """A large CSV from its first rows (read as the whole file would be: separator, decimal comma, geometry from
    its columns) and its line count; None (read it whole) when quoted line breaks make lines differ from rows."""
    from .describe import describe_data
    from .io import read_csv_table
    from .tables import layer_or_table

    head = read_csv_table(path, nrows=SAMPLE_ROWS)
    with open(path, "rb") as handle:
        first = [handle.readline() for _ in range(len(head) + 1)]
    if any(line.count(b'"') % 2 for line in first):
        return None  # a quoted value spans lines: only a full read counts the rows right
    lines, blank, last = 0, 0, b"\n"
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            lines += block.count(b"\n")
            blank += len(_BLANK.findall(block)) + (last == b"\n" and bool(re.match(rb"\r?\n", block)))
            last = block[-1:]
    # the header is no row, nor a blank line (pandas skips them); a last line without its newline is one
    rows = lines - 1 - blank + (last != b"\n")
    described = describe_data(layer_or_table(head, path.name), name, str(path))
    described.feature_count = int(rows)
    described.hint = "; ".join(filter(None, [described.hint, f"large file: described from its first {len(head)} rows"]))
    return described
