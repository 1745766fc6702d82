"""blind7 — validate the cases: reference results pass their checks, plausible misreadings fail.

    .venv/bin/python tests/data/blind7/validate.py          # check cases_*.yaml against the references
    .venv/bin/python tests/data/blind7/validate.py --write  # (re)write cases_*.yaml from the definitions

Every reference is computed here from the files in data/ with numpy / rasterio / geopandas / sklearn
(independently of make_data.py's constants). For each answer case: (1) the checks are generated from the
reference and must equal the YAML, (2) a report holding the reference result must pass bench/checkers.py's
check_task, (3) every misreading must fail it.
"""

from __future__ import annotations

import math
import sys
import tempfile
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
import warnings

import yaml
from rasterio.features import geometry_mask

warnings.filterwarnings("ignore")
HERE = Path(__file__).resolve().parent
D = HERE / "data"
from geoclerk.bench.checkers import check_task  # noqa: E402 - .venv/bin/python (scripts/setup.sh) imports geoclerk

M = 25832  # measuring CRS (the imagery's)

# ---------------------------------------------------------------- data


def img(year):
    with rasterio.open(D / f"image_{year}.tif") as src:
        return src.read().astype("float64")


with rasterio.open(D / "image_2024.tif") as _src:
    TRANSFORM, RCRS, SHAPE = _src.transform, _src.crs, (_src.height, _src.width)
    BANDS = [_src.descriptions[i] for i in range(_src.count)]
assert BANDS == ["blue", "green", "red", "nir"], BANDS
I24, I25 = img(2024), img(2025)
with rasterio.open(D / "dem.tif") as _src:
    DEM = _src.read(1).astype("float64")
    assert _src.transform == TRANSFORM


def band(a, name):
    return a[BANDS.index(name)]


def nd(a, b):
    return (a - b) / (a + b)


def ndvi(a):
    return nd(band(a, "nir"), band(a, "red"))


def ndwi(a):
    return nd(band(a, "green"), band(a, "nir"))


NDVI24, NDVI25 = ndvi(I24), ndvi(I25)
DNDVI = NDVI25 - NDVI24

PARCELS = gpd.read_file(D / "parcels.gpkg").sort_values("parcel_id").reset_index(drop=True)
WELLS = gpd.read_file(D / "wells.geojson").sort_values("well_id").reset_index(drop=True)
ROADS = gpd.read_file(D / "roads.gpkg").sort_values("road_id").reset_index(drop=True)
ZONES = gpd.read_file(D / "irrigation_zones.geojson").sort_values("zone_id").reset_index(drop=True)
HARVEST = pd.read_csv(D / "harvest_2024.csv")
assert PARCELS.crs.to_epsg() == 25832 and WELLS.crs.to_epsg() == 4326 and ROADS.crs.to_epsg() == 3857
assert ZONES.crs.to_epsg() == 4326
PM, WM, RM, ZM = (g.to_crs(M) for g in (PARCELS, WELLS, ROADS, ZONES))
PIDS = PARCELS["parcel_id"].astype(int).tolist()
WIDS = WELLS["well_id"].tolist()
ZIDS = ZONES["zone_id"].tolist()


def inside(geom):
    """Pixels whose centre lies inside geom (in the raster CRS)."""
    return ~geometry_mask([geom], out_shape=SHAPE, transform=TRANSFORM, invert=False)


PMASK = {pid: inside(g) for pid, g in zip(PIDS, PM.geometry)}
ZMASK = {zid: inside(g) for zid, g in zip(ZIDS, ZM.geometry)}


def per(masks, arr, fn):
    return [float(fn(arr[m])) for m in masks.values()]


def xy(r, c):
    x, y = TRANSFORM * (c + 0.5, r + 0.5)
    return float(x), float(y)


def rc(x, y):
    c, r = ~TRANSFORM * (x, y)
    return int(math.floor(r)), int(math.floor(c))


WELL_RC = [rc(g.x, g.y) for g in WM.geometry]
PT = {"pond": xy(25, 170), "forest": xy(30, 50), "village": xy(125, 20), "p107": xy(81, 47), "p115": xy(145, 109),
      "meadow": xy(150, 140), "river": xy(101, 100), "damage": xy(15, 30), "p101": xy(55, 20)}

# ---------------------------------------------------------------- check builders


def fmt(v):
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "np.nan"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    return repr(float(f"{float(v):.10g}"))


RIO = "__import__('rasterio').open(out)"


def c_grid():
    return [
        {"output": "raster", "expect": f"list({RIO}.shape)", "equals": "[200, 200]"},
        {"output": "raster", "expect": f"list({RIO}.transform)[:6]",
         "equals": fmt(list(TRANSFORM)[:6]), "abs": 0.001},
    ]


def c_mean(v, rel=0.002, abs_=None):
    c = {"output": "raster", "expect": "raster_stats(out)['mean']", "equals": fmt(v), "rel": rel}
    if abs_:
        c["abs"] = abs_
    return c


def c_stat(key, v, rel=0.002, abs_=0.002):
    return {"output": "raster", "expect": f"raster_stats(out)['{key}']", "equals": fmt(v), "rel": rel, "abs": abs_}


def c_at(name, v, abs_=0.005):
    x, y = PT[name] if isinstance(name, str) else name
    return {"output": "raster", "expect": f"float(list({RIO}.sample([({x}, {y})]))[0][0])", "equals": fmt(v),
            "abs": abs_}


def c_mask(n):
    return {"output": "raster", "expect": f"int(({RIO}.read(1, masked=True).filled(0) > 0).sum())", "equals": str(n)}


def c_valid(n):
    return {"output": "raster", "expect": f"int({RIO}.read(1, masked=True).count())", "equals": str(n)}


def c_count_bands(n):
    return {"output": "raster", "expect": f"{RIO}.count", "equals": str(n)}


def c_nclasses(k):
    return {"output": "raster", "expect": f"len(np.unique({RIO}.read(1, masked=True).compressed()))", "equals": str(k)}


def c_distinct(names):
    pts = ", ".join(f"({PT[n][0]}, {PT[n][1]})" for n in names)
    return {"output": "raster", "expect": f"len({{float(v[0]) for v in {RIO}.sample([{pts}])}})",
            "equals": str(len(names))}


def c_same(names):
    pts = ", ".join(f"({PT[n][0]}, {PT[n][1]})" for n in names)
    return {"output": "raster", "expect": f"len({{float(v[0]) for v in {RIO}.sample([{pts}])}})", "equals": "1"}


def c_uniform(r0, r1, c0, c1):
    return {"output": "raster", "expect": f"len(np.unique({RIO}.read(1)[{r0}:{r1 + 1}, {c0}:{c1 + 1}]))", "equals": "1"}


def c_ids(key, ids, kind="vector"):
    if key == "parcel_id":
        e = "sorted(out['parcel_id'].astype(int).tolist())"
    else:
        e = f"sorted(out['{key}'].tolist())"
    return {"output": kind, "expect": e, "equals": fmt(sorted(ids))}


def c_len(n, kind="vector"):
    return {"output": kind, "expect": "len(out)", "equals": str(n)}


def c_col(key, values, rtol=0.005, atol=0.002, kind="any_table"):
    e = (f"any(np.allclose(out.sort_values('{key}')[c].astype(float).to_numpy(), np.array({fmt(values)}), "
         f"rtol={rtol}, atol={atol}, equal_nan=True) for c in out.columns "
         f"if c not in ('geometry', '{key}') and pd.api.types.is_numeric_dtype(out[c]))")
    return {"output": kind, "expect": e, "equals": "True"}


def c_area(v, rel=0.005):
    return {"output": "vector", "expect": "float(utm(out).area.sum())", "equals": fmt(v), "rel": rel}


def c_length(v, rel=0.005):
    return {"output": "vector", "expect": "float(utm(out).length.sum())", "equals": fmt(v), "rel": rel}


def c_crs(epsg, kind="vector"):
    return {"output": kind, "crs": epsg}


def c_bounds(b, abs_):
    return {"output": "vector", "expect": "[float(v) for v in out.total_bounds]", "equals": fmt(list(b)), "abs": abs_}


def c_suffix(s, kind="vector"):
    return {"output": kind, "suffix": s}


def c_num(v, rel=0.005, abs_=None):
    c = {"answer_number": fmt(v), "rel": rel}
    if abs_ is not None:
        c["abs"] = abs_
    return c


def c_has(text):
    return {"answer_contains": repr(text)}


# ---------------------------------------------------------------- results (kind, payload) and their writing


def R(arr, nodata=None, transform=None, dtype="float32"):
    return ("raster", dict(arr=arr, nodata=nodata, transform=transform or TRANSFORM, dtype=dtype))


def V(gdf, suffix=".gpkg"):
    return ("vector", dict(gdf=gdf, suffix=suffix))


def T(df):
    return ("table", dict(df=df))


def A(text):
    return ("answer", dict(text=text))


