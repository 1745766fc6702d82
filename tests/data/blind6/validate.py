"""Recomputes every blind6 check from the data (geopandas, independently of GeoClerk) and verifies it.

For each `expect: answer` case, SPEC below holds a reference computation (what a correct result looks
like), the kinds of check to derive from it, and one or more plausible misreadings (wrong role, wrong
CRS/unit, "all" for "each", negation dropped, wrong side of a threshold ...).

  validate.py          regenerate each case's checks from the reference and compare them with the YAML
                       (must be identical), then grade a reference result with bench/checkers.py (must
                       pass) and every misreading (must fail).
  validate.py --write  write the regenerated checks into the cases_*.yaml files.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import geopandas as gpd
import pandas as pd
import shapely.wkt
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
D = HERE / "data"
M = 32618  # metric frame for every measurement (all data lie in UTM zone 18N)

# ---------------------------------------------------------------- data, read independently
ST = gpd.read_file(D / "sampling_stations.gpkg")            # EPSG:4326
RV = gpd.read_file(D / "rivers.gpkg")                       # EPSG:32618
SC = gpd.read_file(D / "subcatchments.gpkg")                # EPSG:2260 (US ft)
FA = gpd.read_file(D / "farms.gpkg")                        # EPSG:26918
_s = pd.read_csv(D / "restoration_sites.csv")
SI = gpd.GeoDataFrame(_s.drop(columns="wkt_geom"), geometry=_s.wkt_geom.map(shapely.wkt.loads), crs=4326)
_p = pd.read_csv(D / "spill_reports.csv")
SP = gpd.GeoDataFrame(_p, geometry=gpd.points_from_xy(_p.lon, _p.lat), crs=4326)
MM = pd.read_csv(D / "monthly_measurements.csv")
BU = pd.read_csv(D / "budget_2025.csv")
LB = pd.read_csv(D / "lab_sheet.csv")
FT = 0.3048006096012192  # US survey foot in metres
ACRE_HA = 0.40468564224


def m(g):
    return g.to_crs(M)


def within_any(pts, polys):
    u = m(polys).union_all()
    return pts[m(pts).within(u).values]


def dist_to(g, other):
    return m(g).distance(m(other).union_all()).values


def join_sc(g, cols=("sc_code",)):
    j = gpd.sjoin(m(g), m(SC)[list(cols) + ["geometry"]], how="left", predicate="within")
    return j.drop(columns="index_right")


def count_in(polys, pts, key):
    j = gpd.sjoin(m(pts), m(polys)[[key, "geometry"]], predicate="within")
    c = j.groupby(key).size()
    out = polys.copy()
    out["n"] = out[key].map(c).fillna(0).astype(int)
    return out


def area_col(g, scale, key):
    out = g.copy()
    out["v"] = m(g).area.values * scale
    return out


def length_col(g, scale):
    out = g.copy()
    out["v"] = m(g).length.values * scale
    return out


def buf(g, metres, **kw):
    return gpd.GeoDataFrame(g.drop(columns="geometry"), geometry=m(g).buffer(metres, **kw).values, crs=M)


def nearest(a, b, bkey):
    j = gpd.sjoin_nearest(m(a), m(b)[[bkey, "geometry"]], distance_col="dist")
    return j.drop(columns="index_right")


def grp(df, by, col, how):
    return df.groupby(by, as_index=False)[col].agg(how).rename(columns={col: "v"})


def rename_v(df, col):
    return df.rename(columns={col: "v"})


class A:
    """A reference answer (a number or a text) instead of an output file."""

    def __init__(self, value):
        self.value = value


# ---------------------------------------------------------------- check builders (ref -> check dict)
def _norm(col):
    return f"sorted(str(v).removesuffix('.0') for v in out[{col!r}])"


def ids(col, kind="any_table"):
    return lambda r: {"output": kind, "expect": _norm(col),
                      "equals": repr(sorted(str(v).removesuffix(".0") for v in r[col]))}


def n(kind="any_table"):
    return lambda r: {"output": kind, "expect": "len(out)", "equals": str(len(r))}


def vals(key, col="v", rel=1e-3, abs_=1e-6, kind="any_table"):
    def build(r):
        v = [round(float(x), 6) if pd.notna(x) else -9e9 for x in r.sort_values(key)[col]]
        expr = (f"any(np.allclose(pd.to_numeric(out.sort_values({key!r})[c], errors='coerce').fillna(-9e9)"
                f".to_numpy(float), {v}, rtol={rel}, atol={abs_}) for c in out.columns if c != 'geometry')")
        return {"output": kind, "expect": expr, "equals": "True"}
    return build


def pairs(key, col, kind="any_table"):
    def build(r):
        p = sorted((str(a).removesuffix(".0"), str(b).removesuffix(".0")) for a, b in zip(r[key], r[col]) if pd.notna(b))
        expr = (f"sorted((str(a).removesuffix('.0'), str(b).removesuffix('.0')) for a, b in "
                f"zip(out[{key!r}], out[{col!r}]) if b == b and b is not None)")
        return {"output": kind, "expect": expr, "equals": repr(p)}
    return build


def area(rel=0.01):
    return lambda r: {"output": "vector", "expect": "float(utm(out).area.sum())",
                      "equals": repr(round(float(m(r).area.sum()), 1)), "rel": rel}


def length(rel=0.01):
    return lambda r: {"output": "vector", "expect": "float(utm(out).length.sum())",
                      "equals": repr(round(float(m(r).length.sum()), 1)), "rel": rel}


def crs(epsg):
    return lambda r: {"output": "vector", "crs": epsg}


def suffix(s, kind="any_table"):
    return lambda r: {"output": kind, "suffix": s}


def bounds(epsg, tol):
    return lambda r: {"output": "vector", "expect": "[float(v) for v in out.total_bounds]",
                      "equals": repr([round(float(v), 6) for v in r.to_crs(epsg).total_bounds]), "abs": tol}


def first(col, k):
    return lambda r: {"output": "any_table", "expect": f"[str(v).removesuffix('.0') for v in out[{col!r}]][:{k}]",
                      "equals": repr([str(v).removesuffix(".0") for v in r[col]][:k])}


def geomtype(t):
    return lambda r: {"output": "vector", "expect": "sorted(set(out.geom_type))", "equals": repr([t])}


def num(rel=0.0, abs_=0.0):
    def build(r):
        c = {"answer_number": repr(r.value if isinstance(r.value, (int, float)) else float(r.value))}
        if rel:
            c["rel"] = rel
        if abs_:
            c["abs"] = abs_
        return c
    return build


def text(s=None):
    return lambda r: {"answer_contains": repr(s if s is not None else r.value)}


SPEC: dict[str, dict] = {}


def case(cid, ref, checks, wrong=()):
    SPEC[cid] = {"ref": ref, "checks": checks, "wrong": list(wrong)}


# ---------------------------------------------------------------- references per case
# ---- English
def pick(g, mask):
    return g[mask.values if hasattr(mask, "values") else mask]


def topn(g, col, k):
    s = g.sort_values(col, ascending=False)
    assert s[col].iloc[k - 1] != s[col].iloc[k], "tie at the cut"
    return s.head(k)


def xy_of(g, epsg):
    out = g.copy()
    p = g.to_crs(epsg)
    out["x"], out["y"] = p.geometry.x.values, p.geometry.y.values
    return out


def xs(tol=5.0):
    return lambda r: {"output": "vector", "expect": "sorted(round(float(v), 1) for v in utm(out).geometry.x)",
                      "equals": repr(sorted(round(float(v), 1) for v in m(r).geometry.x)), "abs": tol}


def center(g):
    c = m(g).union_all().centroid
    return gpd.GeoDataFrame({"id": [1]}, geometry=[c], crs=M)


def clip_to(a, b):
    out = gpd.clip(m(a), m(b))
    return out[~out.is_empty]


nitr = ST.nitrate_mg_l
case("en001", lambda: pick(ST, nitr > 10), [ids("station_id"), n()], [lambda: pick(ST, nitr >= 10)])
case("en002", lambda: pick(RV, RV["class"] == "ditch"), [ids("river_id"), n()], [lambda: pick(RV, RV["class"] != "ditch")])
case("en003", lambda: A(int((FA.bio == "ja").sum())), [num()], [lambda: A(int((FA.bio != "ja").sum())), lambda: A(len(FA))])
case("en004", lambda: pick(SC, SC.protected == "yes"), [ids("sc_code"), n()], [lambda: pick(SC, SC.protected == "no")])
case("en005", lambda: gpd.GeoDataFrame(SC.drop(columns="geometry"), geometry=m(SC).centroid, crs=M), [n(), geomtype("Point"), xs(5.0)],
     [lambda: center(SC), lambda: gpd.GeoDataFrame(SC.drop(columns="geometry"), geometry=m(SC).envelope.centroid, crs=M)])
case("en006", lambda: topn(FA, "flaeche_ha", 6).pipe(lambda _: FA.sort_values("flaeche_ha", ascending=False)), [first("hof_id", 6), n()], [lambda: FA.sort_values("flaeche_ha")])
case("en007", lambda: topn(ST, "nitrate_mg_l", 4), [ids("station_id"), n()], [lambda: topn(ST, "nitrate_mg_l", 5), lambda: ST.sort_values("nitrate_mg_l").head(4)])
case("en008", lambda: A(round(float(FA.flaeche_ha.sum()), 1)), [num(rel=1e-4)], [lambda: A(round(float(FA.flaeche_ha.mean()), 1))])
case("en009", lambda: A(round(float(ST.ph.mean()), 3)), [num(abs_=0.05)], [lambda: A(round(float(ST.ph.median()), 3))])
case("en010", lambda: length_col(RV, 1e-3), [vals("river_id", rel=0.005), n()], [lambda: length_col(RV, 1.0), lambda: length_col(RV, 1e-3 / 1.609344)])
case("en011", lambda: area_col(SC, 1e-4, "sc_code"), [vals("sc_code", rel=0.005), n()], [lambda: area_col(SC, 1e-6, "sc_code"), lambda: area_col(SC, 1 / FT**2, "sc_code")])
case("en012", lambda: RV.dissolve("name", as_index=False), [ids("name"), n()], [lambda: RV, lambda: RV.dissolve("class", as_index=False)])
case("en013", lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[m(ST).union_all().convex_hull], crs=M), [n("vector"), area(0.01)],
     [lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[m(ST).union_all().envelope], crs=M)])
case("en014", lambda: pick(ST, nitr.isna()), [ids("station_id"), n()], [lambda: pick(ST, nitr.notna())])
case("en015", lambda: gpd.GeoDataFrame(ST.drop(columns="geometry"), geometry=[g.buffer(50) for g in m(ST).geometry], crs=M), [n(), ids("station_id")],
     [lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[m(ST).union_all().convex_hull], crs=M)])
case("en016", lambda: m(RV[RV.name == "Spruce Run"]).get_coordinates().pipe(lambda c: gpd.GeoDataFrame(c, geometry=gpd.points_from_xy(c.x, c.y), crs=M)),
     [n("vector"), geomtype("Point")], [lambda: m(RV).get_coordinates().pipe(lambda c: gpd.GeoDataFrame(c, geometry=gpd.points_from_xy(c.x, c.y), crs=M))])
case("en017", lambda: A(float(ST.temp_c.max())), [num()], [lambda: A(float(ST.temp_c.mean().round(1)))])
case("en018", lambda: xy_of(FA, 26918), [vals("hof_id", "x", rel=0, abs_=0.5), vals("hof_id", "y", rel=0, abs_=0.5), n()], [lambda: xy_of(FA, 4326).assign(y=0)])
for cid, g, epsg, tol in [("en019", ST, 32618, 1.0), ("en020", SC, 4326, 1e-5), ("en021", FA, 2260, 3.0), ("en022", SC, 32618, 1.0),
                          ("en023", RV, 26918, 1.0), ("en024", RV, 3857, 1.0), ("en025", SP, 26918, 1.0), ("en028", SC, 4326, 1e-5),
                          ("en029", ST, 2260, 3.0), ("en119", RV, 4326, 1e-5), ("en139", SI, 32618, 1.0)]:
    wrong = [lambda g=g: g] + ([] if cid == "en023" else [lambda g=g, epsg=epsg: g.set_crs(epsg, allow_override=True)])
    case(cid, (lambda g=g, epsg=epsg: g.to_crs(epsg)), [crs(epsg), n("vector"), bounds(epsg, tol)], wrong)
case("en030", lambda: (pick(FA, FA.bio == "ja"), ".geojson"), [suffix(".geojson", "vector"), ids("hof_id", "vector")], [lambda: pick(FA, FA.bio == "ja"), lambda: (pick(FA, FA.bio != "ja"), ".geojson")])
case("en031", lambda: (RV, ".shp"), [suffix(".shp", "vector"), n("vector")], [lambda: RV, lambda: (RV.head(3), ".shp")])
case("en032", lambda: (pick(ST, ST.ph < 6.5), "ph_low.gpkg"), [suffix("ph_low.gpkg", "vector"), ids("station_id", "vector")], [lambda: (pick(ST, ST.ph <= 6.5), "ph_low.gpkg"), lambda: pick(ST, ST.ph < 6.5)])
case("en033", lambda: (SC, ".csv"), [suffix(".csv"), n(), ids("sc_code")], [lambda: SC])
case("en034", lambda: (pick(RV, m(RV).length > 8000), "long_rivers.geojson"), [suffix("long_rivers.geojson", "vector"), ids("river_id", "vector")],
     [lambda: (pick(RV, m(RV).length > 8000), "long_rivers.gpkg"), lambda: (pick(RV, m(RV).length > 8000 * FT), "long_rivers.geojson")])
case("en035", lambda: (gpd.GeoDataFrame(SC.drop(columns="geometry"), geometry=m(SC).centroid, crs=M), ".gpkg"), [suffix(".gpkg", "vector"), n("vector"), geomtype("Point")], [lambda: (m(SC), ".gpkg"), lambda: (gpd.GeoDataFrame(SC.drop(columns="geometry"), geometry=m(SC).centroid, crs=M), ".geojson")])
case("en036", lambda: (buf(FA, 250), "farm_buffers.shp"), [suffix("farm_buffers.shp", "vector"), n("vector"), area(0.025)], [lambda: (buf(FA, 250 * FT), "farm_buffers.shp"), lambda: buf(FA, 250)])
case("en037", lambda: (pick(ST, ST.status == "inactive"), ".csv"), [suffix(".csv"), ids("station_id")], [lambda: (pick(ST, ST.status == "active"), ".csv"), lambda: pick(ST, ST.status == "inactive")])
case("en038", lambda: (SP, ".gpkg"), [suffix(".gpkg", "vector"), n("vector"), crs(4326)], [lambda: (SP, ".csv")])
case("en039", lambda: (SI, "sites_2025.shp"), [suffix("sites_2025.shp", "vector"), n("vector"), ids("site_id", "vector")], [lambda: (SI, ".shp")])
case("en040", lambda: count_in(SC, FA, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(int(within_any(FA, SC).shape[0])), lambda: count_in(SC, ST, "sc_code")])
case("en041", lambda: count_in(SC, ST, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(40), lambda: count_in(SC, FA, "sc_code")])
case("en042", lambda: grp(FA, "betriebsart", "flaeche_ha", "sum"), [vals("betriebsart"), n()], [lambda: A(float(FA.flaeche_ha.sum())), lambda: grp(FA, "betriebsart", "flaeche_ha", "mean")])
case("en043", lambda: grp(ST, "agency", "nitrate_mg_l", "mean"), [vals("agency", rel=2e-3), n()], [lambda: grp(ST.fillna({"nitrate_mg_l": 0}), "agency", "nitrate_mg_l", "mean"), lambda: grp(ST, "agency", "nitrate_mg_l", "sum")])
case("en044", lambda: A(int(len(within_any(ST, SC)))), [num()], [lambda: A(len(ST)), lambda: count_in(SC, ST, "sc_code")])


def len_per_sc():
    out = SC.copy()
    r = m(RV)
    out["v"] = [r.intersection(g).length.sum() / 1000 for g in m(SC).geometry]
    return out


case("en045", lambda: A(round(float(m(RV).length.sum() / 1000), 3)), [num(rel=0.005)], [lambda: A(round(float(m(RV).length.sum()), 1)), lambda: length_col(RV, 1e-3)])
case("en046", len_per_sc, [vals("sc_code", rel=0.01), n()], [lambda: len_per_sc().assign(v=lambda d: d.v * 1000), lambda: A(round(float(m(RV).length.sum() / 1000), 3))])
case("en047", lambda: grp(FA, "betriebsart", "gve", "sum"), [vals("betriebsart"), n()], [lambda: grp(FA, "betriebsart", "gve", "mean"), lambda: grp(FA, "betriebsart", "flaeche_ha", "sum")])
case("en048", lambda: grp(ST, "agency", "nitrate_mg_l", "max"), [vals("agency"), n()], [lambda: grp(ST, "agency", "nitrate_mg_l", "mean"), lambda: A(50.0)])
case("en049", lambda: grp(ST, "status", "station_id", "count"), [vals("status"), n()], [lambda: A(len(ST))])
case("en050", lambda: center(FA), [n("vector"), xs(20.0)], [lambda: gpd.GeoDataFrame(FA.drop(columns="geometry"), geometry=m(FA).geometry, crs=M), lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[m(FA).union_all().envelope.centroid], crs=M)])
case("en051", lambda: buf(ST, 100), [n("vector"), area(0.025)], [lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[buf(ST, 100).union_all()], crs=M), lambda: buf(ST, 100 * FT)])
case("en052", lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[buf(ST, 100).union_all()], crs=M), [n("vector"), area(0.025)], [lambda: buf(ST, 100)])


def sc_with_site():
    a = pick(SC, m(SC).intersects(m(SI).union_all()))
    b = pick(SC, [any(g.contains(s) for s in m(SI).geometry) for g in m(SC).geometry])
    assert list(a.sc_code) == list(b.sc_code)
    return a


ru = lambda: m(RV).union_all()  # noqa: E731
case("en053", sc_with_site, [ids("sc_code"), n()], [lambda: SI, lambda: SC])
case("en054", lambda: pick(SI, m(SI).intersects(ru())), [ids("site_id"), n()], [lambda: pick(RV, m(RV).intersects(m(SI).union_all())), lambda: pick(SI, ~m(SI).intersects(ru()))])
case("en055", lambda: pick(RV, m(RV).intersects(m(SI).union_all())), [ids("river_id"), n()], [lambda: pick(SI, m(SI).intersects(ru())), lambda: RV])
case("en056", lambda: clip_to(RV, SC), [ids("river_id", "vector"), length(0.005)], [lambda: RV, lambda: clip_to(SC, buf(RV, 5))])
case("en057", lambda: clip_to(SC, SI), [ids("sc_code", "vector"), area(0.01)], [lambda: clip_to(SI, SC), lambda: SC])
case("en058", lambda: join_sc(FA, ("sc_code", "name")).rename(columns={"name": "sc_name"}), [lambda r: {"output": "any_table", "expect": "len(out)", "equals": str(len(FA))},
     lambda r: {"output": "any_table", "expect": "sorted((str(a), str(b)) for a, b in zip(out['hof_id'], out[[c for c in out.columns if c not in ('betriebsname',) and out[c].astype(str).str.contains('Mill Creek|Otter Kill|Birch Brook|Stony Clove|Alder Run|Cold Spring').any()][0]]) if b == b and b is not None)",
                "equals": repr(sorted((str(a), str(b)) for a, b in zip(join_sc(FA, ("sc_code", "name")).hof_id, join_sc(FA, ("sc_code", "name"))["name"]) if pd.notna(b)))}],
     [lambda: join_sc(FA, ("sc_code", "name")).rename(columns={"name": "sc_name"}).dropna(subset=["sc_name"]).assign(sc_name=lambda d: d.sc_name.sample(frac=1, random_state=1).values)])
case("en059", lambda: nearest(ST, RV, "river_id"), [pairs("station_id", "river_id"), n()], [lambda: nearest(ST, RV, "river_id").assign(river_id=ST.river_ref.values)])
case("en060", lambda: within_any(ST, SC), [ids("station_id"), n()], [lambda: SC, lambda: ST])
case("en061", lambda: gpd.overlay(m(SC), m(SI), how="difference"), [ids("sc_code", "vector"), area(0.005)], [lambda: SC, lambda: gpd.overlay(m(SI), m(SC), how="difference")])
case("en062", lambda: pick(RV, m(RV).intersects(m(SC[SC.sc_code == "SC-06"]).union_all())), [ids("river_id"), n()], [lambda: pick(SC, SC.sc_code == "SC-06"), lambda: pick(RV, m(RV).within(m(SC[SC.sc_code == "SC-06"]).union_all()))])
case("en063", lambda: pick(SC, m(SC).intersects(m(RV[RV.name == "Alder Run"]).union_all())), [ids("sc_code"), n()], [lambda: pick(RV, RV.name == "Alder Run"), lambda: SC])
case("en064", lambda: join_sc(SP, ("sc_code", "name")), [pairs("report_id", "sc_code"), geomtype("Point")], [lambda: join_sc(SP, ("sc_code", "name")).assign(sc_code=lambda d: d.sc_code.shift(1)),
                                                                                                           lambda: gpd.sjoin(m(SC), m(SP)[["report_id", "geometry"]], predicate="contains").drop(columns="index_right")])
case("en065", lambda: pick(ST, ST.agency != "DEC"), [ids("station_id"), n()], [lambda: pick(ST, ST.agency == "DEC")])
case("en066", lambda: pick(FA, FA.betriebsart != "Milchvieh"), [ids("hof_id"), n()], [lambda: pick(FA, FA.betriebsart == "Milchvieh")])
case("en067", lambda: pick(RV, RV.name != "Mill Creek"), [ids("river_id"), n()], [lambda: pick(RV, RV.name == "Mill Creek")])
case("en068", lambda: pick(SC, SC.protected != "yes"), [ids("sc_code"), n()], [lambda: pick(SC, SC.protected == "yes")])
case("en069", lambda: pick(ST, ~m(ST).within(m(SC).union_all())), [ids("station_id"), n()], [lambda: within_any(ST, SC)])
case("en070", lambda: pick(FA, ~m(FA).within(m(SC).union_all())), [ids("hof_id"), n()], [lambda: within_any(FA, SC)])
case("en071", lambda: pick(SI, ~m(SI).intersects(ru())), [ids("site_id"), n()], [lambda: pick(SI, m(SI).intersects(ru()))])
case("en072", lambda: pick(SP, SP.substance != "manure"), [ids("report_id"), n()], [lambda: pick(SP, SP.substance == "manure")])
case("en073", lambda: pick(ST, ST.ph >= 6.5), [ids("station_id"), n()], [lambda: pick(ST, ST.ph > 6.5), lambda: pick(ST, ST.ph < 6.5)])
case("en074", lambda: pick(ST, (ST.status == "active") & (ST.agency != "University")), [ids("station_id"), n()], [lambda: pick(ST, ST.status == "active"), lambda: pick(ST, (ST.status == "active") & (ST.agency == "University"))])
case("en075", lambda: pick(FA, FA.gve.isna()), [ids("hof_id"), n()], [lambda: pick(FA, FA.gve.notna()), lambda: pick(FA, FA.gve.fillna(0) == 0)])
dfa = lambda: dist_to(FA, RV)  # noqa: E731
case("en076", lambda: pick(FA, dfa() <= 500), [ids("hof_id"), n()], [lambda: pick(FA, dfa() <= 500 * FT), lambda: pick(FA, dfa() > 500)])
case("en077", lambda: pick(FA, dfa() <= 500 * FT), [ids("hof_id"), n()], [lambda: pick(FA, dfa() <= 500)])
case("en078", lambda: pick(ST, nitr >= 10), [ids("station_id"), n()], [lambda: pick(ST, nitr > 10)])
case("en079", lambda: pick(FA, FA.flaeche_ha > 50), [ids("hof_id"), n()], [lambda: pick(FA, FA.flaeche_ha >= 50)])
case("en080", lambda: pick(FA, FA.flaeche_ha >= 50), [ids("hof_id"), n()], [lambda: pick(FA, FA.flaeche_ha > 50)])
case("en081", lambda: pick(FA, FA.flaeche_ha > 100 * ACRE_HA), [ids("hof_id"), n()], [lambda: pick(FA, FA.flaeche_ha > 100)])
case("en082", lambda: buf(ST, 250), [n("vector"), area(0.025)], [lambda: buf(ST, 0.25 * 1000 * FT), lambda: buf(ST, 25)])
case("en083", lambda: buf(FA, 300 * FT), [n("vector"), area(0.025)], [lambda: buf(FA, 300)])
case("en084", lambda: pick(SC, m(SC).area > 35e6), [ids("sc_code"), n()], [lambda: pick(SC, m(SC).area > 35e6 * FT**2), lambda: pick(SC, m(SC).area <= 35e6)])
case("en085", lambda: pick(RV, m(RV).length > 8000), [ids("river_id"), n()], [lambda: pick(RV, m(RV).length > 8000 * FT), lambda: pick(RV, m(RV).length > 8 * 1609.344)])
case("en086", lambda: pick(ST, dist_to(ST, RV) <= 50), [ids("station_id"), n()], [lambda: pick(ST, dist_to(ST, RV) <= 50 * FT)])
case("en087", lambda: pick(SC, SC["forest pct"] >= 60), [ids("sc_code"), n()], [lambda: pick(SC, SC["forest pct"] > 60), lambda: pick(SC, SC["forest pct"] < 60)])
case("en088", lambda: pick(RV, RV.width_m > 10), [ids("river_id"), n()], [lambda: pick(RV, RV.width_m.fillna(0) <= 10)])
case("en089", lambda: pick(FA, FA.gve >= 150), [ids("hof_id"), n()], [lambda: pick(FA, FA.gve > 150), lambda: pick(FA, FA.gve.fillna(0) < 150)])
case("en090", lambda: pick(FA, dfa() > 2000), [ids("hof_id"), n()], [lambda: pick(FA, dfa() <= 2000), lambda: pick(FA, dfa() > 2000 * FT)])
case("en104", lambda: count_in(pick(SC, SC.protected == "yes"), FA, "sc_code"), [vals("sc_code", "n"), n()], [lambda: count_in(SC, FA, "sc_code"), lambda: A(int(count_in(pick(SC, SC.protected == "yes"), FA, "sc_code").n.sum()))])
mill = lambda: RV[RV.name == "Mill Creek"]  # noqa: E731
case("en105", lambda: pick(ST, dist_to(ST, mill()) <= 200), [ids("station_id"), n()], [lambda: pick(ST, dist_to(ST, RV) <= 200), lambda: pick(ST, dist_to(ST, mill()) <= 200 * FT)])
case("en106", lambda: (pick(FA, dist_to(FA, RV[RV.name == "Otter Kill"]) <= 2500), ".geojson"), [suffix(".geojson", "vector"), ids("hof_id", "vector")],
     [lambda: (pick(FA, dfa() <= 2500), ".geojson"), lambda: pick(FA, dist_to(FA, RV[RV.name == "Otter Kill"]) <= 2500), lambda: (pick(FA, dist_to(FA, RV[RV.name == "Otter Kill"]) <= 2500 * FT), ".geojson")])
case("en107", lambda: A(round(float(m(RV).intersection(m(SC[SC.sc_code == "SC-03"]).union_all()).length.sum() / 1000), 3)), [num(rel=0.01)],
     [lambda: A(round(float(m(RV[RV.name == "Birch Brook"]).length.sum() / 1000), 3)), lambda: A(round(float(m(RV).intersection(m(SC[SC.sc_code == "SC-03"]).union_all()).length.sum()), 1))])
case("en108", lambda: xy_of(ST, 32618).to_crs(32618), [crs(32618), vals("station_id", "x", rel=0, abs_=1.0), vals("station_id", "y", rel=0, abs_=1.0)], [lambda: xy_of(ST, 4326).to_crs(32618), lambda: xy_of(ST, 32618)])
case("en109", lambda: pick(ST, (nitr > 10) & m(ST).within(m(SC[SC.sc_code == "SC-05"]).union_all())), [ids("station_id"), n()],
     [lambda: pick(ST, nitr > 10), lambda: pick(ST, m(ST).within(m(SC[SC.sc_code == "SC-05"]).union_all()))])
case("en110", lambda: m(SC).dissolve("protected", as_index=False).pipe(lambda d: d.assign(v=d.area / 1e6)), [vals("protected", rel=0.005), n()],
     [lambda: m(SC).dissolve("protected", as_index=False).pipe(lambda d: d.assign(v=d.area)), lambda: area_col(SC, 1e-6, "sc_code")])
milk = lambda: FA[FA.betriebsart == "Milchvieh"]  # noqa: E731
case("en111", lambda: count_in(buf(milk(), 3000), ST, "hof_id"), [vals("hof_id", "n"), n()],
     [lambda: count_in(buf(FA, 3000), ST, "hof_id"), lambda: count_in(buf(milk(), 3000 * FT), ST, "hof_id"), lambda: A(int(within_any(ST, buf(milk(), 3000)).shape[0]))])
case("en117", lambda: pick(ST, nitr > 10), [ids("station_id"), n()], [lambda: pick(ST, nitr >= 10)])
case("en118", lambda: count_in(SC, FA, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(int(within_any(FA, SC).shape[0]))])
case("en120", lambda: buf(FA, 100), [n("vector"), area(0.025)], [lambda: buf(FA, 100 * FT)])
case("en121", lambda: pick(SC, SC["forest pct"] > 70), [ids("sc_code"), n()], [lambda: pick(SC, SC["forest pct"] <= 70)])
case("en122", lambda: length_col(RV, 1e-3), [vals("river_id", rel=0.005), n()], [lambda: length_col(RV, 1.0)])
budget = lambda: SC.merge(BU, left_on="sc_code", right_on="code", how="left")  # noqa: E731
case("en123", budget, [vals("sc_code", "budget_usd"), n()], [lambda: SC.assign(budget_usd=BU.budget_usd.values)])
case("en124", budget, [vals("sc_code", "budget_usd"), n()], [lambda: SC.assign(budget_usd=BU.budget_usd.values)])
labj = lambda: ST.merge(LB, left_on="station_id", right_on="station", how="left")  # noqa: E731
case("en125", labj, [pairs("station_id", "lab_no")], [lambda: ST.assign(lab_no=list(LB.lab_no) + [None] * (len(ST) - len(LB)))])
case("en126", lambda: A(BU.sort_values("budget_usd").code.iloc[-1]), [text()], [lambda: A(BU.sort_values("budget_usd").code.iloc[0])])
july = lambda: ST.merge(MM[MM.month == "2025-07"][["station_id", "nitrate"]], on="station_id", how="left")  # noqa: E731
case("en128", july, [pairs("station_id", "nitrate"), n()], [lambda: ST.merge(MM.groupby("station_id", as_index=False).nitrate.mean(), on="station_id", how="left"),
                                                             lambda: ST.merge(MM[MM.month == "2025-06"][["station_id", "nitrate"]], on="station_id", how="left")])
case("en129", lambda: grp(MM, "station_id", "phosphate", "mean"), [vals("station_id", rel=2e-3), n()], [lambda: grp(MM, "station_id", "phosphate", "sum"), lambda: A(float(MM.phosphate.mean()))])
case("en131", lambda: budget()[budget().budget_usd > 200000], [ids("sc_code"), n()], [lambda: budget()[budget().budget_usd >= 200000 - 1e9], lambda: budget()[budget().budget_usd <= 200000]])
case("en132", lambda: grp(MM, "month", "nitrate", "mean"), [vals("month", rel=2e-3), n()], [lambda: grp(MM, "month", "nitrate", "max"), lambda: A(float(MM.nitrate.mean()))])
case("en134", labj, [pairs("station_id", "lab_no")], [lambda: ST.assign(lab_no=list(LB.lab_no) + [None] * (len(ST) - len(LB)))])
case("en135", lambda: A(LB.set_index("station").labor["WQ05"]), [text()], [lambda: A("Catskill Analytics" if LB.set_index("station").labor["WQ05"] == "Hudson Labs" else "Hudson Labs")])
case("en136", lambda: area_col(SI, 1e-4, "site_id"), [vals("site_id", rel=0.005), n()], [lambda: area_col(SI, 1e-6, "site_id"), lambda: SI.assign(v=SI.area * 1e4)])
case("en137", lambda: count_in(SC, SP, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(int(within_any(SP, SC).shape[0])), lambda: count_in(SC, SI, "sc_code")])
case("en138", lambda: pick(SP, dist_to(SP, RV) <= 100), [ids("report_id"), n()], [lambda: pick(SP, dist_to(SP, RV) <= 100 * FT), lambda: pick(SP, dist_to(SP, RV) > 100)])
case("en140", lambda: A(int(SI[SI.measure == "wetland"].cost_usd.sum())), [num()], [lambda: A(int(SI.cost_usd.sum()))])
case("en141", lambda: nearest(SP, RV, "name"), [pairs("report_id", "name"), n()], [lambda: nearest(SP, RV, "name").assign(name=lambda d: d.name.shift(1))])
case("en142", lambda: buf(SP, 200), [n("vector"), area(0.025)], [lambda: buf(SP, 200 * FT)])
case("en143", lambda: A(int((SP.substance == "diesel").sum())), [num()], [lambda: A(len(SP))])
case("en144", lambda: pick(SP, SP.volume_l > 1000), [ids("report_id"), n()], [lambda: pick(SP, SP.volume_l.fillna(0) <= 1000), lambda: pick(SP, SP.volume_l >= 100)])
case("en145", lambda: pick(SI, m(SI).intersects(m(SC[SC.name == "Stony Clove"]).union_all())), [ids("site_id"), n()], [lambda: pick(SC, SC.name == "Stony Clove"), lambda: SI])
# ---- German
case("de001", lambda: pick(ST, ST.ph < 6.5), [ids("station_id"), n()], [lambda: pick(ST, ST.ph <= 6.5), lambda: pick(ST, ST.ph < 65)])
case("de002", lambda: pick(FA, FA.bio == "ja"), [ids("hof_id"), n()], [lambda: pick(FA, FA.bio == "nein")])
case("de003", lambda: A(int((RV.gewaesserguete == "I").sum())), [num()], [lambda: A(int(RV.gewaesserguete.isin(["I", "II"]).sum()))])
case("de004", lambda: gpd.GeoDataFrame(SC.drop(columns="geometry"), geometry=m(SC).centroid, crs=M), [n(), geomtype("Point"), xs(5.0)], [lambda: center(SC)])
case("de005", lambda: A(round(float(ST.temp_c.mean()), 3)), [num(abs_=0.05)], [lambda: A(float(ST.temp_c.median()))])
case("de006", lambda: RV.dissolve("name", as_index=False), [ids("name"), n()], [lambda: RV])
case("de007", lambda: length_col(RV, 1.0), [vals("river_id", rel=0.005), n()], [lambda: length_col(RV, 1e-3), lambda: length_col(RV, 1 / FT)])
for cid, g, epsg, tol in [("de008", FA, 4326, 1e-5), ("de009", SC, 4326, 1e-5), ("de010", RV, 3857, 1.0)]:
    case(cid, (lambda g=g, epsg=epsg: g.to_crs(epsg)), [crs(epsg), n("vector"), bounds(epsg, tol)],
         [lambda g=g: g, lambda g=g, epsg=epsg: g.set_crs(epsg, allow_override=True)])
case("de013", lambda: (pick(RV, RV["class"] == "tributary"), ".gpkg"), [suffix(".gpkg", "vector"), ids("river_id", "vector")], [lambda: (RV, ".gpkg"), lambda: (pick(RV, RV["class"] == "tributary"), ".shp")])
case("de014", lambda: (pick(ST, nitr > 15), ".csv"), [suffix(".csv"), ids("station_id")], [lambda: (pick(ST, nitr >= 1.5), ".csv"), lambda: pick(ST, nitr > 15)])
case("de015", lambda: (SC, "teilgebiete.geojson"), [suffix("teilgebiete.geojson", "vector"), n("vector")], [lambda: (SC, ".geojson")])
case("de016", lambda: (buf(ST, 150), ".shp"), [suffix(".shp", "vector"), n("vector"), area(0.025)], [lambda: buf(ST, 150), lambda: (buf(ST, 150 * FT), ".shp")])
case("de017", lambda: grp(FA, "betriebsart", "hof_id", "count"), [vals("betriebsart"), n()], [lambda: A(len(FA)), lambda: grp(FA, "betriebsart", "flaeche_ha", "sum")])
case("de018", lambda: A(round(float(FA.flaeche_ha.sum()), 1)), [num(rel=1e-4)], [lambda: grp(FA, "betriebsart", "flaeche_ha", "sum")])
case("de019", lambda: count_in(SC, ST, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(40)])
case("de020", lambda: grp(FA, "betriebsart", "flaeche_ha", "mean"), [vals("betriebsart", rel=2e-3), n()], [lambda: grp(FA, "betriebsart", "flaeche_ha", "sum"), lambda: A(float(FA.flaeche_ha.mean()))])
case("de021", lambda: A(int(FA.gve.sum())), [num()], [lambda: grp(FA, "betriebsart", "gve", "sum"), lambda: A(float(FA.gve.mean()))])
case("de022", lambda: pick(SC, m(SC).intersects(m(RV[RV.name == "Otter Kill"]).union_all())), [ids("sc_code"), n()], [lambda: pick(RV, RV.name == "Otter Kill")])
case("de023", lambda: pick(RV, m(RV).intersects(m(SC[SC.name == "Cold Spring"]).union_all())), [ids("river_id"), n()], [lambda: pick(SC, SC.name == "Cold Spring"), lambda: RV])
case("de024", lambda: gpd.overlay(m(SI), m(SC), how="intersection"), [n("vector"), area(0.01), ids("site_id", "vector")], [lambda: m(SC), lambda: gpd.overlay(m(SC), m(SI), how="difference")])
case("de025", lambda: join_sc(FA), [pairs("hof_id", "sc_code"), n()], [lambda: within_any(FA, SC), lambda: join_sc(FA).assign(sc_code=lambda d: d.sc_code.shift(1))])
case("de026", lambda: pick(FA, FA.betriebsart != "Pferdehaltung"), [ids("hof_id"), n()], [lambda: pick(FA, FA.betriebsart == "Pferdehaltung")])
case("de027", lambda: pick(ST, ST.status != "active"), [ids("station_id"), n()], [lambda: pick(ST, ST.status == "active")])
case("de028", lambda: pick(FA, ~m(FA).within(m(SC).union_all())), [ids("hof_id"), n()], [lambda: within_any(FA, SC)])
case("de029", lambda: pick(RV, RV.width_m.isna()), [ids("river_id"), n()], [lambda: pick(RV, RV.width_m.notna())])
case("de030", lambda: pick(FA, dfa() <= 500), [ids("hof_id"), n()], [lambda: pick(FA, dfa() <= 5000), lambda: pick(FA, dfa() <= 50)])
case("de031", lambda: pick(FA, FA.flaeche_ha >= 100), [ids("hof_id"), n()], [lambda: pick(FA, FA.flaeche_ha > 100)])
case("de032", lambda: pick(SC, SC.einwohner > 3000), [ids("sc_code"), n()], [lambda: pick(SC, SC.einwohner.fillna(0) <= 3000)])
case("de033", lambda: pick(ST, nitr <= 5), [ids("station_id"), n()], [lambda: pick(ST, nitr < 5), lambda: pick(ST, nitr > 5)])
case("de034", lambda: buf(SI, 1000), [n("vector"), area(0.02)], [lambda: buf(SI, 1000 * FT), lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[buf(SI, 1000).union_all()], crs=M)])
case("de042", lambda: count_in(buf(pick(ST, nitr > 10), 1500), FA, "station_id"), [vals("station_id", "n"), n()],
     [lambda: count_in(buf(pick(ST, nitr >= 10), 1500), FA, "station_id"), lambda: count_in(buf(ST, 1500), FA, "station_id"), lambda: count_in(buf(pick(ST, nitr > 10), 15), FA, "station_id")])
case("de043", lambda: (clip_to(RV, SC[SC.name == "Alder Run"]), ".geojson"), [suffix(".geojson", "vector"), ids("river_id", "vector"), length(0.005)],
     [lambda: (pick(RV, RV.name == "Alder Run"), ".geojson"), lambda: clip_to(RV, SC[SC.name == "Alder Run"])])
case("de044", lambda: pick(FA, (FA.betriebsart == "Obst").values & m(FA).within(m(SC[SC.name == "Stony Clove"]).union_all()).values), [ids("hof_id"), n()],
     [lambda: pick(FA, m(FA).within(m(SC[SC.name == "Stony Clove"]).union_all())), lambda: pick(FA, FA.betriebsart == "Obst")])
case("de047", lambda: pick(ST, nitr > 20), [ids("station_id"), n()], [lambda: pick(ST, nitr >= 2.0)])
case("de048", lambda: area_col(SC, 1e-6, "sc_code"), [vals("sc_code", rel=0.005), n()], [lambda: area_col(SC, 1e-6 * FT**2, "sc_code"), lambda: area_col(SC, 1e-4, "sc_code")])
case("de049", budget, [vals("sc_code", "budget_usd"), n()], [lambda: SC.assign(budget_usd=BU.budget_usd.values)])
case("de050", lambda: labj()[labj().atrazin_ug_l > 0.05], [ids("station_id"), n()], [lambda: labj()[labj().atrazin_ug_l <= 0.05], lambda: labj()[labj().atrazin_ug_l > 0.005]])
case("de051", lambda: grp(MM, "station_id", "e_coli", "max"), [vals("station_id"), n()], [lambda: grp(MM, "station_id", "e_coli", "mean"), lambda: A(float(MM.e_coli.max()))])
case("de053", lambda: A(int(BU.budget_usd.sum())), [num()], [lambda: A(float(BU.budget_usd.mean()))])
case("de054", lambda: area_col(SI, 1.0, "site_id"), [vals("site_id", rel=0.005), n()], [lambda: area_col(SI, 1e-4, "site_id"), lambda: SI.assign(v=SI.area)])
case("de055", lambda: pick(SP, (SP.substance == "manure").values & m(SP).within(m(SC[SC.name == "Lower Mill Creek"]).union_all()).values), [ids("report_id"), n()],
     [lambda: pick(SP, SP.substance == "manure"), lambda: pick(SP, m(SP).within(m(SC[SC.name == "Lower Mill Creek"]).union_all()))])
case("de056", lambda: pick(SI, dist_to(SI, RV) > 300), [ids("site_id"), n()], [lambda: pick(SI, dist_to(SI, RV) <= 300), lambda: pick(SI, dist_to(SI, RV) > 300 * FT)])
case("de057", lambda: pick(SP, SP.volume_l.isna()), [ids("report_id"), n()], [lambda: pick(SP, SP.volume_l.notna())])
# ---- Chinese
case("zh001", lambda: pick(ST, nitr > 15), [ids("station_id"), n()], [lambda: pick(ST, nitr < 15)])
case("zh002", lambda: pick(SC, SC.protected == "yes"), [ids("sc_code"), n()], [lambda: pick(SC, SC.protected != "yes")])
case("zh003", lambda: A(len(FA)), [num()], [lambda: A(len(FA) - 1)])
case("zh004", lambda: area_col(SC, 1e-6, "sc_code"), [vals("sc_code", rel=0.005), n()], [lambda: area_col(SC, 1e-6 * FT**2, "sc_code"), lambda: area_col(SC, 1.0, "sc_code")])
case("zh005", lambda: A(float(ST.ph.min())), [num()], [lambda: A(float(ST.ph.max()))])
case("zh006", lambda: ST.sort_values("temp_c", kind="stable"), [lambda r: {"output": "any_table", "expect": "[float(v) for v in out['temp_c']][:8]", "equals": repr([float(v) for v in r.temp_c][:8])}, n()],
     [lambda: ST.sort_values("temp_c", ascending=False)])
case("zh007", lambda: gpd.GeoDataFrame({"id": [1]}, geometry=[m(RV).union_all().convex_hull], crs=M), [n("vector"), area(0.01)],
     [lambda: gpd.GeoDataFrame(RV.drop(columns="geometry"), geometry=m(RV).convex_hull, crs=M)])
for cid, g, epsg, tol in [("zh008", SC, 32618, 1.0), ("zh009", ST, 26918, 1.0), ("zh010", RV, 4326, 1e-5)]:
    case(cid, (lambda g=g, epsg=epsg: g.to_crs(epsg)), [crs(epsg), n("vector"), bounds(epsg, tol)],
         [lambda g=g: g] + ([] if cid == "zh009" else [lambda g=g, epsg=epsg: g.set_crs(epsg, allow_override=True)]))
case("zh012", lambda: (RV, ".geojson"), [suffix(".geojson", "vector"), n("vector")], [lambda: (RV, ".gpkg")])
case("zh013", lambda: (pick(FA, FA.bio == "ja"), ".shp"), [suffix(".shp", "vector"), ids("hof_id", "vector")], [lambda: (pick(FA, FA.bio == "ja"), ".gpkg"), lambda: (FA, ".shp")])
case("zh014", lambda: (ST.to_crs(32618), "stations_utm.gpkg"), [suffix("stations_utm.gpkg", "vector"), crs(32618), n("vector")], [lambda: (ST, "stations_utm.gpkg"), lambda: (ST.to_crs(32618), "x.gpkg")])
case("zh015", lambda: (SP, ".csv"), [suffix(".csv"), n(), ids("report_id")], [lambda: (SP, ".gpkg")])
case("zh016", lambda: count_in(SC, FA, "sc_code"), [vals("sc_code", "n"), n()], [lambda: A(int(within_any(FA, SC).shape[0]))])
case("zh017", lambda: grp(ST, "agency", "ph", "mean"), [vals("agency", rel=1e-3), n()], [lambda: A(float(ST.ph.mean())), lambda: grp(ST, "agency", "ph", "median")])
case("zh018", lambda: A(round(float(m(RV).length.sum()), 1)), [num(rel=0.005)], [lambda: A(round(float(m(RV).length.sum() / 1000), 3)), lambda: length_col(RV, 1.0)])
case("zh019", lambda: m(RV).dissolve("name", as_index=False).pipe(lambda d: d.assign(v=d.length / 1000)), [vals("name", rel=0.005), n()],
     [lambda: length_col(RV, 1e-3), lambda: m(RV).dissolve("name", as_index=False).pipe(lambda d: d.assign(v=d.length))])


def count_sites():
    j = gpd.sjoin(m(SI), m(SC)[["sc_code", "geometry"]], predicate="intersects")
    out = SC.copy()
    out["n"] = out.sc_code.map(j.groupby("sc_code").size()).fillna(0).astype(int)
    return out


case("zh020", count_sites, [vals("sc_code", "n"), n()], [lambda: A(len(SI)), lambda: count_in(SC, SP, "sc_code")])
case("zh021", lambda: pick(SC, m(SC).intersects(m(pick(ST, nitr > 20)).union_all())), [ids("sc_code"), n()],
     [lambda: pick(ST, nitr > 20), lambda: pick(SC, m(SC).intersects(m(ST).union_all()))])
case("zh022", lambda: pick(ST, m(ST).within(m(SC[SC.name == "Birch Brook"]).union_all())), [ids("station_id"), n()], [lambda: pick(SC, SC.name == "Birch Brook"), lambda: within_any(ST, SC)])
case("zh023", lambda: clip_to(SI, SC), [ids("site_id", "vector"), area(0.01)], [lambda: clip_to(SC, SI)])
case("zh024", lambda: nearest(SP, FA, "hof_id"), [pairs("report_id", "hof_id"), n()], [lambda: nearest(FA, SP, "report_id"), lambda: nearest(SP, FA, "hof_id").assign(hof_id=lambda d: d.hof_id.shift(1))])
case("zh025", lambda: pick(ST, ST.agency != "Watershed Trust"), [ids("station_id"), n()], [lambda: pick(ST, ST.agency == "Watershed Trust")])
case("zh026", lambda: pick(FA, FA.betriebsart != "Gemüse"), [ids("hof_id"), n()], [lambda: pick(FA, FA.betriebsart == "Gemüse")])
case("zh027", lambda: pick(RV, ~m(RV).intersects(m(SI).union_all())), [ids("river_id"), n()], [lambda: pick(RV, m(RV).intersects(m(SI).union_all()))])
case("zh028", lambda: pick(SC, SC.einwohner.isna()), [ids("sc_code"), n()], [lambda: pick(SC, SC.einwohner.notna())])
case("zh029", lambda: pick(FA, dfa() <= 300), [ids("hof_id"), n()], [lambda: pick(FA, dfa() <= 300 * FT), lambda: pick(FA, dfa() > 300)])
case("zh030", lambda: pick(FA, FA.flaeche_ha >= 50), [ids("hof_id"), n()], [lambda: pick(FA, FA.flaeche_ha > 50), lambda: pick(FA, FA.flaeche_ha < 50)])
case("zh031", lambda: pick(SC, SC["forest pct"] < 50), [ids("sc_code"), n()], [lambda: pick(SC, SC["forest pct"] >= 50)])
case("zh032", lambda: buf(ST, 500 * FT), [n("vector"), area(0.025)], [lambda: buf(ST, 500)])
case("zh033", lambda: pick(RV, m(RV).length > 5000), [ids("river_id"), n()], [lambda: pick(RV, m(RV).length > 5000 * FT), lambda: pick(RV, m(RV).length <= 5000)])
case("zh034", lambda: pick(ST, (ST.ph >= 6.5) & (ST.ph <= 7.5)), [ids("station_id"), n()], [lambda: pick(ST, (ST.ph > 6.5) & (ST.ph < 7.5)), lambda: pick(ST, (ST.ph < 6.5) | (ST.ph > 7.5))])
case("zh041", lambda: pick(ST, m(ST).within(m(SC[SC.protected == "yes"]).union_all())), [ids("station_id"), n()], [lambda: within_any(ST, SC), lambda: pick(SC, SC.protected == "yes")])
case("zh042", lambda: A(int((dist_to(FA, mill()) <= 1000).sum())), [num()], [lambda: A(int((dfa() <= 1000).sum())), lambda: A(int((dist_to(FA, mill()) <= 1000 * FT).sum()))])
case("zh043", lambda: (pick(ST, ST.agency == "DEC").to_crs(2260), ".gpkg"), [suffix(".gpkg", "vector"), crs(2260), ids("station_id", "vector"), bounds(2260, 3.0)],
     [lambda: (pick(ST, ST.agency == "DEC"), ".gpkg"), lambda: (pick(ST, ST.agency != "DEC").to_crs(2260), ".gpkg"), lambda: (pick(ST, ST.agency == "DEC").set_crs(2260, allow_override=True), ".gpkg")])
case("zh046", lambda: count_in(SC, FA, "sc_code"), [vals("sc_code", "n"), n()], [lambda: count_in(SC, ST, "sc_code")])
case("zh047", lambda: length_col(RV, 1e-3), [vals("river_id", rel=0.005), n()], [lambda: length_col(RV, 1.0)])
case("zh048", budget, [vals("sc_code", "budget_usd"), n()], [lambda: SC.assign(budget_usd=BU.budget_usd.values)])
case("zh049", labj, [pairs("station_id", "lab_no")], [lambda: ST.assign(lab_no=list(LB.lab_no) + [None] * (len(ST) - len(LB)))])
case("zh050", lambda: grp(MM, "month", "phosphate", "mean"), [vals("month", rel=2e-3), n()], [lambda: grp(MM, "month", "phosphate", "sum"), lambda: A(float(MM.phosphate.mean()))])
case("zh052", lambda: budget()[budget().budget_usd > 300000], [ids("sc_code"), n()], [lambda: budget()[budget().budget_usd > 30000], lambda: budget()[budget().budget_usd <= 300000]])
case("zh053", lambda: pick(SI, SI.year == 2026), [ids("site_id"), n()], [lambda: pick(SI, SI.year != 2026)])
case("zh054", lambda: grp(SP, "substance", "report_id", "count"), [vals("substance"), n()], [lambda: A(len(SP)), lambda: grp(SP, "substance", "volume_l", "sum")])
case("zh055", lambda: pick(SP, dist_to(SP, RV) <= 75), [ids("report_id"), n()], [lambda: pick(SP, dist_to(SP, RV) <= 75 * FT), lambda: pick(SP, dist_to(SP, RV) <= 750)])
case("zh056", lambda: A(round(float(m(SI).area.sum() / 1e4), 2)), [num(rel=0.005)], [lambda: A(round(float(m(SI).area.sum()), 1)), lambda: area_col(SI, 1e-4, "site_id")])


# ---------------------------------------------------------------- verification
def load_cases():
    out = {}
    for path in sorted(HERE.glob("cases_*.yaml")):
        out[path] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return out


def build_checks(cid):
    r = SPEC[cid]["ref"]()
    frame = r[0] if isinstance(r, tuple) else r
    return r, [b(frame) for b in SPEC[cid]["checks"]]


def fake_report(result, work: Path, tag: str):
    if isinstance(result, A):
        return {"status": "ok", "outputs": [], "answer": f"The result is {result.value}."}
    if isinstance(result, str):  # a wrong answer text
        return {"status": "ok", "outputs": [], "answer": result}
    if isinstance(result, tuple):  # (frame, suffix)
        result, suf = result
    else:
        suf = ".gpkg" if isinstance(result, gpd.GeoDataFrame) else ".csv"
    path = work / tag / f"out{suf}" if suf.startswith(".") else work / tag / suf
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(result, gpd.GeoDataFrame) and suf != ".csv":
        result.to_file(path, driver={".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile"}[path.suffix])
        kind = "vector"
    else:
        pd.DataFrame(result.drop(columns="geometry", errors="ignore")).to_csv(path, index=False)
        kind = "table"
    return {"status": "ok", "outputs": [{"path": str(path), "kind": kind}], "answer": "Done."}


def main(argv):
    import warnings

    warnings.filterwarnings("ignore")
    from geoclerk.bench.checkers import check_task

    write = "--write" in argv
    files = load_cases()
    problems, n_answer, n_wrong_variants, n_decline = [], 0, 0, 0
    seen = set()
    work = Path(tempfile.mkdtemp(prefix="blind6-validate-"))
    for path, cases in files.items():
        for c in cases:
            cid = c["id"]
            seen.add(cid)
            for key in ("id", "lang", "class", "request", "inputs", "expect"):
                if key not in c:
                    problems.append(f"{cid}: no {key}")
            for ref in c["inputs"]:
                pre, name = ref.split(":", 1)
                base = ROOT / "data" / "sample" if pre == "s" else D
                if not (base / name).exists():
                    problems.append(f"{cid}: input {ref} does not exist")
            if c["expect"] == "decline":
                n_decline += 1
                if c.get("checks"):
                    problems.append(f"{cid}: decline case with checks")
                if cid in SPEC:
                    problems.append(f"{cid}: decline case has a reference")
                continue
            n_answer += 1
            if cid not in SPEC:
                problems.append(f"{cid}: no reference in SPEC")
                continue
            try:
                ref, checks = build_checks(cid)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{cid}: reference failed: {type(exc).__name__}: {exc}")
                continue
            if write:
                c["checks"] = checks
            elif c.get("checks") != checks:
                problems.append(f"{cid}: checks in YAML differ from the recomputed ones")
            report = fake_report(ref, work, cid)
            verdict = check_task({"checks": checks}, report, {})
            if not verdict.passed:
                problems.append(f"{cid}: reference result fails its own checks: {verdict.failures[:2]}")
            for i, wrong in enumerate(SPEC[cid]["wrong"]):
                n_wrong_variants += 1
                try:
                    rep = fake_report(wrong(), work, f"{cid}_w{i}")
                except Exception as exc:  # noqa: BLE001
                    problems.append(f"{cid}: misreading #{i} failed to build: {type(exc).__name__}: {exc}")
                    continue
                if check_task({"checks": checks}, rep, {}).passed:
                    problems.append(f"{cid}: misreading #{i} passes the checks")
            if not SPEC[cid]["wrong"]:
                problems.append(f"{cid}: no misreading tested")
        if write:
            path.write_text(yaml.safe_dump(cases, allow_unicode=True, sort_keys=False, width=4096), encoding="utf-8")
    for cid in SPEC:
        if cid not in seen:
            problems.append(f"{cid}: reference without a case")
    print(f"answer cases {n_answer}, decline cases {n_decline}, misreadings tested {n_wrong_variants}")
    for p in problems:
        print("PROBLEM", p)
    print("OK" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
