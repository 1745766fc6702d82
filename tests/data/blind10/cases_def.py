"""blind10 cases: requests per language, reference results computed here with geopandas/numpy/rasterio,
and misreadings. validate.py writes the YAML from this and grades references and misreadings."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.features import geometry_mask

HERE = Path(__file__).resolve().parent
D = HERE / "data"
M = 25832  # the measuring frame (ETRS89 / UTM 32N)

# ----------------------------------------------------------------------------------------- data
VY = gpd.read_file(D / "vineyards.gpkg")
VL = gpd.read_file(D / "villages.gpkg")
FZ = gpd.read_file(D / "flood_zones.gpkg")
FZM = FZ.to_crs(M)
WN = gpd.read_file(D / "wineries.geojson")
WNM = WN.to_crs(M)
CP = gpd.read_file(D / "cycle_paths.shp")
CPM = CP.to_crs(M)
RV = gpd.read_file(D / "river.gpkg")
RVM = RV.to_crs(M)
FE = pd.read_csv(D / "festivals.csv")
FEG = gpd.GeoDataFrame(FE, geometry=gpd.points_from_xy(FE.lon, FE.lat), crs=4326)
FEM = FEG.to_crs(M)
REG = pd.read_csv(D / "estate_register.csv")
with rasterio.open(D / "dem.tif") as _src:
    DEM = _src.read(1).astype("float64")
    PROF = _src.profile.copy()
    TRANS = _src.transform
NODATA = -9999.0
VALID = DEM != NODATA


def zone(rp):
    return FZM.loc[FZM.return_period == rp].geometry.iloc[0]


def within_dist(src, ref, d):
    return src.geometry.apply(lambda g: ref.distance(g).min() <= d)


def vil_of(gdf):
    return [int(VL.loc[VL.intersects(g.representative_point()), "village_id"].iloc[0]) for g in gdf.geometry]


def nearest_key(src, dst, dkey):
    return [dst.loc[dst.distance(g).idxmin(), dkey] for g in src.geometry]


# -------------------------------------------------------------------------------- result objects
def V(gdf, name="result.gpkg"):
    return ("vector", gdf, name)


def T(df, name="result.csv"):
    return ("table", df, name)


def R(arr, name="result.tif"):
    return ("raster", arr, name)


def A(text):
    return ("answer", text, None)


# ----------------------------------------------------------------------------------------- checks
def c_ids(field, vals, output="vector"):
    return {"output": output, "expect": f"sorted(int(float(v)) for v in out[{field!r}])",
            "equals": repr(sorted(int(v) for v in vals))}


def c_order(field, vals, output="vector"):
    return {"output": output, "expect": f"[int(float(v)) for v in out[{field!r}]]", "equals": repr([int(v) for v in vals])}


def c_strs(field, vals, output="vector"):
    return {"output": output, "expect": f"sorted(str(v) for v in out[{field!r}])", "equals": repr(sorted(map(str, vals)))}


def c_len(n, output="vector"):
    return {"output": output, "expect": "len(out)", "equals": str(int(n))}


def c_map(key, mapping, rel=0.0, abs_=0.0, output="vector", str_key=False):
    """Some column of the output, looked up by key, equals these values (any column: names are the product's)."""
    keys = list(mapping)
    vals = [round(float(mapping[k]), 4) for k in keys]
    conv = "out[{k!r}].astype(str)" if str_key else "pd.to_numeric(out[{k!r}]).astype(int)"
    conv = conv.format(k=key)
    expr = (f"len(out) == {len(keys)} and (lambda o: any(np.allclose(pd.to_numeric(o[c], errors='coerce')"
            f".astype(float).to_numpy(), {vals!r}, rtol={rel}, atol={abs_}) for c in o.columns if c != 'geometry'))"
            f"(out.assign(_k_={conv}).set_index('_k_').loc[{keys!r}])")
    return {"output": output, "expect": expr, "equals": "True"}


def c_geom_area(key, mapping, rel=0.01):
    """The area (ha, measured in UTM 32N) of each output feature, looked up by a text key."""
    keys = list(mapping)
    vals = [round(float(mapping[k]), 4) for k in keys]
    expr = (f"len(out) == {len(keys)} and bool(np.allclose((lambda o: (o.to_crs({M}).area / 1e4).to_numpy())"
            f"(out.assign(_k_=out[{key!r}].astype(str)).set_index('_k_').loc[{keys!r}]), {vals!r}, rtol={rel}))")
    return {"output": "vector", "expect": expr, "equals": "True"}


def c_area(m2, rel=0.01, output="vector"):
    return {"output": output, "expect": f"float(out.to_crs({M}).area.sum())", "equals": repr(round(float(m2), 1)),
            "rel": rel}


def c_length(m, rel=0.01, output="vector"):
    return {"output": output, "expect": f"float(out.to_crs({M}).length.sum())", "equals": repr(round(float(m), 1)),
            "rel": rel}


def c_crs(epsg, output="vector"):
    return {"output": output, "crs": int(epsg)}


def c_bounds(gdf, tol=5.0, output="vector"):
    b = [round(float(v), 0) for v in gdf.to_crs(M).total_bounds]
    return {"output": output, "expect": f"[round(float(v), 0) for v in out.to_crs({M}).total_bounds]", "equals": repr(b),
            "abs": tol}


def c_suffix(s, output="vector"):
    return {"output": output, "suffix": s}


def c_num(v, rel=0.0, abs_=0.0):
    d = {"answer_number": repr(round(float(v), 4))}
    if rel:
        d["rel"] = rel
    if abs_:
        d["abs"] = abs_
    return d


def c_rstat(key, v, rel=0.0, abs_=0.0):
    d = {"output": "raster", "expect": f"raster_stats(out)[{key!r}]", "equals": repr(round(float(v), 3))}
    if rel:
        d["rel"] = rel
    if abs_:
        d["abs"] = abs_
    return d


def c_rcells(n, abs_=0):
    expr = ("(lambda r: int(np.count_nonzero(np.isfinite(a := r.read(1).astype(float)) & (a != (r.nodata if r.nodata "
            "is not None else np.nan)))))(__import__('rasterio').open(out))")
    return {"output": "raster", "expect": expr, "equals": str(int(n)), "abs": abs_}


def c_levels(levels):
    expr = ("any(sorted(set(pd.to_numeric(out[c], errors='coerce').dropna().round(1).tolist())) == "
            f"{[float(v) for v in levels]!r} for c in out.columns if c != 'geometry')")
    return {"output": "vector", "expect": expr, "equals": "True"}


# ------------------------------------------------------------------------------------ operations
def op_select(layer, key, mask, mis=(), name="result.gpkg", extra=(), output="vector"):
    ref = V(layer[mask].copy(), name)
    checks = [c_ids(key, layer.loc[mask, key], output)] + list(extra)
    return ref, checks, [(lbl, V(layer[m].copy(), nm if nm else name)) for lbl, m, nm in _mis3(mis)]


def _mis3(mis):
    for m in mis:
        yield (m[0], m[1], m[2] if len(m) > 2 else None)


def per_key(layer, key, values, rel=0.0, abs_=0.0, output="vector", str_key=False):
    out = layer.copy()
    out["value_"] = values
    kind = V if output == "vector" else T
    return kind(out), c_map(key, dict(zip(layer[key], values)), rel, abs_, output if output == "vector" else "any_table",
                           str_key)


def group_table(df, key, series):
    t = pd.DataFrame({key: series.index, "value_": series.values})
    return T(t), c_map(key, dict(zip(t[key], t["value_"])), 0.01, 0.01, "any_table", str_key=not pd.api.types.is_numeric_dtype(df[key]))


def answer(v, rel=0.0, abs_=0.0, mis=()):
    return A(f"The result is {v:.4f}."), [c_num(v, rel, abs_)], [(lbl, A(f"The result is {w:.4f}.")) for lbl, w in mis]


def buffer_m(gdfm, d):
    return gdfm.buffer(d, resolution=16)


def clip_lines(lines, poly):
    g = lines.copy()
    g["geometry"] = g.intersection(poly)
    return g[~g.is_empty]


def counts_in(poly, pts):
    return [int(pts.within(g).sum()) for g in poly.geometry]


def reproject(gdf, epsg, assign=False):
    return gdf.set_crs(epsg, allow_override=True) if assign else gdf.to_crs(epsg)


def op_crs(layer, epsg, mis_epsg=(), assign_mis=True, name="result.gpkg"):
    ref = reproject(layer, epsg)
    checks = [c_crs(epsg), c_bounds(layer)]
    mis = [(f"left in / sent to EPSG:{e}", V(reproject(layer, e), name)) for e in mis_epsg]
    if assign_mis:
        mis.append(("CRS assigned, coordinates not transformed", V(reproject(layer, epsg, assign=True), name)))
    return V(ref, name), checks, mis


# ------------------------------------------------------------------------------------ raster helpers
def zonal(poly, stat="mean", with_nodata=False, all_touched=False):
    out = []
    for g in poly.to_crs(M).geometry:
        inside = ~geometry_mask([g], out_shape=DEM.shape, transform=TRANS, all_touched=all_touched)
        sel = inside if with_nodata else inside & VALID
        vals = DEM[sel]
        out.append(float(getattr(np, stat)(vals)))
    return out


def sample(pts):
    with rasterio.open(D / "dem.tif") as src:
        return [float(v[0]) for v in src.sample([(g.x, g.y) for g in pts.to_crs(M).geometry])]


def sample_bilinear(pts):
    inv = ~TRANS
    out = []
    for g in pts.to_crs(M).geometry:
        c, r = inv * (g.x, g.y)
        c, r = c - 0.5, r - 0.5
        c0, r0 = int(np.floor(c)), int(np.floor(r))
        fc, fr = c - c0, r - r0
        q = DEM[r0:r0 + 2, c0:c0 + 2]
        out.append(float(q[0, 0] * (1 - fc) * (1 - fr) + q[0, 1] * fc * (1 - fr) + q[1, 0] * (1 - fc) * fr + q[1, 1] * fc * fr))
    return out


def slope(percent=False, edges=False, fill=False):
    z = np.where(VALID, DEM, np.nan)
    if fill:  # QGIS-like: a missing neighbour takes the centre cell's value, the border too
        zz = np.pad(z, 1, mode="edge")
        cen = np.pad(z, 1, mode="edge")
        out = np.full(z.shape, np.nan)
        win = [zz[r:r + z.shape[0], c:c + z.shape[1]] for r in range(3) for c in range(3)]
        win = [np.where(np.isfinite(w), w, z) for w in win]
        a, b, cc, d, _e, f, g, h, i = win
        dzdx = ((cc + 2 * f + i) - (a + 2 * d + g)) / (8 * 20.0)
        dzdy = ((g + 2 * h + i) - (a + 2 * b + cc)) / (8 * 20.0)
        sl = np.hypot(dzdx, dzdy)
        sl = sl * 100 if percent else np.degrees(np.arctan(sl))
        out = np.where(np.isfinite(z), sl, np.nan)
        del cen
        return np.where(np.isfinite(out), out, NODATA)
    if edges:
        z = np.pad(z, 1, mode="edge")
    else:
        z = np.pad(z, 1, constant_values=np.nan)
    c = 20.0
    a, b, cc = z[:-2, :-2], z[:-2, 1:-1], z[:-2, 2:]
    d, f = z[1:-1, :-2], z[1:-1, 2:]
    g, h, i = z[2:, :-2], z[2:, 1:-1], z[2:, 2:]
    dzdx = ((cc + 2 * f + i) - (a + 2 * d + g)) / (8 * c)
    dzdy = ((g + 2 * h + i) - (a + 2 * b + cc)) / (8 * c)
    s = np.hypot(dzdx, dzdy)
    s = s * 100 if percent else np.degrees(np.arctan(s))
    return np.where(np.isfinite(s), s, NODATA)


def clip_dem(poly_m):
    inside = ~geometry_mask([poly_m], out_shape=DEM.shape, transform=TRANS)
    return np.where(inside & VALID, DEM, NODATA)


def rstats(arr):
    v = arr[(arr != NODATA) & np.isfinite(arr)]
    return {"min": float(v.min()), "max": float(v.max()), "mean": float(v.mean()), "cells": int(v.size)}


def contours_levels(step):
    v = DEM[VALID]
    lo = np.ceil(v.min() / step) * step
    return list(np.arange(lo, v.max(), step))


def fake_contours(levels):
    return gpd.GeoDataFrame({"elev": levels}, geometry=gpd.points_from_xy([X + 0.0 for X in range(len(levels))],
                                                                           [0.0] * len(levels)), crs=M)


# ============================================================================ reference numbers
RIES = VY.variety == "Riesling"
ORG = VY.organic == "yes"
VY_IN100 = VY.intersects(zone(100))
VY_IN1000 = VY.intersects(zone(1000))
WN_IN1000 = WNM.within(zone(1000))
FE_IN1000 = FEM.within(zone(1000))
TASTE = WN.tasting_room == "yes"
ASPH = CP.surface == "asphalt"
GRAVEL = CP.surface == "gravel"


def wn_near_paths(d):
    return within_dist(WNM, CPM, d).to_numpy()


def cp_near_wn(d):
    return within_dist(CPM, WNM, d).to_numpy()


def vy_near_wn(d):
    return within_dist(VY, WNM, d).to_numpy()


def wn_near_vy(d):
    return within_dist(WNM, VY, d).to_numpy()


def fe_near_paths(d):
    return within_dist(FEM, CPM, d).to_numpy()


VY_VILLAGE = vil_of(VY)
WN_VILLAGE = vil_of(WNM)
WN_PER_VILLAGE = counts_in(VL, WNM)
FE_PER_VILLAGE = counts_in(VL, FEM)
PATH_LEN = CPM.length
VY_AREA_HA = VY.area / 1e4


def village(name):
    return VL.loc[VL.name == name].geometry.iloc[0]


# ================================================================================== case builders
CASES: list[dict] = []


def add(cid, cls, request, inputs, op=None, why=None):
    lang = cid[:2]
    case = {"id": cid, "lang": lang, "class": cls, "request": request, "inputs": [f"b:{i}" for i in inputs]}
    if op is None:
        case["expect"] = "decline"
        case["why"] = why
        case["_ref"], case["_mis"], case["_alt"] = None, [], []
    else:
        ref, checks, mis = op[:3]
        case["expect"] = "answer"
        case["checks"] = checks
        case["_ref"], case["_mis"] = ref, mis
        case["_alt"] = op[3] if len(op) > 3 else []  # other correct results (other algorithms) that must pass too
    CASES.append(case)


# ---------------------------------------------------------------------------- shared operations
def o_variety(v, neg=False):
    m = (VY.variety == v)
    mm = ~m if neg else m
    return op_select(VY, "vineyard_id", mm, [("whole layer", VY.index == VY.index), ("negation flipped", ~mm)])


def o_tasting(yes=True):
    m = TASTE if yes else ~TASTE
    return op_select(WN, "estate_id", m, [("whole layer", WN.index == WN.index), ("negation flipped", ~m)])


def o_organic(yes=True):
    m = ORG if yes else ~ORG
    return op_select(VY, "vineyard_id", m, [("whole layer", VY.index == VY.index), ("negation flipped", ~m)])


def o_cmp(layer, key, field, op, val, alt, extra_mis=()):
    ops = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}
    m = ops[op](layer[field], val)
    mis = [(f"{alt} instead of {op}", ops[alt](layer[field], val))] + list(extra_mis)
    return op_select(layer, key, m, mis)