def write_result(res, folder: Path, i: int) -> dict:
    kind, p = res
    if kind == "answer":
        return {"status": "ok", "outputs": [], "answer": p["text"]}
    if kind == "raster":
        arr = p["arr"]
        arr = arr[None] if arr.ndim == 2 else arr
        path = folder / f"r{i}.tif"
        prof = dict(driver="GTiff", width=arr.shape[2], height=arr.shape[1], count=arr.shape[0], dtype=p["dtype"],
                    crs=RCRS, transform=p["transform"])
        if p["nodata"] is not None:
            prof["nodata"] = p["nodata"]
        with rasterio.open(path, "w", **prof) as dst:
            dst.write(arr.astype(p["dtype"]))
        return {"status": "ok", "outputs": [{"kind": "raster", "path": str(path)}], "answer": ""}
    if kind == "vector":
        path = folder / f"v{i}{p['suffix']}"
        path.parent.mkdir(parents=True, exist_ok=True)
        drv = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile"}[Path(path).suffix]
        p["gdf"].to_file(path, driver=drv)
        return {"status": "ok", "outputs": [{"kind": "vector", "path": str(path)}], "answer": ""}
    path = folder / f"t{i}.csv"
    p["df"].to_csv(path, index=False)
    return {"status": "ok", "outputs": [{"kind": "table", "path": str(path)}], "answer": ""}


# ---------------------------------------------------------------- tasks: name -> (checks, reference, misreadings)

TASKS = {}


def task(fn):
    TASKS[fn.__name__] = fn
    return fn


def index_task(arr, wrong):
    checks = c_grid() + [c_mean(arr.mean()), c_at("pond", arr[25, 170]), c_at("forest", arr[30, 50])]
    return checks, R(arr), [R(w) for w in wrong]


def flip(a):
    return -a


@task
def t_ndvi24():
    u = I24.astype("uint16")
    wrapped = ((u[3] - u[2]).astype(float)) / (u[3] + u[2]).astype(float)  # uint16 arithmetic wraps below zero
    return index_task(NDVI24, [NDVI25, flip(NDVI24), nd(band(I24, "red"), band(I24, "green")),
                               np.clip(NDVI24, 0, None), wrapped])


@task
def t_ndvi25():
    return index_task(NDVI25, [NDVI24, flip(NDVI25), nd(band(I25, "nir"), band(I25, "green"))])


@task
def t_ndwi25():
    return index_task(ndwi(I25), [ndwi(I24), flip(ndwi(I25)), NDVI25])


@task
def t_ndwi24():
    return index_task(ndwi(I24), [ndwi(I25), flip(ndwi(I24)), NDVI24])


@task
def t_gndvi24():  # (nir - green) / (nir + green)
    a = nd(band(I24, "nir"), band(I24, "green"))
    return index_task(a, [ndwi(I24), NDVI24, nd(band(I25, "nir"), band(I25, "green"))])


@task
def t_nd_red_blue25():
    a = nd(band(I25, "red"), band(I25, "blue"))
    return index_task(a, [flip(a), nd(band(I25, "green"), band(I25, "blue")), nd(band(I24, "red"), band(I24, "blue"))])


def mask_task(m, wrong):
    return c_grid() + [c_mask(int(m.sum()))], R(m.astype("uint8"), dtype="uint8"), [
        R(w.astype("uint8"), dtype="uint8") for w in wrong]


@task
def t_mask_ndvi24_gt05():
    return mask_task(NDVI24 > 0.5, [NDVI24 < 0.5, NDVI25 > 0.5, NDVI24 > 0.6])


@task
def t_mask_ndvi25_gt06():
    return mask_task(NDVI25 > 0.6, [NDVI25 > 0.5, NDVI24 > 0.6, NDVI25 < 0.6])


@task
def t_mask_ndvi24_gt07():
    return mask_task(NDVI24 > 0.7, [NDVI24 > 0.6, NDVI24 > 0.8, NDVI24 <= 0.7])


@task
def t_veg25():
    m = NDVI25 > 0.3
    for t in (0.2, 0.25, 0.35, 0.4):  # any usual vegetation threshold gives the same pixels
        assert ((NDVI25 > t) == m).all()
    return mask_task(m, [NDVI25 > 0.5, NDVI25 > 0.6, NDVI24 > 0.3, ndwi(I25) > 0])


@task
def t_mask_ndwi25_gt0():
    return mask_task(ndwi(I25) > 0, [NDVI25 > 0, ndwi(I25) < 0, nd(band(I25, "nir"), band(I25, "green")) > 0])


def polys(mask, years=None):
    from rasterio.features import shapes
    from shapely.geometry import shape

    geoms = [shape(g) for g, v in shapes(mask.astype("uint8"), mask=mask, transform=TRANSFORM) if v == 1]
    return gpd.GeoDataFrame({"value": [1] * len(geoms)}, geometry=geoms, crs=RCRS)


@task
def t_poly_ndvi24_lt02():
    m = NDVI24 < 0.2
    checks = [c_area(m.sum() * 100.0, rel=0.001)]
    return checks, V(polys(m)), [V(polys(NDVI24 > 0.2)), V(polys(NDVI25 < 0.2)), V(polys(NDVI24 < 0.1))]


@task
def t_share_ndvi24_gt08():
    v = 100.0 * (NDVI24 > 0.8).mean()
    return [c_num(v, rel=0.01)], A(f"{v:.1f} % of the pixels have NDVI above 0.8"), [
        A(f"{100 * (NDVI24 > 0.7).mean():.1f} %"), A(f"{100 * (NDVI25 > 0.8).mean():.1f} %")]


# -- classification


def kmeans(a, k, seed=0, standardise=False):
    from sklearn.cluster import KMeans

    X = a.reshape(a.shape[0], -1).T
    if standardise:
        X = (X - X.mean(0)) / X.std(0)
    return KMeans(k, n_init=4, random_state=seed).fit_predict(X).reshape(SHAPE).astype("uint8") + 1


def class_task(a, k):
    checks = c_grid() + [c_nclasses(k), c_uniform(20, 29, 160, 179)]
    if k >= 4:
        checks += [c_distinct(["pond", "forest", "village"]), c_same(["pond", "river"])]
    else:
        checks += [c_distinct(["forest", "village"])]
    ref = R(kmeans(a, k), dtype="uint8")
    alt = [R(kmeans(a, k, seed=7, standardise=True), dtype="uint8")]  # another correct result must pass too
    wrong = [R(kmeans(a, k - 1), dtype="uint8"), R(kmeans(a, k + 1), dtype="uint8"),
             R(kmeans(a, k)[::2, ::2], dtype="uint8", transform=TRANSFORM * TRANSFORM.scale(2, 2))]
    return checks, ref, wrong, alt


@task
def t_km5_24():
    return class_task(I24, 5)


@task
def t_km4_25():
    return class_task(I25, 4)


@task
def t_km6_24():
    return class_task(I24, 6)


@task
def t_km3_25():
    return class_task(I25, 3)


@task
def t_km5_25():
    return class_task(I25, 5)


@task
def t_km3_24():
    return class_task(I24, 3)


# -- zonal


def zonal_task(masks, key, arr, fn, wrong_arrs, rtol=0.005, atol=0.002, extra_wrong=()):
    vals = per(masks, arr, fn)
    ids = PIDS if key == "parcel_id" else ZIDS
    base = PARCELS if key == "parcel_id" else ZONES
    checks = [c_ids(key, ids, kind="any_table"), c_col(key, vals, rtol, atol)]

    def table(v):
        return T(pd.DataFrame({key: ids, "value": v}))

    ref = V(base.assign(stat=vals))
    wrong = [table(per(masks, w, fn)) for w in wrong_arrs] + [table(v) for v in extra_wrong]
    return checks, ref, wrong, [table(vals)]


@task
def z_ndvi24_mean():
    return zonal_task(PMASK, "parcel_id", NDVI24, np.mean, [NDVI25, ndwi(I24)],
                      extra_wrong=[per(PMASK, NDVI24, np.median)[:16] + [0.0]])


@task
def z_nir25_mean():
    return zonal_task(PMASK, "parcel_id", band(I25, "nir"), np.mean, [band(I25, "red"), band(I24, "nir")])


@task
def z_dem_max():
    return zonal_task(PMASK, "parcel_id", DEM, np.max, [], extra_wrong=[per(PMASK, DEM, np.mean)])


@task
def z_dem_median():
    return zonal_task(PMASK, "parcel_id", DEM, np.median, [], rtol=0.0005, atol=0.5,
                      extra_wrong=[per(PMASK, DEM, np.max), per(PMASK, DEM, np.min)])


@task
def z_zone_dem_mean():
    return zonal_task(ZMASK, "zone_id", DEM, np.mean, [], rtol=0.001, atol=0.5,
                      extra_wrong=[per(ZMASK, DEM, np.max)])


@task
def z_zone_ndvi24_mean():
    return zonal_task(ZMASK, "zone_id", NDVI24, np.mean, [NDVI25, ndwi(I24)])


@task
def z_zone_ndwi25_mean():
    return zonal_task(ZMASK, "zone_id", ndwi(I25), np.mean, [NDVI25, ndwi(I24)])


