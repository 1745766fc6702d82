"""blind10 data: a made-up wine region on the Mosel (deterministic; run twice, get identical bytes)."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

os.environ["OGR_CURRENT_DATE"] = "2026-06-01T00:00:00Z"

import geopandas as gpd  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import rasterio  # noqa: E402
from rasterio.transform import from_origin  # noqa: E402
from shapely.geometry import LineString, Point, box  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
SEED = 20261210
X0, Y0, W, H = 360000.0, 5528000.0, 6000.0, 5000.0
UTM, WGS, GK2 = "EPSG:25832", "EPSG:4326", "EPSG:31466"


def yc(x):
    """The Mosel's centreline (northing) at easting x."""
    return Y0 + 2500 + 400 * np.sin(2 * np.pi * (np.asarray(x) - X0) / 6000.0)


def mosel_line():
    xs = np.arange(X0, X0 + W + 1, 20.0)
    return LineString(list(zip(xs, yc(xs))))


def tributary_line():
    ys = np.arange(Y0 + H, yc(X0 + 3400) - 1, -25.0)
    pts = [(X0 + 3400 + 60 * math.sin((Y0 + H - y) / 300.0), y) for y in ys]
    pts[-1] = (pts[-1][0], float(yc(pts[-1][0])))
    return LineString(pts)