def o_within(src, srcm, skey, ref, refm, rkey, d, mis_far=True):
    m = within_dist(srcm, refm, d).to_numpy()
    rm = within_dist(refm, srcm, d).to_numpy()
    ref_res, checks, _ = op_select(src, skey, m)
    mis = [("roles swapped", V(ref[rm].copy()))]
    if mis_far:
        mis.append(("farther instead of within", V(src[~m].copy())))
    return ref_res, checks, mis


def o_far(src, srcm, skey, refm, d):
    m = ~within_dist(srcm, refm, d).to_numpy()
    return op_select(src, skey, m, [("negation dropped (within)", ~m),
                                    ("distance read in feet", ~within_dist(srcm, refm, d * 0.3048).to_numpy())])


def o_vy_flood(rp, outside=False):
    m = VY.intersects(zone(rp))
    other = 1000 if rp == 100 else 100
    m2 = VY.intersects(zone(other))
    if outside:
        return op_select(VY, "vineyard_id", ~m, [("negation dropped", m), (f"HQ{other} instead", ~m2)])
    return op_select(VY, "vineyard_id", m, [("negation added", ~m), (f"HQ{other} instead", m2)])


def o_count_wn_per_village():
    ref, chk = per_key(VL, "village_id", WN_PER_VILLAGE)
    return ref, [chk], [("one total", A("There are 15 wineries.")),
                        ("village joined to each winery", V(WN.assign(village_id=WN_VILLAGE)))]


def o_count_fe_per_village():
    ref, chk = per_key(VL, "village_id", FE_PER_VILLAGE)
    return ref, [chk], [("one total", A("There are 12 festivals.")),
                        ("wineries counted", per_key(VL, "village_id", WN_PER_VILLAGE)[0])]


def o_path_lengths():
    ref, chk = per_key(CP, "path_id", PATH_LEN.round(2).tolist(), rel=0.005)
    return ref, [chk], [("one total", A(f"Total length {PATH_LEN.sum():.1f} m")),
                        ("dissolved into one line", V(CP.dissolve().assign(path_id=1)))]


def o_total_path_km():
    return answer(PATH_LEN.sum() / 1000, rel=0.005, mis=[("longest path only", PATH_LEN.max() / 1000),
                                                        ("in metres", PATH_LEN.sum())])


