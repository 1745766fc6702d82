"""blind8 — validate (and, with --write, write) the cases.

Every case is defined here once: its requests (en/de/zh), its inputs and, for answers, a reference result computed
independently with geopandas/numpy/rasterio (measuring in EPSG:26919, metres) plus plausible misreadings. The checks
are generated from the reference values. Then:
  1. the YAML files must hold exactly these cases and checks (--write rewrites them),
  2. the reference result must pass its checks with geoclerk.bench.checkers.check_task,
  3. every misreading must fail at least one check.

    .venv/bin/python tests/data/blind8/validate.py [--write]
"""

from __future__ import annotations

import argparse
import warnings
warnings.filterwarnings("ignore")
import math
import sys
import tempfile
from collections import Counter
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
import yaml
from rasterio.features import geometry_mask

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
U = "EPSG:26919"
CASES: list[dict] = []


# ---------------------------------------------------------------- data, read independently
def _bld():
    return gpd.read_file(DATA / "buildings.gpkg")


BLD = _bld()
BLDU = BLD.to_crs(U)
ZON = gpd.read_file(DATA / "flood_zones.gpkg")
ZONU = ZON.to_crs(U)
PIER = gpd.read_file(DATA / "piers.gpkg")
ROUT = gpd.read_file(DATA / "ferry_routes.gpkg")
ROUTU = ROUT.to_crs(U)
BEA = gpd.read_file(DATA / "beaches.gpkg")
BEAU = BEA.to_crs(U)
_s = pd.read_csv(DATA / "bus_stops.csv")
STOP = gpd.GeoDataFrame(_s, geometry=gpd.points_from_xy(_s.lon, _s.lat), crs=4326)
STOPU = STOP.to_crs(U)
REG = pd.read_csv(DATA / "building_register.csv")
RAS = rasterio.open(DATA / "elevation.tif")
DEM = RAS.read(1).astype(float)
DEM[DEM == RAS.nodata] = np.nan


def zone_of(gdfu):
    """zone code of each feature (None outside every zone), by 'within'."""
    j = gpd.sjoin(gdfu, ZONU[["zone", "geometry"]], predicate="within", how="left")
    return j["zone"].groupby(level=0).first().reindex(gdfu.index)


BLDZ = zone_of(BLDU)
STOPZ = zone_of(STOPU)
JOINED = BLD.merge(REG, left_on="bldg_id", right_on="building", how="left")


def zone_ids(*zones):
    return sorted(int(i) for i in BLD.bldg_id[BLDZ.isin(zones)])


def zonal(gdfu, key, fn):
    out = {}
    for k, g in zip(gdfu[key], gdfu.geometry):
        m = ~geometry_mask([g], DEM.shape, RAS.transform)
        v = DEM[m]
        out[k] = float(fn(v[~np.isnan(v)]))
    return [round(out[k], 4) for k in sorted(out)]


def sample(gdfu, key):
    rows, cols = rasterio.transform.rowcol(RAS.transform, gdfu.geometry.x, gdfu.geometry.y)
    vals = dict(zip(gdfu[key], DEM[np.array(rows), np.array(cols)]))
    return [round(float(vals[k]), 4) for k in sorted(vals)]


def per(keys, values, fn):
    s = pd.Series(list(values)).groupby(list(keys)).agg(fn)
    return [round(float(s[k]), 4) for k in sorted(s.index)]


def sub(gdf, mask):
    return gdf[np.asarray(mask, dtype=bool)].copy()


def table(d: dict):
    return pd.DataFrame(d)


# ---------------------------------------------------------------- check builders
def ids(key, values, kind="vector"):
    return {"output": kind, "expect": f"sorted(out[{key!r}].tolist())", "equals": repr(sorted(values))}


def nrows(n, kind="vector"):
    return {"output": kind, "expect": "len(out)", "equals": str(n)}


def col(key, values, kind="any_table", rtol=0.0, atol=0.0):
    n = len(values)
    vals = [round(float(v), 4) for v in values]
    return {
        "output": kind,
        "expect": f"len(out) == {n} and any(np.allclose(out.sort_values({key!r})[c].astype(float).values, {vals!r}, "
        f"rtol={rtol}, atol={atol}) for c in out.columns if c not in ({key!r}, 'geometry') "
        f"and pd.api.types.is_numeric_dtype(out[c]))",
        "equals": "True",
    }


def pairs(key, field, mapping, kind="vector"):
    keys = sorted(mapping)
    return {
        "output": kind,
        "expect": f"[dict(zip(out[{key!r}].tolist(), out[{field!r}].tolist())).get(k) for k in {keys!r}]",
        "equals": repr([mapping[k] for k in keys]),
    }


def area(total, rel=0.01, kind="vector"):
    return {"output": kind, "expect": "float(utm(out).area.sum())", "equals": repr(round(float(total), 1)), "rel": rel}


def length(total, rel=0.01, kind="vector"):
    return {"output": kind, "expect": "float(utm(out).length.sum())", "equals": repr(round(float(total), 1)),
            "rel": rel}


def crs(epsg, kind="vector"):
    return {"output": kind, "crs": epsg}


def suffix(s, kind="vector"):
    return {"output": kind, "suffix": s}


def bounds(i, value, tol, kind="vector"):
    return {"output": kind, "expect": f"float(out.total_bounds[{i}])", "equals": repr(round(float(value), 6)),
            "abs": tol}


def gtype(t, kind="vector"):
    return {"output": kind, "expect": "sorted(set(out.geom_type))", "equals": repr(t)}


def num(v, rel=None, abs_=None):
    c = {"answer_number": repr(round(float(v), 4))}
    if rel:
        c["rel"] = rel
    if abs_:
        c["abs"] = abs_
    return c


