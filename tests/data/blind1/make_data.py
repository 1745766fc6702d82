"""Blind evaluation dataset #1: "Alder County", a made-up farming county in California's
Central Valley (near Merced).  Deterministic (seeded); only numpy/pandas/shapely/geopandas/pyproj.

Writes one GeoPackage per layer (layer named like the file) into ./data/ :

  parcels.gpkg          Polygon     EPSG:2227 (NAD83 / California zone 3, US survey feet)
  wells.gpkg            Point       EPSG:2227
  county_roads.gpkg     LineString  EPSG:2227
  streams.gpkg          LineString  EPSG:4326
  water_districts.gpkg  Polygon     EPSG:4326
  clinics.gpkg          Point       EPSG:4326

Run:  /work/main/.venv/bin/python tests/data/blind1/make_data.py
"""
from __future__ import annotations

import os

import geopandas as gpd
import numpy as np
import pandas as pd
from pyproj import Transformer
from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import voronoi_diagram
from shapely.geometry import MultiPoint

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")
FT = "EPSG:2227"
DEG = "EPSG:4326"

rng = np.random.default_rng(20240611)

# ---------------------------------------------------------------- frame of the county
_to_ft = Transformer.from_crs(DEG, FT, always_xy=True)
_x, _y = _to_ft.transform(-120.62, 37.26)
X0 = round(_x / 1000.0) * 1000.0          # south-west corner of the parcel grid (ftUS)
Y0 = round(_y / 1000.0) * 1000.0
CELL = 2640.0                              # a quarter-section side, 160 acres
NCOL, NROW = 12, 10
W, H = NCOL * CELL, NROW * CELL            # 31,680 ft x 26,400 ft (about 9.7 x 8.0 km)


def write(gdf: gpd.GeoDataFrame, stem: str) -> None:
    path = os.path.join(OUT, f"{stem}.gpkg")
    if os.path.exists(path):
        os.remove(path)
    gdf.to_file(path, layer=stem, driver="GPKG")


# ---------------------------------------------------------------- parcels (polygons, feet)
nodes = np.zeros((NROW + 1, NCOL + 1, 2))
for r in range(NROW + 1):
    for c in range(NCOL + 1):
        x, y = X0 + c * CELL, Y0 + r * CELL
        if 0 < r < NROW and 0 < c < NCOL:          # jitter interior nodes only
            x += rng.uniform(-320, 320)
            y += rng.uniform(-320, 320)
        nodes[r, c] = (x, y)

DROPPED = {(0, 11), (3, 4), (4, 4), (6, 9), (9, 0), (9, 1)}   # cells without a parcel (gaps)
OWNERS = [
    "Silva Family Trust", "Valley Nut Co", "J. Ramirez", "Okafor Farms LLC", "County of Alder",
    "Hernandez Bros", "Sunrise Orchards", "M. Nguyen", "Baptista Dairy", "Westside Ag Partners",
    "K. Sandhu", "Greenfield Vineyards",
]
CROPS = ["almonds", "walnuts", "grapes", "alfalfa", "tomatoes", "fallow"]
CROP_P = [0.30, 0.15, 0.15, 0.17, 0.13, 0.10]
rows = []
n = 0
for r in range(NROW):
    for c in range(NCOL):
        if (r, c) in DROPPED:
            continue
        n += 1
        poly = Polygon([tuple(nodes[r, c]), tuple(nodes[r, c + 1]), tuple(nodes[r + 1, c + 1]),
                        tuple(nodes[r + 1, c]), tuple(nodes[r, c])])
        crop = str(rng.choice(CROPS, p=CROP_P))
        irrigated = "N" if crop == "fallow" or rng.random() < 0.08 else "Y"
        acres = poly.area / 43560.0
        per_acre = {"almonds": 14000, "walnuts": 12500, "grapes": 16000, "alfalfa": 7000,
                    "tomatoes": 8500, "fallow": 4000}[crop]
        rows.append({
            "PARCEL_NO": f"054-{r:02d}{c:02d}-{n:03d}",
            "OWNER": str(rng.choice(OWNERS)),
            "acreage": round(acres, 2),
            "crop_type": crop,
            "irrigated": irrigated,
            "zoning": str(rng.choice(["AG-40", "AG-20", "RR-5"], p=[0.55, 0.35, 0.10])),
            "soil_class": int(rng.choice([1, 2, 3, 4], p=[0.2, 0.4, 0.3, 0.1])),
            "assessed_usd": int(round(acres * per_acre * rng.uniform(0.8, 1.25), -3)),
            "geometry": poly,
        })
parcels = gpd.GeoDataFrame(rows, crs=FT)

