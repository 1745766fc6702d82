"""blind9 data: the made-up alpine resort valley Val Sarna (Graubünden, about 9.8 E, 46.6 N).

Deterministic: seed fixed, OGR_CURRENT_DATE fixed, so two runs give byte-identical files.
    cd tests/data/blind9 && ../../../.venv/bin/python make_data.py
"""

import os

os.environ["OGR_CURRENT_DATE"] = "2026-12-01T00:00:00Z"

from pathlib import Path  # noqa: E402

import geopandas as gpd  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rasterio  # noqa: E402
from rasterio.transform import from_origin  # noqa: E402
from shapely.geometry import LineString, Point, Polygon, box  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
E0, N0, W, H = 2760000.0, 1170000.0, 6000.0, 5000.0
CELL = 25.0
NODATA = -9999.0
rng = np.random.default_rng(20261215)


def axis_n(e):
    return 1172500.0 + 300.0 * np.sin((e - E0) / 6000.0 * np.pi * 1.2)


def elevation(e, n):
    floor = 1250.0 + 250.0 * (e - E0) / 6000.0
    d = np.abs(n - axis_n(e))
    z = floor + 1600.0 * (1.0 - np.exp(-((d / 1400.0) ** 2)))
    z += 60.0 * np.sin(e / 400.0) * np.cos(n / 500.0)
    z += 420.0 * np.exp(-(((e - 2764200.0) ** 2 + (n - 1174300.0) ** 2) / (600.0**2)))
    return z


def dem():
    cols, rows = int(W / CELL), int(H / CELL)
    e = E0 + (np.arange(cols) + 0.5) * CELL
    n = N0 + H - (np.arange(rows) + 0.5) * CELL
    ee, nn = np.meshgrid(e, n)
    z = elevation(ee, nn).astype("float32")
    z = np.round(z, 2).astype("float32")
    z[20:36, 172:196] = NODATA  # a survey gap in the north-east
    prof = dict(driver="GTiff", width=cols, height=rows, count=1, dtype="float32", crs="EPSG:2056",
                transform=from_origin(E0, N0 + H, CELL, CELL), nodata=NODATA)
    with rasterio.open(DATA / "dem.tif", "w", **prof) as dst:
        dst.write(z, 1)
    return z


def dem_at(e, n):
    return float(elevation(np.array(e), np.array(n)))


def write(gdf, name):
    path = DATA / name
    if path.exists():
        path.unlink()
    if name.endswith(".gpkg"):
        gdf.to_file(path, driver="GPKG", layer=Path(name).stem)
    else:
        gdf.to_file(path, driver="GeoJSON")


def municipalities():
    # four municipalities tiling the 6 x 5 km valley
    m = [
        (3781, "Sarnaz", 1480, box(E0, N0, 2762000, N0 + H)),
        (3782, "Valdera", 2360, box(2762000, N0, 2764300, N0 + H)),
        (3783, "Pradalt", 640, box(2764300, 1172600, E0 + W, N0 + H)),
        (3784, "Fuldera", 910, box(2764300, N0, E0 + W, 1172600)),
    ]
    gdf = gpd.GeoDataFrame(
        {"bfs_nr": [r[0] for r in m], "name": [r[1] for r in m], "population": [r[2] for r in m],
         "canton": ["GR"] * 4},
        geometry=[r[3].segmentize(100) for r in m], crs=2056)
    out = gdf.to_crs(4326)
    out["geometry"] = out.geometry.set_precision(1e-7)
    write(out, "municipalities.geojson")
    return gdf


