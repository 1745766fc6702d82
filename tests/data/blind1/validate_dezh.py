#!/usr/bin/env python
"""Validate the blind German / Chinese evaluation cases (cases_de.yaml, cases_zh.yaml).

1. Schema: unique ids, lang, class, expect, inputs that exist, checks on every `answer` case.
2. Input side: every `equals`, `answer_number` and `answer_contains` expression is evaluated on the
   loaded inputs (no result needed) and must not raise.
3. --selftest (default on): for the cases with a reference solution below (written by hand with
   geopandas, independent of GeoClerk) the reference result is written to a file, loaded back
   and run through *all* checks, which must pass; every hand-written WRONG result (swapped
   roles, negation dropped, wrong N, wrong unit, merged instead of each ...) must fail at least
   one check.

Expressions are evaluated with the namespace as *locals only* (the strictest way a harness can
evaluate them), so they use no lambdas or generator expressions that would need globals.

    .venv/bin/python tests/data/blind1/validate_dezh.py [--no-selftest] [-v]
"""
from __future__ import annotations

import builtins
import math
import re
import sys
import tempfile
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml

warnings.filterwarnings("ignore")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SAMPLE = ROOT / "data" / "sample"
BLIND = HERE / "data"
FILES = [HERE / "cases_de.yaml", HERE / "cases_zh.yaml"]

CLASSES = {"plain", "crs_roles", "output_clause", "each_per", "roles", "negation", "numbers",
           "not_loaded", "missing_field", "chain", "open_ended", "typo"}
OUTPUTS = {"vector", "table", "any_table", "image", "raster", "html"}


def utm(gdf):
    return gdf.to_crs(gdf.estimate_utm_crs())


def equal_area(gdf):
    return gdf.to_crs(6933)


def input_path(spec: str) -> Path:
    prefix, name = spec.split(":", 1)
    return {"s": SAMPLE, "b": BLIND}[prefix] / name


def load_input(path: Path):
    if path.suffix.lower() in (".tif", ".tiff"):
        return str(path)
    if path.suffix.lower() == ".csv":
        return pd.read_csv(path)
    return gpd.read_file(path)


_CACHE: dict = {}


def namespace(case) -> dict:
    ns = {"gpd": gpd, "pd": pd, "np": np, "math": math, "shapely": shapely,
          "utm": utm, "equal_area": equal_area}
    for spec in case["inputs"]:
        p = input_path(spec)
        if p not in _CACHE:
            _CACHE[p] = load_input(p)
        v = _CACHE[p]
        ns[p.stem] = v.copy() if hasattr(v, "copy") else v
    return ns


def ev(expr: str, ns: dict):
    # locals-only: the strictest evaluation a harness may use
    return eval(expr, {"__builtins__": builtins}, dict(ns))


def close(a, b, rel=None, abs_=None) -> bool:
    if rel is None and abs_ is None:
        r = a == b
        return bool(np.all(r)) if not isinstance(r, bool) else r
    a, b = float(a), float(b)
    tol = max((rel or 0) * abs(b), abs_ or 0)
    return abs(a - b) <= tol


NUM = re.compile(r"-?\d[\d,.'\u00a0 ]*\d|-?\d")


def numbers_in(text: str) -> list[float]:
    found = []
    for tok in NUM.findall(text):
        t = tok.replace("\u00a0", "").replace(" ", "").replace("'", "")
        cands = {t.replace(",", ""), t.replace(".", "").replace(",", "."), t.replace(",", ".")}
        for c in cands:
            try:
                found.append(float(c))
            except ValueError:
                pass
    return found


# ---------------------------------------------------------------- schema + input side

def validate_schema(cases, lang, errors):
    for c in cases:
        cid = c.get("id", "?")
        for k in ("id", "lang", "class", "request", "inputs", "expect"):
            if k not in c:
                errors.append(f"{cid}: missing {k}")
        if c.get("lang") != lang or not str(cid).startswith(lang + "-"):
            errors.append(f"{cid}: lang/id prefix mismatch")
        if c.get("class") not in CLASSES:
            errors.append(f"{cid}: bad class {c.get('class')}")
        if c.get("expect") not in ("answer", "decline"):
            errors.append(f"{cid}: bad expect {c.get('expect')}")
        if c.get("expect") == "answer" and not c.get("checks"):
            errors.append(f"{cid}: answer case without checks")
        for spec in c.get("inputs", []):
            if not input_path(spec).exists():
                errors.append(f"{cid}: input {spec} missing")
        for chk in c.get("checks") or []:
            if "output" in chk and chk["output"] not in OUTPUTS:
                errors.append(f"{cid}: bad output kind {chk['output']}")
            if "expect" in chk and "equals" not in chk:
                errors.append(f"{cid}: expect without equals")


def validate_inputs(c, errors, verbose):
    ns = namespace(c)
    for chk in c.get("checks") or []:
        for key in ("equals", "answer_number", "answer_contains"):
            if key in chk:
                try:
                    v = ev(chk[key], ns)
                    if key == "answer_number":
                        float(v)
                    if key == "answer_contains" and not isinstance(v, str):
                        errors.append(f"{c['id']}: answer_contains is not a string: {v!r}")
                    if verbose:
                        s = repr(v)
                        print(f"  {c['id']} {key}: {s[:110]}")
                except Exception as e:  # noqa: BLE001
                    errors.append(f"{c['id']}: {key} {chk[key]!r} raised {type(e).__name__}: {e}")


# ---------------------------------------------------------------- self-test machinery

def _save_vector(gdf, suffix, tmp):
    path = Path(tempfile.mkdtemp(dir=tmp)) / ("result" + suffix)
    gdf = gdf.copy()
    if suffix == ".shp":
        gdf.columns = [str(col)[:10] for col in gdf.columns]
    gdf.to_file(path)
    return path


def materialise(res, tmp):
    """res: dict(kind=vector|table|image|raster|answer, obj=..., suffix=..., answer=...)"""
    kind = res["kind"]
    out = path = None
    if kind == "vector":
        path = _save_vector(res["obj"], res.get("suffix", ".gpkg"), tmp)
        out = gpd.read_file(path)
    elif kind == "table":
        path = Path(tempfile.mkdtemp(dir=tmp)) / "result.csv"
        pd.DataFrame(res["obj"]).to_csv(path, index=False)
        out = pd.read_csv(path)
    elif kind in ("image", "raster"):
        path = Path(res["obj"])
        out = str(path)
    global KIND
    KIND = kind
    return out, path, res.get("answer", "")


def crs_of(kind, out, path):
    if kind == "raster":
        import rasterio
        with rasterio.open(path) as ds:
            return ds.crs.to_epsg()
    if isinstance(out, gpd.GeoDataFrame):
        return out.crs.to_epsg() if out.crs else None
    return None


