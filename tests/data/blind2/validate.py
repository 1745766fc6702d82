"""Validate the blind2 cases: every expression evaluates on the inputs, and for most answer cases an
independently built correct result passes and a plausible wrong one fails.
Run: /work/main/.venv/bin/python validate.py"""
import math
import os
import re
import sys

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "data", "sample"))
BDATA = os.path.join(HERE, "data")


def utm(g):
    return g.to_crs(g.estimate_utm_crs())


def equal_area(g):
    return g.to_crs(6933)


_cache = {}


def load(spec):
    pre, name = spec.split(":", 1)
    path = os.path.join(SAMPLE if pre == "s" else BDATA, name)
    stem = os.path.splitext(name)[0]
    if name.endswith(".tif"):
        return stem, path
    if path not in _cache:
        _cache[path] = gpd.read_file(path)
    return stem, _cache[path].copy()


def base_ns(case):
    ns = {"gpd": gpd, "pd": pd, "np": np, "math": math, "shapely": shapely, "utm": utm, "equal_area": equal_area}
    for spec in case["inputs"]:
        k, v = load(spec)
        ns[k] = v
    return ns


NUM = re.compile(r"-?\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?")


def numbers_in(text):
    out = []
    for m in NUM.findall(text or ""):
        try:
            out.append(float(m.replace(",", "")))
        except ValueError:
            pass
    return out


def run_check(chk, ns, res):
    """res: dict with out, answer, path (any may be missing). returns (ok, msg)"""
    ns = dict(ns)
    ns["out"] = res.get("out")
    ns["answer"] = res.get("answer", "")
    ns["report"] = res.get("report", {})
    if "answer_number" in chk:
        target = float(eval(chk["answer_number"], ns))
        rel = chk.get("rel", 0.01)
        ok = any(math.isclose(x, target, rel_tol=rel, abs_tol=1e-9 if rel else 0.5) for x in numbers_in(ns["answer"]))
        return ok, f"answer_number {target}"
    if "answer_contains" in chk:
        s = str(eval(chk["answer_contains"], ns))
        return s.lower() in (ns["answer"] or "").lower(), f"contains {s}"
    out = res.get("out")
    if out is None:
        return False, "no output"
    if "crs" in chk:
        if chk["output"] == "raster":
            import rasterio
            with rasterio.open(out) as r:
                got = r.crs.to_epsg()
        else:
            got = out.crs.to_epsg() if out.crs is not None else None
        return got == chk["crs"], f"crs {got} vs {chk['crs']}"
    if "suffix" in chk:
        p = res.get("path", "")
        return p.lower().endswith(chk["suffix"]), f"suffix {p}"
    got = eval(chk["expect"], ns)
    want = eval(chk["equals"], ns)
    if "rel" in chk or "abs" in chk:
        ok = math.isclose(float(got), float(want), rel_tol=chk.get("rel", 0), abs_tol=chk.get("abs", 0))
    else:
        ok = got == want
        if isinstance(ok, (np.ndarray, pd.Series)):
            ok = bool(np.all(ok))
    return bool(ok), f"{chk['expect']} -> {str(got)[:80]} vs {str(want)[:80]}"


# ------------------------------------------------------------------ independent builders
def R(out=None, answer="", path=None):
    if path is None and isinstance(out, gpd.GeoDataFrame):
        path = "result.gpkg"
    return {"out": out, "answer": answer, "path": path}


def buf(g, d):
    u = utm(g)
    u = u.set_geometry(u.buffer(d))
    return R(u.to_crs(g.crs))


def rep(g, epsg):
    return R(g.to_crs(epsg))


def filt(g, mask):
    return R(g[mask])


def cnt(poly, pts, col="NUMPOINTS"):
    p = poly.copy()
    p[col] = [int(pts.to_crs(poly.crs).within(geom).sum()) for geom in poly.geometry]
    return R(p)


def near(a, b):
    j = gpd.sjoin_nearest(utm(a), utm(b).to_crs(utm(a).crs), distance_col="dist")
    return R(j.drop(columns="index_right"))


