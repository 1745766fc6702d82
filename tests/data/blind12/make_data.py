"""blind12 data: Karstwald National Park wildlife monitoring (made up). Deterministic (seed, fixed OGR_CURRENT_DATE).

    nice -n 10 /work/main/.venv/bin/python make_data.py
"""
import os

os.environ["OGR_CURRENT_DATE"] = "2026-01-01T00:00:00Z"

from pathlib import Path  # noqa: E402

import geopandas as gpd  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rasterio  # noqa: E402
from rasterio.transform import from_origin  # noqa: E402
from shapely.geometry import LineString, Point, box  # noqa: E402

D = Path(__file__).resolve().parent / "data"
D.mkdir(exist_ok=True)
for f in D.iterdir():
    f.unlink()
rng = np.random.default_rng(20261127)
UTM = 32633
X0, Y0 = 402000.0, 5195000.0          # SW corner of the park, EPSG:32633; park 12 x 9 km
W, H = 12000.0, 9000.0

# ---------------------------------------------------------------- zones: 3 x 2 grid, 4 km x 4.5 km, row by row from the NW
ZX = [0, 4000, 8000, 12000]
ZY = [9000, 4500, 0]
ZNAMES = ["Eagle Crag", "Black Lake", "Fir Valley", "Stone Meadows", "Lynx Ridge", "Old Mill"]
ZTYPE = ["buffer", "core", "buffer", "buffer", "core", "visitor"]
ZEST = [1987, 1995, 2003, 1991, 2009, 2016]
ZDIST = ["north", "north", "north", "south", "south", "south"]
rows = []
k = 0
for r in range(2):
    for c in range(3):
        rows.append({"zone_id": k + 1, "name": ZNAMES[k], "zone_type": ZTYPE[k], "established": ZEST[k],
                     "district": ZDIST[k],
                     "geometry": box(X0 + ZX[c], Y0 + ZY[r + 1], X0 + ZX[c + 1], Y0 + ZY[r])})
        k += 1
zones = gpd.GeoDataFrame(rows, crs=UTM)
zones.to_file(D / "zones.gpkg", layer="zones", driver="GPKG")

# ---------------------------------------------------------------- habitats: 4 x 3 grid of unequal cells, row by row from the NW
HX = [0, 2500, 5600, 9200, 12000]
HY = [9000, 6100, 2800, 0]
HAB = ["forest", "rock", "meadow", "forest",
       "wetland", "forest", "scrub", "meadow",
       "meadow", "forest", "wetland", "forest"]
rows = []
k = 0
for r in range(3):
    for c in range(4):
        rows.append({"hab_id": k + 1, "habitat": HAB[k], "survey_year": [2019, 2021, 2022, 2020][(k * 3) % 4],
                     "geometry": box(X0 + HX[c], Y0 + HY[r + 1], X0 + HX[c + 1], Y0 + HY[r])})
        k += 1
habitats = gpd.GeoDataFrame(rows, crs=UTM)
habitats.to_file(D / "habitats.gpkg", layer="habitats", driver="GPKG")

XCUTS = sorted(set(ZX + HX))
YCUTS = sorted(set(ZY + HY))


def ok_point(x, y, margin=80.0):
    return (all(abs(x - c) >= margin for c in XCUTS) and all(abs(y - c) >= margin for c in YCUTS))


def rand_points(n, centres=None, sigma=1500.0, frac=0.6):
    out = []
    while len(out) < n:
        if centres is not None and rng.random() < frac:
            cx, cy = centres[rng.integers(len(centres))]
            x, y = rng.normal(cx, sigma), rng.normal(cy, sigma)
        else:
            x, y = rng.uniform(0, W), rng.uniform(0, H)
        if 0 < x < W and 0 < y < H and ok_point(x, y):
            out.append((round(X0 + x, 1), round(Y0 + y, 1)))
    return out


# ---------------------------------------------------------------- ranger posts (EPSG:32633)
PPOS = [(1500, 7600), (6100, 7000), (10400, 8100), (2300, 2100), (5200, 3400), (8700, 1500), (11000, 4000),
        (3600, 5200)]
PNAMES = ["North Gate", "Lake Hut", "Crag Cabin", "Mill Station", "Valley Lodge", "Moor Hut", "East Gate", "Pine Shelter"]
posts = gpd.GeoDataFrame({
    "post_id": range(1, 9), "name": PNAMES,
    "staffed": ["yes", "yes", "no", "yes", "yes", "no", "yes", "no"],
    "rangers": [4, 3, 0, 5, 2, 0, 3, 0],
    "built": [1989, 1996, 2005, 1992, 2011, 2014, 2018, 2001],
    "geometry": [Point(X0 + x, Y0 + y) for x, y in PPOS]}, crs=UTM)
posts.to_file(D / "ranger_posts.gpkg", layer="ranger_posts", driver="GPKG")

# ---------------------------------------------------------------- camera traps (EPSG:4326)
pts = rand_points(40)
models = np.array(["Reconyx"] * 14 + ["Browning"] * 16 + ["Bushnell"] * 10)
rng.shuffle(models)
active = np.array(["yes"] * 31 + ["no"] * 9)
rng.shuffle(active)
base = np.datetime64("2017-03-01")
inst = base + rng.choice(np.arange(0, 8 * 365), size=40, replace=False).astype("timedelta64[D]")
traps = gpd.GeoDataFrame({
    "trap_id": range(1, 41), "code": [f"CT-{i:02d}" for i in range(1, 41)],
    "model": models, "installed": pd.to_datetime(inst).astype("datetime64[ms]"), "active": active,
    "battery_pct": rng.choice(np.arange(5, 100), size=40, replace=False).astype(int),
    "geometry": [Point(x, y) for x, y in pts]}, crs=UTM).to_crs(4326)
