"""Blind set 2 data: a made-up coastal national seashore on a barrier island (Long Island, NY area).

Deterministic (seed 20240611). Geometry is built in EPSG:32118 (NAD83 / New York Long Island, metres)
on a local frame, then each layer is written in its own CRS:
  trails.gpkg      LineString  EPSG:2263 (NY Long Island, US survey feet)
  sensors.gpkg     Point       EPSG:4326
  shelters.gpkg    Point       EPSG:32118 (metres)
  habitats.gpkg    Polygon     EPSG:5070 (CONUS Albers, metres)
  mgmt_zones.gpkg  Polygon     EPSG:4326
  shoreline.gpkg   LineString  EPSG:32618 (UTM 18N, metres)
Run: python make_data.py  (writes ./data/*.gpkg next to this file)
"""
import os
import numpy as np
import geopandas as gpd
from shapely.geometry import Point, LineString, Polygon, box
from pyproj import Transformer

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data")
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20240611)

# local frame origin (SW corner of the park) in EPSG:32118
X0, Y0 = Transformer.from_crs(4326, 32118, always_xy=True).transform(-73.05, 40.64)
X0, Y0 = round(X0), round(Y0)
W, H = 12000.0, 5000.0          # park 12 km x 5 km; south edge = ocean, north edge = bay


def L(x, y):
    return (X0 + x, Y0 + y)


def write(gdf, name, crs):
    gdf = gdf.set_crs(32118).to_crs(crs)
    path = os.path.join(OUT, f"{name}.gpkg")
    if os.path.exists(path):
        os.remove(path)
    gdf.to_file(path, layer=name, driver="GPKG")
    return gdf


# --- management zones: 6 strips west -> east --------------------------------------------
zone_names = ["Smith Point", "Watch Hill", "Barrett Beach", "Sailors Haven", "Cherry Grove", "Sunken Forest"]
zone_cls = ["recreation", "wilderness", "recreation", "restricted", "recreation", "wilderness"]
zone_rows = []
for i, nm in enumerate(zone_names):
    zone_rows.append({
        "ZoneID": f"Z{i+1}",
        "ZoneName": nm,
        "zone_cls": zone_cls[i],
        "Visitors_2023": int(rng.integers(2000, 90000)),
        "fire_Risk": ["low", "medium", "high"][int(rng.integers(0, 3))],
        "geometry": box(*L(i * 2000, 0), *L((i + 1) * 2000, H)),
    })
zones = gpd.GeoDataFrame(zone_rows, crs=None)

# --- habitats: 6 x 5 grid of perturbed rectangles inside the park ------------------------
hab_by_row = ["beach", "dune", "maritime_forest", "salt_marsh", "tidal_flat"]
hab_rows = []
k = 0
for r in range(5):
    for c in range(6):
        k += 1
        x0 = c * 2000 + rng.uniform(20, 300)
        x1 = (c + 1) * 2000 - rng.uniform(20, 300)
        y0 = r * 1000 + rng.uniform(10, 150)
        y1 = (r + 1) * 1000 - rng.uniform(10, 150)
        # a slanted top edge so the shapes are not plain boxes
        dy = rng.uniform(-80, 80)
        poly = Polygon([L(x0, y0), L(x1, y0), L(x1, y1 + dy), L(x0, y1 - dy)])
        ht = hab_by_row[r] if rng.random() > 0.15 else hab_by_row[(r + 1) % 5]
        hab_rows.append({
            "HabCode": f"H{k:03d}",
            "hab_type": ht,
            "ProtLevel": int(rng.integers(1, 4)),
            "nesting": "yes" if rng.random() < 0.35 else "no",
            "Survey_Yr": int(rng.choice([2019, 2020, 2021, 2022, 2023])),
            "geometry": poly,
        })
habitats = gpd.GeoDataFrame(hab_rows, crs=None)

# --- shoreline: ocean side (y=0) and bay side (y=H), 4 segments each, wiggly --------------
shore_rows = []
sid = 0
for side, yb in (("ocean", 0.0), ("bay", H)):
    for s in range(4):
        sid += 1
        xs = np.linspace(s * 3000, (s + 1) * 3000, 16)
        ys = yb + rng.normal(0, 25, len(xs)) * (1 if side == "ocean" else 3)
        ys[0] = yb if s == 0 else ys[0]
        shore_rows.append({
            "SegID": sid,
            "shore_typ": side,
            "Erosion_m_yr": round(float(rng.uniform(-1.5, 2.5) if side == "ocean" else rng.uniform(-0.5, 0.8)), 2),
            "armored": "Y" if rng.random() < 0.3 else "N",
            "geometry": LineString([L(x, y) for x, y in zip(xs, ys)]),
        })