def within(t, r, dmetres):
    d = utm(t).distance(utm(r).to_crs(utm(t).crs).union_all()).values
    return d


def hull(g, per_feature=False):
    if per_feature:
        return R(g.set_geometry(g.convex_hull))
    return R(gpd.GeoDataFrame(geometry=[g.union_all().convex_hull], crs=g.crs))


def env(g):
    return R(gpd.GeoDataFrame(geometry=[shapely.box(*g.total_bounds)], crs=g.crs))


def areacol(g, div, ea=True):
    p = g.copy()
    p["area_x"] = (equal_area(g) if ea else utm(g)).area.values / div
    return R(p)


def ans(x, fmt="{:.3f}"):
    return R(answer="The result is " + fmt.format(x) + ".")


def table(df):
    return R(df.reset_index(), path="result.csv")


def withpath(res, p):
    res = dict(res)
    res["path"] = p
    return res


def img(ok=True):
    return R(out=os.path.join("x", "map.png" if ok else "map.html"), path="map.png" if ok else "map.html")


def tlen(g):
    p = g.copy()
    return p


def sensors_in(ns):
    s, z = ns["sensors"], ns["mgmt_zones"]
    return s[s.within(z.union_all())]


def zone_minus_hab(ns, reverse=False):
    z, h = ns["mgmt_zones"], ns["habitats"]
    if reverse:
        return R(gpd.overlay(h, z.to_crs(h.crs), how="difference"))
    return R(gpd.overlay(z, h.to_crs(z.crs), how="difference"))


S = {}   # id -> (good(ns) -> res, bad(ns) -> res)
S["en-001"] = (lambda n: buf(n["schools"], 250), lambda n: buf(n["schools"], 500))
S["en-002"] = (lambda n: rep(n["districts"], 4326), lambda n: rep(n["districts"], 3857))
S["en-003"] = (lambda n: R(n["districts"].dissolve("landuse").reset_index()), lambda n: R(n["districts"].dissolve().reset_index()))
S["en-004"] = (lambda n: R(n["districts"].set_geometry(n["districts"].centroid)),
               lambda n: R(n["districts"].set_geometry(n["districts"].representative_point())))
S["en-005"] = (lambda n: ans(n["roads"].length.sum() / 1000), lambda n: ans(n["roads"].length.sum()))
S["en-006"] = (lambda n: areacol(n["districts"], 1e4, ea=False), lambda n: areacol(n["districts"], 1e6, ea=False))
S["en-007"] = (lambda n: filt(n["cafes"], n["cafes"].rating > 4.5), lambda n: filt(n["cafes"], n["cafes"].rating < 4.5))
S["en-008"] = (lambda n: cnt(n["districts"], n["houses"]), lambda n: cnt(n["districts"], n["houses"].iloc[:750]))
S["en-009"] = (lambda n: filt(n["cafes"], within(n["cafes"], n["bus_stops"], 0) <= 300),
               lambda n: filt(n["cafes"], within(n["cafes"], n["bus_stops"], 0) <= 300 * 0.3048))
S["en-010"] = (lambda n: near(n["schools"], n["bus_stops"]), lambda n: R(n["schools"].assign(stop_id=1)))
S["en-011"] = (lambda n: hull(n["schools"]), lambda n: hull(n["schools"], True))
S["en-012"] = (lambda n: env(n["houses"]), lambda n: hull(n["houses"]))
S["en-013"] = (lambda n: ans(n["schools"].students.mean()), lambda n: ans(n["schools"].students.median()))
S["en-014"] = (lambda n: R(n["districts"].sort_values("population", ascending=False)), lambda n: R(n["districts"].sort_values("population")))
S["en-015"] = (lambda n: withpath(R(n["schools"]), "s.geojson"), lambda n: withpath(R(n["schools"]), "s.gpkg"))
S["en-016"] = (lambda n: withpath(R(n["cafes"]), "c.shp"), lambda n: withpath(R(n["cafes"]), "c.gpkg"))
S["en-017"] = (lambda n: img(True), lambda n: img(False))
S["en-018"] = (lambda n: rep(n["houses"], 3035), lambda n: rep(n["houses"], 32633))
S["en-019"] = (lambda n: rep(n["districts"], 3857), lambda n: rep(n["districts"], 4326))
S["en-020"] = (lambda n: rep(n["schools"], 4326), lambda n: rep(n["schools"], 32633))
S["en-021"] = (lambda n: rep(n["roads"], 25833), lambda n: rep(n["roads"], 32633))


