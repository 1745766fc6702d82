"""blind12 cases: Karstwald National Park wildlife monitoring. Requests (en/de/zh), reference results and
misreadings, defined once.

Every answer case has `checks` (bench/checkers.py format), a reference result computed here with
geopandas/numpy/rasterio in UTM 33N (EPSG:32633), and `mis`: misreadings that must fail the checks.
"""
from __future__ import annotations

import re
import warnings
import tempfile
import uuid
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import rasterio
from shapely.geometry import box

D = Path(__file__).resolve().parent / "data"
TMP = Path(tempfile.mkdtemp(prefix="blind12-"))
UTM = 32633
warnings.filterwarnings("ignore")

Z = gpd.read_file(D / "zones.gpkg")
HB = gpd.read_file(D / "habitats.gpkg")
P = gpd.read_file(D / "ranger_posts.gpkg")
C4 = gpd.read_file(D / "camera_traps.gpkg")
C = C4.to_crs(UTM)
S3 = gpd.read_file(D / "sightings.gpkg")
S = S3.to_crs(UTM)
T4 = gpd.read_file(D / "trails.gpkg")
T = T4.to_crs(UTM)
IMG = pd.read_csv(D / "trap_images_2025.csv")
with rasterio.open(D / "elevation.tif") as _r:
    DEM = _r.read(1).astype(float)
    DT = _r.transform

T["km"] = T.length / 1000.0
HB["ha"] = HB.area / 1e4


def dem_at(geoms):
    out = []
    for g in geoms:
        row, col = rasterio.transform.rowcol(DT, g.x, g.y)
        out.append(float(DEM[row, col]))
    return np.array(out)


def zone_of(gdf):
    j = gpd.sjoin(gdf[["geometry"]], Z[["name", "zone_type", "zone_id", "geometry"]], predicate="within")
    return j.reindex(gdf.index)


def hab_of(gdf):
    j = gpd.sjoin(gdf[["geometry"]], HB[["habitat", "hab_id", "geometry"]], predicate="within")
    return j.reindex(gdf.index)


S["zone"] = zone_of(S)["name"]
S["zone_type"] = zone_of(S)["zone_type"]
S["habitat"] = hab_of(S)["habitat"]
S["year"] = S.observed.dt.year
S["elev"] = dem_at(S.geometry)
C["zone"] = zone_of(C)["name"]
C["zone_type"] = zone_of(C)["zone_type"]
C["habitat"] = hab_of(C)["habitat"]
C["elev"] = dem_at(C.geometry)
P["elev"] = dem_at(P.geometry)
P["zone"] = zone_of(P)["name"]
P["zone_type"] = zone_of(P)["zone_type"]


def margin(values, thr, m, what=""):
    """No value within m of a threshold (a tie-free, misreading-proof cut)."""
    v = np.asarray(values, dtype=float)
    assert np.all(np.abs(v - thr) >= m), f"{what}: value within {m} of {thr}: {v[np.abs(v - thr) < m]}"


def dist_to(gdf, other):
    u = other.geometry.union_all()
    return gdf.geometry.distance(u)


# ---------------------------------------------------------------- outputs (fake run reports)
def _p(ext, name=None):
    sub = TMP / uuid.uuid4().hex[:10]
    sub.mkdir()
    return sub / (name or f"out{ext}")


def vec(gdf, name=None, crs=None):
    g = gdf if crs is None else gdf.to_crs(crs)
    g = g.drop(columns=[c for c in g.columns if c != "geometry" and str(g[c].dtype).startswith("datetime")])
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


def ras(arr, transform, crs=f"EPSG:{UTM}"):
    path = _p(".tif")
    a = np.where(np.isnan(arr), -9999.0, arr).astype("float32")
    with rasterio.open(path, "w", driver="GTiff", width=a.shape[1], height=a.shape[0], count=1, dtype="float32",
                       crs=crs, transform=transform, nodata=-9999.0) as dst:
        dst.write(a, 1)
    return {"status": "ok", "answer": "", "outputs": [{"kind": "raster", "path": str(path)}]}


# ---------------------------------------------------------------- checks
def c_num(v, rel=0.0, abs_=None):
    c = {"answer_number": repr(round(float(v), 4)), "rel": rel}
    if abs_ is not None:
        c["abs"] = abs_
    return c


def c_name(s):
    return {"answer_contains": repr(s)}


def c_ids(key, vals, kind="vector", as_str=False):
    conv = "astype(str)" if as_str else "astype(int)"
    return {"output": kind, "expect": f"sorted(out['{key}'].{conv}.tolist())", "equals": repr(sorted(vals))}


def c_len(n, kind="vector"):
    return {"output": kind, "expect": "len(out)", "equals": repr(int(n))}


def c_colv(key, vals, rtol=0.01, atol=0.0, kind="vector"):
    vals = [round(float(v), 4) for v in vals]
    return {"output": kind, "equals": "True",
            "expect": f"len(out) == {len(vals)} and any(np.allclose(out.sort_values('{key}')[c].astype(float).to_numpy(), "
                      f"{vals}, rtol={rtol}, atol={atol}) for c in out.columns if c not in ('{key}', 'geometry') and "
                      f"pd.api.types.is_numeric_dtype(out[c]))"}


def c_pairs(key, d, rtol=0.0, atol=0.0, kind="any_table"):
    d = {str(k): round(float(v), 4) for k, v in d.items()}
    return {"output": kind, "equals": "True",
            "expect": f"any(all(abs(float(m.get(k, 'nan')) - v) <= {atol} + {rtol} * abs(v) for k, v in {d!r}.items()) "
                      f"for m in [dict(zip(out['{key}'].astype(str).str.replace(r'\\.0$', '', regex=True), out[c])) "
                      f"for c in out.columns if c not in ('{key}', 'geometry') and pd.api.types.is_numeric_dtype(out[c])])"}


def c_area(v, rel=0.02):
    return {"output": "vector", "expect": f"float(out.to_crs({UTM}).area.sum())", "equals": repr(round(float(v), 1)),
            "rel": rel}


def c_length(v, rel=0.01):
    return {"output": "vector", "expect": f"float(out.to_crs({UTM}).length.sum())", "equals": repr(round(float(v), 1)),
            "rel": rel}


def c_crs(epsg, kind="vector"):
    return {"output": kind, "crs": epsg}


def c_suffix(s, kind="vector"):
    return {"output": kind, "suffix": s}


def c_bounds(g, epsg, abs_):
    b = [round(float(x), 4) for x in g.to_crs(epsg).total_bounds]
    return {"output": "vector", "expect": "[float(x) for x in out.total_bounds]", "equals": repr(b), "abs": abs_}


def c_rmean(v, abs_):
    return {"output": "raster", "expect": "raster_stats(out)['mean']", "equals": repr(round(float(v), 3)), "abs": abs_}


class Task:
    def __init__(self, checks, ref, mis):
        self.checks, self._ref, self.mis = checks, ref, mis

    def ref(self):
        return self._ref


CASES = []


def add(cls, inputs, req, task=None, why=None):
    for lang in ("en", "de", "zh"):
        lst = req.get(lang) or []
        for r in [lst] if isinstance(lst, str) else lst:
            if task is not None:
                nums = {float(x) for x in re.findall(r"\d+(?:\.\d+)?", r)}
                for ch in task.checks:
                    if "answer_number" in ch:
                        assert float(ch["answer_number"]) not in nums, f"answer number in request: {r}"
            CASES.append({"cls": cls, "lang": lang, "request": r, "inputs": [f"b:{i}" for i in inputs],
                          "expect": "answer" if task is not None else "decline", "task": task, "why": why})


def counts(series):
    return {k: int(v) for k, v in series.value_counts().items()}


ZG, HG, PG, CG, SG, TG, IG = ("zones.gpkg", "habitats.gpkg", "ranger_posts.gpkg", "camera_traps.gpkg",
                              "sightings.gpkg", "trails.gpkg", "trap_images_2025.csv")
DEMF = "elevation.tif"
sid = lambda df: sorted(df.sighting_id.astype(int))  # noqa: E731
tid = lambda df: sorted(df.trap_id.astype(int))  # noqa: E731

# ================================================================ single-step: plain
add("plain", [CG], {"en": ["How many camera traps are there?", "number of camera traps"],
                    "de": "Wie viele Kamerafallen gibt es?", "zh": "一共有多少个红外相机？"},
    Task([c_num(len(C))], ans(f"There are {len(C)} features."), [("wrong layer", ans(f"{len(S)} features"))]))

buf = P.copy()
buf["geometry"] = P.buffer(750)
add("plain", [PG], {"en": ["Buffer the ranger posts by 750 m", "750 metre buffer around each ranger post"],
                    "de": "Puffer die Rangerstationen mit 750 m", "zh": "对护林站做750米缓冲区"},
    Task([c_len(8), c_area(buf.area.sum())], vec(buf),
         [("750 ft", vec(P.assign(geometry=P.buffer(750 * 0.3048)))), ("75 m", vec(P.assign(geometry=P.buffer(75))))]))

