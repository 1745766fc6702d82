"""blind9 cases, defined once: the request per case, its inputs, and for answers a reference result computed here
with geopandas/numpy/rasterio, the checks derived from it, misreadings (must fail) and alternative correct
readings (must pass). validate.py writes the YAML from this and grades everything with bench/checkers.py."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.features import geometry_mask
from shapely.geometry import LineString, Point

HERE = Path(__file__).resolve().parent
D = HERE / "data"

# ---------------------------------------------------------------- data
H = gpd.read_file(D / "huts.gpkg")                      # EPSG:4326
L = gpd.read_file(D / "lifts.gpkg")                     # EPSG:2056
T = gpd.read_file(D / "trails.gpkg")                    # EPSG:32632
Z = gpd.read_file(D / "avalanche_zones.gpkg")           # EPSG:2056
M = gpd.read_file(D / "municipalities.geojson")         # EPSG:4326
_s = pd.read_csv(D / "snow_stations.csv")
S = gpd.GeoDataFrame(_s, geometry=gpd.points_from_xy(_s.lon, _s.lat), crs=4326)
K = pd.read_csv(D / "lift_tickets.csv")
H2, T2, M2, S2 = H.to_crs(2056), T.to_crs(2056), M.to_crs(2056), S.to_crs(2056)
with rasterio.open(D / "dem.tif") as _r:
    DEM = _r.read(1).astype(float)
    PROF = _r.profile
    TRANSFORM = _r.transform
NODATA = PROF["nodata"]
VALID = DEM != NODATA

LAY = {  # name -> (layer in its own CRS, key field, input ref)
    "huts": (H, "hut_id", "b:huts.gpkg"),
    "lifts": (L, "lift_id", "b:lifts.gpkg"),
    "trails": (T, "trail_id", "b:trails.gpkg"),
    "zones": (Z, "zone", "b:avalanche_zones.gpkg"),
    "munis": (M, "bfs_nr", "b:municipalities.geojson"),
    "stations": (S, "code", "b:snow_stations.csv"),
}
M2_ = {"huts": H2, "lifts": L, "trails": T2, "zones": Z, "munis": M2, "stations": S2}
INP = {k: v[2] for k, v in LAY.items()} | {"dem": "b:dem.tif", "tickets": "b:lift_tickets.csv"}


def utm(g):
    return g.to_crs(g.estimate_utm_crs())


def sub(name, mask):
    return LAY[name][0][np.asarray(mask)].copy()


def ids_of(name, mask):
    g = LAY[name][0]
    return sorted(g.loc[np.asarray(mask), LAY[name][1]].tolist())


def muni_of(name):
    """Municipality name of each point of a layer (points lie well inside one)."""
    j = gpd.sjoin(M2_[name], M2[["name", "geometry"]].rename(columns={"name": "muni"}), predicate="within")
    return j["muni"].reindex(M2_[name].index)


def near(a, b, d, margin=3.0):
    """Mask of a's features within d metres of any b feature (LV95), asserting no distance sits within margin of d."""
    dist = np.array([b.distance(g).min() for g in M2_[a].geometry]) if isinstance(b, gpd.GeoDataFrame) else b
    bb = M2_[b] if isinstance(b, str) else b
    dist = np.array([bb.distance(g).min() for g in M2_[a].geometry])
    assert np.all(np.abs(dist - d) > margin), (a, d, sorted(np.abs(dist - d))[:3])
    return dist <= d


def crosses(a, b):
    bb = M2_[b] if isinstance(b, str) else b
    return np.array([bb.intersects(g).any() for g in M2_[a].geometry])


def inside(a, b):
    bb = M2_[b] if isinstance(b, str) else b
    return np.array([bb.contains(g).any() for g in M2_[a].geometry])


# ---------------------------------------------------------------- checks
def c_ids(name, ids, output="vector"):
    key = LAY[name][1]
    return {"output": output, "expect": f"sorted(out['{key}'].tolist())", "equals": repr(sorted(ids))}


def c_len(n, output="vector"):
    return {"output": output, "expect": "len(out)", "equals": str(n)}


def _num_cols(skip):
    return f"for c in out.columns if c not in ('geometry', '{skip}') and pd.api.types.is_numeric_dtype(out[c])"


def c_col(key, vals, rtol=0.0, atol=0.0, output="vector"):
    """Some numeric column, sorted by key, equals vals (per-feature values; names of new fields never matter)."""
    v = [round(float(x), 4) for x in vals]
    return {"output": output, "expect": (
        f"any(np.allclose(out.sort_values('{key}')[c].astype(float).fillna(0).to_numpy(), np.array({v}), "
        f"rtol={rtol}, atol={atol}) {_num_cols(key)})"), "equals": "True"}


def c_map(key, mapping, output="vector"):
    """Some column maps key -> value as given (joins, nearest)."""
    return {"output": output, "expect": (
        f"any(all(str(dict(zip(out['{key}'].astype(str), out[c].astype(str))).get(k)).removesuffix('.0') == v for k, v in "
        f"{mapping!r}.items()) for c in out.columns if c not in ('geometry', '{key}'))"), "equals": "True"}


def c_group(vals, rtol=0.0, atol=0.0, output="any_table"):
    """Some numeric column holds exactly these per-group values (in any order)."""
    v = sorted(round(float(x), 4) for x in vals)
    return {"output": output, "expect": (
        f"any(len(out) == {len(v)} and np.allclose(np.sort(out[c].astype(float).to_numpy()), np.array({v}), "
        f"rtol={rtol}, atol={atol}) {_num_cols('')})"), "equals": "True"}


def c_area(val, rel=0.01):
    return {"output": "vector", "expect": "float(utm(out).area.sum())", "equals": repr(round(float(val), 1)), "rel": rel}


def c_length(val, rel=0.01):
    return {"output": "vector", "expect": "float(utm(out).length.sum())", "equals": repr(round(float(val), 1)),
            "rel": rel}


def c_crs(epsg, output="vector"):
    return {"output": output, "crs": epsg}


def c_bounds(b, atol, output="vector"):
    b = [round(float(x), 7) for x in b]
    return {"output": output, "expect": f"bool(np.allclose(out.total_bounds, {b}, atol={atol}))", "equals": "True"}


def c_num(val, rel=0.0, abs_=0.0):
    d = {"answer_number": repr(round(float(val), 4))}
    if rel:
        d["rel"] = rel
    if abs_:
        d["abs"] = abs_
    return d


def c_suffix(s, output="vector"):
    return {"output": output, "suffix": s}


def c_ras(stat, val, rel=0.0, abs_=0.0):
    d = {"output": "raster", "expect": f"raster_stats(out)['{stat}']", "equals": repr(round(float(val), 3))}
    if rel:
        d["rel"] = rel
    if abs_:
        d["abs"] = abs_
    return d


# ---------------------------------------------------------------- result specs
def V(gdf, name=None):
    return ("vec", gdf, name)


def TB(df, name=None):
    return ("tab", df, name)


def A(text):
    return ("ans", text)


def R(arr, name=None):
    return ("ras", arr, name)


def with_col(name, vals, col="value", base=None):
    g = (base if base is not None else LAY[name][0]).copy()
    g[col] = list(vals)
    return g


def grp(keys, vals, key="group"):
    return pd.DataFrame({key: list(keys), "value": list(vals)})


# ---------------------------------------------------------------- raster helpers
def zonal(polys2056, stat="mean", all_touched=False, arr=None, ignore_nodata=True):
    arr = DEM if arr is None else arr
    ok = (arr != NODATA) & np.isfinite(arr) if ignore_nodata else np.ones(arr.shape, bool)
    out = []
    for g in polys2056.geometry:
        m = geometry_mask([g], out_shape=arr.shape, transform=TRANSFORM, invert=True, all_touched=all_touched)
        v = arr[m & ok]
        out.append(float(getattr(np, stat)(v)))
    return out


def sample(points2056, bilinear=False):
    vals = []
    for p in points2056.geometry:
        c, r = ~TRANSFORM * (p.x, p.y)
        if not bilinear:
            vals.append(float(DEM[int(r), int(c)]))
        else:
            c0, r0 = int(np.floor(c - 0.5)), int(np.floor(r - 0.5))
            fc, fr = c - 0.5 - c0, r - 0.5 - r0
            w = DEM[r0:r0 + 2, c0:c0 + 2]
            vals.append(float(w[0, 0] * (1 - fc) * (1 - fr) + w[0, 1] * fc * (1 - fr) + w[1, 0] * (1 - fc) * fr
                              + w[1, 1] * fc * fr))
    return vals


def masked_dem(poly2056):
    m = geometry_mask([poly2056], out_shape=DEM.shape, transform=TRANSFORM, invert=True)
    a = DEM.copy()
    a[~m] = NODATA
    return a


def gdaldem(mode, *extra):
    tmp = Path(tempfile.mkdtemp(prefix="b9dem-")) / f"{mode}.tif"
    subprocess.run(["gdaldem", mode, str(D / "dem.tif"), str(tmp), "-q", *extra], check=True)
    with rasterio.open(tmp) as r:
        a = r.read(1).astype(float)
        nd = r.nodata
    a[a == nd] = NODATA
    return a


def rstat(a, stat):
    v = a[(a != NODATA) & np.isfinite(a)]
    return float(getattr(np, stat)(v))


SLOPE_DEG = gdaldem("slope")
SLOPE_PCT = gdaldem("slope", "-p")
SLOPE_DEG_EDGE = gdaldem("slope", "-compute_edges")


def contours(interval):
    lo, hi = rstat(DEM, "min"), rstat(DEM, "max")
    levels = [x for x in np.arange(np.ceil(lo / interval) * interval, hi, interval)]
    return gpd.GeoDataFrame({"ELEV": levels}, geometry=[LineString([(2760000, 1170000 + i), (2761000, 1170000 + i)])
                                                         for i in range(len(levels))], crs=2056)


# ---------------------------------------------------------------- cases
CASES: list[dict] = []
_n = {"en": 0, "de": 0, "zh": 0}


