"""Validate cases_en.yaml (blind set #1) WITHOUT running GeoClerk.

1. Schema: unique ids, known classes, inputs exist, answer cases have checks.
2. Every `equals` / `answer_number` / `answer_contains` expression is evaluated on the inputs.
3. For many cases a reference result is built here with plain geopandas (REF, my own reading of
   the request); every `expect` expression is evaluated on it and must pass.  For some cases a
   deliberately WRONG result (WRONG: roles swapped, negation dropped, merged instead of each...)
   must fail at least one check.

Run:  /work/main/.venv/bin/python tests/data/blind1/validate.py [case-id ...]
"""
from __future__ import annotations

import math
import os
import sys
import tempfile
import warnings

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml

warnings.filterwarnings("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "data", "sample"))
BLIND = os.path.join(HERE, "data")
CLASSES = {"plain", "crs_roles", "output_clause", "each_per", "roles", "negation", "numbers",
           "not_loaded", "missing_field", "chain", "open_ended", "typo"}
TMP = tempfile.mkdtemp(prefix="blind1_")


def path_of(ref: str) -> str:
    pre, name = ref.split(":", 1)
    return os.path.join({"s": SAMPLE, "b": BLIND}[pre], name)


def utm(gdf):
    return gdf.to_crs(gdf.estimate_utm_crs())


def equal_area(gdf):
    return gdf.to_crs(6933)


_cache: dict[str, object] = {}


def load(ref: str):
    p = path_of(ref)
    if p not in _cache:
        _cache[p] = p if p.endswith(".tif") else gpd.read_file(p)
    return _cache[p]


def namespace(case) -> dict:
    ns = {"gpd": gpd, "pd": pd, "np": np, "math": math, "shapely": shapely,
          "utm": utm, "equal_area": equal_area}
    for ref in case.get("inputs", []):
        stem = os.path.splitext(os.path.basename(ref.split(":", 1)[1]))[0]
        v = load(ref)
        ns[stem] = v.copy() if isinstance(v, gpd.GeoDataFrame) else v
    return ns


def close(a, b, chk) -> bool:
    if "rel" in chk or "abs" in chk:
        try:
            a, b = float(a), float(b)
        except (TypeError, ValueError):
            return False
        if "rel" in chk and abs(a - b) <= chk["rel"] * abs(b):
            return True
        return "abs" in chk and abs(a - b) <= chk["abs"]
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return list(a) == list(b)
    return bool(a == b)


def numbers_in(text: str):
    import re
    return [float(x.replace(",", "")) for x in re.findall(r"-?\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?", text)]


# ----------------------------------------------------------------------------- reference results
S = lambda n: load(f"s:{n}")      # noqa: E731
B = lambda n: load(f"b:{n}")      # noqa: E731


def sjoin_count(points, polys, key):
    j = gpd.sjoin(points.to_crs(polys.crs), polys[[key, "geometry"]].rename(columns={key: "_k"}), predicate="within")
    c = j.groupby("_k").size()
    out = polys.copy()
    out["n_pts"] = out[key].map(c).fillna(0).astype(int)
    return out


def group_table(gdf, key, field, how):
    return gdf.groupby(gdf[key].astype(str))[field].agg(how).rename(f"{field}_{how}").reset_index()


def nearest_attr(left, right, cols):
    j = gpd.sjoin_nearest(left, right.to_crs(left.crs)[cols + ["geometry"]], distance_col="dist")
    return j[~j.index.duplicated()]


def _slope_raster():
    import rasterio
    src = rasterio.open(S("dem.tif"))
    z = src.read(1).astype("float64")
    # Horn's method as in QGIS / GDAL
    p = np.pad(z, 1, mode="edge")
    a, b, c = p[:-2, :-2], p[:-2, 1:-1], p[:-2, 2:]
    d, f = p[1:-1, :-2], p[1:-1, 2:]
    g, h, i = p[2:, :-2], p[2:, 1:-1], p[2:, 2:]
    dzdx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * 50.0)
    dzdy = ((g + 2 * h + i) - (a + 2 * b + c)) / (8 * 50.0)
    s = np.degrees(np.arctan(np.hypot(dzdx, dzdy))).astype("float32")
    s[0, :] = s[-1, :] = s[:, 0] = s[:, -1] = -9999
    prof = src.profile.copy()
    prof.update(dtype="float32", nodata=-9999)
    out = os.path.join(TMP, "slope.tif")
    with rasterio.open(out, "w", **prof) as dst:
        dst.write(s, 1)
    return out


def _contours_simple():
    # crude: one line per level from matplotlib's contour generator
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import rasterio
    src = rasterio.open(S("dem.tif"))
    z = src.read(1)
    T = src.transform
    xs = T.c + T.a * (np.arange(z.shape[1]) + 0.5)
    ys = T.f + T.e * (np.arange(z.shape[0]) + 0.5)
    levels = np.arange(np.ceil(z.min() / 10) * 10, z.max(), 10)
    cs = plt.contour(xs, ys, z, levels=levels)
    rows = []
    for lev, segs in zip(cs.levels, cs.allsegs):
        for seg in segs:
            if len(seg) > 1:
                rows.append({"ID": len(rows) + 1, "ELEV": float(lev), "geometry": shapely.LineString(seg)})
    plt.close("all")
    return gpd.GeoDataFrame(rows, crs=src.crs)