def run_checks(case, maker, tmp) -> list[str]:
    fails = []
    try:
        out, path, answer = materialise(maker(namespace(case)), tmp)
    except Exception as e:  # noqa: BLE001
        return [f"making the result raised {type(e).__name__}: {e}"]
    res = {"kind": "?"}
    ns = namespace(case)
    ns.update(out=out, answer=answer, report={})
    kind = KIND
    for chk in case["checks"]:
        try:
            if "answer_number" in chk:
                want = float(ev(chk["answer_number"], ns))
                if not any(close(n, want, chk.get("rel"), chk.get("abs", 0 if chk.get("rel") is None else None))
                           for n in numbers_in(answer)):
                    fails.append(f"answer_number {want}")
                continue
            if "answer_contains" in chk:
                if str(ev(chk["answer_contains"], ns)) not in answer:
                    fails.append("answer_contains")
                continue
            want_kind = chk["output"]
            ok_kind = (want_kind == kind or (want_kind == "any_table" and kind in ("vector", "table")))
            if not ok_kind:
                fails.append(f"output kind {kind} != {want_kind}")
                continue
            if "crs" in chk:
                if crs_of(kind, out, path) != int(chk["crs"]):
                    fails.append(f"crs {crs_of(kind, out, path)} != {chk['crs']}")
            if "suffix" in chk:
                if path is None or not str(path).lower().endswith(chk["suffix"]):
                    fails.append(f"suffix {path}")
            if "expect" in chk:
                got = ev(chk["expect"], ns)
                want = ev(chk["equals"], ns)
                if not close(got, want, chk.get("rel"), chk.get("abs")):
                    fails.append(f"{chk['expect'][:60]}: {str(got)[:60]} != {str(want)[:60]}")
        except Exception as e:  # noqa: BLE001
            fails.append(f"raised {type(e).__name__}: {str(e)[:100]}")
    return fails


# ---------------------------------------------------------------- reference results
# Each maker takes the case namespace (inputs by stem) and returns a result dict.

def V(gdf, suffix=".gpkg"):
    return {"kind": "vector", "obj": gdf, "suffix": suffix}


def T(df):
    return {"kind": "table", "obj": df}


def A(text):
    return {"kind": "answer", "answer": text}


def _tmpfile(suffix):
    return Path(tempfile.mkdtemp(dir=TMP)) / ("result" + suffix)


def png():
    p = _tmpfile(".png")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.figure()
    plt.plot([0, 1])
    plt.savefig(p)
    plt.close()
    return {"kind": "image", "obj": p}


def slope_raster(dem, unit="deg"):
    import rasterio
    with rasterio.open(dem) as ds:
        a = ds.read(1).astype(float)
        prof = ds.profile
    gy, gx = np.gradient(a, 50.0)
    s = np.hypot(gx, gy)
    s = np.degrees(np.arctan(s)) if unit == "deg" else 100 * s
    p = _tmpfile(".tif")
    prof.update(dtype="float32")
    with rasterio.open(p, "w", **prof) as dst:
        dst.write(s.astype("float32"), 1)
    return {"kind": "raster", "obj": p}


def sample_dem(pts, dem):
    import rasterio
    with rasterio.open(dem) as ds:
        return np.array([v[0] for v in ds.sample(list(zip(pts.geometry.x, pts.geometry.y)))])


def zonal_mean(polys, dem):
    import rasterio
    with rasterio.open(dem) as ds:
        a = ds.read(1)
        rows, cols = np.indices(a.shape).reshape(2, -1)
        xs, ys = ds.xy(rows, cols)
    cells = gpd.GeoDataFrame({"v": a.ravel()}, geometry=gpd.points_from_xy(xs, ys), crs=polys.crs)
    j = gpd.sjoin(cells, polys[["geometry"]], predicate="within")
    return j.groupby("index_right")["v"].mean().reindex(polys.index)


def count_in(points, polys):
    pts = points.to_crs(polys.crs)
    j = gpd.sjoin(pts[["geometry"]], polys[["geometry"]], predicate="within")
    return j.groupby("index_right").size().reindex(polys.index, fill_value=0)


def nearest_lines(src, dst):
    """each feature of src joined to its nearest in dst, as a line (metres in src's UTM)."""
    a = utm(src)
    b = dst.to_crs(a.crs)
    j = gpd.sjoin_nearest(a, b[["geometry"]], distance_col="distance")
    j = j[~j.index.duplicated()]
    lines = [shapely.shortest_line(g, b.geometry.loc[i]) for g, i in zip(j.geometry, j["index_right"])]
    return gpd.GeoDataFrame(j.drop(columns=["geometry", "index_right"]), geometry=lines, crs=a.crs)


def nearest_join(src, dst, dist=True):
    a = utm(src)
    b = dst.to_crs(a.crs)
    j = gpd.sjoin_nearest(a, b, distance_col="distance" if dist else None, lsuffix="1", rsuffix="2")
    j = j[~j.index.duplicated()].drop(columns="index_2")
    return j.to_crs(src.crs)


def within_dist(a, b, d, outside=False):
    au = utm(a)
    bu = b.to_crs(au.crs)
    near = gpd.sjoin_nearest(au[[]].assign(geometry=au.geometry).set_geometry("geometry"),
                             bu[["geometry"]], max_distance=d).index.unique()
    mask = a.index.isin(near)
    return a[~mask] if outside else a[mask]


TMP = None
KIND = None
REF: dict = {}
WRONG: dict = {}


def ref(*ids):
    def deco(f):
        for i in ids:
            REF.setdefault(i, []).append(f)
        return f
    return deco


def wrong(*ids):
    def deco(f):
        for i in ids:
            WRONG.setdefault(i, []).append(f)
        return f
    return deco


# ------------------------------------------------ German, sample town
@ref("de-001", "de-062")
def _(ns): return V(ns["schools"].assign(geometry=ns["schools"].buffer(500, 8)))
@wrong("de-001", "de-062")
def _(ns): return V(ns["schools"].assign(geometry=ns["schools"].buffer(50)))
@wrong("de-001", "de-062")
def _(ns): return V(gpd.GeoDataFrame(geometry=[ns["schools"].buffer(500).union_all()], crs=ns["schools"].crs))
@wrong("de-001")
def _(ns): return V(utm(ns["schools"].to_crs(4326).assign(geometry=ns["schools"].to_crs(4326).buffer(500 / 111000))))


@ref("de-002")
def _(ns): return V(gpd.GeoDataFrame(geometry=[ns["roads"].buffer(25, 8).union_all()], crs=ns["roads"].crs))
@wrong("de-002")
def _(ns): return V(ns["roads"].assign(geometry=ns["roads"].buffer(25)))
@wrong("de-002")
def _(ns): return V(gpd.GeoDataFrame(geometry=[ns["roads"].buffer(250).union_all()], crs=ns["roads"].crs))


@ref("de-003")
def _(ns): return V(ns["districts"].assign(geometry=ns["districts"].centroid))
@wrong("de-003")
def _(ns): return V(ns["districts"].assign(geometry=ns["districts"].representative_point()))
@wrong("de-003")
def _(ns): return V(gpd.GeoDataFrame(geometry=[ns["districts"].union_all().centroid], crs=ns["districts"].crs))


@ref("de-004")
def _(ns): return V(ns["districts"].assign(area_m2=ns["districts"].area))
@wrong("de-004")
def _(ns): return V(ns["districts"].assign(area_x=ns["districts"].area / 1e6))


@ref("de-005")
def _(ns): return T(ns["roads"].drop(columns="geometry").assign(length_m=ns["roads"].length))
@wrong("de-005")
def _(ns): return T(ns["roads"].drop(columns="geometry").assign(length_km=ns["roads"].length / 1000))


@ref("de-006")
def _(ns): c = ns["cafes"]; return V(c[c.wifi == "yes"])
@wrong("de-006", "de-043")
def _(ns): return V(ns["cafes"])


@ref("de-007")
def _(ns): h = ns["houses"]; return V(gpd.GeoDataFrame(geometry=[h.union_all().convex_hull], crs=h.crs))
@wrong("de-007")
def _(ns): h = ns["houses"]; return V(gpd.GeoDataFrame(geometry=[h.union_all().envelope], crs=h.crs))