def zones():
    z = [  # code, danger, aspect, centre e, centre n, half-width, half-height
        ("A", 4, "N", 2761000, 1173900, 450, 300),
        ("B", 3, "N", 2762700, 1174100, 400, 350),
        ("C", 2, "S", 2761500, 1171000, 500, 300),
        ("D", 5, "NE", 2764200, 1174350, 350, 300),
        ("E1", 3, "S", 2763600, 1170900, 350, 280),
        ("E2", 1, "S", 2764800, 1170700, 300, 250),
        ("F", 2, "N", 2765300, 1174000, 350, 350),
        ("AB", 4, "SW", 2763300, 1173700, 180, 160),
    ]
    geoms = []
    for code, _, _, ce, cn, hw, hh in z:
        # an irregular octagon around the centre
        pts = []
        for k in range(8):
            a = np.pi / 4 * k + 0.2
            r = 1.0 + 0.12 * np.sin(3 * k + len(code))
            pts.append((ce + hw * r * np.cos(a), cn + hh * r * np.sin(a)))
        geoms.append(Polygon([(round(x, 2), round(y, 2)) for x, y in pts]))
    gdf = gpd.GeoDataFrame({"zone": [r[0] for r in z], "danger": [r[1] for r in z], "aspect": [r[2] for r in z],
                            "forecast": ["daily"] * 6 + ["weekly"] * 2}, geometry=geoms, crs=2056)
    write(gdf, "avalanche_zones.gpkg")
    return gdf


def lifts():
    L = [  # id, name, type, capacity, year, start(e,n), end(e,n)
        ("L01", "Lift A", "draglift", 900, 1979, (2760600, 1172700), (2760900, 1173500)),
        ("L02", "Lift B", "draglift", 1000, 1990, (2761300, 1172900), (2761500, 1173600)),
        ("L03", "Sarnaz Gondola", "gondola", 2400, 2015, (2761800, 1172950), (2762900, 1174400)),
        ("L04", "Hut Station", "chairlift", 1800, 1990, (2763000, 1173000), (2763400, 1173900)),
        ("L05", "Valdera Express", "chairlift", 2800, 2019, (2762600, 1172900), (2762400, 1171200)),
        ("L06", "Piz Sarna Cable Car", "cable car", 600, 1968, (2763500, 1172650), (2764150, 1174300)),
        ("L07", "Lift C", "draglift", 720, 1985, (2764700, 1172700), (2764900, 1173300)),
        ("L08", "Pradalt Chair", "chairlift", 1800, 2003, (2765200, 1172800), (2765500, 1174100)),
        ("L09", "Fuldera Chair", "chairlift", 1500, 1996, (2764600, 1172300), (2764900, 1170800)),
        ("L10", "Zone Six", "draglift", 1100, 2008, (2763700, 1172200), (2763800, 1171300)),
        ("L11", "Baby Lift", "carpet", 400, 2012, (2761050, 1172350), (2761150, 1172300)),
        ("L12", "Alp Mot Gondola", "gondola", 2400, 2010, (2760400, 1172400), (2760500, 1171100)),
    ]
    gdf = gpd.GeoDataFrame(
        {"lift_id": [r[0] for r in L], "name": [r[1] for r in L], "type": [r[2] for r in L],
         "capacity": [r[3] for r in L], "year": [r[4] for r in L]},
        geometry=[LineString([r[5], r[6]]) for r in L], crs=2056)
    write(gdf, "lifts.gpkg")
    return gdf