def _zonal():
    import rasterio
    import rasterio.features
    d = S("districts.gpkg").copy()
    src = rasterio.open(S("dem.tif"))
    z = src.read(1)
    d["mean"] = [float(z[rasterio.features.geometry_mask([g], z.shape, src.transform, invert=True)].mean())
                 for g in d.geometry]
    return d


def _sample():
    import rasterio
    s = S("schools.gpkg").copy()
    s["elev"] = [float(v[0]) for v in rasterio.open(S("dem.tif")).sample(list(zip(s.geometry.x, s.geometry.y)))]
    return s


def _kmeans():
    from sklearn.cluster import KMeans
    h = S("houses.gpkg").copy()
    h["CLUSTER_ID"] = KMeans(5, n_init=4, random_state=0).fit_predict(np.c_[h.geometry.x, h.geometry.y])
    h["CLUSTER_SIZE"] = h.groupby("CLUSTER_ID")["house_id"].transform("size")
    return h


def _dbscan(eps=500, ms=3, noise=-1):
    from sklearn.cluster import DBSCAN
    c = S("cafes.gpkg").copy()
    lab = DBSCAN(eps=eps, min_samples=ms).fit(np.c_[c.geometry.x, c.geometry.y]).labels_
    c["CLUSTER_ID"] = np.where(lab >= 0, lab + 1, np.nan) if noise is None else lab
    return c


def _voronoi(pts):
    env = shapely.box(*pts.total_bounds).buffer(500)
    v = shapely.voronoi_polygons(shapely.MultiPoint(pts.geometry.tolist()), extend_to=env)
    cells = [g.intersection(env) for g in v.geoms]
    geoms = [next(c for c in cells if c.contains(p)) for p in pts.geometry]
    return gpd.GeoDataFrame(pts.drop(columns="geometry"), geometry=geoms, crs=pts.crs)


def _delaunay(pts):
    t = shapely.delaunay_triangles(shapely.MultiPoint(pts.geometry.tolist()))
    return gpd.GeoDataFrame(geometry=list(t.geoms), crs=pts.crs)


def _closest_pair(pts):
    best = None
    for i, p in pts.geometry.items():
        d = pts.distance(p).drop(i)
        j = d.idxmin()
        if best is None or d[j] < best[0]:
            best = (d[j], p, pts.geometry[j])
    return gpd.GeoDataFrame(geometry=[shapely.LineString([best[1], best[2]])], crs=pts.crs)


def _perp(pts, lines, key):
    o = pts.copy()
    o["dist"] = pts.distance(lines.to_crs(pts.crs).union_all())
    return o


def _snap(pts, lines):
    u = lines.union_all()
    return gpd.GeoDataFrame(pts.drop(columns="geometry"),
                            geometry=[u.interpolate(u.project(p)) for p in pts.geometry], crs=pts.crs)


def _grid(layer, step):
    x0, y0, x1, y1 = layer.total_bounds
    cells = [shapely.box(x, y, x + step, y + step) for x in np.arange(x0, x1 - 1e-6, step)
             for y in np.arange(y0, y1 - 1e-6, step)]
    return gpd.GeoDataFrame({"id": range(len(cells))}, geometry=cells, crs=layer.crs)


def _add(gdf, **cols):
    o = gdf.copy()
    for k, v in cols.items():
        o[k] = v
    return o


def _lengths(gdf, factor, metric=True):
    g = utm(gdf) if metric else gdf
    return _add(gdf, length=g.length.to_numpy() * factor)


def _areas(gdf, factor, ea=False):
    g = equal_area(gdf) if ea else utm(gdf)
    return _add(gdf, area=g.area.to_numpy() * factor)


def _bbox(gdf):
    return gpd.GeoDataFrame(geometry=[shapely.box(*gdf.total_bounds)], crs=gdf.crs)


def _hull(gdf):
    return gpd.GeoDataFrame(geometry=[gdf.union_all().convex_hull], crs=gdf.crs)


def _clip(a, b):
    return gpd.clip(a, b.to_crs(a.crs))


def _overlay(a, b, how):
    return gpd.overlay(a, b.to_crs(a.crs), how=how, keep_geom_type=True)


def _within_dist(a, b, d, inside=True):
    dist = a.distance(b.to_crs(a.crs).union_all())
    return a[dist <= d] if inside else a[dist > d]


def _select_loc(a, b, pred="intersects", negate=False):
    m = getattr(a, pred)(b.to_crs(a.crs).union_all())
    return a[~m if negate else m]


def _sjoin(a, b, cols):
    j = gpd.sjoin(a, b.to_crs(a.crs)[cols + ["geometry"]], predicate="within", how="left")
    return j[~j.index.duplicated()].drop(columns="index_right")


def _road_len_per_district():
    d = S("districts.gpkg").copy()
    r = S("roads.gpkg")
    d["road_m"] = [r.intersection(g).length.sum() for g in d.geometry]
    return d


def _split():
    d, r = S("districts.gpkg"), S("roads.gpkg")
    rows = []
    for _, row in d.iterrows():
        for piece in shapely.ops.split(row.geometry, r.union_all()).geoms:
            rows.append({**row.drop("geometry").to_dict(), "geometry": piece})
    return gpd.GeoDataFrame(rows, crs=d.crs)


