"""blind11 cases: requests (en/de/zh), reference results and misreadings, defined once.

Every answer case has `checks` (bench/checkers.py format), a reference result `ref()` computed here with
geopandas/numpy/rasterio in Lambert-93 (EPSG:2154), and `mis`: misreadings that must fail the checks.
"""
from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.features import geometry_mask

D = Path(__file__).resolve().parent / "data"
TMP = Path(tempfile.mkdtemp(prefix="blind11-"))
L93 = 2154

S = gpd.read_file(D / "stops.gpkg").to_crs(L93)
H = gpd.read_file(D / "hospitals.gpkg")
N = gpd.read_file(D / "neighbourhoods.gpkg")
L3857 = gpd.read_file(D / "lines.gpkg")
L = L3857.to_crs(L93)
P3857 = gpd.read_file(D / "parks.gpkg")
P = P3857.to_crs(L93)
DKT = pd.read_csv(D / "bike_docks.csv")
DK = gpd.GeoDataFrame(DKT, geometry=gpd.points_from_xy(DKT.x, DKT.y), crs=L93)
R = pd.read_csv(D / "ridership_2025.csv")
with rasterio.open(D / "noise_lden.tif") as _r:
    NOISE = _r.read(1).astype(float)
    NT, NNODATA = _r.transform, _r.nodata
NOISE_V = np.where(NOISE == NNODATA, np.nan, NOISE)

THRESHOLDS_USED = []


# ---------------------------------------------------------------- outputs (fake run reports)
def _p(ext, name=None):
    return TMP / (name or f"{uuid.uuid4().hex[:10]}{ext}")


def vec(gdf, name=None, crs=None):
    g = gdf if crs is None else gdf.to_crs(crs)
    path = _p(".gpkg", name)
    if path.suffix == ".shp":
        g.to_file(path)
    elif path.suffix == ".geojson":
        g.to_file(path, driver="GeoJSON")
    else:
        g.to_file(path, driver="GPKG")
    return {"status": "ok", "answer": "", "outputs": [{"kind": "vector", "path": str(path)}]}


def tab(df, name=None):
    path = _p(".csv", name)
    pd.DataFrame(df).drop(columns="geometry", errors="ignore").to_csv(path, index=False)
    return {"status": "ok", "answer": "", "outputs": [{"kind": "table", "path": str(path)}]}


def ans(text):
    return {"status": "ok", "answer": str(text), "outputs": []}


def ras(arr, transform=None, crs="EPSG:2154"):
    path = _p(".tif")
    a = np.where(np.isnan(arr), -9999.0, arr).astype("float32")
    with rasterio.open(path, "w", driver="GTiff", width=a.shape[1], height=a.shape[0], count=1, dtype="float32",
                       crs=crs, transform=transform or NT, nodata=-9999.0) as dst:
        dst.write(a, 1)
    return {"status": "ok", "answer": "", "outputs": [{"kind": "raster", "path": str(path)}]}


# ---------------------------------------------------------------- checks
def c_ids(key, vals, kind="vector", as_str=False):
    conv = "astype(str)" if as_str else "astype(int)"
    return {"output": kind, "expect": f"sorted(out['{key}'].{conv}.tolist())", "equals": repr(sorted(vals))}


def c_len(n, kind="vector"):
    return {"output": kind, "expect": "len(out)", "equals": str(int(n))}


def c_num(v, rel=0.005, abs_=None):
    c = {"answer_number": repr(round(float(v), 4)), "rel": rel}
    if abs_ is not None:
        c["abs"] = abs_
    return c


def c_area(total_m2, rel=0.02, kind="vector"):
    return {"output": kind, "expect": "float(out.to_crs(2154).area.sum())", "equals": repr(round(float(total_m2), 1)),
            "rel": rel}


def c_col(key, keys_sorted_vals, rel=0.01, abs_=0.0, kind="vector"):
    """Some numeric column (not the key), with the rows sorted by the key field, equals the values."""
    n = len(keys_sorted_vals)
    vals = [round(float(v), 4) for v in keys_sorted_vals]
    return {"output": kind, "equals": "True",
            "expect": f"len(out) == {n} and any(np.allclose(out.sort_values('{key}')[c].astype(float).to_numpy(), "
                      f"{vals}, rtol={rel}, atol={abs_}) for c in out.columns if c not in ('{key}', 'geometry') "
                      f"and pd.api.types.is_numeric_dtype(out[c]))"}


def c_groups(mapping, rel=0.005, abs_=0.0, kind="any_table"):
    """Some column as group key (text, '.0' dropped) and some numeric column give these key -> value pairs."""
    m = {str(k): round(float(v), 4) for k, v in mapping.items()}
    return {"output": kind, "equals": "True",
            "expect": f"len(out) == {len(m)} and any(all(math.isclose(float(dict(zip([str(x).removesuffix('.0') for x in "
                      f"out[a]], out[c]))[k]), v, rel_tol={rel}, abs_tol={abs_}) if k in [str(x).removesuffix('.0') "
                      f"for x in out[a]] else False for k, v in {m}.items()) for a in out.columns for c in out.columns "
                      f"if c != a and c != 'geometry' and pd.api.types.is_numeric_dtype(out[c]))"}


def c_pairs(key, val, mapping, n=None, kind="vector"):
    keys = sorted(mapping)
    return {"output": kind, "equals": repr({int(k): int(mapping[k]) for k in keys}),
            "expect": f"{{int(k): int(v) for k, v in zip(out['{key}'], out['{val}']) if int(k) in {keys}}}"
            + ("" if n is None else f" if len(out) == {n} else None")}


def c_crs(epsg, kind="vector"):
    return {"output": kind, "crs": epsg}


def c_suffix(s, kind="vector"):
    return {"output": kind, "suffix": s}


def c_named(part):
    return {"output": "any_table", "equals": "True",
            "expect": f"any('{part}' in o['path'].replace(chr(92), '/').split('/')[-1] for o in report['outputs'])"}


def c_bounds(bounds, crs, atol):
    b = [round(float(v), 6) for v in bounds]
    return {"output": "any_table", "equals": "True",
            "expect": f"np.allclose(gpd.GeoDataFrame(out).to_crs({crs}).total_bounds if out.crs is not None else [0]*4, "
                      f"{b}, atol={atol})"}


def c_rstat(stat, v, rel=0.005, abs_=None):
    c = {"output": "raster", "expect": f"raster_stats(out)['{stat}']", "equals": repr(round(float(v), 4)), "rel": rel}
    if abs_ is not None:
        c["abs"] = abs_
    return c


# ---------------------------------------------------------------- computations (Lambert-93)
def dmin(a, b):
    return np.array([b.distance(g).min() for g in a.geometry])


def within(a, b, d):
    dist = dmin(a, b)
    assert not np.any(np.abs(dist - d) < 3.0), f"threshold {d} too close to a data value"
    return a[dist <= d]


def beyond(a, b, d):
    return a[dmin(a, b) > d]


def buffers(g, d, dissolve=False):
    out = g.copy()
    out["geometry"] = g.geometry.buffer(d, 32)
    if dissolve:
        out = gpd.GeoDataFrame(geometry=[out.union_all()], crs=g.crs)
    return out


def count_in(polys, pts, pkey):
    j = gpd.sjoin(pts[["geometry"]], polys[[pkey, "geometry"]], predicate="within")
    cnt = j.groupby(pkey).size()
    out = polys.copy()
    out["n_pts"] = [int(cnt.get(k, 0)) for k in polys[pkey]]
    return out


def sorted_vals(gdf, key, col):
    return gdf.sort_values(key)[col].tolist()


def zonal(polys, stat="mean", all_touched=False):
    res = []
    for g in polys.geometry:
        m = ~geometry_mask([g], NOISE.shape, NT, all_touched=all_touched)
        v = NOISE_V[m]
        v = v[~np.isnan(v)]
        res.append(float({"mean": np.mean, "max": np.max, "min": np.min, "median": np.median}[stat](v)))
    return res


def sample(pts):
    inv = ~NT
    vals = []
    for g in pts.geometry:
        c, r = inv * (g.x, g.y)
        vals.append(float(NOISE_V[int(r), int(c)]))
    return vals


def sample_bilinear(pts):
    inv = ~NT
    vals = []
    for g in pts.geometry:
        c, r = inv * (g.x, g.y)
        c, r = c - 0.5, r - 0.5
        c0, r0 = int(np.floor(c)), int(np.floor(r))
        fc, fr = c - c0, r - r0
        a = NOISE_V[r0:r0 + 2, c0:c0 + 2]
        vals.append(float(a[0, 0] * (1 - fc) * (1 - fr) + a[0, 1] * fc * (1 - fr) + a[1, 0] * (1 - fc) * fr
                          + a[1, 1] * fc * fr))
    return vals


def clip_raster(polys):
    m = geometry_mask(list(polys.geometry), NOISE.shape, NT, invert=True)
    rows, cols = np.where(m)
    r0, r1, c0, c1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
    arr = np.where(m, NOISE_V, np.nan)[r0:r1, c0:c1]
    from rasterio.transform import Affine
    t = NT * Affine.translation(c0, r0)
    return arr, t


def fmt(v, nd=2):
    return f"{v:.{nd}f}"