@task
def z_red24_sum():
    return zonal_task(PMASK, "parcel_id", band(I24, "red"), np.sum, [band(I24, "blue")], rtol=0.002, atol=1,
                      extra_wrong=[per(PMASK, band(I24, "red"), np.mean)])


@task
def z_ndvi25_min():
    return zonal_task(PMASK, "parcel_id", NDVI25, np.min, [NDVI24], extra_wrong=[per(PMASK, NDVI25, np.mean)])


@task
def z_ndvi25_max():
    return zonal_task(PMASK, "parcel_id", NDVI25, np.max, [NDVI24], extra_wrong=[per(PMASK, NDVI25, np.mean)])


@task
def z_ndvi25_p107():
    v = float(NDVI25[PMASK[107]].mean())
    return [c_num(v, rel=0.01)], A(f"Mean NDVI of parcel 107 in 2025: {v:.3f}"), [
        A(f"{NDVI24[PMASK[107]].mean():.3f}"), A(f"{NDVI25[PMASK[108]].mean():.3f}")]


@task
def z_best_parcel24():
    means = per(PMASK, NDVI24, np.mean)
    best = PIDS[int(np.argmax(means))]
    second = PIDS[int(np.argsort(means)[-2])]
    assert means[PIDS.index(best)] - means[PIDS.index(second)] > 0.003
    return [c_has(str(best))], A(f"Parcel {best} has the highest mean NDVI ({max(means):.3f})"), [
        A(f"Parcel {second}"), A(f"Parcel {PIDS[int(np.argmin(means))]}")]


@task
def z_zone_dem_max_answer():  # highest point of zone B
    v = float(DEM[ZMASK["B"]].max())
    return [c_num(v, rel=0.0005)], A(f"{v:.1f} m"), [A(f"{DEM[ZMASK['C']].max():.1f}"), A(f"{DEM.max():.1f}")]


# -- change


@task
def ch_dndvi():
    checks = c_grid() + [c_mean(DNDVI.mean(), rel=0.02, abs_=0.0003), c_at("p107", DNDVI[81, 47], abs_=0.02),
                         c_at("p115", DNDVI[145, 109], abs_=0.02), c_at("damage", DNDVI[15, 30], abs_=0.02)]
    return checks, R(DNDVI), [R(-DNDVI), R(band(I25, "nir") - band(I24, "nir")), R(NDVI25), R(np.abs(DNDVI))]


@task
def ch_dnir():
    d = band(I25, "nir") - band(I24, "nir")
    checks = c_grid() + [c_mean(d.mean(), rel=0.01, abs_=0.5), c_at("p107", d[81, 47], abs_=1.0),
                         c_at("damage", d[15, 30], abs_=1.0)]
    return checks, R(d), [R(-d), R(band(I25, "red") - band(I24, "red")), R(DNDVI), R(np.mod(d, 65536))]


@task
def ch_ha_drop03():
    v = (DNDVI < -0.3).sum() * 100 / 1e4
    return [c_num(v, rel=0.001)], A(f"{v:.2f} ha"), [A(f"{(DNDVI < -0.25).sum() / 100:.2f} ha"),
                                                     A(f"{(np.abs(DNDVI) > 0.3).sum() / 100:.2f} ha"),
                                                     A(f"{(DNDVI > 0.3).sum() / 100:.2f} ha")]


@task
def ch_mask_drop025():
    return mask_task(DNDVI < -0.25, [DNDVI < -0.3, DNDVI > 0.25, np.abs(DNDVI) > 0.25])


@task
def ch_mask_drop03():
    return mask_task(DNDVI < -0.3, [DNDVI < -0.25, DNDVI > 0.3, np.abs(DNDVI) > 0.3])


@task
def ch_poly_gain03():
    m = DNDVI > 0.3
    return [c_area(m.sum() * 100.0, rel=0.001)], V(polys(m)), [V(polys(DNDVI < -0.3)), V(polys(np.abs(DNDVI) > 0.3))]


@task
def ch_parcels_lost03():
    d = np.array(per(PMASK, NDVI25, np.mean)) - np.array(per(PMASK, NDVI24, np.mean))
    ids = [p for p, v in zip(PIDS, d) if v < -0.3]
    gain = [p for p, v in zip(PIDS, d) if v > 0.3]
    assert ids == [107] and gain == [115]
    return [c_ids("parcel_id", ids)], V(PARCELS[PARCELS.parcel_id.isin(ids)]), [
        V(PARCELS[PARCELS.parcel_id.isin(gain)]), V(PARCELS[PARCELS.parcel_id.isin(ids + gain)])]


@task
def ch_parcel_dmean():
    d = (np.array(per(PMASK, NDVI25, np.mean)) - np.array(per(PMASK, NDVI24, np.mean))).tolist()
    checks = [c_ids("parcel_id", PIDS, kind="any_table"), c_col("parcel_id", d, rtol=0.01, atol=0.003)]
    tab = lambda v: T(pd.DataFrame({"parcel_id": PIDS, "v": v}))  # noqa: E731
    return checks, V(PARCELS.assign(dndvi=d)), [tab([-x for x in d]), tab(per(PMASK, NDVI25, np.mean))], [tab(d)]


@task
def ch_zone_ha_drop025():
    m = DNDVI < -0.25
    v = [float(m[ZMASK[z]].sum() * 100 / 1e4) for z in ZIDS]
    assert v == [7.2, 2.0, 0.0], v
    tab = lambda vals: T(pd.DataFrame({"zone_id": ZIDS, "v": vals}))  # noqa: E731
    w1 = [float((DNDVI < -0.3)[ZMASK[z]].sum() / 100) for z in ZIDS]
    w2 = [float(m[ZMASK[z]].sum() * 100) for z in ZIDS]
    w3 = [float((np.abs(DNDVI) > 0.25)[ZMASK[z]].sum() / 100) for z in ZIDS]
    # (drop > 0.3 gives the same hectares per zone: the forest damage lies outside every zone; not a misreading here)
    assert w1 == v
    return [c_ids("zone_id", ZIDS, kind="any_table"), c_col("zone_id", v, rtol=0.001, atol=0.001)], V(
        ZONES.assign(ha=v)), [tab(w2), tab(w3)]


@task
def ch_pct_drop03():
    v = 100 * (DNDVI < -0.3).mean()
    return [c_num(v, rel=0.001)], A(f"{v:.2f} %"), [A(f"{100 * (DNDVI < -0.25).mean():.2f} %"),
                                                    A(f"{100 * (np.abs(DNDVI) > 0.3).mean():.2f} %")]


@task
def ch_px_drop025():
    v = int((DNDVI < -0.25).sum())
    return [c_num(v)], A(f"{v} pixels"), [A(f"{int((DNDVI < -0.3).sum())} pixels"),
                                          A(f"{int((np.abs(DNDVI) > 0.25).sum())} pixels")]


# -- raster misc


@task
def m_dem_mean():
    return [c_num(DEM.mean(), rel=0.0005)], A(f"mean elevation {DEM.mean():.2f} m"), [A(f"{np.median(DEM):.2f}"),
                                                                                      A(f"{DEM.max():.2f}")]


@task
def m_dem_minmax():
    return [c_num(DEM.min(), rel=0.0002), c_num(DEM.max(), rel=0.0002)], A(
        f"min {DEM.min():.2f} m, max {DEM.max():.2f} m"), [A(f"min {DEM.min():.2f}"), A(f"mean {DEM.mean():.2f}")]


@task
def m_nir24_mean():
    v = band(I24, "nir").mean()
    return [c_num(v, rel=0.001)], A(f"{v:.1f}"), [A(f"{band(I25, 'nir').mean():.1f}"),
                                                   A(f"{band(I24, 'red').mean():.1f}")]


@task
def m_red25_std():
    v = band(I25, "red").std()
    return [c_num(v, rel=0.002)], A(f"std {v:.2f}"), [A(f"{band(I25, 'red').mean():.2f}"),
                                                       A(f"{band(I24, 'red').std():.2f}")]


@task
def m_green25_range():
    g = band(I25, "green")
    return [c_num(g.min(), rel=0), c_num(g.max(), rel=0)], A(f"{g.min():.0f} to {g.max():.0f}"), [
        A(f"{band(I25, 'blue').min():.0f} to {band(I25, 'blue').max():.0f}"),
        A(f"{band(I25, 'red').min():.0f} to {band(I25, 'red').max():.0f}")]


def clip_task(arr, m, n_bands, wrong_masks, full_wrong):
    a = arr if arr.ndim == 3 else arr[None]
    nodata = 0 if n_bands == 4 else -9999.0
    dtype = "uint16" if n_bands == 4 else "float32"
    checks = [c_count_bands(n_bands), c_valid(int(m.sum())), c_mean(float(a[0][m].mean()), rel=0.001)]

    def clipped(mm):
        out = np.where(mm[None], a, nodata)
        return R(out, nodata=nodata, dtype=dtype)

    return checks, clipped(m), [clipped(w) for w in wrong_masks] + [R(full_wrong, dtype=dtype)]