def o_variety_area():
    s = VY.groupby("variety")["area_ha"].sum()
    ref, chk = group_table(VY, "variety", s)
    n = VY.groupby("variety").size()
    return ref, [chk], [("one total", A(f"{VY.area_ha.sum():.2f} ha")), ("count per variety", group_table(VY, "variety", n)[0])]


def o_area_each_vy():
    ref, chk = per_key(VY, "vineyard_id", VY_AREA_HA.round(4).tolist(), rel=0.01)
    return ref, [chk], [("one total", A(f"{VY_AREA_HA.sum():.2f} ha")),
                        ("in square metres", per_key(VY, "vineyard_id", VY.area.tolist())[0])]


def o_dissolve_variety(mask=None):
    g = VY if mask is None else VY[mask]
    ref = g.dissolve("variety").reset_index()
    areas = ref.area / 1e4
    chk = c_geom_area("variety", dict(zip(ref.variety, areas.round(4))), 0.01)
    mis = [("dissolved into one", V(g.dissolve().reset_index(drop=True)))]
    if mask is not None:
        whole = VY.dissolve("variety").reset_index()
        mis.append(("filter dropped", V(whole)))
    return V(ref), [c_len(len(ref)), chk], mis


def o_crs_paths_to(epsg):
    return op_crs(CP, epsg, mis_epsg=[31466])


def o_buffer_wn(d):
    b = buffer_m(WNM, d)
    ref = gpd.GeoDataFrame(WN.drop(columns="geometry"), geometry=b, crs=M)
    mis = [("feet", V(gpd.GeoDataFrame(geometry=buffer_m(WNM, d * 0.3048), crs=M))),
           ("radius read as diameter", V(gpd.GeoDataFrame(geometry=buffer_m(WNM, d / 2), crs=M)))]
    return V(ref), [c_len(15), c_area(b.area.sum(), 0.02)], mis


def o_nearest(src, srcm, skey, dst, dstm, dkey):
    vals = nearest_key(srcm, dstm, dkey)
    ref, chk = per_key(src, skey, vals)
    rvals = nearest_key(dstm, srcm, skey)
    mis = [("roles swapped", per_key(dst, dkey, rvals)[0])]
    return ref, [chk], mis


def o_join_village_to(layer, layerm, key):
    vals = vil_of(layerm)
    ref, chk = per_key(layer, key, vals)
    return ref, [chk], [("count per village instead", per_key(VL, "village_id", counts_in(VL, layerm))[0])]


def o_clip_paths(poly, mask=None, mis_poly=None):
    g = CPM if mask is None else CPM[mask]
    c = clip_lines(g, poly)
    mis = [("selected, not clipped", V(g[g.intersects(poly)].copy()))]
    if mis_poly is not None:
        mis.append(("other polygon", V(clip_lines(g, mis_poly))))
    if mask is not None:
        mis.append(("filter dropped", V(clip_lines(CPM, poly))))
    return V(c), [c_length(c.length.sum(), 0.01)], mis


def o_mean_slope_variety():
    s = VY.groupby("variety")["slope_pct"].mean()
    ref, chk = group_table(VY, "variety", s)
    return ref, [chk], [("overall mean", A(f"{VY.slope_pct.mean():.2f}")),
                        ("median per variety", group_table(VY, "variety", VY.groupby("variety")["slope_pct"].median())[0])]


def o_owner_bottles():
    s = REG.groupby("owner_type")["bottles_per_year"].sum()
    ref, chk = group_table(REG, "owner_type", s)
    return ref, [chk], [("mean instead of sum", group_table(REG, "owner_type", REG.groupby("owner_type")["bottles_per_year"].mean())[0]),
                        ("one total", A(f"{REG.bottles_per_year.sum()}"))]


def o_zonal_village(stat="mean"):
    vals = zonal(VL, stat)
    ref, chk = per_key(VL, "village_id", vals, rel=0.005)
    other = "max" if stat == "mean" else "mean"
    mis = [(f"{other} instead", per_key(VL, "village_id", zonal(VL, other))[0])]
    if stat == "mean":
        mis.append(("nodata counted as values", per_key(VL, "village_id", zonal(VL, stat, with_nodata=True))[0]))
    else:
        mis.append(("min instead", per_key(VL, "village_id", zonal(VL, "min"))[0]))
    return ref, [chk], mis, [("all touched", per_key(VL, "village_id", zonal(VL, stat, all_touched=True))[0])]


def o_sample(pts, key, other, okey):
    vals = sample(pts)
    ref, chk = per_key(pts, key, vals, abs_=3.0)  # nearest cell vs bilinear differ by up to 2.3 m here
    return ref, [chk], [("other point layer sampled", per_key(other, okey, sample(other))[0])], \
        [("bilinear", per_key(pts, key, sample_bilinear(pts))[0])]


def o_slope(percent):
    s = slope(percent)
    st = rstats(s)
    return R(s), [c_rstat("mean", st["mean"], rel=0.05), c_rstat("max", st["max"], rel=0.08)], \
        [("other unit", R(slope(not percent))), ("the DEM itself", R(np.where(VALID, DEM, NODATA)))], \
        [("edges computed", R(slope(percent, edges=True))), ("nodata neighbours filled", R(slope(percent, fill=True)))]


def o_clip_dem(name):
    c = clip_dem(village(name))
    st = rstats(c)
    return R(c), [c_rcells(st["cells"], abs_=0), c_rstat("mean", st["mean"], rel=0.002)], \
        [("not clipped", R(np.where(VALID, DEM, NODATA))), ("clipped to every village", R(np.where(VALID, DEM, NODATA)))]


def o_contours(step, wrong_step):
    lv = contours_levels(step)
    return V(fake_contours(lv)), [c_levels(lv)], [("other interval", V(fake_contours(contours_levels(wrong_step))))]


def o_join_register(nm=None):
    j = WN.merge(REG, left_on="estate_id", right_on="estate_no", how="left")
    matched = j.dropna(subset=["employees"])
    # simpler and stricter: every matched winery carries its register employees; 15 wineries kept
    chk = {"output": "vector",
           "expect": ("(lambda o: any(np.allclose(pd.to_numeric(o[c], errors='coerce').astype(float).to_numpy(), "
                      f"{[float(v) for v in matched.employees]!r}) for c in o.columns if c != 'geometry'))"
                      f"(out.assign(_k_=pd.to_numeric(out['estate_id']).astype(int)).drop_duplicates('_k_')"
                      f".set_index('_k_').loc[{[int(v) for v in matched.estate_id]!r}])"),
           "equals": "True"}
    byrow = WN.copy()
    byrow["employees"] = list(REG.employees[:15])
    return V(j), [chk], [("joined by row order", V(byrow))]


def o_in_flood_total_area(variety):
    m = VY_IN100 & (VY.variety == variety)
    return answer(VY.loc[m, "area_ha"].sum(), rel=0.01,
                  mis=[("variety dropped", VY.loc[VY_IN100, "area_ha"].sum()),
                       ("flood zone dropped", VY.loc[VY.variety == variety, "area_ha"].sum())])


def o_taste_buffer_fest(d):
    w = WNM[TASTE.to_numpy()]
    counts = [int(FEM.within(g.buffer(d, resolution=16)).sum()) for g in w.geometry]
    ref, chk = per_key(WN[TASTE], "estate_id", counts)
    allc = [int(FEM.within(g.buffer(d, resolution=16)).sum()) for g in WNM.geometry]
    return ref, [chk], [("every winery buffered", per_key(WN, "estate_id", allc)[0]),
                        ("one total", A(f"{sum(counts)} festivals"))]


def o_save(layer, key, mask, fname, fmt_wrong, output="vector", key_check=None):
    ref_name = fname
    sel = layer[mask].copy()
    checks = [c_suffix(fname.lower() if "." in fname else fname, output)]
    checks.append(key_check if key_check else c_ids(key, sel[key], output))
    mis = [("format not honoured", V(sel, fmt_wrong))]
    if not mask.all():
        mis.append(("filter dropped", V(layer.copy(), ref_name)))
    kind = T if output == "any_table" else V
    return kind(sel, ref_name), checks, mis


ALL_VY = VY.index == VY.index
ALL_WN = WN.index == WN.index
ALL_CP = CP.index == CP.index
ALL_VL = VL.index == VL.index
ALL_FE = FEG.index == FEG.index


# ================================================================================= ENGLISH
VYF, WNF, CPF, VLF, FZF, RVF, FEF, REGF, DEMF = ("vineyards.gpkg", "wineries.geojson", "cycle_paths.shp",
                                                 "villages.gpkg", "flood_zones.gpkg", "river.gpkg", "festivals.csv",
                                                 "estate_register.csv", "dem.tif")


