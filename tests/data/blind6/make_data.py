"""Writes the blind6 data set (a made-up river catchment in the Catskills, New York) into ./data.

Deterministic: a fixed seed, fixed coordinates; running it twice gives identical features.
Layers use three CRSs on purpose: EPSG:4326 (degrees), EPSG:32618 / EPSG:26918 (metres),
EPSG:2260 (NAD83 / New York East, US survey feet).
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
from shapely.ops import voronoi_diagram

HERE = Path(__file__).resolve().parent
OUT = HERE / "data"
UTM = 32618
X0, Y0 = 560000.0, 4670000.0  # lower-left of the basin frame (about 74.28 W, 42.18 N)

rng = np.random.default_rng(20261125)


def P(x, y):
    return (X0 + x, Y0 + y)


def basin():
    pts = [(0, 2000), (3000, 0), (9000, 500), (15000, 0), (20000, 2500), (21000, 8000),
           (18000, 14000), (11000, 15500), (5000, 14500), (800, 10000)]
    return Polygon([P(x, y) for x, y in pts])


SC = [  # code, name, seed (km), forest %, population (None = unknown), protected
    ("SC-01", "Upper Mill Creek", (18, 11), 82.5, 410, "yes"),
    ("SC-02", "Otter Kill Headwaters", (13, 12.5), 74.0, 655, "yes"),
    ("SC-03", "Birch Brook", (6.5, 11.5), 60.0, 1200, "no"),
    ("SC-04", "Stony Clove", (3, 6.5), 55.5, 2380, "no"),
    ("SC-05", "Lower Mill Creek", (8, 3), 30.0, 5120, "no"),
    ("SC-06", "Alder Run", (14, 3), 44.0, None, "no"),
    ("SC-07", "Cold Spring", (18.5, 5), 68.0, 890, "yes"),
    ("SC-08", "Middle Mill Creek", (11, 7.5), 40.0, 3015, "no"),
]


def subcatchments():
    outline = basin()
    seeds = MultiPoint([P(s[2][0] * 1000, s[2][1] * 1000) for s in SC])
    cells = voronoi_diagram(seeds, envelope=outline.buffer(5000))
    rows = []
    for code, name, seed, forest, pop, prot in SC:
        sp = Point(P(seed[0] * 1000, seed[1] * 1000))
        cell = next(c for c in cells.geoms if c.contains(sp))
        rows.append({"sc_code": code, "name": name, "forest pct": forest, "einwohner": pop,
                     "protected": prot, "geometry": cell.intersection(outline)})
    gdf = gpd.GeoDataFrame(rows, crs=UTM)
    gdf["einwohner"] = gdf["einwohner"].astype("Int64")
    return gdf


def wiggle(coords, amp=120.0):
    out = [coords[0]]
    for (x1, y1), (x2, y2) in zip(coords[:-1], coords[1:]):
        for t in (0.33, 0.66):
            out.append((x1 + (x2 - x1) * t + rng.normal(0, amp), y1 + (y2 - y1) * t + rng.normal(0, amp)))
        out.append((x2, y2))
    return out


RIVERS = [  # id, name, order, class, width_m, quality, vertices (km)
    (1, "Mill Creek", 4, "main", 18.0, "II", [(19, 12), (15, 9.5), (11.5, 7.5)]),
    (2, "Mill Creek", 4, "main", 24.0, "III", [(11.5, 7.5), (8.5, 4), (4, 0.6), (3.2, -1.0)]),
    (3, "Otter Kill", 3, "tributary", 9.5, "I", [(13, 14.5), (12.5, 11), (11.5, 7.5)]),
    (4, "Birch Brook", 2, "tributary", 6.0, "II", [(5, 13), (7, 10), (8.5, 8.5), (11.5, 7.5)]),
    (5, "Stony Clove", 2, "tributary", None, "II", [(1.5, 8), (4, 6.5), (6.5, 5.5), (8.5, 4)]),
    (6, "Alder Run", 2, "tributary", 5.0, "III", [(16.5, 1), (13, 3), (10, 3.3), (8.5, 4)]),
    (7, "Cold Spring Brook", 1, "tributary", 3.5, "I", [(22.0, 6.6), (20, 6), (18, 5.5), (15.5, 6.5), (13.2, 8.6)]),
    (8, "Otter Kill", 1, "tributary", 2.0, "I", [(15.5, 13.5), (14, 12.5), (12.8, 12.2)]),
    (9, "Kesselgraben", 1, "ditch", 1.5, "IV", [(6, 1.2), (7, 2.2), (6.8, 3.4)]),
    (10, "Miller's Ditch", 1, "ditch", None, "IV", [(10.5, 1.2), (11.2, 2.4), (11.6, 3.1)]),
    (11, "Bear Hollow", 1, "tributary", 2.5, "II", [(3, 11.5), (4.2, 9.5), (5.5, 7.6), (5.3, 6.0)]),
    (12, "Spruce Run", 2, "tributary", 4.0, "I", [(17.5, 8.5), (16.2, 9.2), (15, 9.5)]),
]


def rivers():
    rows = []
    for rid, name, order, cls, width, q, verts in RIVERS:
        coords = [P(x * 1000, y * 1000) for x, y in verts]
        line = LineString(wiggle(coords) if cls != "ditch" else coords)
        rows.append({"river_id": rid, "name": name, "order": order, "class": cls, "width_m": width,
                     "gewaesserguete": q, "geometry": line})
    return gpd.GeoDataFrame(rows, crs=UTM)


def stations(riv):
    lines = list(riv.geometry)
    ids = list(riv.river_id)
    rows = []
    agencies = ["DEC", "University", "Watershed Trust"]
    for i in range(40):
        k = i % len(lines)
        line = lines[k]
        pos = line.interpolate(float(rng.uniform(0.1, 0.9)), normalized=True)
        off = float(rng.choice([8, 15, 25, 40, 60, 90, 150, 260, 420]))
        ang = float(rng.uniform(0, 2 * np.pi))
        pt = Point(pos.x + off * np.cos(ang), pos.y + off * np.sin(ang))
        rows.append({"station_id": f"WQ{i + 1:02d}", "name": f"Station {i + 1}", "river_ref": ids[k],
                     "geometry": pt})
    # three stations outside the basin (upland springs and a downstream gauge)
    for j, (x, y) in enumerate([(22500, 9000), (2500, -1200), (-900, 6000)]):
        rows.append({"station_id": f"WQ{41 + j:02d}", "name": f"Station {41 + j}", "river_ref": None,
                     "geometry": Point(P(x, y))})
    gdf = gpd.GeoDataFrame(rows, crs=UTM)
    n = len(gdf)
    nitrate = np.round(rng.gamma(3.0, 3.2, n), 1)
    nitrate[[4, 17, 30]] = 10.0  # exactly at the drinking-water threshold
    nitrate[[8]] = 50.0
    nitrate = nitrate.astype(object)
    nitrate[[11, 26, 38]] = None
    ph = np.round(rng.normal(7.1, 0.5, n), 2)
    ph[[2, 21]] = 6.5
    ph[[14]] = 8.5
    gdf["nitrate_mg_l"] = pd.array(nitrate, dtype="Float64")
    gdf["ph"] = ph
    gdf["temp_c"] = np.round(rng.uniform(6, 19, n), 1)
    gdf["agency"] = [agencies[int(v)] for v in rng.integers(0, 3, n)]
    gdf["status"] = np.where(rng.uniform(size=n) < 0.8, "active", "inactive")
    gdf["river_ref"] = gdf["river_ref"].astype("Int64")
    return gdf.to_crs(4326)


def farms(basin_poly):
    kinds = ["Milchvieh", "Ackerbau", "Gemüse", "Obst", "Pferdehaltung"]
    minx, miny, maxx, maxy = basin_poly.bounds
    rows = []
    i = 0
    while len(rows) < 56:
        x, y = rng.uniform(minx - 800, maxx + 800), rng.uniform(miny - 800, maxy + 800)
        pt = Point(x, y)
        if not basin_poly.buffer(600).contains(pt):
            continue
        i += 1
        kind = kinds[int(rng.integers(0, 5))]
        ha = float(np.round(rng.gamma(2.0, 25.0), 1))
        gve = None if rng.uniform() < 0.12 else int(rng.integers(0, 260) if kind in ("Milchvieh", "Pferdehaltung") else rng.integers(0, 20))
        rows.append({"hof_id": 100 + i, "betriebsname": f"Hof {i:02d}", "betriebsart": kind, "flaeche_ha": ha,
                     "gve": gve, "bio": "ja" if rng.uniform() < 0.3 else "nein", "geometry": pt})
    gdf = gpd.GeoDataFrame(rows, crs=UTM)
    gdf.loc[[3, 20], "flaeche_ha"] = 50.0  # exactly at the threshold
    gdf.loc[[7], "flaeche_ha"] = 100.0
    gdf.loc[[10], "gve"] = 150  # exactly at a threshold
    gdf["gve"] = gdf["gve"].astype("Int64")
    return gdf


def main():
    OUT.mkdir(exist_ok=True)
    for p in OUT.iterdir():
        p.unlink()
    outline = basin()
    sc = subcatchments()
    riv = rivers()
    st = stations(riv)
    fa = farms(outline)

    sc.to_crs(2260).to_file(OUT / "subcatchments.gpkg", layer="subcatchments", driver="GPKG")
    riv.to_file(OUT / "rivers.gpkg", layer="rivers", driver="GPKG")
    st.to_file(OUT / "sampling_stations.gpkg", layer="sampling_stations", driver="GPKG")
    fa.to_crs(26918).to_file(OUT / "farms.gpkg", layer="farms", driver="GPKG")

    # plain table 1: monthly lab values per station (keyed by station_id, several rows per station)
    months = ["2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09"]
    rows = []
    for sid in st.station_id[:30]:
        for m in months:
            if rng.uniform() < 0.07:
                continue
            rows.append({"station_id": sid, "month": m, "nitrate": round(float(rng.gamma(3, 3)), 2),
                         "phosphate": round(float(rng.gamma(2, 0.05)), 3),
                         "e_coli": None if rng.uniform() < 0.1 else int(rng.integers(0, 900))})
    pd.DataFrame(rows).to_csv(OUT / "monthly_measurements.csv", index=False)

    # plain table 2: restoration budget per sub-catchment (key column named `code`, not `sc_code`)
    bud = pd.DataFrame({
        "code": [s[0] for s in SC][::-1],
        "budget_usd": [125000, 480000, 92000, 310000, 760000, 58000, 205000, 0],
        "massnahmen": [3, 7, 1, 4, 9, 1, 2, 0],
        "lead agency": ["Watershed Trust", "DEC", "County", "DEC", "DEC", "County", "Watershed Trust", None],
    })
    bud.to_csv(OUT / "budget_2025.csv", index=False)

    # plain table 3: one lab sheet row per station (key `station`), fields that clash with nothing
    lab = st[["station_id"]].iloc[::2].copy().rename(columns={"station_id": "station"})
    lab["lab_no"] = [f"L-{3000 + i}" for i in range(len(lab))]
    lab["ammonium_mg_l"] = np.round(rng.gamma(1.5, 0.12, len(lab)), 3)
    lab["atrazin_ug_l"] = np.round(rng.gamma(1.2, 0.04, len(lab)), 3)
    lab["labor"] = [["Hudson Labs", "Catskill Analytics"][int(v)] for v in rng.integers(0, 2, len(lab))]
    lab.to_csv(OUT / "lab_sheet.csv", index=False)

    # WKT table: restoration sites (polygons, lon/lat WKT, column wkt_geom)
    sites = []
    centres = [(5.2, 6.2, 300), (9.0, 4.4, 420), (12.0, 7.9, 250), (13.5, 11.6, 380), (16.0, 9.3, 200),
               (7.5, 10.0, 500), (14.2, 3.1, 330), (2.0, 2.0, 260), (19.4, 11.6, 280)]
    measures = ["Auenrenaturierung", "buffer strip", "wetland", "buffer strip", "wetland", "Auenrenaturierung",
                "buffer strip", "wetland", "fish pass"]
    for i, ((cx, cy, r), mz) in enumerate(zip(centres, measures)):
        c = Point(P(cx * 1000, cy * 1000))
        poly = c.buffer(r, quad_segs=4) if i % 2 == 0 else box(c.x - r, c.y - r * 0.6, c.x + r, c.y + r * 0.6)
        sites.append({"site_id": f"R{i + 1}", "site_name": f"Site {chr(65 + i)}", "measure": mz,
                      "cost_usd": int(rng.integers(20, 400)) * 1000, "year": int(rng.choice([2024, 2025, 2026])),
                      "geometry": poly})
    sg = gpd.GeoDataFrame(sites, crs=UTM).to_crs(4326)
    sg["wkt_geom"] = sg.geometry.apply(lambda g: g.wkt)
    pd.DataFrame(sg.drop(columns="geometry")).to_csv(OUT / "restoration_sites.csv", index=False)

    # lon/lat table: spill reports
    reps = []
    spots = [(11.6, 7.7), (8.4, 4.2), (3.2, 0.9), (15.1, 9.4), (6.9, 2.5), (12.6, 11.0), (18.1, 5.6),
             (10.1, 3.2), (4.5, 6.4), (19.2, 11.8), (1.0, 13.5), (21.5, 1.0), (7.0, 10.1), (13.0, 5.0), (9.8, 12.0)]
    subst = ["diesel", "manure", "milk", "manure", "sediment", "diesel", "manure", "sewage", "sediment",
             "diesel", "manure", "sewage", "milk", "manure", "diesel"]
    for i, ((x, y), s) in enumerate(zip(spots, subst)):
        pt = gpd.GeoSeries([Point(P(x * 1000 + rng.normal(0, 40), y * 1000 + rng.normal(0, 40)))], crs=UTM).to_crs(4326)[0]
        vol = None if i in (4, 11) else int(rng.integers(5, 3000))
        reps.append({"report_id": 501 + i, "date": f"2025-{(i % 9) + 3:02d}-{(i * 7) % 27 + 1:02d}", "substance": s,
                     "volume_l": vol, "lon": round(pt.x, 6), "lat": round(pt.y, 6)})
    df = pd.DataFrame(reps)
    df["volume_l"] = df["volume_l"].astype("Int64")
    df.to_csv(OUT / "spill_reports.csv", index=False)
    print("wrote", sorted(p.name for p in OUT.iterdir()))


if __name__ == "__main__":
    main()