@ref("de-008")
def _(ns): c = ns["cafes"]; return V(gpd.GeoDataFrame(geometry=[shapely.box(*c.total_bounds)], crs=c.crs))
@wrong("de-008")
def _(ns): c = ns["cafes"]; return V(gpd.GeoDataFrame(geometry=[c.union_all().convex_hull], crs=c.crs))


@ref("de-009")
def _(ns):
    s = ns["schools"].students
    return A(f"Mittelwert {s.mean():.1f}, Minimum {s.min()}, Maximum {s.max()}, Summe {s.sum()}")
@wrong("de-009")
def _(ns): s = ns["schools"].students; return A(f"Median {s.median()}")


@ref("de-010")
def _(ns): return V(ns["schools"].sort_values("students", ascending=False))
@wrong("de-010")
def _(ns): return V(ns["schools"].sort_values("students"))


@ref("de-011")
def _(ns): return V(ns["districts"].dissolve("landuse").reset_index())
@wrong("de-011")
def _(ns): return V(ns["districts"])


@ref("de-012")
def _(ns): return slope_raster(ns["dem"])
@wrong("de-012")
def _(ns): return slope_raster(ns["dem"], "pct")


@ref("de-013")
def _(ns): s = ns["schools"]; return V(s.assign(elev=sample_dem(s, ns["dem"])))
@wrong("de-013")
def _(ns): s = ns["schools"]; return V(s.assign(elev=sample_dem(s, ns["dem"]) + 10))


@ref("de-014")
def _(ns):
    b = ns["bus_stops"]
    vor = shapely.voronoi_polygons(shapely.MultiPoint(list(b.geometry)), extend_to=shapely.box(*b.total_bounds).buffer(500))
    cells = gpd.GeoDataFrame(geometry=list(shapely.get_parts(vor)), crs=b.crs)
    return V(gpd.sjoin(cells, b, predicate="contains").drop(columns="index_right"))
@wrong("de-014")
def _(ns): b = ns["bus_stops"]; return V(b.assign(geometry=b.buffer(100)))


@ref("de-015")
def _(ns):
    s = ns["schools"].set_index("school_id")
    return T(s.geometry.apply(s.distance).rename_axis("to_id", axis=1).stack().rename("distance").reset_index())
@wrong("de-015")
def _(ns):
    s = ns["schools"].set_index("school_id")
    return T((s.geometry.apply(s.distance) / 1000).rename_axis("to_id", axis=1).stack().rename("distance_km").reset_index())


@ref("de-017")
def _(ns): return V(ns["schools"].to_crs(4326))
@wrong("de-017")
def _(ns): return V(ns["schools"].set_crs(4326, allow_override=True))


@ref("de-018")
def _(ns): return V(ns["cafes"].to_crs(25832))
@wrong("de-018")
def _(ns): return V(ns["cafes"].to_crs(25833))
@wrong("de-018")
def _(ns): return V(ns["cafes"].set_crs(25832, allow_override=True))


@ref("de-019")
def _(ns): return V(ns["roads"].to_crs(32633))
@wrong("de-019")
def _(ns): return V(ns["roads"].to_crs(4326))


@ref("de-020")
def _(ns): return V(ns["bus_stops"].set_crs(32632, allow_override=True))
@wrong("de-020")
def _(ns): return V(ns["bus_stops"].to_crs(32632))


@ref("de-021")
def _(ns): return V(ns["world_cities"].to_crs(3857))
@wrong("de-021")
def _(ns): return V(ns["world_cities"].set_crs(3857, allow_override=True))


@ref("de-023")
def _(ns): b = ns["bus_stops"]; return V(b.assign(geometry=b.buffer(200, 8)), ".gpkg")
@wrong("de-023")
def _(ns): b = ns["bus_stops"]; return V(b.assign(geometry=b.buffer(200, 8)), ".shp")


@ref("de-024")
def _(ns): return V(ns["roads"], ".shp")
@wrong("de-024")
def _(ns): return V(ns["roads"], ".geojson")


@ref("de-025")
def _(ns): return png()


@ref("de-026")
def _(ns): h = ns["houses"]; return T(h[h.year_built < 1900].drop(columns="geometry"))
@wrong("de-026")
def _(ns): h = ns["houses"]; return T(h[h.year_built <= 1900].drop(columns="geometry"))
@wrong("de-026")
def _(ns): h = ns["houses"]; return V(h[h.year_built < 1900])


@ref("de-027")
def _(ns): c = ns["cafes"]; return V(c[c.rating > 4], ".geojson")
@wrong("de-027")
def _(ns): c = ns["cafes"]; return V(c[c.rating >= 4], ".geojson")


@ref("de-028")
def _(ns): d = ns["districts"]; return V(d.assign(NUMPOINTS=count_in(ns["houses"], d)))
@wrong("de-028")
def _(ns): d = ns["districts"]; return V(d.assign(NUMPOINTS=count_in(ns["houses"], d) + 1))


@ref("de-030")
def _(ns): s = ns["schools"]; return V(s.assign(geometry=s.buffer(1000, 8)))
@wrong("de-030")
def _(ns): s = ns["schools"]; return V(gpd.GeoDataFrame(geometry=[s.buffer(1000).union_all()], crs=s.crs))


@ref("de-031")
def _(ns): return T(ns["schools"].groupby("type", as_index=False)["students"].mean())
@wrong("de-031")
def _(ns): return T(ns["schools"].groupby("type", as_index=False)["students"].sum())


@ref("de-032")
def _(ns): d = ns["districts"]; return V(d.assign(_mean=zonal_mean(d, ns["dem"])))
@wrong("de-032")
def _(ns): d = ns["districts"]; return V(d.assign(_mean=zonal_mean(d, ns["dem"]) * 1.05))


@ref("de-033")
def _(ns): h = ns["houses"]; g = h.dissolve("type").reset_index(); return V(g.assign(geometry=g.convex_hull))
@wrong("de-033")
def _(ns): h = ns["houses"]; return V(gpd.GeoDataFrame(geometry=[h.union_all().convex_hull], crs=h.crs))


@ref("de-034")
def _(ns):
    d, s = ns["districts"], ns["schools"]
    return V(d[d.intersects(s.union_all())])
@wrong("de-034")
def _(ns): d, s = ns["districts"], ns["schools"]; return V(s[s.within(d.union_all())])


@ref("de-035")
def _(ns): return V(within_dist(ns["houses"], ns["bus_stops"], 100))
@wrong("de-035")
def _(ns): return V(within_dist(ns["bus_stops"], ns["houses"], 100))
@wrong("de-035")
def _(ns): return V(within_dist(ns["houses"], ns["bus_stops"], 1000))


@ref("de-036")
def _(ns):
    d, r = ns["districts"], ns["roads"]
    rows = []
    for _, row in d.iterrows():
        parts = shapely.get_parts(shapely.polygonize([shapely.union_all([row.geometry.boundary, r.union_all()])]))
        for p in parts:
            if row.geometry.contains(p.representative_point()):
                rows.append({**row.drop("geometry").to_dict(), "geometry": p})
    return V(gpd.GeoDataFrame(rows, crs=d.crs))
@wrong("de-036")
def _(ns): return V(ns["roads"].overlay(ns["districts"], keep_geom_type=True))
@wrong("de-036")
def _(ns): return V(ns["districts"])


@ref("de-037")
def _(ns):
    s, d = ns["schools"], ns["districts"]
    return V(gpd.sjoin(s, d[["name", "district_id", "geometry"]], rsuffix="2", lsuffix="1").drop(columns="index_2"))