def sumper(poly, pts, field):
    p = poly.copy()
    p["s"] = [pts.loc[pts.within(g), field].sum() for g in poly.geometry]
    return R(p)


S["en-022"] = (lambda n: sumper(n["districts"], n["houses"], "residents"), lambda n: cnt(n["districts"], n["houses"]))
S["en-023"] = (lambda n: R(answer=", ".join(f"{k}: {v}" for k, v in n["houses"]["type"].value_counts().items())),
               lambda n: R(answer="There are 1500 houses."))
S["en-024"] = (lambda n: cnt(n["districts"], n["cafes"]), lambda n: R(n["districts"].assign(c=40)))
S["en-025"] = (lambda n: filt(n["houses"], within(n["houses"], n["schools"], 0) <= 200),
               lambda n: filt(n["schools"].assign(house_id=n["schools"].school_id), within(n["schools"], n["houses"], 0) <= 200))
S["en-026"] = S["en-024"]
S["en-027"] = (lambda n: filt(n["districts"], [not n["schools"].within(g).any() for g in n["districts"].geometry]),
               lambda n: filt(n["districts"], [n["schools"].within(g).any() for g in n["districts"].geometry]))
S["en-028"] = (lambda n: filt(n["houses"], n["houses"]["type"] != "apartment"), lambda n: filt(n["houses"], n["houses"]["type"] == "apartment"))
S["en-029"] = (lambda n: filt(n["cafes"], n["cafes"].wifi == "no"), lambda n: filt(n["cafes"], n["cafes"].wifi == "yes"))
S["en-030"] = (lambda n: filt(n["bus_stops"], within(n["bus_stops"], n["schools"], 0) > 500),
               lambda n: filt(n["bus_stops"], within(n["bus_stops"], n["schools"], 0) <= 500))
S["en-031"] = (lambda n: filt(n["districts"], n["districts"].landuse != "residential"), lambda n: filt(n["districts"], n["districts"].landuse == "residential"))
S["en-032"] = (lambda n: R(n["schools"].nlargest(5, "students")), lambda n: R(n["schools"].nlargest(3, "students")))
S["en-033"] = (lambda n: filt(n["houses"], (n["houses"].year_built < 1950) & (n["houses"].value_eur > 400000)),
               lambda n: filt(n["houses"], (n["houses"].year_built < 1950) | (n["houses"].value_eur > 400000)))
S["en-034"] = (lambda n: buf(n["roads"], 804.672), lambda n: buf(n["roads"], 500))
S["en-035"] = (lambda n: buf(n["bus_stops"], 304.8), lambda n: buf(n["bus_stops"], 1000))
S["en-036"] = (lambda n: R(n["cafes"].nlargest(3, "seats")), lambda n: R(n["cafes"].nsmallest(3, "seats")))
S["en-045"] = (lambda n: buf(n["schools"], 1000), lambda n: buf(n["schools"], 1))
S["en-046"] = S["en-002"]
S["en-047"] = S["en-024"]
S["en-048"] = (lambda n: R(n["dem"]), lambda n: R(None))
S["en-049"] = (lambda n: R(n["districts"]), lambda n: R(n["districts"].dissolve()))
S["en-050"] = (lambda n: ans((n["countries"].continent == "Africa").sum(), "{}"), lambda n: ans(len(n["countries"]), "{}"))
S["en-051"] = (lambda n: rep(n["countries"], 8857), lambda n: rep(n["countries"], 4326))
S["en-052"] = (lambda n: R(n["countries"].nlargest(10, "pop_est")), lambda n: R(n["countries"].nlargest(10, "gdp_md_est")))
S["en-054"] = (lambda n: R(gpd.sjoin(n["schools"], n["districts"], predicate="within").drop(columns="index_right")),
               lambda n: R(n["schools"].assign(district_id=1)))
