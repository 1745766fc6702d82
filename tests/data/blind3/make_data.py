"""Blind set 3 dataset: a made-up ski resort ("Pine Notch") in the Adirondacks, NY.

Deterministic (seeded). Writes one GeoPackage per layer (layer named like the file)
into ./data/.  Geometry is built in EPSG:32118 (NAD83 / New York East, metres) and then
written in the layer's own CRS:
  zones.gpkg         Polygon     EPSG:32118 (metres)
  facilities.gpkg    Point       EPSG:32118 (metres)
  lifts.gpkg         LineString  EPSG:2260  (NAD83 / New York East, US survey feet)
  trails.gpkg        LineString  EPSG:4326
  snow_cannons.gpkg  Point       EPSG:4326
"""
from pathlib import Path

import geopandas as gpd
import numpy as np
from pyproj import Transformer
from shapely.geometry import LineString, Point, Polygon

HERE = Path(__file__).resolve().parent
OUT = HERE / "data"
OUT.mkdir(exist_ok=True)
rng = np.random.default_rng(20240607)

# origin of the local frame (lon/lat of the resort's south-west corner)
to_m = Transformer.from_crs(4326, 32118, always_xy=True)
X0, Y0 = to_m.transform(-74.06, 43.60)
X0, Y0 = round(X0, -1), round(Y0, -1)


def P(x, y):
    return (X0 + x, Y0 + y)


def write(gdf, name, crs):
    gdf = gdf.set_crs(32118).to_crs(crs)
    path = OUT / f"{name}.gpkg"
    if path.exists():
        path.unlink()
    gdf.to_file(path, layer=name, driver="GPKG")
    return gdf


# ---------------------------------------------------------------- zones (7)
# base strip y 0..500; above it three columns (split x ~1300 / ~2700), each lower 500..1700, upper 1700..3000
xs_lo = [0, 1300, 2700, 4000]   # at y=500
xs_mid = [0, 1250, 2750, 4000]  # at y=1700
xs_hi = [0, 1200, 2800, 4000]   # at y=3000
zones_def = [
    # id, name, type, snowmaking, avg_snow_cm, polygon
    (1, "Base Village", "base_area", "yes", 85, [P(0, 0), P(4000, 0), P(4000, 500), P(0, 500)]),
    (2, "Bunny Flats", "beginner", "yes", 110, [P(xs_lo[0], 500), P(xs_lo[1], 500), P(xs_mid[1], 1700), P(xs_mid[0], 1700)]),
    (3, "Birch Glades", "intermediate", "no", 140, [P(xs_lo[1], 500), P(xs_lo[2], 500), P(xs_mid[2], 1700), P(xs_mid[1], 1700)]),
    (4, "Rail Yard Park", "terrain_park", "yes", 120, [P(xs_lo[2], 500), P(xs_lo[3], 500), P(xs_mid[3], 1700), P(xs_mid[2], 1700)]),
    (5, "Hemlock Meadows", "intermediate", "yes", 175, [P(xs_mid[0], 1700), P(xs_mid[1], 1700), P(xs_hi[1], 3000), P(xs_hi[0], 3000)]),
    (6, "Summit Chutes", "expert", "no", 230, [P(xs_mid[1], 1700), P(xs_mid[2], 1700), P(xs_hi[2], 3000), P(xs_hi[1], 3000)]),
    (7, "Raven Bowl", "expert", "no", 210, [P(xs_mid[2], 1700), P(xs_mid[3], 1700), P(xs_hi[3], 3000), P(xs_hi[2], 3000)]),
]
zones = gpd.GeoDataFrame(
    {
        "zone_id": [z[0] for z in zones_def],
        "ZoneName": [z[1] for z in zones_def],
        "zone_type": [z[2] for z in zones_def],
        "snowmaking": [z[3] for z in zones_def],
        "avg_snow_cm": [z[4] for z in zones_def],
    },
    geometry=[Polygon(z[5]) for z in zones_def],
)
write(zones, "zones", 32118)

# ---------------------------------------------------------------- lifts (12)
lift_def = [
    # LiftID, lift_name, LiftType, cap_pph, Öffnungsjahr, start(x,y), end(x,y)
    ("L01", "Notch Express", "gondola", 2400, 2008, (2000, 250), (2000, 2950)),
    ("L02", "Bunny Carpet", "magic_carpet", 900, 2015, (400, 420), (520, 700)),
    ("L03", "Flats Double", "double", 1200, 1972, (700, 300), (900, 1500)),
    ("L04", "Birch Quad", "quad", 2200, 1998, (1500, 350), (1900, 1650)),
    ("L05", "Hemlock Triple", "triple", 1600, 1985, (600, 1750), (800, 2900)),
    ("L06", "Summit Six", "six_pack", 3000, 2019, (2100, 1750), (2300, 2980)),
    ("L07", "Raven T-Bar", "t_bar", 1000, 1968, (3300, 1800), (3600, 2850)),
    ("L08", "Park Platter", "platter", 800, 1979, (3000, 450), (3300, 1400)),
    ("L09", "Railyard Quad", "quad", 2000, 2004, (3500, 300), (3700, 1600)),
    ("L10", "Midway Double", "double", 1100, 1975, (1100, 1600), (1300, 2400)),
    ("L11", "Chute Triple", "triple", 1500, 1990, (2600, 1800), (2700, 2900)),
    ("L12", "Valley Connector", "quad", 1800, 2011, (100, 150), (3900, 200)),
]
lifts = gpd.GeoDataFrame(
    {
        "LiftID": [d[0] for d in lift_def],
        "lift_name": [d[1] for d in lift_def],
        "LiftType": [d[2] for d in lift_def],
        "cap_pph": [d[3] for d in lift_def],
        "Öffnungsjahr": [d[4] for d in lift_def],
    },
    geometry=[LineString([P(*d[5]), P(*d[6])]) for d in lift_def],
)
write(lifts, "lifts", 2260)