def add(lang, cls, request, inputs, checks=None, ref=None, mis=None, alt=None, why=None):
    _n[lang] += 1
    c = {"id": f"{lang}{_n[lang]:03d}", "lang": lang, "class": cls, "request": request,
         "inputs": [INP[i] for i in inputs]}
    if why:
        c["expect"] = "decline"
        c["why"] = why
    else:
        assert checks and ref is not None, request
        c["expect"] = "answer"
        c["checks"] = checks
        c["_ref"] = ref
        c["_mis"] = mis or {}
        c["_alt"] = alt or {}
    CASES.append(c)


def sel(lang, cls, request, name, mask, mis=(), inputs=None, extra=(), fname=None, output="vector"):
    """A selection of `name`: checks the kept ids; misreadings are other masks (or result specs)."""
    ids = ids_of(name, mask)
    misd = {}
    for label, m in dict(mis).items():
        misd[label] = m if isinstance(m, tuple) else V(sub(name, m), fname)
    add(lang, cls, request, inputs or [name], [c_ids(name, ids, output), *extra], V(sub(name, mask), fname), misd)


def count_q(lang, cls, request, inputs, n, mis=(), rel=0.0, abs_=0.0):
    add(lang, cls, request, inputs, [c_num(n, rel, abs_)], A(f"Result: {n}"),
        {k: A(f"Result: {v}") for k, v in dict(mis).items()})


# shared values -------------------------------------------------------------------------------
ALL = np.ones(20, bool)
hut_muni = muni_of("huts")
st_muni = muni_of("stations")
hut_in_zone = inside("huts", "zones")
st_in_zone = inside("stations", "zones")
hut_near_lift200 = near("huts", "lifts", 200)
lift_near_hut200 = near("lifts", "huts", 200)
trail_x_zone = crosses("trails", "zones")
lift_x_zone = crosses("lifts", "zones")
MUNI_ORDER = M.sort_values("bfs_nr")["name"].tolist()


def per_muni(values_by_name):
    return [values_by_name.get(n, 0) for n in MUNI_ORDER]


def counts_in_munis(mask=None, layer="huts"):
    mm = hut_muni if layer == "huts" else st_muni
    if mask is not None:
        mm = mm[np.asarray(mask)]
    return per_muni(mm.value_counts().to_dict())


def buf(name, d, mask=None, dissolve=False):
    g = M2_[name] if mask is None else M2_[name][np.asarray(mask)]
    b = g.copy()
    b["geometry"] = g.buffer(d, 32)
    if dissolve:
        b = b.dissolve()
    return b


def reproj(name, epsg):
    return LAY[name][0].to_crs(epsg)


def zone_poly(code):
    return Z.loc[Z.zone == code].geometry.iloc[0]


def muni_poly(nm):
    return M2.loc[M2.name == nm].geometry.iloc[0]


def clip2056(name, poly_gdf):
    return gpd.clip(M2_[name], poly_gdf)


# ================================================================ ENGLISH
# plain
add("en", "plain", "Buffer the lifts by 50 m", ["lifts"],
    [c_len(12), c_area(utm(buf("lifts", 50)).area.sum(), 0.025)], V(buf("lifts", 50)),
    {"50 ft": V(buf("lifts", 15.24)), "radius 25": V(buf("lifts", 25)), "dissolved 500 m": V(buf("lifts", 500, dissolve=True))})
sel("en", "plain", "Which huts are staffed?", "huts", H.staffed == "yes", {"not staffed": H.staffed == "no"})
cent = M2.copy(); cent["geometry"] = M2.centroid
add("en", "plain", "centroids of the municipalities", ["munis"],
    [c_len(4), {"output": "vector", "expect": "bool(np.allclose(np.sort(out.to_crs(2056).geometry.x.to_numpy()), "
                f"{sorted(round(x, 1) for x in cent.geometry.x)}, atol=25))", "equals": "True"}],
    V(cent.to_crs(4326)), {"one centroid": V(M2.dissolve().centroid.to_frame("geometry").set_crs(2056))})
count_q("en", "plain", "How many hiking trails are there?", ["trails"], len(T), {"T1 only": 3})
dz = Z.dissolve("danger", as_index=False)
add("en", "plain", "Dissolve the avalanche zones by danger level", ["zones"],
    [c_len(5), {"output": "vector", "expect": "sorted(out['danger'].tolist())", "equals": "[1, 2, 3, 4, 5]"},
     c_area(utm(Z).area.sum())], V(dz), {"all in one": V(Z.dissolve()), "not dissolved": V(Z)})
hull = gpd.GeoDataFrame(geometry=[S2.union_all().convex_hull], crs=2056)
add("en", "plain", "convex hull around all the snow stations", ["stations"],
    [c_area(utm(hull).area.sum())], V(hull),
    {"per station": V(S2.assign(geometry=S2.convex_hull))})
tl = utm(T).length
add("en", "plain", "Length of each trail in km", ["trails"],
    [c_col("trail_id", (tl / 1000).round(3).tolist(), rtol=0.01)], V(with_col("trails", tl / 1000)),
    {"metres": V(with_col("trails", tl, col="len_m").drop(columns="length_km")),
     "miles": V(with_col("trails", tl / 1609.344, col="len_mi").drop(columns="length_km"))})
add("en", "plain", "Sort the lifts by capacity, largest first", ["lifts"],
    [{"output": "vector", "expect": "out['capacity'].tolist()", "equals": repr(sorted(L.capacity.tolist(), reverse=True))}],
    V(L.sort_values("capacity", ascending=False)), {"ascending": V(L.sort_values("capacity"))})

# each_per
cap_type = L.groupby("type").capacity.sum()
count_q("en", "each_per", "What is the total capacity of all lifts together?", ["lifts"], L.capacity.sum(),
        {"largest type": cap_type.max(), "mean": L.capacity.mean()})
add("en", "each_per", "total lift capacity for each lift type", ["lifts"], [c_group(cap_type.values)],
    TB(grp(cap_type.index, cap_type.values, "type")),
    {"overall": A(f"{L.capacity.sum()}"), "mean per type": TB(grp(cap_type.index, L.groupby('type').capacity.mean(), "type")),
     "count per type": TB(grp(cap_type.index, L.groupby('type').size(), "type"))})
add("en", "each_per", "Count the huts in each municipality", ["huts", "munis"],
    [c_len(4), c_col("bfs_nr", counts_in_munis())], V(with_col("munis", counts_in_munis())),
    {"total": A("20"), "stations counted": V(with_col("munis", counts_in_munis(layer="stations")))})
count_q("en", "each_per", "How many beds do all the huts have in total?", ["huts"], H.beds.sum(),
        {"per hut max": H.beds.max(), "mean": round(H.beds.mean(), 1)})
beds_muni = per_muni(H.groupby(hut_muni).beds.sum().to_dict())
add("en", "each_per", "sum of hut beds per municipality", ["huts", "munis"], [c_group(beds_muni)],
    V(with_col("munis", beds_muni)),
    {"overall": A(str(H.beds.sum())), "count": V(with_col("munis", counts_in_munis()))})
mlen = T.groupby("difficulty").length_km.mean()
add("en", "each_per", "Average trail length for each difficulty grade", ["trails"], [c_group(mlen.values, rtol=0.01)],
    TB(grp(mlen.index, mlen.values, "difficulty")),
    {"overall mean": A(f"{T.length_km.mean():.2f}"), "sum per grade": TB(grp(mlen.index, T.groupby('difficulty').length_km.sum()))})

# negation
sel("en", "negation", "Huts that are not in an avalanche zone", "huts", ~hut_in_zone,
    {"negation dropped": hut_in_zone, "all": ALL}, inputs=["huts", "zones"])
sel("en", "negation", "all lifts except the draglifts", "lifts", L["type"] != "draglift", {"draglifts": L["type"] == "draglift"})
sel("en", "negation", "Show me the trails without a T5 or T6 grade", "trails", ~T.difficulty.isin(["T5", "T6"]),
    {"T5/T6 only": T.difficulty.isin(["T5", "T6"]), "not T6 only": T.difficulty != "T6"})
sel("en", "negation", "Which snow stations lie outside the avalanche zones?", "stations", ~st_in_zone,
    {"inside": st_in_zone}, inputs=["stations", "zones"])
sel("en", "negation", "hiking trails that do not cross any avalanche zone", "trails", ~trail_x_zone,
    {"crossing": trail_x_zone}, inputs=["trails", "zones"])
sel("en", "negation", "Huts, except the ones open all year", "huts", H.season != "all year",
    {"all year only": H.season == "all year"})
sel("en", "negation", "huts outside Valdera", "huts", hut_muni.values != "Valdera",
    {"in Valdera": hut_muni.values == "Valdera"}, inputs=["huts", "munis"])

# roles
sel("en", "roles", "Huts within 200 m of a lift", "huts", hut_near_lift200,
    {"lifts near huts": V(sub("lifts", lift_near_hut200)), "100 m": near("huts", "lifts", 100)}, inputs=["huts", "lifts"])
sel("en", "roles", "Lifts within 200 m of a hut", "lifts", lift_near_hut200,
    {"huts near lifts": V(sub("huts", hut_near_lift200))}, inputs=["lifts", "huts"])
tclip = gpd.clip(T2, Z)
add("en", "roles", "Clip the trails to the avalanche zones", ["trails", "zones"],
    [c_length(utm(tclip).length.sum()), {"output": "vector", "expect": "sorted(set(out['trail_id'].tolist()))",
                                         "equals": repr(ids_of("trails", trail_x_zone))}],
    V(tclip.to_crs(32632)), {"whole trails": V(sub("trails", trail_x_zone)), "zones by trails": V(Z[Z.intersects(T2.union_all())])})
mclip = gpd.clip(M2, Z)
add("en", "roles", "Clip the municipalities by the avalanche zones", ["munis", "zones"],
    [c_area(utm(mclip).area.sum()), {"output": "vector", "expect": "sorted(set(out['bfs_nr'].tolist()))",
                                     "equals": repr(sorted(set(mclip.bfs_nr)))}],
    V(mclip.to_crs(4326)), {"zones clipped by municipalities": V(gpd.clip(Z, M2)), "whole municipalities": V(M)})
st_cnt_zone = [int(Z.loc[i].geometry.contains(S2.geometry).sum()) for i in Z.sort_values("zone").index]
add("en", "roles", "count the snow stations in each avalanche zone", ["stations", "zones"],
    [c_len(8), c_col("zone", st_cnt_zone)], V(with_col("zones", [int(g.contains(S2.geometry).sum()) for g in Z.geometry])),
    {"zones per station": V(with_col("stations", st_in_zone.astype(int)))})