# ---------------------------------------------------------------- tasks
class T:
    def __init__(self, checks, ref, mis):
        self.checks, self.ref, self.mis = checks, ref, mis


def t_answer(v, mis_vals, rel=0.005, abs_=None, nd=2):
    return T([c_num(v, rel, abs_)], lambda: ans(f"The result is {fmt(v, nd)}."),
             [(lab, (lambda x=x: ans(f"The result is {fmt(x, nd)}."))) for lab, x in mis_vals])


def t_subset(gdf, key, mis, kind="vector", as_str=False, extra=(), save=None):
    """Keep features: ids check (+ extra checks). mis: list of (label, gdf)."""
    checks = [c_ids(key, gdf[key].tolist(), kind, as_str)] + list(extra)
    return T(checks, lambda: vec(gdf, save), [(lab, (lambda m=m: vec(m))) for lab, m in mis])


TRAM = S[S["mode"] == "tram"]
ACC = S[S["accessible"] == "yes"]
EMER = H[H["emergency"] == "yes"]
CLIN = H[H["type"] == "clinic"]
HOSPO = H[H["type"] == "hospital"]
OLD = N[N["name"] == "Old Town"]
PARKST = S[S["name"] == "Park Station"]

CASES = []


def A(lang, cls, request, inputs, task):
    CASES.append(dict(lang=lang, cls=cls, request=request, inputs=inputs, expect="answer", task=task))


def X(lang, cls, request, inputs, why):
    CASES.append(dict(lang=lang, cls=cls, request=request, inputs=inputs, expect="decline", why=why))


# ================================================================ tasks used by the cases
def I(*names):
    return [f"b:{n}" for n in names]


st, ho, nb, li, pa, dk, ri, no = ("stops.gpkg", "hospitals.gpkg", "neighbourhoods.gpkg", "lines.gpkg", "parks.gpkg",
                                  "bike_docks.csv", "ridership_2025.csv", "noise_lden.tif")


def tok(lines_field, token):
    return [token in str(v).split(",") for v in lines_field]


def nb_of(pts):
    return [int(N[N.contains(g)]["nb_id"].iloc[0]) for g in pts.geometry]


# plain / each_per
TK_COUNT = t_answer(71, [("tram stops only", 30), ("bus stops only", 33)], rel=0, nd=0)
TK_COUNT_TRAM = t_answer(len(TRAM), [("the whole layer", 71), ("tram lines", 3)], rel=0, nd=0)
TK_COUNT_ACC = t_answer(len(ACC), [("the whole layer", 71), ("negation", 71 - len(ACC))], rel=0, nd=0)
TK_COUNT_NOTACC = t_answer(71 - len(ACC), [("negation dropped", len(ACC)), ("the whole layer", 71)], rel=0, nd=0)
TK_COUNT_METRO = t_answer(int((S["mode"] == "metro").sum()), [("the whole layer", 71), ("metro lines", 1)], rel=0, nd=0)
TK_COUNT_CLIN = t_answer(len(CLIN), [("the whole layer", 10)], rel=0, nd=0)


def tk_buffer(g, d, key=None, mis_d=(), dissolve_mis=True):
    ref = buffers(g, d)
    checks = [c_len(len(g)), c_area(ref.area.sum())]
    mis = [(f"{md} m", (lambda md=md: vec(buffers(g, md)))) for md in mis_d]
    if dissolve_mis:
        mis.append(("dissolved", lambda: vec(buffers(g, d, True))))
    return T(checks, lambda: vec(ref), mis)


TK_BUF_HOSP500 = tk_buffer(H, 500, mis_d=(500 * 0.3048, 50, 5000))
TK_BUF_TRAM250 = T([c_len(30), c_area(buffers(TRAM, 250).area.sum())], lambda: vec(buffers(TRAM, 250)),
                   [("all stops", lambda: vec(buffers(S, 250))), ("250 ft", lambda: vec(buffers(TRAM, 76.2)))])
TK_BUF_STOPS250 = T([c_len(71), c_area(buffers(S, 250).area.sum())], lambda: vec(buffers(S, 250)),
                    [("250 ft", lambda: vec(buffers(S, 76.2))), ("2.5 km", lambda: vec(buffers(S, 2500))),
                     ("tram only", lambda: vec(buffers(TRAM, 250)))])

_cent = N.copy()
_cent["geometry"] = N.geometry.centroid
TK_CENTROIDS = T([c_len(12), {"output": "vector", "expect": "float(out.to_crs(2154).geometry.x.mean())",
                              "equals": "769000.0", "abs": 1.0},
                  {"output": "vector", "expect": "float(out.to_crs(2154).geometry.y.mean())", "equals": "6279000.0",
                   "abs": 1.0}],
                 lambda: vec(_cent), [("polygons kept", lambda: vec(N)), ("one centroid of all", lambda: vec(
                     gpd.GeoDataFrame(geometry=[N.union_all().centroid], crs=L93)))])

_pha = P.assign(area_ha=P.area / 1e4)
TK_PARK_HA = T([c_col("park_id", sorted_vals(_pha, "park_id", "area_ha"), rel=0.01)], lambda: vec(_pha),
               [("Web Mercator area", lambda: vec(P3857.assign(area_ha=P3857.area / 1e4))),
                ("m2", lambda: vec(P.assign(area_m2=P.area)))])
_lkm = L.assign(len_km=L.length / 1000)
TK_LINE_KM = T([c_col("line", sorted_vals(_lkm, "line", "len_km"), rel=0.01)], lambda: vec(_lkm),
               [("Web Mercator length", lambda: vec(L3857.assign(len_km=L3857.length / 1000))),
                ("metres read as km", lambda: vec(L.assign(len_km=L.length)))])
_hull = gpd.GeoDataFrame(geometry=[S.union_all().convex_hull], crs=L93)
TK_HULL = T([c_len(1), c_area(_hull.area.sum(), rel=0.01)], lambda: vec(_hull),
            [("bounding box", lambda: vec(gpd.GeoDataFrame(geometry=[S.union_all().envelope], crs=L93))),
             ("tram stops' hull", lambda: vec(gpd.GeoDataFrame(geometry=[TRAM.union_all().convex_hull], crs=L93)))])
_dz = N.dissolve("fare_zone", as_index=False)
_zarea = sorted((_dz.area / 1e6).round(3).tolist())
TK_DISS_ZONE = T([c_len(3), {"output": "vector", "expect": "sorted(np.round(out.to_crs(2154).area / 1e6, 3).tolist())",
                             "equals": repr(_zarea)}], lambda: vec(_dz),
                 [("all into one", lambda: vec(gpd.GeoDataFrame(geometry=[N.union_all()], crs=L93))),
                  ("not dissolved", lambda: vec(N))])
TK_DISS_ZONE_KM2 = T([c_len(3), c_col("fare_zone", sorted_vals(_dz.assign(a=_dz.area / 1e6), "fare_zone", "a"))],
                     lambda: vec(_dz.assign(area_km2x=_dz.area / 1e6)),
                     [("not dissolved", lambda: vec(N.assign(a=N.area / 1e6))),
                      ("ha", lambda: vec(_dz.assign(a=_dz.area / 1e4)))])


def nearest_pairs(a, akey, b, bkey, margin=50.0):
    res, robust = {}, {}
    for k, g in zip(a[akey], a.geometry):
        d = b.distance(g).sort_values()
        res[int(k)] = int(b.loc[d.index[0], bkey])
        if len(d) < 2 or d.iloc[1] - d.iloc[0] >= margin:
            robust[int(k)] = res[int(k)]
    return res, robust


_sn, _snr = nearest_pairs(S, "stop_id", H, "hosp_id")
_hn, _hnr = nearest_pairs(H, "hosp_id", S, "stop_id")
_S_near = S.assign(hosp_id=[_sn[k] for k in S.stop_id])
_H_near = H.assign(stop_id=[_hn[k] for k in H.hosp_id])
TK_NEAR_HOSP = T([c_pairs("stop_id", "hosp_id", _snr, n=71)], lambda: vec(_S_near),
                 [("roles swapped", lambda: vec(_H_near))])
TK_NEAR_STOP = T([c_pairs("hosp_id", "stop_id", _hnr, n=10)], lambda: vec(_H_near),
                 [("roles swapped", lambda: vec(_S_near))])
_E_near = EMER.assign(stop_id=[_hn[k] for k in EMER.hosp_id])
TK_NEAR_STOP_EMER = T([c_pairs("hosp_id", "stop_id", {k: v for k, v in _hnr.items() if k in set(EMER.hosp_id)},
                               n=len(EMER))], lambda: vec(_E_near),
                      [("all facilities", lambda: vec(_H_near)), ("roles swapped", lambda: vec(_S_near))])
_desc = S.sort_values("boardings", ascending=False)
TK_SORT_DESC = T([{"output": "vector", "expect": "out['stop_id'].astype(int).tolist()[:5]",
                   "equals": repr(_desc.stop_id.tolist()[:5])}, c_len(71)], lambda: vec(_desc),
                 [("ascending", lambda: vec(S.sort_values("boardings")))])
TK_PARKST = t_subset(PARKST, "stop_id", [("stops in parks", S[[P.contains(g).any() for g in S.geometry]]),
                                          ("Station Park", P[P.name == "Station Park"])])