def english():
    # plain
    add("en001", "plain", "Show me the Riesling vineyards.", [VYF], o_variety("Riesling"))
    add("en002", "plain", "Which wineries have a tasting room?", [WNF], o_tasting(True))
    add("en003", "plain", "Buffer the wineries by 250 m", [WNF], o_buffer_wn(250))
    add("en004", "plain", "How many vineyards are there?", [VYF], answer(40, mis=[("Riesling only", 17)]))
    add("en005", "plain", "Dissolve the vineyards by grape variety", [VYF], o_dissolve_variety())
    ref = WNM.copy()
    add("en006", "plain", "Make points from festivals.csv using the lon and lat columns", [FEF],
        (V(FEG.copy()), [c_len(12), c_bounds(FEG)], [("lat/lon swapped", V(gpd.GeoDataFrame(
            FE, geometry=gpd.points_from_xy(FE.lat, FE.lon), crs=4326)))]))
    add("en007", "plain", "Join estate_register.csv to the wineries, estate_no = estate_id", [WNF, REGF],
        o_join_register())
    mosel = RVM[RVM.name == "Mosel"]
    add("en008", "plain", "Buffer the Mosel by 200 m", [RVF, CPF],
        (V(gpd.GeoDataFrame(mosel.drop(columns="geometry"), geometry=mosel.buffer(200, resolution=16), crs=M)),
         [c_len(1), c_area(mosel.buffer(200, resolution=16).area.sum(), 0.01)],
         [("whole river layer", V(gpd.GeoDataFrame(geometry=RVM.buffer(200), crs=M))),
          ("the Mosel Path cycle route", V(gpd.GeoDataFrame(geometry=CPM[CPM.route_name == "Mosel Path"].buffer(200), crs=M)))]))
    # each_per
    add("en009", "each_per", "Total length of all cycle paths in km?", [CPF], o_total_path_km())
    add("en010", "each_per", "Length of each cycle path in metres", [CPF], o_path_lengths())
    add("en011", "each_per", "Count the wineries in each village", [VLF, WNF], o_count_wn_per_village())
    add("en012", "each_per", "Total vineyard area per grape variety", [VYF], o_variety_area())
    add("en013", "each_per", "What is the total area of all the vineyards, in hectares?", [VYF],
        answer(VY_AREA_HA.sum(), rel=0.005, mis=[("Riesling only", VY_AREA_HA[RIES].sum()),
                                                 ("square metres", VY.area.sum())]))
    s = pd.Series(VY_AREA_HA.values).groupby(VY_VILLAGE).sum()
    ref, chk = per_key(VL, "village_id", [float(s.get(i, 0.0)) for i in VL.village_id], rel=0.01, abs_=0.01)
    add("en014", "each_per", "For each village, the total vineyard area (ha) inside it", [VLF, VYF],
        (ref, [chk], [("one total", A(f"{VY_AREA_HA.sum():.2f} ha")),
                      ("vineyards counted", per_key(VL, "village_id", counts_in(VL, VY.assign(geometry=VY.representative_point())))[0])]))
    n = VY.groupby("estate_id").size()
    ref, chk = group_table(VY, "estate_id", n)
    add("en015", "each_per", "number of vineyards per estate_id", [VYF],
        (ref, [chk], [("one total", A("40 vineyards")),
                      ("area per estate", group_table(VY, "estate_id", VY.groupby("estate_id")["area_ha"].sum())[0])]))
    # negation
    add("en016", "negation", "Vineyards that are not Riesling", [VYF], o_variety("Riesling", neg=True))
    add("en017", "negation", "All wineries except the ones with a tasting room", [WNF], o_tasting(False))
    add("en018", "negation", "Vineyards outside the 1000-year flood zone", [VYF, FZF], o_vy_flood(1000, outside=True))
    add("en019", "negation", "cycle paths that don't have an asphalt surface", [CPF],
        op_select(CP, "path_id", ~ASPH, [("negation dropped", ASPH), ("gravel only", GRAVEL)]))
    m = ~fe_near_paths(200)
    add("en020", "negation", "Which festivals are not within 200 m of a cycle path?", [FEF, CPF],
        op_select(FEG, "festival_id", m, [("negation dropped", ~m)]))
    add("en021", "negation", "Wineries that are not in any flood zone", [WNF, FZF],
        op_select(WN, "estate_id", ~WN_IN1000.to_numpy(), [("negation dropped", WN_IN1000.to_numpy()),
                                                           ("only HQ100 excluded", ~WNM.within(zone(100)).to_numpy())]))
    m = RIES & ~ORG
    add("en022", "negation", "Riesling vineyards that are not organic", [VYF],
        op_select(VY, "vineyard_id", m, [("negation dropped", RIES & ORG), ("variety dropped", ~ORG)]))
    m = VL.name != "Kesselbach"
    add("en023", "negation", "every village except Kesselbach", [VLF],
        op_select(VL, "village_id", m, [("negation dropped", ~m)]))
    # roles
    add("en024", "roles", "Wineries within 200 m of a cycle path", [WNF, CPF], o_within(WN, WNM, "estate_id", CP, CPM, "path_id", 200))
    add("en025", "roles", "Cycle paths within 200 m of a winery", [CPF, WNF], o_within(CP, CPM, "path_id", WN, WNM, "estate_id", 200))
    add("en026", "roles", "Which vineyards are less than 100 m from a winery?", [VYF, WNF],
        o_within(VY, VY, "vineyard_id", WN, WNM, "estate_id", 100))
    add("en027", "roles", "For each festival, find the nearest winery", [FEF, WNF],
        o_nearest(FEG, FEM, "festival_id", WN, WNM, "estate_id"))
    add("en028", "roles", "nearest festival to every winery", [WNF, FEF],
        o_nearest(WN, WNM, "estate_id", FEG, FEM, "festival_id"))
    add("en029", "roles", "Clip the cycle paths to the 100-year flood zone", [CPF, FZF],
        o_clip_paths(zone(100), mis_poly=zone(1000)))
    u = village("Uferstein")
    fzc = FZM.copy()
    fzc["geometry"] = fzc.intersection(u)
    vc = VL[VL.name == "Uferstein"].copy()
    vc["geometry"] = vc.intersection(zone(1000))
    add("en030", "roles", "Clip the flood zones to the village of Uferstein", [FZF, VLF],
        (V(fzc), [c_ids("return_period", fzc.return_period), c_area(fzc.area.sum(), 0.01)],
         [("roles swapped (village clipped to the zones)", V(vc)), ("not clipped", V(FZM.copy()))]))
    add("en031", "roles", "Add the name of the village each vineyard lies in", [VYF, VLF],
        o_join_village_to(VY, VY, "vineyard_id"))
    # crs_roles
    add("en032", "crs_roles", "Reproject the cycle paths from Gauss-Krüger zone 2 to ETRS89 / UTM zone 32N", [CPF],
        o_crs_paths_to(25832))
    add("en033", "crs_roles", "Convert the wineries to EPSG:31466", [WNF], op_crs(WN, 31466, mis_epsg=[4326, 25832]))
    add("en034", "crs_roles", "Put the vineyards into the same CRS as the wineries", [VYF, WNF],
        (V(VY.to_crs(4326)), [c_crs(4326), c_bounds(VY)], [("roles swapped", V(WN.to_crs(M))),
                                                            ("unchanged", V(VY.copy()))]))
    add("en035", "crs_roles", "The river layer is DHDN / Gauss-Kruger zone 2. Transform it to WGS 84.", [RVF],
        op_crs(RV, 4326, mis_epsg=[31466]))
    add("en036", "crs_roles", "The wineries are in UTM 32N - reproject them to WGS 84.", [WNF],
        why="the stated source CRS contradicts the file: wineries.geojson is already EPSG:4326 (WGS 84); no correct "
            "no-model reading (assigning UTM 32N would be wrong, ignoring the statement silently is a guess)")
    add("en037", "crs_roles", "Reproject the villages to Gauss-Krüger", [VLF],
        why="'Gauss-Krüger' names no zone (EPSG:31466 zone 2, 31467 zone 3, … and 3-degree vs 6-degree variants): "
            "the target CRS is ambiguous")
    # numbers
    add("en038", "numbers", "Vineyards with a slope of at least 30 %", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">=", 30, ">"))
    add("en039", "numbers", "vineyards steeper than 45 percent", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">", 45, ">="))
    add("en040", "numbers", "Vineyards of 5 ha or more", [VYF], o_cmp(VY, "vineyard_id", "area_ha", ">=", 5, ">"))
    add("en041", "numbers", "Vineyards smaller than 2.5 hectares", [VYF], o_cmp(VY, "vineyard_id", "area_ha", "<", 2.5, "<="))
    add("en042", "numbers", "Wineries founded before 1900", [WNF], o_cmp(WN, "estate_id", "founded", "<", 1900, "<="))
    add("en043", "numbers", "Wineries founded in 1900 or later", [WNF], o_cmp(WN, "estate_id", "founded", ">=", 1900, ">"))
    add("en044", "numbers", "Festivals with more than 5000 visitors", [FEF], o_cmp(FEG, "festival_id", "visitors", ">", 5000, ">="))
    add("en045", "numbers", "festivals with at most 5,000 visitors", [FEF], o_cmp(FEG, "festival_id", "visitors", "<=", 5000, "<"))
    add("en046", "numbers", "Villages with a population over 1200", [VLF], o_cmp(VL, "village_id", "population", ">", 1200, ">="))
    add("en047", "numbers", "Wineries farther than 350 m from every cycle path", [WNF, CPF], o_far(WN, WNM, "estate_id", CPM, 350))
    r1 = WNM[WN.name == "Riverside Estate"]
    m = within_dist(FEM, r1, 1500).to_numpy()
    fe_summer = FEM[FE.festival == "Riverside Summer Wine"]
    add("en048", "numbers", "Festivals within 1.5 km of Riverside Estate", [FEF, WNF],
        op_select(FEG, "festival_id", m, [("1.5 m", within_dist(FEM, r1, 1.5).to_numpy()),
                                          ("any winery", within_dist(FEM, WNM, 1500).to_numpy()),
                                          ("Riverside Summer Wine festival", within_dist(FEM, fe_summer, 1500).to_numpy())]))
    add("en049", "numbers", "Buffer the wineries by 300", [WNF],
        why="a distance without a unit on a layer in degrees (EPSG:4326): 300 degrees is meaningless and metres is a guess")
    add("en050", "numbers", "wineries with at least 10 hectares", [WNF], o_cmp(WN, "estate_id", "hectares", ">=", 10, ">"))
    # not_loaded
    add("en051", "not_loaded", "Which vineyards are within 300 m of a railway station?", [VYF],
        why="no railway stations layer among the inputs")
    add("en052", "not_loaded", "Join the harvest yields table to the vineyards", [VYF, REGF],
        why="no harvest-yields table loaded (estate_register.csv holds employees, bottles, export share, not yields)")
    add("en053", "not_loaded", "Sample the soil moisture raster at each winery", [WNF, DEMF],
        why="the only raster is the DEM (elevation); no soil-moisture raster loaded")
    add("en054", "not_loaded", "Count the hotels in each village", [VLF, WNF],
        why="no hotels layer; wineries are not hotels")
    # missing_field
    add("en055", "missing_field", "Vineyards with a yield above 80 hl/ha", [VYF], why="vineyards have no yield field")
    add("en056", "missing_field", "Wineries rated 4 stars or more", [WNF], why="wineries have no rating field")
    add("en057", "missing_field", "Cycle paths wider than 3 m", [CPF], why="cycle paths have no width field")
    add("en058", "missing_field", "Festivals with an entry fee under 10 euros", [FEF], why="festivals.csv has no fee/price column")
    # chain
    add("en059", "chain", "Select the Riesling vineyards in the 100-year flood zone and tell me their total area in hectares",
        [VYF, FZF], o_in_flood_total_area("Riesling"))
    add("en060", "chain", "Buffer the wineries that have a tasting room by 500 m, then count the festivals in each buffer",
        [WNF, FEF], o_taste_buffer_fest(500))
    add("en061", "chain", "Reproject the cycle paths to UTM 32N and save them as paths_utm.gpkg", [CPF],
        (V(CP.to_crs(M), "paths_utm.gpkg"), [c_suffix("paths_utm.gpkg"), c_crs(M), c_bounds(CP)],
         [("not reprojected", V(CP.copy(), "paths_utm.gpkg")), ("other name", V(CP.to_crs(M), "cycle_paths.gpkg"))]))
    add("en062", "chain", "Take the organic vineyards, dissolve them by variety and give me the area of each", [VYF],
        o_dissolve_variety(ORG))
    add("en063", "chain", "Select the gravel cycle paths and clip them to the village of Traubenheim", [CPF, VLF],
        o_clip_paths(village("Traubenheim"), mask=GRAVEL.to_numpy()))
    m = vy_near_wn(100)
    sel = VY[m].sort_values("area_ha", ascending=False)
    add("en064", "chain", "Vineyards within 100 m of a winery, sorted by area, largest first", [VYF, WNF],
        (V(sel), [c_order("vineyard_id", sel.vineyard_id)],
         [("ascending", V(sel.iloc[::-1])), ("all vineyards sorted", V(VY.sort_values("area_ha", ascending=False)))]))
    # output_clause
    add("en065", "output_clause", "Save the organic vineyards as organic_vineyards.geojson", [VYF],
        o_save(VY, "vineyard_id", ORG.to_numpy(), "organic_vineyards.geojson", "organic_vineyards.gpkg"))
    add("en066", "output_clause", "Export the wineries to a shapefile", [WNF],
        o_save(WN, "estate_id", ALL_WN, ".shp", "wineries.geojson"))
    add("en067", "output_clause", "Export the cycle paths as CSV", [CPF],
        o_save(CP, "path_id", ALL_CP, ".csv", "cycle_paths.shp", output="any_table"))
    m = (FEG.visitors > 5000).to_numpy()
    add("en068", "output_clause", "Write the festivals with more than 5000 visitors to big_festivals.gpkg", [FEF],
        o_save(FEG, "festival_id", m, "big_festivals.gpkg", "big_festivals.geojson"))
    add("en069", "output_clause", "Convert the villages to GeoJSON and call the file village_areas.geojson", [VLF],
        o_save(VL, "village_id", ALL_VL, "village_areas.geojson", "village_areas.gpkg"))
    m = (WN.founded < 1900).to_numpy()
    add("en070", "output_clause", "Save the wineries founded before 1900 as old_estates.shp", [WNF],
        o_save(WN, "estate_id", m, "old_estates.shp", "old_estates.gpkg"))
    ext = FZM.dissolve()
    add("en071", "output_clause", "Dissolve the flood zones into one polygon and export it as flood_extent.fgb", [FZF],
        (V(ext, "flood_extent.fgb"), [c_suffix("flood_extent.fgb"), c_len(1), c_area(ext.area.sum(), 0.01)],
         [("not dissolved", V(FZM.copy(), "flood_extent.fgb")), ("other format", V(ext, "flood_extent.gpkg"))]))
    # statistics
    add("en072", "statistics", "Mean slope of the vineyards per grape variety", [VYF], o_mean_slope_variety())
    add("en073", "statistics", "What's the median number of visitors at the festivals?", [FEF],
        answer(FE.visitors.median(), mis=[("mean", FE.visitors.mean())]))
    add("en074", "statistics", "What is the largest village population?", [VLF],
        answer(VL.population.max(), mis=[("smallest", VL.population.min()), ("sum", VL.population.sum())]))
    add("en075", "statistics", "Average hectares of the wineries with a tasting room", [WNF],
        answer(WN.loc[TASTE, "hectares"].mean(), rel=0.001, mis=[("all wineries", WN.hectares.mean()),
                                                                 ("without tasting room", WN.loc[~TASTE, "hectares"].mean())]))
    med = VY.groupby("estate_id")["area_ha"].median()
    ref, chk = group_table(VY, "estate_id", med)
    add("en076", "statistics", "Median vineyard size (area_ha) for each estate", [VYF],
        (ref, [chk], [("mean instead", group_table(VY, "estate_id", VY.groupby("estate_id")["area_ha"].mean())[0])]))
    add("en077", "statistics", "Sum of bottles_per_year by owner_type in the estate register", [REGF], o_owner_bottles())
    add("en078", "statistics", "range of the founding years of the wineries", [WNF],
        answer(WN.founded.max() - WN.founded.min(), mis=[("max", WN.founded.max()), ("min", WN.founded.min())]))
    # raster
    st = rstats(DEM)
    add("en079", "raster", "What is the highest elevation in the DEM?", [DEMF],
        answer(st["max"], abs_=0.01, mis=[("mean", st["mean"]), ("min", st["min"])]))
    add("en080", "raster", "Compute the slope of the DEM in degrees", [DEMF], o_slope(False))
    add("en081", "raster", "Sample the DEM at the wineries", [WNF, DEMF], o_sample(WN, "estate_id", FEG, "festival_id"))
    add("en082", "raster", "Mean elevation of each village from the DEM", [VLF, DEMF], o_zonal_village("mean"))
    add("en083", "raster", "Clip the DEM to Traubenheim", [DEMF, VLF], o_clip_dem("Traubenheim"))
    add("en084", "raster", "Contour lines every 50 m from the DEM", [DEMF], o_contours(50, 100))
    add("en085", "raster", "Sample the elevation at each festival location", [FEF, DEMF],
        o_sample(FEG, "festival_id", WN, "estate_id"))
    # typo
    add("en086", "typo", "buffr the wineres by 250 m", [WNF], o_buffer_wn(250))
    add("en087", "typo", "vinyards with slop over 40 percent", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">", 40, "<="))
    add("en088", "typo", "count festivls per vilage", [VLF, FEF], o_count_fe_per_village())
    add("en089", "typo", "reprojct cycle paths to EPSG:25832", [CPF], o_crs_paths_to(25832))
    # open_ended
    add("en090", "open_ended", "Where should the region build its next cycle path?", [CPF, VLF, WNF],
        why="planning question with no defined operation or criterion")
    add("en091", "open_ended", "Which winery is best placed for wine tourism?", [WNF, CPF, FEF],
        why="'best placed' has no defined measure; needs a model to define and justify criteria")
    add("en092", "open_ended", "Assess the flood risk to the wine industry here and write me a short summary", [VYF, WNF, FZF],
        why="an assessment and a written summary, not a library operation")
    # ambiguous
    add("en093", "ambiguous", "Show me the three biggest wineries", [WNF],
        why="'biggest' fits two fields equally: hectares (vineyard land) and capacity_hl (cellar capacity), with different top 3")
    add("en094", "ambiguous", "Count the points in each village", [VLF, WNF, FEF],
        why="two point layers are loaded (wineries and festivals); which to count is not said")
    add("en095", "ambiguous", "Join the register table to the layer by estate number", [VYF, WNF, REGF],
        why="both vineyards and wineries carry estate_id; the target layer is not said")
    add("en096", "ambiguous", "show the 5 oldest", [VYF, WNF],
        why="two layers with a year (vineyards.planted, wineries.founded); the target layer is not said")