def _multiring(pts, dists, donut=True):
    rows = []
    for _, r in pts.iterrows():
        prev = None
        for d in dists:
            g = r.geometry.buffer(d)
            rows.append({**r.drop("geometry").to_dict(), "ring": d,
                         "geometry": g.difference(prev) if (donut and prev is not None) else g})
            prev = g
    return gpd.GeoDataFrame(rows, crs=pts.crs)


def _html(gdf):
    return gdf.drop(columns="geometry").to_html()


def _png(name="map.png"):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    p = os.path.join(TMP, name)
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    fig.savefig(p)
    plt.close(fig)
    return p


def _vertices(gdf, closing=True):
    rows = []
    for _, r in gdf.iterrows():
        g = r.geometry
        coords = list(g.exterior.coords) if g.geom_type == "Polygon" else list(g.coords)
        if not closing and g.geom_type == "Polygon":
            coords = coords[:-1]
        for c in coords:
            rows.append({**r.drop("geometry").to_dict(), "geometry": shapely.Point(c)})
    return gpd.GeoDataFrame(rows, crs=gdf.crs)


def _nearest_name(left, right, key, lcols):
    j = nearest_attr(left, right, [key])
    return j


def _to_table(gdf):
    t = pd.DataFrame(gdf.drop(columns="geometry"))
    return t


