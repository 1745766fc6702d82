"""Generated datasets for the task suite: geographic and web-mercator layers, and deliberately messy ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 7


def make_datasets(out_dir: str | Path) -> dict[str, Path]:
    """Write every generated dataset into out_dir (deterministic) and return them by stem."""
    import geopandas as gpd
    import pandas as pd
    from shapely.geometry import LineString, Point, Polygon

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    paths: dict[str, Path] = {}

    # Parcels in EPSG:4326 near Berlin: a 6 x 5 grid of ~100 m cells; three are self-intersecting
    # bow-ties (invalid), and `value` holds numbers as text (the messy part).
    lon0, lat0, dlon, dlat = 13.40, 52.50, 0.0015, 0.0009
    polys, values, landuse = [], [], []
    for i in range(6):
        for j in range(5):
            x, y = lon0 + i * dlon, lat0 + j * dlat
            if (i, j) in {(1, 1), (3, 2), (4, 4)}:
                poly = Polygon([(x, y), (x + dlon, y + dlat), (x + dlon, y), (x, y + dlat)])  # bow-tie
            else:
                poly = Polygon([(x, y), (x + dlon, y), (x + dlon, y + dlat), (x, y + dlat)])
            polys.append(poly)
            values.append(str(int(rng.integers(10_000, 120_000))))
            landuse.append(["residential", "retail", "green"][(i + j) % 3])
    parcels = gpd.GeoDataFrame(
        {"parcel_id": np.arange(1, 31), "landuse": landuse, "value": values}, geometry=polys, crs="EPSG:4326"
    )
    paths["parcels"] = out / "parcels.geojson"
    parcels.to_file(paths["parcels"], driver="GeoJSON")

    # Rivers in EPSG:4326: three lines of known geodesic-ish length.
    rivers = gpd.GeoDataFrame(
        {"river": ["Aster", "Birke", "Cedern"], "order": [1, 2, 2]},
        geometry=[
            LineString([(13.30, 52.40), (13.40, 52.45), (13.55, 52.47)]),
            LineString([(13.35, 52.55), (13.36, 52.60)]),
            LineString([(13.50, 52.38), (13.60, 52.38)]),
        ],
        crs="EPSG:4326",
    )
    paths["rivers"] = out / "rivers.gpkg"
    rivers.to_file(paths["rivers"], driver="GPKG", VERSION="1.2")

    # Wells as CSV with X/Y columns and no CRS at all (the "missing CRS" messy case).
    wells = pd.DataFrame(
        {
            "well_id": np.arange(1, 21),
            "x": (500_500 + rng.uniform(0, 5000, 20)).round(1),
            "y": (5_800_500 + rng.uniform(0, 4000, 20)).round(1),
            "depth_m": rng.integers(10, 120, 20),
        }
    )
    paths["wells"] = out / "wells.csv"
    wells.to_csv(paths["wells"], index=False)

    # Stations in web mercator (EPSG:3857), where metres on the map are not metres on the ground.
    lons, lats = 13.3 + rng.uniform(0, 0.3, 25), 52.4 + rng.uniform(0, 0.2, 25)
    stations = gpd.GeoDataFrame(
        {"station_id": np.arange(1, 26), "passengers": rng.integers(200, 40_000, 25)},
        geometry=gpd.points_from_xy(lons, lats),
        crs="EPSG:4326",
    ).to_crs(3857)
    paths["stations"] = out / "stations.gpkg"
    stations.to_file(paths["stations"], driver="GPKG", VERSION="1.2")

    # Mixed geometry types in one GeoJSON: points, a line and polygons (the "mixed types" case).
    mixed = gpd.GeoDataFrame(
        {"kind": ["well", "well", "pipe", "field", "field"], "code": ["A", "B", "C", "D", "E"]},
        geometry=[
            Point(500_100, 5_800_100),
            Point(500_900, 5_800_400),
            LineString([(500_000, 5_800_000), (501_000, 5_800_500)]),
            Polygon([(500_200, 5_800_200), (500_600, 5_800_200), (500_600, 5_800_600), (500_200, 5_800_600)]),
            Polygon([(501_000, 5_801_000), (501_300, 5_801_000), (501_300, 5_801_200), (501_000, 5_801_200)]),
        ],
        crs="EPSG:32633",
    )
    paths["mixed"] = out / "mixed.geojson"
    mixed.to_file(paths["mixed"], driver="GeoJSON")
    return paths


if __name__ == "__main__":
    import sys

    for stem, path in make_datasets(sys.argv[1] if len(sys.argv) > 1 else "bench/out/data").items():
        print(stem, path)