@task
def m_clip25_p107():
    return clip_task(I25, PMASK[107], 4, [PMASK[108], PMASK[106]], I25)


@task
def m_clip24_zoneA():
    return clip_task(I24, ZMASK["A"], 4, [ZMASK["B"]], I24)


@task
def m_clip_dem_zoneC():
    return clip_task(DEM, ZMASK["C"], 1, [ZMASK["B"], ZMASK["A"]], DEM[None])


def well_vals(arr):
    return [float(arr[r, c]) for r, c in WELL_RC]


def sample_task(arr, wrongs, rtol=1e-6, atol=0.01):
    vals = well_vals(arr)
    checks = [c_len(len(WIDS)), c_col("well_id", vals, rtol, atol, kind="vector")]
    ref = V(WELLS.assign(v=vals))
    return checks, ref, [V(WELLS.assign(v=well_vals(w))) for w in wrongs]


@task
def m_sample_dem():
    shifted = np.roll(DEM, 1, axis=0)  # off-by-one row
    return sample_task(DEM, [shifted, DEM + 10])


@task
def m_sample_nir24():
    return sample_task(band(I24, "nir"), [band(I25, "nir"), band(I24, "red")])


@task
def m_sample_ndvi25():
    return sample_task(NDVI25, [NDVI24, ndwi(I25)], rtol=0.001, atol=0.002)


@task
def m_dem_at_w09():
    r, c = WELL_RC[WIDS.index("W09")]
    v = DEM[r, c]
    r2, c2 = WELL_RC[WIDS.index("W10")]
    return [c_num(v, rel=0.0001)], A(f"{v:.2f} m"), [A(f"{DEM[r2, c2]:.2f}"), A(f"{DEM[r + 1, c]:.2f}")]


@task
def m_slope():
    p = np.pad(DEM, 1, mode="edge")
    a, b, c = p[:-2, :-2], p[:-2, 1:-1], p[:-2, 2:]
    d, f = p[1:-1, :-2], p[1:-1, 2:]
    g, h, i = p[2:, :-2], p[2:, 1:-1], p[2:, 2:]
    dzdx = ((c + 2 * f + i) - (a + 2 * d + g)) / 80
    dzdy = ((g + 2 * h + i) - (a + 2 * b + c)) / 80
    s = np.degrees(np.arctan(np.hypot(dzdx, dzdy)))
    pct = 100 * np.hypot(dzdx, dzdy)
    checks = c_grid() + [c_mean(float(s[1:-1, 1:-1].mean()), rel=0.02)]
    return checks, R(s), [R(pct), R(np.degrees(np.arctan(np.hypot(dzdx, dzdy) / 10)))]


@task
def m_npix_res():
    return [c_num(40000), c_num(10)], A("200 x 200 = 40000 pixels of 10 m"), [A("200 x 200 pixels of 10 m"),
                                                                            A("40000 pixels of 20 m")]


# -- vector tasks


def sel(g, key, ids):
    return g[g[key].isin(ids)]


def ids_task(g, key, ids, wrong_ids, kind="vector", extra=()):
    checks = [c_ids(key, ids, kind=kind)] + list(extra)
    return checks, V(sel(g, key, ids)), [V(sel(g, key, w)) for w in wrong_ids]


@task
def p_buffer_wells50():
    b = WM.copy()
    b["geometry"] = b.buffer(50, 32)
    w = WM.copy()
    w["geometry"] = w.buffer(5, 32)
    w2 = WM.copy()
    w2["geometry"] = w2.buffer(500, 32)
    return [c_len(24), c_area(24 * math.pi * 2500, rel=0.025)], V(b), [V(w), V(w2), V(b.iloc[:12])]


@task
def p_road_km():
    v = RM.length.sum() / 1000
    return [c_num(v, rel=0.005)], A(f"{v:.2f} km"), [A(f"{ROADS.length.sum() / 1000:.2f} km"),
                                                      A(f"{RM.length.max() / 1000:.2f} km")]


@task
def p_parcel_area():
    ha = (PM.area / 1e4).tolist()
    return [c_len(17, kind="any_table"), c_col("parcel_id", ha, rtol=0.002, atol=0.001)], V(PARCELS.assign(a=ha)), [
        V(PARCELS.assign(a=PM.area)), V(PARCELS.assign(a=PM.length))]


@task
def p_count_wells():
    return [c_num(24)], A("24 wells"), [A("23 wells"), A("17")]


@task
def p_cherry():
    ids = PARCELS[PARCELS.crop == "cherry"].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [PARCELS[PARCELS.crop == "pear"].parcel_id.tolist(),
                                                PARCELS[PARCELS.crop != "cherry"].parcel_id.tolist()])


@task
def p_dissolve_farm():
    d = PM.dissolve("farm").reset_index()
    areas = d.area.tolist()
    one = PM.dissolve().reset_index()
    return [c_len(4), c_col("farm", areas, rtol=0.005, atol=1, kind="vector") | {},
            c_area(sum(areas))], V(d[["farm", "geometry"]].assign(a=areas)), [V(one.assign(a=one.area)),
                                                                              V(d.iloc[:3].assign(a=areas[:3]))]


def per_key(g, key, vals, wrong_vals, kind="any_table", rtol=0.001, atol=0.001, n=None, alt=None):
    keys = sorted(g[key].unique().tolist()) if n is None else n
    checks = [c_ids(key, keys, kind=kind), c_col(key, vals, rtol, atol, kind=kind)]
    tab = lambda v: T(pd.DataFrame({key: keys, "v": v}))  # noqa: E731
    return checks, tab(vals), [tab(w) for w in wrong_vals]


def wells_in(poly_gdf, key):
    j = gpd.sjoin(WM, poly_gdf[[key, "geometry"]], predicate="within")
    return j


@task
def e_wells_per_parcel():
    j = wells_in(PM, "parcel_id")
    cnt = [int((j.parcel_id == p).sum()) for p in PIDS]
    checks = [c_ids("parcel_id", PIDS, kind="any_table"), c_col("parcel_id", cnt, 0, 0)]
    return checks, V(PARCELS.assign(n=cnt)), [V(PARCELS.assign(n=[1] * 17)), V(PARCELS.assign(n=[24] * 17)),
                                              V(PARCELS[[c > 0 for c in cnt]].assign(n=[c for c in cnt if c]))]


@task
def e_wells_per_zone():
    j = wells_in(ZM, "zone_id")
    cnt = [int((j.zone_id == z).sum()) for z in ZIDS]
    assert cnt == [12, 7, 4], cnt
    checks = [c_ids("zone_id", ZIDS, kind="any_table"), c_col("zone_id", cnt, 0, 0)]
    return checks, V(ZONES.assign(n=cnt)), [V(ZONES.assign(n=[8, 8, 8])), V(ZONES.assign(n=[12, 8, 4]))]


@task
def e_parcels_per_farm():
    g = PARCELS.groupby("farm").size()
    return per_key(PARCELS, "farm", g.tolist(), [[17] * 4, PM.assign(a=PM.area).groupby("farm").a.sum().tolist()],
                   rtol=0, atol=0)


@task
def e_depth_by_status():
    g = WELLS.groupby("status").depth_m.mean()
    return per_key(WELLS, "status", g.tolist(), [WELLS.groupby("status").depth_m.sum().tolist(),
                                                 WELLS.groupby("status").depth_m.max().tolist()])


@task
def e_area_per_crop():
    g = PM.assign(a=PM.area / 1e4).groupby("crop").a.sum()
    return per_key(PARCELS, "crop", g.tolist(), [(g * 1e4).tolist(), PARCELS.groupby("crop").size().tolist()])


@task
def e_yield_per_status():  # mean yield, nulls ignored
    g = WELLS.groupby("status").yield_l_min.mean()
    return per_key(WELLS, "status", g.tolist(), [WELLS.fillna({"yield_l_min": 0}).groupby("status").yield_l_min.mean()
                                                 .tolist()])


WIN = wells_in(PM, "parcel_id")


@task
def n_wells_outside():
    ins = sorted(WIN.well_id)
    out = [w for w in WIDS if w not in ins]
    return ids_task(WELLS, "well_id", out, [ins, WIDS])


@task
def n_not_organic():
    ids = PARCELS[PARCELS.organic != "yes"].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [PARCELS[PARCELS.organic == "yes"].parcel_id.tolist(), PIDS])


@task
def n_parcels_no_well():
    has = sorted(set(WIN.parcel_id))
    ids = [p for p in PIDS if p not in has]
    assert ids == [105, 108]
    return ids_task(PARCELS, "parcel_id", ids, [has, PIDS])


@task
def n_roads_not_track():
    ids = ROADS[ROADS["type"] != "track"].road_id.tolist()
    return ids_task(ROADS, "road_id", ids, [ROADS[ROADS["type"] == "track"].road_id.tolist(),
                                            ROADS[ROADS["type"] == "local"].road_id.tolist()])