add("plain", [HG], {"en": ["Calculate the area of each habitat patch in hectares"],
                    "de": "Berechne die Fläche jeder Habitatfläche in Hektar", "zh": "计算每个生境斑块的面积（公顷）"},
    Task([c_colv("hab_id", HB.sort_values("hab_id").ha)], vec(HB),
         [("km2", vec(HB.assign(ha=HB.area / 1e6))), ("m2", vec(HB.assign(ha=HB.area)))]))

add("plain", [TG], {"en": ["What is the length of every trail in km?", "trail lengths in kilometres"],
                    "de": "Länge aller Wanderwege in km", "zh": "计算每条步道的长度，单位公里"},
    Task([c_colv("trail_id", T.sort_values("trail_id").km)], vec(T.to_crs(4326)),
         [("degrees", vec(T4.assign(km=T4.length))), ("miles", vec(T.assign(km=T.length / 1609.344)))]))

add("crs_roles", [SG], {"en": ["Reproject the sightings to WGS 84", "sightings to EPSG:4326 please"],
                        "de": "Sichtungen nach WGS84 umprojizieren", "zh": "把目击记录投影转换到WGS84"},
    Task([c_crs(4326), c_len(len(S)), c_bounds(S3, 4326, 0.001)], vec(S3, crs=4326),
         [("assigned not reprojected", vec(S3.set_crs(4326, allow_override=True))),
          ("wrong crs", vec(S3, crs=UTM))]))

zc = Z.copy()
zc["geometry"] = Z.centroid
add("plain", [ZG], {"en": ["centroids of the management zones"], "de": "Mittelpunkte der Schutzzonen",
                    "zh": "生成各管理分区的质心"},
    Task([c_len(6), {"output": "vector", "expect": f"sorted(round(float(x)) for x in out.to_crs({UTM}).geometry.x)",
                     "equals": repr(sorted(round(float(x)) for x in zc.geometry.x))}], vec(zc),
         [("habitat centroids", vec(HB.assign(geometry=HB.centroid)))]))

hull = gpd.GeoDataFrame(geometry=[C.geometry.union_all().convex_hull], crs=UTM)
add("plain", [CG], {"en": ["Draw the convex hull around all camera traps"], "de": "Konvexe Hülle um alle Kamerafallen",
                    "zh": "生成所有红外相机的凸包"},
    Task([c_len(1), c_area(hull.area.sum(), 0.01)], vec(hull, crs=4326),
         [("bounding box", vec(gpd.GeoDataFrame(geometry=[box(*C.total_bounds)], crs=UTM))),
          ("each trap", vec(C.assign(geometry=C.buffer(1))))]))

add("plain", [SG], {"en": ["Select the lynx sightings", "show only lynx"], "de": "Alle Luchs-Sichtungen auswählen",
                    "zh": "筛选出猞猁的目击记录"},
    Task([c_ids("sighting_id", sid(S[S.species == "lynx"]))], vec(S[S.species == "lynx"]),
         [("all", vec(S)), ("wolf", vec(S[S.species == "wolf"]))]))

add("plain", [PG], {"en": ["Export the ranger posts to a shapefile called posts_2026"],
                    "de": "Rangerstationen als Shapefile posts_2026 speichern", "zh": "把护林站导出为Shapefile，文件名posts_2026"},
    Task([c_suffix("posts_2026.shp"), c_len(8)], vec(P, name="posts_2026.shp"),
         [("default name", vec(P, name="ranger_posts.shp")), ("gpkg", vec(P, name="posts_2026.gpkg"))]))

add("output_clause", [TG], {"en": ["Save the trails as GeoJSON", "trails to geojson"],
                            "de": "Wanderwege als GeoJSON abspeichern", "zh": "将步道另存为GeoJSON"},
    Task([c_suffix(".geojson"), c_len(10)], vec(T4, name="trails.geojson"), [("gpkg", vec(T4))]))

add("crs_roles", [CG], {"en": ["Reproject the camera traps to EPSG:32633", "camera traps into UTM zone 33N"],
                        "de": "Kamerafallen in UTM 33N (EPSG:32633) transformieren", "zh": "把红外相机转换到EPSG:32633"},
    Task([c_crs(32633), c_bounds(C4, 32633, 1.0)], vec(C4, crs=32633),
         [("3035", vec(C4, crs=3035)), ("assigned", vec(C4.set_crs(32633, allow_override=True)))]))

add("crs_roles", [TG], {"en": ["Convert the trails to ETRS89 LAEA (EPSG:3035)"],
                        "de": "Wanderwege nach EPSG:3035 umprojizieren", "zh": "步道图层转为EPSG:3035坐标系"},
    Task([c_crs(3035), c_bounds(T4, 3035, 1.0)], vec(T4, crs=3035), [("4326 kept", vec(T4))]))

# ---------------------------------------------------------------- negation
nx = C[C.active == "no"]
add("negation", [CG], {"en": ["Which camera traps are not active?", "camera traps that are not active"],
                       "de": "Kamerafallen, die nicht aktiv sind", "zh": "找出不在工作的红外相机"},
    Task([c_ids("trap_id", tid(nx))], vec(nx), [("active ones", vec(C[C.active == "yes"])), ("all", vec(C))]))

nrd = S[S.species != "red deer"]
add("negation", [SG], {"en": ["Select all sightings except red deer", "sightings that are not red deer"],
                       "de": "Alle Sichtungen außer Rotwild", "zh": "选出除马鹿以外的所有目击记录"},
    Task([c_len(len(nrd)), c_ids("sighting_id", sid(nrd))], vec(nrd),
         [("only red deer", vec(S[S.species == "red deer"])), ("all", vec(S))]))

ne = T[T.difficulty != "easy"]
add("negation", [TG], {"en": ["Show the trails that are not easy"], "de": "Welche Wege sind nicht leicht?",
                       "zh": "显示难度不是easy的步道"},
    Task([c_ids("trail_id", sorted(ne.trail_id))], vec(ne), [("easy", vec(T[T.difficulty == "easy"]))]))

nw = T[T.winter_open != "yes"]
add("negation", [TG], {"en": ["trails that are closed in winter (winter_open is not yes)"],
                       "de": "Wege, die im Winter nicht geöffnet sind", "zh": "冬季不开放的步道有哪些"},
    Task([c_ids("trail_id", sorted(nw.trail_id))], vec(nw), [("open ones", vec(T[T.winter_open == "yes"]))]))

nc = S[S.method != "camera"]
add("negation", [SG], {"en": ["sightings not recorded by camera"], "de": "Sichtungen, die nicht per Kamera erfasst wurden",
                       "zh": "不是相机拍到的目击记录"},
    Task([c_len(len(nc)), c_ids("sighting_id", sid(nc))], vec(nc), [("camera", vec(S[S.method == "camera"]))]))

nzc = Z[Z.zone_type != "core"]
add("negation", [ZG], {"en": ["the zones that are not core zones"], "de": "alle Zonen ohne die Kernzonen",
                       "zh": "非核心区的分区"},
    Task([c_ids("zone_id", sorted(nzc.zone_id))], vec(nzc), [("core", vec(Z[Z.zone_type == "core"]))]))

# ---------------------------------------------------------------- each / per
sp_n = counts(S.species)
add("each_per", [SG], {"en": ["Count the sightings per species", "how many sightings of each species?"],
                       "de": "Anzahl der Sichtungen je Tierart", "zh": "按物种统计目击次数"},
    Task([c_pairs("species", sp_n)], tab(pd.DataFrame({"species": list(sp_n), "n": list(sp_n.values())})),
         [("individuals summed", tab(S.groupby("species", as_index=False).individuals.sum()))]))

sp_sum = S.groupby("species").individuals.sum().to_dict()
add("each_per", [SG], {"en": ["total number of individuals for each species"],
                       "de": "Summe der Individuen pro Art", "zh": "每个物种的个体总数"},
    Task([c_pairs("species", sp_sum)], tab(S.groupby("species", as_index=False).individuals.sum()),
         [("sightings counted", tab(pd.DataFrame({"species": list(sp_n), "n": list(sp_n.values())}))),
          ("mean", tab(S.groupby("species", as_index=False).individuals.mean()))]))

zn = S.groupby("zone").size().reindex(Z.name).fillna(0)
zcount = Z.assign(n=zn.values)
add("each_per", [SG, ZG], {"en": ["Count the sightings in each zone", "number of sightings per management zone"],
                           "de": "Zähle die Sichtungen pro Zone", "zh": "统计每个分区内的目击记录数"},
    Task([c_pairs("name", zn.to_dict()), c_len(6, "any_table")], vec(zcount),
         [("traps counted", vec(Z.assign(n=C.groupby("zone").size().reindex(Z.name).fillna(0).values)))]))

mod_n = counts(C.model)
add("each_per", [CG], {"en": ["count the camera traps per model"], "de": "Wie viele Kamerafallen je Modell?",
                       "zh": "每种型号的红外相机各有几台"},
    Task([c_pairs("model", mod_n)], tab(pd.DataFrame({"model": list(mod_n), "n": list(mod_n.values())})),
         [("active", tab(pd.DataFrame({"model": list(mod_n), "n": [int(((C.model == m) & (C.active == 'no')).sum()) for m in mod_n]})))]))