@wrong("de-037")
def _(ns): return V(gpd.sjoin(ns["districts"], ns["schools"][["school_id", "geometry"]]).drop(columns="index_right"))


@ref("de-038")
def _(ns): return V(nearest_lines(ns["cafes"], ns["schools"]))
@ref("de-038")
def _(ns): return V(nearest_join(ns["cafes"], ns["schools"]))
@wrong("de-038")
def _(ns): return V(nearest_lines(ns["schools"], ns["cafes"]))


@ref("de-039")
def _(ns): d = ns["districts"]; return V(d[d.name != "Altstadt"])
@wrong("de-039")
def _(ns): d = ns["districts"]; return V(d[d.name == "Altstadt"])


@ref("de-040")
def _(ns): return V(within_dist(ns["schools"], ns["bus_stops"], 300, outside=True))
@wrong("de-040")
def _(ns): return V(within_dist(ns["schools"], ns["bus_stops"], 300))


@ref("de-041")
def _(ns): h = ns["houses"]; return V(h[h["type"] != "apartment"])
@wrong("de-041")
def _(ns): h = ns["houses"]; return V(h[h["type"] == "apartment"])


@ref("de-042")
def _(ns): d = ns["districts"]; return V(d[d.landuse != "residential"])
@wrong("de-042")
def _(ns): d = ns["districts"]; return V(d[d.landuse == "residential"])


@ref("de-043")
def _(ns): c = ns["cafes"]; return V(c[c.wifi == "no"])


@ref("de-044")
def _(ns): d = ns["districts"]; return V(d.sort_values("area_km2", ascending=False).head(5))
@wrong("de-044")
def _(ns): d = ns["districts"]; return V(d.sort_values("area_km2").head(5))
@wrong("de-044")
def _(ns): d = ns["districts"]; return V(d.sort_values("population", ascending=False).head(5))


@ref("de-045")
def _(ns): s = ns["schools"]; return V(s[s.students > 1000])
@wrong("de-045")
def _(ns): s = ns["schools"]; return V(s[s.students > 100])


@ref("de-046")
def _(ns): return V(within_dist(ns["cafes"], ns["schools"], 1500))
@wrong("de-046")
def _(ns): return V(within_dist(ns["cafes"], ns["schools"], 1000))
@wrong("de-046")
def _(ns): return V(within_dist(ns["cafes"], ns["schools"], 15000))


@ref("de-047")
def _(ns): return V(ns["cafes"].nlargest(3, "seats"))
@wrong("de-047")
def _(ns): return V(ns["cafes"].nsmallest(3, "seats"))


@ref("de-048")
def _(ns): h = ns["houses"]; return V(h[h.residents > 20])
@wrong("de-048")
def _(ns): h = ns["houses"]; return V(h[h.residents >= 20])


@ref("de-049")
def _(ns): d = ns["districts"]; return V(d.nlargest(1, "median_income"))
@wrong("de-049")
def _(ns): d = ns["districts"]; return V(d.nlargest(1, "population"))


@ref("de-063")
def _(ns): d = ns["districts"]; return V(d.assign(area_ha=d.area / 1e4))
@wrong("de-063")
def _(ns): return V(ns["districts"])


@ref("de-064")
def _(ns): return V(ns["bus_stops"].to_crs(4326))


@ref("de-065")
def _(ns): return V(nearest_lines(ns["schools"], ns["bus_stops"]))
@ref("de-065")
def _(ns): return V(nearest_join(ns["schools"], ns["bus_stops"]))
@wrong("de-065")
def _(ns): return V(nearest_lines(ns["bus_stops"], ns["schools"]))


# ------------------------------------------------ German, Alder County (blind1)
FT = 0.3048006096  # US survey foot in metres


@ref("de-066")
def _(ns): w = ns["wells"]; return V(w.assign(geometry=w.buffer(500 / FT, 8)))
@wrong("de-066")
def _(ns): w = ns["wells"]; return V(w.assign(geometry=w.buffer(500, 8)))  # 500 ft


@ref("de-067")
def _(ns): p = ns["parcels"]; return V(p.assign(area_ha=utm(p).area.values / 1e4))
@wrong("de-067")
def _(ns): p = ns["parcels"]; return V(p.assign(area_x=p.area / 1e4))  # ft² / 1e4


@ref("de-068")
def _(ns): s = ns["streams"]; return V(s.assign(length_km=utm(s).length.values / 1000))
@wrong("de-068")
def _(ns): s = ns["streams"]; return V(s.assign(length_x=s.length))  # degrees


@ref("de-069")
def _(ns): w = ns["wells"]; return V(w[w.status == "active"])
@wrong("de-069")
def _(ns): w = ns["wells"]; return V(w[w.status != "abandoned"])


@ref("de-070")
def _(ns): return V(ns["parcels"].dissolve("OWNER").reset_index())
@wrong("de-070")
def _(ns): return V(ns["parcels"].dissolve("crop_type").reset_index())


@ref("de-071")
def _(ns): c = ns["clinics"]; return V(c[c.FACILITY == "Valley Urgent Care"])
@wrong("de-071")
def _(ns): c = ns["clinics"]; return V(c[c.kind == "urgent_care"])


@ref("de-072")
def _(ns): w = ns["wells"]; return V(gpd.GeoDataFrame(geometry=[w.union_all().convex_hull], crs=w.crs))
@wrong("de-072")
def _(ns): w = ns["wells"]; return V(gpd.GeoDataFrame(geometry=[w.union_all().convex_hull], crs=w.crs).set_crs(32610, allow_override=True))


@ref("de-073")
def _(ns): return V(ns["wells"].to_crs(4326))
@wrong("de-073")
def _(ns): return V(ns["wells"].to_crs(4269))


@ref("de-074")
def _(ns): return V(ns["water_districts"].to_crs(2227))
@wrong("de-074")
def _(ns): return V(ns["parcels"].to_crs(4326))
@wrong("de-074")
def _(ns): return V(ns["water_districts"].set_crs(2227, allow_override=True))


@ref("de-075")
def _(ns): return V(ns["clinics"].to_crs(32610))
@wrong("de-075")
def _(ns): return V(ns["clinics"].to_crs(32611))


@ref("de-076")
def _(ns): return V(ns["parcels"].to_crs(2227))
@wrong("de-076")
def _(ns): return V(ns["parcels"].to_crs(4326))


@ref("de-077")
def _(ns): s = ns["streams"]; return V(s[s.strahler >= 2], ".shp")
@wrong("de-077")
def _(ns): s = ns["streams"]; return V(s[s.strahler > 2], ".shp")


@ref("de-078")
def _(ns): return V(ns["clinics"], ".geojson")
@wrong("de-078")
def _(ns): return V(ns["clinics"], ".gpkg")


@ref("de-079", "zh-024")
def _(ns): return png()


@ref("de-080", "zh-077")
def _(ns): d = ns["water_districts"]; return V(d.assign(NUMPOINTS=count_in(ns["wells"], d)))
@wrong("de-080", "zh-077")
def _(ns): d = ns["water_districts"]; return V(d.assign(NUMPOINTS=count_in(ns["wells"].set_crs(4326, allow_override=True), d)))


@ref("de-081")
def _(ns): return T(ns["wells"].groupby("use_type", as_index=False)["depth_ft"].mean())
@wrong("de-081")
def _(ns): return T(ns["wells"].groupby("use_type", as_index=False)["depth_ft"].median())