def huts():
    Hs = [  # id, name, beds, open_months, season, staffed, e, n
        ("H01", "Chamanna Sarnaz", 40, 4, "summer", "yes", 2760950, 1173750),
        ("H02", "Lift Hut", 24, 12, "all year", "yes", 2762980, 1174480),
        ("H03", "Alp Gronda", 12, 3, "summer", "no", 2760300, 1174550),
        ("H04", "Berghaus Valdera", 60, 12, "all year", "yes", 2763420, 1174050),
        ("H05", "Chamanna Piz Sarna", 36, 5, "summer", "yes", 2764100, 1174450),
        ("H06", "Alp Mot", 18, 4, "summer", "no", 2760560, 1170950),
        ("H07", "Berghaus Pradalt", 80, 12, "all year", "yes", 2765560, 1174560),
        ("H08", "Tschierv Hut", 41, 5, "summer", "yes", 2765800, 1170600),
        ("H09", "Chamanna Lagh", 22, 4, "summer", "no", 2762100, 1170400),
        ("H10", "Furcla Hut", 39, 6, "winter", "yes", 2762350, 1171050),
        ("H11", "Alp Sura", 8, 3, "summer", "no", 2765900, 1171700),
        ("H12", "Zone Hut", 30, 5, "winter", "yes", 2763750, 1171050),
        ("H13", "Chamanna Cotschen", 50, 4, "summer", "yes", 2761700, 1174700),
        ("H14", "Alp Vallatscha", 14, 3, "summer", "no", 2764950, 1170650),
        ("H15", "Berghaus Fuldera", 45, 12, "all year", "yes", 2764700, 1172050),
        ("H16", "Munt Hut", 28, 5, "winter", "yes", 2761150, 1170350),
        ("H17", "Alp Starlera", 10, 3, "summer", "no", 2763000, 1170300),
        ("H18", "Chamanna Tuoi", 40, 6, "summer", "yes", 2764500, 1174800),
        ("H19", "Plan Hut", 20, 12, "all year", "yes", 2762150, 1172750),
        ("H20", "Alp Tamangur", 16, 4, "summer", "no", 2765450, 1173300),
    ]
    alt = [int(round(dem_at(r[6], r[7]))) for r in Hs]
    alt[5] = 2500  # Alp Mot: the recorded altitude, 29 m above the DEM
    gdf = gpd.GeoDataFrame(
        {"hut_id": [r[0] for r in Hs], "name": [r[1] for r in Hs], "beds": [r[2] for r in Hs], "altitude": alt,
         "open_months": [r[3] for r in Hs], "season": [r[4] for r in Hs], "staffed": [r[5] for r in Hs]},
        geometry=[Point(r[6], r[7]) for r in Hs], crs=2056)
    out = gdf.to_crs(4326)
    out["geometry"] = out.geometry.set_precision(1e-7)
    write(out, "huts.gpkg")
    return gdf


def trails():
    T = [  # id, name, difficulty, ascent, vertices (e, n)
        (1, "Valley Path", "T1", 120, [(2760200, 1172350), (2761800, 1172650), (2763400, 1172450), (2765800, 1172700)]),
        (2, "Sarnaz Hut Trail", "T2", 560, [(2760700, 1172500), (2760850, 1173100), (2760950, 1173600)]),
        (3, "Piz Sarna Ridge", "T5", 1350, [(2763600, 1172800), (2763900, 1173700), (2764150, 1174700), (2764250, 1174950)]),
        (4, "Lagh Loop", "T2", 420, [(2762000, 1172300), (2762100, 1171300), (2762100, 1170400), (2761700, 1170300)]),
        (5, "Furcla Pass", "T3", 780, [(2762300, 1172600), (2762400, 1171600), (2762900, 1170200)]),
        (6, "Tschierv Traverse", "T4", 900, [(2764100, 1171200), (2765000, 1170700), (2765800, 1170600)]),
        (7, "Pradalt Balcony", "T2", 300, [(2764600, 1173600), (2765500, 1173700), (2765950, 1173900)]),
        (8, "Cotschen Climb", "T6", 1500, [(2761600, 1173300), (2761700, 1174300), (2761750, 1174900)]),
        (9, "Alp Mot Trail", "T1", 250, [(2760300, 1172200), (2760550, 1170950)]),
        (10, "Gronda Path", "T3", 800, [(2760400, 1172800), (2760250, 1173700), (2760300, 1174550)]),
        (11, "Lift Trail", "T2", 450, [(2763050, 1173050), (2763250, 1173600), (2763420, 1174050)]),
        (12, "Zone Trail", "T3", 640, [(2763700, 1172300), (2763750, 1171050)]),
        (13, "Sura Path", "T1", 200, [(2765200, 1172550), (2765900, 1171700)]),
        (14, "Tuoi Ascent", "T4", 1000, [(2764400, 1173200), (2764500, 1174800)]),
        (15, "Starlera Route", "T5", 1100, [(2762900, 1172200), (2763000, 1170300)]),
        (16, "Munt Walk", "T2", 380, [(2761300, 1172200), (2761150, 1170350)]),
        (17, "Vallatscha Trail", "T3", 700, [(2764800, 1172000), (2764950, 1170650)]),
        (18, "High Route", "T6", 600, [(2762980, 1174480), (2763420, 1174050), (2764100, 1174450), (2764500, 1174800)]),
    ]
    geoms = [LineString(r[4]) for r in T]
    g2056 = gpd.GeoSeries(geoms, crs=2056)
    g = g2056.to_crs(32632).set_precision(0.01)
    lens = [round(x / 1000.0, 2) for x in g2056.length]
    gdf = gpd.GeoDataFrame({"trail_id": [r[0] for r in T], "name": [r[1] for r in T], "difficulty": [r[2] for r in T],
                            "length_km": lens, "ascent_m": [r[3] for r in T]}, geometry=g.values, crs=32632)
    write(gdf, "trails.gpkg")
    return gdf