# reference results (my own reading of each request) -------------------------------------------
REF = {
    "en-001": lambda: S("schools.gpkg").assign(geometry=S("schools.gpkg").buffer(500)),
    "en-002": lambda: S("bus_stops.gpkg").assign(geometry=S("bus_stops.gpkg").buffer(250)),
    "en-003": lambda: S("districts.gpkg").dissolve("landuse").reset_index(),
    "en-004": lambda: S("districts.gpkg").dissolve(),
    "en-005": lambda: S("districts.gpkg").assign(geometry=S("districts.gpkg").centroid).to_crs(4326),
    "en-006": lambda: _areas(S("districts.gpkg"), 1e-4),
    "en-007": lambda: _to_table(_lengths(S("roads.gpkg"), 1e-3)),
    "en-008": lambda: S("cafes.gpkg")[S("cafes.gpkg")["wifi"] == "yes"],
    "en-009": lambda: _hull(S("houses.gpkg")),
    "en-010": lambda: _bbox(S("districts.gpkg")),
    "en-011": lambda: S("schools.gpkg").sort_values("students", ascending=False),
    "en-012": lambda: "mean 314,130.67 EUR, min 91000, max 795000",
    "en-013": lambda: S("houses.gpkg")[S("houses.gpkg")["year_built"] < 1950],
    "en-014": lambda: "There are 40 cafes.",
    "en-015": lambda: f"Total length: {S('roads.gpkg').length.sum() / 1000:.2f} km",
    "en-016": lambda: _voronoi(S("bus_stops.gpkg")),
    "en-017": lambda: _vertices(S("districts.gpkg")),
    "en-018": lambda: _delaunay(S("schools.gpkg")),
    "en-019": _kmeans,
    "en-021": _slope_raster,
    "en-022": _contours_simple,
    "en-023": _zonal,
    "en-024": _sample,
    "en-026": lambda: S("districts.gpkg")[S("districts.gpkg")["landuse"] == "residential"],
    "en-027": lambda: "27 cafes have wifi (yes: 27, no: 13)",
    "en-028": lambda: _add(S("houses.gpkg"), value_per_resident=S("houses.gpkg")["value_eur"] / S("houses.gpkg")["residents"]),
    "en-029": lambda: S("schools.gpkg").rename(columns={"students": "pupils"}),
    "en-030": lambda: _closest_pair(S("bus_stops.gpkg")),
    "en-031": lambda: _perp(S("cafes.gpkg"), S("roads.gpkg"), "cafe_id"),
    "en-032": lambda: _snap(S("schools.gpkg"), S("roads.gpkg")).to_crs(4326),
    "en-033": lambda: "Westpark has the highest median income (54,258 EUR).",
    "en-034": lambda: f"{int(S('houses.gpkg')['residents'].sum())} residents",
    "en-035": lambda: S("districts.gpkg").sort_values("population"),
    "en-036": lambda: _grid(S("districts.gpkg"), 1000),
    "en-037": lambda: _dbscan(noise=None),
    "en-038": lambda: S("countries.geojson")[S("countries.geojson")["continent"] == "Africa"],
    "en-039": lambda: S("countries.geojson").dissolve("continent").reset_index(),
    "en-040": lambda: _sjoin(S("world_cities.geojson"), S("countries.geojson").rename(columns={"name": "country"}), ["country"]),
    "en-041": lambda: "{:,.0f} people".format(S("countries.geojson").loc[S("countries.geojson")["continent"] == "South America", "pop_est"].sum()),
    "en-042": lambda: B("parcels.gpkg").dissolve("OWNER").reset_index(),
    "en-043": lambda: B("parcels.gpkg").assign(geometry=B("parcels.gpkg").centroid),
    "en-044": lambda: _lengths(B("streams.gpkg"), 1 / 1609.344),
    "en-045": lambda: B("wells.gpkg")[B("wells.gpkg")["status"] == "abandoned"],
    "en-046": lambda: _areas(B("water_districts.gpkg"), 1 / 4046.8564224, ea=True),
    "en-047": lambda: _hull(B("wells.gpkg")),
    "en-048": lambda: _bbox(B("parcels.gpkg")),
    "en-049": lambda: f"mean {B('wells.gpkg')['nitrate_mgl'].mean():.3f}, max {B('wells.gpkg')['nitrate_mgl'].max()}",
    "en-050": lambda: B("wells.gpkg").sort_values("depth_ft", ascending=False),
    "en-051": lambda: B("county_roads.gpkg").dissolve("RD_NUMBER").reset_index(),
    "en-052": lambda: B("water_districts.gpkg").assign(geometry=B("water_districts.gpkg").boundary),
    "en-053": lambda: pd.DataFrame([{"from": a, "to": b, "distance_m": utm(B("clinics.gpkg")).geometry.iloc[i].distance(utm(B("clinics.gpkg")).geometry.iloc[j])}
                                    for i, a in enumerate(B("clinics.gpkg")["FACILITY"]) for j, b in enumerate(B("clinics.gpkg")["FACILITY"]) if i != j]),
    "en-054": lambda: (lambda g: f"mean NN distance {np.mean([g.distance(p).drop(i).min() for i, p in g.geometry.items()]):.1f} m")(utm(B("wells.gpkg"))),
    "en-055": lambda: B("parcels.gpkg")[B("parcels.gpkg")["zoning"] == "RR-5"],
    "en-056": lambda: B("wells.gpkg").query("status == 'active' and use_type == 'irrigation'"),
    "en-057": lambda: f"Total: ${B('parcels.gpkg')['assessed_usd'].sum():,}",
    "en-058": lambda: _lengths(B("parcels.gpkg"), 1.0, metric=False),
    "en-059": lambda: B("streams.gpkg").assign(geometry=utm(B("streams.gpkg")).buffer(30).to_crs(4326).values),
    "en-060": lambda: _vertices(B("county_roads.gpkg")),
    "en-061": lambda: B("water_districts.gpkg").dissolve("gw_basin").reset_index(),
    "en-062": lambda: B("wells.gpkg")["use_type"].value_counts().rename("count").reset_index(),
    "en-063": lambda: _voronoi(B("clinics.gpkg")),
    "en-064": lambda: "The parcels are in EPSG:2227 (NAD83 / California zone 3 (ftUS)).",
    "en-065": lambda: _add(B("wells.gpkg"), x=B("wells.gpkg").geometry.x, y=B("wells.gpkg").geometry.y),
    "en-066": lambda: B("parcels.gpkg").assign(geometry=B("parcels.gpkg").geometry.apply(lambda g: g.minimum_rotated_rectangle)),
    "en-067": lambda: B("water_districts.gpkg").assign(geometry=B("water_districts.gpkg").representative_point()),
    "en-068": lambda: f"{B('wells.gpkg')['depth_ft'].mean():.1f} ft",
    "en-069": lambda: B("parcels.gpkg").assign(geometry=B("parcels.gpkg").make_valid()),
    "en-070": lambda: B("parcels.gpkg")["crop_type"].value_counts().rename("n").reset_index(),
    "en-071": lambda: B("clinics.gpkg")[B("clinics.gpkg")["open_24h"] == "Y"],
    "en-072": lambda: _select_loc(B("streams.gpkg"), B("county_roads.gpkg")),
    "en-073": lambda: _select_loc(B("county_roads.gpkg"), B("streams.gpkg")),
    "en-074": lambda: _add(B("county_roads.gpkg"), angle=[float(np.degrees(np.arctan2(g.coords[-1][1] - g.coords[0][1], g.coords[-1][0] - g.coords[0][0])) % 180) for g in B("county_roads.gpkg").geometry]),
    "en-101": lambda: S("districts.gpkg").to_crs(4326),
    "en-102": lambda: S("schools.gpkg").to_crs(3857),
    "en-103": lambda: B("clinics.gpkg").to_crs(2227),
    "en-104": lambda: B("wells.gpkg"),
    "en-105": lambda: B("water_districts.gpkg").to_crs(2227),
    "en-106": lambda: B("parcels.gpkg").to_crs(4326),
    "en-107": lambda: B("streams.gpkg").to_crs(32610),
    "en-108": lambda: S("countries.geojson").to_crs(8857),
    "en-109": lambda: B("wells.gpkg").set_crs(2228, allow_override=True),
    "en-110": lambda: S("houses.gpkg").to_crs(4326),
    "en-111": lambda: B("county_roads.gpkg").to_crs(32610),
    "en-112": lambda: B("water_districts.gpkg").to_crs(32610),
    "en-113": lambda: S("world_cities.geojson").to_crs(3857),
    "en-114": lambda: S("schools.gpkg").to_crs(25833),
    "en-115": lambda: S("districts.gpkg").to_crs(3035),
    "en-116": lambda: _add(S("schools.gpkg"), lat=S("schools.gpkg").to_crs(4326).geometry.y, lon=S("schools.gpkg").to_crs(4326).geometry.x),
    "en-117": lambda: _add(B("clinics.gpkg"), x_ft=B("clinics.gpkg").to_crs(2227).geometry.x, y_ft=B("clinics.gpkg").to_crs(2227).geometry.y),
    "en-118": lambda: S("bus_stops.gpkg").to_crs(4326),
    "en-119": lambda: B("parcels.gpkg").to_crs(32610),
    "en-120": lambda: B("water_districts.gpkg").to_crs(2227),
    "en-131": lambda: S("cafes.gpkg")[S("cafes.gpkg")["wifi"] == "yes"],
    "en-132": lambda: _to_table(B("wells.gpkg")),
    "en-137": lambda: S("districts.gpkg").dissolve("landuse").reset_index(),
    "en-138": lambda: _html(B("clinics.gpkg")),
    "en-139": lambda: _html(B("water_districts.gpkg")),
    "en-140": lambda: _to_table(_vertices(B("county_roads.gpkg"))),
    "en-141": lambda: B("clinics.gpkg").assign(geometry=utm(B("clinics.gpkg")).buffer(1609.344).to_crs(4326).values),
    "en-143": lambda: _png("hist.png"),
    "en-144": lambda: S("houses.gpkg")[S("houses.gpkg")["year_built"] > 2000],
    "en-145": lambda: B("clinics.gpkg").to_crs(2227),
    "en-146": lambda: B("wells.gpkg").to_crs(4326),
    "en-147": lambda: B("wells.gpkg")[B("wells.gpkg")["status"] == "abandoned"],
    "en-201": lambda: sjoin_count(S("houses.gpkg"), S("districts.gpkg"), "name"),
    "en-202": lambda: B("parcels.gpkg").assign(geometry=B("parcels.gpkg").centroid).to_crs(4326),
    "en-203": lambda: S("houses.gpkg").assign(geometry=S("houses.gpkg").centroid),
    "en-204": lambda: S("schools.gpkg").assign(geometry=S("schools.gpkg").buffer(300)),
    "en-205": _road_len_per_district,
    "en-206": lambda: sjoin_count(B("wells.gpkg"), B("water_districts.gpkg"), "WD_CODE"),
    "en-207": lambda: group_table(B("parcels.gpkg"), "OWNER", "acreage", "sum"),
    "en-208": lambda: group_table(B("wells.gpkg"), "use_type", "depth_ft", "mean"),
    "en-209": lambda: B("parcels.gpkg").dissolve("crop_type").reset_index().pipe(lambda d: d.assign(geometry=d.convex_hull)),
    "en-210": lambda: S("districts.gpkg").assign(geometry=S("districts.gpkg").envelope),
    "en-211": lambda: group_table(B("clinics.gpkg"), "kind", "staff", "count"),
    "en-212": lambda: _perp(B("wells.gpkg"), B("streams.gpkg"), "WELL_ID"),
    "en-213": lambda: group_table(S("schools.gpkg"), "type", "school_id", "count"),
    "en-214": lambda: group_table(S("roads.gpkg"), "type", "speed_limit", "max"),
    "en-215": lambda: (lambda d, j: d.assign(mean_value=d.index.map(j.groupby("index_right")["value_eur"].mean())))(S("districts.gpkg").copy(), gpd.sjoin(S("houses.gpkg"), S("districts.gpkg")[["geometry"]], predicate="within")),
    "en-216": lambda: S("roads.gpkg").assign(geometry=S("roads.gpkg").buffer(100)),
    "en-217": lambda: _areas(B("parcels.gpkg"), 1e-4),
    "en-218": lambda: _lengths(S("roads.gpkg"), 1e-3).groupby("type", as_index=False)["length"].sum(),
    "en-219": lambda: nearest_attr(B("wells.gpkg"), B("clinics.gpkg"), ["FACILITY"]),
    "en-220": lambda: group_table(S("countries.geojson"), "continent", "name", "count"),
    "en-221": lambda: (lambda d, j: d.assign(mean_no3=d["WD_CODE"].map(j.groupby("WD_CODE")["nitrate_mgl"].mean())))(B("water_districts.gpkg").copy(), gpd.sjoin(B("wells.gpkg").to_crs(4326), B("water_districts.gpkg")[["WD_CODE", "geometry"]], predicate="within")),
    "en-301": lambda: _clip(S("roads.gpkg"), S("districts.gpkg")),
    "en-302": lambda: _clip(B("county_roads.gpkg"), B("water_districts.gpkg")),
    "en-303": lambda: _overlay(B("parcels.gpkg"), B("water_districts.gpkg"), "difference"),
    "en-304": lambda: _overlay(B("water_districts.gpkg"), B("parcels.gpkg"), "difference"),
    "en-305": lambda: _overlay(B("parcels.gpkg"), B("water_districts.gpkg"), "intersection"),
    "en-306": lambda: B("wells.gpkg").merge(B("parcels.gpkg").drop(columns="geometry"), left_on="APN", right_on="PARCEL_NO", how="left"),
    "en-307": lambda: _sjoin(B("wells.gpkg"), B("water_districts.gpkg"), ["WD_NAME"]),
    "en-308": lambda: _sjoin(S("schools.gpkg"), S("districts.gpkg"), ["name", "landuse"]),
    "en-309": lambda: _select_loc(S("districts.gpkg"), S("schools.gpkg")),
    "en-310": lambda: sjoin_count(S("bus_stops.gpkg"), S("districts.gpkg"), "name"),
    "en-311": _split,
    "en-312": lambda: _select_loc(B("parcels.gpkg"), B("streams.gpkg")),
    "en-313": lambda: _within_dist(S("houses.gpkg"), S("roads.gpkg"), 50),
    "en-314": lambda: _clip(B("wells.gpkg"), B("water_districts.gpkg")),
    "en-315": lambda: _clip(B("water_districts.gpkg"), B("parcels.gpkg")),
    "en-316": lambda: _clip(B("parcels.gpkg"), B("water_districts.gpkg")),
    "en-317": lambda: nearest_attr(S("schools.gpkg"), S("cafes.gpkg").rename(columns={"name": "cafe_name"}), ["cafe_id", "cafe_name"]),
    "en-401": lambda: S("districts.gpkg").query("name != 'Altstadt'"),
    "en-402": lambda: _within_dist(S("schools.gpkg"), S("bus_stops.gpkg"), 300, inside=False),
    "en-403": lambda: S("houses.gpkg")[S("houses.gpkg")["type"] != "apartment"],
    "en-404": lambda: S("districts.gpkg").query("landuse != 'residential'"),
    "en-405": lambda: B("county_roads.gpkg")[~B("county_roads.gpkg").intersects(B("water_districts.gpkg").to_crs(2227).boundary.union_all())],
    "en-406": lambda: S("cafes.gpkg").query("wifi == 'no'"),
    "en-407": lambda: B("wells.gpkg").query("status != 'abandoned'"),
    "en-408": lambda: _select_loc(B("wells.gpkg"), B("water_districts.gpkg"), "within", negate=True),
    "en-409": lambda: _select_loc(B("parcels.gpkg"), B("wells.gpkg"), negate=True),
    "en-410": lambda: B("clinics.gpkg").query("open_24h == 'N'"),
    "en-411": lambda: B("parcels.gpkg").query("crop_type != 'fallow'"),
    "en-412": lambda: B("county_roads.gpkg").query("surface != 'paved'"),
    "en-413": lambda: S("schools.gpkg").query("type != 'primary' and students > 800"),
    "en-414": lambda: _select_loc(S("districts.gpkg"), S("schools.gpkg"), negate=True),
    "en-415": lambda: B("wells.gpkg").query("drilled_yr < 2000 or drilled_yr > 2009"),
    "en-416": lambda: _within_dist(S("bus_stops.gpkg"), S("schools.gpkg"), 500, inside=False),
    "en-417": lambda: S("countries.geojson").query("continent not in ['Africa', 'Europe']"),
    "en-418": lambda: _within_dist(S("houses.gpkg"), S("bus_stops.gpkg"), 200, inside=False),
    "en-501": lambda: S("districts.gpkg").nlargest(5, "area_km2"),
    "en-502": lambda: S("schools.gpkg").nlargest(3, "students"),
    "en-503": lambda: _within_dist(S("cafes.gpkg"), S("schools.gpkg"), 300),
    "en-504": lambda: S("schools.gpkg").query("students > 1000"),
    "en-505": lambda: B("wells.gpkg").assign(geometry=B("wells.gpkg").buffer(500)),
    "en-506": lambda: S("houses.gpkg").query("value_eur > 500000"),
    "en-507": lambda: B("wells.gpkg").nlargest(10, "depth_ft"),
    "en-508": lambda: _within_dist(S("bus_stops.gpkg"), S("cafes.gpkg"), 150),
    "en-509": lambda: B("clinics.gpkg").assign(geometry=utm(B("clinics.gpkg")).buffer(2500).to_crs(4326).values),
    "en-510": lambda: B("parcels.gpkg").query("acreage > 180"),
    "en-511": lambda: B("water_districts.gpkg").assign(a=equal_area(B("water_districts.gpkg")).area).nsmallest(3, "a"),
    "en-512": lambda: B("clinics.gpkg").assign(geometry=utm(B("clinics.gpkg")).buffer(402.336).to_crs(4326).values),
    "en-513": lambda: S("roads.gpkg").query("speed_limit >= 40"),
    "en-514": lambda: _within_dist(S("houses.gpkg"), S("bus_stops.gpkg"), 75),
    "en-515": lambda: S("countries.geojson").nlargest(10, "pop_est"),
    "en-516": lambda: _within_dist(B("wells.gpkg"), B("streams.gpkg"), 1000),
    "en-517": lambda: _multiring(S("schools.gpkg"), [100, 200, 300]),
    "en-518": lambda: B("parcels.gpkg").query("assessed_usd > 2500000"),
    "en-519": lambda: S("houses.gpkg").sort_values("year_built").head(20),
    "en-906": lambda: "The wells layer has 180 point features in EPSG:2227 (NAD83 / California zone 3, US feet).",
    "en-908": lambda: "Fields: PARCEL_NO, OWNER, acreage, crop_type, irrigated, zoning, soil_class, assessed_usd",
    "en-951": lambda: S("schools.gpkg").assign(geometry=S("schools.gpkg").buffer(500)),
    "en-952": lambda: S("districts.gpkg").dissolve("landuse").reset_index(),
    "en-953": lambda: B("parcels.gpkg").assign(geometry=B("parcels.gpkg").centroid),
    "en-954": lambda: B("wells.gpkg").to_crs(4326),
    "en-955": lambda: sjoin_count(S("houses.gpkg"), S("districts.gpkg"), "name"),
    "en-956": lambda: _clip(B("county_roads.gpkg"), B("water_districts.gpkg")),
    "en-957": lambda: S("cafes.gpkg")[S("cafes.gpkg")["wifi"] == "yes"],
    "en-958": lambda: _hull(S("bus_stops.gpkg")),
    "en-959": lambda: _lengths(B("streams.gpkg"), 1e-3),
    "en-960": lambda: _areas(B("water_districts.gpkg"), 1 / 4046.8564224, ea=True),
    "en-961": lambda: nearest_attr(B("wells.gpkg"), B("clinics.gpkg"), ["FACILITY"]),
    "en-962": lambda: S("schools.gpkg").sort_values("students"),
    "en-963": lambda: B("wells.gpkg").query("depth_ft > 600"),
    "en-964": lambda: "27 of the 40 cafés have wifi.",
}
for _i in ("en-130", "en-135", "en-136", "en-965"):
    REF[_i] = {"en-130": lambda: S("schools.gpkg"), "en-135": lambda: B("parcels.gpkg"),
               "en-136": lambda: B("streams.gpkg"), "en-965": lambda: S("districts.gpkg")}[_i]