# each_per
TK_POP_TOTAL = t_answer(N.population.sum(), [("mean", N.population.mean()), ("zone 1 only",
                        N[N.fare_zone == 1].population.sum())], rel=0, nd=0)
_pz = N.groupby("fare_zone").population.sum()
TK_POP_ZONE = T([c_groups(_pz.to_dict())], lambda: tab(_pz.reset_index()),
                [("total", lambda: ans(f"{N.population.sum()}")),
                 ("mean per zone", lambda: tab(N.groupby("fare_zone").population.mean().reset_index()))])
_cnt = count_in(N, S, "nb_id")
TK_COUNT_PER_NB = T([c_col("nb_id", sorted_vals(_cnt, "nb_id", "n_pts"), rel=0)], lambda: vec(_cnt),
                    [("total", lambda: ans("71")), ("tram stops only", lambda: vec(count_in(N, TRAM, "nb_id")))])
_cnt_t = count_in(N, TRAM, "nb_id")
TK_COUNT_TRAM_PER_NB = T([c_col("nb_id", sorted_vals(_cnt_t, "nb_id", "n_pts"), rel=0)], lambda: vec(_cnt_t),
                         [("all stops", lambda: vec(_cnt)), ("total", lambda: ans(str(len(TRAM))))])
TK_BOARD_TOTAL = t_answer(S.boardings.sum(), [("mean", S.boardings.mean()), ("tram only", TRAM.boardings.sum())],
                          rel=0, nd=0)
_bm = S.groupby("mode").boardings.sum()
TK_BOARD_MODE = T([c_groups(_bm.to_dict())], lambda: tab(_bm.reset_index()),
                  [("mean", lambda: tab(S.groupby("mode").boardings.mean().reset_index())),
                   ("total", lambda: ans(str(S.boardings.sum())))])
_tram_km = L[L["mode"] == "tram"].length.sum() / 1000
TK_TRAM_KM = t_answer(_tram_km, [("Web Mercator", L3857[L3857["mode"] == "tram"].length.sum() / 1000),
                                 ("all lines", L.length.sum() / 1000)], rel=0.01)
_beds = H.groupby("type").beds.sum()
TK_BEDS_TYPE = T([c_groups(_beds.to_dict())], lambda: tab(_beds.reset_index()),
                 [("total", lambda: ans(str(H.beds.sum()))),
                  ("mean", lambda: tab(H.groupby("type").beds.mean().reset_index()))])
TK_BEDS_TOTAL = t_answer(H.beds.sum(), [("general only", HOSPO.beds.sum()), ("mean", H.beds.mean())], rel=0, nd=0)
TK_PARK_TOTAL = t_answer(P.area.sum() / 1e4, [("Web Mercator", P3857.area.sum() / 1e4), ("m2 as ha", P.area.sum())],
                         rel=0.01)

# negation
NOTACC = S[S.accessible == "no"]
TK_NOTACC = t_subset(NOTACC, "stop_id", [("negation dropped", ACC), ("all", S)])
_far400 = beyond(S, H, 400)
_near400 = within(S, H, 400)
TK_STOPS_FAR400 = t_subset(_far400, "stop_id", [("negation dropped", _near400), ("400 ft", beyond(S, H, 121.92))])
TK_NB_EXCEPT_OLD = t_subset(N[N.name != "Old Town"], "nb_id", [("negation dropped", OLD), ("all", N)])
TK_LINES_NONIGHT = t_subset(L[L.night_service == "no"], "line", [("negation dropped", L[L.night_service == "yes"])],
                            as_str=True)
_inpark = S[[P.contains(g).any() for g in S.geometry]]
TK_STOPS_OUTPARK = t_subset(S[[not P.contains(g).any() for g in S.geometry]], "stop_id",
                            [("negation dropped", _inpark)])
_nbh = N[[H.within(g).any() for g in N.geometry]]
TK_NB_NOHOSP = t_subset(N[[not H.within(g).any() for g in N.geometry]], "nb_id", [("negation dropped", _nbh)])
TK_NB_WITHHOSP = t_subset(_nbh, "nb_id", [("roles swapped: hospitals", H),
                                          ("negation", N[[not H.within(g).any() for g in N.geometry]])])
TK_LINES_NOTBUS = t_subset(L[L["mode"] != "bus"], "line", [("negation dropped", L[L["mode"] == "bus"]),
                                                            ("tram only", L[L["mode"] == "tram"])], as_str=True)
TK_HOSP_NOEMER = t_subset(H[H.emergency == "no"], "hosp_id", [("negation dropped", EMER)])
TK_DOCKS_NOTELEC = T([c_ids("dock_id", DK[DK.electric == "no"].dock_id.tolist(), "any_table")],
                     lambda: vec(DK[DK.electric == "no"]), [("negation dropped", lambda: vec(DK[DK.electric == "yes"]))])
_not2 = S[[not t for t in tok(S.lines, "2")]]
TK_STOPS_NOT2 = t_subset(_not2, "stop_id", [("negation dropped", S[tok(S.lines, "2")]),
                                             ("substring '2'", S[~S.lines.str.contains("2")])])

# roles
def tk_within(a, akey, b, bkey, d, extra_mis=()):
    ref = within(a, b, d)
    mis = [("roles swapped", within(b, a, d)), ("negation", beyond(a, b, d))] + list(extra_mis)
    return t_subset(ref, akey, mis)


TK_S_NEAR_H300 = tk_within(S, "stop_id", H, "hosp_id", 300, [("300 ft", within(S, H, 91.44))])
TK_H_NEAR_S300 = tk_within(H, "hosp_id", S, "stop_id", 300)
TK_S_NEAR_H250 = tk_within(S, "stop_id", H, "hosp_id", 250, [("300 m", within(S, H, 300))])
TK_H_NEAR_S400 = tk_within(H, "hosp_id", S, "stop_id", 400, [("300 m", within(H, S, 300))])
TK_S_NEAR_H600 = tk_within(S, "stop_id", H, "hosp_id", 600)
TK_S_NEAR_PARKST = t_subset(within(S, PARKST, 1000), "stop_id",
                            [("parks for Park Station", within(S, P, 1000)), ("1 km ignored", PARKST)])
TK_S_NEAR_EMER = tk_within(S, "stop_id", EMER, "hosp_id", 400, [("all facilities", within(S, H, 400))])


def per_count(a, akey, b, d):
    out = a.copy()
    out["n"] = [int((b.distance(g) <= d).sum()) for g in a.geometry]
    for g in a.geometry:
        assert not np.any(np.abs(b.distance(g) - d) < 3.0)
    return out


_hc600 = per_count(H, "hosp_id", S, 600)
TK_HOSP_COUNT600 = T([c_col("hosp_id", sorted_vals(_hc600, "hosp_id", "n"), rel=0)], lambda: vec(_hc600),
                     [("roles swapped", lambda: vec(per_count(S, "stop_id", H, 600))),
                      ("300 m", lambda: vec(per_count(H, "hosp_id", S, 300)))])
_pk_tram = P[[L[L["mode"] == "tram"].intersects(g).any() for g in P.geometry]]
TK_PARKS_TRAM = t_subset(_pk_tram, "park_id", [("roles swapped", L[L["mode"] == "tram"]),
                                               ("negation", P[[not L[L["mode"] == "tram"].intersects(g).any()
                                                               for g in P.geometry]])])

# crs_roles
TK_NB_4326 = T([c_crs(4326), c_len(12)], lambda: vec(N, crs=4326), [("unchanged", lambda: vec(N)),
                                                                   ("Web Mercator", lambda: vec(N, crs=3857))])
TK_S_L93 = T([c_crs(2154), c_len(71)], lambda: vec(S), [("unchanged", lambda: vec(S, crs=4326))])
TK_L_L93 = T([c_crs(2154), c_len(10), {"output": "vector", "expect": "float(out.length.sum())",
                                        "equals": repr(round(float(L.length.sum()), 1)), "rel": 0.001}],
             lambda: vec(L), [("unchanged", lambda: vec(L3857)),
                              ("assigned, not reprojected", lambda: vec(L3857.set_crs(2154, allow_override=True)))])
_dk4326 = DK.to_crs(4326)
TK_DK_4326 = T([c_crs(4326, "any_table"), c_len(30, "any_table"), c_bounds(_dk4326.total_bounds, 4326, 1e-4)],
               lambda: vec(_dk4326),
               [("metres labelled degrees", lambda: vec(DK.set_crs(4326, allow_override=True))),
                ("Lambert-93 kept", lambda: vec(DK))])
TK_DK_ASSIGN = T([c_crs(2154, "any_table"), c_bounds(DK.total_bounds, 2154, 0.5)], lambda: vec(DK),
                 [("reprojected from degrees", lambda: vec(gpd.GeoDataFrame(DKT, geometry=gpd.points_from_xy(
                     DKT.x / 1e5, DKT.y / 1e5), crs=4326).to_crs(2154))), ("WGS 84", lambda: vec(_dk4326))])
TK_H_3857 = T([c_crs(3857), c_len(10)], lambda: vec(H, crs=3857), [("WGS 84", lambda: vec(H, crs=4326)),
                                                                  ("unchanged", lambda: vec(H))])