# ---------------------------------------------------------------- trails (30)
names = ["Lumberjack", "Fox Run", "Blue Jay", "Otter Slide", "Timberline", "Chickadee", "Moose Alley",
         "Cascade", "Sidewinder", "Widowmaker", "Easy Street", "Ridge Runner", "Snowshoe Loop", "Lynx",
         "Boulder Dash", "Hemlock Hollow", "Tamarack", "Black Bear", "Avalanche", "Powder Keg",
         "Rabbit Trail", "Hawk Eye", "Drop Zone", "Meadow Lane", "Beaver Pond", "Rocky Road",
         "Grizzly Gully", "Sunset Traverse", "Kestrel", "Outback Nordic"]
diffs = ["green", "blue", "black", "double_black"]
trail_geoms, trail_rows = [], []
for i, nm in enumerate(names):
    tid = i + 1
    if nm == "Outback Nordic":      # cross-country loop, mostly outside the zones (east of x=4000)
        coords = [(3800, 800), (4600, 900), (5100, 1500), (4700, 2200), (4100, 2000)]
        diff, groomed, width = "green", "Y", 6
    elif nm == "Sunset Traverse":   # long traverse across the mountain
        coords = [(300, 2600), (1500, 2300), (2600, 2000), (3800, 1800)]
        diff, groomed, width = "blue", "Y", 15
    else:
        x_top = rng.uniform(200, 3800)
        y_top = rng.uniform(1200, 2950)
        n = int(rng.integers(3, 6))
        ys = np.linspace(y_top, rng.uniform(350, 480), n)
        xs = x_top + np.cumsum(np.r_[0, rng.normal(0, 120, n - 1)])
        xs = np.clip(xs, 50, 3950)
        coords = list(zip(xs.round(1), ys.round(1)))
        # steeper (higher start) -> harder, with some noise
        k = int(np.clip(round((y_top - 1200) / 1750 * 3 + rng.normal(0, 0.6)), 0, 3))
        diff = diffs[k]
        groomed = "N" if diff == "double_black" or rng.random() < 0.15 else "Y"
        width = int(rng.choice([10, 15, 20, 25, 30, 40]))
    trail_geoms.append(LineString([P(x, y) for x, y in coords]))
    trail_rows.append({"trail_id": tid, "TrailName": nm, "difficulty": diff, "groomed": groomed,
                       "width_m": width, "night_skiing": bool(rng.random() < 0.2)})
trails = gpd.GeoDataFrame(trail_rows, geometry=trail_geoms)
write(trails, "trails", 4326)

# ---------------------------------------------------------------- facilities (25)
cats = (["restaurant"] * 6 + ["first_aid"] * 4 + ["rental"] * 3 + ["toilet"] * 5 + ["ticket_office"] * 3
        + ["parking"] * 4)
fac_rows, fac_geoms = [], []
for i, c in enumerate(cats):
    if c in ("rental", "ticket_office", "parking"):
        x, y = rng.uniform(200, 3800), rng.uniform(60, 460)
    else:
        x, y = rng.uniform(150, 3850), rng.uniform(100, 2900)
    seats = int(rng.integers(40, 320)) if c == "restaurant" else 0
    fac_rows.append({"fac_id": i + 1, "FacName": f"{c.replace('_', ' ').title()} {i + 1}", "category": c,
                     "seats": seats, "open_winter": "N" if rng.random() < 0.2 else "Y",
                     "elev_m": int(round(420 + y * 0.28 + rng.normal(0, 15)))})
    fac_geoms.append(Point(P(round(x, 1), round(y, 1))))
fac_rows[0]["FacName"] = "Summit Lodge"
fac_geoms[0] = Point(P(2050.0, 2920.0))
fac_rows[0]["elev_m"] = 1238
fac_rows[1]["FacName"] = "Hemlock Hut"
facilities = gpd.GeoDataFrame(fac_rows, geometry=fac_geoms)
write(facilities, "facilities", 32118)

# ---------------------------------------------------------------- snow cannons (120)
can_rows, can_geoms = [], []
for i in range(120):
    if i < 108:
        t = trail_geoms[int(rng.integers(0, 28))]
        pt = t.interpolate(rng.uniform(0, 1), normalized=True)
        x = pt.x + rng.normal(0, 12)
        y = pt.y + rng.normal(0, 12)
    else:  # a few stored outside the resort zones, east of x=4000 (reserve depot)
        x, y = X0 + rng.uniform(4100, 4400), Y0 + rng.uniform(100, 400)
    can_rows.append({"cannon_id": i + 1, "model": str(rng.choice(["fan", "lance"], p=[0.4, 0.6])),
                     "status": str(rng.choice(["active", "broken", "reserve"], p=[0.75, 0.1, 0.15])),
                     "water_lps": round(float(rng.uniform(2, 12)), 1)})
    can_geoms.append(Point(round(x, 1), round(y, 1)))
snow = gpd.GeoDataFrame(can_rows, geometry=can_geoms)
write(snow, "snow_cannons", 4326)
print("written to", OUT)