# ---------------------------------------------------------------- wells (points, feet)
NW = 180
wx = rng.uniform(X0 + 200, X0 + W - 200, NW)
wy = rng.uniform(Y0 + 200, Y0 + H - 200, NW)
wpts = [Point(round(a, 1), round(b, 1)) for a, b in zip(wx, wy)]
wells = gpd.GeoDataFrame({"geometry": wpts}, crs=FT)
hit = gpd.sjoin(wells, parcels[["PARCEL_NO", "geometry"]], predicate="within", how="left")
hit = hit[~hit.index.duplicated()]
status = rng.choice(["active", "inactive", "abandoned"], NW, p=[0.6, 0.25, 0.15])
use = rng.choice(["irrigation", "domestic", "stock"], NW, p=[0.55, 0.3, 0.15])
depth = np.round(rng.gamma(4.0, 85.0, NW) + 60, 1)
wells = gpd.GeoDataFrame({
    "WELL_ID": [f"W-{i + 1:04d}" for i in range(NW)],
    "APN": hit["PARCEL_NO"].where(hit["PARCEL_NO"].notna(), None).tolist(),
    "use_type": use.astype(str),
    "status": status.astype(str),
    "depth_ft": depth,
    "yield_gpm": [0 if s == "abandoned" else int(rng.integers(5, 40) if u != "irrigation"
                                                   else rng.integers(300, 2500))
                  for s, u in zip(status, use)],
    "drilled_yr": rng.integers(1948, 2024, NW).astype(int),
    "nitrate_mgl": np.round(rng.lognormal(1.6, 0.7, NW), 2),
    "geometry": wpts,
}, crs=FT)

# ---------------------------------------------------------------- county roads (lines, feet)
road_rows = []
def road(num, rname, surface, speed, maint, coords):
    road_rows.append({"RD_NUMBER": num, "RD_NAME": rname, "surface": surface, "speed_mph": speed,
                      "maint_by": maint, "geometry": LineString(coords)})

EXT = 1500.0
ys = [Y0 + 2 * CELL + 40, Y0 + 5 * CELL - 60, Y0 + 8 * CELL + 25]
xs = [X0 + 3 * CELL - 35, X0 + 7 * CELL + 50, X0 + 10 * CELL - 20]
road("CR-101", "Bloss Ave", "paved", 55, "County", [(X0 - EXT, ys[0]), (X0 + W + EXT, ys[0])])
# Sandy Mush Rd is two segments: paved west half, gravel east half
road("CR-102", "Sandy Mush Rd", "paved", 45, "County", [(X0 - EXT, ys[1]), (xs[1], ys[1])])
road("CR-102", "Sandy Mush Rd", "gravel", 35, "County", [(xs[1], ys[1]), (X0 + W + EXT, ys[1])])
road("CR-103", "Dickenson Ferry Rd", "paved", 45, "County", [(X0 - EXT, ys[2]), (X0 + W + EXT, ys[2])])
road("CR-201", "Lincoln Rd", "paved", 55, "County", [(xs[0], Y0 - EXT), (xs[0], Y0 + H + EXT)])
road("CR-202", "Cunningham Rd", "gravel", 35, "County", [(xs[1], Y0 - EXT), (xs[1], ys[1])])
road("CR-202", "Cunningham Rd", "dirt", 25, "Private", [(xs[1], ys[1]), (xs[1], Y0 + H + EXT)])
road("CR-203", "Turner Island Rd", "dirt", 25, "Private", [(xs[2], Y0 + CELL), (xs[2], Y0 + H - CELL)])
road("SR-59", "State Route 59", "paved", 65, "State",
     [(X0 - EXT, Y0 + 0.5 * CELL), (X0 + 0.45 * W, Y0 + 0.55 * H), (X0 + W + EXT, Y0 + H - 0.3 * CELL)])
road("SR-152", "Pacheco Hwy", "paved", 65, "State",
     [(X0 + 0.15 * W, Y0 + H + EXT), (X0 + 0.55 * W, Y0 + 0.35 * H), (X0 + 0.8 * W, Y0 - EXT)])
road("CR-310", "Oak Grove Ln", "gravel", 35, "County",
     [(X0 + 1.3 * CELL, Y0 + 6.4 * CELL), (X0 + 2.2 * CELL, Y0 + 6.9 * CELL), (xs[0], Y0 + 7.2 * CELL)])
road("CR-311", "Quarry Rd", "dirt", 25, "Private",
     [(xs[2], Y0 + 3.3 * CELL), (X0 + 11.0 * CELL, Y0 + 3.8 * CELL), (X0 + 11.6 * CELL, Y0 + 2.9 * CELL)])
road("CR-312", "Mission Dr", "paved", 35, "County",
     [(xs[0], Y0 + 3.6 * CELL), (X0 + 4.2 * CELL, Y0 + 3.5 * CELL), (X0 + 5.6 * CELL, Y0 + 3.9 * CELL)])