hz = HB.groupby("habitat").ha.sum().to_dict()
add("each_per", [HG], {"en": ["total habitat area in hectares per habitat type"],
                       "de": "Gesamtfläche je Habitattyp in ha", "zh": "按生境类型汇总面积（公顷）"},
    Task([c_pairs("habitat", hz, rtol=0.01)], tab(pd.DataFrame({"habitat": list(hz), "ha": list(hz.values())})),
         [("count of patches", tab(HB.groupby("habitat", as_index=False).size())),
          ("km2", tab(pd.DataFrame({"habitat": list(hz), "ha": [v / 100 for v in hz.values()]})))]))

# ---------------------------------------------------------------- statistics
add("statistics", [CG], {"en": ["What is the mean battery level of the camera traps?"],
                         "de": "Durchschnittlicher Akkustand der Kamerafallen?", "zh": "红外相机的平均电量是多少"},
    Task([c_num(C.battery_pct.mean(), abs_=0.05)], ans(f"mean {C.battery_pct.mean():.2f}"),
         [("median", ans(f"median {C.battery_pct.median()}"))]))
assert abs(C.battery_pct.mean() - C.battery_pct.median()) > 1

add("statistics", [SG], {"en": ["largest number of individuals in a single sighting"],
                         "de": "Maximale Anzahl Individuen bei einer Sichtung", "zh": "单次目击的最大个体数"},
    Task([c_num(S.individuals.max())], ans(f"max {S.individuals.max()}"), [("mean", ans(f"{S.individuals.mean():.2f}"))]))

add("statistics", [PG], {"en": ["how many rangers work at the posts in total?"],
                         "de": "Wie viele Ranger sind insgesamt auf den Stationen?", "zh": "各护林站的护林员总数是多少"},
    Task([c_num(P.rangers.sum())], ans(f"sum {P.rangers.sum()}"), [("count posts", ans("8 posts")),
                                                                    ("mean", ans(f"{P.rangers.mean():.3f}"))]))

add("statistics", [IG], {"en": ["median number of images per trap in the 2025 table"],
                         "de": "Median der Bilder pro Falle in der Tabelle", "zh": "表中每台相机图片数的中位数"},
    Task([c_num(IMG.images.median(), abs_=0.01)], ans(f"{IMG.images.median()}"),
         [("mean", ans(f"{IMG.images.mean():.2f}"))]))
assert abs(IMG.images.median() - IMG.images.mean()) > 5

# ---------------------------------------------------------------- join
J = C.merge(IMG, on="trap_id", how="left")
jd = {int(k): int(v) for k, v in IMG[IMG.trap_id <= 40].set_index("trap_id").images.items()}
add("join", [CG, IG], {"en": ["Join the 2025 image table to the camera traps", "join trap_images_2025 to camera_traps by trap_id"],
                       "de": "Bildtabelle 2025 an die Kamerafallen anhängen", "zh": "把2025年图片表连接到红外相机图层"},
    Task([{"output": "vector", "expect": "len(out) in (38, 40)", "equals": "True"},
          {"output": "vector", "equals": "True",
           "expect": f"all(int(a) == b for a, b in zip(out.set_index('trap_id').loc[{sorted(jd)}, 'images'], {[jd[k] for k in sorted(jd)]}))"}],
         vec(J), [("by row order", vec(C.assign(images=np.append(IMG.images.values, [0])[:40])))]))

# ---------------------------------------------------------------- raster
zmean = {}
for _, z in Z.iterrows():
    x0, y0, x1, y1 = z.geometry.bounds
    r0, c0 = rasterio.transform.rowcol(DT, x0 + 1, y1 - 1)
    r1, c1 = rasterio.transform.rowcol(DT, x1 - 1, y0 + 1)
    zmean[z.zone_id] = DEM[r0:r1 + 1, c0:c1 + 1].mean()
hmean = {}
for _, h in HB.iterrows():
    x0, y0, x1, y1 = h.geometry.bounds
    r0, c0 = rasterio.transform.rowcol(DT, x0 + 1, y1 - 1)
    r1, c1 = rasterio.transform.rowcol(DT, x1 - 1, y0 + 1)
    hmean[h.hab_id] = DEM[r0:r1 + 1, c0:c1 + 1].mean()
zmax = {k: None for k in zmean}
add("raster", [ZG, DEMF], {"en": ["Mean elevation of each zone from the DEM", "zonal statistics: average elevation per zone"],
                           "de": "Mittlere Höhe je Zone aus dem Höhenmodell", "zh": "用高程栅格计算每个分区的平均高程"},
    Task([c_colv("zone_id", [zmean[k] for k in sorted(zmean)], rtol=0, atol=0.5)],
         vec(Z.assign(mean=[zmean[k] for k in Z.zone_id])),
         [("habitat means", vec(Z.assign(mean=[hmean[k] for k in range(1, 7)]))),
          ("whole raster mean", vec(Z.assign(mean=DEM.mean())))]))

add("raster", [PG, DEMF], {"en": ["Sample the elevation at each ranger post"], "de": "Höhenwerte an den Rangerstationen abgreifen",
                           "zh": "提取每个护林站处的高程值"},
    Task([c_colv("post_id", P.sort_values("post_id").elev, rtol=0, atol=8.0)], vec(P),
         [("shifted", vec(P.assign(elev=np.roll(P.elev.values, 1)))), ("ft", vec(P.assign(elev=P.elev / 0.3048)))]))

hi = np.where(DEM > 1500, 1.0, 0.0)
add("raster", [DEMF], {"en": ["Make a raster that is 1 where the elevation is above 1500 m and 0 elsewhere"],
                       "de": "Raster: 1 wo die Höhe über 1500 m liegt, sonst 0", "zh": "生成高程大于1500米为1、其余为0的栅格"},
    Task([c_rmean(hi.mean(), 0.002)], ras(hi, DT), [("below", ras(1 - hi, DT)), ("elevation", ras(DEM, DT))]))
assert (np.abs(DEM - 1500) < 0.05).sum() < 20 and 0.1 < hi.mean() < 0.9

# ================================================================ implied steps
hab_n = S.groupby("habitat").size().sort_values(ascending=False)
assert hab_n.iloc[0] - hab_n.iloc[1] >= 10
add("implied", [SG, HG], {"en": ["Which habitat type has the most sightings?", "in which habitat were animals seen most often"],
                          "de": "In welchem Lebensraumtyp gibt es die meisten Sichtungen?", "zh": "哪种生境类型的目击记录最多？"},
    Task([c_name(hab_n.index[0])], ans(f"{hab_n.index[0]} ({hab_n.iloc[0]})"),
         [("second", ans(hab_n.index[1])), ("zone instead", ans(S.zone.value_counts().index[0]))]))

cz = C.groupby("zone").size().sort_values(ascending=False)
assert cz.iloc[0] > cz.iloc[1] and cz.index[0] != S.zone.value_counts().index[0]
add("implied", [CG, ZG], {"en": ["Which zone has the most camera traps?"],
                          "de": "Welche Zone hat die meisten Kamerafallen?", "zh": "哪个分区的红外相机最多？"},
    Task([c_name(cz.index[0])], ans(cz.index[0]),
         [("sightings", ans(S.zone.value_counts().index[0])), ("fewest", ans(cz.index[-1]))]))

yr = C.installed.dt.year
assert not (C.installed == pd.Timestamp("2020-01-01")).any()
add("implied", [CG], {"en": ["How many traps were installed before 2020?", "number of camera traps put up before 2020"],
                      "de": "Wie viele Fallen wurden vor 2020 installiert?", "zh": "2020年以前安装的相机有几台？"},
    Task([c_num((yr < 2020).sum())], ans(f"{(yr < 2020).sum()}"),
         [("up to 2020", ans(f"{(yr <= 2020).sum()}")), ("after", ans(f"{(yr >= 2020).sum()}"))]))

margin(T.km, 4.0, 0.3, "trail km vs 4")
t4 = T[T.km > 4]
add("implied", [TG], {"en": ["Show the trails longer than 4 km", "trails over 4 kilometres"],
                      "de": "Zeig mir die Wege, die länger als 4 km sind", "zh": "显示长度超过4公里的步道"},
    Task([c_ids("trail_id", sorted(t4.trail_id))], vec(t4),
         [("all", vec(T)), ("4 miles", vec(T[T.length > 4 * 1609.344])), ("shorter", vec(T[T.km < 4]))]))

forest_pct = 100 * HB[HB.habitat == "forest"].area.sum() / HB.area.sum()
add("implied", [HG], {"en": ["What percentage of the park is forest?"],
                      "de": "Wie viel Prozent des Parks sind Wald?", "zh": "森林占公园面积的百分之几？"},
    Task([c_num(forest_pct, abs_=0.3)], ans(f"{forest_pct:.1f} %"),
         [("share of patches", ans(f"{100 * 5 / 12:.1f} %")), ("fraction", ans(f"{forest_pct / 100:.3f}"))]))

sp_mean = S.groupby("species").individuals.mean().to_dict()
add("implied", [SG], {"en": ["average group size per species", "mean number of individuals by species"],
                      "de": "Durchschnittliche Gruppengröße je Tierart", "zh": "各物种平均每次看到几只"},
    Task([c_pairs("species", sp_mean, atol=0.01)], tab(S.groupby("species", as_index=False).individuals.mean()),
         [("sum", tab(S.groupby("species", as_index=False).individuals.sum())),
          ("max", tab(S.groupby("species", as_index=False).individuals.max()))]))