@ref("de-082")
def _(ns): return V(nearest_lines(ns["wells"], ns["clinics"]))
@ref("de-082")
def _(ns): return V(nearest_join(ns["wells"], ns["clinics"]))
@wrong("de-082")
def _(ns):
    r = nearest_join(ns["wells"], ns["clinics"]); r["distance"] = r["distance"] / FT
    return V(r[[c for c in r.columns if c in ("WELL_ID", "distance", "geometry")]])


@ref("de-083")
def _(ns): return T(ns["parcels"].groupby("crop_type", as_index=False)["acreage"].sum())
@wrong("de-083")
def _(ns): return T(ns["parcels"].groupby("crop_type", as_index=False)["acreage"].mean())


@ref("de-084")
def _(ns):
    p, w = ns["parcels"], ns["water_districts"]
    c = p.clip(w.to_crs(p.crs))
    return V(c[c.area > 10])
@wrong("de-084")
def _(ns): p, w = ns["parcels"], ns["water_districts"]; return V(w.clip(p.to_crs(w.crs)))


@ref("de-085")
def _(ns): return V(within_dist(ns["wells"], ns["streams"], 300))
@wrong("de-085")
def _(ns): return V(within_dist(ns["wells"], ns["streams"], 300 * FT))
@wrong("de-085")
def _(ns): return V(within_dist(ns["streams"], ns["wells"], 300))


@ref("de-086")
def _(ns):
    p, w = ns["parcels"], ns["water_districts"]
    return V(gpd.overlay(p, w.to_crs(p.crs), how="difference"))
@wrong("de-086")
def _(ns):
    p, w = ns["parcels"], ns["water_districts"]
    return V(gpd.overlay(w.to_crs(p.crs), p, how="difference"))


@ref("de-087")
def _(ns): w = ns["wells"]; return V(w[w.status != "abandoned"])
@wrong("de-087")
def _(ns): w = ns["wells"]; return V(w[w.status == "abandoned"])


@ref("de-088", "zh-084")
def _(ns):
    w, d = ns["wells"], ns["water_districts"]
    return V(w[~w.within(d.to_crs(w.crs).union_all())])
@wrong("de-088", "zh-084")
def _(ns):
    w, d = ns["wells"], ns["water_districts"]
    return V(w[w.within(d.to_crs(w.crs).union_all())])


@ref("de-089")
def _(ns): p = ns["parcels"]; return V(p[p.irrigated == "N"])
@wrong("de-089")
def _(ns): p = ns["parcels"]; return V(p[p.irrigated == "Y"])


@ref("de-090")
def _(ns): return V(ns["wells"].nlargest(10, "depth_ft"))
@wrong("de-090")
def _(ns): return V(ns["wells"].nsmallest(10, "depth_ft"))
@wrong("de-090")
def _(ns): return V(ns["wells"].nlargest(11, "depth_ft"))


@ref("de-091")
def _(ns): p = ns["parcels"]; return V(p[utm(p).area.values > 70e4])
@wrong("de-091")
def _(ns): p = ns["parcels"]; return V(p[p.acreage > 70])


@ref("de-092")
def _(ns): w = ns["wells"]; return V(w[w.nitrate_mgl > 10])
@wrong("de-092")
def _(ns): w = ns["wells"]; return V(w[w.nitrate_mgl <= 10])


@ref("de-098")
def _(ns): s = ns["streams"]; u = utm(s); return V(u.assign(geometry=u.buffer(100, 8)).to_crs(4326))
@wrong("de-098")
def _(ns): s = ns["streams"]; u = utm(s); return V(gpd.GeoDataFrame(geometry=[u.buffer(100).union_all()], crs=u.crs))


@ref("de-099")
def _(ns): return T(ns["wells"]["use_type"].value_counts().rename("count").reset_index())
@wrong("de-099")
def _(ns): return T(ns["wells"]["status"].value_counts().rename("count").reset_index())


# ------------------------------------------------ Chinese, sample town
@ref("zh-001")
def _(ns): b = ns["bus_stops"]; return V(b.assign(geometry=b.buffer(300, 8)))
@wrong("zh-001")
def _(ns): b = ns["bus_stops"]; return V(gpd.GeoDataFrame(geometry=[b.buffer(300).union_all()], crs=b.crs))


@ref("zh-002")
def _(ns): d = ns["districts"]; return V(d.assign(area_m2=d.area))
@wrong("zh-002")
def _(ns): return V(ns["districts"])  # only the existing area_km2


@ref("zh-003")
def _(ns): r = ns["roads"]; return V(r.assign(length_km=r.length / 1000))
@wrong("zh-003")
def _(ns): r = ns["roads"]; return V(r.assign(length_m=r.length))


@ref("zh-004")
def _(ns): r = ns["roads"]; return V(r.assign(geometry=r.centroid))
@wrong("zh-004")
def _(ns): r = ns["roads"]; return V(r.assign(geometry=r.interpolate(0.5, normalized=True)))


@ref("zh-005")
def _(ns): s = ns["schools"]; return V(s[s["type"] == "secondary"])
@wrong("zh-005")
def _(ns): s = ns["schools"]; return V(s[s["type"] != "secondary"])


@ref("zh-006")
def _(ns): c = ns["cafes"]; return V(gpd.GeoDataFrame(geometry=[c.union_all().convex_hull], crs=c.crs))
@wrong("zh-006")
def _(ns): c = ns["cafes"]; return V(gpd.GeoDataFrame(geometry=[shapely.box(*c.total_bounds)], crs=c.crs))


@ref("zh-007")
def _(ns): d = ns["districts"]; return V(gpd.GeoDataFrame(geometry=[shapely.box(*d.total_bounds)], crs=d.crs))
@wrong("zh-007")
def _(ns): d = ns["districts"]; return V(d.assign(geometry=d.envelope))


@ref("zh-008")
def _(ns): d = ns["districts"]; return V(gpd.GeoDataFrame(geometry=[d.union_all()], crs=d.crs))
@wrong("zh-008")
def _(ns): return V(ns["districts"].dissolve("landuse").reset_index())


@ref("zh-009")
def _(ns): v = ns["houses"].value_eur; return A(f"平均值为 {v.mean():,.2f} 欧元，最大值为 {v.max():,} 欧元。")
@wrong("zh-009")
def _(ns): v = ns["houses"].value_eur; return A(f"平均值 {v.median()}，最大值 {v.max()}")


@ref("zh-010")
def _(ns): return V(ns["cafes"].sort_values("rating", ascending=False))
@wrong("zh-010")
def _(ns): return V(ns["cafes"].sort_values("rating"))


def contours(dem, step):
    import rasterio
    with rasterio.open(dem) as ds:
        a = ds.read(1)
        t = ds.transform
        crs = ds.crs
    from matplotlib import pyplot as plt
    levels = np.arange(np.ceil(a.min() / step) * step, a.max() + 0.001, step)
    cs = plt.contour(np.arange(a.shape[1]), np.arange(a.shape[0]), a, levels=levels)
    rows = []
    for lev, segs in zip(cs.levels, cs.allsegs):
        for seg in segs:
            if len(seg) > 1:
                xs, ys = t * (seg[:, 0] + 0.5, seg[:, 1] + 0.5)
                rows.append({"ID": len(rows), "ELEV": float(lev), "geometry": shapely.LineString(np.c_[xs, ys])})
    plt.close("all")
    return gpd.GeoDataFrame(rows, crs=crs.to_wkt())


@ref("zh-011")
def _(ns): return V(contours(ns["dem"], 20))
@wrong("zh-011")
def _(ns): return V(contours(ns["dem"], 10))