def nearest_map(a, b, margin=10.0):
    """key -> key of nearest b feature, only for a features whose runner-up is >= margin farther."""
    ka, kb = LAY[a][1], LAY[b][1]
    res, full = {}, {}
    for k, g in zip(LAY[a][0][ka], M2_[a].geometry):
        d = M2_[b].distance(g).to_numpy()
        o = np.argsort(d)
        full[str(k)] = str(LAY[b][0][kb].iloc[o[0]])
        if d[o[1]] - d[o[0]] >= margin:
            res[str(k)] = full[str(k)]
    return res, full


nm, nfull = nearest_map("huts", "stations")
add("en", "roles", "For each hut, find the nearest snow station", ["huts", "stations"], [c_len(20), c_map("hut_id", nm)],
    V(H.assign(near_code=[nfull[k] for k in H.hut_id])),
    {"station -> hut": V(S.assign(near_hut=[nearest_map("stations", "huts")[1][k] for k in S.code]))})
sel("en", "roles", "Which avalanche zones does the Hut Station lift cross?", "zones",
    Z.intersects(L.loc[L.name == "Hut Station"].geometry.iloc[0]),
    {"zones crossed by any lift": Z.intersects(L.union_all()), "huts in zones": V(sub("huts", hut_in_zone))},
    inputs=["lifts", "zones"])
sel("en", "roles", "trails crossing avalanche zone D", "trails", T2.intersects(zone_poly("D")),
    {"zone D itself": V(Z[Z.zone == "D"]), "all crossing": trail_x_zone}, inputs=["trails", "zones"])
tb = T2.total_bounds
# crs_roles
add("en", "crs_roles", "The trails are in UTM 32N; put them into Swiss LV95 please", ["trails"],
    [c_crs(2056), c_bounds(reproj("trails", 2056).total_bounds, 1.0)], V(reproj("trails", 2056)),
    {"unchanged": V(T), "assigned only": V(T.set_crs(2056, allow_override=True)), "WGS84": V(reproj("trails", 4326))})
add("en", "crs_roles", "reproject huts from EPSG:4326 to EPSG:2056", ["huts"],
    [c_crs(2056), c_bounds(H2.total_bounds, 1.0)], V(H2), {"source kept": V(H), "UTM": V(reproj("huts", 32632))})
add("en", "crs_roles", "Convert the avalanche zones from LV95 to WGS 84", ["zones"],
    [c_crs(4326), c_bounds(reproj("zones", 4326).total_bounds, 1e-5)], V(reproj("zones", 4326)),
    {"source kept": V(Z), "assigned only": V(Z.set_crs(4326, allow_override=True))})
add("en", "crs_roles", "put the lifts in UTM zone 32N", ["lifts"],
    [c_crs(32632), c_bounds(reproj("lifts", 32632).total_bounds, 1.0)], V(reproj("lifts", 32632)),
    {"zone 33N": V(reproj("lifts", 32633)), "unchanged": V(L)})
add("en", "crs_roles", "Reproject the municipalities to the old Swiss grid LV03 (EPSG:21781)", ["munis"],
    [c_crs(21781), c_bounds(reproj("munis", 21781).total_bounds, 1.0)], V(reproj("munis", 21781)),
    {"LV95": V(M2), "unchanged": V(M)})
add("en", "crs_roles", "The lifts are in WGS 84, reproject them to LV95.", ["lifts"],
    why="the stated source CRS contradicts the file: lifts.gpkg is already EPSG:2056 (LV95); assigning 4326 or "
        "reprojecting from it would be wrong, keeping it ignores the user's statement")

# numbers
sel("en", "numbers", "Huts with more than 40 beds", "huts", H.beds > 40, {">=": H.beds >= 40})
sel("en", "numbers", "huts with at least 40 beds", "huts", H.beds >= 40, {">": H.beds > 40})
sel("en", "numbers", "Lifts with a capacity of 1800 or more", "lifts", L.capacity >= 1800, {">": L.capacity > 1800})
sel("en", "numbers", "Which lifts were built before 1990?", "lifts", L.year < 1990, {"<=": L.year <= 1990})
sel("en", "numbers", "Snow stations with more than 120 cm of snow", "stations", S.snow_cm > 120, {">=": S.snow_cm >= 120})
sel("en", "numbers", "huts above 2500 m", "huts", H.altitude > 2500, {">=": H.altitude >= 2500})
sel("en", "numbers", "Huts within 400 ft of a lift", "huts", near("huts", "lifts", 121.92),
    {"400 m": near("huts", "lifts", 400, margin=-1)}, inputs=["huts", "lifts"])
sel("en", "numbers", "Trails longer than 2 km", "trails", tl > 2000, {"2 miles": tl > 3218.7, "length_km > 2 (1.5?)": tl > 1500})
sel("en", "numbers", "avalanche zones with danger level 4 or higher", "zones", Z.danger >= 4, {">": Z.danger > 4})
sel("en", "numbers", "Municipalities with at most 910 inhabitants", "munis", M.population <= 910, {"<": M.population < 910})
sel("en", "numbers", "trails with at least 1000 m of ascent", "trails", T.ascent_m >= 1000, {">": T.ascent_m > 1000})
sel("en", "numbers", "Huts open more than 5 months a year", "huts", H.open_months > 5, {">=": H.open_months >= 5})

# not_loaded
add("en", "not_loaded", "Which huts are within 300 m of a ski run?", ["huts", "lifts"],
    why="no ski-run (piste) layer is loaded; lifts are not runs")
add("en", "not_loaded", "How many parking spaces are there near each lift's valley station?", ["lifts"],
    why="no parking layer or table is loaded")
add("en", "not_loaded", "Join the lift ticket sales to the lifts", ["lifts"],
    why="the ticket table (lift_tickets.csv) is not among the inputs")
add("en", "not_loaded", "Sample the snow depth raster at every hut", ["huts", "dem"],
    why="only the DEM is loaded; there is no snow-depth raster")
add("en", "not_loaded", "Clip the DEM to the glacier outlines", ["dem", "zones"],
    why="no glacier layer is loaded (the polygons are avalanche zones)")

# missing_field
add("en", "missing_field", "Lifts with a speed above 5 m/s", ["lifts"], why="lifts have no speed field")
add("en", "missing_field", "huts that cost less than 60 CHF a night", ["huts"], why="huts have no price field")
add("en", "missing_field", "Average walking time per trail difficulty", ["trails"],
    why="trails have no walking-time field (only length_km and ascent_m)")
add("en", "missing_field", "Which lifts does Valdera AG operate?", ["lifts"],
    why="the operator is only in lift_tickets.csv, which is not loaded; lifts have no operator field")
add("en", "missing_field", "Municipalities with an unemployment rate over 3 %", ["munis"],
    why="municipalities have no unemployment field")

# chain
hi = H.altitude > 2800
add("en", "chain", "Buffer the huts above 2800 m by 300 m", ["huts"],
    [c_len(int(hi.sum())), c_area(utm(buf("huts", 300, hi)).area.sum(), 0.025)], V(buf("huts", 300, hi)),
    {"all huts": V(buf("huts", 300)), ">= 2800 then 30 m": V(buf("huts", 30, hi))})
cnt_near = counts_in_munis(hut_near_lift200)
add("en", "chain", "count the huts within 200 m of a lift for each municipality", ["huts", "lifts", "munis"],
    [c_len(4), c_col("bfs_nr", cnt_near)], V(with_col("munis", cnt_near)),
    {"all huts": V(with_col("munis", counts_in_munis())), "total": A(str(int(hut_near_lift200.sum())))})
dz3 = Z[Z.danger >= 3].dissolve()
add("en", "chain", "Dissolve the avalanche zones with danger 3 or more into one polygon", ["zones"],
    [c_len(1), c_area(utm(dz3).area.sum())], V(dz3),
    {"not dissolved": V(Z[Z.danger >= 3]), "> 3": V(Z[Z.danger > 3].dissolve()), "all": V(Z.dissolve())})
tf = gpd.clip(T2, M2[M2.name == "Fuldera"])
add("en", "chain", "Clip the trails to the municipality of Fuldera, then compute the length of each piece in metres",
    ["trails", "munis"],
    [c_length(utm(tf).length.sum()), {"output": "vector", "expect": (
        f"any(abs(float(out[c].sum()) - {utm(tf).length.sum():.1f}) < {0.01 * utm(tf).length.sum():.1f} "
        f"{_num_cols('trail_id')})"), "equals": "True"}],
    V(tf.assign(len_m=utm(tf).length.values).to_crs(32632)),
    {"unclipped": V(sub("trails", T2.intersects(muni_poly("Fuldera"))).assign(len_m=lambda g: utm(g).length)),
     "km": V(tf.assign(len_km=utm(tf).length.values / 1000).to_crs(32632))})
cl200 = [int(g.buffer(200).contains(H2.geometry).sum()) for g in L.geometry]
add("en", "chain", "Make 200 m buffers around the lifts, then count the huts in each buffer", ["lifts", "huts"],
    [c_len(12), c_col("lift_id", cl200)], V(with_col("lifts", cl200, base=buf("lifts", 200))),
    {"100 m": V(with_col("lifts", [int(g.buffer(100).contains(H2.geometry).sum()) for g in L.geometry], base=buf("lifts", 100))),
     "lifts per hut": V(with_col("huts", [int(L.distance(g).le(200).sum()) for g in H2.geometry]))})
pr = hut_muni.values == "Pradalt"
add("en", "chain", "Find the huts in Pradalt and sample the DEM at them", ["huts", "munis", "dem"],
    [c_len(int(pr.sum())), c_col("hut_id", sample(H2[pr]), atol=20)], V(with_col("huts", sample(H2[pr]), base=H[pr])),
    {"all huts": V(with_col("huts", sample(H2)))},
    {"bilinear": V(with_col("huts", sample(H2[pr], True), base=H[pr]))})

# output_clause
sel("en", "output_clause", "Select the chairlifts and save them as GeoJSON", "lifts", L["type"] == "chairlift",
    {"gpkg": V(sub("lifts", L["type"] == "chairlift"), "chairlifts.gpkg")}, extra=[c_suffix(".geojson")],
    fname="chairlifts.geojson")
