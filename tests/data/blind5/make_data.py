"""Blind set 5 data: a made-up electricity distribution grid on the Colorado Front Range.

Five GeoPackage layers, written into ./data/ next to this script, deterministic (seed 5150):

  substations.gpkg      Point       EPSG:4326  (degrees)
  power_lines.gpkg      LineString  EPSG:2232  (NAD83 / Colorado Central, US survey feet)
  outages.gpkg          Point       EPSG:32613 (WGS 84 / UTM 13N, metres)
  service_areas.gpkg    Polygon     EPSG:32613
  waldbrand_zonen.gpkg  Polygon     EPSG:26913 (NAD83 / UTM 13N, metres)

Run:  .venv/bin/python tests/data/blind5/make_data.py
"""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import shapely
from shapely.geometry import LineString, Point, box
from shapely.ops import unary_union

HERE = Path(__file__).resolve().parent
OUT = HERE / "data"
UTM = 32613
X0, Y0, X1, Y1 = 470000.0, 4420000.0, 500000.0, 4450000.0

STATION_NAMES = [
    "Gunbarrel", "Niwot", "Valmont", "Baseline", "Table Mesa", "Left Hand", "Hygiene", "Lyons Gate",
    "Louisville", "Superior", "Erie West", "Lafayette", "Marshall", "Eldorado", "Sunshine", "Flagstaff",
    "Pine Ridge", "Coal Creek", "St Vrain", "Ward Junction", "Nederland", "Jamestown", "Canfield", "Dry Creek",
]
AREA_NAMES = [
    "Boulder Nord", "Boulder Süd", "Gunbarrel", "Niwot", "Longmont West", "Lafayette", "Louisville",
    "Superior", "Foothills", "Lyons", "Erie", "Marshall Mesa",
]
OWNERS = ["Front Range Electric", "Boulder Valley Coop", "Rocky Mtn Transmission"]


def jitter_line(rng, a, b, n=4, amp=600.0):
    """A line from a to b with n intermediate vertices pushed sideways a little."""
    a, b = np.asarray(a), np.asarray(b)
    d = b - a
    normal = np.array([-d[1], d[0]]) / (np.hypot(*d) or 1.0)
    pts = [a]
    for t in np.linspace(0, 1, n + 2)[1:-1]:
        pts.append(a + d * t + normal * rng.uniform(-amp, amp))
    pts.append(b)
    return LineString(pts)