def rstat(stat, v, tol):
    return {"output": "raster", "expect": f"raster_stats(out)[{stat!r}]", "equals": repr(round(float(v), 4)),
            "abs": tol}


# ---------------------------------------------------------------- outputs (reference and misreadings)
def V(gdf, name="result.gpkg"):
    return ("vector", gdf, name)


def T(df, name="result.csv"):
    return ("table", df, name)


def A(text):
    return ("answer", text, None)


def R(arr, transform=None, name="result.tif"):
    return ("raster", (arr, transform or RAS.transform), name)


# ---------------------------------------------------------------- case registration
def C(cls, requests, inputs, ref=None, checks=None, wrongs=(), why=None):
    """requests: {'en': [...], 'de': [...], 'zh': [...]}; ref/wrongs are results; no ref means decline (why)."""
    for lang, texts in requests.items():
        for text in [texts] if isinstance(texts, str) else texts:
            if (text[1] if isinstance(text, tuple) else text) in DROP:
                continue
            if isinstance(text, tuple):  # (class override, text)
                c2, text = text
            else:
                c2 = cls
            CASES.append({"lang": lang, "class": c2, "request": text, "inputs": [f"b:{i}" for i in inputs],
                          "ref": ref, "checks": checks, "wrongs": list(wrongs), "why": why})


def D(cls, requests, inputs, why):
    C(cls, requests, inputs, why=why)


B, Z, P, F, BE, S, RG, E = ("buildings.gpkg", "flood_zones.gpkg", "piers.gpkg", "ferry_routes.gpkg",
                            "beaches.gpkg", "bus_stops.csv", "building_register.csv", "elevation.tif")

from cases_def import DROP, define  # noqa: E402  (the case list, kept apart for reading)

# ---------------------------------------------------------------- grading
def write(out, tmp: Path, n: int):
    kind, obj, name = out
    if kind == "answer":
        return {"status": "ok", "outputs": [], "answer": obj}
    d = tmp / f"{n}"
    d.mkdir(parents=True, exist_ok=True)
    path = d / name
    if kind == "vector":
        if path.suffix == ".csv":
            df = pd.DataFrame(obj.drop(columns="geometry"))
            df["wkt"] = obj.geometry.to_wkt()
            df.to_csv(path, index=False)
            kind = "table"
        else:
            driver = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile", ".kml": "KML",
                      ".fgb": "FlatGeobuf"}[path.suffix]
            obj.to_file(path, driver=driver)
    elif kind == "table":
        obj.to_csv(path, index=False)
    elif kind == "raster":
        arr, transform = obj
        arr = np.where(np.isnan(arr), -9999.0, arr).astype("float32")
        with rasterio.open(path, "w", driver="GTiff", width=arr.shape[1], height=arr.shape[0], count=1,
                           dtype="float32", crs=U, transform=transform, nodata=-9999.0) as dst:
            dst.write(arr, 1)
    return {"status": "ok", "outputs": [{"kind": kind, "path": str(path)}], "answer": ""}


def yaml_cases():
    counters = Counter()
    out = {"en": [], "de": [], "zh": []}
    for c in CASES:
        counters[c["lang"]] += 1
        c["id"] = f"{c['lang']}{counters[c['lang']]:03d}"
        row = {"id": c["id"], "lang": c["lang"], "class": c["class"], "request": c["request"], "inputs": c["inputs"],
               "expect": "answer" if c["ref"] is not None else "decline"}
        if c["ref"] is not None:
            row["checks"] = c["checks"]
        else:
            row["reason"] = c["why"]
        out[c["lang"]].append(row)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    define(sys.modules[__name__])
    sets = yaml_cases()
    bad = 0
    for lang, rows in sets.items():
        path = HERE / f"cases_{lang}.yaml"
        text = yaml.safe_dump(rows, allow_unicode=True, sort_keys=False, width=200)
        if args.write:
            path.write_text(text, encoding="utf-8")
        elif not path.exists() or yaml.safe_load(path.read_text(encoding="utf-8")) != rows:
            print(f"{path.name} differs from the case definitions (run with --write)")
            bad += 1
    from geoclerk.bench.checkers import check_task  # .venv/bin/python (scripts/setup.sh) imports geoclerk

    tmp = Path(tempfile.mkdtemp(prefix="blind8-"))
    n = 0
    nwrong = 0
    cache = {}
    for c in CASES:
        if c["ref"] is None:
            if c["checks"] or not c["why"]:
                print(c["id"], "decline without reason")
                bad += 1
            continue
        key = id(c["ref"])
        if key not in cache:
            n += 1
            rep = write(c["ref"], tmp, n)
            res = check_task({"checks": c["checks"]}, rep, {})
            wr = []
            for w in c["wrongs"]:
                n += 1
                wr.append(check_task({"checks": c["checks"]}, write(w, tmp, n), {}).passed)
            cache[key] = (res, wr)
        res, wr = cache[key]
        if not res.passed:
            print(c["id"], "REFERENCE FAILS", c["request"], res.failures)
            bad += 1
        if not c["wrongs"]:
            print(c["id"], "no misreading", c["request"])
            bad += 1
        for i, passed in enumerate(wr):
            nwrong += 1
            if passed:
                print(c["id"], f"MISREADING {i} PASSES", c["request"])
                bad += 1
    ans = sum(c["ref"] is not None for c in CASES)
    print(f"{len(CASES)} cases: {ans} answer, {len(CASES) - ans} decline; {nwrong} misreading gradings;",
          "OK" if not bad else f"{bad} PROBLEMS")
    print(Counter(c["lang"] for c in CASES))
    print(sorted(Counter((c["class"], c["lang"], c["ref"] is None) for c in CASES).items()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