S["en-055"] = (lambda n: buf(n["trails"], 50), lambda n: buf(n["trails"], 50 * 0.3048))
S["en-056"] = (lambda n: buf(n["trails"], 152.4), lambda n: buf(n["trails"], 500))
S["en-057"] = (lambda n: rep(n["trails"], 4326), lambda n: rep(n["trails"], 2263))
S["en-058"] = (lambda n: rep(n["sensors"], 32118), lambda n: rep(n["sensors"], 2263))
S["en-059"] = (lambda n: rep(n["habitats"], 32618), lambda n: rep(n["habitats"], 5070))
S["en-060"] = (lambda n: rep(n["shoreline"], 2263), lambda n: rep(n["shoreline"], 32618))
S["en-061"] = (lambda n: rep(n["trails"], 32118), lambda n: rep(n["shelters"], 2263))
S["en-062"] = (lambda n: R(gpd.clip(n["sensors"], n["mgmt_zones"])), lambda n: R(n["sensors"]))
S["en-063"] = (lambda n: R(gpd.clip(n["trails"], n["habitats"].to_crs(n["trails"].crs))),
               lambda n: R(gpd.clip(n["habitats"], n["trails"].to_crs(n["habitats"].crs).buffer(1))))
S["en-064"] = (lambda n: zone_minus_hab(n), lambda n: zone_minus_hab(n, True))
S["en-065"] = (lambda n: R(n["habitats"].dissolve("hab_type").reset_index()), lambda n: R(n["habitats"].dissolve().reset_index()))


def grp(g, key, val=None, fn="sum", ea=False, div=1.0, length=False):
    x = g.drop(columns="geometry").copy()
    if ea:
        x["v"] = equal_area(g).area.values / div
    elif length:
        x["v"] = utm(g).length.values / div
    else:
        x["v"] = g[val]
    return table(x.groupby(key)["v"].agg(fn))


S["en-066"] = (lambda n: grp(n["habitats"], "hab_type", ea=True, div=1e4), lambda n: grp(n["habitats"], "hab_type", ea=True, div=1e6))
S["en-067"] = (lambda n: ans(utm(n["shoreline"])[n["shoreline"].shore_typ == "ocean"].length.sum() / 1000),
               lambda n: ans(utm(n["shoreline"]).length.sum() / 1000))
S["en-068"] = (lambda n: ans(utm(n["trails"]).length.sum() / 1609.344), lambda n: ans(n["trails"].length.sum() / 1609.344))  # feet read as metres
S["en-069"] = (lambda n: cnt(n["mgmt_zones"], n["sensors"]), lambda n: R(n["mgmt_zones"].assign(c=60)))
S["en-070"] = (lambda n: R(answer=str(n["sensors"].sensType.value_counts().to_dict())), lambda n: R(answer="60 sensors, 4 types"))
S["en-071"] = (lambda n: R(n["habitats"].set_geometry(n["habitats"].centroid)), lambda n: R(n["habitats"].dissolve().centroid.to_frame("geometry")))
S["en-072"] = (lambda n: near(n["sensors"], n["shelters"]), lambda n: near(n["shelters"], n["sensors"]))
S["en-073"] = (lambda n: filt(n["sensors"], n["sensors"].batt_pct < 20), lambda n: filt(n["sensors"], n["sensors"].batt_pct <= 20))
S["en-074"] = (lambda n: filt(n["sensors"], n["sensors"].batt_pct <= 20), lambda n: filt(n["sensors"], n["sensors"].batt_pct < 20))
S["en-075"] = (lambda n: filt(n["sensors"], n["sensors"].status == "active"), lambda n: filt(n["sensors"], n["sensors"].status == "offline"))
S["en-076"] = (lambda n: filt(n["trails"], n["trails"].SurfaceTyp != "boardwalk"), lambda n: filt(n["trails"], n["trails"].SurfaceTyp == "boardwalk"))
S["en-077"] = (lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) > 500),
               lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) > 500 * 0.3048))