add("en", "output_clause", "Export the snow stations in LV95 to a GeoPackage called stations_lv95.gpkg", ["stations"],
    [c_suffix("stations_lv95.gpkg"), c_crs(2056), c_len(10)], V(S2, "stations_lv95.gpkg"),
    {"kept 4326": V(S, "stations_lv95.gpkg"), "other name": V(S2, "snow_stations.gpkg")})
sel("en", "output_clause", "huts open 12 months, export as CSV", "huts", H.open_months == 12,
    {"all huts csv": TB(H.drop(columns="geometry"), "huts.csv"), "gpkg": V(sub("huts", H.open_months == 12), "huts.gpkg")},
    extra=[c_suffix(".csv", "any_table")], output="any_table", fname="huts_12.csv")
add("en", "output_clause", "Buffer the huts by 1 km and name the result hut_1km", ["huts"],
    [{"output": "vector", "expect": "any('hut_1km' in Path(o['path']).name for o in report['outputs'])".replace(
        "Path(o['path']).name", "o['path'].replace('\\\\', '/').split('/')[-1]"), "equals": "True"},
     c_area(utm(buf("huts", 1000)).area.sum(), 0.025)],
    V(buf("huts", 1000), "hut_1km.gpkg"), {"other name": V(buf("huts", 1000), "huts_buffer.gpkg"),
                                          "1 m": V(buf("huts", 1), "hut_1km.gpkg")})
sel("en", "output_clause", "Write the T1 trails to trails_easy.shp", "trails", T.difficulty == "T1",
    {"other name": V(sub("trails", T.difficulty == "T1"), "trails.shp"), "T1 and T2": T.difficulty.isin(["T1", "T2"])},
    extra=[c_suffix("trails_easy.shp")], fname="trails_easy.shp")
add("en", "output_clause", "save the municipalities as KML", ["munis"], [c_suffix(".kml"), c_len(4)], V(M, "municipalities.kml"),
    {"geojson": V(M, "municipalities_out.geojson")})
sel("en", "output_clause", "lifts that cross an avalanche zone -> lifts_in_zones.geojson", "lifts", lift_x_zone,
    {"other name": V(sub("lifts", lift_x_zone), "lifts.geojson"), "not crossing": ~lift_x_zone},
    inputs=["lifts", "zones"], extra=[c_suffix("lifts_in_zones.geojson")], fname="lifts_in_zones.geojson")

# statistics
ms = H.groupby("season").altitude.mean()
add("en", "statistics", "Mean altitude of the huts per season", ["huts"], [c_group(ms.values, rtol=0.001)],
    TB(grp(ms.index, ms.values, "season")),
    {"median": TB(grp(ms.index, H.groupby('season').altitude.median().values)), "overall": A(f"{H.altitude.mean():.1f}")})
md = H.groupby("season").beds.median()
add("en", "statistics", "median number of beds per season", ["huts"], [c_group(md.values)],
    TB(grp(md.index, md.values, "season")), {"mean": TB(grp(md.index, H.groupby('season').beds.mean().values))})
count_q("en", "statistics", "What is the maximum snow depth measured at the stations?", ["stations"], S.snow_cm.max(),
        {"min": S.snow_cm.min(), "mean": S.snow_cm.mean()})
zm = zonal(Z)
add("en", "statistics", "Mean elevation of each avalanche zone from the DEM", ["zones", "dem"],
    [c_len(8), c_col("zone", [zm[i] for i in Z.sort_values('zone').index], atol=6)], V(with_col("zones", zm)),
    {"max": V(with_col("zones", zonal(Z, "max"))), "with nodata": V(with_col("zones", zonal(Z, ignore_nodata=False)))},
    {"all touched": V(with_col("zones", zonal(Z, all_touched=True)))})
mx = H.groupby(hut_muni.values).altitude.max()
add("en", "statistics", "the highest hut altitude in each municipality", ["huts", "munis"], [c_group(mx.values)],
    TB(grp(mx.index, mx.values, "muni")), {"mean": TB(grp(mx.index, H.groupby(hut_muni.values).altitude.mean().values)),
                                            "overall": A(str(H.altitude.max()))})
count_q("en", "statistics", "Average capacity of the chairlifts?", ["lifts"], L[L["type"] == "chairlift"].capacity.mean(),
        {"all lifts": round(L.capacity.mean(), 1), "sum": L[L["type"] == 'chairlift'].capacity.sum()})
sd_p, sd_s = H.beds.std(ddof=0), H.beds.std(ddof=1)
add("en", "statistics", "standard deviation of the number of beds in the huts", ["huts"],
    [c_num((sd_p + sd_s) / 2, rel=0.02)], A(f"{sd_s:.2f}"), {"mean": A(f"{H.beds.mean():.2f}"), "variance": A(f"{sd_s**2:.1f}")},
    {"population sd": A(f"{sd_p:.2f}")})
add("en", "statistics", "What's the correlation between hut altitude and number of beds?", ["huts"],
    why="a correlation coefficient is a statistic no library tool gives")

# raster
count_q("en", "raster", "What is the highest point of the DEM?", ["dem"], rstat(DEM, "max"),
        {"min": rstat(DEM, "min"), "mean": rstat(DEM, "mean")}, abs_=0.5)
add("en", "raster", "Slope of the DEM in degrees", ["dem"], [c_ras("mean", rstat(SLOPE_DEG, "mean"), rel=0.05)],
    R(SLOPE_DEG), {"percent": R(SLOPE_PCT), "the DEM": R(DEM)}, {"edges computed": R(SLOPE_DEG_EDGE)})
sh = sample(H2)
add("en", "raster", "Sample the DEM at the huts", ["huts", "dem"], [c_len(20), c_col("hut_id", sh, atol=20)],
    V(with_col("huts", sh)), {"at the stations": V(with_col("stations", sample(S2))),
                              "nodata as value": V(with_col("huts", [NODATA] * 20))},
    {"bilinear": V(with_col("huts", sample(H2, True)))})
pra = masked_dem(muni_poly("Pradalt"))
add("en", "raster", "Clip the DEM to Pradalt", ["dem", "munis"],
    [c_ras("mean", rstat(pra, "mean"), abs_=5), c_ras("min", rstat(pra, "min"), abs_=15)], R(pra),
    {"unclipped": R(DEM), "Fuldera": R(masked_dem(muni_poly("Fuldera")))})
mm = zonal(M2)
add("en", "raster", "mean elevation per municipality", ["dem", "munis"],
    [c_len(4), c_col("bfs_nr", [mm[i] for i in M.sort_values('bfs_nr').index], atol=6)], V(with_col("munis", mm)),
    {"max": V(with_col("munis", zonal(M2, "max"))), "overall": A(f"{rstat(DEM, 'mean'):.1f}")},
    {"all touched": V(with_col("munis", zonal(M2, all_touched=True)))})
add("en", "raster", "Contour lines every 250 m from the DEM", ["dem"],
    [{"output": "vector", "expect": ("any(sorted(set(np.round(out[c].astype(float), 1).tolist())) == "
                                     f"{[float(x) for x in contours(250).ELEV]} {_num_cols('')})"), "equals": "True"}],
    V(contours(250)), {"100 m": V(contours(100)), "500 m": V(contours(500))})
count_q("en", "raster", "mean elevation of the DEM (ignore no-data)", ["dem"], rstat(DEM, "mean"),
        {"nodata counted": float(np.where(VALID, DEM, 0).mean()), "median": rstat(DEM, "median")}, abs_=0.5)

# typo
add("en", "typo", "bufer the huts by 250m", ["huts"], [c_len(20), c_area(utm(buf("huts", 250)).area.sum(), 0.025)],
    V(buf("huts", 250)), {"25 m": V(buf("huts", 25)), "250 ft": V(buf("huts", 76.2))})
sel("en", "typo", "huts with more then 40 beds", "huts", H.beds > 40, {">=": H.beds >= 40})
add("en", "typo", "reproejct the trails to lv95", ["trails"], [c_crs(2056), c_bounds(reproj("trails", 2056).total_bounds, 1.0)],
    V(reproj("trails", 2056)), {"unchanged": V(T)})
add("en", "typo", "cout the huts in each municipalty", ["huts", "munis"], [c_len(4), c_col("bfs_nr", counts_in_munis())],
    V(with_col("munis", counts_in_munis())), {"total": A("20")})

# open_ended
add("en", "open_ended", "Where should we build a new mountain hut?", ["huts", "trails", "dem"],
    why="site selection with no stated criteria")
add("en", "open_ended", "Is the resort safe from avalanches this winter?", ["zones", "lifts"],
    why="a judgement, not a GIS operation")
add("en", "open_ended", "Plan a three-day hut-to-hut tour for beginners", ["huts", "trails"],
    why="route planning with open criteria (beginners, three days)")

# ambiguous
add("en", "ambiguous", "Show the lines longer than 1.5 km", ["lifts", "trails"],
    why="two line layers (lifts, trails) fit equally")
add("en", "ambiguous", "Count the points in each municipality", ["huts", "stations", "munis"],
    why="two point layers (huts, snow stations) fit equally")
add("en", "ambiguous", "Buffer A by 100 m", ["lifts", "zones"],
    why="'A' is both the lift named Lift A and avalanche zone A")
add("en", "ambiguous", "sample the DEM at the points", ["huts", "stations", "dem"],
    why="two point layers (huts, snow stations) fit equally")
add("en", "ambiguous", "select the features above 2500 m", ["huts", "stations"],
    why="both the huts (altitude) and the stations (elev_m) have an elevation field")

# a few more English: named features sharing words
sel("en", "roles", "huts within 1 km of Lift A", "huts", near("huts", L[L.name == "Lift A"], 1000),
    {"zone A": near("huts", Z[Z.zone == "A"], 1000), "any lift": near("huts", "lifts", 1000)},
    inputs=["huts", "lifts", "zones"])
sel("en", "plain", "Select the huts in zone A", "huts", inside("huts", Z[Z.zone == "A"]),
    {"any zone": hut_in_zone},
    inputs=["huts", "zones", "lifts"])
sel("en", "each_per", "Which lifts have more than 1 hut within 200 m?", "lifts", np.array(cl200) > 1,
    {">= 1": np.array(cl200) >= 1}, inputs=["lifts", "huts"])