@task
def n_wells_not_active():
    ids = WELLS[WELLS.status != "active"].well_id.tolist()
    return ids_task(WELLS, "well_id", ids, [WELLS[WELLS.status == "active"].well_id.tolist(),
                                            WELLS[WELLS.status == "inactive"].well_id.tolist()])


@task
def r_parcels_with_wells():
    has = sorted(set(WIN.parcel_id))
    return ids_task(PARCELS, "parcel_id", has, [[105, 108], PIDS])


@task
def r_wells_near_main():
    main = RM[RM["type"] == "main"].geometry.iloc[0]
    d = WM.distance(main)
    ids = WELLS[d <= 100].well_id.tolist()
    assert ids == ["W03", "W05"], ids
    dall = WM.geometry.apply(lambda g: RM.distance(g).min())
    return ids_task(WELLS, "well_id", ids, [WELLS[dall <= 100].well_id.tolist(), WELLS[d <= 150].well_id.tolist()])


@task
def r_roads_clip_zoneC():
    zc = ZM[ZM.zone_id == "C"]
    clipped = gpd.clip(RM, zc)
    zb = gpd.clip(RM, ZM[ZM.zone_id == "B"])
    touching = RM[RM.intersects(zc.geometry.iloc[0])]
    return [c_length(clipped.length.sum())], V(clipped), [V(zb), V(touching)]


@task
def r_parcels_near_track():
    tracks = RM[RM["type"] == "track"].union_all()
    d = PM.distance(tracks)
    ids = PARCELS[d <= 20].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [PARCELS[d <= 40].parcel_id.tolist(),
                                                PARCELS[PM.distance(RM.union_all()) <= 20].parcel_id.tolist()])


@task
def r_wells_in_zoneA():
    j = wells_in(ZM, "zone_id")
    ids = sorted(j[j.zone_id == "A"].well_id)
    return ids_task(WELLS, "well_id", ids, [sorted(j[j.zone_id == "B"].well_id), sorted(j.well_id)])


@task
def c_reproj_wells():
    out = WELLS.to_crs(25832)
    b = out.total_bounds
    return [c_crs(25832), c_len(24), c_bounds(b, 0.5)], V(out), [V(WELLS), V(WELLS.to_crs(32632).set_crs(3857, allow_override=True)),
                                                                 V(WELLS.to_crs(3857))]


@task
def c_reproj_roads_4326():
    out = ROADS.to_crs(4326)
    return [c_crs(4326), c_bounds(out.total_bounds, 1e-6)], V(out), [V(ROADS), V(ROADS.to_crs(25832))]


@task
def c_wells_within150_roads():
    d = WM.geometry.apply(lambda g: RM.distance(g).min())
    ids = WELLS[d <= 150].well_id.tolist()
    d3 = WELLS.to_crs(3857).geometry.apply(lambda g: ROADS.distance(g).min())
    return ids_task(WELLS, "well_id", ids, [WELLS[d3 <= 150].well_id.tolist(), WELLS[d > 150].well_id.tolist()])


@task
def c_road_lengths():
    v = RM.length.tolist()
    return [c_len(10, kind="any_table"), c_col("road_id", v, rtol=0.003, atol=0.5)], V(ROADS.assign(l=v)), [
        V(ROADS.assign(l=ROADS.length)), V(ROADS.assign(l=[x / 1000 for x in v]))]


@task
def num_deeper80():
    ids = WELLS[WELLS.depth_m > 80].well_id.tolist()
    return ids_task(WELLS, "well_id", ids, [WELLS[WELLS.depth_m >= 80].well_id.tolist(),
                                            WELLS[WELLS.depth_m < 80].well_id.tolist()])


@task
def num_yield120():
    ids = WELLS[WELLS.yield_l_min >= 120].well_id.tolist()
    return ids_task(WELLS, "well_id", ids, [WELLS[WELLS.yield_l_min > 120].well_id.tolist(),
                                            WELLS[WELLS.yield_l_min >= 119].well_id.tolist()])


@task
def num_gt6ha():
    a = PM.area / 1e4
    ids = PARCELS[a > 6 + 1e-6].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [PARCELS[a >= 6 - 1e-6].parcel_id.tolist(),
                                                PARCELS[a > 0.06].parcel_id.tolist()])


@task
def num_before2000():
    ids = PARCELS[PARCELS.planted < 2000].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [PARCELS[PARCELS.planted <= 2001].parcel_id.tolist(),
                                                PARCELS[PARCELS.planted >= 2000].parcel_id.tolist()])


@task
def num_top3_deep():
    ids = WELLS.nlargest(3, "depth_m").well_id.tolist()
    return ids_task(WELLS, "well_id", ids, [WELLS.nsmallest(3, "depth_m").well_id.tolist(),
                                            WELLS.nlargest(4, "depth_m").well_id.tolist()])


@task
def ch_active_buffer30():
    act = WM[WM.status == "active"].copy()
    n = len(act)
    b = act.copy()
    b["geometry"] = b.buffer(30, 32)
    allb = WM.copy()
    allb["geometry"] = allb.buffer(30, 32)
    return [c_len(n), c_area(n * math.pi * 900, rel=0.025)], V(b), [V(allb), V(act.assign(geometry=act.buffer(300)))]


@task
def ch_join_yield300():
    j = PARCELS.merge(HARVEST, left_on="parcel_id", right_on="plot_no")
    ids = j[j.yield_t > 300].parcel_id.tolist()
    return ids_task(PARCELS, "parcel_id", ids, [j[j.yield_t >= 300].parcel_id.tolist(),
                                                j[j.yield_t < 300].parcel_id.tolist()])


@task
def ch_ndvi25_zone_mean():
    return zonal_task(ZMASK, "zone_id", NDVI25, np.mean, [NDVI24, ndwi(I25)])


@task
def ch_apple_wells_deep():
    j = wells_in(PM[PM.crop == "apple"], "parcel_id")
    ids = sorted(j[j.depth_m > 80].well_id)
    return ids_task(WELLS, "well_id", ids, [sorted(j.well_id), sorted(WELLS[WELLS.depth_m > 80].well_id)])


@task
def o_cherry_geojson():
    ids = PARCELS[PARCELS.crop == "cherry"].parcel_id.tolist()
    g = sel(PARCELS, "parcel_id", ids)
    return [c_suffix(".geojson"), c_ids("parcel_id", ids)], V(g, ".geojson"), [V(g, ".gpkg"),
                                                                              V(sel(PARCELS, "parcel_id", [103, 112]),
                                                                                ".geojson")]


def named_shp_task(name, status="active"):
    g = WELLS[WELLS.status == status]
    ids = g.well_id.tolist()
    return [c_suffix(f"{name}.shp"), c_ids("well_id", ids)], V(g, f"/{name}.shp"), [
        V(g, ".shp"), V(g, f"/{name}.gpkg"), V(WELLS, f"/{name}.shp")]


@task
def o_active_shp():
    return named_shp_task("active_wells")


@task
def o_aktiv_shp():
    return named_shp_task("brunnen_aktiv")


@task
def o_active_shp_zh():
    return named_shp_task("youxiao_jing")


@task
def o_ndvi24_csv():
    vals = per(PMASK, NDVI24, np.mean)
    tab = pd.DataFrame({"parcel_id": PIDS, "ndvi": vals})
    return [c_suffix(".csv", kind="table"), c_col("parcel_id", vals, kind="table")], T(tab), [
        V(PARCELS.assign(ndvi=vals)), T(tab.assign(ndvi=per(PMASK, NDVI25, np.mean)))]


@task
def o_reproj_wells_gpkg():
    out = WELLS.to_crs(25832)
    return [c_suffix(".gpkg"), c_crs(25832)], V(out, ".gpkg"), [V(out, ".geojson"), V(WELLS, ".gpkg")]


# ---------------------------------------------------------------- the cases

IMG24, IMG25 = "b:image_2024.tif", "b:image_2025.tif"
DEMF, ORTHO, S23 = "b:dem.tif", "b:ortho_rgb_2025.tif", "b:s2_2023_20m.tif"
PAR, WEL, ROA, ZON, HAR = "b:parcels.gpkg", "b:wells.geojson", "b:roads.gpkg", "b:irrigation_zones.geojson", \
    "b:harvest_2024.csv"


def a(cls, req, inputs, tsk):
    return dict(cls=cls, req=req, inputs=inputs, task=tsk)


def d(cls, req, inputs, why):
    return dict(cls=cls, req=req, inputs=inputs, why=why)


