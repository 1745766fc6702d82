"""Reading and writing vector data with GeoPandas: every format the library accepts."""

from __future__ import annotations

from pathlib import Path

from ..errors import ToolError, ValidationError

WRITE_DRIVERS = {
    ".gpkg": "GPKG",
    ".geojson": "GeoJSON",
    ".json": "GeoJSON",
    ".shp": "ESRI Shapefile",
    ".fgb": "FlatGeobuf",
}


def read_vector(path: str | Path):
    """Read GeoJSON, GeoPackage, Shapefile, FlatGeobuf, GeoParquet, or CSV with WKT or X/Y columns."""
    import geopandas as gpd

    path = Path(path)
    if not path.exists():
        raise ValidationError(f"The file '{path}' does not exist.", fix="Check the path and try again.")
    suffix = path.suffix.lower()
    try:
        if suffix in (".parquet", ".geoparquet"):
            return gpd.read_parquet(path)
        if suffix in (".csv", ".tsv", ".txt"):
            return _read_csv(path)
        return gpd.read_file(path)
    except (ValidationError, ToolError):
        raise
    except Exception as exc:  # noqa: BLE001 - any reader failure becomes one clear message
        raise ToolError(f"Could not read '{path.name}': {exc}", fix="Is it a vector file GDAL can open?") from exc


def _read_csv(path: Path):
    import geopandas as gpd
    import pandas as pd

    df = pd.read_csv(path, sep="\t" if path.suffix.lower() == ".tsv" else ",")
    lower = {c.lower(): c for c in df.columns}
    for wkt in ("wkt", "geometry", "geom", "the_geom"):
        if wkt in lower:
            geom = gpd.GeoSeries.from_wkt(df[lower[wkt]].astype(str))
            return gpd.GeoDataFrame(df.drop(columns=[lower[wkt]]), geometry=geom, crs=None)
    for xs, ys in (("x", "y"), ("lon", "lat"), ("longitude", "latitude"), ("lng", "lat"), ("easting", "northing")):
        if xs in lower and ys in lower:
            geom = gpd.points_from_xy(df[lower[xs]], df[lower[ys]])
            crs = "EPSG:4326" if xs in ("lon", "longitude", "lng") else None
            return gpd.GeoDataFrame(df, geometry=geom, crs=crs)
    raise ValidationError(
        f"'{path.name}' has no geometry: no WKT column and no X/Y or lon/lat columns.",
        fix="Add a WKT column or X and Y columns.",
    )


def write_vector(gdf, path: str | Path) -> str:
    """Write a GeoDataFrame; the format follows the suffix (GeoPackage by default)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".geoparquet"):
        gdf.to_parquet(path)
    elif suffix == ".csv":
        out = gdf.copy()
        out["wkt"] = gdf.geometry.to_wkt()
        out.drop(columns=gdf.geometry.name).to_csv(path, index=False)
    else:
        driver = WRITE_DRIVERS.get(suffix)
        if driver is None:
            raise ValidationError(f"Cannot write '{suffix}' files.", fix="Use gpkg, geojson, shp, fgb, csv or parquet.")
        gdf.to_file(path, driver=driver)
    return str(path)