lh = P[P.name == "Lake Hut"].geometry.iloc[0]
dl = S.geometry.distance(lh).sort_values()
assert dl.iloc[3] - dl.iloc[2] > 20
near3 = S.loc[dl.index[:3]]
ng = P[P.name == "North Gate"].geometry.iloc[0]
add("implied", [SG, PG], {"en": ["the 3 sightings nearest to Lake Hut", "Find the three closest sightings to the Lake Hut post"],
                          "de": "Die drei Sichtungen, die am nächsten an der Lake Hut liegen", "zh": "离Lake Hut护林站最近的3条目击记录"},
    Task([c_ids("sighting_id", sid(near3))], vec(near3),
         [("other post", vec(S.loc[S.geometry.distance(ng).sort_values().index[:3]])),
          ("farthest", vec(S.loc[dl.index[-3:]]))]))

w24 = int(((S.species == "wolf") & (S.year == 2024)).sum())
add("implied", [SG], {"en": ["How many wolf sightings were there in 2024?"],
                      "de": "Wie oft wurde 2024 ein Wolf gesichtet?", "zh": "2024年狼一共被目击了几次？"},
    Task([c_num(w24)], ans(f"{w24}"), [("all years", ans(f"{(S.species == 'wolf').sum()}")),
                                       ("all species", ans(f"{(S.year == 2024).sum()}"))]))

tl = T.sort_values("km", ascending=False)
add("implied", [TG], {"en": ["Which trail is the longest?", "longest trail?"],
                      "de": "Welcher Wanderweg ist am längsten?", "zh": "最长的步道是哪条？"},
    Task([c_name(tl.name.iloc[0])], ans(tl.name.iloc[0]), [("second", ans(tl.name.iloc[1])), ("shortest", ans(tl.name.iloc[-1]))]))

easy_km = T[T.difficulty == "easy"].km.sum()
add("implied", [TG], {"en": ["total length of the easy trails in km"],
                      "de": "Wie viele Kilometer leichte Wege gibt es insgesamt?", "zh": "简单难度的步道总长多少公里"},
    Task([c_num(easy_km, rel=0.01)], ans(f"{easy_km:.2f} km"),
         [("all trails", ans(f"{T.km.sum():.2f}")), ("metres", ans(f"{easy_km * 1000:.0f} m"))]))

dp = dist_to(S, P)
margin(dp, 500, 20, "sighting-post vs 500 m")
margin(dp, 152.4, 10, "sighting-post vs 500 ft")
add("implied", [SG, PG], {"en": ["How many sightings are within 500 m of a ranger post?"],
                          "de": "Wie viele Sichtungen liegen im Umkreis von 500 m um eine Rangerstation?",
                          "zh": "护林站周边500米内有多少条目击记录？"},
    Task([c_num((dp <= 500).sum())], ans(f"{(dp <= 500).sum()}"),
         [("500 ft", ans(f"{(dp <= 152.4).sum()}")), ("outside", ans(f"{(dp > 500).sum()}"))]))

pe = P.sort_values("elev")
add("implied", [PG, DEMF], {"en": ["Which ranger post lies highest?", "what is the highest ranger post according to the DEM"],
                            "de": "Welche Rangerstation liegt am höchsten?", "zh": "哪个护林站海拔最高？"},
    Task([c_name(pe.name.iloc[-1])], ans(pe.name.iloc[-1]), [("lowest", ans(pe.name.iloc[0])), ("second", ans(pe.name.iloc[-2]))]))

lyn = S[S.species == "lynx"].elev.mean()
add("implied", [SG, DEMF], {"en": ["What is the mean elevation of the lynx sightings?"],
                            "de": "Auf welcher Höhe wird der Luchs im Mittel gesichtet?", "zh": "猞猁目击点的平均海拔是多少"},
    Task([c_num(lyn, abs_=4.0)], ans(f"{lyn:.1f} m"), [("all sightings", ans(f"{S.elev.mean():.1f}")),
                                                       ("wolf", ans(f"{S[S.species == 'wolf'].elev.mean():.1f}"))]))

wc = int(((S.species == "wolf") & (S.zone_type == "core")).sum())
add("implied", [SG, ZG], {"en": ["How many wolf sightings lie in core zones?"],
                          "de": "Wie viele Wolfsnachweise liegen in den Kernzonen?", "zh": "核心区内有几条狼的目击记录"},
    Task([c_num(wc)], ans(f"{wc}"), [("all wolves", ans(f"{(S.species == 'wolf').sum()}")),
                                     ("all core", ans(f"{(S.zone_type == 'core').sum()}"))]))

se = S.groupby("species").elev.mean().sort_values()
assert se.iloc[-1] - se.iloc[-2] > 15 and se.index[-1] != "red deer"
add("implied", [SG, DEMF], {"en": ["Which species is seen at the highest elevation on average?"],
                            "de": "Welche Art wird im Schnitt am höchsten gesichtet?", "zh": "平均来看，哪个物种出现的海拔最高？"},
    Task([c_name(se.index[-1])], ans(se.index[-1]), [("runner-up", ans(se.index[-2])), ("most sightings", ans("red deer"))]))

nomatch = sorted(set(C.trap_id) - set(IMG.trap_id))
add("implied", [CG, IG], {"en": ["How many camera traps have no row in the 2025 image table?"],
                          "de": "Für wie viele Kamerafallen fehlt ein Eintrag in der Bildtabelle?", "zh": "有几台相机在图片统计表里没有记录？"},
    Task([c_num(len(nomatch))], ans(f"{len(nomatch)} traps: 17, 33"),
         [("orphan rows", ans("1 row without a trap")), ("matched", ans("38"))]))

mm = J.groupby("model").images.mean().sort_values()
assert mm.iloc[-1] - mm.iloc[-2] > 10
add("implied", [CG, IG], {"en": ["Which camera model takes the most images on average?"],
                          "de": "Welches Kameramodell macht im Durchschnitt die meisten Bilder?", "zh": "哪个型号的相机平均拍的照片最多？"},
    Task([c_name(mm.index[-1])], ans(mm.index[-1]),
         [("fewest", ans(mm.index[0])), ("most traps", ans(C.model.value_counts().index[0]))]))
assert mm.index[-1] != C.model.value_counts().index[0]

add("implied", [PG], {"en": ["In which year was the oldest ranger post built?"],
                      "de": "Baujahr der ältesten Rangerstation?", "zh": "最早建成的护林站是哪一年建的"},
    Task([c_num(P.built.min())], ans(f"{P.built.min()}"), [("newest", ans(f"{P.built.max()}"))]))

wet_ha = HB[HB.habitat == "wetland"].ha.sum()
add("implied", [HG], {"en": ["How many hectares of wetland are there?"],
                      "de": "Wie viel Hektar Feuchtgebiet hat der Park?", "zh": "湿地一共有多少公顷"},
    Task([c_num(wet_ha, rel=0.005)], ans(f"{wet_ha:.1f} ha"), [("km2", ans(f"{wet_ha / 100:.2f} km2")),
                                                               ("all", ans(f"{HB.ha.sum():.0f}"))]))

zm = sorted(zmean.items(), key=lambda kv: kv[1])
zname = dict(zip(Z.zone_id, Z.name))
add("implied", [ZG, DEMF], {"en": ["Which zone has the highest mean elevation?"],
                            "de": "Welche Zone liegt im Mittel am höchsten?", "zh": "平均海拔最高的是哪个分区？"},
    Task([c_name(zname[zm[-1][0]])], ans(zname[zm[-1][0]]), [("second", ans(zname[zm[-2][0]])), ("lowest", ans(zname[zm[0][0]]))]))

add("implied", [SG], {"en": ["How many different species were sighted?"],
                      "de": "Wie viele verschiedene Arten wurden beobachtet?", "zh": "一共记录到几种动物？"},
    Task([c_num(S.species.nunique())], ans(f"{S.species.nunique()} species"), [("sightings", ans(f"{len(S)}"))]))

d_lc = P[P.name == "Lake Hut"].geometry.iloc[0].distance(P[P.name == "Crag Cabin"].geometry.iloc[0])
add("implied", [PG], {"en": ["How far is Lake Hut from Crag Cabin, in metres?"],
                      "de": "Wie weit ist es von der Lake Hut zur Crag Cabin in Metern?", "zh": "Lake Hut到Crag Cabin的直线距离是多少米"},
    Task([c_num(d_lc, rel=0.005)], ans(f"{d_lc:.0f} m"), [("km", ans(f"{d_lc / 1000:.2f} km")),
                                                          ("other pair", ans(f"{P.geometry.iloc[0].distance(P.geometry.iloc[1]):.0f} m"))]))

tm = T[T.difficulty == "moderate"].sort_values("km")
add("implied", [TG], {"en": ["Which moderate trail is the longest?"],
                      "de": "Welcher mittelschwere Weg ist der längste?", "zh": "中等难度的步道里哪条最长"},
    Task([c_name(tm.name.iloc[-1])], ans(tm.name.iloc[-1]), [("overall", ans(tl.name.iloc[0])), ("shortest", ans(tm.name.iloc[0]))]))
assert tm.name.iloc[-1] != tl.name.iloc[0]