jt = L.merge(K, left_on="lift_id", right_on="anlage_nr", how="left")
add("en", "chain", "Join the ticket table to the lifts (anlage_nr is the lift id) and show the lifts with more than "
    "200000 riders", ["lifts", "tickets"],
    [c_ids("lifts", jt.loc[jt.riders_2025 > 200000, "lift_id"].tolist())],
    V(jt[jt.riders_2025 > 200000]), {">=": V(jt[jt.riders_2025 >= 200000]), "table only": TB(K[K.riders_2025 > 200000])})
add("en", "plain", "join lift_tickets to the lifts", ["lifts", "tickets"],
    [c_map("lift_id", {r.anlage_nr: str(r.riders_2025) for r in K.itertuples() if r.anlage_nr in set(L.lift_id)})],
    V(jt.drop(columns="anlage_nr")), {"table": TB(K)})


# ================================================================ DEUTSCH
# plain
add("de", "plain", "Puffer von 300 m um alle Hütten", ["huts"], [c_len(20), c_area(utm(buf("huts", 300)).area.sum(), 0.025)],
    V(buf("huts", 300)), {"30 m": V(buf("huts", 30)), "Durchmesser": V(buf("huts", 150))})
count_q("de", "plain", "Wie viele Lawinenzonen gibt es?", ["zones"], len(Z), {"Gefahrenstufen": Z.danger.nunique()})
dm = M2.dissolve()
add("de", "plain", "Alle Gemeinden zu einem einzigen Polygon zusammenfassen", ["munis"],
    [c_len(1), c_area(utm(dm).area.sum())], V(dm), {"unverändert": V(M)})
ll = utm(L).length
add("de", "plain", "Länge jeder Bahn in Metern berechnen", ["lifts"], [c_len(12), c_col("lift_id", ll, rtol=0.01)],
    V(with_col("lifts", ll)), {"km": V(with_col("lifts", ll / 1000)), "Horizontal in Grad": V(with_col("lifts", L.to_crs(4326).length))})
sel("de", "plain", "zeig mir nur die Gondelbahnen", "lifts", L["type"] == "gondola",
    {"mit Luftseilbahn": L["type"].isin(["gondola", "cable car"]), "alle": np.ones(12, bool)})
add("de", "roles", "Puffere die Hut Station um 200 m", ["huts", "lifts"],
    [c_len(1), c_area(utm(buf("lifts", 200, L.name == "Hut Station")).area.sum(), 0.025)],
    V(buf("lifts", 200, L.name == "Hut Station")),
    {"alle Hütten": V(buf("huts", 200)), "alle Bahnen": V(buf("lifts", 200))})

# each_per
n_type = L.groupby("type").size()
add("de", "each_per", "Anzahl Bahnen je Anlagentyp", ["lifts"], [c_group(n_type.values)], TB(grp(n_type.index, n_type.values, "type")),
    {"gesamt": A("12"), "Summe Förderleistung": TB(grp(cap_type.index, cap_type.values, "type"))})
count_q("de", "each_per", "Förderleistung aller Bahnen insgesamt?", ["lifts"], L.capacity.sum(),
        {"Maximum": L.capacity.max(), "Mittel": round(L.capacity.mean(), 1)})
n_diff = T.groupby("difficulty").size()
add("de", "each_per", "Wie viele Wanderwege gibt es pro Schwierigkeitsgrad?", ["trails"], [c_group(n_diff.values)],
    TB(grp(n_diff.index, n_diff.values, "difficulty")), {"gesamt": A("18"), "Länge je Grad": TB(grp(n_diff.index, T.groupby('difficulty').length_km.sum().values))})
add("de", "each_per", "Wie viele Betten gibt es in jeder Gemeinde insgesamt?", ["huts", "munis"], [c_group(beds_muni)],
    V(with_col("munis", beds_muni)), {"gesamt": A(str(H.beds.sum())), "Hütten je Gemeinde": V(with_col("munis", counts_in_munis()))})
count_q("de", "each_per", "Gesamtlänge aller Wanderwege in km", ["trails"], round(tl.sum() / 1000, 3),
        {"Meter": round(tl.sum(), 1), "längster": round(tl.max() / 1000, 3)}, rel=0.01)

# negation
sel("de", "negation", "Hütten ohne Personal", "huts", H.staffed == "no", {"mit Personal": H.staffed == "yes"})
sel("de", "negation", "alle Bahnen außer den Sesselbahnen", "lifts", L["type"] != "chairlift",
    {"nur Sessel": L["type"] == "chairlift"})
sel("de", "negation", "Wanderwege, die nicht T1 sind", "trails", T.difficulty != "T1", {"nur T1": T.difficulty == "T1"})
sel("de", "negation", "Hütten außerhalb der Lawinengebiete", "huts", ~hut_in_zone, {"innerhalb": hut_in_zone},
    inputs=["huts", "zones"])
sel("de", "negation", "Messstationen, die nicht in Sarnaz liegen", "stations", st_muni.values != "Sarnaz",
    {"in Sarnaz": st_muni.values == "Sarnaz"}, inputs=["stations", "munis"])
sel("de", "negation", "Lawinenzonen außer Gefahrenstufe 1 und 2", "zones", ~Z.danger.isin([1, 2]),
    {"nur 1 und 2": Z.danger.isin([1, 2]), "außer 1": Z.danger != 1})

# roles
sel("de", "roles", "Hütten im Umkreis von 300 m um eine Bahn", "huts", near("huts", "lifts", 300),
    {"Bahnen bei Hütten": V(sub("lifts", near("lifts", "huts", 300))), "200 m": hut_near_lift200}, inputs=["huts", "lifts"])
sel("de", "roles", "Welche Bahnen liegen höchstens 300 m von einer Hütte entfernt?", "lifts", near("lifts", "huts", 300),
    {"Hütten bei Bahnen": V(sub("huts", near("huts", "lifts", 300)))}, inputs=["lifts", "huts"])
hz = [int(g.contains(H2.geometry).sum()) for g in Z.geometry]
add("de", "roles", "Zähle die Hütten je Lawinenzone", ["huts", "zones"],
    [c_len(8), c_col("zone", [hz[i] for i in Z.sort_values("zone").index])], V(with_col("zones", hz)),
    {"Zonen je Hütte": V(with_col("huts", hut_in_zone.astype(int))), "Stationen": V(with_col("zones", [int(g.contains(S2.geometry).sum()) for g in Z.geometry]))})
tv = gpd.clip(T2, M2[M2.name == "Valdera"])
add("de", "roles", "Wanderwege auf die Gemeinde Valdera zuschneiden", ["trails", "munis"],
    [c_length(utm(tv).length.sum()), {"output": "vector", "expect": "'trail_id' in out.columns", "equals": "True"}],
    V(tv.to_crs(32632)),
    {"ganze Wege": V(sub("trails", T2.intersects(muni_poly("Valdera")))), "Gemeinde statt Wege": V(M[M.name == "Valdera"])})
sel("de", "roles", "Welche Wanderwege queren eine Lawinenzone?", "trails", trail_x_zone,
    {"Zonen": V(Z[Z.intersects(T2.union_all())])}, inputs=["trails", "zones"])
sel("de", "roles", "Lawinenzonen, durch die eine Bahn führt", "zones", Z.intersects(L.union_all()),
    {"Bahnen": V(sub("lifts", lift_x_zone))}, inputs=["zones", "lifts"])

# crs_roles
add("de", "crs_roles", "Die Hütten liegen in WGS84 – bitte nach LV95 transformieren", ["huts"],
    [c_crs(2056), c_bounds(H2.total_bounds, 1.0)], V(H2), {"unverändert": V(H), "nur zugewiesen": V(H.set_crs(2056, allow_override=True))})
add("de", "crs_roles", "Lawinenzonen von EPSG:2056 nach EPSG:32632 umprojizieren", ["zones"],
    [c_crs(32632), c_bounds(reproj("zones", 32632).total_bounds, 1.0)], V(reproj("zones", 32632)),
    {"unverändert": V(Z), "WGS84": V(reproj("zones", 4326))})
add("de", "crs_roles", "Wanderwege ins CH1903+ bringen", ["trails"],
    [c_crs(2056), c_bounds(reproj("trails", 2056).total_bounds, 1.0)], V(reproj("trails", 2056)),
    {"CH1903/LV03": V(reproj("trails", 21781)), "unverändert": V(T)})
add("de", "crs_roles", "Die Bahnen sind in UTM 32N, bitte nach LV95 umrechnen", ["lifts"],
    why="die Quelle im Auftrag widerspricht der Datei: lifts.gpkg ist schon EPSG:2056 (LV95), nicht UTM 32N")

# numbers
sel("de", "numbers", "Hütten mit mindestens 40 Betten", "huts", H.beds >= 40, {">": H.beds > 40})
sel("de", "numbers", "Bahnen mit höchstens 1000 Personen pro Stunde", "lifts", L.capacity <= 1000, {"<": L.capacity < 1000})
sel("de", "numbers", "Stationen mit mehr als 119 cm Schnee", "stations", S.snow_cm > 119, {">=": S.snow_cm >= 119})
sel("de", "numbers", "Wanderwege länger als 1,5 km", "trails", tl > 1500, {"1,5 Meilen": tl > 2414.0, "15 km": tl > 15000})
sel("de", "numbers", "Lawinenzonen mit Gefahrenstufe über 3", "zones", Z.danger > 3, {">=": Z.danger >= 3})
sel("de", "numbers", "Hütten auf höchstens 2613 m ü. M.", "huts", H.altitude <= 2613, {"<": H.altitude < 2613})
sel("de", "numbers", "Bahnen ab Baujahr 2003", "lifts", L.year >= 2003, {">": L.year > 2003})
sel("de", "numbers", "Gemeinden mit mindestens 910 Einwohnern", "munis", M.population >= 910, {">": M.population > 910})
sel("de", "numbers", "Hütten, die näher als 0,2 km an einer Bahn liegen", "huts", hut_near_lift200,
    {"2 km": near("huts", "lifts", 2000, margin=-1), "20 m": near("huts", "lifts", 20, margin=-1)}, inputs=["huts", "lifts"])

