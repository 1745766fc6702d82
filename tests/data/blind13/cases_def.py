"""blind13 cases: an archaeological survey (sites, trenches, finds, transects, lab dates, a DEM); requests in
en/de/zh, reference results and misreadings, defined once.

Every answer case has `checks` (bench/checkers.py format), a reference result `ref()` computed here with
geopandas/numpy/rasterio in UTM 33N (EPSG:32633), `mis`: misreadings that must fail the checks, and `reading`:
what a careful analyst takes from the request (layers in role order, fields, values, numbers, crs).
"""
from __future__ import annotations

import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from rasterio.features import geometry_mask

D = Path(__file__).resolve().parent / "data"
TMP = Path(tempfile.mkdtemp(prefix="blind13-"))
UTM = 32633

S = gpd.read_file(D / "sites.gpkg")
T = gpd.read_file(D / "trenches.gpkg")
F4 = gpd.read_file(D / "finds.gpkg")
F = F4.to_crs(UTM)
F["year"] = F.found_on.str[:4].astype(int)
R3 = gpd.read_file(D / "transects.gpkg")
R = R3.to_crs(UTM)
R["len_m"] = R.length
LAB = pd.read_csv(D / "lab_dates.csv")
with rasterio.open(D / "elevation.tif") as _r:
    DEM = _r.read(1).astype(float)
    DT, DNODATA = _r.transform, _r.nodata
DEMV = np.where(DEM == DNODATA, np.nan, DEM)

# finds in trenches / in sites
_jt = gpd.sjoin(F, T[["trench_id", "geometry"]], predicate="within", how="left")
F["trench_id"] = _jt["trench_id"]
_js = gpd.sjoin(F, S[["site_id", "name", "geometry"]].rename(columns={"name": "site_name"}), predicate="within",
                how="left")
F["site_id"] = _js["site_id"]
F["site_name"] = _js["site_name"]
T["area"] = T.area
SNAME = dict(zip(S.site_id, S.name))


# ---------------------------------------------------------------- reports (fake run reports)
def _p(ext, name=None):
    return TMP / (name or f"{uuid.uuid4().hex[:10]}{ext}")


def vec(gdf, name=None, crs=None):
    g = gdf if crs is None else gdf.to_crs(crs)
    g = g.drop(columns=[c for c in ("index_right",) if c in g.columns])
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


def ras(arr, transform=None, crs="EPSG:32633"):
    path = _p(".tif")
    a = np.where(np.isnan(arr), -9999.0, arr).astype("float32")
    with rasterio.open(path, "w", driver="GTiff", width=a.shape[1], height=a.shape[0], count=1, dtype="float32",
                       crs=crs, transform=transform or DT, nodata=-9999.0) as dst:
        dst.write(a, 1)
    return {"status": "ok", "answer": "", "outputs": [{"kind": "raster", "path": str(path)}]}


# ---------------------------------------------------------------- checks
def c_ids(key, vals, kind="vector", as_str=False):
    conv = "astype(str)" if as_str else "astype(int)"
    vals = sorted(str(v) for v in vals) if as_str else sorted(int(v) for v in vals)
    return {"output": kind, "expect": f"sorted(out['{key}'].{conv}.tolist())", "equals": repr(vals)}


def c_len(n, kind="vector"):
    return {"output": kind, "expect": "len(out)", "equals": str(int(n))}


def c_area(a, rel=0.02):
    return {"output": "vector", "expect": "float(out.to_crs(32633).area.sum())", "equals": repr(round(float(a), 1)),
            "rel": rel}


def c_pairs(mapping, n=None, rel=0.005, abs_=0.0, kind="any_table"):
    m = {str(k).removesuffix(".0"): round(float(v), 4) for k, v in mapping.items()}
    keys = "[str(x).removesuffix('.0') for x in out[a]]"
    cond = (f"any(all(math.isclose(float(dict(zip({keys}, out[c]))[k]), v, rel_tol={rel}, abs_tol={abs_}) "
            f"if k in {keys} else False for k, v in {m!r}.items()) for a in out.columns for c in out.columns "
            f"if c != a and c != 'geometry' and pd.api.types.is_numeric_dtype(out[c]))")
    if n is not None:
        cond = f"len(out) == {int(n)} and " + cond
    return {"output": kind, "expect": cond, "equals": "True"}


def c_num(v, rel=0.0, abs_=None):
    c = {"answer_number": repr(round(float(v), 4)), "rel": rel}
    if abs_ is not None:
        c["abs"] = abs_
    return c


def c_name(s):
    return {"answer_contains": repr(s)}


def c_crs(epsg, kind="vector"):
    return {"output": kind, "crs": epsg}


def c_suffix(s, kind="vector"):
    return {"output": kind, "suffix": s}