fv = S[S.zone == "Fir Valley"]
add("implied", [SG, ZG], {"en": ["How many confirmed sightings are there in the Fir Valley zone?"],
                          "de": "Wie viele bestätigte Sichtungen gibt es in der Zone Fir Valley?", "zh": "Fir Valley分区里有多少条已确认的目击记录"},
    Task([c_num((fv.confirmed == "yes").sum())], ans(f"{(fv.confirmed == 'yes').sum()}"),
         [("all in zone", ans(f"{len(fv)}")), ("all confirmed", ans(f"{(S.confirmed == 'yes').sum()}"))]))

cf = int((C.habitat == "forest").sum())
add("implied", [CG, HG], {"en": ["How many camera traps stand in forest?"],
                          "de": "Wie viele Kamerafallen stehen im Wald?", "zh": "有多少台红外相机位于森林里"},
    Task([c_num(cf)], ans(f"{cf}"), [("patches", ans("5")), ("not forest", ans(f"{len(C) - cf}"))]))
assert cf not in (5, len(C) - cf)

dcp = C.geometry.apply(lambda g: P.distance(g).min())
dcc = C.geometry.apply(lambda g: C[C.geometry != g].distance(g).min())
add("implied", [CG, PG], {"en": ["What is the average distance from a camera trap to its nearest ranger post?"],
                          "de": "Mittlere Entfernung von den Kamerafallen zur jeweils nächsten Rangerstation?",
                          "zh": "每台相机到最近护林站的平均距离是多少"},
    Task([c_num(dcp.mean(), rel=0.01)], ans(f"{dcp.mean():.0f} m"),
         [("trap to trap", ans(f"{dcc.mean():.0f} m")), ("km", ans(f"{dcp.mean() / 1000:.2f} km"))]))

ly = S[S.species == "lynx"].sort_values("observed")
add("implied", [SG], {"en": ["When was the last lynx sighting?"],
                      "de": "Wann wurde zuletzt ein Luchs gesehen?", "zh": "最近一次看到猞猁是什么时候"},
    Task([c_name(str(ly.observed.iloc[-1].date()))], ans(str(ly.observed.iloc[-1].date())),
         [("first", ans(str(ly.observed.iloc[0].date()))), ("any species", ans(str(S.observed.max().date())))]))
assert ly.observed.iloc[-1] != S.observed.max()

g8 = S[S.individuals > 8]
add("implied", [SG], {"en": ["show the sightings of groups larger than 8 animals"],
                      "de": "Sichtungen mit mehr als 8 Tieren", "zh": "显示一次看到8只以上的目击记录"},
    Task([c_ids("sighting_id", sid(g8))], vec(g8), [(">=", vec(S[S.individuals >= 8])), ("<", vec(S[S.individuals < 8]))]))
assert (S.individuals == 8).any()

b20 = C[C.battery_pct < 20]
add("implied", [CG], {"en": ["Which traps are running low, under 20 % battery?"],
                      "de": "Welche Fallen haben weniger als 20 % Akku?", "zh": "哪些相机电量低于20%"},
    Task([c_ids("trap_id", tid(b20))], vec(b20), [("<=", vec(C[C.battery_pct <= 20])), ("above", vec(C[C.battery_pct > 20]))]))
assert (C.battery_pct == 20).any()


# ================================================================ chains (2-3 steps)
def pair_margin(A, B, thr, rel=0.015, what=""):
    d = np.array([B.distance(g).values for g in A.geometry])
    m = max(10.0, rel * thr)
    assert np.all(np.abs(d - thr) >= m), f"{what}: pair distance within {m} of {thr}"


def n_within(A, B, thr):
    """per feature of B: how many of A within thr (B's order)"""
    return [int((A.distance(g) <= thr).sum()) for g in B.geometry]


pair_margin(S, P, 1300, what="S-P 1300")
cnt13 = n_within(S, P, 1300)
add("chain", [PG, SG], {"en": ["Buffer the ranger posts by 1300 m and count the sightings inside each buffer",
                               "make 1300 m buffers around the posts, then count how many sightings fall in each"],
                        "de": "Rangerstationen mit 1300 m puffern und anschließend die Sichtungen je Puffer zählen",
                        "zh": "先给护林站做1300米缓冲区，再统计每个缓冲区内的目击数"},
    Task([c_colv("post_id", cnt13, rtol=0, atol=0)], vec(P.assign(geometry=P.buffer(1300), n=cnt13)),
         [("no buffer", vec(P.assign(n=0))), ("1300 ft", vec(P.assign(geometry=P.buffer(396.24), n=n_within(S, P, 396.24)))),
          ("traps counted", vec(P.assign(geometry=P.buffer(1300), n=n_within(C, P, 1300))))]))

tb = t4.copy()
tb["geometry"] = t4.buffer(100)
add("chain", [TG], {"en": ["Select the trails longer than 4 km, then buffer them by 100 m",
                           "take the trails over 4 km and put a 100 m buffer around them"],
                    "de": "Wege über 4 km auswählen und diese mit 100 m puffern", "zh": "选出长度大于4公里的步道，然后做100米缓冲"},
    Task([c_len(len(t4)), c_area(tb.area.sum(), 0.02)], vec(tb),
         [("all trails buffered", vec(T.assign(geometry=T.buffer(100)))), ("no buffer", vec(t4))]))

core = Z[Z.zone_type == "core"]
ccore = C[C.zone_type == "core"]
hc = counts(ccore.habitat)
add("chain", [CG, ZG, HG], {"en": ["Clip the camera traps to the core zones and count them per habitat type"],
                            "de": "Kamerafallen auf die Kernzonen zuschneiden und davon die Anzahl je Habitattyp bestimmen",
                            "zh": "把红外相机裁剪到核心区，再按生境类型统计数量"},
    Task([c_pairs("habitat", hc)], tab(pd.DataFrame({"habitat": list(hc), "n": list(hc.values())})),
         [("all traps", tab(pd.DataFrame({"habitat": list(counts(C.habitat)), "n": list(counts(C.habitat).values())})))]))
assert counts(C.habitat) != hc

lz = S[S.species == "lynx"].groupby("zone").size().to_dict()
add("chain", [SG, ZG], {"en": ["Select the lynx sightings, then count them per zone", "lynx sightings: how many in each zone?"],
                        "de": "Luchssichtungen auswählen und dann pro Zone zählen", "zh": "筛选猞猁目击记录，然后统计每个分区里有几条"},
    Task([c_pairs("name", lz)], vec(Z.assign(n=[lz.get(n, 0) for n in Z.name])),
         [("all species", vec(Z.assign(n=zn.values)))]))

sc = S[S.zone_type == "core"]
add("chain", [ZG, SG], {"en": ["Select the core zones, clip the sightings to them and save the result as GeoJSON"],
                        "de": "Kernzonen auswählen, die Sichtungen darauf zuschneiden und als GeoJSON speichern",
                        "zh": "选出核心区，用它们裁剪目击记录，结果存成GeoJSON"},
    Task([c_suffix(".geojson"), c_ids("sighting_id", sid(sc))], vec(sc, name="core_sightings.geojson"),
         [("gpkg", vec(sc)), ("all sightings", vec(S, name="s.geojson"))]))

pair_margin(C, T, 300, what="C-T 300")
ct300 = C[dist_to(C, T) <= 300]
add("chain", [TG, CG], {"en": ["Buffer the trails by 300 m, then select the camera traps inside the buffers"],
                        "de": "Wanderwege 300 m puffern, danach die Kamerafallen darin auswählen",
                        "zh": "对步道做300米缓冲，再选出落在缓冲区内的相机"},
    Task([c_ids("trap_id", tid(ct300))], vec(ct300),
         [("300 ft", vec(C[dist_to(C, T) <= 91.44])), ("outside", vec(C[dist_to(C, T) > 300]))]))

ca = C[C.active == "yes"]
add("chain", [CG], {"en": ["Select the active camera traps and reproject them to EPSG:3035",
                           "active traps only, then transform to ETRS89-LAEA (3035)"],
                    "de": "Aktive Kamerafallen selektieren und anschließend nach EPSG:3035 transformieren",
                    "zh": "筛选出在用的红外相机，然后把它们转换到EPSG:3035"},
    Task([c_crs(3035), c_ids("trap_id", tid(ca))], vec(ca, crs=3035),
         [("all reprojected", vec(C, crs=3035)), ("not reprojected", vec(ca.to_crs(4326)))]))

hd = HB.dissolve("habitat", as_index=False)
hkm = dict(zip(hd.habitat, hd.area / 1e6))
add("chain", [HG], {"en": ["Dissolve the habitats by habitat type, then calculate the area of each in km²"],
                    "de": "Habitate nach Typ zusammenführen und dann die Fläche in km² berechnen",
                    "zh": "按生境类型融合斑块，再计算每类的面积（平方公里）"},
    Task([c_len(5, "any_table"), c_pairs("habitat", hkm, rtol=0.01, kind="any_table")], vec(hd.assign(area_km2=hd.area / 1e6)),
         [("ha", vec(hd.assign(area_km2=hd.area / 1e4))), ("not dissolved", vec(HB.assign(area_km2=HB.area / 1e6)))]))

