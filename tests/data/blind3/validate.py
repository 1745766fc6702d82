"""Validate blind set 3: schema, every check expression evaluates on the inputs, and for many
answer cases a hand-built correct result passes while a plausible wrong one fails.

    /work/main/.venv/bin/python tests/data/blind3/validate.py
"""
import math
import re
import sys
import warnings
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml

warnings.filterwarnings("ignore")
HERE = Path(__file__).resolve().parent
SAMPLE = HERE.parents[2] / "data" / "sample"
BLIND = HERE / "data"
CLASSES = {"plain", "crs_roles", "output_clause", "each_per", "roles", "negation", "numbers",
           "not_loaded", "missing_field", "chain", "open_ended", "typo"}


def utm(gdf):
    g = gdf if gdf.crs.is_geographic else gdf.to_crs(4326)
    return gdf.to_crs(g.estimate_utm_crs())


def equal_area(gdf):
    return gdf.to_crs(6933)


_cache = {}


def load(spec):
    if spec not in _cache:
        pre, name = spec.split(":", 1)
        path = (SAMPLE if pre == "s" else BLIND) / name
        _cache[spec] = str(path) if name.endswith(".tif") else gpd.read_file(path)
    return _cache[spec]


def namespace(case):
    ns = {"gpd": gpd, "pd": pd, "np": np, "math": math, "shapely": shapely, "utm": utm,
          "equal_area": equal_area}
    for spec in case.get("inputs", []):
        ns[Path(spec.split(":", 1)[1]).stem] = load(spec).copy() if not isinstance(load(spec), str) else load(spec)
    return ns


def close(a, b, chk):
    if "rel" in chk or "abs" in chk:
        a, b = float(a), float(b)
        tol = max(chk.get("abs", 0), chk.get("rel", 0) * abs(b))
        return abs(a - b) <= tol + 1e-12
    return a == b


def run_checks(case, out=None, path=None, answer="", only_eval=False):
    """Return list of (check, ok, detail)."""
    res = []
    for chk in case.get("checks", []):
        ns = namespace(case)
        ns.update(out=out, answer=answer, report={})
        try:
            if "answer_number" in chk:
                want = float(eval(chk["answer_number"], ns))
                if only_eval:
                    res.append((chk, True, want)); continue
                nums = [float(x.replace(",", "")) for x in re.findall(r"-?\d[\d,]*\.?\d*", answer)]
                ok = any(close(n, want, {**chk, "rel": chk.get("rel", 0)} if ("rel" in chk or "abs" in chk) else {"rel": 1e-9}) for n in nums)
                res.append((chk, ok, want))
            elif "answer_contains" in chk:
                want = eval(chk["answer_contains"], ns)
                res.append((chk, True if only_eval else str(want) in answer, want))
            elif "crs" in chk:
                res.append((chk, True if only_eval else out.crs.to_epsg() == int(chk["crs"]), chk["crs"]))
            elif "suffix" in chk:
                res.append((chk, True if only_eval else str(path).endswith(chk["suffix"]), chk["suffix"]))
            else:
                want = eval(chk["equals"], ns)
                if only_eval:
                    res.append((chk, True, want)); continue
                got = eval(chk["expect"], ns)
                res.append((chk, close(got, want, chk), (got, want)))
        except Exception as e:  # noqa: BLE001
            res.append((chk, False, f"{type(e).__name__}: {e}"))
    return res


# ------------------------------------------------------------------ reference results
def S(n):
    return load("s:" + n).copy()


def B(n):
    return load("b:" + n).copy()


def sjoin_count(pts, polys):
    pts = pts.to_crs(polys.crs)
    c = gpd.sjoin(pts, polys, predicate="within").groupby("index_right").size()
    return polys.assign(NUMPOINTS=c.reindex(polys.index, fill_value=0).values)


def pick(gdf, mask):
    return gdf[mask]


def ans(x):
    return ("answer", f"The result is {x:.3f}.")


