"""blind8 — harbour town (coast, ferries, flood zones): deterministic made-up data.

Port Carrow, a made-up harbour town on the Maine coast (about 69.12 W, 44.10 N). Everything is laid out in a
local frame (x east, y north, metres) whose origin is (490000, 4882000) in EPSG:26919 (NAD83 / UTM 19N), then
written in each layer's own CRS. Land is west of x = 2000, sea east of it.

    .venv/bin/python tests/data/blind8/make_data.py
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.transform import from_origin
from shapely.geometry import LineString, Point, Polygon, box

SEED = 20261201
os.environ["OGR_CURRENT_DATE"] = "2026-12-01T00:00:00Z"  # GeoPackage timestamps: byte-identical reruns
E0, N0 = 490000.0, 4882000.0
UTM = "EPSG:26919"
HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# flood-zone bands (local x): V over the shore and the near water, then A, B, C inland; west of 800 unmapped
ZONES = [("V", 1800, 2150), ("A", 1500, 1800), ("B", 1200, 1500), ("C", 800, 1200)]
BOUNDS = [800, 1200, 1500, 1800]


def T(x, y):
    return (E0 + x, N0 + y)


def poly(coords):
    return Polygon([T(x, y) for x, y in coords])


def line(coords):
    return LineString([T(x, y) for x, y in coords])


def buildings(rng):
    named = {
        1: ("Harbor Master Office", "public", 1880, 1000, 2),
        2: ("Fish Market", "fishery", 1900, 1500, 1),
        3: ("Ferry Terminal", "public", 1650, 1230, 2),
        4: ("Customs House", "public", 1560, 1700, 3),
        5: ("Town Hall", "public", 600, 1300, 3),
        6: ("Sail Loft", "commercial", 1350, 800, 2),
        7: ("Cold Store", "warehouse", 1930, 600, 1),
    }
    uses = ["residential"] * 5 + ["commercial"] * 2 + ["warehouse", "fishery", "public"]
    rows, geoms = [], []
    placed = []
    bid = 0
    while bid < 60:
        bid += 1
        if bid in named:
            name, use, cx, cy, floors = named[bid]
            w, h = 24.0, 18.0
        else:
            name = None
            while True:
                cx, cy = rng.uniform(120, 1950), rng.uniform(120, 2380)
                w, h = round(rng.uniform(10, 28)), round(rng.uniform(8, 22))
                x0, x1 = cx - w / 2, cx + w / 2
                if any(x0 - 25 < b < x1 + 25 for b in BOUNDS) or x1 > 1975:
                    continue
                if any(abs(cx - px) < 45 and abs(cy - py) < 45 for px, py in placed):
                    continue
                break
            use = uses[rng.integers(len(uses))]
            floors = int(rng.integers(1, 6))
        placed.append((cx, cy))
        geoms.append(poly([(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
                           (cx - w / 2, cy + h / 2)]))
        height = round(floors * 3.0 + rng.uniform(0.2, 1.8), 1)
        rows.append({"bldg_id": bid, "name": name, "use": use, "floors": floors, "height_m": height,
                     "year_built": int(rng.integers(1880, 2021)),
                     "residents": int(rng.integers(1, 30)) if use == "residential" else 0})
    df = pd.DataFrame(rows)
    # planted values: three buildings exactly 12.0 m (4 floors), floors unknown for two
    for i in (10, 22, 41):
        df.loc[df.bldg_id == i, ["floors", "height_m"]] = [4, 12.0]
    df["floors"] = df["floors"].astype("Int64")
    df.loc[df.bldg_id.isin([58, 59]), "floors"] = pd.NA
    return gpd.GeoDataFrame(df, geometry=geoms, crs=UTM)


def flood_zones():
    rows = [
        ("V", "Coastal high hazard (wave action)", "high", 14.0),
        ("A", "1% annual chance flood", "high", 11.0),
        ("B", "0.2% annual chance flood", "moderate", None),
        ("C", "Minimal flood hazard", "low", None),
    ]
    geoms = [poly([(x0, 0), (x1, 0), (x1, 2500), (x0, 2500)]).segmentize(25) for _, x0, x1 in ZONES]
    df = pd.DataFrame(rows, columns=["zone", "description", "risk", "bfe_ft"])
    return gpd.GeoDataFrame(df, geometry=geoms, crs=UTM)


def piers():
    rows, geoms = [], []
    lengths = [120, 180, 95, 240, 150, 60]
    depth = [4.5, 7.0, 3.0, 9.5, 6.0, 2.5]
    berths = [2, 4, 1, 6, 3, 1]
    built = [1952, 1978, 1931, 1999, 2008, 1925]
    for i in range(6):
        y = 650 + 250 * i
        geoms.append(line([(2000, y), (2000 + lengths[i], y)]))
        rows.append({"pier_no": i + 1, "name": f"Pier {i + 1}", "type": "pier", "depth_m": depth[i],
                     "berths": berths[i], "built": built[i]})
    geoms.append(line([(2000, 2300), (2350, 2200), (2450, 2050)]))
    rows.append({"pier_no": None, "name": "North Breakwater", "type": "breakwater", "depth_m": 8.0, "berths": 0,
                 "built": 1911})
    geoms.append(line([(2000, 350), (2300, 420), (2400, 560)]))
    rows.append({"pier_no": None, "name": "South Breakwater", "type": "breakwater", "depth_m": 6.0, "berths": 0,
                 "built": 1911})
    geoms.append(line([(2000, 480), (2070, 480)]))
    rows.append({"pier_no": None, "name": "Fishermen's Jetty", "type": "jetty", "depth_m": 1.5, "berths": 2,
                 "built": 1964})
    df = pd.DataFrame(rows)
    df["pier_no"] = df["pier_no"].astype("Int64")
    return gpd.GeoDataFrame(df, geometry=geoms, crs=UTM)


def ferry_routes():
    routes = [
        ("R1", "Vinalhaven", "Maine State Ferry", 6, "no", "yes",
         [(2180, 900), (4000, 300), (9000, -2500), (16000, -4000)]),
        ("R2", "North Haven", "Maine State Ferry", 3, "no", "yes",
         [(2180, 900), (5000, 1500), (11000, 3000), (15500, 4200)]),
        ("R3", "Matinicus", "Island Hopper", 1, "yes", "no",
         [(2240, 1400), (5000, -2000), (12000, -12000), (18000, -21000)]),
        ("R4", "Islesboro", "Maine State Ferry", 8, "no", "yes",
         [(2240, 1400), (3500, 4000), (6000, 9000), (7500, 12500)]),
        ("R5", "Harbor tour", "Island Hopper", 4, "yes", "no",
         [(2240, 1400), (2900, 1600), (3300, 1100), (2900, 600), (2400, 700), (2240, 1400)]),
    ]
    rows = [dict(zip(["route_id", "destination", "operator", "trips_per_day", "seasonal", "car_ferry"], r[:6]))
            for r in routes]
    geoms = [line(r[6]).segmentize(200) for r in routes]
    return gpd.GeoDataFrame(pd.DataFrame(rows), geometry=geoms, crs=UTM)


def beaches():
    rows = [
        ("Sandy Cove", "yes", "sand", 400, [(1880, 120), (2060, 100), (2090, 260), (1990, 330), (1900, 280)]),
        ("Harbor Beach", "no", "pebble", 120, [(1930, 980), (2020, 990), (2030, 1100), (1940, 1090)]),
        ("Gull Point", "no", "sand", 150, [(1830, 1960), (1990, 1950), (2010, 2120), (1850, 2110)]),
        ("Lighthouse Beach", "yes", "sand", 250, [(1900, 2380), (2050, 2390), (2060, 2480), (1910, 2470)]),
    ]
    df = pd.DataFrame([r[:4] for r in rows], columns=["beach_name", "lifeguard", "surface", "capacity"])
    return gpd.GeoDataFrame(df, geometry=[poly(r[4]) for r in rows], crs=UTM)


def bus_stops(rng, bld):
    names = ["Harbor Square", "Ferry Terminal", "Fish Market", "Chapel St", "Mill Rd", "Town Hall", "Oak Ave",
             "School Ln", "Lighthouse Rd", "Quarry Hill", "Elm St", "North End", "South End", "Cannery Row",
             "Main & Park", "Station Rd", "Bay View", "Cedar Ct", "Granite St", "Pine Ridge", "Library",
             "Sail Loft", "Harbor Heights", "Shore Rd"]
    pts = []
    occupied = [(g.centroid.x - E0, g.centroid.y - N0) for g in bld.to_crs(UTM).geometry]
    while len(pts) < 24:
        x, y = rng.uniform(150, 1960), rng.uniform(150, 2350)
        if any(abs(x - b) < 25 for b in BOUNDS):
            continue
        if any(np.hypot(x - px, y - py) < 60 for px, py in pts):
            continue
        if any(abs(x - bx) < 25 and abs(y - by) < 25 for bx, by in occupied):
            continue
        pts.append((x, y))
    gdf = gpd.GeoDataFrame({"stop_code": [f"BS{i + 1:02d}" for i in range(24)], "stop_name": names,
                            "shelter": ["yes" if rng.random() < 0.5 else "no" for _ in range(24)],
                            "lines": [["1", "2", "1;2", "3", "2;3"][rng.integers(5)] for _ in range(24)],
                            "boardings": [int(rng.integers(20, 400)) for _ in range(24)]},
                           geometry=[Point(T(x, y)) for x, y in pts], crs=UTM)
    gdf.loc[gdf.stop_code.isin(["BS04", "BS11", "BS17"]), "boardings"] = 150
    ll = gdf.to_crs(4326)
    df = pd.DataFrame(gdf.drop(columns="geometry"))
    df.insert(2, "lon", ll.geometry.x.round(6))
    df.insert(3, "lat", ll.geometry.y.round(6))
    return df


def register(rng):
    ids = [i for i in range(1, 61) if i not in (13, 27, 44, 52)] + [71, 88]
    owner = ["private"] * 6 + ["city", "port authority"]
    rows = []
    for i in ids:
        rows.append({"building": i, "owner_type": owner[rng.integers(len(owner))],
                     "assessed_usd": int(rng.integers(80, 1500)) * 1000,
                     "insured": "yes" if rng.random() < 0.7 else "no",
                     "flood_claims": int(rng.poisson(0.8))})
    df = pd.DataFrame(rows)
    df.loc[df.building.isin([8, 19, 33]), "assessed_usd"] = 500000
    return df


def elevation():
    cell = 10.0
    nx, ny = 300, 250
    xs = (np.arange(nx) + 0.5) * cell
    ys = 2500 - (np.arange(ny) + 0.5) * cell
    X, Y = np.meshgrid(xs, ys)
    land = (2000 - X) / 50.0 + 1.5 + 1.5 * np.sin(Y / 250.0)
    sea = -(X - 2000) / 60.0
    z = np.where(X < 2000, land, sea).astype("float32")
    z[200:230, 260:290] = -9999.0  # a survey gap in the south-east water
    profile = {"driver": "GTiff", "width": nx, "height": ny, "count": 1, "dtype": "float32", "crs": UTM,
               "transform": from_origin(E0, N0 + 2500, cell, cell), "nodata": -9999.0}
    with rasterio.open(DATA / "elevation.tif", "w", **profile) as dst:
        dst.write(z, 1)
        dst.set_band_description(1, "elevation_m")


def main():
    rng = np.random.default_rng(SEED)
    if DATA.exists():
        shutil.rmtree(DATA)
    DATA.mkdir()
    bld = buildings(rng)
    bld.to_crs("EPSG:26847").to_file(DATA / "buildings.gpkg", layer="buildings", driver="GPKG")
    flood_zones().to_crs(4326).to_file(DATA / "flood_zones.gpkg", layer="flood_zones", driver="GPKG")
    piers().to_file(DATA / "piers.gpkg", layer="piers", driver="GPKG")
    ferry_routes().to_crs(3857).to_file(DATA / "ferry_routes.gpkg", layer="ferry_routes", driver="GPKG")
    beaches().to_crs("EPSG:26847").to_file(DATA / "beaches.gpkg", layer="beaches", driver="GPKG")
    bus_stops(rng, bld).to_csv(DATA / "bus_stops.csv", index=False)
    register(rng).to_csv(DATA / "building_register.csv", index=False)
    elevation()


if __name__ == "__main__":
    main()