TK_P_L93 = T([c_crs(2154), c_area(P.area.sum(), rel=0.01)], lambda: vec(P),
             [("assigned only", lambda: vec(P3857.set_crs(2154, allow_override=True)))])

# numbers
def tk_thresh(g, key, field, op_ref, val, op_mis, as_str=False, extra_mis=()):
    ops = {">": lambda s: s > val, ">=": lambda s: s >= val, "<": lambda s: s < val, "<=": lambda s: s <= val}
    ref = g[ops[op_ref](g[field])]
    mis = [(f"{op_mis} for {op_ref}", g[ops[op_mis](g[field])])] + list(extra_mis)
    return t_subset(ref, key, mis, as_str=as_str)


TK_B_GE1500 = tk_thresh(S, "stop_id", "boardings", ">=", 1500, ">")
TK_B_GT1500 = tk_thresh(S, "stop_id", "boardings", ">", 1500, ">=")
TK_B_GT2000 = tk_thresh(S, "stop_id", "boardings", ">", 2000, ">=")
TK_BEDS_GT300 = tk_thresh(H, "hosp_id", "beds", ">", 300, ">=")
TK_BEDS_GE300 = tk_thresh(H, "hosp_id", "beds", ">=", 300, ">")
TK_FREQ_GE6 = tk_thresh(L, "line", "frequency", ">=", 6, ">", as_str=True)
TK_FREQ_GT6 = tk_thresh(L, "line", "frequency", ">", 6, ">=", as_str=True)
TK_POP_LT12000 = tk_thresh(N, "nb_id", "population", "<", 12000, "<=")
TK_POP_LE12000 = tk_thresh(N, "nb_id", "population", "<=", 12000, "<")
TK_INC_GE21000 = tk_thresh(N, "nb_id", "median_income", ">=", 21000, ">")
TK_INC_LT21000 = tk_thresh(N, "nb_id", "median_income", "<", 21000, "<=")
TK_PARK_GT5HA = t_subset(P[P.area > 5e4], "park_id", [("Web Mercator area", P[P3857.area > 5e4]),
                                                       ("m2", P[P.area > 5])])
TK_LINES_GT6KM = t_subset(L[L.length > 6000], "line", [("Web Mercator length", L[L3857.length > 6000])], as_str=True)
TK_DK_GT20 = T([c_ids("dock_id", DK[DK.capacity > 20].dock_id.tolist(), "any_table")],
               lambda: tab(DKT[DKT.capacity > 20]), [(">= for >", lambda: tab(DKT[DKT.capacity >= 20]))])
TK_DK_GE20 = T([c_ids("dock_id", DK[DK.capacity >= 20].dock_id.tolist(), "any_table")],
               lambda: tab(DKT[DKT.capacity >= 20]), [("> for >=", lambda: tab(DKT[DKT.capacity > 20]))])

# chain
_tb300 = buffers(TRAM, 300, True)
TK_TRAM_BUF_DISS = T([c_len(1), c_area(_tb300.area.sum(), rel=0.02)], lambda: vec(_tb300),
                     [("not dissolved", lambda: vec(buffers(TRAM, 300))),
                      ("all stops", lambda: vec(buffers(S, 300, True)))])
TK_ACC_L93_GJ = T([c_suffix(".geojson"), c_crs(2154), c_ids("stop_id", ACC.stop_id.tolist())],
                  lambda: vec(ACC, name="accessible.geojson"),
                  [("all stops", lambda: vec(S, name="all.geojson")), ("gpkg", lambda: vec(ACC)),
                   ("not reprojected", lambda: vec(ACC, name="acc4326.geojson", crs=4326))])
_RJ = S.merge(R, left_on="stop_id", right_on="stop_ref", how="left")
TK_JOIN_WD3000 = t_subset(_RJ[_RJ.weekday_avg > 3000], "stop_id",
                          [("boardings field", _RJ[_RJ.boardings > 3000]),
                           ("weekend field", _RJ[_RJ.weekend_avg > 1500]),
                           ("row-order join", S[np.resize(R.weekday_avg.to_numpy(), 71) > 3000])])
_matched = _RJ.dropna(subset=["weekday_avg"])
TK_JOIN = T([c_pairs("stop_id", "weekday_avg", dict(zip(_matched.stop_id, _matched.weekday_avg.astype(int))))],
            lambda: vec(_RJ), [("row-order join", lambda: vec(S.assign(weekday_avg=np.resize(R.weekday_avg.to_numpy(), 71)))),
                               ("no join", lambda: vec(S))])
_z1 = S[[g.within(N[N.fare_zone == 1].union_all()) for g in S.geometry]]
TK_STOPS_ZONE1 = t_subset(_z1, "stop_id", [("line 1 for zone 1", S[tok(S.lines, "1")]),
                                          ("zone 1 neighbourhoods", N[N.fare_zone == 1])])
TK_STOPS_LINE1 = t_subset(S[tok(S.lines, "1")], "stop_id", [("zone 1", _z1),
                                                           ("substring", S[S.lines.str.contains("1")])])
_old_mean = float(np.nanmean(clip_raster(OLD)[0]))
TK_NOISE_OLD = t_answer(_old_mean, [("whole raster", float(np.nanmean(NOISE_V))),
                                    ("max", float(np.nanmax(clip_raster(OLD)[0])))], abs_=0.05)

# output clause
TK_EMER_GJ = T([c_suffix("emergency.geojson"), c_ids("hosp_id", EMER.hosp_id.tolist())],
               lambda: vec(EMER, name="emergency.geojson"),
               [("all facilities", lambda: vec(H, name="emergency.geojson")),
                ("gpkg", lambda: vec(EMER, name="emergency.gpkg"))])
TK_PARKS_SHP = T([c_suffix("green_spaces.shp"), c_len(8)], lambda: vec(P, name="green_spaces.shp"),
                 [("gpkg", lambda: vec(P, name="green_spaces.gpkg")), ("other name", lambda: vec(P, name="parks.shp"))])
TK_STOPS_CSV = T([c_suffix(".csv", "any_table"), c_len(71, "any_table")], lambda: tab(S),
                 [("gpkg", lambda: vec(S)), ("tram only", lambda: tab(TRAM))])
TK_DK_BUF_GPKG = T([c_suffix("docks_200m.gpkg"), c_len(30), c_area(buffers(DK, 200).area.sum())],
                   lambda: vec(buffers(DK, 200), name="docks_200m.gpkg"),
                   [("geojson", lambda: vec(buffers(DK, 200), name="docks_200m.geojson")),
                    ("20 m", lambda: vec(buffers(DK, 20), name="docks_200m.gpkg"))])
_acc_tram = S[(S["mode"] == "tram") & (S.accessible == "yes")]
TK_ACCTRAM_NAMED = T([c_named("access_tram"), c_ids("stop_id", _acc_tram.stop_id.tolist())],
                     lambda: vec(_acc_tram, name="access_tram.gpkg"),
                     [("other name", lambda: vec(_acc_tram)),
                      ("all tram", lambda: vec(TRAM, name="access_tram.gpkg"))])
TK_NB_GJ = T([c_suffix(".geojson"), c_len(12)], lambda: vec(N, name="nb.geojson", crs=4326),
             [("gpkg in Lambert-93", lambda: vec(N)), ("one zone", lambda: vec(OLD, name="nb.geojson"))])
_TL = L[L["mode"] == "tram"]
TK_TRAM_KML = T([c_suffix(".kml"), c_ids("line", _TL.line.tolist(), as_str=True)],
                lambda: vec(_TL.to_crs(4326), name="tram.geojson") | {"outputs": [{"kind": "vector", "path": _kml(_TL)}]},
                [("all lines", lambda: {"status": "ok", "answer": "", "outputs": [{"kind": "vector", "path": _kml(L)}]}),
                 ("gpkg", lambda: vec(_TL))])


def _kml(g):
    path = _p(".kml")
    g.to_crs(4326).to_file(path, driver="KML")
    return str(path)


TK_CLIN_GPKG = T([c_suffix("clinics_2025.gpkg"), c_ids("hosp_id", CLIN.hosp_id.tolist())],
                 lambda: vec(CLIN, name="clinics_2025.gpkg"),
                 [("all facilities", lambda: vec(H, name="clinics_2025.gpkg")),
                  ("shp", lambda: vec(CLIN, name="clinics_2025.shp"))])

# statistics
TK_MEAN_B_MODE = T([c_groups(S.groupby("mode").boardings.mean().to_dict())],
                   lambda: tab(S.groupby("mode").boardings.mean().reset_index()),
                   [("median", lambda: tab(S.groupby("mode").boardings.median().reset_index())),
                    ("sum", lambda: tab(_bm.reset_index()))])
_med_inc = N.groupby("fare_zone").median_income.median()
TK_MED_INC_ZONE = T([c_groups(_med_inc.to_dict())], lambda: tab(_med_inc.reset_index()),
                    [("mean", lambda: tab(N.groupby("fare_zone").median_income.mean().reset_index())),
                     ("overall median", lambda: ans(str(N.median_income.median())))])
TK_MAX_BEDS_TYPE = T([c_groups(H.groupby("type").beds.max().to_dict())],
                     lambda: tab(H.groupby("type").beds.max().reset_index()),
                     [("mean", lambda: tab(H.groupby("type").beds.mean().reset_index())),
                      ("overall max", lambda: ans(str(H.beds.max())))])