def vineyards(rng, mosel, trib, flood):
    # (count, distance range to the Mosel): 5 inside HQ100 (not HQ10), 4 inside HQ1000 (not HQ100), 31 higher up
    plan = [(5, (105, 118)), (4, (225, 250)), (31, (380, 1900))]
    fixed = {12: (250, 200), 20: (250, 200), 15: (250, 100), 26: (250, 100), 33: (250, 100)}
    rects, k = [], 0
    inner = {b: mosel.buffer(b - 20) for b in flood}
    for count, (dlo, dhi) in plan:
        for _ in range(count):
            for _attempt in range(20000):
                col = int(rng.integers(0, 12))
                bank = 1 if rng.random() < 0.55 else -1
                if k in fixed:
                    w, h = fixed[k]
                elif dhi <= 320:
                    w, h = int(rng.integers(8, 16)) * 10, int(rng.integers(4, 6)) * 10
                else:
                    w, h = int(rng.integers(15, 41)) * 10, int(rng.integers(8, 26)) * 10
                x0 = X0 + col * 500 + 30 + int(rng.integers(0, max(1, (440 - w) // 10 + 1))) * 10
                if x0 + w > X0 + col * 500 + 470:
                    continue
                d = int(rng.integers(dlo, dhi + 1))
                ymid = float(yc(x0 + w / 2))
                if bank == 1:
                    y0 = math.floor((ymid + d) / 10) * 10
                    r = box(x0, y0, x0 + w, y0 + h)
                else:
                    y1 = math.ceil((ymid - d) / 10) * 10
                    r = box(x0, y1 - h, x0 + w, y1)
                if not box(X0 + 20, Y0 + 20, X0 + W - 20, Y0 + H - 20).contains(r):
                    continue
                dist = r.distance(mosel)
                far = r.hausdorff_distance(mosel)  # an upper bound is enough for the band test below
                ok = dlo - 10 <= dist and (dhi > 320 or r.within(inner[200 if dhi < 200 else 350]))
                for band in flood:
                    inside = r.within(inner[band])
                    outside = dist >= band + 20
                    ok = ok and (inside or outside)
                ok = ok and r.distance(trib) >= 40 and all(r.distance(o) >= 20 for o in rects)
                if ok:
                    rects.append(r)
                    k += 1
                    break
            else:
                raise RuntimeError("could not place a vineyard")
            del far
    return rects


def main():
    rng = np.random.default_rng(SEED)
    if DATA.exists():
        shutil.rmtree(DATA)
    DATA.mkdir()
    mosel, trib = mosel_line(), tributary_line()
    frame = box(X0, Y0, X0 + W, Y0 + H)

    # --- river (GK zone 2) -------------------------------------------------------------
    river = gpd.GeoDataFrame(
        {"river_id": [1, 2], "name": ["Mosel", "Tiefenbach"], "kind": ["river", "brook"],
         "width_m": [120.0, 4.0], "navigable": ["yes", "no"]},
        geometry=[mosel, trib], crs=UTM).to_crs(GK2)
    river.to_file(DATA / "river.gpkg", layer="river", driver="GPKG")

    # --- flood zones (degrees) ----------------------------------------------------------
    bands = [80, 200, 350]
    fz = gpd.GeoDataFrame(
        {"zone_id": [1, 2, 3], "return_period": [10, 100, 1000], "label": ["HQ10", "HQ100", "HQ1000"],
         "max_depth_m": [2.4, 4.1, 5.6]},
        geometry=[mosel.buffer(b, quad_segs=16).intersection(frame) for b in bands], crs=UTM)
    fz.to_crs(WGS).to_file(DATA / "flood_zones.gpkg", layer="flood_zones", driver="GPKG")

    # --- villages: six territories (Gemarkungen), 1 km wide strips west to east ----------
    vnames = ["Rebdorf", "Uferstein", "Kesselbach", "Traubenheim", "Muehlental", "Sonnfeld"]
    pops = [1200, 2450, 830, 3100, 640, 1580]
    villages = gpd.GeoDataFrame(
        {"village_id": list(range(1, 7)), "name": vnames, "population": pops,
         "households": [530, 1090, 370, 1410, 300, 700],
         "mayor_party": ["CDU", "SPD", "independent", "CDU", "SPD", "Greens"]},
        geometry=[box(X0 + i * 1000, Y0, X0 + (i + 1) * 1000, Y0 + H) for i in range(6)], crs=UTM)
    villages.to_file(DATA / "villages.gpkg", layer="villages", driver="GPKG")

    # --- vineyards (UTM 32N) ------------------------------------------------------------
    rects = vineyards(rng, mosel, trib, bands)
    rects.sort(key=lambda r: (r.bounds[0], r.bounds[1]))
    n = len(rects)
    varieties = ["Riesling"] * 17 + ["Mueller-Thurgau"] * 7 + ["Pinot Noir"] * 6 + ["Elbling"] * 5 + ["Dornfelder"] * 5
    varieties = list(rng.permutation(varieties))
    slopes = [int(v) for v in rng.integers(6, 66, n)]
    for i, v in zip([4, 12, 21], [30, 30, 30]):
        slopes[i] = v
    for i in [7, 30]:
        slopes[i] = 45
    for i, r in enumerate(rects):  # the ones by the river are flat
        if r.distance(mosel) < 330:
            slopes[i] = int(rng.integers(3, 12))
    sites = ["Sonnenuhr", "Doctor", "Graben", "Lay", "Badstube", "Himmelreich", "Treppchen", "Goldtroepfchen",
             "Juffer", "Riverside", "Abtsberg", "Kirchberg"]
    estate = [int(v) for v in rng.integers(1, 16, n)]
    estate[:15] = list(rng.permutation(range(1, 16)))  # every estate has one at least
    planted = [int(v) for v in rng.integers(1965, 2021, n)]
    planted[10] = planted[25] = 1990
    organic = ["yes" if v < 0.35 else "no" for v in rng.random(n)]
    vy = gpd.GeoDataFrame(
        {"vineyard_id": list(range(1, n + 1)),
         "site_name": [sites[int(v)] for v in rng.integers(0, len(sites), n)],
         "variety": varieties,
         "area_ha": [round(r.area / 10000.0, 2) for r in rects],
         "slope_pct": slopes,
         "estate_id": estate,
         "organic": organic,
         "planted": planted},
        geometry=rects, crs=UTM)
    vy.to_file(DATA / "vineyards.gpkg", layer="vineyards", driver="GPKG")

    # --- wineries (GeoJSON, degrees) ----------------------------------------------------
    wnames = ["Riverside Estate", "Weingut Sonnenhof", "Mosel Terrace Winery", "Old Bridge Estate",
              "Schieferkopf", "Klosterhof", "Doctor Cellars", "Haus Lay", "Kesselbach Cooperative",
              "Weingut Ufer", "Steillage Estate", "Felsenkeller", "Weinhaus Traube", "Juffer Hof",
              "Tiefenbach Winery"]
    # (easting offset, signed distance from the Mosel)
    spots = [(250, 240), (620, 520), (1380, -260), (2480, 150), (2900, 900), (1720, 610), (3650, -430),
             (4170, 300), (2300, -700), (4820, -250), (5300, 1250), (700, -1100), (3180, 480),
             (5650, 400), (3520, 1500)]
    wpts = []
    for dx, d in spots:
        x = X0 + dx
        wpts.append(Point(x, float(yc(x)) + d))
    wn = gpd.GeoDataFrame(
        {"estate_id": list(range(1, 16)), "name": wnames,
         "founded": [1802, 1900, 1998, 1765, 1900, 1650, 1921, 1875, 1952, 2004, 1899, 1830, 1901, 1780, 2012],
         "hectares": [12.5, 8.0, 4.2, 10.0, 6.5, 22.0, 15.0, 3.1, 40.0, 5.5, 10.0, 7.8, 2.4, 9.6, 3.9],
         "capacity_hl": [900, 1400, 300, 2500, 500, 1800, 1100, 200, 6000, 450, 700, 650, 150, 800, 260],
         "tasting_room": ["yes", "yes", "no", "yes", "no", "yes", "yes", "no", "yes", "no", "yes", "no", "yes",
                          "yes", "no"]},
        geometry=wpts, crs=UTM).to_crs(WGS)
    wn.to_file(DATA / "wineries.geojson", driver="GeoJSON")

    # --- cycle paths (Shapefile, Gauss-Krueger zone 2) ----------------------------------
    def along(xa, xb, off, step=50.0):
        xs = np.arange(xa, xb + 0.1, step)
        return LineString(list(zip(xs, yc(xs) + off)))

    paths = [
        (1, "Mosel Path", "asphalt", "easy", along(X0, X0 + 2000, 130)),
        (2, "Mosel Path", "asphalt", "easy", along(X0 + 2000, X0 + 4000, 130)),
        (3, "Mosel Path", "asphalt", "easy", along(X0 + 4000, X0 + W, 130)),
        (4, "Vineyard Loop", "gravel", "moderate", along(X0 + 300, X0 + 2600, 760)),
        (5, "Vineyard Loop", "gravel", "moderate", along(X0 + 3600, X0 + 5700, 820)),
        (6, "Ridge Trail", "dirt", "hard", along(X0 + 200, X0 + 5800, 1750)),
        (7, "Ridge Trail", "dirt", "hard", along(X0 + 600, X0 + 5400, -1650)),
        (8, "Tiefenbach Trail", "gravel", "moderate",
         LineString([(x + 90, y) for x, y in tributary_line().coords][:-4])),
        (9, "Village Link", "asphalt", "easy",
         LineString([(X0 + 2550, float(yc(X0 + 2550)) - 1500), (X0 + 2550, float(yc(X0 + 2550)) + 1500)])),
        (10, "Riverside Link", "asphalt", "easy", along(X0 + 900, X0 + 3500, -150)),
        (11, "Schiefer Route", "gravel", "moderate", along(X0 + 3900, X0 + 5900, -900)),
        (12, "Kesselbach Climb", "dirt", "hard",
         LineString([(X0 + 2100, float(yc(X0 + 2100)) + 200), (X0 + 2250, float(yc(X0 + 2250)) + 900),
                     (X0 + 2150, float(yc(X0 + 2150)) + 1600)])),
    ]
    cp = gpd.GeoDataFrame(
        {"path_id": [p[0] for p in paths], "route_name": [p[1] for p in paths], "surface": [p[2] for p in paths],
         "difficulty": [p[3] for p in paths], "length_km": [round(p[4].length / 1000.0, 2) for p in paths]},
        geometry=[p[4] for p in paths], crs=UTM).to_crs(GK2)
    cp.to_file(DATA / "cycle_paths.shp", driver="ESRI Shapefile", encoding="UTF-8")

    # --- festivals (CSV with lon/lat) ---------------------------------------------------
    fests = [("Rebdorf Riesling Days", 400, 330, "2026-05-16", 3200, 2),
             ("Uferstein Wine Festival", 1450, 420, "2026-08-08", 5000, 3),
             ("Mosel Wine Week", 1900, -330, "2026-09-05", 12000, 7),
             ("Kesselbach Cellar Night", 2350, 260, "2026-06-20", 1500, 1),
             ("Old Bridge Fest", 2600, -380, "2026-07-11", 4999, 2),
             ("Traubenheim Harvest Fair", 3300, 360, "2026-10-03", 8000, 3),
             ("Riverside Summer Wine", 3700, -420, "2026-07-25", 2700, 2),
             ("Muehlental Federweisser Fest", 4300, -280, "2026-09-26", 5001, 2),
             ("Sonnfeld Vintners Fair", 5400, 520, "2026-08-22", 6400, 3),
             ("Juffer Steep Slope Day", 5800, 900, "2026-05-30", 900, 1),
             ("Ridge Trail Wine Hike", 1100, 1720, "2026-06-06", 650, 1),
             ("Tiefenbach Mill Festival", 3450, 1100, "2026-09-12", 1800, 2)]
    fpts = [Point(X0 + dx, float(yc(X0 + dx)) + d) for _, dx, d, *_ in fests]
    fg = gpd.GeoSeries(fpts, crs=UTM).to_crs(WGS)
    fe = pd.DataFrame({"festival_id": list(range(1, 13)), "festival": [f[0] for f in fests],
                       "lon": [round(p.x, 6) for p in fg], "lat": [round(p.y, 6) for p in fg],
                       "date": [f[3] for f in fests], "visitors": [f[4] for f in fests],
                       "days": [f[5] for f in fests]})
    fe.to_csv(DATA / "festivals.csv", index=False, lineterminator="\n")

    # --- estate register (plain table; key estate_no = wineries.estate_id) --------------
    reg_ids = [1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 31, 32]
    owners = ["family", "family", "cooperative", "foundation", "family", "corporate", "family", "cooperative",
              "family", "family", "family", "foundation", "corporate", "family", "cooperative"]
    reg = pd.DataFrame({"estate_no": reg_ids, "owner_type": owners,
                        "employees": [14, 9, 5, 21, 6, 17, 3, 48, 7, 8, 2, 12, 4, 5, 30],
                        "bottles_per_year": [90000, 60000, 25000, 120000, 40000, 110000, 18000, 400000, 35000,
                                             50000, 12000, 80000, 20000, 30000, 150000],
                        "export_pct": [35, 20, 0, 60, 10, 45, 5, 25, 15, 30, 0, 50, 20, 10, 40],
                        "vdp_member": ["yes", "no", "no", "yes", "no", "yes", "no", "no", "no", "no", "no", "yes",
                                       "no", "no", "no"]})
    reg.to_csv(DATA / "estate_register.csv", index=False, lineterminator="\n")

    # --- DEM (UTM 32N, 20 m, float32, nodata -9999) -------------------------------------
    cell = 20.0
    ncols, nrows = int(W / cell), int(H / cell)
    xs = X0 + cell * (np.arange(ncols) + 0.5)
    ys = Y0 + H - cell * (np.arange(nrows) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    d = gy - yc(gx)
    ad = np.abs(d)
    north = np.where(d > 0, 1.0, 0.85)
    hills = 25 * np.sin((gx - X0) / 900.0) * np.cos((gy - Y0) / 700.0) * (1 - np.exp(-ad / 400.0))
    z = 108 + 0.006 * (gx - X0) + 270 * (1 - np.exp(-ad / 650.0)) * north + hills
    z = np.where(ad < 40, 104.0 + 0.006 * (gx - X0), z)
    z = np.round(z, 2).astype("float32")
    z[30:50, 240:260] = -9999.0
    prof = {"driver": "GTiff", "height": nrows, "width": ncols, "count": 1, "dtype": "float32", "crs": UTM,
            "transform": from_origin(X0, Y0 + H, cell, cell), "nodata": -9999.0}
    with rasterio.open(DATA / "dem.tif", "w", **prof) as dst:
        dst.write(z, 1)
        dst.set_band_description(1, "elevation_m")


if __name__ == "__main__":
    main()