@ref("zh-012")
def _(ns): s = ns["schools"]; return V(s.assign(x=s.geometry.x, y=s.geometry.y))
@wrong("zh-012")
def _(ns): s = ns["schools"]; g = s.to_crs(4326); return V(s.assign(x=g.geometry.x, y=g.geometry.y))


@ref("zh-013")
def _(ns):
    s = ns["schools"]
    D = s.geometry.apply(s.distance).replace(0, np.nan)
    i, j = D.stack().idxmin()
    return V(gpd.GeoDataFrame(geometry=[shapely.LineString([s.geometry[i], s.geometry[j]])], crs=s.crs))
@wrong("zh-013")
def _(ns): return V(nearest_lines(ns["schools"], ns["schools"].iloc[:1]))


@ref("zh-014")
def _(ns):
    b = ns["bus_stops"]
    return V(gpd.GeoDataFrame(geometry=list(shapely.get_parts(shapely.delaunay_triangles(b.union_all()))), crs=b.crs))
@wrong("zh-014")
def _(ns):
    b = ns["bus_stops"]
    vor = shapely.voronoi_polygons(b.union_all(), extend_to=b.union_all().convex_hull)
    return V(gpd.GeoDataFrame(geometry=list(shapely.get_parts(vor)), crs=b.crs).clip(b.union_all().convex_hull))


@ref("zh-016")
def _(ns): return V(ns["schools"].to_crs(4326))
@wrong("zh-016")
def _(ns): return V(ns["schools"].set_crs(4326, allow_override=True))


@ref("zh-017")
def _(ns): return V(ns["districts"].to_crs(3035))
@wrong("zh-017")
def _(ns): return V(ns["districts"].to_crs(3034))


@ref("zh-018")
def _(ns): return V(ns["roads"].to_crs(32633))
@wrong("zh-018")
def _(ns): return V(ns["roads"].to_crs(4326))


@ref("zh-019")
def _(ns): return V(ns["houses"].set_crs(32634, allow_override=True))
@wrong("zh-019")
def _(ns): return V(ns["houses"].to_crs(32634))


@ref("zh-020")
def _(ns): return V(ns["world_cities"].to_crs(3395))
@wrong("zh-020")
def _(ns): return V(ns["world_cities"].to_crs(3857).set_crs(3395, allow_override=True))


@ref("zh-022")
def _(ns): return V(ns["districts"], ".shp")
@wrong("zh-022")
def _(ns): return V(ns["districts"], ".gpkg")


@ref("zh-023")
def _(ns): b = ns["bus_stops"]; return V(b[b.shelter == "yes"], ".geojson")
@wrong("zh-023")
def _(ns): b = ns["bus_stops"]; return V(b[b.shelter == "no"], ".geojson")


@ref("zh-025")
def _(ns): return T(ns["cafes"].drop(columns="geometry"))
@wrong("zh-025")
def _(ns): return V(ns["cafes"], ".geojson")


@ref("zh-026")
def _(ns): s = ns["schools"]; return V(s.assign(geometry=s.buffer(1000, 8)), ".shp")
@wrong("zh-026")
def _(ns): s = ns["schools"]; return V(s.assign(geometry=s.buffer(100, 8)), ".shp")


@ref("zh-027")
def _(ns): s = ns["schools"]; return V(s.assign(geometry=s.buffer(800, 8)))
@wrong("zh-027")
def _(ns): s = ns["schools"]; return V(gpd.GeoDataFrame(geometry=[s.buffer(800).union_all()], crs=s.crs))


@ref("zh-028")
def _(ns): d = ns["districts"]; return V(d.assign(NUMPOINTS=count_in(ns["cafes"], d)))
@wrong("zh-028")
def _(ns): d = ns["districts"]; return V(d.assign(NUMPOINTS=count_in(ns["cafes"][ns["cafes"].wifi == "yes"], d)))


@ref("zh-029")
def _(ns): return T(ns["houses"]["type"].value_counts().rename("count").reset_index())
@wrong("zh-029")
def _(ns): return T(ns["houses"].groupby("type", as_index=False)["residents"].sum())


@ref("zh-030")
def _(ns): return T(ns["roads"].groupby("type", as_index=False)["lanes"].sum())
@wrong("zh-030")
def _(ns): return T(ns["roads"].groupby("type", as_index=False)["lanes"].mean())


@ref("zh-033")
def _(ns): return V(within_dist(ns["cafes"], ns["schools"], 500))
@wrong("zh-033")
def _(ns): return V(within_dist(ns["schools"], ns["cafes"], 500))


@ref("zh-034")
def _(ns):
    h, d = ns["houses"], ns["districts"]
    return V(gpd.sjoin(h, d[["name", "population", "geometry"]]).drop(columns="index_right"))
@wrong("zh-034")
def _(ns):
    h, d = ns["houses"], ns["districts"]
    return V(gpd.sjoin(d, h[["house_id", "geometry"]]).drop(columns="index_right"))


@ref("zh-035")
def _(ns): return V(nearest_lines(ns["cafes"], ns["bus_stops"]))
@ref("zh-035")
def _(ns): return V(nearest_join(ns["cafes"], ns["bus_stops"]))
@wrong("zh-035")
def _(ns): return V(nearest_join(ns["bus_stops"], ns["cafes"]))


@ref("zh-036")
def _(ns): return REF["de-036"][0](ns)
@wrong("zh-036")
def _(ns): return V(ns["roads"].overlay(ns["districts"], keep_geom_type=True))


@ref("zh-037")
def _(ns): return V(within_dist(ns["houses"], ns["cafes"], 100))
@wrong("zh-037")
def _(ns): return V(within_dist(ns["cafes"], ns["houses"], 100))


@ref("zh-038")
def _(ns): return V(within_dist(ns["schools"], ns["bus_stops"], 250, outside=True))
@wrong("zh-038")
def _(ns): return V(within_dist(ns["schools"], ns["bus_stops"], 250))
@wrong("zh-038")
def _(ns): return V(within_dist(ns["schools"], ns["bus_stops"], 300, outside=True))


@ref("zh-039")
def _(ns): d = ns["districts"]; return V(d[d.landuse != "park"])
@wrong("zh-039")
def _(ns): d = ns["districts"]; return V(d[d.landuse == "park"])


@ref("zh-040")
def _(ns): r = ns["roads"]; return V(r[r["type"] != "residential"])
@wrong("zh-040")
def _(ns): r = ns["roads"]; return V(r[r["type"] == "residential"])


@ref("zh-041")
def _(ns): b = ns["bus_stops"]; return V(b[b.shelter == "no"])
@wrong("zh-041")
def _(ns): b = ns["bus_stops"]; return V(b[b.shelter == "yes"])


@ref("zh-042")
def _(ns): h = ns["houses"]; return V(h[(h.year_built > 1950) & (h["type"] != "detached")])
@wrong("zh-042")
def _(ns): h = ns["houses"]; return V(h[(h.year_built > 1950) & (h["type"] == "detached")])


@ref("zh-043")
def _(ns): return V(ns["districts"].nlargest(3, "population"))
@wrong("zh-043")
def _(ns): return V(ns["districts"].nlargest(4, "population"))


@ref("zh-044")
def _(ns): s = ns["schools"]; return V(s[s.students > 1200])
@wrong("zh-044")
def _(ns): s = ns["schools"]; return V(s[s.students > 120])


@ref("zh-045")
def _(ns): return V(within_dist(ns["houses"], ns["schools"], 1200))
@wrong("zh-045")
def _(ns): return V(within_dist(ns["houses"], ns["schools"], 12000))