EN = [
    # imagery
    a("imagery", "Calculate NDVI for image_2024", [IMG24], "t_ndvi24"),
    a("imagery", "ndvi 2025 pls", [IMG25], "t_ndvi25"),
    a("imagery", "Make an NDWI raster (green vs NIR, McFeeters) from the 2025 image", [IMG25], "t_ndwi25"),
    a("imagery", "normalized difference of the nir and green bands for 2024", [IMG24], "t_gndvi24"),
    a("imagery", "I need a raster of (red - blue) / (red + blue) for the 2025 scene", [IMG25], "t_nd_red_blue25"),
    a("imagery", "Where is NDVI above 0.5 in 2024? Give me a mask raster", [IMG24], "t_mask_ndvi24_gt05"),
    a("imagery", "show me where there is vegetation in the 2025 image (NDVI mask)", [IMG25], "t_veg25"),
    a("imagery", "Threshold the 2024 NDVI at 0.7: 1 above, 0 below", [IMG24], "t_mask_ndvi24_gt07"),
    a("imagery", "find the water pixels in image_2025 with NDWI > 0 (green/nir) as a raster mask", [IMG25],
      "t_mask_ndwi25_gt0"),
    a("imagery", "Polygons of the areas where the 2024 NDVI is below 0.2", [IMG24], "t_poly_ndvi24_lt02"),
    a("imagery", "What percentage of the 2024 image has an NDVI above 0.8?", [IMG24], "t_share_ndvi24_gt08"),
    a("imagery", "raster of pixels with ndvi > 0.6 in the 2025 image, 1/0", [IMG25], "t_mask_ndvi25_gt06"),
    d("imagery", "Compute NDVI for the drone orthophoto", [ORTHO],
      "the orthophoto has only red, green and blue bands: no NIR band for NDVI"),
    d("imagery", "NDVI please", [IMG24, IMG25], "two images of different dates and no date named"),
    d("imagery", "Calculate NDMI = (nir - swir) / (nir + swir) for 2025", [IMG25], "the image has no SWIR band"),
    d("imagery", "compute the red-edge NDVI of the 2024 image", [IMG24], "the image has no red-edge band"),
    d("imagery", "Compute a vegetation index from image_2024", [IMG24],
      "ambiguous index: 'a vegetation index' names none (NDVI, EVI, SAVI, GNDVI...)"),
    # classify
    a("classify", "Run an unsupervised classification of image_2024 into 5 classes", [IMG24], "t_km5_24"),
    a("classify", "k-means on the 2025 image, 4 clusters", [IMG25], "t_km4_25"),
    a("classify", "cluster the pixels of the 2024 scene into 6 groups (all four bands)", [IMG24], "t_km6_24"),
    a("classify", "unsupervised classification with 3 classes of the 2025 image please", [IMG25], "t_km3_25"),
    d("classify", "Do a supervised land-cover classification of image_2024 with the classes orchard, forest, water "
                  "and built-up", [IMG24], "supervised classification without training samples"),
    d("classify", "Classify the 2025 image with a random forest", [IMG25],
      "supervised classifier without training data"),
    d("classify", "classify image_2024 into land cover types", [IMG24],
      "no number of classes and no training samples: land-cover types need a supervised classification"),
    # zonal
    a("zonal", "Mean NDVI per parcel for 2024", [IMG24, PAR], "z_ndvi24_mean"),
    a("zonal", "average NIR value of each parcel in the 2025 image", [IMG25, PAR], "z_nir25_mean"),
    a("zonal", "max elevation in every parcel", [DEMF, PAR], "z_dem_max"),
    a("zonal", "median elevation per parcel from the DEM", [DEMF, PAR], "z_dem_median"),
    a("zonal", "zonal statistics: mean elevation of each irrigation zone", [DEMF, ZON], "z_zone_dem_mean"),
    a("zonal", "mean 2024 NDVI for each irrigation zone", [IMG24, ZON], "z_zone_ndvi24_mean"),
    a("zonal", "What is the mean NDVI of parcel 107 in 2025?", [IMG25, PAR], "z_ndvi25_p107"),
    a("zonal", "Which parcel has the highest mean NDVI in 2024?", [IMG24, PAR], "z_best_parcel24"),
    a("zonal", "sum of the red band per parcel, 2024 image", [IMG24, PAR], "z_red24_sum"),
    a("zonal", "lowest NDVI value inside each parcel in 2025", [IMG25, PAR], "z_ndvi25_min"),
    d("zonal", "mean thermal band temperature per parcel for 2025", [IMG25, PAR], "the image has no thermal band"),
    d("zonal", "Mean NDVI per parcel for 2024", [IMG24], "no parcel layer among the inputs"),
    # change
    a("change", "NDVI change between 2024 and 2025 (2025 minus 2024)", [IMG24, IMG25], "ch_dndvi"),
    a("change", "difference of the NIR band, 2025 - 2024", [IMG24, IMG25], "ch_dnir"),
    a("change", "How many hectares lost more than 0.3 NDVI from 2024 to 2025?", [IMG24, IMG25], "ch_ha_drop03"),
    a("change", "mask of the pixels where NDVI dropped by more than 0.25 between the two dates", [IMG24, IMG25],
      "ch_mask_drop025"),
    a("change", "Where did NDVI increase by more than 0.3 from 2024 to 2025? polygons please", [IMG24, IMG25],
      "ch_poly_gain03"),
    a("change", "which parcels lost more than 0.3 in mean NDVI between 2024 and 2025", [IMG24, IMG25, PAR],
      "ch_parcels_lost03"),
    a("change", "change in mean NDVI per parcel from 2024 to 2025", [IMG24, IMG25, PAR], "ch_parcel_dmean"),
    a("change", "hectares with an NDVI decline of more than 0.25 in each irrigation zone", [IMG24, IMG25, ZON],
      "ch_zone_ha_drop025"),
    a("change", "what percent of the image had an NDVI drop bigger than 0.3 between 2024 and 2025", [IMG24, IMG25],
      "ch_pct_drop03"),
    a("change", "count the pixels whose NDVI fell by more than 0.25 from 2024 to 2025", [IMG24, IMG25],
      "ch_px_drop025"),
    d("change", "compare NDVI between 2023 and 2025", [S23, IMG25],
      "the 2023 scene is on a different grid (20 m, shifted): resampling choice needed"),
    d("change", "NDVI difference between s2_2023_20m and image_2024", [S23, IMG24],
      "rasters on different grids (20 m vs 10 m, shifted origin)"),
    # raster_misc
    a("raster_misc", "What is the mean elevation of the DEM?", [DEMF], "m_dem_mean"),
    a("raster_misc", "min and max elevation?", [DEMF], "m_dem_minmax"),
    a("raster_misc", "mean of the NIR band of image_2024", [IMG24], "m_nir24_mean"),
    a("raster_misc", "standard deviation of the red band in the 2025 image", [IMG25], "m_red25_std"),
    a("raster_misc", "Clip the 2025 image to parcel 107", [IMG25, PAR], "m_clip25_p107"),
    a("raster_misc", "clip the DEM to irrigation zone C", [DEMF, ZON], "m_clip_dem_zoneC"),
    a("raster_misc", "sample the DEM at the wells", [DEMF, WEL], "m_sample_dem"),
    a("raster_misc", "NIR value of the 2024 image at every well", [IMG24, WEL], "m_sample_nir24"),
    a("raster_misc", "what's the elevation at well W09?", [DEMF, WEL], "m_dem_at_w09"),
    a("raster_misc", "slope of the DEM in degrees", [DEMF], "m_slope"),
    a("raster_misc", "Crop image_2024 to irrigation zone A", [IMG24, ZON], "m_clip24_zoneA"),
    a("raster_misc", "What is the total pixel count of image_2025, and its pixel size?", [IMG25], "m_npix_res"),
    # plain
    a("plain", "buffer the wells by 50 m", [WEL], "p_buffer_wells50"),
    a("plain", "total length of the roads in km?", [ROA], "p_road_km"),
    a("plain", "area of each parcel in hectares", [PAR], "p_parcel_area"),
    a("plain", "how many wells are there", [WEL], "p_count_wells"),
    a("plain", "Select the cherry parcels", [PAR], "p_cherry"),
    a("plain", "dissolve the parcels by farm", [PAR], "p_dissolve_farm"),
    # each_per
    a("each_per", "count the wells in each parcel", [PAR, WEL], "e_wells_per_parcel"),
    a("each_per", "number of wells per irrigation zone", [ZON, WEL], "e_wells_per_zone"),
    a("each_per", "how many parcels does each farm have?", [PAR], "e_parcels_per_farm"),
    a("each_per", "average well depth by status", [WEL], "e_depth_by_status"),
    a("each_per", "total parcel area per crop, in ha", [PAR], "e_area_per_crop"),
    a("each_per", "mean yield (l/min) of the wells for each status; skip wells without a yield", [WEL],
      "e_yield_per_status"),
    # negation
    a("negation", "wells that are not inside any parcel", [WEL, PAR], "n_wells_outside"),
    a("negation", "parcels that aren't organic", [PAR], "n_not_organic"),
    a("negation", "Which parcels have no well in them?", [PAR, WEL], "n_parcels_no_well"),
    a("negation", "all roads except the tracks", [ROA], "n_roads_not_track"),
    a("negation", "wells whose status is not active", [WEL], "n_wells_not_active"),
    # roles
    a("roles", "parcels that contain a well", [PAR, WEL], "r_parcels_with_wells"),
    a("roles", "wells within 100 m of the main road", [WEL, ROA], "r_wells_near_main"),
    a("roles", "clip the roads to irrigation zone C", [ROA, ZON], "r_roads_clip_zoneC"),
    a("roles", "which parcels are within 20 m of a farm track (type track)?", [PAR, ROA], "r_parcels_near_track"),
    a("roles", "the wells that lie in irrigation zone A", [WEL, ZON], "r_wells_in_zoneA"),
    # crs_roles
    a("crs_roles", "reproject the wells to ETRS89 / UTM zone 32N", [WEL], "c_reproj_wells"),
    a("crs_roles", "put the roads into WGS84 lat/lon", [ROA], "c_reproj_roads_4326"),
    a("crs_roles", "wells within 150 m of any road", [WEL, ROA], "c_wells_within150_roads"),
    a("crs_roles", "length of each road in metres", [ROA], "c_road_lengths"),
    d("crs_roles", "buffer the wells by 0.001", [WEL], "distance without a unit on a layer in degrees"),
    d("crs_roles", "the wells are really in EPSG:25832, reproject them to EPSG:4326", [WEL],
      "the stated source CRS contradicts the file's (EPSG:4326)"),
    # numbers
    a("numbers", "wells deeper than 80 m", [WEL], "num_deeper80"),
    a("numbers", "wells with a yield of at least 120 l/min", [WEL], "num_yield120"),
    a("numbers", "parcels larger than 6 ha", [PAR], "num_gt6ha"),
    a("numbers", "parcels planted before 2000", [PAR], "num_before2000"),
    a("numbers", "the 3 deepest wells", [WEL], "num_top3_deep"),
    d("numbers", "parcels close to the main road", [PAR, ROA], "'close' without a distance"),
    # not_loaded
    d("not_loaded", "count the buildings in each parcel", [PAR], "no building layer loaded"),
    d("not_loaded", "sample the soil moisture raster at the wells", [WEL], "no soil moisture raster loaded"),
    d("not_loaded", "join the harvest table to the parcels", [PAR], "the harvest table is not among the inputs"),
    d("not_loaded", "NDVI from the 2026 image", [IMG24, IMG25], "no 2026 image loaded"),
    # missing_field
    d("missing_field", "parcels where soil_type is loam", [PAR], "parcels have no soil_type field"),
    d("missing_field", "wells with nitrate above 50 mg/l", [WEL], "wells have no nitrate field"),
    d("missing_field", "mean tree age per farm", [PAR], "parcels have no tree-age field"),
    d("missing_field", "roads with more than 2 lanes", [ROA], "roads have no lanes field"),
    # chain
    a("chain", "select the active wells and buffer them by 30 m", [WEL], "ch_active_buffer30"),
    a("chain", "join the harvest table to the parcels (plot_no = parcel_id) and keep the parcels with more than "
               "300 t", [PAR, HAR], "ch_join_yield300"),
    a("chain", "compute NDVI for 2025, then its mean per irrigation zone", [IMG25, ZON], "ch_ndvi25_zone_mean"),
    a("chain", "wells inside apple parcels that are deeper than 80 m", [WEL, PAR], "ch_apple_wells_deep"),
    # output_clause
    a("output_clause", "export the cherry parcels as GeoJSON", [PAR], "o_cherry_geojson"),
    a("output_clause", "save the active wells to a shapefile called active_wells", [WEL], "o_active_shp"),
    a("output_clause", "write the mean 2024 NDVI of every parcel to a CSV", [IMG24, PAR], "o_ndvi24_csv"),
    a("output_clause", "reproject the wells to EPSG:25832 and save as GeoPackage", [WEL], "o_reproj_wells_gpkg"),
    # typo
    a("typo", "bufer the wels by 50m", [WEL], "p_buffer_wells50"),
    a("typo", "cout wells per parcle", [PAR, WEL], "e_wells_per_parcel"),
    a("typo", "calcualte ndvi for image_2024", [IMG24], "t_ndvi24"),
    a("typo", "selcet the cherry parcles", [PAR], "p_cherry"),
    # open_ended
    d("open_ended", "Which parcels are doing badly and why?", [IMG24, IMG25, PAR], "open-ended analysis"),
    d("open_ended", "suggest where we should plant new orchards", [IMG25, DEMF, PAR, WEL], "open-ended analysis"),
    d("open_ended", "give me an analysis of the valley imagery", [IMG24, IMG25], "open-ended analysis"),
]