wolf = S[S.species == "wolf"]
wh = gpd.GeoDataFrame(geometry=[wolf.geometry.union_all().convex_hull], crs=UTM)
add("chain", [SG], {"en": ["Select the wolf sightings and draw their convex hull"],
                    "de": "Wolfssichtungen auswählen und eine konvexe Hülle darum legen", "zh": "选出狼的目击点，再生成它们的凸包"},
    Task([c_len(1), c_area(wh.area.sum(), 0.01)], vec(wh),
         [("all sightings", vec(gpd.GeoDataFrame(geometry=[S.geometry.union_all().convex_hull], crs=UTM)))]))

pst = P[P.staffed == "yes"]
pair_margin(C, pst, 1500, what="C-Pstaffed 1500")
n15 = n_within(C, pst, 1500)
add("chain", [PG, CG], {"en": ["Select the staffed ranger posts, buffer them by 1.5 km and count the camera traps in each buffer"],
                        "de": "Besetzte Rangerstationen auswählen, 1,5 km puffern und die Kamerafallen darin zählen",
                        "zh": "选出有人值守的护林站，做1.5公里缓冲区，然后统计每个缓冲区里的相机数"},
    Task([c_colv("post_id", n15, rtol=0, atol=0)], vec(pst.assign(geometry=pst.buffer(1500), n=n15)),
         [("all posts", vec(P.assign(geometry=P.buffer(1500), n=n_within(C, P, 1500)))),
          ("1.5 miles", vec(pst.assign(geometry=pst.buffer(2414.0), n=n_within(C, pst, 2414.0))))]))

lr = Z[Z.name == "Lynx Ridge"]
tclip = gpd.clip(T, lr)
tcross = T[T.intersects(lr.geometry.iloc[0])]
add("chain", [TG, ZG], {"en": ["Clip the trails to the Lynx Ridge zone and then compute their total length"],
                        "de": "Wege auf die Zone Lynx Ridge zuschneiden und anschließend die Länge berechnen",
                        "zh": "把步道裁剪到Lynx Ridge分区，再算一下长度"},
    Task([c_length(tclip.length.sum())], vec(tclip.assign(km=tclip.length / 1000)),
         [("not clipped", vec(tcross)), ("clipped to all zones", vec(T))]))

s25 = counts(S[S.year == 2025].species)
add("chain", [SG], {"en": ["Select the sightings from 2025, then count them per species"],
                    "de": "Sichtungen aus 2025 filtern und davon die Anzahl je Art ermitteln",
                    "zh": "先筛选2025年的目击记录，再按物种统计条数"},
    Task([c_pairs("species", s25)], tab(pd.DataFrame({"species": list(s25), "n": list(s25.values())})),
         [("all years", tab(pd.DataFrame({"species": list(sp_n), "n": list(sp_n.values())}))),
          ("2024", tab(pd.DataFrame({"species": list(counts(S[S.year == 2024].species)),
                                     "n": list(counts(S[S.year == 2024].species).values())})))]))

fvz = Z[Z.name == "Fir Valley"]
hcl = gpd.clip(HB, fvz)
hcl_ha = dict(zip(hcl.hab_id, hcl.area / 1e4))
add("chain", [HG, ZG], {"en": ["Clip the habitats to the Fir Valley zone and calculate the area of each piece in hectares"],
                        "de": "Habitate auf die Zone Fir Valley zuschneiden, dann die Fläche jedes Teils in ha berechnen",
                        "zh": "用Fir Valley分区裁剪生境图层，然后计算每块的面积（公顷）"},
    Task([c_pairs("hab_id", hcl_ha, rtol=0.01, kind="any_table"), c_len(len(hcl), "any_table")],
         vec(hcl.assign(ha=hcl.area / 1e4)),
         [("unclipped", vec(HB[HB.hab_id.isin(hcl.hab_id)])), ("m2", vec(hcl.assign(ha=hcl.area)))]))

assert not (J.images == 500).any()
j500 = J[J.images > 500]
add("chain", [CG, IG], {"en": ["Join the image table to the camera traps, then select the traps with more than 500 images"],
                        "de": "Bildtabelle an die Kamerafallen joinen und danach die Fallen mit über 500 Bildern herausfiltern",
                        "zh": "把图片表关联到红外相机上，然后选出照片数超过500张的相机"},
    Task([c_ids("trap_id", tid(j500))], vec(j500),
         [("fewer", vec(J[J.images < 500])), ("false triggers", vec(J[J.false_triggers > 50]))]))

jm = J.groupby("model").images.mean().to_dict()
add("chain", [CG, IG], {"en": ["Join the image table to the traps and then average the images per camera model"],
                        "de": "Tabelle mit den Bildzahlen an die Fallen hängen, dann den Mittelwert der Bilder je Modell",
                        "zh": "先把图片表连接到相机图层，再按型号求平均照片数"},
    Task([c_pairs("model", jm, atol=0.05)], tab(J.groupby("model", as_index=False).images.mean()),
         [("sum", tab(J.groupby("model", as_index=False).images.sum())),
          ("zeros for missing", tab(J.fillna({"images": 0}).groupby("model", as_index=False).images.mean()))]))

hd_t = T[T.difficulty == "difficult"]
add("chain", [TG], {"en": ["Select the difficult trails and save them as a shapefile named hard_trails"],
                    "de": "Die schweren Wege auswählen und als Shapefile hard_trails abspeichern",
                    "zh": "筛选出难度为difficult的步道，保存为名叫hard_trails的Shapefile"},
    Task([c_suffix("hard_trails.shp"), c_ids("trail_id", sorted(hd_t.trail_id))], vec(hd_t, name="hard_trails.shp"),
         [("all", vec(T, name="hard_trails.shp")), ("gpkg", vec(hd_t))]))

lk = T[T.name == "Lakeshore Loop"]
pair_margin(S, lk, 500, what="S-Lakeshore 500")
nlk = int((dist_to(S, lk) <= 500).sum())
add("chain", [TG, SG], {"en": ["Buffer the Lakeshore Loop by 500 m and tell me how many sightings fall inside"],
                        "de": "Den Lakeshore Loop mit 500 m puffern – wie viele Sichtungen liegen darin?",
                        "zh": "给Lakeshore Loop做500米缓冲区，里面有几条目击记录？"},
    Task([c_num(nlk)], ans(f"{nlk}"), [("all trails", ans(f"{(dist_to(S, T) <= 500).sum()}")),
                                       ("500 ft", ans(f"{(dist_to(S, lk) <= 152.4).sum()}"))]))

rd6 = S[(S.species == "red deer") & (S.individuals > 6)]
add("chain", [SG], {"en": ["Select red deer sightings with more than 6 individuals, then reproject them to WGS 84"],
                    "de": "Rotwild-Sichtungen mit mehr als 6 Tieren auswählen und diese nach WGS 84 umprojizieren",
                    "zh": "选出个体数大于6的马鹿目击记录，再转成WGS84"},
    Task([c_crs(4326), c_ids("sighting_id", sid(rd6))], vec(rd6, crs=4326),
         [(">=", vec(S[(S.species == "red deer") & (S.individuals >= 6)], crs=4326)),
          ("all red deer", vec(S[S.species == "red deer"], crs=4326))]))
assert ((S.species == "red deer") & (S.individuals == 6)).any()

hce = HB.assign(geometry=HB.centroid)
hin = hce[hce.within(core.geometry.union_all())]
hint = HB[HB.intersects(core.geometry.union_all()) & ~HB.touches(core.geometry.union_all())]
add("chain", [HG, ZG], {"en": ["Make centroids of the habitat patches, then keep the ones inside core zones"],
                        "de": "Schwerpunkte der Habitatflächen bilden und davon nur die in Kernzonen behalten",
                        "zh": "生成生境斑块的质心，然后只保留落在核心区内的"},
    Task([c_ids("hab_id", sorted(hin.hab_id)), {"output": "vector", "expect": "sorted(set(out.geom_type))", "equals": "['Point']"}],
         vec(hin), [("patches, not centroids", vec(hint)), ("outside", vec(hce[~hce.hab_id.isin(hin.hab_id)]))]))

tw = T[T.winter_open == "yes"]
pair_margin(C, tw, 800, what="C-winter 800")
cw = C[dist_to(C, tw) <= 800]
add("chain", [TG, CG], {"en": ["Select the trails open in winter, then find the camera traps within 800 m of them"],
                        "de": "Winterwege auswählen, anschließend alle Kamerafallen im Abstand bis 800 m dazu finden",
                        "zh": "先选出冬季开放的步道，再找出距离它们800米以内的相机"},
    Task([c_ids("trap_id", tid(cw))], vec(cw), [("all trails", vec(C[dist_to(C, T) <= 800])),
                                               ("800 ft", vec(C[dist_to(C, tw) <= 243.84]))]))
assert tid(C[dist_to(C, T) <= 800]) != tid(cw)

zold = Z[Z.established < 2000]
add("chain", [ZG, SG], {"en": ["Select the zones established before 2000, then count the sightings in each"],
                        "de": "Zonen, die vor 2000 ausgewiesen wurden, auswählen und darin die Sichtungen zählen",
                        "zh": "选出2000年以前设立的分区，然后统计每个分区内的目击数"},
    Task([c_len(len(zold)), c_pairs("name", {n: zn[n] for n in zold.name}, kind="vector")],
         vec(zold.assign(n=[zn[n] for n in zold.name])), [("all zones", vec(zcount))]))