road("CR-313", "Levee Rd", "gravel", 35, "County",
     [(X0 + 4.5 * CELL, Y0 + 9.3 * CELL), (X0 + 6.0 * CELL, Y0 + 9.1 * CELL), (xs[1], Y0 + 9.4 * CELL)])
road("CR-314", "Canal Bank Rd", "dirt", 25, "Private",
     [(X0 + 8.2 * CELL, Y0 + 0.4 * CELL), (X0 + 8.4 * CELL, Y0 + 1.6 * CELL), (X0 + 8.9 * CELL, ys[0])])
road("CR-315", "Almond Way", "paved", 35, "County",
     [(xs[1], Y0 + 6.5 * CELL), (X0 + 8.6 * CELL, Y0 + 6.4 * CELL), (xs[2], Y0 + 6.7 * CELL)])
road("CR-316", "Gravel Pit Rd", "gravel", 35, "Private",
     [(X0 + 10.3 * CELL, Y0 + 8.6 * CELL), (X0 + 11.5 * CELL, Y0 + 9.2 * CELL), (X0 + W + EXT, Y0 + 9.3 * CELL)])
road("CR-317", "School House Rd", "paved", 35, "County",
     [(X0 + 0.3 * CELL, ys[0]), (X0 + 0.6 * CELL, Y0 + 3.5 * CELL), (X0 + 0.9 * CELL, ys[1])])
county_roads = gpd.GeoDataFrame(road_rows, crs=FT)
county_roads.insert(0, "seg_id", np.arange(1, len(county_roads) + 1))

# ---------------------------------------------------------------- streams (lines, degrees)
_to_deg = Transformer.from_crs(FT, DEG, always_xy=True)


def meander(p0, p1, amp, waves, phase, n=60):
    (x0, y0), (x1, y1) = p0, p1
    t = np.linspace(0, 1, n)
    dx, dy = x1 - x0, y1 - y0
    L = np.hypot(dx, dy)
    nx, ny = -dy / L, dx / L
    off = amp * np.sin(2 * np.pi * waves * t + phase) * np.sin(np.pi * t)
    xs_ = x0 + dx * t + nx * off
    ys_ = y0 + dy * t + ny * off
    lon, lat = _to_deg.transform(xs_, ys_)
    return LineString([(round(a, 7), round(b, 7)) for a, b in zip(lon, lat)])


def on_line(line_ft, frac):
    return line_ft.interpolate(frac, normalized=True).coords[0]


# the main river crosses the whole county west -> east; tributaries end on it
river_ft = LineString([(X0 - 2500, Y0 + 0.62 * H), (X0 + 0.3 * W, Y0 + 0.48 * H),
                       (X0 + 0.65 * W, Y0 + 0.58 * H), (X0 + W + 2500, Y0 + 0.40 * H)])
river_pts = [river_ft.interpolate(d) for d in np.linspace(0, river_ft.length, 80)]
rlon, rlat = _to_deg.transform([p.x for p in river_pts], [p.y for p in river_pts])
stream_rows = [{"GNIS_NAME": "Alder River", "reach_code": "18040001-001", "strahler": 5,
                "flow_regime": "perennial",
                "geometry": LineString([(round(a, 7), round(b, 7)) for a, b in zip(rlon, rlat)])}]
tribs = [
    ("Mill Creek", "18040001-014", 3, "perennial", (X0 + 0.10 * W, Y0 + H + 2000), 0.16, 900, 2.0),
    ("Dry Creek", "18040001-022", 2, "intermittent", (X0 + 0.35 * W, Y0 - 1800), 0.33, 700, 1.5),
    ("Cottonwood Creek", "18040001-031", 3, "perennial", (X0 + 0.55 * W, Y0 + H + 1500), 0.58, 1100, 2.5),
    ("Coyote Slough", "18040001-037", 1, "ephemeral", (X0 + 0.62 * W, Y0 + 0.12 * H), 0.66, 400, 1.0),
    ("Oak Run", "18040001-040", 2, "intermittent", (X0 + 0.80 * W, Y0 + 0.95 * H), 0.80, 650, 1.5),
    ("Little Salt Creek", "18040001-046", 1, "ephemeral", (X0 + 0.88 * W, Y0 + 0.05 * H), 0.90, 500, 2.0),
]
for name, code, order, regime, src, frac, amp, waves in tribs:
    stream_rows.append({"GNIS_NAME": name, "reach_code": code, "strahler": order, "flow_regime": regime,
                        "geometry": meander(src, on_line(river_ft, frac), amp, waves, 0.7 * order)})
# an isolated canal-fed drain in the north-west, not connected to the river
stream_rows.append({"GNIS_NAME": "Sand Draw", "reach_code": "18040001-052", "strahler": 1,
                    "flow_regime": "ephemeral",
                    "geometry": meander((X0 + 0.02 * W, Y0 + 0.90 * H), (X0 + 0.22 * W, Y0 + 0.80 * H),
                                        300, 1.0, 0.3)})