shoreline = gpd.GeoDataFrame(shore_rows, crs=None)

# --- trails: 24 lines inside the park ------------------------------------------------------
trail_names = ["Dune Walk", "Sunken Forest Loop", "Boardwalk East", "Boardwalk West", "Marsh Overlook",
               "Lighthouse Path", "Old Inlet Trail", "Holly Trail", "Bayside Path", "Fire Road",
               "Osprey Spur", "Heron Trail", "Pine Barrens Link", "Wilderness Track", "Cranberry Path",
               "Ocean View", "Fisherman Access", "Tern Trail", "Beach Grass Path", "Sassafras Loop",
               "Plover Spur", "Kettle Trail", "Cedar Walk", "Moonrise Path"]
surfaces = ["sand", "boardwalk", "gravel"]
trail_rows = []
for i, nm in enumerate(trail_names):
    n = int(rng.integers(3, 8))
    x = rng.uniform(300, W - 2500)
    y = rng.uniform(300, H - 300)
    pts = [(x, y)]
    heading = rng.uniform(0, 2 * np.pi)
    for _ in range(n):
        heading += rng.normal(0, 0.6)
        step = rng.uniform(200, 900)
        x = float(np.clip(x + step * np.cos(heading), 100, W - 100))
        y = float(np.clip(y + step * np.sin(heading), 100, H - 100))
        pts.append((x, y))
    trail_rows.append({
        "TrailID": i + 1,
        "trail_Name": nm,
        "SurfaceTyp": surfaces[int(rng.integers(0, 3))],
        "difficulty": ["easy", "moderate", "hard"][int(rng.integers(0, 3))],
        "open_YN": "Y" if rng.random() < 0.8 else "N",
        "bikes_ok": int(rng.random() < 0.3),
        "geometry": LineString([L(*p) for p in pts]),
    })
trails = gpd.GeoDataFrame(trail_rows, crs=None)

# --- sensors: 60 points, ~10 of them offshore (buoys) -----------------------------------
stypes = ["water_quality", "tide_gauge", "weather", "wildlife_cam"]
sensor_rows = []
for i in range(60):
    if i % 6 == 5:       # buoy in the ocean / bay, outside the park
        x = rng.uniform(0, W)
        y = rng.uniform(-1500, -200) if rng.random() < 0.6 else rng.uniform(H + 200, H + 1500)
        st = "tide_gauge" if rng.random() < 0.5 else "water_quality"
    else:
        x = rng.uniform(50, W - 50)
        y = rng.uniform(50, H - 50)
        st = stypes[int(rng.integers(0, 4))]
    sensor_rows.append({
        "SensorID": f"S-{i+1:03d}",
        "sensType": st,
        "Install_Yr": int(rng.integers(2012, 2024)),
        "batt_pct": int(rng.integers(5, 101)),
        "status": "offline" if rng.random() < 0.2 else "active",
        "Elev_m": round(float(rng.uniform(-3, 12)), 1),
        "geometry": Point(L(x, y)),
    })
sensors = gpd.GeoDataFrame(sensor_rows, crs=None)

# --- shelters / ranger stations: 15 points -------------------------------------------------
shelter_rows = []
for i in range(15):
    shelter_rows.append({
        "ShelterNo": i + 1,
        "shName": f"{['Ranger Station', 'Hut', 'Camp'][i % 3]} {chr(65 + i)}",
        "kind": ["ranger_station", "hut", "campsite"][i % 3],
        "beds": int(rng.integers(0, 25)),
        "has_Water": "Y" if rng.random() < 0.6 else "N",
        "staffed": "yes" if i % 3 == 0 else "no",
        "geometry": Point(L(rng.uniform(200, W - 200), rng.uniform(200, H - 200))),
    })
shelters = gpd.GeoDataFrame(shelter_rows, crs=None)

write(trails, "trails", 2263)
write(sensors, "sensors", 4326)
write(shelters, "shelters", 32118)
write(habitats, "habitats", 5070)
write(zones, "mgmt_zones", 4326)
write(shoreline, "shoreline", 32618)
print("written to", OUT)