cb = gpd.GeoDataFrame(geometry=[C.buffer(250).union_all()], crs=UTM)
add("chain", [CG], {"en": ["Buffer the camera traps by 250 m and dissolve the buffers into one feature"],
                    "de": "Kamerafallen 250 m puffern und die Puffer anschließend zu einem Objekt verschmelzen",
                    "zh": "对相机做250米缓冲，再把缓冲区融合成一个要素"},
    Task([c_len(1), c_area(cb.area.sum(), 0.02)], vec(cb),
         [("not dissolved", vec(C.assign(geometry=C.buffer(250)))),
          ("250 ft", vec(gpd.GeoDataFrame(geometry=[C.buffer(76.2).union_all()], crs=UTM)))]))

margin(C.elev, 1600, 10, "trap elevation vs 1600")
c16 = C[C.elev > 1600]
add("chain", [CG, DEMF], {"en": ["Sample the elevation at the camera traps, then select those above 1600 m"],
                          "de": "Höhe an den Kamerafallen auslesen und danach die über 1600 m auswählen",
                          "zh": "提取每台相机的高程，然后选出海拔1600米以上的"},
    Task([c_ids("trap_id", tid(c16))], vec(c16), [("below", vec(C[C.elev <= 1600])), ("all", vec(C))]))

ch = counts(S[S.species == "chamois"].habitat)
add("chain", [SG, HG], {"en": ["Select the chamois sightings, count them per habitat type and save the table as CSV"],
                        "de": "Gämsen-Sichtungen auswählen, je Habitattyp zählen und das Ergebnis als CSV speichern",
                        "zh": "选出岩羚羊的目击记录，按生境类型计数，再把结果表保存为CSV"},
    Task([c_pairs("habitat", ch), c_suffix(".csv", "any_table")],
         tab(pd.DataFrame({"habitat": list(ch), "n": list(ch.values())})),
         [("all species", tab(pd.DataFrame({"habitat": list(counts(S.habitat)), "n": list(counts(S.habitat).values())})))]))

margin(dist_to(S, T), 1500, 22.5, "S-T 1500")
st15 = S[dist_to(S, T) <= 1500]
add("chain", [SG, TG], {"en": ["Find the sightings within 1.5 km of a trail, then count them per species"],
                        "de": "Sichtungen im Umkreis von 1,5 km um die Wege finden und diese pro Art zählen",
                        "zh": "找出步道1.5公里范围内的目击记录，然后按物种计数"},
    Task([c_pairs("species", counts(st15.species))],
         tab(pd.DataFrame({"species": list(counts(st15.species)), "n": list(counts(st15.species).values())})),
         [("all sightings", tab(pd.DataFrame({"species": list(sp_n), "n": list(sp_n.values())}))),
          ("farther", tab(pd.DataFrame({"species": list(counts(S[dist_to(S, T) > 1500].species)),
                                        "n": list(counts(S[dist_to(S, T) > 1500].species).values())})))]))

rc = S[(S.method == "ranger") & (S.zone_type == "core")]
add("chain", [SG, ZG], {"en": ["Select the sightings reported by rangers and then keep those inside core zones"],
                        "de": "Von Rangern gemeldete Sichtungen auswählen, davon nur die in den Kernzonen",
                        "zh": "选出护林员上报的目击记录，再保留其中位于核心区的"},
    Task([c_ids("sighting_id", sid(rc))], vec(rc),
         [("all in core", vec(sc)), ("all ranger", vec(S[S.method == "ranger"]))]))

pb = P.assign(geometry=P.buffer(1000))
hb1 = gpd.overlay(HB, pb[["geometry"]], how="intersection")
hb1_ha = (hb1.assign(ha=hb1.area / 1e4).groupby("habitat").ha.sum()).to_dict()
add("chain", [PG, HG], {"en": ["Buffer the ranger posts by 1 km, clip the habitats to these buffers and then sum the area per habitat type in hectares"],
                        "de": "Rangerstationen 1 km puffern, die Habitate damit ausschneiden und danach die Fläche je Habitattyp in ha summieren",
                        "zh": "护林站做1公里缓冲区，用它裁剪生境图层，然后按生境类型汇总面积（公顷）"},
    Task([c_pairs("habitat", hb1_ha, rtol=0.02)], tab(pd.DataFrame({"habitat": list(hb1_ha), "ha": list(hb1_ha.values())})),
         [("unclipped", tab(pd.DataFrame({"habitat": list(hz), "ha": list(hz.values())}))),
          ("km2", tab(pd.DataFrame({"habitat": list(hb1_ha), "ha": [v / 100 for v in hb1_ha.values()]})))]))

vz = Z[Z.zone_type == "visitor"]
tv = gpd.clip(T, vz)
add("chain", [ZG, TG], {"en": ["Select the visitor zone, clip the trails to it and save the result as GeoJSON"],
                        "de": "Besucherzone auswählen, die Wege darauf zuschneiden und als GeoJSON exportieren",
                        "zh": "选出游憩区（visitor），用它裁剪步道，并导出为GeoJSON"},
    Task([c_suffix(".geojson"), c_length(tv.length.sum())], vec(tv, name="tv.geojson"),
         [("gpkg", vec(tv)), ("unclipped", vec(T[T.intersects(vz.geometry.iloc[0])], name="tv2.geojson"))]))

margin(zn.values, 20, 3, "zone counts vs 20")
z20 = Z[Z.name.isin(zn[zn > 20].index)]
add("chain", [SG, ZG], {"en": ["Count the sightings per zone and then show only the zones with more than 20"],
                        "de": "Sichtungen je Zone zählen und anschließend nur Zonen mit mehr als 20 anzeigen",
                        "zh": "统计每个分区的目击数，然后只显示超过20条的分区"},
    Task([c_ids("zone_id", sorted(z20.zone_id))], vec(z20.assign(n=[zn[n] for n in z20.name])),
         [("all zones", vec(zcount)), ("traps", vec(Z[Z.name.isin(cz[cz > 20].index)]))]))

t2 = T[T.km < 2]
margin(T.km, 2.0, 0.3, "trail km vs 2")
add("chain", [TG], {"en": ["Compute the length of each trail in km and then keep the ones shorter than 2 km"],
                    "de": "Länge jedes Wegs in km berechnen und danach die unter 2 km behalten",
                    "zh": "计算每条步道的长度（公里），然后保留短于2公里的"},
    Task([c_ids("trail_id", sorted(t2.trail_id))], vec(t2.assign(km=t2.km)),
         [("longer", vec(T[T.km > 2])), ("2 miles", vec(T[T.length < 2 * 1609.344]))]))
assert sorted(T[T.length < 2 * 1609.344].trail_id) != sorted(t2.trail_id)

un = counts(S[S.confirmed == "no"].method)
add("chain", [SG], {"en": ["Take the unconfirmed sightings and count them per method"],
                    "de": "Unbestätigte Sichtungen nehmen und nach Erfassungsmethode zählen",
                    "zh": "取出未确认的目击记录，再按记录方式统计数量"},
    Task([c_pairs("method", un)], tab(pd.DataFrame({"method": list(un), "n": list(un.values())})),
         [("all", tab(pd.DataFrame({"method": list(counts(S.method)), "n": list(counts(S.method).values())}))),
          ("confirmed", tab(pd.DataFrame({"method": list(counts(S[S.confirmed == 'yes'].method)),
                                          "n": list(counts(S[S.confirmed == 'yes'].method).values())})))]))


# ================================================================ more single-step
add("output_clause", [SG], {"en": ["Save the sightings as FlatGeobuf"], "de": "Sichtungen als FlatGeobuf-Datei speichern",
                            "zh": "把目击记录存成FlatGeobuf格式"},
    Task([c_suffix(".fgb"), c_len(len(S))], vec(S3, name="sightings.fgb"), [("gpkg", vec(S3))]))

add("output_clause", [ZG], {"en": ["Export the zones to a CSV file"], "de": "Zonen als CSV exportieren", "zh": "把分区导出成CSV文件"},
    Task([c_suffix(".csv", "any_table"), c_len(6, "any_table")], tab(Z.assign(wkt=Z.geometry.to_wkt())),
         [("geojson", vec(Z, name="zones.geojson"))]))

lon = P.to_crs(4326).geometry.x
add("plain", [PG], {"en": ["Add x and y coordinates in WGS 84 to the ranger posts"],
                    "de": "Den Rangerstationen X/Y-Koordinaten in WGS84 hinzufügen", "zh": "给护林站添加WGS84经纬度字段"},
    Task([c_colv("post_id", lon.values, rtol=0, atol=2e-4)], vec(P.assign(x=lon.values, y=P.to_crs(4326).geometry.y.values)),
         [("UTM coordinates", vec(P.assign(x=P.geometry.x, y=P.geometry.y)))]))