_bus = L[L["mode"] == "bus"]
TK_BUS_FREQ = t_answer(_bus.frequency.mean(), [("all lines", L.frequency.mean()), ("median", _bus.frequency.median())],
                       rel=0.005)
TK_MED_B_ACC = t_answer(ACC.boardings.median(), [("mean", ACC.boardings.mean()), ("all stops", S.boardings.median())],
                        rel=0, abs_=0.5, nd=1)
TK_MAX_B = t_answer(S.boardings.max(), [("tram max", TRAM.boardings.max()), ("mean", S.boardings.mean())], rel=0, nd=0)
_nbm = N.copy()
_j = gpd.sjoin(S[["boardings", "geometry"]], N[["nb_id", "geometry"]], predicate="within")
_nbm["mean_b"] = [float(_j[_j.nb_id == k].boardings.mean()) for k in N.nb_id]
TK_MEAN_B_NB = T([c_col("nb_id", sorted_vals(_nbm, "nb_id", "mean_b"), rel=0.001)], lambda: vec(_nbm),
                 [("sum", lambda: vec(N.assign(s=[float(_j[_j.nb_id == k].boardings.sum()) for k in N.nb_id]))),
                  ("overall mean", lambda: ans(f"{S.boardings.mean():.1f}"))])
_cap = DKT.groupby("electric").capacity.sum()
TK_CAP_ELEC = T([c_groups(_cap.to_dict())], lambda: tab(_cap.reset_index()),
                [("count", lambda: tab(DKT.groupby("electric").size().reset_index())),
                 ("total", lambda: ans(str(DKT.capacity.sum())))])

# raster
_nm = float(np.nanmean(NOISE_V))
TK_NOISE_MEAN = t_answer(_nm, [("nodata counted", float(np.mean(NOISE))), ("median", float(np.nanmedian(NOISE_V)))],
                         rel=0, abs_=0.05)
TK_NOISE_MAX = t_answer(float(np.nanmax(NOISE_V)), [("mean", _nm), ("min", float(np.nanmin(NOISE_V)))],
                        rel=0, abs_=0.01)
_hs = H.assign(noise=sample(H))
_htol = round(float(np.max(np.abs(np.array(sample_bilinear(H)) - np.array(sample(H))))) + 0.3, 1)
TK_SAMPLE_H = T([c_col("hosp_id", sorted_vals(_hs, "hosp_id", "noise"), abs_=_htol, rel=0)], lambda: vec(_hs),
                [("sampled at stops", lambda: vec(S.assign(noise=sample(S))))])
_zn = N.assign(noise_mean=zonal(N))
TK_ZONAL_NB = T([c_col("nb_id", sorted_vals(_zn, "nb_id", "noise_mean"), abs_=0.05, rel=0)], lambda: vec(_zn),
                [("max", lambda: vec(N.assign(m=zonal(N, "max")))),
                 ("nodata counted", lambda: vec(N.assign(m=[float(np.mean(NOISE[~geometry_mask([g], NOISE.shape, NT)]))
                                                              for g in N.geometry])))])
_zn_max = N.assign(noise_max=zonal(N, "max"))
TK_ZONAL_NB_MAX = T([c_col("nb_id", sorted_vals(_zn_max, "nb_id", "noise_max"), abs_=0.01, rel=0)],
                    lambda: vec(_zn_max), [("mean", lambda: vec(_zn))])
_zp = P.assign(noise_mean=zonal(P))
TK_ZONAL_PARK = T([c_col("park_id", sorted_vals(_zp, "park_id", "noise_mean"), abs_=0.8, rel=0)], lambda: vec(_zp),
                  [("max", lambda: vec(P.assign(m=zonal(P, "max"))))])
_cp, _cpt = clip_raster(P)
TK_CLIP_PARKS = T([c_rstat("mean", float(np.nanmean(_cp)), rel=0, abs_=0.3),
                   c_rstat("max", float(np.nanmax(_cp)), rel=0, abs_=1.0)],
                  lambda: ras(_cp, _cpt), [("not clipped", lambda: ras(NOISE_V)),
                                            ("clipped to extent only", lambda: ras(*_bbox_clip(P)))])


def _bbox_clip(polys):
    from rasterio.transform import Affine
    inv = ~NT
    x0, y0, x1, y1 = polys.total_bounds
    c0, r0 = inv * (x0, y1)
    c1, r1 = inv * (x1, y0)
    c0, r0, c1, r1 = int(c0), int(r0), int(np.ceil(c1)), int(np.ceil(r1))
    return NOISE_V[r0:r1, c0:c1], NT * Affine.translation(c0, r0)


_co, _cot = clip_raster(OLD)
TK_CLIP_OLD = T([c_rstat("mean", float(np.nanmean(_co)), rel=0, abs_=0.05), c_crs(2154, "raster")],
                lambda: ras(_co, _cot), [("not clipped", lambda: ras(NOISE_V)),
                                         ("Station Quarter", lambda: ras(*clip_raster(N[N.name == "Station Quarter"])))])
_ttol = round(abs(float(np.mean(sample_bilinear(TRAM))) - float(np.mean(sample(TRAM)))) + 0.2, 1)
TK_NOISE_TRAM = t_answer(float(np.mean(sample(TRAM))), [("all stops", float(np.mean(sample(S)))),
                                                       ("raster mean", _nm)], rel=0, abs_=_ttol)


# ================================================================ the cases
# ---------------- English
e = "en"
A(e, "plain", "How many stops are there?", I(st), TK_COUNT)
A(e, "plain", "Buffer the hospitals by 500 m", I(ho), TK_BUF_HOSP500)
A(e, "plain", "centroids of the neighbourhoods", I(nb), TK_CENTROIDS)
A(e, "plain", "Calculate the area of each park in hectares", I(pa), TK_PARK_HA)
A(e, "plain", "What is the length of every transit line in km?", I(li), TK_LINE_KM)
A(e, "plain", "Draw the convex hull around all stops", I(st), TK_HULL)
A(e, "plain", "Dissolve the neighbourhoods by fare_zone", I(nb), TK_DISS_ZONE)
A(e, "plain", "sort the stops by daily boardings, busiest first", I(st), TK_SORT_DESC)
A(e, "plain", "Select the stop named Park Station", I(st, pa), TK_PARKST)
A(e, "each_per", "What is the total population of all neighbourhoods?", I(nb), TK_POP_TOTAL)
A(e, "each_per", "population per fare zone", I(nb), TK_POP_ZONE)
A(e, "each_per", "Count the stops in each neighbourhood", I(st, nb), TK_COUNT_PER_NB)
A(e, "each_per", "How many boardings do all the stops have together per day?", I(st), TK_BOARD_TOTAL)
A(e, "each_per", "Sum the daily boardings for each mode", I(st), TK_BOARD_MODE)
A(e, "each_per", "What's the total area of all parks in ha?", I(pa), TK_PARK_TOTAL)
A(e, "each_per", "total number of beds per facility type", I(ho), TK_BEDS_TYPE)
A(e, "negation", "Which stops are not accessible?", I(st), TK_NOTACC)
A(e, "negation", "Find the stops that are not within 400 m of any hospital", I(st, ho), TK_STOPS_FAR400)
A(e, "negation", "all neighbourhoods except the Old Town", I(nb), TK_NB_EXCEPT_OLD)
A(e, "negation", "Show lines without night service", I(li), TK_LINES_NONIGHT)
A(e, "negation", "Which neighbourhoods have no hospital in them?", I(nb, ho), TK_NB_NOHOSP)
A(e, "negation", "Keep every line except the buses", I(li), TK_LINES_NOTBUS)
A(e, "negation", "stops outside the parks", I(st, pa), TK_STOPS_OUTPARK)
A(e, "negation", "stops that are not served by line 2", I(st), TK_STOPS_NOT2)
A(e, "roles", "Select the stops within 300 m of a hospital", I(st, ho), TK_S_NEAR_H300)
A(e, "roles", "Which hospitals are within 300 m of a stop?", I(st, ho), TK_H_NEAR_S300)
A(e, "roles", "For each hospital, count the stops within 600 m", I(ho, st), TK_HOSP_COUNT600)
A(e, "roles", "For every hospital find the nearest stop", I(ho, st), TK_NEAR_STOP)
A(e, "roles", "Which parks does a tram line pass through?", I(pa, li), TK_PARKS_TRAM)
A(e, "roles", "neighbourhoods that contain at least one hospital", I(nb, ho), TK_NB_WITHHOSP)
A(e, "roles", "stops within 1 km of Park Station", I(st, pa), TK_S_NEAR_PARKST)
A(e, "crs_roles", "Reproject the neighbourhoods to WGS 84", I(nb), TK_NB_4326)
A(e, "crs_roles", "The stops are in WGS 84 - convert them to Lambert-93 (EPSG:2154)", I(st), TK_S_L93)
A(e, "crs_roles", "Transform the lines from Web Mercator into EPSG:2154", I(li), TK_L_L93)
A(e, "crs_roles", "bike_docks.csv has x/y in Lambert-93 (EPSG:2154); make it a point layer in EPSG:4326", I(dk),
  TK_DK_4326)