traps.to_file(D / "camera_traps.gpkg", layer="camera_traps", driver="GPKG")

# ---------------------------------------------------------------- sightings (EPSG:3035)
SPECIES = {"red deer": (48, [(3000, 6500), (9000, 2000)]), "chamois": (34, [(10500, 7500)]),
           "lynx": (9, [(6000, 2500)]), "wolf": (14, [(2000, 1500)]),
           "golden eagle": (17, [(1500, 8200), (10800, 8300)]), "ibex": (22, [(11000, 7000)])}
rows = []
sid = 1
for sp, (n, centres) in SPECIES.items():
    for x, y in rand_points(n, centres, sigma=1400.0, frac=0.7):
        rows.append({"sp": sp, "x": x, "y": y})
order = rng.permutation(len(rows))
rows = [rows[i] for i in order]
nS = len(rows)
day = np.datetime64("2023-01-01") + rng.integers(0, 3 * 365, size=nS).astype("timedelta64[D]")
methods = rng.choice(["camera", "ranger", "visitor"], size=nS, p=[0.45, 0.35, 0.2])
ind = np.where(np.isin([r["sp"] for r in rows], ["red deer", "chamois", "ibex"]),
               rng.integers(1, 13, size=nS), rng.integers(1, 4, size=nS))
sightings = gpd.GeoDataFrame({
    "sighting_id": range(1, nS + 1), "species": [r["sp"] for r in rows], "individuals": ind.astype(int),
    "observed": pd.to_datetime(day).astype("datetime64[ms]"), "method": methods,
    "confirmed": np.where(rng.random(nS) < 0.8, "yes", "no"),
    "geometry": [Point(r["x"], r["y"]) for r in rows]}, crs=UTM).to_crs(3035)
sightings.to_file(D / "sightings.gpkg", layer="sightings", driver="GPKG")

# ---------------------------------------------------------------- trails (EPSG:4326), drawn in UTM km
TR = [
    ("Lakeshore Loop", "easy", "yes", 1998, [(5.0, 6.6), (5.8, 7.4), (6.9, 7.2), (6.4, 6.3), (5.2, 6.3)]),
    ("Eagle Ridge Trail", "difficult", "no", 2004, [(0.7, 5.4), (1.4, 6.9), (2.2, 8.3), (3.4, 8.7)]),
    ("Mill Creek Path", "easy", "yes", 1990, [(1.2, 0.7), (2.6, 1.8), (3.9, 2.2)]),
    ("Fir Valley Way", "moderate", "yes", 2012, [(8.6, 5.2), (9.3, 6.6), (10.1, 7.5), (11.4, 8.6)]),
    ("Lynx Traverse", "difficult", "no", 2015, [(6.2, 0.6), (7.4, 2.2), (8.1, 3.9), (9.9, 4.9), (11.6, 4.3)]),
    ("Meadow Stroll", "easy", "yes", 2019, [(4.3, 3.8), (4.9, 4.2)]),
    ("Old Mill Circuit", "moderate", "no", 2001, [(8.9, 0.5), (10.5, 0.9), (11.5, 2.4), (10.2, 3.0), (9.1, 1.8)]),
    ("Black Lake Ascent", "moderate", "no", 2008, [(4.4, 5.1), (5.5, 5.6), (6.3, 5.2), (7.1, 5.9)]),
    ("Stone Steps", "difficult", "no", 1995, [(0.4, 3.2), (1.1, 3.9)]),
    ("South Rim Walk", "moderate", "yes", 2021, [(2.7, 0.4), (4.1, 0.9), (5.5, 1.6)]),
]
trails = gpd.GeoDataFrame({
    "trail_id": range(1, len(TR) + 1), "name": [t[0] for t in TR], "difficulty": [t[1] for t in TR],
    "winter_open": [t[2] for t in TR], "opened": [t[3] for t in TR],
    "geometry": [LineString([(X0 + 1000 * a, Y0 + 1000 * b) for a, b in t[4]]) for t in TR]}, crs=UTM).to_crs(4326)
trails.to_file(D / "trails.gpkg", layer="trails", driver="GPKG")

# ---------------------------------------------------------------- trap images table (CSV)
ids = [i for i in range(1, 41) if i not in (17, 33)] + [41]
img = pd.DataFrame({"trap_id": ids,
                    "images": rng.choice(np.arange(40, 900), size=len(ids), replace=False),
                    "false_triggers": rng.choice(np.arange(0, 120), size=len(ids), replace=False),
                    "days_active": rng.integers(120, 366, size=len(ids))})
img.to_csv(D / "trap_images_2025.csv", index=False)

# ---------------------------------------------------------------- elevation (EPSG:32633, 50 m, cell-aligned with zones/habitats)
CELL = 50.0
nx, ny = int(W / CELL), int(H / CELL)
xs = (np.arange(nx) + 0.5) * CELL
ys = H - (np.arange(ny) + 0.5) * CELL
XX, YY = np.meshgrid(xs, ys)
dem = (850 + 0.09 * YY + 0.035 * XX + 420 * np.exp(-(((XX - 10500) / 2200) ** 2 + ((YY - 7800) / 1800) ** 2))
       - 150 * np.exp(-(((XX - 6000) / 1200) ** 2 + ((YY - 6800) / 900) ** 2))
       + 25 * np.sin(XX / 900.0) * np.cos(YY / 700.0))
dem = dem.astype("float32")
with rasterio.open(D / "elevation.tif", "w", driver="GTiff", width=nx, height=ny, count=1, dtype="float32",
                   crs=f"EPSG:{UTM}", transform=from_origin(X0, Y0 + H, CELL, CELL), nodata=-9999.0) as dst:
    dst.write(dem, 1)
print("wrote", sorted(p.name for p in D.iterdir()))