def stations():
    S = [  # code, name, e, n, snow_cm
        ("S01", "Sarnaz Dorf", 2760800, 1172420, 45),
        ("S02", "Valdera Dorf", 2763100, 1172480, 60),
        ("S03", "Pradalt Dorf", 2765300, 1172850, 80),
        ("S04", "Alp Gronda", 2760350, 1174400, 150),
        ("S05", "Furcla", 2762500, 1170900, 120),
        ("S06", "Piz Sarna", 2764200, 1174250, 240),
        ("S07", "Tschierv", 2765600, 1170700, 120),
        ("S08", "Cotschen", 2761650, 1174550, 185),
        ("S09", "Lagh", 2762050, 1170500, 95),
        ("S10", "Munt", 2761250, 1171000, 119),
    ]
    pts = gpd.GeoSeries([Point(r[2], r[3]) for r in S], crs=2056).to_crs(4326)
    df = pd.DataFrame({"code": [r[0] for r in S], "station": [r[1] for r in S],
                       "lon": [round(p.x, 6) for p in pts], "lat": [round(p.y, 6) for p in pts],
                       "snow_cm": [r[4] for r in S],
                       "elev_m": [int(round(dem_at(r[2], r[3]))) for r in S]})
    df.to_csv(DATA / "snow_stations.csv", index=False, lineterminator="\n")
    return df


def ticket_table():
    rows = [  # anlage_nr (= lift_id), riders_2025, revenue_chf, operator
        ("L01", 88000, 410000, "Sarnaz Bergbahnen"),
        ("L02", 95000, 455000, "Sarnaz Bergbahnen"),
        ("L03", 410000, 3900000, "Sarnaz Bergbahnen"),
        ("L04", 260000, 2100000, "Valdera AG"),
        ("L05", 300000, 2600000, "Valdera AG"),
        ("L06", 120000, 1850000, "Valdera AG"),
        ("L08", 240000, 2100000, "Pradalt Bahnen"),
        ("L09", 150000, 1200000, "Pradalt Bahnen"),
        ("L10", 70000, 380000, "Valdera AG"),
        ("L11", 30000, 0, "Sarnaz Bergbahnen"),
        ("L12", 200000, 1500000, "Sarnaz Bergbahnen"),
        ("L15", 50000, 300000, "Pradalt Bahnen"),
    ]
    df = pd.DataFrame(rows, columns=["anlage_nr", "riders_2025", "revenue_chf", "operator"])
    df.to_csv(DATA / "lift_tickets.csv", index=False, lineterminator="\n")
    return df


if __name__ == "__main__":
    DATA.mkdir(exist_ok=True)
    dem()
    municipalities()
    zones()
    lifts()
    huts()
    trails()
    stations()
    ticket_table()
    for p in sorted(DATA.iterdir()):
        print(p.name, p.stat().st_size)
