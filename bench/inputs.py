"""make bench-inputs: a 2-million-row GeoPackage built in bulk, then described as a request would (≤ 2 s)."""

from __future__ import annotations

import sqlite3
import struct
import sys
import tempfile
import time
from pathlib import Path

ROWS = 2_000_000
LIMIT_S = 2.0


def build(path: Path, rows: int = ROWS) -> None:
    """A point GeoPackage of `rows` features: the layer made by GDAL (1 feature), the rows added with one SQL
    INSERT … SELECT over a recursive counter (GeoPackage point blobs built in SQL), the extent set in contents."""
    import geopandas as gpd
    from shapely.geometry import Point

    gpd.GeoDataFrame({"value": [0.0], "name": ["p0"]}, geometry=[Point(0, 0)], crs="EPSG:32633").to_file(
        path, layer="points", SPATIAL_INDEX="NO"
    )
    header = b"GP\x00\x01" + struct.pack("<i", 32633)  # magic, version, flags (little-endian, no envelope), srs
    con = sqlite3.connect(path)
    con.execute("DELETE FROM points")
    # WKB point: byte order 1, type 1, x, y as little-endian doubles; x = i mod 10000, y = i / 10000 (metres)
    con.create_function("le_double", 1, lambda v: struct.pack("<d", float(v)), deterministic=True)
    con.execute(
        "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < ?) "
        "INSERT INTO points (geom, value, name) SELECT ? || X'0101000000' || le_double(i % 10000) || "
        "le_double(i / 10000), i * 0.5, 'p' || i FROM c",
        (rows - 1, header),
    )
    con.execute(
        "UPDATE gpkg_contents SET min_x = 0, min_y = 0, max_x = 9999, max_y = ? WHERE table_name = 'points'",
        ((rows - 1) // 10000,),
    )
    con.execute("UPDATE gpkg_ogr_contents SET feature_count = ? WHERE table_name = 'points'", (rows,))
    con.commit()
    con.close()


def main() -> int:
    from geoclerk.function_lib.describe import describe_path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.gpkg"
        t0 = time.perf_counter()
        build(path)
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        info = describe_path(path)
        took = time.perf_counter() - t0
        size = path.stat().st_size / 1e6
    ok = info.feature_count == ROWS and info.geometry_type == "Point" and took <= LIMIT_S
    print(f"built {ROWS:,} rows ({size:.0f} MB) in {built:.1f} s; described in {took:.2f} s (limit {LIMIT_S} s): "
          f"{info.feature_count:,} features, {info.geometry_type}, {info.crs}, bounds {info.bounds}")  # fmt: skip
    print(info.prompt_text())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