A(e, "crs_roles", "Set the CRS of the bike docks to EPSG:2154 (the coordinates are already Lambert-93)", I(dk),
  TK_DK_ASSIGN)
X(e, "crs_roles", "reproject the stops to Lambert", I(st),
  "'Lambert' alone does not name a CRS in France: Lambert-93 (EPSG:2154), Lambert II etendu (EPSG:27572) and the "
  "CC conic zones (CC43 EPSG:3943, CC44 EPSG:3944) are all in use")
X(e, "crs_roles", "The lines layer is in Lambert-93; reproject it to WGS 84", I(li),
  "the stated source CRS contradicts the file: lines.gpkg is in EPSG:3857 (Web Mercator); assigning Lambert-93 "
  "and reprojecting would put the lines far away, keeping the file's CRS ignores the user: ask")
A(e, "numbers", "stops with at least 1500 daily boardings", I(st), TK_B_GE1500)
A(e, "numbers", "Select stops with more than 1500 boardings", I(st), TK_B_GT1500)
A(e, "numbers", "hospitals with more than 300 beds", I(ho), TK_BEDS_GT300)
A(e, "numbers", "Which lines run at least 6 times an hour? (frequency field)", I(li), TK_FREQ_GE6)
A(e, "numbers", "neighbourhoods with a population under 12000", I(nb), TK_POP_LT12000)
A(e, "numbers", "Which parks are larger than 5 ha?", I(pa), TK_PARK_GT5HA)
A(e, "numbers", "lines longer than 6 km", I(li), TK_LINES_GT6KM)
A(e, "numbers", "Buffer all stops by 0.25 km", I(st), TK_BUF_STOPS250)
A(e, "numbers", "bike docks with a capacity of 20 or more", I(dk), TK_DK_GE20)
X(e, "numbers", "buffer the stops by 300", I(st),
  "no unit and the stops are in degrees (EPSG:4326): 300 m, 300 ft or 300 degrees cannot be told apart")
A(e, "chain", "Buffer the tram stops by 300 m and dissolve the buffers into one", I(st), TK_TRAM_BUF_DISS)
A(e, "chain", "take the accessible stops, reproject them to EPSG:2154 and save as GeoJSON", I(st), TK_ACC_L93_GJ)
A(e, "chain", "Join ridership_2025 to the stops (stop_ref = stop_id), then keep stops with weekday_avg above 3000",
  I(st, ri), TK_JOIN_WD3000)
A(e, "chain", "Buffer each hospital by 600 m and count how many stops fall in each buffer", I(ho, st),
  TK_HOSP_COUNT600)
A(e, "chain", "Which stops lie in the neighbourhoods of fare zone 1?", I(st, nb), TK_STOPS_ZONE1)
A(e, "chain", "clip the noise raster to the Old Town and tell me its mean", I(no, nb), TK_NOISE_OLD)
A(e, "chain", "find the emergency facilities and then the nearest stop to each of them", I(ho, st),
  TK_NEAR_STOP_EMER)
A(e, "output_clause", "Export the hospitals with an emergency department to emergency.geojson", I(ho), TK_EMER_GJ)
A(e, "output_clause", "save the parks as a shapefile named green_spaces", I(pa), TK_PARKS_SHP)
A(e, "output_clause", "Export the stops to CSV", I(st), TK_STOPS_CSV)
A(e, "output_clause", "Buffer the bike docks (Lambert-93 x/y) by 200 m and save as docks_200m.gpkg", I(dk),
  TK_DK_BUF_GPKG)
A(e, "output_clause", "keep the accessible tram stops and name the layer access_tram", I(st), TK_ACCTRAM_NAMED)
A(e, "output_clause", "write the neighbourhoods out as GeoJSON", I(nb), TK_NB_GJ)
A(e, "output_clause", "Export the tram lines to KML", I(li), TK_TRAM_KML)
A(e, "statistics", "mean daily boardings per mode", I(st), TK_MEAN_B_MODE)
A(e, "statistics", "What is the median of median_income in each fare zone?", I(nb), TK_MED_INC_ZONE)
A(e, "statistics", "maximum number of beds for each facility type", I(ho), TK_MAX_BEDS_TYPE)
A(e, "statistics", "What's the average frequency of the bus lines?", I(li), TK_BUS_FREQ)
A(e, "statistics", "median boardings of the accessible stops", I(st), TK_MED_B_ACC)
A(e, "statistics", "average boardings of the stops in each neighbourhood", I(st, nb), TK_MEAN_B_NB)
X(e, "statistics", "Is there a correlation between median income and stop boardings?", I(st, nb),
  "a correlation of a polygon attribute with point values needs a design choice (aggregate per neighbourhood, "
  "which statistic); no library tool computes a correlation")
A(e, "raster", "What is the mean noise level over the whole city?", I(no), TK_NOISE_MEAN)
A(e, "raster", "Sample the noise raster at each hospital", I(no, ho), TK_SAMPLE_H)
A(e, "raster", "mean noise per neighbourhood (zonal statistics)", I(no, nb), TK_ZONAL_NB)
A(e, "raster", "Clip noise_lden to the parks", I(no, pa), TK_CLIP_PARKS)
A(e, "raster", "highest noise value in the raster?", I(no), TK_NOISE_MAX)
A(e, "raster", "average noise for each park", I(no, pa), TK_ZONAL_PARK)
A(e, "typo", "bufer the hosptials by 500 m", I(ho), TK_BUF_HOSP500)
A(e, "typo", "cuont the stops in each neighbourhod", I(st, nb), TK_COUNT_PER_NB)
A(e, "typo", "reprojcet neighborhoods to WGS84", I(nb), TK_NB_4326)
A(e, "typo", "hosptials with more then 300 beds", I(ho), TK_BEDS_GT300)
A(e, "subset_words", "Buffer the tram stops by 250 m", I(st), TK_BUF_TRAM250)
A(e, "subset_words", "How many accessible stops are there?", I(st), TK_COUNT_ACC)
A(e, "subset_words", "select the clinics", I(ho), t_subset(CLIN, "hosp_id", [("whole layer", H), ("general", HOSPO)]))
A(e, "subset_words", "Total length of the tram network in km", I(li), TK_TRAM_KM)
A(e, "subset_words", "bus lines with a frequency of at least 6", I(li),
  t_subset(_bus[_bus.frequency >= 6], "line", [("all lines", L[L.frequency >= 6]), ("> for >=", _bus[_bus.frequency > 6])],
           as_str=True))
A(e, "subset_words", "Which parks have a playground?", I(pa),
  t_subset(P[P.playground == "yes"], "park_id", [("whole layer", P), ("negation", P[P.playground == "no"])]))
A(e, "subset_words", "stops within 400 m of an emergency hospital or clinic", I(st, ho), TK_S_NEAR_EMER)
for req, inp, why in [
    ("Which stops are within 200 m of a bike lane?", I(st, li), "no bike-lane layer among the inputs (lines are transit lines)"),
    ("Count the schools in each neighbourhood", I(nb, ho), "no schools layer is loaded"),
    ("Sample the population density raster at the stops", I(st, no),
     "no population-density raster is loaded; the only raster is noise (Lden dB)"),
    ("Use the GTFS timetable to find the first departure at each stop", I(st, li), "no GTFS/timetable is loaded"),
    ("buffer the road network by 20 m", I(li, nb), "no road layer is loaded; lines.gpkg holds transit lines"),
]:
    X(e, "not_loaded", req, inp, why)
for req, inp, why in [
    ("Select the stops that have a shelter", I(st), "stops.gpkg has no shelter field"),
    ("Group the lines by operator", I(li), "lines.gpkg has no operator field"),
    ("Which hospitals have a maternity ward?", I(ho), "hospitals.gpkg has no maternity field"),
    ("neighbourhoods with an unemployment rate above 10 %", I(nb), "neighbourhoods.gpkg has no unemployment field"),
]:
    X(e, "missing_field", req, inp, why)
for req, inp, why in [
    ("Where should the city build its next tram line?", I(st, li, nb), "open-ended planning question"),
    ("Assess how fair access to public transport is across the city", I(st, nb), "open-ended assessment"),
    ("Suggest good locations for new bike-share docks", I(dk, st, nb), "open-ended site selection"),
]:
    X(e, "open_ended", req, inp, why)
for req, inp, why in [
    ("buffer the points by 200 m", I(st, ho), "two point layers are loaded (stops, hospitals): which one?"),
    ("stops with average ridership above 2000", I(st, ri),
     "'average ridership' fits weekday_avg and weekend_avg equally (and boardings)"),
    ("How big is the park?", I(pa), "eight parks: which one is 'the park'?"),
    ("sort by name", I(st, ho), "stops and hospitals both have a name field"),
]:
    X(e, "ambiguous", req, inp, why)
A(e, "plain", "Join the ridership table to the stops", I(st, ri), TK_JOIN)
A(e, "numbers", "neighbourhoods whose median income is at least 21000 EUR", I(nb), TK_INC_GE21000)
A(e, "crs_roles", "project the hospitals to web mercator", I(ho), TK_H_3857)
A(e, "chain", "stops on line 1", I(st, li), TK_STOPS_LINE1)
A(e, "raster", "clip the noise map to the Old Town neighbourhood", I(no, nb), TK_CLIP_OLD)