SUFFIX = {"en-130": ".geojson", "en-131": ".shp", "en-132": ".csv", "en-135": ".fgb", "en-136": ".kml",
          "en-137": ".geojson", "en-140": ".csv", "en-141": ".gpkg", "en-144": ".parquet", "en-145": ".shp",
          "en-146": ".geojson", "en-147": ".gpkg", "en-965": ".geojson", "en-133": ".png", "en-134": ".png",
          "en-142": ".png"}
for _i in ("en-133", "en-134", "en-142"):
    REF[_i] = lambda: _png()

# plausible WRONG readings: each must fail at least one check ------------------------------------
WRONG = {
    "en-001": lambda: S("schools.gpkg").dissolve().assign(geometry=lambda d: d.buffer(500)),         # merged
    "en-003": lambda: S("districts.gpkg").dissolve(),                                                # no field
    "en-006": lambda: _areas(S("districts.gpkg"), 1e-6),                                             # km2
    "en-008": lambda: S("cafes.gpkg")[S("cafes.gpkg")["wifi"] == "no"],
    "en-011": lambda: S("schools.gpkg").sort_values("students"),                                    # ascending
    "en-101": lambda: S("districts.gpkg").set_crs(4326, allow_override=True),                        # assigned
    "en-104": lambda: B("wells.gpkg").to_crs(4326),
    "en-105": lambda: B("parcels.gpkg").to_crs(4326),                                                # swapped
    "en-109": lambda: B("wells.gpkg").to_crs(2228),                                                  # transformed
    "en-201": lambda: sjoin_count(S("houses.gpkg"), S("districts.gpkg"), "name").assign(n_pts=lambda d: d["n_pts"] + 1),
    "en-202": lambda: B("parcels.gpkg").dissolve().centroid.to_frame("geometry").set_crs(2227),
    "en-204": lambda: S("schools.gpkg").dissolve().assign(geometry=lambda d: d.buffer(300)),
    "en-205": lambda: _lengths(S("roads.gpkg"), 1.0),
    "en-206": lambda: sjoin_count(B("parcels.gpkg").assign(geometry=B("parcels.gpkg").centroid), B("water_districts.gpkg"), "WD_CODE"),
    "en-219": lambda: nearest_attr(B("clinics.gpkg"), B("wells.gpkg"), ["WELL_ID"]),                # swapped
    "en-303": lambda: _overlay(B("water_districts.gpkg"), B("parcels.gpkg"), "difference"),         # swapped
    "en-304": lambda: _overlay(B("parcels.gpkg"), B("water_districts.gpkg"), "difference"),
    "en-305": lambda: _overlay(B("parcels.gpkg"), B("water_districts.gpkg"), "union"),
    "en-306": lambda: B("parcels.gpkg").merge(B("wells.gpkg").drop(columns="geometry").drop_duplicates("APN"), right_on="APN", left_on="PARCEL_NO", how="left"),
    "en-309": lambda: _select_loc(S("schools.gpkg"), S("districts.gpkg")),
    "en-310": lambda: sjoin_count(S("houses.gpkg"), S("districts.gpkg"), "name"),
    "en-312": lambda: _select_loc(B("streams.gpkg"), B("parcels.gpkg")),
    "en-314": lambda: B("wells.gpkg"),
    "en-315": lambda: _clip(B("parcels.gpkg"), B("water_districts.gpkg")),
    "en-316": lambda: _clip(B("water_districts.gpkg"), B("parcels.gpkg")),
    "en-317": lambda: nearest_attr(S("cafes.gpkg"), S("schools.gpkg").rename(columns={"name": "school_name"}), ["school_id"]),
    "en-401": lambda: S("districts.gpkg").query("name == 'Altstadt'"),
    "en-402": lambda: _within_dist(S("schools.gpkg"), S("bus_stops.gpkg"), 300),
    "en-405": lambda: B("county_roads.gpkg")[B("county_roads.gpkg").intersects(B("water_districts.gpkg").to_crs(2227).boundary.union_all())],
    "en-408": lambda: _select_loc(B("wells.gpkg"), B("water_districts.gpkg"), "within"),
    "en-409": lambda: _select_loc(B("parcels.gpkg"), B("wells.gpkg")),
    "en-414": lambda: _select_loc(S("districts.gpkg"), S("schools.gpkg")),
    "en-418": lambda: _within_dist(S("houses.gpkg"), S("bus_stops.gpkg"), 200),
    "en-501": lambda: S("districts.gpkg").nlargest(3, "area_km2"),
    "en-502": lambda: S("schools.gpkg").nlargest(5, "students"),
    "en-505": lambda: B("wells.gpkg").assign(geometry=utm(B("wells.gpkg")).buffer(500).values),       # 500 m
    "en-507": lambda: B("wells.gpkg").nsmallest(10, "depth_ft"),
    "en-509": lambda: B("clinics.gpkg").assign(geometry=utm(B("clinics.gpkg")).buffer(250).to_crs(4326).values),
    "en-516": lambda: _within_dist(B("wells.gpkg"), B("streams.gpkg"), 1000 / 0.3048),                 # 1000 m
    "en-517": lambda: _multiring(S("schools.gpkg"), [100, 200]),
}