# not_loaded
add("de", "not_loaded", "Welche Hütten liegen höchstens 200 m von einer Bushaltestelle entfernt?", ["huts", "stations"],
    why="keine Bushaltestellen geladen (die Stationen sind Schneemessstationen)")
add("de", "not_loaded", "Verschneide die Skipisten mit den Lawinenzonen", ["zones", "lifts"],
    why="keine Pisten geladen (Bahnen sind keine Pisten)")
add("de", "not_loaded", "Niederschlagsraster an den Messstationen abfragen", ["stations", "dem"],
    why="kein Niederschlagsraster geladen, nur das DEM")
add("de", "not_loaded", "Verknüpfe die Gemeinden mit der Steuerstatistik", ["munis"],
    why="keine Steuertabelle geladen")

# missing_field
add("de", "missing_field", "Bahnen mit mehr als 6 Plätzen pro Sessel", ["lifts"], why="kein Feld für Plätze pro Sessel")
add("de", "missing_field", "Hütten mit Duschen", ["huts"], why="kein Feld zu Duschen/Ausstattung")
add("de", "missing_field", "Wanderwege mit Asphaltbelag", ["trails"], why="kein Belagsfeld bei den Wanderwegen")

# chain
fu = hut_muni.values == "Fuldera"
add("de", "chain", "Hütten in Fuldera mit 500 m puffern", ["huts", "munis"],
    [c_len(int(fu.sum())), c_area(utm(buf("huts", 500, fu)).area.sum(), 0.025)], V(buf("huts", 500, fu)),
    {"alle Hütten": V(buf("huts", 500)), "Gemeinde gepuffert": V(M2[M2.name == "Fuldera"].buffer(500).to_frame("geometry"))})
rev = jt.dropna(subset=["revenue_chf"]).groupby("operator").revenue_chf.sum()
add("de", "chain", "Verknüpfe die Ticket-Tabelle mit den Bahnen (anlage_nr = lift_id) und summiere den Umsatz je Betreiber",
    ["lifts", "tickets"], [c_group(rev.values)], TB(grp(rev.index, rev.values, "operator")),
    {"nur Tabelle (L15 mitgezählt)": TB(grp(*zip(*K.groupby("operator").revenue_chf.sum().items()))),
     "Fahrgäste": TB(grp(rev.index, jt.groupby("operator").riders_2025.sum().values))})
hard = T.difficulty.isin(["T4", "T5", "T6"]).to_numpy()
th = gpd.clip(T2[hard], Z)
add("de", "chain", "Wanderwege ab T4 auf die Lawinenzonen zuschneiden", ["trails", "zones"],
    [c_length(utm(th).length.sum()), {"output": "vector", "expect": "sorted(set(out['difficulty'].tolist()))",
                                      "equals": repr(sorted(set(th.difficulty)))}],
    V(th.to_crs(32632)), {"alle Wege": V(tclip.to_crs(32632)), "nur T4": V(gpd.clip(T2[T.difficulty == "T4"], Z))})
prl = L.intersects(muni_poly("Pradalt")).to_numpy()
add("de", "chain", "Bahnen in der Gemeinde Pradalt auswählen und ihre Länge berechnen", ["lifts", "munis"],
    [c_len(int(prl.sum())), c_col("lift_id", ll[prl], rtol=0.01)], V(with_col("lifts", ll[prl], base=L[prl])),
    {"alle Bahnen": V(with_col("lifts", ll))})

# output_clause
sel("de", "output_clause", "Hütten mit mehr als 40 Betten als GeoJSON speichern", "huts", H.beds > 40,
    {"gpkg": V(sub("huts", H.beds > 40), "huetten.gpkg"), ">=": V(sub("huts", H.beds >= 40), "huetten.geojson")},
    extra=[c_suffix(".geojson")], fname="huetten.geojson")
add("de", "output_clause", "Exportiere die Wanderwege als CSV", ["trails"], [c_suffix(".csv", "any_table"), c_len(18, "any_table")],
    V(T, "trails.csv"), {"gpkg": V(T, "trails_out.gpkg")})
name_chk = lambda n: {"output": "vector", "expect": f"any('{n}' in o['path'].replace(chr(92), '/').split('/')[-1] for o in report['outputs'])", "equals": "True"}  # noqa: E731
add("de", "output_clause", "Puffer 100 m um die Bahnen, Ergebnis 'bahn_puffer' nennen", ["lifts"],
    [name_chk("bahn_puffer"), c_area(utm(buf("lifts", 100)).area.sum(), 0.025)], V(buf("lifts", 100), "bahn_puffer.gpkg"),
    {"anderer Name": V(buf("lifts", 100), "lifts_buffer.gpkg"), "10 m": V(buf("lifts", 10), "bahn_puffer.gpkg")})
sel("de", "output_clause", "Lawinenzonen der Stufe 4 und 5 als Shapefile speichern", "zones", Z.danger >= 4,
    {"gpkg": V(sub("zones", Z.danger >= 4), "zonen.gpkg"), "nur 5": Z.danger == 5}, extra=[c_suffix(".shp")], fname="zonen.shp")
add("de", "output_clause", "Schneestationen nach LV95 umprojizieren und als stationen.gpkg speichern", ["stations"],
    [c_suffix("stationen.gpkg"), c_crs(2056), c_len(10)], V(S2, "stationen.gpkg"),
    {"WGS84": V(S, "stationen.gpkg"), "anderer Name": V(S2, "snow_stations.gpkg")})

# statistics
snow_m = S.groupby(st_muni.values).snow_cm.mean()
add("de", "statistics", "Mittlere Schneehöhe je Gemeinde", ["stations", "munis"], [c_group(snow_m.values, rtol=0.001)],
    V(with_col("munis", per_muni(snow_m.to_dict()))),
    {"gesamt": A(f"{S.snow_cm.mean():.1f}"), "Summe": TB(grp(snow_m.index, S.groupby(st_muni.values).snow_cm.sum().values))})
amed = H.groupby("season").altitude.median()
add("de", "statistics", "Median der Hüttenhöhe je Saison", ["huts"], [c_group(amed.values)], TB(grp(amed.index, amed.values)),
    {"Mittelwert": TB(grp(amed.index, H.groupby('season').altitude.mean().values))})
cmax = L.groupby("type").capacity.max()
add("de", "statistics", "Maximale Förderleistung je Bahntyp", ["lifts"], [c_group(cmax.values)], TB(grp(cmax.index, cmax.values)),
    {"Mittel": TB(grp(cmax.index, L.groupby('type').capacity.mean().values)), "Summe": TB(grp(cap_type.index, cap_type.values))})
zmin, zmin_t = zonal(Z, "min"), zonal(Z, "min", all_touched=True)
tol_min = float(np.ceil(np.max(np.abs(np.array(zmin) - np.array(zmin_t))))) + 2
add("de", "statistics", "Minimale Geländehöhe je Lawinenzone (aus dem DEM)", ["zones", "dem"],
    [c_len(8), c_col("zone", [zmin[i] for i in Z.sort_values("zone").index], atol=tol_min)], V(with_col("zones", zmin)),
    {"Mittelwert": V(with_col("zones", zm)), "mit NoData": V(with_col("zones", zonal(Z, "min", ignore_nodata=False)))},
    {"all touched": V(with_col("zones", zmin_t))})
count_q("de", "statistics", "Durchschnittlicher Aufstieg der T3-Wege?", ["trails"], T[T.difficulty == "T3"].ascent_m.mean(),
        {"alle Wege": round(T.ascent_m.mean(), 1), "Summe": T[T.difficulty == "T3"].ascent_m.sum()})
count_q("de", "statistics", "Wie hoch liegt die höchste Hütte?", ["huts"], H.altitude.max(), {"tiefste": H.altitude.min()})

# raster
add("de", "raster", "Hangneigung in Prozent aus dem Höhenmodell", ["dem"], [c_ras("mean", rstat(SLOPE_PCT, "mean"), rel=0.05)],
    R(SLOPE_PCT), {"Grad": R(SLOPE_DEG)})
zd = masked_dem(zone_poly("D"))
add("de", "raster", "Höhenmodell auf die Lawinenzone D zuschneiden", ["dem", "zones"],
    [c_ras("mean", rstat(zd, "mean"), abs_=8), c_ras("max", rstat(zd, "max"), abs_=15)], R(zd),
    {"ungeschnitten": R(DEM), "Zone A": R(masked_dem(zone_poly("A")))})
ss = sample(S2)
add("de", "raster", "DEM-Werte an den Schneemessstationen abfragen", ["stations", "dem"], [c_len(10), c_col("code", ss, atol=20)],
    V(with_col("stations", ss)), {"an den Hütten": V(with_col("huts", sh))}, {"bilinear": V(with_col("stations", sample(S2, True)))})
count_q("de", "raster", "Durchschnittliche Höhe des Geländemodells?", ["dem"], rstat(DEM, "mean"),
        {"NoData mitgezählt": float(DEM.mean())}, abs_=0.5)
slm = zonal(M2, arr=SLOPE_DEG)
add("de", "raster", "Mittlere Hangneigung (Grad) je Gemeinde", ["dem", "munis"],
    [c_len(4), c_col("bfs_nr", [slm[i] for i in M.sort_values("bfs_nr").index], rtol=0.05)], V(with_col("munis", slm)),
    {"Höhe statt Neigung": V(with_col("munis", mm)), "Prozent": V(with_col("munis", zonal(M2, arr=SLOPE_PCT)))},
    {"Ränder berechnet": V(with_col("munis", zonal(M2, arr=SLOPE_DEG_EDGE)))})

# typo
sel("de", "typo", "Hüten mit mehr als 40 Bettem", "huts", H.beds > 40, {">=": H.beds >= 40})
sel("de", "typo", "Lawinenzohnen mit Stufe 5", "zones", Z.danger == 5, {">=4": Z.danger >= 4})
add("de", "typo", "Pufer 200 m um die Bahnen", ["lifts"], [c_len(12), c_area(utm(buf("lifts", 200)).area.sum(), 0.025)],
    V(buf("lifts", 200)), {"20 m": V(buf("lifts", 20))})

# open_ended
add("de", "open_ended", "Wo wäre ein guter Standort für eine neue Sesselbahn?", ["lifts", "dem", "zones"],
    why="Standortsuche ohne Kriterien")