def o_intersect_flood():
    pieces = gpd.overlay(VY, FZM, how="intersection", keep_geom_type=True)
    clip = VY[VY_IN1000].copy()
    return V(pieces), [c_len(len(pieces)), c_area(pieces.area.sum(), 0.01)], [("clip instead (one piece per vineyard)", V(clip))]


def o_buffer_paths(d):
    b = CPM.buffer(d, resolution=16)
    ref = gpd.GeoDataFrame(CP.drop(columns="geometry"), geometry=b, crs=M)
    return V(ref), [c_len(12), c_area(b.area.sum(), 0.02)], [
        ("feet", V(gpd.GeoDataFrame(CP.drop(columns="geometry"), geometry=CPM.buffer(d * 0.3048), crs=M))),
        ("dissolved", V(gpd.GeoDataFrame(geometry=[b.union_all()], crs=M)))]


def german():
    # plain
    add("de001", "plain", "Zeig mir alle Weinberge mit Spätburgunder", [VYF], o_variety("Pinot Noir"))
    add("de002", "plain", "Weingüter mit Probierstube", [WNF], o_tasting(True))
    add("de003", "plain", "Puffer um die Radwege, 50 m", [CPF], o_buffer_paths(50))
    add("de004", "plain", "Wie viele Feste stehen in der Tabelle?", [FEF], answer(12, mis=[("eleven", 11), ("rows+header", 13)]))
    add("de005", "plain", "Verschneide die Weinberge mit den Hochwasserzonen (Intersection)", [VYF, FZF], o_intersect_flood())
    # each_per
    add("de006", "each_per", "Gesamtlänge aller Radwege in Kilometern?", [CPF], o_total_path_km())
    per = VY.length
    ref, chk = per_key(VY, "vineyard_id", per.round(3).tolist(), rel=0.005)
    add("de007", "each_per", "Berechne den Umfang jedes Weinbergs in Metern", [VYF],
        (ref, [chk], [("one total", A(f"{per.sum():.1f} m")),
                      ("area instead", per_key(VY, "vineyard_id", VY.area.tolist())[0])]))
    add("de008", "each_per", "Zähle die Weingüter pro Ort", [VLF, WNF], o_count_wn_per_village())
    add("de009", "each_per", "wie viel Rebfläche hat jede Rebsorte insgesamt", [VYF], o_variety_area())
    add("de010", "each_per", "Anzahl der Weinfeste je Ortschaft", [VLF, FEF], o_count_fe_per_village())
    # negation
    add("de011", "negation", "Alle Weinberge außer Riesling", [VYF], o_variety("Riesling", neg=True))
    add("de012", "negation", "Weingüter ohne Probierstube", [WNF], o_tasting(False))
    add("de013", "negation", "Welche Weinberge liegen außerhalb des HQ100-Gebiets?", [VYF, FZF], o_vy_flood(100, outside=True))
    add("de014", "negation", "Radwege, die nicht asphaltiert sind", [CPF],
        op_select(CP, "path_id", ~ASPH, [("negation dropped", ASPH), ("gravel only", GRAVEL)]))
    add("de015", "negation", "Weinberge, die nicht ökologisch bewirtschaftet werden", [VYF], o_organic(False))
    month = pd.to_datetime(FE.date).dt.month
    m = ~month.isin([7, 8]).to_numpy()
    add("de016", "negation", "Welche Weinfeste finden nicht im Juli oder August statt?", [FEF],
        op_select(FEG, "festival_id", m, [("negation dropped", ~m)]))
    # roles
    add("de017", "roles", "Weingüter im Umkreis von 120 m um einen Radweg", [WNF, CPF],
        o_within(WN, WNM, "estate_id", CP, CPM, "path_id", 120))
    add("de018", "roles", "Radwege im Umkreis von 120 m um ein Weingut", [CPF, WNF],
        o_within(CP, CPM, "path_id", WN, WNM, "estate_id", 120))
    add("de019", "roles", "Schneide die Radwege auf das HQ1000-Gebiet zu", [CPF, FZF],
        o_clip_paths(zone(1000), mis_poly=zone(100)))
    add("de020", "roles", "Welches Weingut liegt jedem Weinfest am nächsten?", [FEF, WNF],
        o_nearest(FEG, FEM, "festival_id", WN, WNM, "estate_id"))
    add("de021", "roles", "Häng an jeden Weinberg die ID des Ortes an, in dem er liegt", [VYF, VLF],
        o_join_village_to(VY, VY, "vineyard_id"))
    add("de022", "roles", "Weinberge, die weniger als 100 m von einem Weingut entfernt sind", [VYF, WNF],
        o_within(VY, VY, "vineyard_id", WN, WNM, "estate_id", 100))
    # crs_roles
    add("de023", "crs_roles", "Radwege von Gauß-Krüger Zone 2 nach UTM 32N umprojizieren", [CPF], o_crs_paths_to(25832))
    add("de024", "crs_roles", "Transformiere die Weingüter nach DHDN / Gauß-Krüger Zone 2 (EPSG:31466)", [WNF],
        op_crs(WN, 31466, mis_epsg=[4326]))
    add("de025", "crs_roles", "Bring die Weinberge ins Koordinatensystem der Hochwasserzonen", [VYF, FZF],
        (V(VY.to_crs(4326)), [c_crs(4326), c_bounds(VY)], [("roles swapped", V(FZ.to_crs(M))), ("unchanged", V(VY.copy()))]))
    add("de026", "crs_roles", "Die Weinberge sind in WGS84, bitte nach UTM 32N umrechnen", [VYF],
        why="stated source CRS contradicts the file: vineyards.gpkg is already EPSG:25832 (UTM 32N)")
    # numbers
    add("de027", "numbers", "Weinberge mit mindestens 30 % Hangneigung", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">=", 30, ">"))
    add("de028", "numbers", "Weinberge mit einer Neigung von höchstens 45 %", [VYF],
        o_cmp(VY, "vineyard_id", "slope_pct", "<=", 45, "<"))
    add("de029", "numbers", "Weinberge unter 2,5 ha", [VYF], o_cmp(VY, "vineyard_id", "area_ha", "<", 2.5, "<=",
                                                                  [("25 ha", VY.area_ha < 25)]))
    add("de030", "numbers", "Weingüter, die vor 1900 gegründet wurden", [WNF], o_cmp(WN, "estate_id", "founded", "<", 1900, "<="))
    add("de031", "numbers", "Feste mit mindestens 5000 Besuchern", [FEF], o_cmp(FEG, "festival_id", "visitors", ">=", 5000, ">"))
    add("de032", "numbers", "Orte mit weniger als 1200 Einwohnern", [VLF], o_cmp(VL, "village_id", "population", "<", 1200, "<="))
    add("de033", "numbers", "Weingüter mit mehr als 10 ha", [WNF], o_cmp(WN, "estate_id", "hectares", ">", 10, ">="))
    add("de034", "numbers", "Weingüter, die mehr als 350 m vom nächsten Radweg entfernt sind", [WNF, CPF],
        o_far(WN, WNM, "estate_id", CPM, 350))
    add("de035", "numbers", "Puffer die Weingüter um 0,3", [WNF],
        why="no unit on a layer in degrees: 0.3 could be degrees, km or a typo; no correct no-model reading")
    # not_loaded
    add("de036", "not_loaded", "Wie viele Straußwirtschaften gibt es je Ort?", [VLF, WNF],
        why="no layer of Straußwirtschaften (seasonal wine taverns); wineries are a different thing")
    add("de037", "not_loaded", "Verschneide die Weinberge mit der Bodenkarte", [VYF, FZF], why="no soil map loaded")
    add("de038", "not_loaded", "Welche Weingüter liegen weniger als 500 m von einer Bahnlinie entfernt?", [WNF, CPF],
        why="no railway layer loaded (cycle paths are not a railway)")
    # missing_field
    add("de039", "missing_field", "Weinberge mit einem Ertrag über 90 hl/ha", [VYF], why="no yield field in vineyards")
    add("de040", "missing_field", "Zeig die beleuchteten Radwege", [CPF], why="cycle paths have no lighting field")
    add("de041", "missing_field", "Orte mit mehr als 300 Gästebetten", [VLF], why="villages have no guest-bed field")
    # chain
    add("de042", "chain", "Riesling-Weinberge im HQ100-Gebiet auswählen und ihre Gesamtfläche in ha ausgeben", [VYF, FZF],
        o_in_flood_total_area("Riesling"))
    add("de043", "chain", "Puffer die Weingüter mit Probierstube um 500 m und zähl die Weinfeste in jedem Puffer", [WNF, FEF],
        o_taste_buffer_fest(500))
    add("de044", "chain", "Radwege nach UTM 32N umprojizieren, dann die Gesamtlänge in km angeben", [CPF], o_total_path_km())
    add("de045", "chain", "Bio-Weinberge nach Rebsorte zusammenführen und die Fläche je Sorte berechnen", [VYF],
        o_dissolve_variety(ORG))
    # output_clause
    add("de046", "output_clause", "Speichere die Bio-Weinberge als bio_weinberge.geojson", [VYF],
        o_save(VY, "vineyard_id", ORG.to_numpy(), "bio_weinberge.geojson", "bio_weinberge.gpkg"))
    add("de047", "output_clause", "Weingüter als Shapefile exportieren", [WNF], o_save(WN, "estate_id", ALL_WN, ".shp", "wineries.gpkg"))
    add("de048", "output_clause", "Exportier die Radwege als CSV", [CPF],
        o_save(CP, "path_id", ALL_CP, ".csv", "cycle_paths.shp", output="any_table"))
    m = (FEG.visitors > 5000).to_numpy()
    add("de049", "output_clause", "Speichere die Feste mit über 5000 Besuchern unter grosse_feste.gpkg", [FEF],
        o_save(FEG, "festival_id", m, "grosse_feste.gpkg", "grosse_feste.shp"))
    add("de050", "output_clause", "Orte als GeoJSON speichern, Dateiname orte.geojson", [VLF],
        o_save(VL, "village_id", ALL_VL, "orte.geojson", "orte.gpkg"))
    # statistics
    add("de051", "statistics", "Durchschnittliche Hangneigung je Rebsorte", [VYF], o_mean_slope_variety())
    add("de052", "statistics", "Median der Besucherzahlen der Weinfeste?", [FEF],
        answer(FE.visitors.median(), mis=[("mean", FE.visitors.mean())]))
    add("de053", "statistics", "Wie viele Einwohner haben alle Orte zusammen?", [VLF],
        answer(VL.population.sum(), mis=[("max", VL.population.max()), ("mean", VL.population.mean())]))
    s = WN.groupby("tasting_room")["hectares"].mean()
    ref, chk = group_table(WN, "tasting_room", s)
    add("de054", "statistics", "Mittlere Hektarzahl der Weingüter, getrennt nach tasting_room", [WNF],
        (ref, [chk], [("overall mean", A(f"{WN.hectares.mean():.3f}")),
                      ("sum per group", group_table(WN, "tasting_room", WN.groupby("tasting_room")["hectares"].sum())[0])]))
    add("de055", "statistics", "Summe bottles_per_year je owner_type im Betriebsregister", [REGF], o_owner_bottles())
    # raster
    st = rstats(DEM)
    add("de056", "raster", "Wo ist der höchste Punkt im Höhenmodell, wie hoch?", [DEMF],
        answer(st["max"], abs_=0.01, mis=[("mean", st["mean"])]))
    add("de057", "raster", "Hangneigung aus dem DGM in Prozent berechnen", [DEMF], o_slope(True))
    add("de058", "raster", "Höhe aus dem DGM an jedem Weingut abfragen", [WNF, DEMF], o_sample(WN, "estate_id", FEG, "festival_id"))
    add("de059", "raster", "Maximale Höhe je Ort aus dem DGM (Zonenstatistik)", [VLF, DEMF], o_zonal_village("max"))
    add("de060", "raster", "Schneide das DGM auf die Gemarkung Kesselbach zu", [DEMF, VLF], o_clip_dem("Kesselbach"))
    add("de061", "raster", "Höhenlinien im Abstand von 25 m aus dem DGM erzeugen", [DEMF], o_contours(25, 50))
    # typo
    add("de062", "typo", "Weinberge mit Hangneigung über 40 Proznet", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">", 40, "<="))
    add("de063", "typo", "Zähle die Weingütter pro Ort", [VLF, WNF], o_count_wn_per_village())
    add("de064", "typo", "Radwege nach EPSG:4326 umprojezieren", [CPF], o_crs_paths_to(4326))
    # open_ended
    add("de065", "open_ended", "Wo sollten wir neue Rieslinglagen anlegen?", [VYF, DEMF, FZF],
        why="site planning with no stated criteria")
    add("de066", "open_ended", "Welche Orte profitieren am meisten vom Weintourismus? Mach mal eine Analyse", [VLF, WNF, FEF],
        why="open analysis; no defined measure")
    add("de067", "open_ended", "Was fällt dir an den Daten auf?", [VYF, WNF], why="open-ended data exploration")
    # ambiguous
    add("de068", "ambiguous", "Die drei größten Weingüter", [WNF],
        why="'größte' fits hectares and capacity_hl equally; different top 3")
    add("de069", "ambiguous", "Zähle die Punkte pro Ort", [VLF, WNF, FEF], why="two point layers (wineries, festivals)")
    add("de070", "ambiguous", "Verknüpfe die Registertabelle über die Betriebsnummer mit dem Layer", [VYF, WNF, REGF],
        why="vineyards and wineries both have estate_id; target layer not said")