vv = gpd.GeoSeries(P.geometry.voronoi_polygons(), crs=UTM)
vor = gpd.sjoin(gpd.GeoDataFrame(geometry=vv), P[["post_id", "geometry"]], predicate="contains").drop(columns="index_right")
add("plain", [PG], {"en": ["Thiessen polygons around the ranger posts"], "de": "Voronoi-Polygone um die Rangerstationen",
                    "zh": "以护林站生成泰森多边形"},
    Task([c_ids("post_id", list(range(1, 9))), {"output": "vector", "expect": "sorted(set(out.geom_type))", "equals": "['Polygon']"}],
         vec(vor), [("traps", vec(C.assign(geometry=C.buffer(10)))), ("points kept", vec(P))]))

c22 = C[yr == 2022]
add("plain", [CG], {"en": ["Select the camera traps installed in 2022"], "de": "Kamerafallen mit Installationsjahr 2022",
                    "zh": "筛选2022年安装的相机"},
    Task([c_ids("trap_id", tid(c22))], vec(c22), [("2022 and later", vec(C[yr >= 2022])), ("before", vec(C[yr < 2022]))]))

top5 = C.sort_values("battery_pct", ascending=False).head(5)
add("plain", [CG], {"en": ["Top 5 camera traps by battery level", "the five traps with the fullest batteries"],
                    "de": "Die 5 Kamerafallen mit dem höchsten Akkustand", "zh": "电量最高的前5台相机"},
    Task([c_ids("trap_id", tid(top5))], vec(top5), [("bottom 5", vec(C.sort_values("battery_pct").head(5))), ("all", vec(C))]))

srt = S.sort_values(["individuals"], ascending=False)
add("plain", [SG], {"en": ["Sort the sightings by number of individuals, largest first"],
                    "de": "Sichtungen absteigend nach Anzahl der Individuen sortieren", "zh": "按个体数从大到小对目击记录排序"},
    Task([c_len(len(S)), {"output": "vector", "expect": "out['individuals'].astype(int).tolist()",
                          "equals": repr(srt.individuals.astype(int).tolist())}], vec(srt),
         [("ascending", vec(S.sort_values("individuals"))), ("unsorted", vec(S))]))

add("plain", [SG], {"en": ["Rename the field individuals to animal_count in the sightings"],
                    "de": "Feld individuals in animal_count umbenennen", "zh": "把目击记录的individuals字段改名为animal_count"},
    Task([{"output": "vector", "expect": "('animal_count' in out.columns, 'individuals' in out.columns)", "equals": "[True, False]"},
          c_len(len(S))], vec(S.rename(columns={"individuals": "animal_count"})),
         [("unchanged", vec(S)), ("copied", vec(S.assign(animal_count=S.individuals)))]))

add("each_per", [SG], {"en": ["number of sightings by observation method"], "de": "Sichtungen pro Erfassungsmethode zählen",
                       "zh": "按记录方式统计目击条数"},
    Task([c_pairs("method", counts(S.method))], tab(pd.DataFrame({"method": list(counts(S.method)), "n": list(counts(S.method).values())})),
         [("per species", tab(pd.DataFrame({"species": list(sp_n), "n": list(sp_n.values())}))),
          ("unconfirmed", tab(pd.DataFrame({"method": list(un), "n": list(un.values())})))]))

dm = np.array([P.distance(g).values for g in C.geometry])
order = np.sort(dm, axis=1)
clear = order[:, 1] - order[:, 0] >= 50
near = {int(t): int(P.post_id.iloc[int(np.argmin(dm[i]))]) for i, t in enumerate(C.trap_id) if clear[i]}
second = {int(t): int(P.post_id.iloc[int(np.argsort(dm[i])[1])]) for i, t in enumerate(C.trap_id)}
assert len(near) >= 35
add("each_per", [CG, PG], {"en": ["For each camera trap, find the nearest ranger post"],
                           "de": "Zu jeder Kamerafalle die nächstgelegene Rangerstation bestimmen",
                           "zh": "为每台相机找出最近的护林站"},
    Task([c_pairs("trap_id", near, kind="vector")], vec(C.assign(post_id=[int(P.post_id.iloc[int(np.argmin(r))]) for r in dm])),
         [("second nearest", vec(C.assign(post_id=[second[int(t)] for t in C.trap_id])))]))


# ================================================================ declines
def dec(cls, inputs, req, why):
    add(cls, inputs, req, why=why)


dec("not_loaded", [SG], {"en": ["Count the sightings per watershed"], "de": "Sichtungen je Einzugsgebiet zählen",
                         "zh": "按流域统计目击次数"}, "no watershed layer is loaded")
dec("not_loaded", [TG, ZG], {"en": ["Buffer the roads by 50 m", "make a 50 m buffer along the forest roads"],
                             "de": "Forststraßen mit 50 m puffern", "zh": "给道路做50米缓冲区"},
    "no road layer is loaded (trails are not roads)")
dec("not_loaded", [ZG], {"en": ["Which hunting stands are closest to the core zones?"],
                         "de": "Welche Hochsitze liegen am nächsten an den Kernzonen?", "zh": "哪些狩猎台离核心区最近？"},
    "no hunting stand layer is loaded")
dec("not_loaded", [DEMF, ZG], {"en": ["Compute the NDVI of the park"], "de": "NDVI für den Nationalpark berechnen",
                               "zh": "计算公园的NDVI"}, "only a one-band elevation model is loaded, no imagery")
dec("not_loaded", [SG], {"en": ["Join the weather station readings to the sightings"],
                         "de": "Wetterstationsdaten an die Sichtungen anhängen", "zh": "把气象站数据连接到目击记录上"},
    "no weather station data is loaded")
dec("missing_field", [SG], {"en": ["Select the sightings of females", "female animals only"],
                            "de": "Nur Sichtungen weiblicher Tiere", "zh": "筛选出雌性个体的目击记录"},
    "sightings have no sex field")
dec("missing_field", [SG], {"en": ["Mean body weight of the lynx sightings"], "de": "Durchschnittsgewicht der gesichteten Luchse",
                            "zh": "猞猁的平均体重是多少"}, "no weight field")
dec("missing_field", [TG], {"en": ["Which trail has the most visitors per year?"], "de": "Welcher Weg hat die meisten Besucher im Jahr?",
                            "zh": "哪条步道每年游客最多"}, "trails have no visitor numbers")
dec("missing_field", [CG], {"en": ["Sort the camera traps by SD card size"], "de": "Kamerafallen nach Speicherkartengröße sortieren",
                            "zh": "按SD卡容量给相机排序"}, "no SD card field")
dec("missing_field", [TG], {"en": ["Count the trails by surface type"], "de": "Wege nach Belag zählen",
                            "zh": "按路面类型统计步道数量"}, "trails have no surface field")
dec("ambiguous", [CG, PG, SG], {"en": ["Buffer the points by 500 m", "500 m buffer around the points"],
                                "de": "Die Punkte mit 500 m puffern", "zh": "给这些点做500米缓冲"},
    "three point layers are loaded (traps, posts, sightings)")
dec("ambiguous", [CG, PG], {"en": ["Show me the oldest ones"], "de": "Zeig mir die ältesten", "zh": "把最老的那些显示出来"},
    "which layer (traps installed, posts built) and how many are unclear")
dec("ambiguous", [ZG, HG], {"en": ["Which polygon is the biggest?"], "de": "Welches Polygon ist das größte?",
                            "zh": "哪个面最大？"}, "two polygon layers loaded; zones are all the same size")
dec("ambiguous", [CG], {"en": ["Buffer the camera traps by 300"], "de": "Kamerafallen um 300 puffern",
                        "zh": "相机缓冲300"}, "no unit, and the layer is in degrees")
dec("ambiguous", [ZG, SG, DEMF], {"en": ["Average the values per zone"], "de": "Mittelwert der Werte pro Zone",
                                  "zh": "按分区求平均值"}, "which values (elevation raster, individuals) is unclear")
dec("ambiguous", [TG], {"en": ["Reproject the trails to Gauss-Krüger"], "de": "Wege ins Gauß-Krüger-System umprojizieren",
                        "zh": "把步道转换成高斯-克吕格投影"}, "Gauss-Krüger has many zones/datums; no EPSG code given")
dec("open_ended", [CG, SG, ZG], {"en": ["Where should we place five new camera traps?",
                                        "suggest good spots for additional camera traps"],
                                 "de": "Wo sollten wir fünf neue Kamerafallen aufstellen?", "zh": "新增5台相机应该装在哪里比较好？"},
    "site selection needs judgement and criteria")
dec("open_ended", [SG], {"en": ["Is the wolf population in the park declining? Give me your assessment."],
                         "de": "Geht der Wolfsbestand im Park zurück? Bitte einschätzen.", "zh": "公园里的狼群数量是不是在下降？帮我评估一下"},
    "population trend assessment from opportunistic sightings needs judgement")
dec("open_ended", [TG, SG], {"en": ["Assess the impact of the trails on wildlife and recommend which to close"],
                             "de": "Bewerte den Einfluss der Wanderwege auf die Tiere und empfiehl Sperrungen",
                             "zh": "评估步道对野生动物的影响，并建议关闭哪些步道"}, "open-ended assessment")
dec("open_ended", [SG], {"en": ["Predict where the lynx will be seen next year"], "de": "Vorhersage: wo wird der Luchs nächstes Jahr gesichtet?",
                         "zh": "预测明年猞猁会在哪里出现"}, "prediction needs a model and judgement")