S["en-078"] = (lambda n: R(n["mgmt_zones"].nlargest(3, "Visitors_2023")), lambda n: R(n["mgmt_zones"].nsmallest(3, "Visitors_2023")))
S["en-079"] = (lambda n: filt(n["shelters"], n["shelters"].beds >= 10), lambda n: filt(n["shelters"], n["shelters"].beds < 10))
S["en-086"] = (lambda n: withpath(R(n["habitats"].to_crs(4326)), "h.geojson"), lambda n: withpath(R(n["habitats"]), "h.gpkg"))
S["en-087"] = (lambda n: withpath(R(n["trails"]), "/tmp/geo_out/trails_ft.shp"), lambda n: withpath(R(n["trails"]), "trails.gpkg"))
S["en-088"] = S["en-017"]
S["en-089"] = (lambda n: withpath(R(sensors_in(n)), "x.gpkg"), lambda n: withpath(R(n["sensors"]), "x.gpkg"))
S["en-090"] = (lambda n: env(n["trails"]), lambda n: hull(n["trails"]))
S["en-091"] = (lambda n: hull(n["sensors"]), lambda n: env(n["sensors"]))


def lencol(g, div):
    p = g.copy()
    p["len_x"] = utm(g).length.values / div
    return R(p)


S["en-092"] = (lambda n: lencol(n["mgmt_zones"], 0.3048), lambda n: lencol(n["mgmt_zones"], 1))
S["en-093"] = (lambda n: areacol(n["habitats"], 4046.8564), lambda n: areacol(n["habitats"], 1e4))
S["en-094"] = (lambda n: R(answer="mean {:.2f}, min {}, max {}".format(*(n["sensors"].batt_pct.agg(["mean", "min", "max"])))),
               lambda n: R(answer="mean {:.2f}".format(n["sensors"].Elev_m.mean())))
S["en-095"] = (lambda n: grp(n["sensors"], "sensType", "batt_pct", "mean"), lambda n: grp(n["sensors"], "sensType", "batt_pct", "sum"))
S["en-096"] = S["en-062"]
S["en-097"] = (lambda n: buf(n["shoreline"], 100), lambda n: R(utm(n["shoreline"]).dissolve().buffer(100).to_frame("geometry")))
S["en-098"] = (lambda n: filt(n["habitats"], n["habitats"].intersects(n["trails"].to_crs(n["habitats"].crs).union_all())),
               lambda n: filt(n["habitats"], ~n["habitats"].intersects(n["trails"].to_crs(n["habitats"].crs).union_all())))
S["en-099"] = (lambda n: R(gpd.sjoin(n["sensors"], n["mgmt_zones"], how="left").drop(columns="index_right")),
               lambda n: R(gpd.sjoin(n["sensors"], n["mgmt_zones"].assign(ZoneName=n["mgmt_zones"].ZoneName[::-1].values), how="left")))
S["en-102"] = (lambda n: filt(n["sensors"], n["sensors"].Install_Yr >= 2018), lambda n: filt(n["sensors"], n["sensors"].Install_Yr > 2018))
S["en-103"] = (lambda n: grp(n["shoreline"], "shore_typ", length=True, div=1000), lambda n: grp(n["shoreline"], "shore_typ", val="SegID"))
S["en-104"] = (lambda n: filt(n["trails"], within(n["trails"], n["shoreline"], 0) <= 402.336),
               lambda n: filt(n["trails"], within(n["trails"], n["shoreline"][n["shoreline"].shore_typ == "bay"], 0) <= 402.336))
S["en-105"] = (lambda n: ans((n["habitats"].nesting == "yes").sum(), "{}"), lambda n: ans(len(n["habitats"]), "{}"))
S["en-107"] = (lambda n: table(pd.DataFrame({"ShelterNo": n["shelters"].ShelterNo, "lon": n["shelters"].to_crs(4326).geometry.x,
                                             "lat": n["shelters"].to_crs(4326).geometry.y}).set_index("ShelterNo")),
               lambda n: table(pd.DataFrame({"ShelterNo": n["shelters"].ShelterNo, "x": n["shelters"].geometry.x,
                                             "y": n["shelters"].geometry.y}).set_index("ShelterNo")))