# ---------------- Deutsch
g = "de"
A(g, "plain", "Wie viele Haltestellen gibt es?", I(st), TK_COUNT)
A(g, "plain", "Puffer um die Krankenhäuser, 500 m", I(ho), TK_BUF_HOSP500)
A(g, "plain", "Fläche jedes Parks in Hektar berechnen", I(pa), TK_PARK_HA)
A(g, "plain", "Länge der einzelnen Linien in km", I(li), TK_LINE_KM)
A(g, "plain", "Stadtteile nach fare_zone zusammenführen (dissolve)", I(nb), TK_DISS_ZONE)
A(g, "plain", "Nächstgelegenes Krankenhaus für jede Haltestelle", I(st, ho), TK_NEAR_HOSP)
A(g, "each_per", "Gesamtbevölkerung aller Stadtteile?", I(nb), TK_POP_TOTAL)
A(g, "each_per", "Zähle die Haltestellen pro Stadtteil", I(st, nb), TK_COUNT_PER_NB)
A(g, "each_per", "Summe der Einsteiger je Verkehrsmittel (mode)", I(st), TK_BOARD_MODE)
A(g, "each_per", "Wie viele Betten gibt es insgesamt?", I(ho), TK_BEDS_TOTAL)
A(g, "negation", "Welche Haltestellen sind nicht barrierefrei?", I(st), TK_NOTACC)
A(g, "negation", "Haltestellen, die nicht innerhalb von 400 m um ein Krankenhaus liegen", I(st, ho), TK_STOPS_FAR400)
A(g, "negation", "alle Stadtteile außer der Old Town", I(nb), TK_NB_EXCEPT_OLD)
A(g, "negation", "Krankenhäuser ohne Notaufnahme", I(ho), TK_HOSP_NOEMER)
A(g, "negation", "Haltestellen außerhalb der Parks", I(st, pa), TK_STOPS_OUTPARK)
A(g, "roles", "Haltestellen im Umkreis von 250 m um ein Krankenhaus auswählen", I(st, ho), TK_S_NEAR_H250)
A(g, "roles", "Welche Krankenhäuser liegen höchstens 400 m von einer Haltestelle entfernt?", I(ho, st),
  TK_H_NEAR_S400)
A(g, "roles", "Für jedes Krankenhaus die nächste Haltestelle finden", I(ho, st), TK_NEAR_STOP)
A(g, "roles", "Stadtteile, in denen mindestens ein Krankenhaus liegt", I(nb, ho), TK_NB_WITHHOSP)
A(g, "roles", "Haltestellen im Umkreis von 1 km um Park Station", I(st, pa), TK_S_NEAR_PARKST)
A(g, "crs_roles", "Stadtteile nach WGS 84 umprojizieren", I(nb), TK_NB_4326)
A(g, "crs_roles", "Die Linien liegen in Web Mercator vor, bitte nach Lambert-93 (EPSG:2154) transformieren", I(li),
  TK_L_L93)
A(g, "crs_roles", "bike_docks.csv: x/y sind Lambert-93 (EPSG:2154). Als Punktlayer in EPSG:4326 ausgeben", I(dk),
  TK_DK_4326)
A(g, "crs_roles", "Parks von EPSG:3857 nach EPSG:2154 umprojizieren", I(pa), TK_P_L93)
X(g, "crs_roles", "Haltestellen ins Lambert-System projizieren", I(st),
  "'Lambert' nennt kein eindeutiges KBS: Lambert-93 (EPSG:2154), Lambert II étendu (EPSG:27572) oder CC-Zonen")
A(g, "numbers", "Haltestellen mit mindestens 1500 Einsteigern pro Tag", I(st), TK_B_GE1500)
A(g, "numbers", "Haltestellen mit über 2000 Einsteigern", I(st), TK_B_GT2000)
A(g, "numbers", "Krankenhäuser mit mindestens 300 Betten", I(ho), TK_BEDS_GE300)
A(g, "numbers", "Linien mit einer Frequenz über 6", I(li), TK_FREQ_GT6)
A(g, "numbers", "Stadtteile mit höchstens 12000 Einwohnern", I(nb), TK_POP_LE12000)
A(g, "numbers", "Parks größer als 5 ha", I(pa), TK_PARK_GT5HA)
A(g, "numbers", "Fahrradstationen mit mehr als 20 Plätzen (capacity)", I(dk), TK_DK_GT20)
X(g, "numbers", "Puffer um die Haltestellen mit 300", I(st),
  "keine Einheit, und die Haltestellen sind in Grad (EPSG:4326)")
A(g, "chain", "Tram-Haltestellen mit 300 m puffern und die Puffer zu einem verschmelzen", I(st), TK_TRAM_BUF_DISS)
A(g, "chain", "ridership_2025 über stop_ref an die Haltestellen (stop_id) hängen und dann die mit weekday_avg über 3000 behalten",
  I(st, ri), TK_JOIN_WD3000)
A(g, "chain", "Welche Haltestellen liegen in Stadtteilen der Tarifzone 1?", I(st, nb), TK_STOPS_ZONE1)
A(g, "chain", "Lärmraster auf die Old Town zuschneiden und den Mittelwert angeben", I(no, nb), TK_NOISE_OLD)
A(g, "output_clause", "Krankenhäuser mit Notaufnahme als emergency.geojson exportieren", I(ho), TK_EMER_GJ)
A(g, "output_clause", "Parks als Shapefile speichern, Name green_spaces", I(pa), TK_PARKS_SHP)
A(g, "output_clause", "Haltestellen als CSV exportieren", I(st), TK_STOPS_CSV)
A(g, "output_clause", "Kliniken in ein GeoPackage namens clinics_2025 schreiben", I(ho), TK_CLIN_GPKG)
A(g, "statistics", "Durchschnittliche Einsteiger pro mode", I(st), TK_MEAN_B_MODE)
A(g, "statistics", "Median des Medianeinkommens (median_income) je Tarifzone", I(nb), TK_MED_INC_ZONE)
A(g, "statistics", "Maximale Bettenzahl je Typ", I(ho), TK_MAX_BEDS_TYPE)
A(g, "statistics", "Was ist der durchschnittliche Takt (frequency) der Buslinien?", I(li), TK_BUS_FREQ)
A(g, "statistics", "höchste Einsteigerzahl einer Haltestelle?", I(st), TK_MAX_B)
A(g, "raster", "Mittlerer Lärmpegel im gesamten Raster?", I(no), TK_NOISE_MEAN)
A(g, "raster", "Lärmwerte an den Krankenhäusern abfragen", I(no, ho), TK_SAMPLE_H)
A(g, "raster", "Zonale Statistik: maximaler Lärm je Stadtteil", I(no, nb), TK_ZONAL_NB_MAX)
A(g, "raster", "Lärmkarte auf die Parks zuschneiden", I(no, pa), TK_CLIP_PARKS)
A(g, "typo", "Haltestelen pro Stadteil zählen", I(st, nb), TK_COUNT_PER_NB)
A(g, "typo", "Krankenheuser mit mehr als 300 Beten", I(ho), TK_BEDS_GT300)
A(g, "typo", "Stadtteile nach WGS84 umprojezieren", I(nb), TK_NB_4326)
A(g, "subset_words", "Wie viele barrierefreie Haltestellen gibt es?", I(st), TK_COUNT_ACC)
A(g, "subset_words", "Straßenbahnhaltestellen mit 250 m puffern", I(st), TK_BUF_TRAM250)
A(g, "subset_words", "Wie viele Kliniken gibt es?", I(ho), TK_COUNT_CLIN)
A(g, "subset_words", "Gesamtlänge des Straßenbahnnetzes in km", I(li), TK_TRAM_KM)
A(g, "subset_words", "Zähle die Tram-Haltestellen je Stadtteil", I(st, nb), TK_COUNT_TRAM_PER_NB)
for req, inp, why in [
    ("Wie viele Radwege gibt es in jedem Stadtteil?", I(nb, li), "keine Radwege-Ebene geladen"),
    ("Schulen im Umkreis von 500 m um die Haltestellen", I(st), "keine Schulen geladen"),
    ("Parkhäuser in der Nähe der Tram-Haltestellen", I(st, pa), "keine Parkhaus-Ebene geladen (Parks sind Grünflächen)"),
]:
    X(g, "not_loaded", req, inp, why)
for req, inp, why in [
    ("Haltestellen mit Wartehäuschen auswählen", I(st), "kein Feld für Wartehäuschen (shelter)"),
    ("Linien nach Betreiber gruppieren", I(li), "kein Betreiber-Feld (operator)"),
    ("Parks nach Öffnungszeiten filtern", I(pa), "kein Feld für Öffnungszeiten"),
]:
    X(g, "missing_field", req, inp, why)
for req, inp, why in [
    ("Wo sollte die nächste Straßenbahnlinie gebaut werden?", I(st, li, nb), "offene Planungsfrage"),
    ("Bewerte bitte das Busnetz", I(li, st), "offene Bewertung"),
]:
    X(g, "open_ended", req, inp, why)
