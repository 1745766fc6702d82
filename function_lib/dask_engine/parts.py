"""Large inputs read in partitions (pyogrio for GeoPackage, FlatGeobuf, Shapefile; pyarrow row groups for GeoParquet)
through dask-geopandas, their size learnt from the header, and results written partition by partition."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

PARQUET = (".parquet", ".geoparquet")
PARTITIONED = (".gpkg", ".fgb", ".shp", ".geojsonseq") + PARQUET


@dataclass
class Source:
    """A large input: its file, layer, feature count, extent and CRS from the header, and its columns."""

    path: str
    layer: str | None
    count: int
    bounds: tuple | None
    crs: object
    columns: list
    dtypes: dict

    @property
    def is_parquet(self) -> bool:
        return Path(self.path).suffix.lower() in PARQUET


def source(ctx, name: str) -> Source | None:
    """The named input as a partitionable file (None for a layer without a file, a table, or another format). A copy
    read into memory (a small input described whole) is left aside: the file is what is partitioned."""
    entry = ctx.layers.find(name)
    if entry is None or not entry.path:
        return None
    path = Path(entry.path)
    if path.suffix.lower() not in PARTITIONED or not path.is_file():
        return None
    try:
        if path.suffix.lower() in PARQUET:
            return _parquet_source(path)
        import pyogrio

        info = pyogrio.read_info(path, layer=entry.layer, force_feature_count=True, force_total_bounds=True)
    except Exception:  # noqa: BLE001 - unreadable header: the in-memory half reads it and says why
        return None
    if info.get("geometry_type") in (None, "Unknown") and not len(info.get("fields", [])):
        return None
    bounds = info.get("total_bounds")
    return Source(
        str(path),
        entry.layer,
        int(info["features"]),
        tuple(float(b) for b in bounds) if bounds is not None else None,
        info.get("crs"),
        [str(f) for f in info["fields"]],
        dict(zip(map(str, info["fields"]), map(str, info["dtypes"]))),
    )


def _parquet_source(path: Path) -> Source | None:
    import json

    import pyarrow.parquet as pq

    handle = pq.ParquetFile(path)
    geo = json.loads((handle.schema_arrow.metadata or {}).get(b"geo", b"null") or "null")
    if not geo:
        return None  # a plain Parquet table: read whole as today
    column = geo["primary_column"]
    meta = geo["columns"][column]
    bbox = meta.get("bbox")
    crs = meta.get("crs", "OGC:CRS84")
    schema = handle.schema_arrow
    fields = [f.name for f in schema if f.name != column]
    return Source(
        str(path), None, handle.metadata.num_rows, tuple(bbox) if bbox else None, crs, fields,
        {f.name: str(f.type) for f in schema if f.name != column},
    )


def file_size(ctx, name: str) -> int:
    entry = ctx.layers.find(name)
    if entry is None or not entry.path or not Path(entry.path).is_file():
        return 0
    path = Path(entry.path)
    return path.stat().st_size + sum(p.stat().st_size for p in path.parent.glob(path.stem + ".dbf"))


def read(src: Source, rows: int, columns: list | None = None):
    """A dask-geopandas GeoDataFrame of the input in partitions of about `rows` features."""
    import dask_geopandas

    n = max(1, math.ceil(src.count / max(1, rows)))
    if src.is_parquet:
        ddf = dask_geopandas.read_parquet(src.path, columns=columns, split_row_groups=True)
        if ddf.npartitions < n:
            ddf = ddf.repartition(npartitions=n)
        return ddf
    return dask_geopandas.read_file(src.path, npartitions=n, layer=src.layer, columns=columns)


def parts(ddf):
    """The partitions as dask.delayed objects."""
    return list(ddf.to_delayed())


def output_suffix(sources: list[Source], asked: str = "") -> str:
    """The format a large result is written in: asked, else GeoParquet for GeoParquet inputs, else GeoPackage."""
    if asked:
        return "." + asked
    return ".parquet" if sources and sources[0].is_parquet else ".gpkg"


class PartitionWriter:
    """Appends GeoDataFrames to one file as they come (GeoParquet row groups, or GeoPackage/FlatGeobuf appends)."""

    def __init__(self, path: Path, layer_name: str):
        self.path = Path(path)
        self.layer_name = layer_name
        self.count = 0
        self.parts = 0
        self._parquet = None
        self._schema = None
        self.crs = None
        self.columns = None

    def write(self, gdf) -> None:
        if self.columns is None:
            self.columns, self.crs = list(gdf.columns), gdf.crs
        if self.path.suffix.lower() in PARQUET:
            self._write_parquet(gdf)
        else:
            import pyogrio

            from ..tables import nested_as_text

            if len(gdf) or not self.parts:
                pyogrio.write_dataframe(
                    nested_as_text(gdf), self.path, layer=self.layer_name, append=self.parts > 0,
                    promote_to_multi=False, geometry_type="Unknown",
                )
        self.count += len(gdf)
        self.parts += 1

    def _write_parquet(self, gdf) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.table(gdf.to_arrow(index=False, geometry_encoding="WKB"))

        if self._parquet is None:
            import geopandas.io.arrow as gio

            meta = gio._create_metadata(gdf, schema_version=None, geometry_encoding={gdf.geometry.name: "WKB"},
                                        write_covering_bbox=False)
            for column in meta["columns"].values():
                column.pop("bbox", None)  # the first partition's extent is not the file's
            self._schema = table.schema.with_metadata({b"geo": gio._encode_metadata(meta)})
            self._parquet = pq.ParquetWriter(self.path, self._schema)
        table = table.cast(self._schema)
        self._parquet.write_table(table)

    def close(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