def main() -> None:
    rng = np.random.default_rng(5150)
    OUT.mkdir(parents=True, exist_ok=True)
    frame = box(X0, Y0, X1, Y1)

    # --- substations (24) ---------------------------------------------------------
    n_st = 24
    sx = rng.uniform(X0 + 1500, X1 - 1500, n_st)
    sy = rng.uniform(Y0 + 1500, Y1 - 1500, n_st)
    status = rng.choice(["active", "standby", "decommissioned"], n_st, p=[0.7, 0.18, 0.12])
    baujahr = rng.integers(1952, 2021, n_st).astype("float")
    baujahr[[5, 17]] = np.nan
    cap = np.round(rng.uniform(15, 380, n_st), 1)
    maxv = rng.choice([69, 115, 230], n_st, p=[0.35, 0.45, 0.2])
    substations = gpd.GeoDataFrame(
        {
            "station_id": np.arange(1, n_st + 1),
            "Name": STATION_NAMES,
            "kapazitaet_mva": cap,
            "baujahr": baujahr,
            "status": status,
            "maxVoltageKV": maxv,
        },
        geometry=[Point(x, y) for x, y in zip(sx, sy)],
        crs=UTM,
    )
    substations["baujahr"] = substations["baujahr"].astype("Int64")

    # --- power lines ---------------------------------------------------------------
    coords = np.c_[sx, sy]
    # minimum spanning tree (Prim) + a few extra ties = transmission lines between stations
    in_tree = {0}
    edges = []
    while len(in_tree) < n_st:
        best = None
        for i in in_tree:
            for j in range(n_st):
                if j in in_tree:
                    continue
                dist = np.hypot(*(coords[i] - coords[j]))
                if best is None or dist < best[0]:
                    best = (dist, i, j)
        edges.append((best[1], best[2]))
        in_tree.add(best[2])
    extra = 0
    while extra < 6:
        i, j = rng.choice(n_st, 2, replace=False)
        if (i, j) not in edges and (j, i) not in edges:
            edges.append((int(i), int(j)))
            extra += 1
    rows, geoms = [], []
    for i, j in edges:
        geoms.append(jitter_line(rng, coords[i], coords[j], n=3, amp=500))
        rows.append({"voltageKV": int(rng.choice([69, 115, 230], p=[0.3, 0.5, 0.2])), "Leitungstyp": "overhead",
                     "from_station": i + 1, "to_station": j + 1})
    # distribution feeders: 1-2 per station, to a random end point 2-6 km away
    for i in range(n_st):
        for _ in range(int(rng.integers(1, 3))):
            ang = rng.uniform(0, 2 * np.pi)
            length = rng.uniform(2000, 6000)
            end = coords[i] + length * np.array([np.cos(ang), np.sin(ang)])
            end = np.clip(end, [X0 + 200, Y0 + 200], [X1 - 200, Y1 - 200])
            geoms.append(jitter_line(rng, coords[i], end, n=4, amp=350))
            rows.append({"voltageKV": 13, "Leitungstyp": str(rng.choice(["overhead", "underground"], p=[0.6, 0.4])),
                         "from_station": i + 1, "to_station": None})
    n_ln = len(rows)
    lines = gpd.GeoDataFrame(rows, geometry=geoms, crs=UTM)
    lines.insert(0, "lineId", np.arange(101, 101 + n_ln))
    lines["install_year"] = rng.integers(1960, 2023, n_ln)
    lines["owner name"] = rng.choice(OWNERS, n_ln, p=[0.5, 0.3, 0.2])
    cond = rng.choice(["good", "fair", "poor"], n_ln, p=[0.5, 0.3, 0.2]).astype(object)
    cond[rng.choice(n_ln, 5, replace=False)] = None
    lines["condition"] = cond
    lines["to_station"] = lines["to_station"].astype("Int64")
    lines = lines[["lineId", "voltageKV", "Leitungstyp", "install_year", "owner name", "condition",
                   "from_station", "to_station", "geometry"]]

    # --- service areas (12 Voronoi cells over the frame) ---------------------------
    seeds = shapely.MultiPoint(np.c_[rng.uniform(X0, X1, 12), rng.uniform(Y0, Y1, 12)])
    cells = [c.intersection(frame) for c in shapely.voronoi_polygons(seeds, extend_to=frame).geoms]
    cells = sorted(cells, key=lambda g: (-round(g.centroid.y, -3), g.centroid.x))
    kunden = rng.integers(1800, 42000, 12)
    gtype = np.array(["urban", "urban", "suburban", "suburban", "suburban", "rural", "rural", "rural",
                      "suburban", "rural", "urban", "rural"])
    rng.shuffle(gtype)
    service = gpd.GeoDataFrame(
        {
            "area_code": [f"SA-{k:02d}" for k in range(1, 13)],
            "Versorgungsgebiet": AREA_NAMES,
            "kunden": kunden,
            "peakLoad_MW": np.round(kunden * rng.uniform(0.0025, 0.0045, 12), 1),
            "gebietstyp": gtype,
        },
        geometry=cells,
        crs=UTM,
    )
    service.loc[7, "peakLoad_MW"] = np.nan

    # --- wildfire zones (18 blobs, mostly west, some beyond the frame) -------------
    zones, taken = [], None
    zx = rng.uniform(462000, 488000, 18)
    zy = rng.uniform(Y0 + 1000, Y1 - 1000, 18)
    for x, y in zip(zx, zy):
        n = 9
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        rad = rng.uniform(1200, 3200, n)
        blob = shapely.Polygon(np.c_[x + rad * np.cos(ang), y + rad * np.sin(ang)]).convex_hull
        if taken is not None:
            blob = blob.difference(taken)
        if blob.is_empty or blob.area < 5e5:
            blob = Point(x, y).buffer(900).difference(taken) if taken is not None else Point(x, y).buffer(900)
        if blob.geom_type == "MultiPolygon":
            blob = max(blob.geoms, key=lambda g: g.area)
        zones.append(blob)
        taken = blob if taken is None else unary_union([taken, blob])
    n_z = len(zones)
    stufe = rng.integers(1, 5, n_z)
    last = rng.integers(1988, 2023, n_z).astype("float")
    last[rng.choice(n_z, 4, replace=False)] = np.nan
    fire = gpd.GeoDataFrame(
        {
            "zone_nr": np.arange(1, n_z + 1),
            "Gefahrenstufe": stufe,
            "vegetation": rng.choice(["grass", "shrub", "conifer", "mixed"], n_z),
            "flaeche_ha": [round(z.area / 1e4, 1) for z in zones],
            "letzter_brand": last,
        },
        geometry=zones,
        crs=UTM,
    )
    fire["letzter_brand"] = fire["letzter_brand"].astype("Int64")

    # --- outage reports (160, half along the lines) --------------------------------
    n_out = 160
    pts = []
    merged = unary_union(lines.geometry)
    for k in range(n_out):
        if k % 2 == 0:
            ln = lines.geometry.iloc[int(rng.integers(0, n_ln))]
            p = ln.interpolate(rng.uniform(0, 1), normalized=True)
            pts.append(Point(p.x + rng.normal(0, 120), p.y + rng.normal(0, 120)))
        else:
            pts.append(Point(rng.uniform(X0, X1), rng.uniform(Y0, Y1)))
    _ = merged
    cause = rng.choice(["storm", "vegetation", "equipment", "animal", "vehicle", "unknown"], n_out,
                       p=[0.25, 0.22, 0.2, 0.13, 0.08, 0.12])
    cust = rng.integers(1, 2500, n_out).astype("float")
    cust[rng.choice(n_out, 9, replace=False)] = np.nan
    dauer = np.round(rng.gamma(2.0, 70.0, n_out)).astype(int) + 5
    sev = np.where(dauer > 240, "high", np.where(dauer > 90, "medium", "low"))
    day = rng.integers(0, 365, n_out)
    dates = (np.datetime64("2023-01-01") + day).astype(str)
    outages = gpd.GeoDataFrame(
        {
            "report_id": np.arange(5001, 5001 + n_out),
            "ursache": cause,
            "customersAffected": cust,
            "dauer_min": dauer,
            "severity": sev,
            "gemeldet_am": dates,
        },
        geometry=pts,
        crs=UTM,
    )
    outages["customersAffected"] = outages["customersAffected"].astype("Int64")

    substations.to_crs(4326).to_file(OUT / "substations.gpkg", layer="substations", driver="GPKG")
    lines.to_crs(2232).to_file(OUT / "power_lines.gpkg", layer="power_lines", driver="GPKG")
    outages.to_file(OUT / "outages.gpkg", layer="outages", driver="GPKG")
    service.to_file(OUT / "service_areas.gpkg", layer="service_areas", driver="GPKG")
    fire.to_crs(26913).to_file(OUT / "waldbrand_zonen.gpkg", layer="waldbrand_zonen", driver="GPKG")
    for name in ("substations", "power_lines", "outages", "service_areas", "waldbrand_zonen"):
        g = gpd.read_file(OUT / f"{name}.gpkg")
        print(f"{name:16s} {len(g):4d} {g.geom_type.iloc[0]:11s} EPSG:{g.crs.to_epsg()}")


if __name__ == "__main__":
    main()
