"""Blind set 4 data: the (made-up) Valle Verde river basin, an irrigated wine valley in California.

Five GeoPackage layers, one layer each named like the file, written to ./data/ next to this script.
Everything is generated from a fixed seed in a common metric frame (EPSG:32610, WGS 84 / UTM 10N,
near 38.3 N 122.3 W) and then written in the layer's own CRS:

| file              | geometry   | CRS                                   | features |
|-------------------|------------|---------------------------------------|----------|
| subbasins.gpkg    | Polygon    | EPSG:3310  California Albers (m)      | 12       |
| streams.gpkg      | LineString | EPSG:26910 NAD83 / UTM 10N (m)        | 34       |
| gauges.gpkg       | Point      | EPSG:4326  WGS 84 (degrees)           | 30       |
| wells.gpkg        | Point      | EPSG:32610 WGS 84 / UTM 10N (m)       | 160      |
| farm_parcels.gpkg | Polygon    | EPSG:2226  NAD83 / California zone 2 (ftUS) | 168 |

Run: /work/main/.venv/bin/python tests/data/blind4/make_data.py
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
from shapely.geometry import LineString, Point, Polygon

HERE = Path(__file__).resolve().parent
OUT = HERE / "data"
FRAME = 32610
X0, Y0 = 556000.0, 4232000.0  # south-west corner of the basin frame
W, H = 12000.0, 15000.0


def subbasins(rng):
    nx, ny = 3, 4  # 3 columns x 4 rows = 12 sub-basins, sharing their borders exactly
    xs = np.linspace(X0, X0 + W, nx + 1)
    ys = np.linspace(Y0, Y0 + H, ny + 1)
    grid = {}
    for i, x in enumerate(xs):
        for j, y in enumerate(ys):
            jx = 0 if i in (0, nx) else rng.uniform(-600, 600)
            jy = 0 if j in (0, ny) else rng.uniform(-600, 600)
            grid[i, j] = (round(x + jx, 1), round(y + jy, 1))
    names = [
        "Carneros Flats",
        "Milliken",
        "Tulucay",
        "Soda Canyon",
        "Dry Creek",
        "Oak Knoll",
        "Stags Leap",
        "Hennessey",
        "Conn Valley",
        "Rector",
        "Sulphur Springs",
        "Upper Verde",
    ]
    cover = [
        "agriculture",
        "urban",
        "agriculture",
        "shrubland",
        "forest",
        "agriculture",
        "agriculture",
        "forest",
        "shrubland",
        "forest",
        "urban",
        "forest",
    ]
    rows = []
    k = 0
    for j in range(ny):
        for i in range(nx):
            poly = Polygon([grid[i, j], grid[i + 1, j], grid[i + 1, j + 1], grid[i, j + 1]])
            pop = int(rng.integers(150, 9000)) if cover[k] != "urban" else int(rng.integers(18000, 42000))
            rows.append(
                {
                    "basin_code": f"SB-{k + 1:02d}",
                    "basinName": names[k],
                    "Niederschlag_mm": int(rng.integers(520, 1150)),
                    "landcover": cover[k],
                    "pop2020": None if k in (3, 9) else pop,
                    "geometry": poly,
                }
            )
            k += 1
    return gpd.GeoDataFrame(rows, crs=FRAME)


def streams(rng):
    lines = []
    # main stem: Rio Verde, north to south through the middle, 8 reaches
    ys = np.linspace(Y0 + H - 200, Y0 + 200, 9)
    xs = X0 + W / 2 + np.cumsum(rng.uniform(-450, 450, 9)) * 0.6
    main_pts = list(zip(xs.round(1), ys.round(1)))
    for k in range(8):
        a, b = main_pts[k], main_pts[k + 1]
        mid = ((a[0] + b[0]) / 2 + rng.uniform(-250, 250), (a[1] + b[1]) / 2)
        order = 3 if k < 3 else 4
        lines.append(("Rio Verde", order, "perennial", "Y", LineString([a, mid, b])))
    tribs = [
        "Dry Creek",
        "Soda Creek",
        "Milliken Creek",
        "Tulucay Creek",
        "Sulphur Creek",
        "Conn Creek",
        "Hennessey Creek",
        "Redwood Creek",
        "Carneros Creek",
        "Oak Creek",
        "Rector Creek",
        "Salvador Channel",
        "Browns Creek",
    ]
    k = 0
    for t, name in enumerate(tribs):
        # each tributary joins the main stem at one of its vertices, from the west or the east
        join = main_pts[1 + t % 7]
        side = -1 if t % 2 == 0 else 1
        start = (join[0] + side * rng.uniform(3500, 5600), join[1] + rng.uniform(-1500, 2500))
        start = (min(max(start[0], X0 + 150), X0 + W - 150), min(max(start[1], Y0 + 150), Y0 + H - 150))
        mid = ((start[0] + join[0]) / 2 + rng.uniform(-300, 300), (start[1] + join[1]) / 2 + rng.uniform(-300, 300))
        lower = LineString([mid, join])
        upper = LineString([start, mid])
        regime = ["perennial", "intermittent", "ephemeral"][t % 3]
        fish = "Y" if regime == "perennial" else "N"
        lines.append((name, 2, regime, fish, lower))
        lines.append(
            (name, 1, None if t in (4, 10) else ("ephemeral" if regime != "perennial" else "intermittent"), "N", upper)
        )
        k += 2
    rows = [
        {
            "stream_id": 100 + n,
            "Gewaesser": nm,
            "strahler": o,
            "flow_regime": reg,
            "fishBearing": f,
            "geometry": LineString([(round(x, 1), round(y, 1)) for x, y in g.coords]),
        }
        for n, (nm, o, reg, f, g) in enumerate(lines, start=1)
    ]
    return gpd.GeoDataFrame(rows, crs=FRAME)


def gauges(rng, streams_gdf):
    rows = []
    names = [
        "Napa Jct",
        "Oak Knoll",
        "Trancas",
        "Soda Cyn",
        "Milliken Fk",
        "Hagen",
        "Coombsville",
        "Big Ranch",
        "Yountville Cross",
        "Silverado",
        "Atlas Peak",
        "Wooden Valley",
        "Conn Dam",
        "Lake Hennessey",
        "Rector Res",
        "Salvador",
        "Dry Ck Rd",
        "Redwood Rd",
        "Carneros Br",
        "Los Amigas",
        "Imola",
        "Jamieson",
        "Kreuzer",
        "Linda Vista",
        "Monticello",
        "Partrick",
        "Quail Ridge",
        "Rutherford",
        "Stags Leap",
        "Tulucay Br",
    ]
    for k in range(30):
        code = f"GV-{101 + k}"
        if k < 20:  # stream gauges on the streams
            s = streams_gdf.geometry.iloc[(k * 7) % len(streams_gdf)]
            p = s.interpolate(rng.uniform(0.2, 0.8), normalized=True)
            gtype = "stream"
            flow = None if k in (6, 13) else round(float(rng.lognormal(3.0, 1.0)), 1)
            stage = round(float(rng.uniform(0.3, 4.5)), 2)
        else:  # rain gauges anywhere
            p = Point(X0 + rng.uniform(300, W - 300), Y0 + rng.uniform(300, H - 300))
            gtype = "rain"
            flow = None
            stage = None
        status = ["active", "active", "active", "inactive", "decommissioned"][int(rng.integers(0, 5))]
        rows.append(
            {
                "station_code": code,
                "stationName": names[k],
                "gauge_type": gtype,
                "mean_flow_cfs": flow,
                "Pegel_m": stage,
                "status": status,
                "year_installed": int(rng.integers(1958, 2021)),
                "geometry": Point(round(p.x, 1), round(p.y, 1)),
            }
        )
    return gpd.GeoDataFrame(rows, crs=FRAME)


def wells(rng):
    uses = ["domestic", "irrigation", "irrigation", "municipal", "monitoring"]
    owners = ["Verde Water District", "private", "private", "City of Valle Verde", "Hagen Farms", "Oak Knoll Estates"]
    rows = []
    for k in range(160):
        x = X0 + rng.uniform(200, W - 200)
        y = Y0 + rng.uniform(200, H - 200)
        use = uses[int(rng.integers(0, len(uses)))]
        depth = int(rng.integers(60, 900))
        rows.append(
            {
                "well_no": 5001 + k,
                "depth_ft": depth,
                "yield_gpm": round(float(rng.uniform(2, 40) if use == "domestic" else rng.uniform(20, 1200)), 1),
                "nitrate_mgL": None if k % 16 == 5 else round(float(rng.gamma(2.0, 3.0)), 2),
                "Nutzung": use,
                "drilled": int(rng.integers(1950, 2024)),
                "owner": owners[int(rng.integers(0, len(owners)))],
                "geometry": Point(round(x, 1), round(y, 1)),
            }
        )
    return gpd.GeoDataFrame(rows, crs=FRAME)


def parcels(rng):
    crops = ["vineyard", "vineyard", "vineyard", "orchard", "row_crops", "pasture", "fallow"]
    first = [
        "Rossi",
        "Beringer",
        "Mondavi",
        "Hagen",
        "Silva",
        "Nakamura",
        "Oakes",
        "Duarte",
        "Keller",
        "Martinez",
        "Brandt",
        "Okafor",
        "Lindqvist",
        "Chen",
        "Moreau",
    ]
    rows = []
    n = 0
    xs = np.arange(X0 + 1500, X0 + W - 1500, 450.0)
    ys = np.arange(Y0 + 1000, Y0 + H - 1000, 520.0)
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            if rng.random() < 0.68:
                continue
            w = rng.uniform(230, 430)
            h = rng.uniform(260, 470)
            cx, cy = x + rng.uniform(-10, 10), y + rng.uniform(-10, 10)
            poly = Polygon([(cx, cy), (cx + w, cy + rng.uniform(-20, 20)), (cx + w, cy + h), (cx, cy + h)])
            n += 1
            crop = crops[int(rng.integers(0, len(crops)))]
            rows.append(
                {
                    "APN": f"047-{120 + j:03d}-{i + 1:03d}",
                    "crop_type": None if n in (7, 31, 58, 77) else crop,
                    "Eigentuemer": f"{first[int(rng.integers(0, len(first)))]} Family Trust"
                    if rng.random() < 0.4
                    else f"{first[int(rng.integers(0, len(first)))]} LLC",
                    "irrigated": "N" if crop in ("fallow", "pasture") and rng.random() < 0.8 else "Y",
                    "assessed_usd": int(rng.integers(18, 260)) * 10000,
                    "geometry": Polygon([(round(a, 1), round(b, 1)) for a, b in poly.exterior.coords]),
                }
            )
    return gpd.GeoDataFrame(rows, crs=FRAME)


def main():
    rng = np.random.default_rng(20240417)
    OUT.mkdir(exist_ok=True)
    sb = subbasins(rng)
    st = streams(rng)
    ga = gauges(rng, st)
    we = wells(rng)
    fp = parcels(rng)
    layers = {
        "subbasins": (sb, 3310),
        "streams": (st, 26910),
        "gauges": (ga, 4326),
        "wells": (we, 32610),
        "farm_parcels": (fp, 2226),
    }
    for name, (gdf, epsg) in layers.items():
        path = OUT / f"{name}.gpkg"
        if path.exists():
            path.unlink()
        gdf.to_crs(epsg).to_file(path, layer=name, driver="GPKG")
        print(f"{path.name}: {len(gdf)} features, EPSG:{epsg}")


if __name__ == "__main__":
    main()
