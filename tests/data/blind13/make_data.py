"""blind13 data: an archaeological survey around "Valle del Salso" (made up), south-west Sicily.

Deterministic (seed 20261127, OGR_CURRENT_DATE fixed): two runs give byte-identical files.
    nice -n 10 .venv/bin/python make_data.py
"""
import os

os.environ["OGR_CURRENT_DATE"] = "2026-11-27T00:00:00Z"
os.environ.setdefault("OGR_SQLITE_JOURNAL", "OFF")

from pathlib import Path  # noqa: E402

import geopandas as gpd  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rasterio  # noqa: E402
from rasterio.transform import from_origin  # noqa: E402
from shapely.geometry import LineString, Point, box  # noqa: E402

HERE = Path(__file__).resolve().parent
D = HERE / "data"
D.mkdir(exist_ok=True)
for f in D.iterdir():
    f.unlink()
rng = np.random.default_rng(20261127)
UTM = 32633
X0, Y0 = 370000.0, 4125000.0

# ------------------------------------------------------------------ sites (polygons, UTM 33N)
SITES = [
    # id, name, main_period, protected, discovered, x0, y0, x1, y1
    (1, "Monte Grande", "Greek", "yes", 1962, 370500, 4125500, 371300, 4126100),
    (2, "Case Bianche", "Roman", "yes", 1978, 372000, 4125300, 372500, 4125700),
    (3, "Piano dei Greci", "Greek", "yes", 1931, 373200, 4126200, 374400, 4126900),
    (4, "Cozzo Olivo", "Bronze Age", "no", 1995, 371200, 4127300, 371650, 4127800),
    (5, "Valle dei Mulini", "Medieval", "no", 2004, 374800, 4125400, 375400, 4125950),
    (6, "Serra Rossa", "Neolithic", "no", 2011, 372600, 4127900, 373000, 4128600),
    (7, "Fontana Vecchia", "Roman", "yes", 1988, 375200, 4127400, 375900, 4128200),
    (8, "Torre Salsa", "Medieval", "no", 2017, 370300, 4128300, 370650, 4128800),
]
sites = gpd.GeoDataFrame(
    {
        "site_id": [s[0] for s in SITES],
        "name": [s[1] for s in SITES],
        "main_period": [s[2] for s in SITES],
        "protected": [s[3] for s in SITES],
        "discovered": [s[4] for s in SITES],
    },
    geometry=[box(*s[5:]) for s in SITES],
    crs=UTM,
)