def c_geomtype(t):
    return {"output": "vector", "expect": f"bool(out.geom_type.isin({[t, 'Multi' + t]!r}).all())", "equals": "True"}


@dataclass
class Task:
    checks: list
    ref: object
    mis: list = field(default_factory=list)


def pairs_df(mapping, key="key", val="value"):
    return pd.DataFrame({key: list(mapping.keys()), val: list(mapping.values())})


def t_num(v, mis, rel=0.0, abs_=None, fmt="{:.4g}"):
    """answer_number with value v; mis: [(label, value)]."""
    checks = [c_num(v, rel, abs_)]
    return Task(checks, lambda: ans(f"The result is {round(float(v), 4)}."),
                [(lab, (lambda w=w: ans(f"The result is {round(float(w), 4)}."))) for lab, w in mis])


def t_name(name, mis, number=None):
    checks = [c_name(name)] + ([c_num(number)] if number is not None else [])
    txt = lambda nm, nb: ans(f"{nm}" + (f" ({nb})" if nb is not None else ""))  # noqa: E731
    return Task(checks, lambda: txt(name, number), [(lab, (lambda w=w, nb=nb: txt(w, nb))) for lab, w, nb in mis])


def t_ids(key, ref_gdf, mis, as_str=False, extra=(), ref_kw=None, kind="vector"):
    """ids of ref_gdf (a GeoDataFrame) in `key`; mis: [(label, gdf or report-function)].
    kind "table": the reference is a CSV table and the check takes a table or a layer (any_table)."""
    checks = [c_ids(key, ref_gdf[key].tolist(), "any_table" if kind == "table" else kind, as_str)] + list(extra)
    kw = ref_kw or {}
    mk = (lambda g: vec(g, **kw)) if kind == "vector" else (lambda g: tab(g, **kw))
    return Task(checks, lambda: mk(ref_gdf),
                [(lab, g if callable(g) else (lambda g=g: mk(g))) for lab, g in mis])


def t_pairs(mapping, mis, n=None, rel=0.005, abs_=0.0, key="key", val="value"):
    checks = [c_pairs(mapping, n, rel, abs_)]
    return Task(checks, lambda: tab(pairs_df(mapping, key, val)),
                [(lab, m if callable(m) else (lambda m=m: tab(pairs_df(m, key, val)))) for lab, m in mis])


def t_vec(checks, ref_gdf, mis, ref_kw=None):
    kw = ref_kw or {}
    return Task(list(checks), lambda: vec(ref_gdf, **kw),
                [(lab, g if callable(g) else (lambda g=g: vec(g))) for lab, g in mis])


# ---------------------------------------------------------------- case registry
CASES: list[dict] = []


def add(cls, task, inputs, reading, en=(), de=(), zh=()):
    reading = {"layers": list(inputs), **reading} if "layers" not in reading else reading
    for lang, reqs in (("en", en), ("de", de), ("zh", zh)):
        for r in ([reqs] if isinstance(reqs, str) else reqs):
            CASES.append({"lang": lang, "cls": cls, "request": r, "inputs": [f"b:{i}" for i in inputs],
                          "expect": "answer", "task": task, "reading": reading})


def decline(cls, why, inputs, en=(), de=(), zh=()):
    for lang, reqs in (("en", en), ("de", de), ("zh", zh)):
        for r in ([reqs] if isinstance(reqs, str) else reqs):
            CASES.append({"lang": lang, "cls": cls, "request": r, "inputs": [f"b:{i}" for i in inputs],
                          "expect": "decline", "why": why})


def margin(values, thr, gap):
    """No value within `gap` of a threshold (so that >, >= and rounding agree)."""
    bad = [v for v in values if abs(float(v) - thr) < gap]
    assert not bad, (thr, bad)


def top_gap(series, gap=1):
    """The largest value leads the runner-up by at least `gap` (no tie on 'the most')."""
    s = series.sort_values(ascending=False)
    assert s.iloc[0] - s.iloc[1] >= gap, s.head(3)
    return s.index[0], s.iloc[0], s.index[1], s.iloc[1]


def counts_in(polys, pts, key):
    j = gpd.sjoin(pts[["geometry"]], polys[[key, "geometry"]], predicate="within")
    c = j.groupby(key).size()
    return {k: int(c.get(k, 0)) for k in polys[key]}


def nz(m):
    return {k: v for k, v in m.items() if v}


TRE, FND, SIT, TRA, LABF, DEMF = "trenches.gpkg", "finds.gpkg", "sites.gpkg", "transects.gpkg", "lab_dates.csv", \
    "elevation.tif"

from cases_chain import define_chain  # noqa: E402
from cases_implied import define_implied  # noqa: E402
from cases_single import define_single  # noqa: E402
from cases_decline import define_decline  # noqa: E402

define_chain()
define_implied()
define_single()
define_decline()