def chinese():
    # plain
    add("zh001", "plain", "显示所有雷司令葡萄园", [VYF], o_variety("Riesling"))
    add("zh002", "plain", "有品酒室的酒庄有哪些", [WNF], o_tasting(True))
    rb = RVM.buffer(100, resolution=16)
    add("zh003", "plain", "对河流图层做100米缓冲区", [RVF],
        (V(gpd.GeoDataFrame(RV.drop(columns="geometry"), geometry=rb, crs=M)), [c_len(2), c_area(rb.area.sum(), 0.01)],
         [("Mosel only", V(gpd.GeoDataFrame(geometry=RVM[RVM.name == "Mosel"].buffer(100), crs=M))),
          ("10 m", V(gpd.GeoDataFrame(RV.drop(columns="geometry"), geometry=RVM.buffer(10), crs=M)))]))
    add("zh004", "plain", "葡萄园一共有多少块？", [VYF], answer(40, mis=[("Riesling only", 17)]))
    add("zh005", "plain", "按葡萄品种融合葡萄园", [VYF], o_dissolve_variety())
    # each_per
    add("zh006", "each_per", "计算每条自行车道的长度（米）", [CPF], o_path_lengths())
    add("zh007", "each_per", "所有自行车道的总长度是多少公里？", [CPF], o_total_path_km())
    add("zh008", "each_per", "统计每个村庄内的酒庄数量", [VLF, WNF], o_count_wn_per_village())
    add("zh009", "each_per", "每个品种的葡萄园总面积", [VYF], o_variety_area())
    add("zh010", "each_per", "每个村庄分别有几个葡萄酒节？", [VLF, FEF], o_count_fe_per_village())
    # negation
    add("zh011", "negation", "除了雷司令以外的葡萄园", [VYF], o_variety("Riesling", neg=True))
    add("zh012", "negation", "没有品酒室的酒庄", [WNF], o_tasting(False))
    add("zh013", "negation", "不在千年一遇洪水区内的葡萄园", [VYF, FZF], o_vy_flood(1000, outside=True))
    add("zh014", "negation", "非有机的葡萄园", [VYF], o_organic(False))
    add("zh015", "negation", "路面不是沥青的自行车道", [CPF],
        op_select(CP, "path_id", ~ASPH, [("negation dropped", ASPH), ("gravel only", GRAVEL)]))
    add("zh016", "negation", "不在任何洪水区之内的葡萄酒节", [FEF, FZF],
        op_select(FEG, "festival_id", ~FE_IN1000.to_numpy(), [("negation dropped", FE_IN1000.to_numpy())]))
    # roles
    add("zh017", "roles", "距离自行车道200米以内的酒庄", [WNF, CPF], o_within(WN, WNM, "estate_id", CP, CPM, "path_id", 200))
    add("zh018", "roles", "距离酒庄200米以内的自行车道", [CPF, WNF], o_within(CP, CPM, "path_id", WN, WNM, "estate_id", 200))
    add("zh019", "roles", "用百年一遇洪水区裁剪自行车道", [CPF, FZF], o_clip_paths(zone(100), mis_poly=zone(1000)))
    add("zh020", "roles", "为每个酒庄找到最近的葡萄酒节", [WNF, FEF], o_nearest(WN, WNM, "estate_id", FEG, FEM, "festival_id"))
    add("zh021", "roles", "找出距离葡萄园100米以内的酒庄", [WNF, VYF], o_within(WN, WNM, "estate_id", VY, VY, "vineyard_id", 100))
    add("zh022", "roles", "把所在村庄的编号连接到每个酒庄上", [WNF, VLF], o_join_village_to(WN, WNM, "estate_id"))
    # crs_roles
    add("zh023", "crs_roles", "把自行车道从高斯-克吕格2带（EPSG:31466）转换到WGS84", [CPF], o_crs_paths_to(4326))
    add("zh024", "crs_roles", "将酒庄投影到ETRS89 / UTM 32N", [WNF], op_crs(WN, 25832, mis_epsg=[4326, 31466]))
    add("zh025", "crs_roles", "把河流转换成和葡萄园相同的坐标系", [RVF, VYF],
        (V(RV.to_crs(M)), [c_crs(M), c_bounds(RV)], [("roles swapped", V(VY.to_crs(31466))), ("unchanged", V(RV.copy()))]))
    add("zh026", "crs_roles", "村庄图层是WGS84坐标，把它转成UTM 32N", [VLF],
        why="stated source CRS contradicts the file: villages.gpkg is already EPSG:25832 (UTM 32N)")
    # numbers
    add("zh027", "numbers", "坡度不少于30%的葡萄园", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">=", 30, ">"))
    add("zh028", "numbers", "坡度超过45%的葡萄园", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">", 45, ">="))
    add("zh029", "numbers", "面积在5公顷及以上的葡萄园", [VYF], o_cmp(VY, "vineyard_id", "area_ha", ">=", 5, ">"))
    add("zh030", "numbers", "早于1900年成立的酒庄", [WNF], o_cmp(WN, "estate_id", "founded", "<", 1900, "<="))
    add("zh031", "numbers", "游客超过5000人的葡萄酒节", [FEF], o_cmp(FEG, "festival_id", "visitors", ">", 5000, ">="))
    add("zh032", "numbers", "人口不超过1200的村庄", [VLF], o_cmp(VL, "village_id", "population", "<=", 1200, "<"))
    add("zh033", "numbers", "种植面积至少10公顷的酒庄", [WNF], o_cmp(WN, "estate_id", "hectares", ">=", 10, ">"))
    add("zh034", "numbers", "离最近的自行车道超过350米的酒庄", [WNF, CPF], o_far(WN, WNM, "estate_id", CPM, 350))
    add("zh035", "numbers", "把酒庄缓冲300", [WNF], why="no unit on a layer in degrees")
    # not_loaded
    add("zh036", "not_loaded", "统计每个村庄的酒店数量", [VLF, WNF], why="no hotels layer loaded")
    add("zh037", "not_loaded", "用土壤图裁剪葡萄园", [VYF], why="no soil map loaded")
    add("zh038", "not_loaded", "找出离火车站500米以内的酒庄", [WNF, CPF], why="no railway stations layer loaded")
    # missing_field
    add("zh039", "missing_field", "产量超过每公顷80百升的葡萄园", [VYF], why="vineyards have no yield field")
    add("zh040", "missing_field", "评分在4分以上的酒庄", [WNF], why="wineries have no rating field")
    add("zh041", "missing_field", "门票低于10欧元的葡萄酒节", [FEF], why="festivals.csv has no ticket price column")
    # chain
    add("zh042", "chain", "先选出百年一遇洪水区内的雷司令葡萄园，再算一下它们的总面积（公顷）", [VYF, FZF],
        o_in_flood_total_area("Riesling"))
    add("zh043", "chain", "把有品酒室的酒庄缓冲500米，然后统计每个缓冲区内的葡萄酒节数量", [WNF, FEF], o_taste_buffer_fest(500))
    add("zh044", "chain", "把自行车道投影到UTM 32N，并保存为 paths_utm.gpkg", [CPF],
        (V(CP.to_crs(M), "paths_utm.gpkg"), [c_suffix("paths_utm.gpkg"), c_crs(M), c_bounds(CP)],
         [("not reprojected", V(CP.copy(), "paths_utm.gpkg")), ("other name", V(CP.to_crs(M), "cycle_paths.gpkg"))]))
    add("zh045", "chain", "选出碎石路面的自行车道，再用Traubenheim村的边界裁剪", [CPF, VLF],
        o_clip_paths(village("Traubenheim"), mask=GRAVEL.to_numpy()))
    # output_clause
    add("zh046", "output_clause", "把有机葡萄园保存为 organic.geojson", [VYF],
        o_save(VY, "vineyard_id", ORG.to_numpy(), "organic.geojson", "organic.gpkg"))
    add("zh047", "output_clause", "把酒庄导出成Shapefile", [WNF], o_save(WN, "estate_id", ALL_WN, ".shp", "wineries.geojson"))
    add("zh048", "output_clause", "将自行车道导出为CSV文件", [CPF],
        o_save(CP, "path_id", ALL_CP, ".csv", "cycle_paths.shp", output="any_table"))
    m = (FEG.visitors > 5000).to_numpy()
    add("zh049", "output_clause", "把游客超过5000人的节庆保存为 big_fests.gpkg", [FEF],
        o_save(FEG, "festival_id", m, "big_fests.gpkg", "big_fests.geojson"))
    add("zh050", "output_clause", "村庄图层另存为GeoJSON，文件名 villages_out.geojson", [VLF],
        o_save(VL, "village_id", ALL_VL, "villages_out.geojson", "villages_out.gpkg"))
    # statistics
    add("zh051", "statistics", "按品种计算葡萄园的平均坡度", [VYF], o_mean_slope_variety())
    add("zh052", "statistics", "葡萄酒节游客人数的中位数是多少？", [FEF], answer(FE.visitors.median(), mis=[("mean", FE.visitors.mean())]))
    add("zh053", "statistics", "村庄人口的最大值", [VLF], answer(VL.population.max(), mis=[("sum", VL.population.sum())]))
    add("zh054", "statistics", "按owner_type汇总登记表里的bottles_per_year总和", [REGF], o_owner_bottles())
    add("zh055", "statistics", "酒庄hectares字段的平均值", [WNF],
        answer(WN.hectares.mean(), rel=0.001, mis=[("median", WN.hectares.median()), ("sum", WN.hectares.sum())]))
    # raster
    st = rstats(DEM)
    allv = DEM.ravel()
    add("zh056", "raster", "DEM的最低海拔是多少？", [DEMF], answer(st["min"], abs_=0.01, mis=[("nodata as value", -9999.0)]))
    add("zh057", "raster", "根据DEM计算坡度（单位：度）", [DEMF], o_slope(False))
    add("zh058", "raster", "在每个葡萄酒节的位置提取DEM高程值", [FEF, DEMF], o_sample(FEG, "festival_id", WN, "estate_id"))
    add("zh059", "raster", "计算每个村庄的平均高程", [VLF, DEMF], o_zonal_village("mean"))
    add("zh060", "raster", "用Rebdorf村的范围裁剪DEM", [DEMF, VLF], o_clip_dem("Rebdorf"))
    add("zh061", "raster", "DEM的平均高程是多少", [DEMF],
        answer(st["mean"], rel=0.001, mis=[("nodata counted", float(allv.mean())), ("median", float(np.median(DEM[VALID])))]))
    # typo
    add("zh062", "typo", "坡度大于40%的葡萄圆", [VYF], o_cmp(VY, "vineyard_id", "slope_pct", ">", 40, "<="))
    add("zh063", "typo", "统计每个村庄的酒状数量", [VLF, WNF], o_count_wn_per_village())
    add("zh064", "typo", "把自行车到投影到EPSG:25832", [CPF], o_crs_paths_to(25832))
    # open_ended
    add("zh065", "open_ended", "我们应该在哪里新建自行车道？", [CPF, VLF], why="planning question, no criteria")
    add("zh066", "open_ended", "帮我分析一下哪些酒庄最适合发展旅游", [WNF, FEF, CPF], why="open analysis, no defined measure")
    add("zh067", "open_ended", "这些数据有什么问题吗？", [VYF, WNF, CPF], why="open-ended data review")
    # ambiguous
    add("zh068", "ambiguous", "最大的三个酒庄", [WNF], why="'largest' fits hectares and capacity_hl equally; different top 3")
    add("zh069", "ambiguous", "统计每个村庄里的点数", [VLF, WNF, FEF], why="two point layers loaded (wineries, festivals)")
    add("zh070", "ambiguous", "按编号把登记表连接到图层上", [VYF, WNF, REGF],
        why="vineyards and wineries both carry estate_id; target layer not said")


def build():
    CASES.clear()
    english()
    german()
    chinese()
    return CASES