def ref_cases():
    """id -> (correct, [wrong, ...]); each a callable returning (out, path) or ('answer', text)."""
    R = {}
    cafes, schools, districts, houses, roads, bus = (S("cafes.gpkg"), S("schools.gpkg"), S("districts.gpkg"),
                                                     S("houses.gpkg"), S("roads.gpkg"), S("bus_stops.gpkg"))
    countries = S("countries.geojson")
    zones, lifts, trails, fac, snow = (B("zones.gpkg"), B("lifts.gpkg"), B("trails.gpkg"), B("facilities.gpkg"),
                                       B("snow_cannons.gpkg"))
    V = lambda g, p="out.gpkg": (g, p)  # noqa: E731
    buf = lambda g, d: g.assign(geometry=utm(g).buffer(d).to_crs(g.crs).values)  # noqa: E731

    R["en-001"] = (lambda: V(buf(cafes, 250)), [lambda: V(buf(cafes, 250 * 0.3048)),
                                                  lambda: V(gpd.GeoDataFrame(geometry=[buf(cafes, 250).union_all()], crs=cafes.crs))])
    R["en-002"] = (lambda: V(districts.to_crs(4326)), [lambda: V(districts.to_crs(3857))])
    R["en-003"] = (lambda: V(bus.to_crs(3857)), [lambda: V(bus.set_crs(3857, allow_override=True))])
    R["en-004"] = (lambda: V(roads.to_crs(3857)), [lambda: V(roads.to_crs(4326))])
    R["en-005"] = (lambda: V(districts.dissolve("landuse").reset_index()), [lambda: V(districts.dissolve())])
    R["en-006"] = (lambda: V(districts.assign(geometry=districts.centroid)),
                   [lambda: V(districts.assign(geometry=districts.buffer(-300).envelope.exterior.apply(lambda r: shapely.Point(r.coords[0]))))])
    R["en-007"] = (lambda: ans(districts.area.sum() / 1e6), [lambda: ans(districts.area.sum())])
    R["en-008"] = (lambda: V(sjoin_count(houses, districts)),
                   [lambda: V(districts.assign(n=len(houses))), lambda: V(sjoin_count(districts.centroid.to_frame("geometry"), houses.assign(geometry=houses.buffer(1))))])
    near = cafes.distance(bus.union_all())
    R["en-009"] = (lambda: V(cafes[near <= 300]), [lambda: V(cafes[near > 300]), lambda: V(cafes[near <= 300 * 0.3048])])
    R["en-010"] = (lambda: V(cafes[near > 300]), [lambda: V(cafes[near <= 300])])
    d11 = cafes.distance(schools[schools["name"] == "Mühlen High School"].geometry.iloc[0]).min()
    R["en-011"] = (lambda: ans(d11), [lambda: ans(d11 / 0.3048)])
    R["en-012"] = (lambda: V(gpd.GeoDataFrame(geometry=[houses.union_all().convex_hull], crs=houses.crs)),
                   [lambda: V(gpd.GeoDataFrame(geometry=[houses.union_all().envelope], crs=houses.crs))])
    R["en-013"] = (lambda: V(gpd.GeoDataFrame(geometry=[cafes.union_all().envelope], crs=cafes.crs)),
                   [lambda: V(gpd.GeoDataFrame(geometry=[cafes.union_all().convex_hull], crs=cafes.crs))])
    R["en-014"] = (lambda: ans(schools.students.mean()), [lambda: ans(schools.students.median())])
    R["en-015"] = (lambda: V(houses.sort_values("value_eur", ascending=False)), [lambda: V(houses.sort_values("value_eur"))])
    R["en-016"] = (lambda: V(houses.nlargest(7, "value_eur")), [lambda: V(houses.nlargest(5, "value_eur")), lambda: V(houses.nsmallest(7, "value_eur"))])
    R["en-017"] = (lambda: V(schools, "schools.geojson"), [lambda: V(schools, "schools.gpkg")])
    sj = gpd.sjoin(schools, districts[["name", "geometry"]], predicate="within").drop(columns="index_right")
    R["en-018"] = (lambda: V(sj), [lambda: V(schools.assign(dist=districts["name"].iloc[0]))])
    R["en-019"] = (lambda: V(roads, "roads.shp"), [lambda: V(roads, "roads.gpkg")])
    R["en-020"] = (lambda: ("/x/map.png", "/x/map.png"), [lambda: ("/x/map.csv", "/x/map.csv")])
    gb = houses.groupby("type", as_index=False)["residents"].sum()
    R["en-021"] = (lambda: (gb, "t.csv"), [lambda: (houses.groupby("type", as_index=False)["residents"].mean(), "t.csv")])
    hulls = houses.dissolve("type").convex_hull.reset_index().rename(columns={0: "geometry"}).set_geometry("geometry", crs=houses.crs)
    R["en-022"] = (lambda: V(hulls), [lambda: V(gpd.GeoDataFrame(geometry=[houses.union_all().convex_hull], crs=houses.crs))])
    R["en-023"] = (lambda: V(buf(roads, 804.672)), [lambda: V(buf(roads, 500)), lambda: V(buf(roads, 0.5))])
    R["en-024"] = (lambda: V(schools[schools.students > 1000]), [lambda: V(schools[schools.students >= 1000 - 500])])
    R["en-025"] = (lambda: V(houses[(houses.year_built < 1950) & (houses.value_eur > 500000)]), [lambda: V(houses[(houses.year_built < 1950)])])
    R["en-030"] = (lambda: V(buf(schools, 300)), [lambda: V(buf(schools, 30))])
    R["en-031"] = (lambda: V(houses[houses["type"] != "apartment"]), [lambda: V(houses[houses["type"] == "apartment"])])
    R["en-032"] = (lambda: V(sjoin_count(cafes, districts)), [lambda: V(districts.assign(n=len(cafes)))])
    R["en-033"] = (lambda: V(cafes.to_crs(25833)), [lambda: V(cafes)])
    R["en-034"] = (lambda: V(countries.nlargest(10, "pop_est")), [lambda: V(countries.nlargest(10, "gdp_md_est"))])
    R["en-035"] = (lambda: ("answer", "There are 51 countries in Africa."), [lambda: ("answer", "There are 54 countries in Africa.")])
    R["en-036"] = (lambda: V(countries.dissolve("continent").reset_index()), [lambda: V(countries.dissolve())])
    R["en-038"] = (lambda: V(bus[bus.shelter == "no"]), [lambda: V(bus[bus.shelter == "yes"])])
    R["en-039"] = (lambda: V(districts.assign(geometry=districts.centroid), "/tmp/blind3/district_centres.gpkg"),
                   [lambda: V(districts, "/tmp/blind3/district_centres.gpkg")])
    # ski resort
    R["en-040"] = (lambda: V(buf(lifts, 50)), [lambda: V(lifts.assign(geometry=lifts.buffer(50)))])
    R["en-041"] = (lambda: V(buf(lifts, 30.48)), [lambda: V(buf(lifts, 100))])
    R["en-042"] = (lambda: V(zones.to_crs(4326)), [lambda: V(zones.to_crs(2260))])
    R["en-043"] = (lambda: V(snow.to_crs(32118)), [lambda: V(snow.set_crs(32118, allow_override=True))])
    clipped = gpd.clip(trails.to_crs(32118), zones)
    R["en-044"] = (lambda: V(clipped), [lambda: V(trails), lambda: V(gpd.clip(zones, trails.to_crs(32118).buffer(1)))])
    R["en-045"] = R["en-044"]
    R["en-046"] = (lambda: V(sjoin_count(snow, zones)), [lambda: V(zones.assign(n=len(snow)))])
    R["en-047"] = (lambda: V(zones.dissolve("zone_type").reset_index()), [lambda: V(zones.dissolve())])
    R["en-048"] = (lambda: V(zones.dissolve()), [lambda: V(zones)])
    R["en-049"] = (lambda: V(zones.assign(geometry=zones.centroid)), [lambda: V(gpd.GeoDataFrame(geometry=[zones.union_all().centroid], crs=zones.crs))])
    R["en-050"] = (lambda: V(zones.assign(area_ha=zones.area / 1e4)), [lambda: V(zones.assign(area_ha=zones.area))])
    L = utm(lifts).length
    R["en-051"] = (lambda: ans(L.sum() / 1000), [lambda: ans(lifts.length.sum() / 1000)])
    R["en-052"] = (lambda: ans(lifts[lifts.lift_name == "Notch Express"].length.sum()), [lambda: ans(L[0])])
    R["en-053"] = (lambda: V(trails[trails.difficulty == "black"]), [lambda: V(trails[trails.difficulty.str.contains("black")])])
    R["en-054"] = (lambda: V(trails[trails.difficulty != "green"]), [lambda: V(trails[trails.difficulty == "green"])])
    R["en-055"] = (lambda: V(sjoin_count(fac, zones)), [lambda: V(sjoin_count(fac, zones)[lambda d: d.NUMPOINTS > 0])])
    dt = utm(snow).distance(utm(trails).union_all())
    R["en-056"] = (lambda: V(snow[dt <= 25]), [lambda: V(snow[snow.distance(trails.union_all()) <= 25])])
    inside = snow.to_crs(32118).within(zones.union_all())
    R["en-057"] = (lambda: V(snow[~inside]), [lambda: V(snow[inside])])
    u = utm(snow)
    dmin = min(u.distance(g).drop(i).min() for i, g in u.geometry.items())
    R["en-058"] = (lambda: ans(dmin), [lambda: ans(dmin * 1e5)])
    R["en-059"] = (lambda: V(gpd.GeoDataFrame(geometry=[snow.union_all().convex_hull], crs=4326)),
                   [lambda: V(gpd.GeoDataFrame(geometry=[snow.union_all().envelope], crs=4326))])
    R["en-060"] = (lambda: V(gpd.GeoDataFrame(geometry=[lifts.union_all().envelope], crs=lifts.crs)),
                   [lambda: V(gpd.GeoDataFrame(geometry=[lifts.union_all().convex_hull], crs=lifts.crs))])
    R["en-061"] = (lambda: ans(lifts.cap_pph.mean()), [lambda: ans(lifts.cap_pph.sum())])
    R["en-062"] = (lambda: V(lifts.sort_values("Öffnungsjahr")), [lambda: V(lifts.sort_values("Öffnungsjahr", ascending=False))])
    R["en-063"] = (lambda: V(trails.loc[utm(trails).length.nlargest(3).index]),
                   [lambda: V(trails.loc[utm(trails).length.nlargest(4).index]),
                    lambda: V(trails.nlargest(3, "width_m"))])
    R["en-064"] = (lambda: V(lifts.nlargest(4, "cap_pph")), [lambda: V(lifts.nlargest(3, "cap_pph"))])
    R["en-065"] = (lambda: V(fac, "f.geojson"), [lambda: V(fac, "f.shp")])
    R["en-066"] = (lambda: V(gpd.sjoin(fac, zones[["ZoneName", "geometry"]], how="left", predicate="within").drop(columns="index_right")),
                   [lambda: V(gpd.sjoin(zones, fac[["FacName", "geometry"]], predicate="contains").drop(columns="index_right")),
                    lambda: V(fac.assign(ZoneName="Base Village"))])
    R["en-067"] = (lambda: V(buf(fac, 150), "/tmp/blind3/fac_buf.geojson"), [lambda: V(buf(fac, 150), "fac_buf.gpkg"), lambda: V(buf(fac, 45.72), "a.geojson")])
    R["en-069"] = (lambda: V(trails.dissolve("difficulty").envelope.reset_index().set_geometry(0)), [lambda: V(trails.assign(geometry=trails.envelope))])
    gm = snow.groupby("model", as_index=False)["water_lps"].mean()
    R["en-070"] = (lambda: (gm, "t.csv"), [lambda: (snow.groupby("model", as_index=False)["water_lps"].sum(), "t.csv")])
    R["en-071"] = (lambda: V(lifts[lifts.cap_pph > 2000]), [lambda: V(lifts[lifts.cap_pph >= 2000])])
    R["en-072"] = (lambda: V(lifts[lifts["Öffnungsjahr"] < 1980]), [lambda: V(lifts[lifts["Öffnungsjahr"] <= 1980 - 5])])
    R["en-073"] = (lambda: V(zones[zones.area > 1.6e6]), [lambda: V(zones[zones.area > 160])])
    R["en-080"] = (lambda: V(snow.to_crs(32118)), [lambda: V(snow)])
    dl = fac.distance(lifts.to_crs(32118).union_all())
    R["en-081"] = (lambda: V(fac[dl <= 100]), [lambda: V(fac[dl <= 30.48])])
    t18 = trails.to_crs(32118)
    nj = fac.assign(trail_id=[trails.trail_id.iloc[int(t18.distance(g).values.argmin())] for g in fac.geometry])
    R["en-082"] = (lambda: V(nj), [lambda: V(fac.assign(trail_id=[trails.trail_id.iloc[int(trails.distance(g).values.argmin())] for g in fac.to_crs(4326).geometry]))])
    R["en-084"] = (lambda: ans((trails.groomed == "Y").sum()), [lambda: ans((trails.groomed == "N").sum())])
    R["en-085"] = (lambda: V(lifts.to_crs(32118)), [lambda: V(lifts.set_crs(32118, allow_override=True))])
    R["en-086"] = (lambda: V(snow[snow.status != "broken"]), [lambda: V(snow[snow.status == "broken"])])
    R["en-088"] = (lambda: (trails.groupby("difficulty", as_index=False).size(), "t.csv"), [lambda: (trails.groupby("groomed", as_index=False).size(), "t.csv")])
    R["en-091"] = (lambda: V(fac[fac.elev_m > 1000]), [lambda: V(fac[fac.elev_m < 1000])])
    # German
    R["de-001"] = (lambda: V(buf(schools, 400)), [lambda: V(buf(schools, 40))])
    R["de-003"] = R["en-008"]
    R["de-004"] = (lambda: V(cafes[cafes.wifi == "no"]), [lambda: V(cafes[cafes.wifi == "yes"])])
    R["de-005"] = (lambda: V(cafes.nlargest(5, "seats")), [lambda: V(cafes.nlargest(5, "rating"))])
    R["de-008"] = (lambda: ans(roads.length.sum() / 1000), [lambda: ans(roads.length.sum())])
    R["de-009"] = (lambda: V(schools[schools.distance(roads.union_all()) < 200]), [lambda: V(schools[schools.distance(roads.union_all()) >= 200])])
    R["de-013"] = (lambda: V(houses[houses.residents > 4]), [lambda: V(houses[houses.residents >= 4])])
    R["de-014"] = (lambda: V(buf(trails, 30)), [lambda: V(buf(trails, 15))])
    R["de-015"] = (lambda: V(lifts.to_crs(4326)), [lambda: V(zones.to_crs(4326))])
    R["de-016"] = R["en-044"]
    R["de-017"] = R["en-046"]
    R["de-018"] = (lambda: V(lifts[lifts["Öffnungsjahr"] > 2000]), [lambda: V(lifts[lifts["Öffnungsjahr"] < 2000])])
    R["de-019"] = (lambda: V(trails[trails.difficulty != "double_black"]), [lambda: V(trails[~trails.difficulty.str.contains("black")])])
    R["de-020"] = R["en-050"]
    R["de-021"] = (lambda: V(buf(fac, 152.4)), [lambda: V(buf(fac, 500))])
    R["de-022"] = (lambda: V(gpd.GeoDataFrame(geometry=[fac.union_all().convex_hull], crs=fac.crs)), [lambda: V(fac.assign(geometry=fac.buffer(1)))])
    R["de-023"] = (lambda: ans(snow.water_lps.mean()), [lambda: ans(snow.water_lps.sum())])
    R["de-025"] = (lambda: (lifts.groupby("LiftType", as_index=False)["cap_pph"].sum(), "t.csv"),
                   [lambda: (lifts.groupby("LiftType", as_index=False)["cap_pph"].mean(), "t.csv")])
    R["de-026"] = R["en-057"]
    R["de-031"] = (lambda: V(lifts.nlargest(3, "cap_pph")), [lambda: V(lifts.nlargest(4, "cap_pph"))])
    dl2 = fac.distance(lifts.to_crs(32118).union_all())
    R["de-032"] = (lambda: V(fac[dl2 <= 200]), [lambda: V(fac[dl2 <= 60.96])])
    st = utm(trails[trails.TrailName == "Sunset Traverse"]).length.sum()
    R["de-033"] = (lambda: ans(st), [lambda: ans(st / 0.3048)])
    R["de-035"] = (lambda: V(trails.assign(geometry=trails.to_crs(32118).centroid.to_crs(4326))), [lambda: V(gpd.GeoDataFrame(geometry=[trails.union_all().centroid], crs=4326))])
    # Chinese
    R["zh-001"] = (lambda: V(buf(cafes, 200)), [lambda: V(buf(cafes, 2000))])
    R["zh-002"] = (lambda: V(roads.to_crs(4326)), [lambda: V(roads)])
    R["zh-003"] = (lambda: V(sjoin_count(bus, districts)), [lambda: V(sjoin_count(cafes, districts))])
    R["zh-004"] = (lambda: V(cafes.nlargest(3, "rating")), [lambda: V(cafes.nsmallest(3, "rating"))])
    R["zh-005"] = (lambda: V(schools[schools["type"] != "primary"]), [lambda: V(schools[schools["type"] == "primary"])])
    R["zh-006"] = (lambda: V(districts.assign(area_calc=districts.area / 1e6)), [lambda: V(districts.assign(area_calc=districts.area))])
    R["zh-008"] = (lambda: V(houses[houses.distance(bus.union_all()) <= 100]), [lambda: V(houses[houses.distance(bus.union_all()) > 100])])
    R["zh-011"] = R["en-012"]
    R["zh-012"] = (lambda: V(schools[schools.students > 1200]), [lambda: V(schools[schools.students < 1200])])
    R["zh-014"] = R["en-044"]
    R["zh-015"] = (lambda: V(snow.to_crs(2260)), [lambda: V(snow.to_crs(32118))])
    R["zh-016"] = R["en-055"]
    R["zh-017"] = (lambda: V(buf(lifts, 80)), [lambda: V(lifts.assign(geometry=lifts.buffer(80)))])
    R["zh-018"] = (lambda: V(buf(lifts, 91.44)), [lambda: V(buf(lifts, 300))])
    R["zh-019"] = (lambda: V(trails[trails.difficulty == "blue"]), [lambda: V(trails[trails.difficulty != "blue"])])
    R["zh-020"] = (lambda: V(snow[snow.status != "active"]), [lambda: V(snow[snow.status == "active"])])
    R["zh-021"] = (lambda: ans(L.sum()), [lambda: ans(lifts.length.sum())])
    R["zh-022"] = R["en-073"]
    R["zh-023"] = R["en-047"]
    R["zh-024"] = (lambda: V(buf(fac, 100), "/tmp/blind3/设施缓冲.gpkg"), [lambda: V(buf(fac, 30.48), "/tmp/blind3/设施缓冲.gpkg")])
    R["zh-025"] = (lambda: V(lifts.nlargest(5, "cap_pph")), [lambda: V(lifts.nsmallest(5, "cap_pph"))])
    dtf = fac.distance(trails.to_crs(32118).union_all())
    R["zh-029"] = (lambda: V(fac[dtf <= 50]), [lambda: V(fac[dtf > 50])])
    gs = snow.groupby("status", as_index=False)["water_lps"].mean()
    R["zh-031"] = (lambda: (gs, "t.csv"), [lambda: (snow.groupby("model", as_index=False)["water_lps"].mean(), "t.csv")])
    R["zh-034"] = R["en-066"]
    R["de-002"] = (lambda: V(bus.to_crs(25833)), [lambda: V(bus.to_crs(25832))])
    R["de-006"] = R["en-005"]
    R["de-007"] = (lambda: V(roads, "strassen.geojson"), [lambda: V(roads, "strassen.gpkg")])
    R["de-012"] = (lambda: V(districts.assign(geometry=districts.centroid)), [lambda: V(districts)])
    R["de-024"] = (lambda: V(zones, "/tmp/blind3/zonen.shp"), [lambda: V(zones, "/tmp/blind3/zonen.gpkg")])
    R["de-034"] = R["en-020"]
    R["en-068"] = R["en-020"]
    R["zh-032"] = R["en-020"]
    R["en-083"] = (lambda: V(gpd.GeoDataFrame(fac.drop(columns="geometry"), geometry=list(shapely.voronoi_polygons(fac.union_all(), extend_to=fac.union_all().buffer(500)).geoms), crs=fac.crs)),
                   [lambda: V(fac.assign(geometry=fac.buffer(100)).iloc[:5])])
    R["en-089"] = R["en-049"]
    R["zh-030"] = R["en-049"]
    R["en-092"] = (lambda: V(trails, "/tmp/blind3/trails_export.shp"), [lambda: V(trails.iloc[:5], "/tmp/blind3/trails_export.shp")])
    R["zh-007"] = (lambda: V(schools, "schools.geojson"), [lambda: V(schools, "schools.csv")])
    R["zh-035"] = (lambda: V(fac.to_crs(2260)), [lambda: V(fac.to_crs(4326))])
    return R


