"""blind7 — orchard valley (Vinschgau / Val Venosta, near Laas): deterministic data for the blind set.

Run: .venv/bin/python tests/data/blind7/make_data.py   (writes ./data; seed fixed, two runs give identical files)

Grid of the imagery: EPSG:25832 (ETRS89 / UTM 32N), 200 x 200 cells of 10 m, top-left (630000, 5166000).
Everything is drawn on that grid in pixel rectangles (rows r0..r1, cols c0..c1 inclusive), so that the
polygons of the vector layers follow pixel edges exactly.
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("OGR_CURRENT_DATE", "2026-01-01T00:00:00Z")  # fixed GeoPackage timestamps

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.transform import from_origin
from shapely.geometry import LineString, Point, box

SEED = 20261207
HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
X0, Y0, RES, N = 630000.0, 5166000.0, 10.0, 200
CRS = "EPSG:25832"
TRANSFORM = from_origin(X0, Y0, RES, RES)

# land covers: blue, green, red, nir reflectance (0-1)
COVER = {
    "water": (0.060, 0.070, 0.045, 0.020),
    "forest": (0.025, 0.050, 0.030, 0.380),
    "forest_damaged": (0.040, 0.065, 0.065, 0.240),
    "meadow": (0.045, 0.085, 0.070, 0.260),
    "apple": (0.035, 0.070, 0.045, 0.330),
    "pear": (0.035, 0.068, 0.050, 0.310),
    "cherry": (0.037, 0.066, 0.058, 0.290),
    "young": (0.060, 0.090, 0.090, 0.240),
    "bare": (0.100, 0.130, 0.180, 0.240),
    "bare_dry": (0.120, 0.150, 0.220, 0.250),
    "building": (0.180, 0.190, 0.200, 0.220),
}

# parcel_id, (r0, r1, c0, c1), farm, crop, variety, planted, irrigation, organic, cover 2024, cover 2025
PARCELS = [
    (101, (46, 65, 5, 34), "Hofer", "apple", "Golden Delicious", 2001, "drip", "no", "apple", "apple"),
    (102, (46, 65, 38, 62), "Hofer", "apple", "Gala", 2022, "drip", "no", "young", "young"),
    (103, (46, 65, 66, 95), "Gruber", "pear", "Williams", 2005, "sprinkler", "yes", "pear", "pear"),
    (104, (46, 65, 99, 128), "Gruber", "apple", "Pinova", 1999, "sprinkler", "yes", "apple", "apple"),
    (105, (46, 65, 132, 151), "Pircher", "cherry", "Kordia", 2012, "drip", "no", "cherry", "cherry"),
    (106, (70, 93, 5, 29), "Hofer", "apple", "Gala", 2008, "drip", "no", "apple", "apple"),
    (107, (70, 93, 33, 62), "Pircher", "apple", "Red Delicious", 1998, "none", "no", "apple", "bare"),
    (108, (70, 93, 66, 90), "Gruber", "fallow", None, None, "none", "yes", "bare", "bare"),
    (109, (70, 93, 94, 133), "Tappeiner", "apple", "Golden Delicious", 2003, "sprinkler", "no", "apple", "apple"),
    (110, (70, 93, 137, 170), "Tappeiner", "cherry", "Regina", 2015, "drip", "yes", "cherry", "cherry"),
    (111, (106, 130, 45, 74), "Pircher", "apple", "Pinova", 2021, "drip", "no", "young", "young"),
    (112, (106, 130, 78, 112), "Gruber", "pear", "Abate Fetel", 2010, "sprinkler", "yes", "pear", "pear"),
    (113, (106, 130, 116, 145), "Tappeiner", "apple", "Gala", 2006, "sprinkler", "no", "apple", "apple"),
    (114, (135, 155, 45, 84), "Hofer", "apple", "Golden Delicious", 1995, "sprinkler", "no", "apple", "apple"),
    (115, (135, 155, 88, 130), "Pircher", "apple", "Gala", 2025, "drip", "no", "bare_dry", "young"),
    (116, (160, 190, 45, 100), "Tappeiner", "apple", "Pinova", 2009, "drip", "yes", "apple", "apple"),
    (117, (160, 190, 104, 140), "Hofer", "cherry", "Kordia", 2018, "drip", "no", "cherry", "cherry"),
]
# slight per-parcel vigour (multiplies nir), so that parcel means differ
VIGOUR = {101: 1.00, 102: 0.98, 103: 1.02, 104: 0.97, 105: 1.00, 106: 1.06, 107: 0.99, 108: 1.00, 109: 1.01,
          110: 0.98, 111: 1.02, 112: 0.99, 113: 1.02, 114: 0.96, 115: 1.00, 116: 1.00, 117: 1.02}

# other rectangles: name, (r0, r1, c0, c1), cover 2024, cover 2025  (drawn in this order, later wins)
OTHER = [
    ("forest_north", (0, 39, 0, 99), "forest", "forest"),
    ("forest_damage", (10, 19, 20, 39), "forest", "forest_damaged"),
    ("forest_southeast", (160, 199, 150, 199), "forest", "forest"),
    ("pond", (20, 29, 160, 179), "water", "water"),
    ("river", (100, 103, 0, 199), "water", "water"),
    ("village", (110, 139, 0, 39), "building", "building"),
    ("new_buildings", (140, 149, 0, 19), "meadow", "building"),
]


def rect(r0, r1, c0, c1):
    """Polygon of pixel rows r0..r1 and cols c0..c1 (inclusive) in EPSG:25832."""
    return box(X0 + c0 * RES, Y0 - (r1 + 1) * RES, X0 + (c1 + 1) * RES, Y0 - r0 * RES)


def centre(r, c):
    return X0 + (c + 0.5) * RES, Y0 - (r + 0.5) * RES


def cover_maps():
    m24 = np.full((N, N), "meadow", dtype=object)
    m25 = m24.copy()
    vig = np.ones((N, N))
    for name, (r0, r1, c0, c1), a, b in OTHER:
        m24[r0 : r1 + 1, c0 : c1 + 1] = a
        m25[r0 : r1 + 1, c0 : c1 + 1] = b
    for p in PARCELS:
        pid, (r0, r1, c0, c1) = p[0], p[1]
        m24[r0 : r1 + 1, c0 : c1 + 1] = p[8]
        m25[r0 : r1 + 1, c0 : c1 + 1] = p[9]
        vig[r0 : r1 + 1, c0 : c1 + 1] = VIGOUR[pid]
    return m24, m25, vig


def image(cover, vig, rng):
    arr = np.zeros((4, N, N))
    for name, refl in COVER.items():
        sel = cover == name
        for b in range(4):
            arr[b][sel] = refl[b]
    arr[3] *= vig
    arr *= 1 + rng.uniform(-0.015, 0.015, size=arr.shape)
    return np.round(arr * 10000).astype("uint16")


def write_image(path, arr, transform=TRANSFORM, names=("blue", "green", "red", "nir")):
    profile = dict(driver="GTiff", width=arr.shape[2], height=arr.shape[1], count=arr.shape[0], dtype=arr.dtype.name,
                   crs=CRS, transform=transform, compress="deflate")
    with rasterio.open(path, "w", **profile) as dst:
        dst.write(arr)
        for i, n in enumerate(names, 1):
            dst.set_band_description(i, n)
        dst.update_tags(scale="reflectance x 10000")


def dem():
    rows, cols = np.mgrid[0:N, 0:N]
    dist = np.abs(rows - 101.5) * RES
    z = 905.0 - cols * 0.25 + 0.0005 * dist**2 + 3.0 * np.sin(cols / 17.0) * np.cos(rows / 23.0)
    return z.astype("float32")


def main():
    rng = np.random.default_rng(SEED)
    DATA.mkdir(parents=True, exist_ok=True)
    for old in DATA.iterdir():  # fresh files: identical bytes on every run
        old.unlink()
    m24, m25, vig = cover_maps()
    img24 = image(m24, vig, rng)
    img25 = image(m25, vig, rng)
    write_image(DATA / "image_2024.tif", img24)
    write_image(DATA / "image_2025.tif", img25)

    z = dem()
    with rasterio.open(DATA / "dem.tif", "w", driver="GTiff", width=N, height=N, count=1, dtype="float32", crs=CRS,
                       transform=TRANSFORM, nodata=-9999.0) as dst:
        dst.write(z, 1)
        dst.set_band_description(1, "elevation")

    # 2023 scene on a different grid: 20 m cells, origin shifted by 5 m
    m23 = m24.copy()
    img23 = image(m23, vig, rng).astype(float)
    agg = img23.reshape(4, N // 2, 2, N // 2, 2).mean(axis=(2, 4))
    write_image(DATA / "s2_2023_20m.tif", np.round(agg).astype("uint16"), from_origin(X0 + 5, Y0 - 5, 20.0, 20.0))

    # drone orthophoto: RGB only, 2 m cells over parcels 101-102
    sub24 = img24[:, 46:66, 5:55]
    rgb = np.repeat(np.repeat(sub24[[2, 1, 0]], 5, axis=1), 5, axis=2)
    rgb = np.clip(rgb.astype(float) / 2500 * 255, 0, 255).astype("uint8")
    write_image(DATA / "ortho_rgb_2025.tif", rgb, from_origin(X0 + 5 * RES, Y0 - 46 * RES, 2.0, 2.0),
                names=("red", "green", "blue"))

    # parcels (EPSG:25832)
    rows = []
    for p in PARCELS:
        pid, (r0, r1, c0, c1), farm, crop, variety, planted, irr, org = p[:8]
        rows.append(dict(parcel_id=pid, farm=farm, crop=crop, variety=variety, planted=planted, irrigation=irr,
                         organic=org, geometry=rect(r0, r1, c0, c1)))
    parcels = gpd.GeoDataFrame(rows, crs=CRS)
    parcels["planted"] = parcels["planted"].astype("Int64")
    parcels.to_file(DATA / "parcels.gpkg", layer="parcels", driver="GPKG")

    # wells (EPSG:4326, at pixel centres)
    wells = [
        # well_id, row, col, depth_m, yield_l_min, status, farm, drilled
        ("W01", 55, 20, 80.0, 120.0, "active", "Hofer", 1998),
        ("W02", 56, 50, 65.0, 95.0, "active", "Hofer", 2022),
        ("W03", 50, 80, 92.5, 140.0, "active", "Gruber", 2004),
        ("W04", 60, 110, 80.5, 119.5, "inactive", "Gruber", 1985),
        ("W05", 44, 140, 45.0, None, "sealed", "Pircher", 1970),
        ("W06", 80, 15, 110.0, 150.0, "active", "Hofer", 2008),
        ("W07", 85, 45, 79.5, 80.0, "active", "Pircher", 1996),
        ("W08", 68, 64, 38.0, 60.0, "inactive", "Gruber", 1979),
        ("W09", 75, 100, 120.0, 200.0, "active", "Tappeiner", 2003),
        ("W10", 90, 120, 100.0, None, "active", "Tappeiner", 2011),
        ("W11", 80, 160, 55.0, 120.0, "active", "Tappeiner", 2015),
        ("W12", 96, 180, 20.0, 75.0, "inactive", "Tappeiner", 1990),
        ("W13", 115, 60, 85.0, 130.0, "active", "Pircher", 2021),
        ("W14", 120, 95, 60.0, 110.0, "active", "Gruber", 2010),
        ("W15", 110, 130, 75.0, 100.0, "sealed", "Tappeiner", 1968),
        ("W16", 145, 60, 130.0, 180.0, "active", "Hofer", 1995),
        ("W17", 150, 110, 70.0, None, "active", "Pircher", 2024),
        ("W18", 175, 70, 95.0, 160.0, "active", "Tappeiner", 2009),
        ("W19", 170, 120, 50.0, 90.0, "active", "Hofer", 2018),
        ("W20", 125, 20, 30.0, 40.0, "inactive", "Pircher", 1960),
        ("W21", 158, 170, 140.0, 210.0, "active", "Tappeiner", 2000),
        ("W22", 30, 130, 150.0, 121.0, "active", "Gruber", 2019),
        ("W23", 195, 30, 25.0, 50.0, "sealed", "Hofer", 1955),
        ("W24", 132, 100, 81.0, 125.0, "active", "Gruber", 2012),
    ]
    wrows = []
    for wid, r, c, depth, yld, status, farm, drilled in wells:
        wrows.append(dict(well_id=wid, depth_m=depth, yield_l_min=yld, status=status, farm=farm, drilled=drilled,
                          geometry=Point(*centre(r, c))))
    wg = gpd.GeoDataFrame(wrows, crs=CRS).to_crs(4326)
    wg.to_file(DATA / "wells.geojson", driver="GeoJSON")

    # roads (EPSG:3857), drawn along the strips between parcels
    def hline(row_edge, c0, c1):
        y = Y0 - row_edge * RES
        return LineString([(X0 + c0 * RES, y), (X0 + c1 * RES, y)])

    def vline(col_edge, r0, r1):
        x = X0 + col_edge * RES
        return LineString([(x, Y0 - r0 * RES), (x, Y0 - r1 * RES)])

    roads = [
        (1, "Vinschgauer Straße", "main", "asphalt", 70, hline(42.5, 0, 200)),
        (2, "Feldweg Nord 1", "track", "gravel", None, vline(36.5, 42.5, 95)),
        (3, "Feldweg Nord 2", "track", "gravel", None, vline(64.5, 42.5, 95)),
        (4, "Feldweg Nord 3", "track", "gravel", None, vline(97.5, 42.5, 95)),
        (5, "Obstweg", "local", "asphalt", 50, hline(67.5, 0, 175)),
        (6, "Etschdamm", "local", "gravel", 30, hline(104.8, 40, 200)),
        (7, "Dorfstraße", "local", "asphalt", 50, hline(133, 0, 150)),
        (8, "Feldweg Süd", "track", "gravel", None, vline(102.5, 133, 195)),
        (9, "Waldweg", "track", "earth", None, LineString([(X0 + 150 * RES, Y0 - 133 * RES), (X0 + 175 * RES, Y0 - 160 * RES), (X0 + 190 * RES, Y0 - 199 * RES)])),
        (10, "Brückenweg", "local", "asphalt", 30, vline(42.5, 95, 110)),
    ]
    rg = gpd.GeoDataFrame([dict(road_id=i, name=n, type=t, surface=s, speed_kmh=v, geometry=g) for i, n, t, s, v, g in roads],
                          crs=CRS)
    rg["speed_kmh"] = rg["speed_kmh"].astype("Int64")
    rg.to_crs(3857).to_file(DATA / "roads.gpkg", layer="roads", driver="GPKG")

    # irrigation zones (EPSG:4326), rectangles on pixel edges
    zones = [
        ("A", "Nord", "Etsch canal", 250000, rect(40, 99, 0, 199)),
        ("B", "Süd-West", "wells", 120000, rect(104, 199, 0, 102)),
        ("C", "Süd-Ost", "pond", 90000, rect(104, 199, 103, 199)),
    ]
    zg = gpd.GeoDataFrame([dict(zone_id=a, name=b, source=c, quota_m3=d, geometry=g) for a, b, c, d, g in zones], crs=CRS)
    zg.to_crs(4326).to_file(DATA / "irrigation_zones.geojson", driver="GeoJSON")

    # harvest table: key plot_no (= parcel_id), no rows for 108 and 115, one row (199) without a parcel
    harvest = [
        (101, 312.0, 520, "A"), (102, 96.5, 160, "B"), (103, 241.0, 400, "A"), (104, 280.0, 470, "A"),
        (105, 58.0, 120, "A"), (106, 330.5, 550, "A"), (107, 150.0, 250, "B"), (109, 498.0, 830, "A"),
        (110, 71.0, 150, "B"), (111, 120.0, 200, "B"), (112, 275.0, 460, "A"), (113, 322.0, 540, "A"),
        (114, 300.0, 500, "B"), (116, 640.0, 1070, "A"), (117, 88.5, 180, "A"), (199, 45.0, 75, "B"),
    ]
    pd.DataFrame(harvest, columns=["plot_no", "yield_t", "bins", "grade"]).to_csv(DATA / "harvest_2024.csv", index=False)


if __name__ == "__main__":
    main()