# German
S["de-001"] = (lambda n: buf(n["schools"], 300), lambda n: buf(n["schools"], 30))
S["de-002"] = (lambda n: rep(n["districts"], 25832), lambda n: rep(n["districts"], 32633))
S["de-003"] = S["en-008"]
S["de-004"] = S["en-029"]
S["de-005"] = (lambda n: R(n["districts"].nlargest(5, "median_income")), lambda n: R(n["districts"].nsmallest(5, "median_income")))
S["de-006"] = (lambda n: withpath(R(n["roads"]), "r.geojson"), lambda n: withpath(R(n["roads"]), "r.json.gpkg"))
S["de-007"] = (lambda n: filt(n["houses"], within(n["houses"], n["bus_stops"], 0) <= 150),
               lambda n: filt(n["houses"], within(n["houses"], n["bus_stops"], 0) > 150))
S["de-011"] = S["en-005"]
S["de-012"] = (lambda n: hull(n["cafes"]), lambda n: env(n["cafes"]))
S["de-013"] = (lambda n: filt(n["houses"], n["houses"].residents > 4), lambda n: filt(n["houses"], n["houses"].residents >= 4))
S["de-014"] = (lambda n: buf(n["bus_stops"], 200), lambda n: buf(n["bus_stops"], 2000))
S["de-015"] = (lambda n: R(n["districts"].sort_values("population")), lambda n: R(n["districts"].sort_values("population", ascending=False)))
S["de-016"] = (lambda n: grp(n["houses"], "type", "value_eur", "mean"), lambda n: grp(n["houses"], "type", "value_eur", "median"))
S["de-018"] = (lambda n: R(n["districts"].set_geometry(n["districts"].centroid)), lambda n: R(n["districts"].dissolve().centroid.to_frame("geometry")))
S["de-019"] = (lambda n: filt(n["bus_stops"], n["bus_stops"].shelter == "no"), lambda n: filt(n["bus_stops"], n["bus_stops"].shelter == "yes"))
S["de-020"] = S["en-017"]
S["de-021"] = S["en-057"]
S["de-022"] = S["en-059"]
S["de-023"] = (lambda n: buf(n["shelters"], 304.8), lambda n: buf(n["shelters"], 1000))
S["de-024"] = S["en-062"]
S["de-025"] = S["en-069"]
S["de-026"] = (lambda n: filt(n["trails"], n["trails"].open_YN == "Y"), lambda n: filt(n["trails"], n["trails"].open_YN == "N"))
S["de-027"] = S["en-064"]
S["de-028"] = S["en-073"]
S["de-031"] = (lambda n: withpath(R(n["habitats"]), "h.shp"), lambda n: withpath(R(n["habitats"]), "h.gpkg"))
S["de-032"] = (lambda n: areacol(n["habitats"], 1e4), lambda n: areacol(n["habitats"], 4046.8564))
S["de-033"] = S["en-065"]
S["de-034"] = S["en-103"]
S["de-036"] = S["en-072"]
S["de-037"] = (lambda n: R(n["mgmt_zones"].nsmallest(3, "Visitors_2023")), lambda n: R(n["mgmt_zones"].nlargest(3, "Visitors_2023")))
S["de-038"] = (lambda n: ans((n["sensors"].status == "offline").sum(), "{}"), lambda n: ans((n["sensors"].status == "active").sum(), "{}"))
S["de-040"] = (lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) <= 300),
               lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) > 300))
# Chinese
S["zh-001"] = (lambda n: buf(n["schools"], 800), lambda n: buf(n["schools"], 80))
S["zh-002"] = S["en-002"]
S["zh-003"] = (lambda n: rep(n["roads"], 3857), lambda n: rep(n["roads"], 4326))
S["zh-004"] = S["en-008"]
S["zh-005"] = S["en-028"]
S["zh-006"] = (lambda n: R(n["cafes"].nlargest(10, "rating")), lambda n: R(n["cafes"].nlargest(5, "rating")))
S["zh-007"] = (lambda n: R(gpd.clip(n["cafes"], n["districts"])), lambda n: R(gpd.clip(n["districts"], n["cafes"].buffer(1))))
S["zh-011"] = (lambda n: withpath(R(n["bus_stops"]), "b.geojson"), lambda n: withpath(R(n["bus_stops"]), "b.shp"))
S["zh-012"] = S["en-005"]
S["zh-013"] = (lambda n: filt(n["houses"], (n["houses"].year_built > 1980) & (n["houses"].value_eur < 300000)),
               lambda n: filt(n["houses"], (n["houses"].year_built > 1980) & (n["houses"].value_eur < 30000)))