def apply(case, fn):
    r = fn()
    if isinstance(r[0], str) and r[0] == "answer":
        return run_checks(case, answer=r[1])
    out, path = r
    return run_checks(case, out=out, path=path)


def main():
    cases = []
    for lang in ("en", "de", "zh"):
        for c in yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8")):
            cases.append(c)
    errors = []
    ids = [c["id"] for c in cases]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        errors.append(f"duplicate ids {dup}")
    for c in cases:
        if not c["id"].startswith(c["lang"] + "-"):
            errors.append(f"{c['id']}: lang prefix")
        if c["class"] not in CLASSES:
            errors.append(f"{c['id']}: class {c['class']}")
        if c["expect"] not in ("answer", "decline"):
            errors.append(f"{c['id']}: expect")
        if c["expect"] == "answer" and not c.get("checks"):
            errors.append(f"{c['id']}: answer without checks")
        for spec in c["inputs"]:
            pre, name = spec.split(":", 1)
            if not ((SAMPLE if pre == "s" else BLIND) / name).exists():
                errors.append(f"{c['id']}: missing input {spec}")
        for chk, ok, detail in run_checks(c, only_eval=True):
            if not ok:
                errors.append(f"{c['id']}: check does not evaluate: {chk} -> {detail}")
    R = ref_cases()
    n_ref = n_wrong = 0
    for c in cases:
        if c["id"] not in R:
            continue
        if c["expect"] != "answer":
            errors.append(f"{c['id']}: reference for a decline case")
            continue
        good, wrongs = R[c["id"]]
        res = apply(c, good)
        bad = [(chk, d) for chk, ok, d in res if not ok]
        if bad:
            errors.append(f"{c['id']}: CORRECT result fails: {bad}")
        n_ref += 1
        for k, w in enumerate(wrongs):
            res = apply(c, w)
            if all(ok for _, ok, _ in res):
                errors.append(f"{c['id']}: WRONG result #{k} passes")
            n_wrong += 1
    # summary
    df = pd.DataFrame([{"lang": c["lang"], "class": c["class"], "expect": c["expect"],
                        "blind": any(s.startswith("b:") for s in c["inputs"])} for c in cases])
    print(f"{len(cases)} cases; correct results built for {n_ref} answer cases, {n_wrong} wrong results")
    print(pd.crosstab(df["lang"], df["expect"], margins=True).to_string())
    print(pd.crosstab(df["class"], df["lang"], margins=True).to_string())
    print("own dataset share:", pd.crosstab(df["lang"], df["blind"], normalize="index").round(2).to_string())
    answer_ids = {c["id"] for c in cases if c["expect"] == "answer"}
    print("answer cases without a reference:", sorted(answer_ids - set(R)))
    if errors:
        print("\nERRORS:")
        print("\n".join(errors))
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