# ----------------------------------------------------------------------------- running
def run_checks(case, ns, out, answer_text):
    """Return list of (ok, message) for each check, with `out`/`answer` as given."""
    res = []
    ns = dict(ns, out=out, answer=answer_text or "", report={})
    for chk in case.get("checks", []):
        try:
            if "answer_number" in chk:
                if answer_text is None:
                    res.append((None, "no reference answer"))
                    continue
                want = float(eval(chk["answer_number"], ns))
                nums = numbers_in(answer_text)
                ok = any(close(n, want, chk) if ("rel" in chk or "abs" in chk) else n == want for n in nums)
                res.append((ok, f"answer_number {want} in {nums[:6]}"))
            elif "answer_contains" in chk:
                want = str(eval(chk["answer_contains"], ns))
                if answer_text is None:
                    res.append((None, "no reference answer"))
                    continue
                res.append((want in answer_text, f"answer_contains {want!r}"))
            elif "crs" in chk:
                if out is None:
                    res.append((None, "no ref"))
                    continue
                if isinstance(out, str) and out.endswith(".tif"):
                    import rasterio
                    epsg = rasterio.open(out).crs.to_epsg()
                else:
                    epsg = out.crs.to_epsg()
                res.append((epsg == chk["crs"], f"crs {epsg} vs {chk['crs']}"))
            elif "suffix" in chk:
                sfx = SUFFIX.get(case["id"])
                res.append((sfx == chk["suffix"] if sfx else None, f"suffix {sfx} vs {chk['suffix']}"))
            else:
                eq = eval(chk["equals"], ns)
                if out is None:
                    res.append((None, f"equals -> {short(eq)}"))
                    continue
                got = eval(chk["expect"], ns)
                res.append((close(got, eq, chk), f"{short(got)} vs {short(eq)}"))
        except Exception as e:  # noqa: BLE001
            res.append((False, f"ERROR {type(e).__name__}: {e}"))
    return res