DE = [
    a("imagery", "NDVI für image_2024 berechnen", [IMG24], "t_ndvi24"),
    a("imagery", "Erstelle ein NDWI-Raster (Grün und NIR) aus dem Bild von 2025", [IMG25], "t_ndwi25"),
    a("imagery", "Wo liegt der NDVI 2024 über 0,5? Bitte als Maskenraster", [IMG24], "t_mask_ndvi24_gt05"),
    a("imagery", "zeig mir die Vegetationsflächen im Bild 2025 (NDVI-Maske)", [IMG25], "t_veg25"),
    d("imagery", "NDVI für das Drohnen-Orthofoto berechnen", [ORTHO], "orthophoto has no NIR band"),
    d("imagery", "Berechne den NDVI", [IMG24, IMG25], "two dates, none named"),
    a("classify", "Unüberwachte Klassifikation von image_2024 in 5 Klassen", [IMG24], "t_km5_24"),
    a("classify", "k-Means-Clustering des Bildes 2025 mit 4 Clustern", [IMG25], "t_km4_25"),
    d("classify", "Überwachte Klassifikation (Maximum Likelihood) des Bildes 2024 in Obstbau, Wald, Wasser, "
                  "Siedlung", [IMG24], "supervised classification without training samples"),
    a("zonal", "Mittlerer NDVI je Parzelle für 2024", [IMG24, PAR], "z_ndvi24_mean"),
    a("zonal", "maximale Höhe pro Parzelle aus dem DGM", [DEMF, PAR], "z_dem_max"),
    a("zonal", "mittlere Höhe je Bewässerungszone", [DEMF, ZON], "z_zone_dem_mean"),
    a("zonal", "Wie hoch ist der mittlere NDVI der Parzelle 107 im Jahr 2025?", [IMG25, PAR], "z_ndvi25_p107"),
    d("zonal", "mittlere Temperatur des Thermalkanals je Parzelle 2025", [IMG25, PAR], "no thermal band"),
    a("change", "NDVI-Differenz 2025 minus 2024", [IMG24, IMG25], "ch_dndvi"),
    a("change", "Wie viel Hektar haben zwischen 2024 und 2025 mehr als 0,3 NDVI verloren?", [IMG24, IMG25],
      "ch_ha_drop03"),
    a("change", "Maske der Pixel, deren NDVI von 2024 auf 2025 um mehr als 0,3 gesunken ist", [IMG24, IMG25],
      "ch_mask_drop03"),
    a("change", "Welche Parzellen haben im Mittel mehr als 0,3 NDVI verloren (2024 → 2025)?", [IMG24, IMG25, PAR],
      "ch_parcels_lost03"),
    d("change", "NDVI-Veränderung zwischen 2023 und 2025", [S23, IMG25], "rasters on different grids"),
    a("raster_misc", "Mittlere Höhe des DGM?", [DEMF], "m_dem_mean"),
    a("raster_misc", "Schneide das Bild 2025 auf Parzelle 107 zu", [IMG25, PAR], "m_clip25_p107"),
    a("raster_misc", "Höhenwerte des DGM an den Brunnen abfragen", [DEMF, WEL], "m_sample_dem"),
    a("raster_misc", "Standardabweichung des Rot-Kanals im Bild 2025", [IMG25], "m_red25_std"),
    a("raster_misc", "Hangneigung aus dem DGM in Grad", [DEMF], "m_slope"),
    a("plain", "wie viele Brunnen gibt es?", [WEL], "p_count_wells"),
    a("plain", "Wähle die Kirschparzellen aus (crop = cherry)", [PAR], "p_cherry"),
    a("each_per", "Zähle die Brunnen in jeder Parzelle", [PAR, WEL], "e_wells_per_parcel"),
    a("each_per", "Anzahl Parzellen je Betrieb (farm)", [PAR], "e_parcels_per_farm"),
    a("negation", "Brunnen, die in keiner Parzelle liegen", [WEL, PAR], "n_wells_outside"),
    a("negation", "Parzellen ohne Brunnen", [PAR, WEL], "n_parcels_no_well"),
    a("roles", "Parzellen, die einen Brunnen enthalten", [PAR, WEL], "r_parcels_with_wells"),
    a("roles", "Brunnen im Umkreis von 100 m um die Hauptstraße (type main)", [WEL, ROA], "r_wells_near_main"),
    a("crs_roles", "Brunnen nach ETRS89 / UTM 32N umprojizieren", [WEL], "c_reproj_wells"),
    a("crs_roles", "Länge jeder Straße in Metern", [ROA], "c_road_lengths"),
    a("numbers", "Brunnen tiefer als 80 m", [WEL], "num_deeper80"),
    a("numbers", "Parzellen größer als 6 ha", [PAR], "num_gt6ha"),
    d("not_loaded", "Gebäude je Parzelle zählen", [PAR], "no building layer"),
    d("not_loaded", "Bodenfeuchte-Raster an den Brunnen abfragen", [WEL], "no soil moisture raster"),
    d("missing_field", "Parzellen mit Bodenart Lehm", [PAR], "no soil field"),
    d("missing_field", "Brunnen mit Nitrat über 50 mg/l", [WEL], "no nitrate field"),
    a("chain", "Ernte-Tabelle an die Parzellen hängen (plot_no = parcel_id) und die mit mehr als 300 t behalten",
      [PAR, HAR], "ch_join_yield300"),
    a("chain", "aktive Brunnen auswählen und um 30 m puffern", [WEL], "ch_active_buffer30"),
    a("output_clause", "Kirschparzellen als GeoJSON exportieren", [PAR], "o_cherry_geojson"),
    a("output_clause", "aktive Brunnen als Shapefile brunnen_aktiv speichern", [WEL], "o_aktiv_shp"),
    a("typo", "Bruunen um 50m puffern", [WEL], "p_buffer_wells50"),
    d("open_ended", "Welche Parzellen entwickeln sich schlecht und warum?", [IMG24, IMG25, PAR], "open-ended"),
]