@ref("zh-046")
def _(ns): return V(ns["cafes"].nsmallest(5, "rating"))
@wrong("zh-046")
def _(ns): return V(ns["cafes"].nlargest(5, "rating"))


@ref("zh-047")
def _(ns): h = ns["houses"]; return V(h[h.value_eur > 500000])
@wrong("zh-047")
def _(ns): h = ns["houses"]; return V(h[h.value_eur > 50000])


@ref("zh-048")
def _(ns): return V(ns["districts"].nlargest(1, "median_income"))
@wrong("zh-048")
def _(ns): return V(ns["districts"].nsmallest(1, "median_income"))


@ref("zh-061")
def _(ns): return REF["de-001"][0](ns)
@wrong("zh-061")
def _(ns): s = ns["schools"]; return V(s.assign(geometry=s.buffer(5000)))


@ref("zh-062")
def _(ns): return REF["de-028"][0](ns)
@wrong("zh-062")
def _(ns): return WRONG["de-028"][0](ns)


@ref("zh-063")
def _(ns): return V(ns["cafes"].to_crs(4326))
@wrong("zh-063")
def _(ns): return V(ns["cafes"].set_crs(4326, allow_override=True))


@ref("zh-064")
def _(ns): c = ns["cafes"]; return V(c[c.rating > 4.5])
@wrong("zh-064")
def _(ns): c = ns["cafes"]; return V(c[c.rating > 4])


# ------------------------------------------------ Chinese, Alder County (blind1)
@ref("zh-065")
def _(ns): w = ns["wells"]; return V(w.assign(geometry=w.buffer(1000, 8)))
@wrong("zh-065")
def _(ns): w = ns["wells"]; return V(w.assign(geometry=w.buffer(1000 / FT, 8)))  # read as metres


@ref("zh-066")
def _(ns): p = ns["parcels"]; return V(p.assign(area_km2=utm(p).area.values / 1e6))
@wrong("zh-066")
def _(ns): p = ns["parcels"]; return V(p.assign(area_x=p.area / 1e6))  # ft² / 1e6


@ref("zh-067")
def _(ns): s = ns["streams"]; return V(s.assign(length_m=utm(s).length.values))
@wrong("zh-067")
def _(ns): s = ns["streams"]; return V(s.assign(length_x=s.length * 111000))  # naive degrees


@ref("zh-068")
def _(ns): p = ns["parcels"]; return V(p[p.crop_type == "almonds"])
@wrong("zh-068")
def _(ns): p = ns["parcels"]; return V(p[p.crop_type != "almonds"])


@ref("zh-069")
def _(ns): p = ns["parcels"]; return V(gpd.GeoDataFrame(geometry=[p.union_all()], crs=p.crs))
@wrong("zh-069")
def _(ns): return V(ns["parcels"].dissolve("OWNER").reset_index())


@ref("zh-070")
def _(ns): d = ns["wells"].depth_ft; return A(f"平均井深 {d.mean():.2f} 英尺，最大 {d.max():.1f} 英尺")
@wrong("zh-070")
def _(ns): d = ns["wells"].depth_ft * FT; return A(f"平均井深 {d.mean():.2f} 米，最大 {d.max():.1f} 米")


@ref("zh-071")
def _(ns): return V(ns["water_districts"].to_crs(2227))
@wrong("zh-071")
def _(ns): return V(ns["water_districts"].to_crs(2228))


@ref("zh-072")
def _(ns): return V(ns["parcels"].to_crs(3310))
@wrong("zh-072")
def _(ns): return V(ns["parcels"].to_crs(3857))


@ref("zh-073")
def _(ns): return V(ns["clinics"].to_crs(4326))
@wrong("zh-073")
def _(ns): return V(ns["clinics"].to_crs(3857))


@ref("zh-074")
def _(ns): return V(ns["county_roads"].set_crs(2228, allow_override=True))
@wrong("zh-074")
def _(ns): return V(ns["county_roads"].to_crs(2228))


@ref("zh-075")
def _(ns): return V(ns["parcels"].to_crs(4326), ".geojson")
@wrong("zh-075")
def _(ns): return V(ns["parcels"], ".geojson")


@ref("zh-076")
def _(ns): return T(ns["wells"].drop(columns="geometry"))
@wrong("zh-076")
def _(ns): return V(ns["wells"])


@ref("zh-078")
def _(ns): return T(ns["parcels"].groupby("OWNER", as_index=False)["acreage"].sum())
@wrong("zh-078")
def _(ns): return T(ns["parcels"].groupby("OWNER", as_index=False)["assessed_usd"].sum())


@ref("zh-079")
def _(ns): c = ns["clinics"]; u = utm(c); return V(u.assign(geometry=u.buffer(2000, 8)))
@wrong("zh-079")
def _(ns): c = ns["clinics"]; u = utm(c); return V(gpd.GeoDataFrame(geometry=[u.buffer(2000).union_all()], crs=u.crs))
@wrong("zh-079")
def _(ns): c = ns["clinics"]; return V(c.assign(geometry=c.buffer(0.02)))  # "2 km" as 0.02 degrees


@ref("zh-080")
def _(ns): return T(ns["wells"].groupby("use_type", as_index=False)["nitrate_mgl"].mean())
@wrong("zh-080")
def _(ns): return T(ns["wells"].groupby("status", as_index=False)["nitrate_mgl"].mean())


@ref("zh-081")
def _(ns): r, w = ns["county_roads"], ns["water_districts"]; return V(r.clip(w.to_crs(r.crs)))
@wrong("zh-081")
def _(ns): return V(ns["county_roads"])


@ref("zh-082")
def _(ns): w, p = ns["water_districts"], ns["parcels"]; return V(gpd.overlay(w, p.to_crs(w.crs), how="difference"))
@wrong("zh-082")
def _(ns): w, p = ns["water_districts"], ns["parcels"]; return V(gpd.overlay(p.to_crs(w.crs), w, how="difference"))


@ref("zh-083")
def _(ns):
    w, d = ns["wells"], ns["water_districts"]
    return V(gpd.sjoin(w, d.to_crs(w.crs)[["WD_CODE", "WD_NAME", "geometry"]], how="left").drop(columns="index_right"))
@wrong("zh-083")
def _(ns):
    w, d = ns["wells"], ns["water_districts"]
    return V(gpd.sjoin_nearest(w, d.to_crs(w.crs)[["WD_NAME", "geometry"]]).drop(columns="index_right"))


@ref("zh-085")
def _(ns): p = ns["parcels"]; return V(p[~p.crop_type.isin(["almonds", "walnuts"])])
@wrong("zh-085")
def _(ns): p = ns["parcels"]; return V(p[p.crop_type != "almonds"])


@ref("zh-086")
def _(ns): r = ns["county_roads"]; return V(r[r.maint_by != "County"])
@wrong("zh-086")
def _(ns): r = ns["county_roads"]; return V(r[r.maint_by == "County"])


@ref("zh-087")
def _(ns): return V(ns["parcels"].nlargest(3, "assessed_usd"))
@wrong("zh-087")
def _(ns): return V(ns["parcels"].nlargest(3, "acreage"))


@ref("zh-088")
def _(ns): return V(within_dist(ns["parcels"], ns["streams"], 500))
@wrong("zh-088")
def _(ns): return V(within_dist(ns["parcels"], ns["streams"], 500 * FT))