add("de", "open_ended", "Wie kann man das Skigebiet attraktiver machen?", ["lifts", "huts"], why="offene Beratungsfrage")

# ambiguous
add("de", "ambiguous", "Schneide die Linien auf die Gemeinde Valdera zu", ["lifts", "trails", "munis"],
    why="zwei Linienlayer (Bahnen, Wanderwege) passen gleich gut")
add("de", "ambiguous", "Zähle die Punkte je Lawinenzone", ["huts", "stations", "zones"],
    why="zwei Punktlayer (Hütten, Schneestationen) passen gleich gut")
add("de", "ambiguous", "Zeig mir die Einträge mit einer Höhe über 2600", ["huts", "stations"],
    why="Hütten (altitude) und Stationen (elev_m) haben beide eine Höhe")


# ================================================================ 中文
# plain
add("zh", "plain", "把所有山屋缓冲 150 米", ["huts"], [c_len(20), c_area(utm(buf("huts", 150)).area.sum(), 0.025)],
    V(buf("huts", 150)), {"150 英尺": V(buf("huts", 45.72)), "15 米": V(buf("huts", 15))})
count_q("zh", "plain", "一共有多少条索道？", ["lifts"], len(L), {"只算吊椅": 4})
za = utm(Z).area / 1e6
add("zh", "plain", "计算每个雪崩区的面积（平方公里）", ["zones"], [c_len(8), c_col("zone", [za[i] for i in Z.sort_values("zone").index], rtol=0.01)],
    V(with_col("zones", za)), {"平方米": V(with_col("zones", za * 1e6)), "公顷": V(with_col("zones", za * 100))})
add("zh", "plain", "给山屋添加 LV95 坐标字段", ["huts"], [c_len(20), c_col("hut_id", H2.geometry.x, atol=1.0)],
    V(with_col("huts", H2.geometry.x, "x", base=with_col("huts", H2.geometry.y, "y"))),
    {"经纬度": V(with_col("huts", H.geometry.x, "x", base=with_col("huts", H.geometry.y, "y"))),
     "UTM": V(with_col("huts", reproj("huts", 32632).geometry.x, "x"))})
sel("zh", "plain", "筛选出吊厢缆车（gondola）", "lifts", L["type"] == "gondola", {"全部": np.ones(12, bool)})
sel("zh", "roles", "Zone Hut 周围 500 米内的索道", "lifts", near("lifts", H2[H.name == "Zone Hut"], 500),
    {"雪崩区附近的索道": near("lifts", Z, 500, margin=-1), "山屋": V(H[H.name == "Zone Hut"])}, inputs=["lifts", "huts"])

# each_per
add("zh", "each_per", "每个市镇有多少个山屋", ["huts", "munis"], [c_len(4), c_col("bfs_nr", counts_in_munis())],
    V(with_col("munis", counts_in_munis())), {"总数": A("20"), "积雪站": V(with_col("munis", counts_in_munis(layer="stations")))})
count_q("zh", "each_per", "所有山屋的床位总数是多少？", ["huts"], H.beds.sum(), {"平均": round(H.beds.mean(), 2), "最大": H.beds.max()})
sl = T.groupby("difficulty").length_km.sum()
add("zh", "each_per", "每种难度等级的步道总长度", ["trails"], [c_group(sl.values, rtol=0.01)], TB(grp(sl.index, sl.values)),
    {"总长": A(f"{T.length_km.sum():.2f}"), "平均": TB(grp(sl.index, T.groupby('difficulty').length_km.mean().values))})
add("zh", "each_per", "统计每个市镇内的积雪观测站数量", ["stations", "munis"],
    [c_len(4), c_col("bfs_nr", counts_in_munis(layer="stations"))], V(with_col("munis", counts_in_munis(layer="stations"))),
    {"总数": A("10"), "山屋": V(with_col("munis", counts_in_munis()))})
count_q("zh", "each_per", "全部索道的平均运量是多少", ["lifts"], round(L.capacity.mean(), 2),
        {"按类型最大": L.groupby('type').capacity.mean().max(), "总和": L.capacity.sum()}, rel=0.001)

# negation
sel("zh", "negation", "除了拖牵索道以外的所有索道", "lifts", L["type"] != "draglift", {"只有拖牵": L["type"] == "draglift"})
sel("zh", "negation", "不在雪崩区内的山屋", "huts", ~hut_in_zone, {"在雪崩区内": hut_in_zone}, inputs=["huts", "zones"])
sel("zh", "negation", "不是全年开放的山屋", "huts", H.season != "all year", {"全年开放": H.season == "all year"})
sel("zh", "negation", "找出没有穿过雪崩区的步道", "trails", ~trail_x_zone, {"穿过": trail_x_zone}, inputs=["trails", "zones"])
sel("zh", "negation", "Valdera 以外的积雪站", "stations", st_muni.values != "Valdera", {"Valdera 内": st_muni.values == "Valdera"},
    inputs=["stations", "munis"])
sel("zh", "negation", "危险等级不是 5 的雪崩区", "zones", Z.danger != 5, {"等于 5": Z.danger == 5, "小于 5 以外": Z.danger >= 5})

# roles
sel("zh", "roles", "距离索道 200 米以内的山屋", "huts", hut_near_lift200, {"反过来": V(sub("lifts", lift_near_hut200))},
    inputs=["huts", "lifts"])
sel("zh", "roles", "距离山屋 200 米以内的索道", "lifts", lift_near_hut200, {"反过来": V(sub("huts", hut_near_lift200))},
    inputs=["lifts", "huts"])
add("zh", "roles", "用雪崩区裁剪步道", ["trails", "zones"],
    [c_length(utm(tclip).length.sum()), {"output": "vector", "expect": "sorted(set(out['trail_id'].tolist()))",
                                         "equals": repr(ids_of("trails", trail_x_zone))}],
    V(tclip.to_crs(32632)), {"整条步道": V(sub("trails", trail_x_zone)), "用步道裁剪雪崩区": V(Z[Z.intersects(T2.union_all())])})
zclip = gpd.clip(Z, M2)
add("zh", "roles", "用市镇边界裁剪雪崩区", ["zones", "munis"],
    [c_area(utm(zclip).area.sum()), {"output": "vector", "expect": "sorted(set(out['zone'].tolist()))", "equals": repr(sorted(Z.zone))}],
    V(zclip), {"用雪崩区裁剪市镇": V(mclip.to_crs(4326)), "整个市镇": V(M)})
add("zh", "roles", "每个雪崩区内有多少个山屋", ["huts", "zones"],
    [c_len(8), c_col("zone", [hz[i] for i in Z.sort_values("zone").index])], V(with_col("zones", hz)),
    {"每个山屋所在雪崩区数": V(with_col("huts", hut_in_zone.astype(int)))})
snm, snfull = nearest_map("stations", "huts")
add("zh", "roles", "离每个积雪站最近的山屋", ["stations", "huts"], [c_len(10), c_map("code", snm)],
    V(S.assign(near_hut=[snfull[k] for k in S.code])), {"山屋找最近站": V(H.assign(near_code=[nfull[k] for k in H.hut_id]))})

# crs_roles
add("zh", "crs_roles", "步道数据是 UTM 32N 的，请转换成 WGS84 经纬度", ["trails"],
    [c_crs(4326), c_bounds(reproj("trails", 4326).total_bounds, 1e-5)], V(reproj("trails", 4326)),
    {"未变": V(T), "LV95": V(reproj("trails", 2056))})
add("zh", "crs_roles", "把市镇从 EPSG:4326 投影到 EPSG:2056", ["munis"], [c_crs(2056), c_bounds(M2.total_bounds, 1.0)], V(M2),
    {"未变": V(M), "只改定义": V(M.set_crs(2056, allow_override=True))})
add("zh", "crs_roles", "将索道转换为 CH1903 / LV03 坐标", ["lifts"], [c_crs(21781), c_bounds(reproj("lifts", 21781).total_bounds, 1.0)],
    V(reproj("lifts", 21781)), {"LV95": V(L), "WGS84": V(reproj("lifts", 4326))})
add("zh", "crs_roles", "山屋是 LV95 坐标，请转成 WGS84", ["huts"],
    why="所述源坐标系与文件矛盾：huts.gpkg 已是 EPSG:4326（WGS84），不是 LV95")

# numbers
sel("zh", "numbers", "床位超过 40 个的山屋", "huts", H.beds > 40, {">=": H.beds >= 40})
sel("zh", "numbers", "床位不少于 40 的山屋", "huts", H.beds >= 40, {">": H.beds > 40})
sel("zh", "numbers", "运量至少 2400 人/小时的索道", "lifts", L.capacity >= 2400, {">": L.capacity > 2400})
sel("zh", "numbers", "积雪深度不低于 120 厘米的观测站", "stations", S.snow_cm >= 120, {">": S.snow_cm > 120})
sel("zh", "numbers", "海拔超过 2500 米的山屋", "huts", H.altitude > 2500, {">=": H.altitude >= 2500})
sel("zh", "numbers", "长度超过 1.8 公里的步道", "trails", tl > 1800, {"1.8 英里": tl > 2896.8, "18 公里": tl > 18000})
sel("zh", "numbers", "开放月份不超过 4 个月的山屋", "huts", H.open_months <= 4, {"<": H.open_months < 4})
sel("zh", "numbers", "1990 年及以前建成的索道", "lifts", L.year <= 1990, {"<": L.year < 1990})
sel("zh", "numbers", "危险等级 3 级以上的雪崩区", "zones", Z.danger >= 3, {"> 3": Z.danger > 3})

# not_loaded
add("zh", "not_loaded", "统计每个市镇的酒店数量", ["munis", "huts"], why="没有加载酒店图层（山屋不是酒店）")
add("zh", "not_loaded", "把滑雪道和步道做相交分析", ["trails", "lifts"], why="没有加载滑雪道（雪道）图层，索道不是雪道")
add("zh", "not_loaded", "计算 2020 年 DEM 与现在 DEM 的高程变化", ["dem"], why="只加载了一个 DEM，没有 2020 年的 DEM")
add("zh", "not_loaded", "把索道售票数据连接到索道上", ["lifts"], why="售票表 lift_tickets.csv 不在输入中")