for req, inp, why in [
    ("Puffer um die Punkte, 200 m", I(st, ho), "zwei Punktlayer geladen (Haltestellen, Krankenhäuser)"),
    ("Haltestellen mit durchschnittlicher Fahrgastzahl über 2000", I(st, ri),
     "passt auf weekday_avg und weekend_avg gleichermaßen"),
    ("Wie groß ist der Park?", I(pa), "acht Parks: welcher?"),
]:
    X(g, "ambiguous", req, inp, why)
A(g, "plain", "Konvexe Hülle um alle Haltestellen", I(st), TK_HULL)
A(g, "negation", "alle Linien außer Bussen", I(li), TK_LINES_NOTBUS)
A(g, "crs_roles", "Krankenhäuser in Web Mercator umwandeln", I(ho), TK_H_3857)
A(g, "output_clause", "die barrierefreien Tram-Haltestellen behalten und den Layer access_tram nennen", I(st),
  TK_ACCTRAM_NAMED)
A(g, "each_per", "Einwohner je Tarifzone", I(nb), TK_POP_ZONE)

# ---------------- 中文
z = "zh"
A(z, "plain", "一共有多少个公交站？", I(st), TK_COUNT)
A(z, "plain", "对医院做500米缓冲区", I(ho), TK_BUF_HOSP500)
A(z, "plain", "求各个街区的质心", I(nb), TK_CENTROIDS)
A(z, "plain", "计算每个公园的面积（公顷）", I(pa), TK_PARK_HA)
A(z, "plain", "按日上车人数从高到低给站点排序", I(st), TK_SORT_DESC)
A(z, "plain", "把 ridership_2025 表连接到公交站", I(st, ri), TK_JOIN)
A(z, "each_per", "所有街区的总人口是多少", I(nb), TK_POP_TOTAL)
A(z, "each_per", "统计每个街区内的站点数量", I(st, nb), TK_COUNT_PER_NB)
A(z, "each_per", "各交通方式(mode)的上车人数合计", I(st), TK_BOARD_MODE)
A(z, "each_per", "公园总面积是多少公顷？", I(pa), TK_PARK_TOTAL)
A(z, "negation", "哪些站点不是无障碍的？", I(st), TK_NOTACC)
A(z, "negation", "距离任何医院都不在400米以内的站点", I(st, ho), TK_STOPS_FAR400)
A(z, "negation", "除了公交以外的所有线路", I(li), TK_LINES_NOTBUS)
A(z, "negation", "没有夜间服务的线路", I(li), TK_LINES_NONIGHT)
A(z, "negation", "不是电动车的共享单车站点", I(dk), TK_DOCKS_NOTELEC)
A(z, "roles", "选出医院300米范围内的公交站", I(st, ho), TK_S_NEAR_H300)
A(z, "roles", "哪些医院在公交站300米以内？", I(ho, st), TK_H_NEAR_S300)
A(z, "roles", "每家医院600米内有几个站点", I(ho, st), TK_HOSP_COUNT600)
A(z, "roles", "有有轨电车线路穿过的公园", I(pa, li), TK_PARKS_TRAM)
A(z, "roles", "离 Park Station 1公里以内的站点", I(st, pa), TK_S_NEAR_PARKST)
A(z, "crs_roles", "把街区投影到 WGS 84", I(nb), TK_NB_4326)
A(z, "crs_roles", "公交站是WGS84坐标，转成 Lambert-93（EPSG:2154）", I(st), TK_S_L93)
A(z, "crs_roles", "bike_docks.csv 的 x/y 是 EPSG:2154，生成 EPSG:4326 的点图层", I(dk), TK_DK_4326)
A(z, "crs_roles", "给共享单车站点指定坐标系 EPSG:2154（坐标本来就是 Lambert-93）", I(dk), TK_DK_ASSIGN)
X(z, "crs_roles", "线路图层是 Lambert-93 的，把它转成 WGS84", I(li),
  "所述源坐标系与文件不符：lines.gpkg 是 EPSG:3857")
A(z, "numbers", "日上车人数超过1500的站点", I(st), TK_B_GT1500)
A(z, "numbers", "上车人数不少于1500的站点", I(st), TK_B_GE1500)
A(z, "numbers", "床位超过300张的医院", I(ho), TK_BEDS_GT300)
A(z, "numbers", "发车频率（frequency）不少于6的线路", I(li), TK_FREQ_GE6)
A(z, "numbers", "人口少于12000的街区", I(nb), TK_POP_LT12000)
A(z, "numbers", "长度超过6公里的线路", I(li), TK_LINES_GT6KM)
A(z, "numbers", "收入中位数低于21000的街区", I(nb), TK_INC_LT21000)
A(z, "chain", "把有轨电车站做300米缓冲区再融合成一个", I(st), TK_TRAM_BUF_DISS)
A(z, "chain", "筛选无障碍站点，投影到EPSG:2154，再保存为GeoJSON", I(st), TK_ACC_L93_GJ)
A(z, "chain", "先用 stop_ref 和 stop_id 把客流表连到站点上，再选出 weekday_avg 大于3000的", I(st, ri), TK_JOIN_WD3000)
A(z, "chain", "找出有急诊的医院，然后给每家找最近的站点", I(ho, st), TK_NEAR_STOP_EMER)
A(z, "output_clause", "把有急诊的医院导出为 emergency.geojson", I(ho), TK_EMER_GJ)
A(z, "output_clause", "公园存成shapefile，文件名 green_spaces", I(pa), TK_PARKS_SHP)
A(z, "output_clause", "共享单车站点缓冲200米（坐标为Lambert-93），保存为 docks_200m.gpkg", I(dk), TK_DK_BUF_GPKG)
A(z, "output_clause", "把有轨电车线路导出成KML", I(li), TK_TRAM_KML)
A(z, "statistics", "按交通方式统计平均上车人数", I(st), TK_MEAN_B_MODE)
A(z, "statistics", "每个票价区 median_income 的中位数", I(nb), TK_MED_INC_ZONE)
A(z, "statistics", "无障碍站点上车人数的中位数", I(st), TK_MED_B_ACC)
A(z, "statistics", "每个街区内站点的平均上车人数", I(st, nb), TK_MEAN_B_NB)
A(z, "statistics", "按是否电动(electric)汇总共享单车站点的容量", I(dk), TK_CAP_ELEC)
A(z, "raster", "噪声栅格的平均值是多少", I(no), TK_NOISE_MEAN)
A(z, "raster", "每个街区的平均噪声（分区统计）", I(no, nb), TK_ZONAL_NB)
A(z, "raster", "用 Old Town 街区裁剪噪声栅格", I(no, nb), TK_CLIP_OLD)
A(z, "raster", "有轨电车站点处噪声的平均值", I(no, st), TK_NOISE_TRAM)
A(z, "typo", "对医阮做500米缓冲", I(ho), TK_BUF_HOSP500)
A(z, "typo", "统计每个街去里的站点数", I(st, nb), TK_COUNT_PER_NB)
A(z, "subset_words", "有多少个地铁站？", I(st), TK_COUNT_METRO)
A(z, "subset_words", "有轨电车站做250米缓冲", I(st), TK_BUF_TRAM250)
A(z, "subset_words", "有轨电车网络总长度（公里）", I(li), TK_TRAM_KM)
A(z, "subset_words", "有多少个无障碍站点", I(st), TK_COUNT_ACC)
A(z, "subset_words", "选出诊所", I(ho), t_subset(CLIN, "hosp_id", [("whole layer", H), ("general", HOSPO)]))
for req, inp, why in [
    ("统计每个街区的自行车道长度", I(nb, li), "没有加载自行车道图层"),
    ("医院附近的药店有哪些", I(ho, st), "没有加载药店图层"),
    ("在站点处采样人口密度栅格", I(st, no), "没有人口密度栅格，只有噪声栅格"),
]:
    X(z, "not_loaded", req, inp, why)
for req, inp, why in [
    ("选出有候车亭的站点", I(st), "站点没有候车亭字段"),
    ("按运营商统计线路数量", I(li), "线路没有运营商字段"),
    ("有产科的医院", I(ho), "医院没有产科字段"),
]:
    X(z, "missing_field", req, inp, why)
for req, inp, why in [
    ("新的地铁线应该怎么规划？", I(st, li, nb), "开放式规划问题"),
    ("分析一下这个城市公共交通的公平性", I(st, nb), "开放式评估"),
]:
    X(z, "open_ended", req, inp, why)
for req, inp, why in [
    ("对点图层做200米缓冲区", I(st, ho), "加载了两个点图层（站点、医院）"),
    ("平均客流超过2000的站点", I(st, ri), "weekday_avg 与 weekend_avg 都符合"),
    ("按名称排序", I(st, ho), "站点和医院都有 name 字段"),
]:
    X(z, "ambiguous", req, inp, why)
A(z, "plain", "按 mode 统计线路条数", I(li),
  T([c_groups(L.groupby("mode").size().to_dict())], lambda: tab(L.groupby("mode").size().reset_index()),
    [("total", lambda: ans("10")), ("stops per mode", lambda: tab(S.groupby("mode").size().reset_index()))]))
A(z, "crs_roles", "把公园从 EPSG:3857 转到 EPSG:2154", I(pa), TK_P_L93)
A(z, "output_clause", "把街区导出为GeoJSON", I(nb), TK_NB_GJ)
A(z, "negation", "不经过2号线的站点", I(st), TK_STOPS_NOT2)