def short(v):
    s = repr(v)
    return s if len(s) < 90 else s[:87] + "..."


def main(argv):
    cases = yaml.safe_load(open(os.path.join(HERE, "cases_en.yaml"), encoding="utf-8"))
    only = set(argv)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate ids"
    problems = 0
    stats_cls, stats_exp = {}, {}
    ref_pass = ref_total = wrong_caught = wrong_total = 0
    for case in cases:
        cid = case["id"]
        stats_cls[case["class"]] = stats_cls.get(case["class"], 0) + 1
        stats_exp[case["expect"]] = stats_exp.get(case["expect"], 0) + 1
        if only and cid not in only:
            continue
        errs = []
        if case.get("lang") != "en":
            errs.append("lang")
        if case.get("class") not in CLASSES:
            errs.append(f"class {case.get('class')}")
        if case.get("expect") not in ("answer", "decline"):
            errs.append("expect")
        for ref in case.get("inputs", []):
            if not os.path.exists(path_of(ref)):
                errs.append(f"missing input {ref}")
        if case["expect"] == "answer" and not case.get("checks"):
            errs.append("answer without checks")
        if errs:
            problems += 1
            print(f"{cid}: SCHEMA {errs}")
            continue
        if case["expect"] == "decline":
            continue
        for chk in case["checks"]:
            for k in ("expect", "equals", "answer_number", "answer_contains"):
                if k in chk:
                    compile(chk[k], cid, "eval")
        ns = namespace(case)
        out = ans = None
        if cid in REF:
            r = REF[cid]()
            if isinstance(r, str) and not (r.endswith(".tif") or r.endswith(".png")) and not r.lstrip().startswith("<"):
                ans = r
            else:
                out = r
        results = run_checks(case, ns, out, ans)
        bad = [m for ok, m in results if ok is False]
        if cid in REF:
            ref_total += 1
            ref_pass += not bad
        # equals must be non-trivial: numbers nonzero, lists non-empty
        for chk in case["checks"]:
            if "equals" in chk and chk["equals"] not in ("True", "False", "0", "1"):
                v = eval(chk["equals"], dict(ns, out=None))
                if (isinstance(v, (int, float, np.integer, np.floating)) and v == 0) or (isinstance(v, list) and not v):
                    bad.append(f"EMPTY/ZERO expected value for {chk['equals'][:60]}")
        status = "ok " if not bad else "BAD"
        if bad:
            problems += 1
        print(f"{status} {cid} [{case['class']}] {'ref' if cid in REF else 'inputs-only'}: "
              + "; ".join(m for _, m in results)[:300])
        for m in bad:
            print(f"      !! {m}")
        if cid in WRONG:
            wrong_total += 1
            w = WRONG[cid]()
            wres = run_checks(case, ns, w, None)
            caught = any(ok is False for ok, _ in wres)
            wrong_caught += caught
            if not caught:
                problems += 1
                print(f"      !! WRONG reading of {cid} passes all checks")
    print("\nper class:", dict(sorted(stats_cls.items())))
    print("per expect:", stats_exp, "total", len(cases))
    print(f"reference results passing all checks: {ref_pass}/{ref_total}")
    print(f"wrong readings caught: {wrong_caught}/{wrong_total}")
    print(f"problems: {problems}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