ZH = [
    a("imagery", "计算2025年影像的NDVI", [IMG25], "t_ndvi25"),
    a("imagery", "用绿波段和近红外波段计算2024年影像的NDWI", [IMG24], "t_ndwi24"),
    a("imagery", "2025年NDVI大于0.6的区域，输出0/1栅格", [IMG25], "t_mask_ndvi25_gt06"),
    a("imagery", "把2024年NDVI小于0.2的区域提取成面", [IMG24], "t_poly_ndvi24_lt02"),
    d("imagery", "计算2025年影像的NDMI（近红外与短波红外）", [IMG25], "no SWIR band"),
    d("imagery", "帮我算一个植被指数", [IMG24], "ambiguous index"),
    a("classify", "对2025年影像做非监督分类，分成5类", [IMG25], "t_km5_25"),
    a("classify", "2024年影像 k-means 聚类，3 类", [IMG24], "t_km3_24"),
    d("classify", "用支持向量机对2024年影像做监督分类（果园、森林、水体、建筑）", [IMG24],
      "supervised classification without training samples"),
    a("zonal", "统计每个地块2024年的平均NDVI", [IMG24, PAR], "z_ndvi24_mean"),
    a("zonal", "每个地块的高程中位数", [DEMF, PAR], "z_dem_median"),
    a("zonal", "每个灌区2025年NDWI的平均值", [IMG25, ZON], "z_zone_ndwi25_mean"),
    a("zonal", "每个地块2025年NDVI的最大值", [IMG25, PAR], "z_ndvi25_max"),
    a("zonal", "B灌区的最高高程是多少？", [DEMF, ZON], "z_zone_dem_max_answer"),
    a("change", "计算2025年减2024年的NDVI差值", [IMG24, IMG25], "ch_dndvi"),
    a("change", "2024到2025年NDVI下降超过0.25的像元掩膜", [IMG24, IMG25], "ch_mask_drop025"),
    a("change", "NDVI上升超过0.3的区域（2024→2025），输出为面", [IMG24, IMG25], "ch_poly_gain03"),
    a("change", "每个地块平均NDVI从2024年到2025年的变化", [IMG24, IMG25, PAR], "ch_parcel_dmean"),
    d("change", "比较2023年和2024年的NDVI", [S23, IMG24], "rasters on different grids"),
    a("raster_misc", "DEM的最低和最高高程", [DEMF], "m_dem_minmax"),
    a("raster_misc", "用C灌区裁剪DEM", [DEMF, ZON], "m_clip_dem_zoneC"),
    a("raster_misc", "提取每口井处2025年的NDVI值", [IMG25, WEL], "m_sample_ndvi25"),
    a("raster_misc", "2025年影像绿波段的取值范围", [IMG25], "m_green25_range"),
    a("raster_misc", "W09号井的高程是多少", [DEMF, WEL], "m_dem_at_w09"),
    a("plain", "井缓冲50米", [WEL], "p_buffer_wells50"),
    a("plain", "计算每个地块的面积（公顷）", [PAR], "p_parcel_area"),
    a("each_per", "每个灌区有几口井", [ZON, WEL], "e_wells_per_zone"),
    a("each_per", "按状态统计井的平均深度", [WEL], "e_depth_by_status"),
    a("negation", "不是有机种植的地块", [PAR], "n_not_organic"),
    a("negation", "状态不是 active 的井", [WEL], "n_wells_not_active"),
    a("roles", "把道路裁剪到C灌区", [ROA, ZON], "r_roads_clip_zoneC"),
    a("roles", "距离机耕路（type 为 track）20米以内的地块", [PAR, ROA], "r_parcels_near_track"),
    a("crs_roles", "距离任意道路150米以内的井", [WEL, ROA], "c_wells_within150_roads"),
    d("crs_roles", "井缓冲0.001", [WEL], "distance without a unit on a layer in degrees"),
    a("numbers", "出水量不少于120升/分钟的井", [WEL], "num_yield120"),
    a("numbers", "最深的3口井", [WEL], "num_top3_deep"),
    d("not_loaded", "把收获表连接到地块", [PAR], "harvest table not loaded"),
    d("not_loaded", "计算2026年影像的NDVI", [IMG24, IMG25], "no 2026 image"),
    d("missing_field", "按树龄统计每个农场的平均值", [PAR], "no tree-age field"),
    d("missing_field", "车道数大于2的道路", [ROA], "no lanes field"),
    a("chain", "先计算2025年NDVI，再按灌区求平均", [IMG25, ZON], "ch_ndvi25_zone_mean"),
    a("chain", "苹果地块里深度超过80米的井", [WEL, PAR], "ch_apple_wells_deep"),
    a("output_clause", "把樱桃地块导出为GeoJSON", [PAR], "o_cherry_geojson"),
    a("output_clause", "把 active 的井保存为 shapefile，文件名 youxiao_jing", [WEL], "o_active_shp_zh"),
    a("typo", "计算image_2024的NVDI", [IMG24], "t_ndvi24"),
    d("open_ended", "分析一下这个山谷的果园情况", [IMG24, IMG25, PAR], "open-ended"),
]


def build_cases():
    out = {}
    for lang, rows in (("en", EN), ("de", DE), ("zh", ZH)):
        cases = []
        for i, r in enumerate(rows, 1):
            c = {"id": f"{lang}{i:03d}", "lang": lang, "class": r["cls"], "request": r["req"], "inputs": r["inputs"]}
            if "task" in r:
                c["expect"] = "answer"
                c["checks"] = TASKS[r["task"]]()[0]
            else:
                c["expect"] = "decline"
                c["why"] = r["why"]
            cases.append(c)
        out[lang] = cases
    return out


def dump(cases, path):
    rows = []
    for c in cases:
        c = dict(c)
        why = c.pop("why", None)
        rows.append((c, why))
    text = ""
    for c, why in rows:
        chunk = yaml.safe_dump([c], allow_unicode=True, sort_keys=False, width=200)
        if why:
            chunk = f"# decline: {why}\n" + chunk
        text += chunk
    path.write_text(text, encoding="utf-8")


def main(argv):
    built = build_cases()
    if "--write" in argv:
        for lang, cases in built.items():
            dump(cases, HERE / f"cases_{lang}.yaml")
        print("written")
    ok = True
    n_ans = n_dec = n_mis = 0
    used = set()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for lang, cases in built.items():
            yml = yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8"))
            mine = [{k: v for k, v in c.items() if k != "why"} for c in cases]
            if yml != mine:
                ok = False
                print(f"cases_{lang}.yaml differs from the definitions (run --write)")
            for c, r in zip(cases, EN if lang == "en" else DE if lang == "de" else ZH):
                if c["expect"] == "decline":
                    n_dec += 1
                    continue
                n_ans += 1
                used.add(r["task"])
                res = TASKS[r["task"]]()
                checks, ref, wrong = res[0], res[1], res[2]
                alts = res[3] if len(res) > 3 else []
                folder = tmp / c["id"]
                folder.mkdir()
                for i, good in enumerate([ref] + list(alts)):
                    v = check_task({"checks": checks}, write_result(good, folder, i), {})
                    if not v.passed:
                        ok = False
                        print(f"{c['id']} reference{'' if i == 0 else f' alt{i}'} FAILS: {v.failures[:2]}")
                for j, bad in enumerate(wrong):
                    n_mis += 1
                    v = check_task({"checks": checks}, write_result(bad, folder, 100 + j), {})
                    if v.passed:
                        ok = False
                        print(f"{c['id']} misreading {j} PASSES ({r['task']})")
    unused = set(TASKS) - used
    if unused:
        print("unused tasks:", sorted(unused))
    print(f"{n_ans} answer cases, {n_dec} declines, {n_mis} misreadings: {'OK' if ok else 'PROBLEMS'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