S["zh-014"] = (lambda n: hull(n["bus_stops"]), lambda n: env(n["bus_stops"]))
S["zh-015"] = (lambda n: grp(n["schools"], "type", "students", "sum"), lambda n: grp(n["schools"], "type", "students", "mean"))
S["zh-016"] = S["en-017"]
S["zh-018"] = S["en-010"]
S["zh-019"] = S["en-030"]
S["zh-020"] = S["en-057"]
S["zh-021"] = (lambda n: rep(n["shelters"], 4326), lambda n: rep(n["sensors"], 32118))
S["zh-022"] = (lambda n: buf(n["trails"], 91.44), lambda n: buf(n["trails"], 300))
S["zh-023"] = S["en-062"]
S["zh-024"] = S["en-069"]
S["zh-025"] = S["en-075"]
S["zh-026"] = S["en-102"]
S["zh-029"] = S["en-065"]
S["zh-030"] = S["de-032"]
S["zh-031"] = (lambda n: withpath(R(n["shoreline"]), "s.shp"), lambda n: withpath(R(n["shoreline"]), "s.geojson"))
S["zh-032"] = S["en-064"]
S["zh-034"] = (lambda n: R(answer="mean {:.2f}, sum {}".format(n["shelters"].beds.mean(), n["shelters"].beds.sum())),
               lambda n: R(answer="15 shelters"))
S["zh-035"] = (lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) > 300),
               lambda n: filt(n["shelters"], within(n["shelters"], n["trails"], 0) > 91.44))
S["zh-036"] = S["en-095"]
S["zh-038"] = S["en-059"]
S["zh-039"] = S["en-068"]


def main():
    problems, n_cases, n_sol = [], 0, 0
    counts = {}
    for lang in ("en", "de", "zh"):
        cases = yaml.safe_load(open(os.path.join(HERE, f"cases_{lang}.yaml"), encoding="utf-8"))
        seen = set()
        for case in cases:
            n_cases += 1
            cid = case["id"]
            assert cid not in seen, cid
            seen.add(cid)
            assert case["lang"] == lang and cid.startswith(lang + "-")
            counts.setdefault((lang, case["class"], case["expect"]), 0)
            counts[(lang, case["class"], case["expect"])] += 1
            ns = base_ns(case)
            if case["expect"] == "decline":
                assert "checks" not in case, cid
                continue
            assert case.get("checks"), cid
            # every equals / answer expression evaluates on the inputs alone
            for chk in case["checks"]:
                for k in ("equals", "answer_number", "answer_contains"):
                    if k in chk:
                        try:
                            eval(chk[k], dict(ns))
                        except Exception as e:  # noqa: BLE001
                            problems.append(f"{cid}: {k} fails: {e!r}")
            if cid not in S:
                problems.append(f"{cid}: no solution")
                continue
            n_sol += 1
            good, bad = S[cid]
            for label, fn, want in (("good", good, True), ("bad", bad, False)):
                res = fn(base_ns(case))
                oks = []
                for chk in case["checks"]:
                    try:
                        ok, msg = run_check(chk, ns, res)
                    except Exception as e:  # noqa: BLE001
                        ok, msg = False, f"error {e!r}"
                    oks.append(ok)
                    if want and not ok:
                        problems.append(f"{cid}: good fails: {msg}")
                if not want and all(oks):
                    problems.append(f"{cid}: bad passes all checks")
    print(f"{n_cases} cases, {n_sol} with good/bad solutions")
    for p in problems:
        print("PROBLEM", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