streams = gpd.GeoDataFrame(stream_rows, crs=DEG)

# ---------------------------------------------------------------- water districts (polygons, degrees)
# irregular service area covering most but not all of the county, split into 5 Voronoi cells
outline = Polygon([(X0 - 1200, Y0 + 900), (X0 + 0.5 * W, Y0 - 1500), (X0 + W + 800, Y0 + 1200),
                   (X0 + W - 1500, Y0 + 0.6 * H), (X0 + W + 400, Y0 + H + 700),
                   (X0 + 0.4 * W, Y0 + H - 2600), (X0 + 0.05 * W, Y0 + H + 900), (X0 + 2200, Y0 + 0.5 * H)])
seeds = MultiPoint([(X0 + 0.2 * W, Y0 + 0.25 * H), (X0 + 0.6 * W, Y0 + 0.2 * H),
                    (X0 + 0.85 * W, Y0 + 0.55 * H), (X0 + 0.55 * W, Y0 + 0.75 * H),
                    (X0 + 0.15 * W, Y0 + 0.75 * H)])
cells = voronoi_diagram(seeds, envelope=box(X0 - 1e5, Y0 - 1e5, X0 + 1e5, Y0 + 1e5))
cell_list = []
for s in seeds.geoms:                       # keep seed order
    for cgeom in cells.geoms:
        if cgeom.contains(s):
            cell_list.append(cgeom.intersection(outline))
WD = [("WD-A", "Westside Irrigation District", 1921, 3.0, 42.50, 5, "Upper"),
      ("WD-B", "Alder River ID", 1909, 3.5, 38.75, 7, "Lower"),
      ("WD-C", "Salt Flat Water District", 1954, 2.25, 55.00, 5, "Lower"),
      ("WD-D", "Cottonwood Water Agency", 1968, 2.5, 61.20, 3, "Upper"),
      ("WD-E", "Mill Creek WSD", 1937, 2.75, 47.10, 5, "Upper")]
wd_geoms = []
for g in cell_list:
    g = g.segmentize(300.0)               # dense edges so the shape survives the reprojection
    lon, lat = _to_deg.transform(*np.asarray(g.exterior.coords).T)
    wd_geoms.append(Polygon([(round(a, 7), round(b, 7)) for a, b in zip(lon, lat)]))
water_districts = gpd.GeoDataFrame({
    "WD_CODE": [w[0] for w in WD], "WD_NAME": [w[1] for w in WD], "formed_yr": [w[2] for w in WD],
    "allot_af": [w[3] for w in WD], "fee_per_acre": [w[4] for w in WD],
    "board_seats": [w[5] for w in WD], "gw_basin": [w[6] for w in WD], "geometry": wd_geoms,
}, crs=DEG)

# ---------------------------------------------------------------- clinics (points, degrees)
CL = [("Alder Community Clinic", "clinic", 24, "N", 1988, 0.30, 0.52),
      ("Valley Urgent Care", "urgent_care", 15, "Y", 2009, 0.46, 0.47),
      ("Sunrise Family Health", "clinic", 11, "N", 1996, 0.72, 0.66),
      ("Westside Dental", "dental", 6, "N", 2015, 0.12, 0.35),
      ("Riverbend Pharmacy", "pharmacy", 4, "N", 2001, 0.55, 0.55),
      ("Farmworker Health Center", "clinic", 31, "N", 1979, 0.62, 0.18),
      ("Pacheco Urgent Care", "urgent_care", 12, "Y", 2018, 0.88, 0.82),
      ("Lincoln Rd Pharmacy", "pharmacy", 3, "Y", 2012, 0.24, 0.93),
      ("Oak Grove Dental", "dental", 5, "N", 1991, 0.93, 0.12)]
cx = [X0 + c[5] * W for c in CL]
cy = [Y0 + c[6] * H for c in CL]
clon, clat = _to_deg.transform(cx, cy)
clinics = gpd.GeoDataFrame({
    "FACILITY": [c[0] for c in CL], "kind": [c[1] for c in CL], "staff": [c[2] for c in CL],
    "open_24h": [c[3] for c in CL], "est_year": [c[4] for c in CL],
    "geometry": [Point(round(a, 7), round(b, 7)) for a, b in zip(clon, clat)],
}, crs=DEG)

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for gdf, stem in [(parcels, "parcels"), (wells, "wells"), (county_roads, "county_roads"),
                      (streams, "streams"), (water_districts, "water_districts"), (clinics, "clinics")]:
        write(gdf, stem)
        print(f"{stem}: {len(gdf)} {gdf.geom_type.unique().tolist()} {gdf.crs.to_epsg()}")