# ------------------------------------------------------------------ trenches (polygons, UTM 33N)
PER_SITE = {1: 8, 2: 5, 3: 10, 4: 3, 5: 4, 7: 6}  # 36 trenches; sites 6 and 8 not excavated
SIZES = [(5, 5), (5, 10), (10, 10), (10, 20), (4, 8), (8, 12)]
SUPERVISORS = ["Rossi", "Bianchi", "Weber", "Chen", "Dubois"]
rows, geoms = [], []
tid = 0
for sid, n in PER_SITE.items():
    s = SITES[sid - 1]
    x0, y0, x1, y1 = s[5:]
    # n slots on a grid inside the site, 30 m from its edge, jittered
    cols = int(np.ceil(np.sqrt(n * 1.5)))
    rws = int(np.ceil(n / cols))
    cw, rh = (x1 - x0 - 60) / cols, (y1 - y0 - 60) / rws
    slots = [(c, r) for r in range(rws) for c in range(cols)]
    pick = rng.choice(len(slots), size=n, replace=False)
    for k in sorted(pick):
        c, r = slots[k]
        w, h = SIZES[rng.integers(len(SIZES))]
        if rng.random() < 0.5:
            w, h = h, w
        cx = x0 + 30 + cw * (c + 0.5) + rng.uniform(-0.2, 0.2) * cw
        cy = y0 + 30 + rh * (r + 0.5) + rng.uniform(-0.2, 0.2) * rh
        cx, cy = round(cx), round(cy)
        tid += 1
        geoms.append(box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        rows.append(
            {
                "trench_id": f"T{tid:02d}",
                "site_id": sid,
                "opened": int(rng.integers(2006, 2025)),
                "depth_m": round(float(rng.uniform(0.4, 3.8)), 2),
                "status": "open" if rng.random() < 0.4 else "backfilled",
                "supervisor": SUPERVISORS[rng.integers(len(SUPERVISORS))],
            }
        )
trenches = gpd.GeoDataFrame(rows, geometry=geoms, crs=UTM)

# ------------------------------------------------------------------ finds (points, EPSG:4326)
MATERIALS = ["pottery", "bone", "metal", "flint", "glass"]
PERIODS = ["Neolithic", "Bronze Age", "Greek", "Roman", "Medieval"]
frows, fpts = [], []
for i, t in trenches.iterrows():
    gx0, gy0, gx1, gy1 = t.geometry.bounds
    area = t.geometry.area
    n = int(rng.poisson(2 + area / 12))
    sp = SITES[t.site_id - 1][2]
    for _ in range(n):
        x = rng.uniform(gx0 + 0.5, gx1 - 0.5)
        y = rng.uniform(gy0 + 0.5, gy1 - 0.5)
        period = sp if rng.random() < 0.6 else PERIODS[rng.integers(len(PERIODS))]
        mat = MATERIALS[min(int(rng.exponential(1.1)), 4)]
        yr = min(t.opened + int(rng.integers(0, 3)), 2025)
        day = pd.Timestamp(f"{yr}-05-01") + pd.Timedelta(days=int(rng.integers(0, 120)))
        frows.append({"material": mat, "period": period, "context": "trench", "found_on": day.date()})
        fpts.append(Point(x, y))
# surface finds: scattered, outside trenches (not inside any site for most)
while sum(r["context"] == "surface" for r in frows) < 44:
    x, y = X0 + rng.uniform(200, 5800), Y0 + rng.uniform(200, 3800)
    p = Point(x, y)
    if trenches.distance(p).min() < 15:
        continue
    day = pd.Timestamp("2019-03-01") + pd.Timedelta(days=int(rng.integers(0, 5 * 365)))
    frows.append(
        {
            "material": MATERIALS[min(int(rng.exponential(0.7)), 4)],
            "period": PERIODS[rng.choice(5, p=[0.1, 0.15, 0.15, 0.45, 0.15])],
            "context": "surface",
            "found_on": day.date(),
        }
    )
    fpts.append(p)
order = rng.permutation(len(frows))
frows = [frows[k] for k in order]
fpts = [fpts[k] for k in order]
for k, r in enumerate(frows):
    r["find_id"] = k + 1
    w = {"pottery": 40, "bone": 25, "metal": 60, "flint": 15, "glass": 8}[r["material"]]
    r["weight_g"] = round(float(rng.lognormal(np.log(w), 0.7)), 1)
finds = gpd.GeoDataFrame(frows, geometry=fpts, crs=UTM)[
    ["find_id", "material", "period", "weight_g", "found_on", "context", "geometry"]
]
finds = finds.to_crs(4326)
finds["geometry"] = finds.geometry.set_precision(1e-8)

# ------------------------------------------------------------------ transects (lines, EPSG:3035)
TEAMS = ["Alpha", "Beta", "Gamma"]
trows, tgeoms = [], []
for k in range(14):
    while True:
        length = rng.uniform(350, 2300)
        if abs(length - 1000) > 60 and abs(length - 1500) > 60 and abs(length - 2000) > 60 and abs(length - 500) > 40:
            break
    ang = rng.uniform(0, np.pi)
    cx, cy = X0 + rng.uniform(900, 5100), Y0 + rng.uniform(700, 3300)
    dx, dy = np.cos(ang) * length / 2, np.sin(ang) * length / 2
    mid = (cx + rng.uniform(-40, 40), cy + rng.uniform(-40, 40))
    tgeoms.append(LineString([(cx - dx, cy - dy), mid, (cx + dx, cy + dy)]))
    day = pd.Timestamp("2021-09-01") + pd.Timedelta(days=int(rng.integers(0, 3 * 365)))
    trows.append(
        {
            "transect_id": f"TR{k + 1:02d}",
            "team": TEAMS[rng.integers(3)],
            "walked_on": day.date(),
            "sherds": int(rng.poisson(length / 60)),
            "visibility": ["good", "moderate", "poor"][rng.integers(3)],
        }
    )
transects = gpd.GeoDataFrame(trows, geometry=tgeoms, crs=UTM).to_crs(3035)
transects["geometry"] = transects.geometry.set_precision(0.01)

# ------------------------------------------------------------------ lab dates (table, no geometry)
LABS = ["Oxford", "Poznan", "Zurich"]
dated = sorted(rng.choice(len(trenches), size=28, replace=False))
BP = {"Neolithic": 6400, "Bronze Age": 3500, "Greek": 2450, "Roman": 1950, "Medieval": 850}
lrows = []
for k, i in enumerate(dated):
    t = trenches.iloc[i]
    base = BP[SITES[t.site_id - 1][2]]
    lrows.append(
        {
            "sample_id": f"S{k + 1:03d}",
            "trench_code": t.trench_id,
            "c14_bp": int(base + rng.integers(-300, 300)),
            "error_bp": int(rng.integers(20, 60)),
            "lab": LABS[rng.integers(3)],
            "sample_material": ["charcoal", "bone", "seed"][rng.integers(3)],
        }
    )
lrows.append({"sample_id": "S029", "trench_code": "T40", "c14_bp": 2210, "error_bp": 35, "lab": "Oxford",
              "sample_material": "charcoal"})
lrows.append({"sample_id": "S030", "trench_code": "T41", "c14_bp": 1890, "error_bp": 28, "lab": "Zurich",
              "sample_material": "bone"})
lab = pd.DataFrame(lrows)

# ------------------------------------------------------------------ elevation (raster, UTM 33N, 20 m)
W, H, CELL = 300, 200, 20.0
xs = X0 + (np.arange(W) + 0.5) * CELL
ys = (Y0 + 4000) - (np.arange(H) + 0.5) * CELL
XX, YY = np.meshgrid(xs - X0, ys - Y0)
dem = 95 + 0.018 * XX + 0.012 * YY + 35 * np.sin(XX / 900.0) * np.cos(YY / 700.0) + 12 * np.sin(YY / 300.0)
dem = np.round(dem, 1).astype("float32")
dem[20:35, 240:255] = -9999.0  # a gap in the NE, outside every site

# ------------------------------------------------------------------ write
sites.to_file(D / "sites.gpkg", layer="sites", driver="GPKG")
trenches.to_file(D / "trenches.gpkg", layer="trenches", driver="GPKG")
finds.to_file(D / "finds.gpkg", layer="finds", driver="GPKG")
transects.to_file(D / "transects.gpkg", layer="transects", driver="GPKG")
lab.to_csv(D / "lab_dates.csv", index=False)
with rasterio.open(D / "elevation.tif", "w", driver="GTiff", width=W, height=H, count=1, dtype="float32",
                   crs=f"EPSG:{UTM}", transform=from_origin(X0, Y0 + 4000, CELL, CELL), nodata=-9999.0) as dst:
    dst.write(dem, 1)
print({n: len(g) for n, g in [("sites", sites), ("trenches", trenches), ("finds", finds),
                              ("transects", transects), ("lab_dates", lab)]})