# missing_field
add("zh", "missing_field", "筛选出有 WiFi 的山屋", ["huts"], why="山屋没有 WiFi 字段")
add("zh", "missing_field", "每条索道的运行速度是多少", ["lifts"], why="索道没有速度字段")
add("zh", "missing_field", "按路面类型统计步道", ["trails"], why="步道没有路面类型字段")

# chain
t56 = T.difficulty.isin(["T5", "T6"]).to_numpy()
add("zh", "chain", "先选出 T5 和 T6 的步道，再缓冲 100 米", ["trails"],
    [c_len(int(t56.sum())), c_area(utm(buf("trails", 100, t56)).area.sum(), 0.025)], V(buf("trails", 100, t56)),
    {"全部步道": V(buf("trails", 100)), "只有 T6": V(buf("trails", 100, (T.difficulty == "T6").to_numpy()))})
va = hut_muni.values == "Valdera"
count_q("zh", "chain", "找出 Valdera 的山屋并计算它们的平均床位", ["huts", "munis"], H[va].beds.mean(),
        {"全部山屋": round(H.beds.mean(), 2), "总和": H[va].beds.sum()}, rel=0.002)
rt = jt.groupby("type").riders_2025.sum()
add("zh", "chain", "将门票表按 anlage_nr 连接到索道，再按索道类型汇总乘客数", ["lifts", "tickets"], [c_group(rt.values)],
    TB(grp(rt.index, rt.values)), {"运量": TB(grp(cap_type.index, cap_type.values)),
                                  "平均": TB(grp(rt.index, jt.groupby('type').riders_2025.mean().values))})
z4 = (Z.danger >= 4).to_numpy()
sz4 = [int(g.contains(S2.geometry).sum()) for g in Z[z4].geometry]
add("zh", "chain", "选出危险等级 4 以上的雪崩区，再统计其中的积雪站", ["zones", "stations"],
    [c_len(int(z4.sum())), c_col("zone", [sz4[i] for i in np.argsort(Z[z4].zone.to_numpy())])],
    V(with_col("zones", sz4, base=Z[z4])),
    {"> 4": V(with_col("zones", [int(g.contains(S2.geometry).sum()) for g in Z[Z.danger > 4].geometry], base=Z[Z.danger > 4])),
     "全部雪崩区": V(with_col("zones", [int(g.contains(S2.geometry).sum()) for g in Z.geometry]))})

# output_clause
sel("zh", "output_clause", "把全年开放的山屋导出为 GeoJSON", "huts", H.season == "all year",
    {"gpkg": V(sub("huts", H.season == "all year"), "huts_allyear.gpkg")}, extra=[c_suffix(".geojson")], fname="huts_allyear.geojson")
add("zh", "output_clause", "将积雪站另存为 shapefile", ["stations"], [c_suffix(".shp"), c_len(10)], V(S, "stations.shp"),
    {"gpkg": V(S, "stations.gpkg")})
add("zh", "output_clause", "缓冲索道 300 米，结果命名为 lift_buffer_300", ["lifts"],
    [name_chk("lift_buffer_300"), c_area(utm(buf("lifts", 300)).area.sum(), 0.025)], V(buf("lifts", 300), "lift_buffer_300.gpkg"),
    {"其他名字": V(buf("lifts", 300), "lifts_buffer.gpkg"), "30 米": V(buf("lifts", 30), "lift_buffer_300.gpkg")})
add("zh", "output_clause", "把步道导出成 CSV 表格", ["trails"], [c_suffix(".csv", "any_table"), c_len(18, "any_table")],
    V(T, "trails.csv"), {"geojson": V(T, "trails.geojson")})
add("zh", "output_clause", "将雪崩区转换为 WGS84 并保存为 zones_wgs84.geojson", ["zones"],
    [c_suffix("zones_wgs84.geojson"), c_crs(4326), c_bounds(reproj("zones", 4326).total_bounds, 1e-5)],
    V(reproj("zones", 4326), "zones_wgs84.geojson"),
    {"未转换": V(Z, "zones_wgs84.geojson"), "其他名字": V(reproj("zones", 4326), "avalanche_zones.geojson")})

# statistics
mb = H.groupby("season").beds.mean()
add("zh", "statistics", "每个季节类型山屋的平均床位数", ["huts"], [c_group(mb.values, rtol=0.001)], TB(grp(mb.index, mb.values)),
    {"总和": TB(grp(mb.index, H.groupby('season').beds.sum().values)), "中位数": TB(grp(mb.index, H.groupby('season').beds.median().values))})
amm = H.groupby(hut_muni.values).altitude.median()
add("zh", "statistics", "各市镇山屋海拔的中位数", ["huts", "munis"], [c_group(amm.values)], TB(grp(amm.index, amm.values)),
    {"平均": TB(grp(amm.index, H.groupby(hut_muni.values).altitude.mean().values))})
count_q("zh", "statistics", "积雪深度的最小值是多少？", ["stations"], S.snow_cm.min(), {"最大": S.snow_cm.max()})
mmax, mmax_t = zonal(M2, "max"), zonal(M2, "max", all_touched=True)
tol_max = float(np.ceil(np.max(np.abs(np.array(mmax) - np.array(mmax_t))))) + 2
add("zh", "statistics", "根据 DEM 求每个市镇的最高海拔", ["dem", "munis"],
    [c_len(4), c_col("bfs_nr", [mmax[i] for i in M.sort_values("bfs_nr").index], atol=tol_max)], V(with_col("munis", mmax)),
    {"平均": V(with_col("munis", mm)), "山屋最高": V(with_col("munis", per_muni(mx.to_dict())))},
    {"all touched": V(with_col("munis", mmax_t))})
asc = T.groupby("difficulty").ascent_m.mean()
add("zh", "statistics", "按难度统计步道的平均爬升", ["trails"], [c_group(asc.values, rtol=0.001)], TB(grp(asc.index, asc.values)),
    {"总和": TB(grp(asc.index, T.groupby('difficulty').ascent_m.sum().values)), "总体": A(f"{T.ascent_m.mean():.1f}")})
zmax = zonal(Z, "max")
zmax_t = zonal(Z, "max", all_touched=True)
tol_zmax = float(np.ceil(np.max(np.abs(np.array(zmax) - np.array(zmax_t))))) + 2
zs = Z.sort_values("zone").index
add("zh", "statistics", "每个雪崩区的 DEM 平均高程和最高高程", ["zones", "dem"],
    [c_len(8), c_col("zone", [zm[i] for i in zs], atol=6), c_col("zone", [zmax[i] for i in zs], atol=tol_zmax)],
    V(with_col("zones", zm, "mean", base=with_col("zones", zmax, "max"))),
    {"只有平均": V(with_col("zones", zm)), "最小和平均": V(with_col("zones", zm, "mean", base=with_col("zones", zmin, "min")))},
    {"all touched": V(with_col("zones", zonal(Z, all_touched=True), "mean", base=with_col("zones", zmax_t, "max")))})

# raster
add("zh", "raster", "计算 DEM 的坡度（单位：度）", ["dem"], [c_ras("mean", rstat(SLOPE_DEG, "mean"), rel=0.05)], R(SLOPE_DEG),
    {"百分比": R(SLOPE_PCT), "原 DEM": R(DEM)}, {"边缘也计算": R(SLOPE_DEG_EDGE)})
fd = masked_dem(muni_poly("Fuldera"))
add("zh", "raster", "用 Fuldera 市镇裁剪 DEM", ["dem", "munis"],
    [c_ras("mean", rstat(fd, "mean"), abs_=5), c_ras("max", rstat(fd, "max"), abs_=15)], R(fd),
    {"未裁剪": R(DEM), "Pradalt": R(pra)})
add("zh", "raster", "在山屋位置提取高程值", ["huts", "dem"], [c_len(20), c_col("hut_id", sh, atol=20)], V(with_col("huts", sh)),
    {"积雪站": V(with_col("stations", ss))}, {"双线性": V(with_col("huts", sample(H2, True)))})
count_q("zh", "raster", "DEM 的最低点是多少米？", ["dem"], rstat(DEM, "min"), {"最高": rstat(DEM, "max"), "无数据值": NODATA}, abs_=0.5)
HS = gdaldem("hillshade")
HS_E = gdaldem("hillshade", "-compute_edges")
HS_Q = gdaldem("hillshade", "-az", "300", "-alt", "40")  # QGIS's own defaults (azimuth 300, altitude 40)
hs_lo, hs_hi = sorted([rstat(HS, "mean"), rstat(HS_Q, "mean")])
add("zh", "raster", "生成 DEM 的山体阴影", ["dem"],
    [c_ras("mean", (hs_lo + hs_hi) / 2, rel=round((hs_hi - hs_lo) / (hs_lo + hs_hi) + 0.03, 3)), c_ras("max", 255, abs_=60)],
    R(HS), {"原 DEM": R(DEM), "坡度": R(SLOPE_DEG)}, {"边缘也计算": R(HS_E), "QGIS 默认 300/40": R(HS_Q)})

# typo
add("zh", "typo", "把锁道缓充 100 米", ["lifts"], [c_len(12), c_area(utm(buf("lifts", 100)).area.sum(), 0.025)], V(buf("lifts", 100)),
    {"10 米": V(buf("lifts", 10)), "山屋": V(buf("huts", 100))})
sel("zh", "typo", "床为超过40的山屋", "huts", H.beds > 40, {">=": H.beds >= 40})
add("zh", "typo", "统计每个市真的山屋数量", ["huts", "munis"], [c_len(4), c_col("bfs_nr", counts_in_munis())],
    V(with_col("munis", counts_in_munis())), {"总数": A("20")})

# open_ended
add("zh", "open_ended", "帮我评估一下这个滑雪场的雪崩风险", ["zones", "lifts", "trails"], why="开放式评估，没有明确的操作")
add("zh", "open_ended", "哪里最适合新建一个观景台？", ["dem", "trails"], why="选址问题，没有给出标准")

# ambiguous
add("zh", "ambiguous", "把线图层缓冲 50 米", ["lifts", "trails"], why="两个线图层（索道、步道）同样符合")
add("zh", "ambiguous", "统计每个市镇里的点数", ["huts", "stations", "munis"], why="两个点图层（山屋、积雪站）同样符合")
add("zh", "ambiguous", "在点位上提取 DEM 值", ["huts", "stations", "dem"], why="两个点图层（山屋、积雪站）同样符合")