@ref("zh-089")
def _(ns): w = ns["wells"]; return V(w[w.yield_gpm > 1000])
@wrong("zh-089")
def _(ns): w = ns["wells"]; return V(w[w.yield_gpm > 100])


@ref("zh-096")
def _(ns): return REF["de-098"][0](ns)
@wrong("zh-096")
def _(ns): s = ns["streams"]; return V(s.assign(geometry=s.buffer(100 / 111000)))


@ref("zh-097")
def _(ns): return V(ns["clinics"].to_crs(32610))
@wrong("zh-097")
def _(ns): return V(ns["clinics"].to_crs(32611))


# ------------------------------------------------ more plain single operations
@ref("zh-031")
def _(ns): r = ns["roads"]; return V(r.assign(geometry=r.buffer(20, 8)))
@wrong("zh-031")
def _(ns): r = ns["roads"]; return V(gpd.GeoDataFrame(geometry=[r.buffer(20).union_all()], crs=r.crs))
@wrong("zh-031")
def _(ns): r = ns["roads"]; return V(r.assign(geometry=r.buffer(10, 8)))


@ref("de-100")
def _(ns): r = ns["roads"]; return V(r.drop(columns="geometry").join(r.geometry.get_coordinates()).pipe(lambda d: gpd.GeoDataFrame(d, geometry=gpd.points_from_xy(d.x, d.y), crs=r.crs)).reset_index(drop=True))
@wrong("de-100")
def _(ns): r = ns["roads"]; return V(r.assign(geometry=r.centroid))


@ref("de-101")
def _(ns): return A("Es gibt 40 Cafés.")
@wrong("de-101")
def _(ns): return A("Es gibt 27 Cafés mit WLAN.")


def grid(gdf, size):
    x0, y0, x1, y1 = gdf.total_bounds
    cells = [shapely.box(x, y, x + size, y + size)
             for x in np.arange(x0, x1 - 1e-6, size) for y in np.arange(y0, y1 - 1e-6, size)]
    return gpd.GeoDataFrame({"id": range(len(cells))}, geometry=cells, crs=gdf.crs)


@ref("de-102")
def _(ns): return V(grid(ns["districts"], 500))
@wrong("de-102")
def _(ns): return V(grid(ns["districts"], 1000))


@ref("de-103", "zh-101")
def _(ns): return V(ns["houses"].sort_values("year_built", kind="stable"))
@wrong("de-103", "zh-101")
def _(ns): return V(ns["houses"].sort_values("year_built", ascending=False))


@ref("de-104")
def _(ns): return A(f"Summe yield_gpm: {ns['wells'].yield_gpm.sum():,} gpm")
@wrong("de-104")
def _(ns): return A(f"Mittelwert yield_gpm: {ns['wells'].yield_gpm.mean():.1f} gpm")


@ref("de-105")
def _(ns): return V(ns["water_districts"].dissolve("gw_basin").reset_index())
@wrong("de-105")
def _(ns): return V(ns["water_districts"])


@ref("de-106")
def _(ns): p = ns["parcels"]; return V(p.assign(geometry=p.boundary))
@wrong("de-106")
def _(ns): p = ns["parcels"]; return V(gpd.GeoDataFrame(geometry=[p.union_all().boundary], crs=p.crs))


@ref("de-107", "zh-105")
def _(ns): w = ns["water_districts"]; return V(w.assign(geometry=w.centroid))
@wrong("de-107", "zh-105")
def _(ns): w = ns["water_districts"]; return V(w.assign(geometry=w.representative_point()))


@ref("zh-098")
def _(ns): d = ns["districts"]; return V(d.assign(geometry=d.boundary))
@wrong("zh-098")
def _(ns): d = ns["districts"]; return V(gpd.GeoDataFrame(geometry=[d.union_all().boundary], crs=d.crs))


@ref("zh-099")
def _(ns): return A("共有 60 个公交站。")
@wrong("zh-099")
def _(ns): return A("共有 30 个有遮棚的公交站。")


@ref("zh-100")
def _(ns): return V(grid(ns["districts"], 1000))
@wrong("zh-100")
def _(ns): return V(grid(ns["districts"], 500))


@ref("zh-102")
def _(ns): return A(f"员工总数为 {ns['clinics'].staff.sum()} 人")
@wrong("zh-102")
def _(ns): return A(f"平均员工数为 {ns['clinics'].staff.mean():.1f} 人")


@ref("zh-103")
def _(ns): return V(ns["parcels"].dissolve("zoning").reset_index())
@wrong("zh-103")
def _(ns): return V(ns["parcels"].dissolve("crop_type").reset_index())


@ref("zh-104")
def _(ns): w = ns["wells"]; return T(pd.DataFrame({"WELL_ID": w.WELL_ID, "x": w.geometry.x, "y": w.geometry.y}))
@ref("zh-104")
def _(ns): w = ns["wells"].to_crs(4326); return T(pd.DataFrame({"WELL_ID": w.WELL_ID, "x": w.geometry.x, "y": w.geometry.y}))
@wrong("zh-104")
def _(ns): w = ns["wells"]; return T(pd.DataFrame({"WELL_ID": w.WELL_ID, "x": w.geometry.x * FT}))  # feet read as metres


# ---------------------------------------------------------------- main

def main(argv):
    global TMP
    verbose = "-v" in argv
    selftest = "--no-selftest" not in argv
    errors: list[str] = []
    allcases = []
    for f in FILES:
        if not f.exists():
            errors.append(f"{f.name} missing")
            continue
        cases = yaml.safe_load(f.read_text(encoding="utf-8")) or []
        lang = f.stem.split("_")[1]
        validate_schema(cases, lang, errors)
        allcases += cases
    ids = [c["id"] for c in allcases]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        errors.append(f"duplicate ids: {sorted(dup)}")
    for c in allcases:
        validate_inputs(c, errors, verbose)

    n_ref = n_wrong = 0
    if selftest:
        with tempfile.TemporaryDirectory() as tmp:
            TMP = tmp
            byid = {c["id"]: c for c in allcases}
            for cid in sorted(set(REF) | set(WRONG)):
                if cid not in byid:
                    errors.append(f"reference for unknown case {cid}")
                    continue
                case = byid[cid]
                if case["expect"] != "answer":
                    errors.append(f"{cid}: reference for a decline case")
                    continue
                for maker in REF.get(cid, []):
                    fails = run_checks(case, maker, tmp)
                    n_ref += 1
                    if fails:
                        errors.append(f"{cid}: reference result FAILS: {fails}")
                for maker in WRONG.get(cid, []):
                    n_wrong += 1
                    if not run_checks(case, maker, tmp):
                        errors.append(f"{cid}: wrong result #{WRONG[cid].index(maker)} PASSES all checks")
    # summary
    df = pd.DataFrame([{"lang": c["lang"], "class": c["class"], "expect": c["expect"],
                        "blind1": any(s.startswith("b:") for s in c["inputs"])} for c in allcases])
    if len(df):
        print(pd.crosstab([df["class"]], [df["lang"], df["expect"]], margins=True).to_string())
        print(df.groupby("lang")["blind1"].agg(["sum", "count"]).rename(columns={"sum": "blind1"}).to_string())
    answer_ids = {c["id"] for c in allcases if c["expect"] == "answer"}
    missing_ref = sorted(answer_ids - set(REF))
    print(f"\nself-test: {n_ref} reference results, {n_wrong} wrong results checked; "
          f"answer cases without a reference: {len(missing_ref)} {missing_ref if verbose else ''}")
    if errors:
        print("\nERRORS:")
        for e in errors:
            print(" -", e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
