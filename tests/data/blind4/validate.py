"""Validate blind set 4: schema, every check expression, and hand-built correct / wrong results.

For every answer case that has a builder below, a CORRECT result is written to files the way a tool
would (GeoPackage, GeoJSON, Shapefile, FlatGeobuf, CSV, GeoTIFF, answer text) and graded with the
bench's own `check_task`; it must pass. Each WRONG result (a plausible misreading: source CRS kept,
dissolved instead of each, roles reversed, negation dropped, top N ignored, wrong format...) must
fail at least one check. Answer cases without a builder still have every `equals` / answer
expression evaluated on the inputs.

Run: /work/main/.venv/bin/python tests/data/blind4/validate.py
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import geopandas as gpd
import pandas as pd
import shapely
import shapely.ops
import yaml

warnings.filterwarnings("ignore")

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SAMPLE = ROOT / "data" / "sample"
BDATA = HERE / "data"

_spec = importlib.util.spec_from_file_location("blind4_checkers", ROOT / "bench" / "checkers.py")
checkers = importlib.util.module_from_spec(_spec)
sys.modules["blind4_checkers"] = checkers
_spec.loader.exec_module(checkers)

LANGS = {"en": 130, "de": 50, "zh": 50}
CLASSES = {
    "plain",
    "crs_roles",
    "output_clause",
    "each_per",
    "roles",
    "negation",
    "numbers",
    "not_loaded",
    "missing_field",
    "chain",
    "open_ended",
    "typo",
}
KINDS = set(checkers.KIND_OF_OUTPUT)
CJK = r"[\u4e00-\u9fff]"


# ----------------------------------------------------------------------------- inputs
def input_path(ref: str) -> Path:
    prefix, name = ref.split(":", 1)
    return (SAMPLE if prefix == "s" else BDATA) / name


_cache: dict[Path, object] = {}


def load_input(ref: str):
    path = input_path(ref)
    if path not in _cache:
        _cache[path] = str(path) if path.suffix == ".tif" else gpd.read_file(path)
    return _cache[path]


def inputs_ns(case) -> dict:
    ns = {}
    for ref in case["inputs"]:
        value = load_input(ref)
        ns[input_path(ref).stem] = value.copy() if hasattr(value, "copy") else value
    return ns


# ----------------------------------------------------------------------------- output specs
def V(gdf, name="out.gpkg"):  # noqa: N802 - short names keep the builder table readable
    return ("vector", gdf, name)


def T(df, name="out.csv"):  # noqa: N802 - short names keep the builder table readable
    return ("table", df, name)


def A(text):  # noqa: N802 - short names keep the builder table readable
    return ("answer", text, None)


def R(path):  # noqa: N802 - short names keep the builder table readable
    return ("raster", path, None)


DRIVERS = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile", ".fgb": "FlatGeobuf"}


def write_report(specs, folder: Path) -> dict:
    outputs, answer = [], ""
    for k, (kind, obj, name) in enumerate(specs):
        if kind == "answer":
            answer = obj
            continue
        sub = folder / f"o{k}"
        sub.mkdir(parents=True, exist_ok=True)
        if kind == "vector":
            path = sub / name
            suffix = path.suffix.lower()
            if suffix == ".csv":
                pd.DataFrame(obj.drop(columns="geometry")).to_csv(path, index=False)
                outputs.append({"kind": "table", "path": str(path)})
                continue
            gdf = obj
            if suffix == ".geojson" and gdf.crs is not None and gdf.crs.to_epsg() != 4326:
                gdf = gdf.to_crs(4326)
            gdf.to_file(path, driver=DRIVERS[suffix])
            outputs.append({"kind": "vector", "path": str(path)})
        elif kind == "table":
            path = sub / name
            pd.DataFrame(obj).drop(columns="geometry", errors="ignore").to_csv(path, index=False)
            outputs.append({"kind": "table", "path": str(path)})
        elif kind == "raster":
            path = sub / Path(obj).name
            shutil.copy(obj, path)
            outputs.append({"kind": "raster", "path": str(path)})
    return {"status": "ok", "answer": answer, "outputs": outputs}


# ----------------------------------------------------------------------------- operations
def U(g):  # noqa: N802 - short names keep the builder table readable
    return g.to_crs(g.estimate_utm_crs())


def buf(g, d, dissolve=False, segs=16):
    u = U(g)
    out = u.copy()
    out["geometry"] = u.buffer(d, resolution=segs)
    if dissolve:
        out = out.dissolve().reset_index(drop=True)
    return out


def centroids(g):
    out = g.copy()
    out["geometry"] = g.centroid
    return out


def count_in(points, polys, col="NUMPOINTS"):
    pts = points.to_crs(polys.crs)
    j = gpd.sjoin(pts, polys[["geometry"]], predicate="within")
    out = polys.copy()
    out[col] = j.groupby("index_right").size().reindex(polys.index, fill_value=0).values
    return out


def with_attr_of(points, polys):
    return gpd.sjoin(points, polys.to_crs(points.crs), how="left").drop(columns="index_right")


def clip(g, mask):
    return gpd.clip(g.to_crs(mask.crs), mask)


def intersecting(g, mask):
    m = mask.to_crs(g.crs).union_all()
    return g[g.intersects(m)]


def difference(a, b):
    b = b.to_crs(a.crs)
    return gpd.overlay(a, b[["geometry"]], how="difference")


def nearest_dist(a, b, col="distance"):
    out = a.copy()
    bb = b.to_crs(a.crs)
    out[col] = [float(bb.distance(g).min()) for g in a.geometry]
    return out


def within_dist(a, b, d, far=False):
    m = b.to_crs(a.crs).union_all()
    dist = a.distance(m)
    return a[dist > d] if far else a[dist <= d]


def add_area(g, unit="ha"):
    scale = {"m2": 1.0, "ha": 1e4, "km2": 1e6, "acres": 4046.8564224}[unit]
    out = g.copy()
    out[f"area_{unit}"] = g.to_crs(6933).area / scale
    return out


def add_length(g, unit="m"):
    out = g.copy()
    out[f"length_{unit}"] = U(g).length / (1000 if unit == "km" else 1)
    return out


def group(g, by, field, how):
    s = getattr(g.groupby(by)[field], how)()
    return s.reset_index().rename(columns={field: f"{field}_{how}"})


def voronoi(points):
    region = points.total_bounds
    env = shapely.box(*region).buffer(500)
    cells = shapely.voronoi_polygons(shapely.MultiPoint(list(points.geometry)), extend_to=env)
    cells = gpd.GeoDataFrame(geometry=list(cells.geoms), crs=points.crs).clip(env)
    return gpd.sjoin(cells, points, predicate="contains").drop(columns="index_right")


def vertices(g):
    pts = g.get_coordinates(index_parts=False)
    return gpd.GeoDataFrame(pts, geometry=gpd.points_from_xy(pts.x, pts.y), crs=g.crs)


def boundary(g):
    out = g.copy()
    out["geometry"] = g.boundary
    return out


def convex_all(g):
    return gpd.GeoDataFrame(geometry=[g.union_all().convex_hull], crs=g.crs)


def hull_by(g, field):
    d = g.dropna(subset=[field]).dissolve(field).reset_index()
    d["geometry"] = d.convex_hull
    return d


def split_by_lines(polys, lines):
    ln = lines.to_crs(polys.crs).union_all()
    rows = []
    for _, r in polys.iterrows():
        parts = shapely.ops.split(r.geometry, ln).geoms
        for p in parts:
            rr = r.copy()
            rr["geometry"] = p
            rows.append(rr)
    return gpd.GeoDataFrame(rows, crs=polys.crs)


def rings(g, n, width):
    u = U(g)
    rows = []
    for _, r in u.iterrows():
        for k in range(1, n + 1):
            ring = (
                r.geometry.buffer(k * width).difference(r.geometry.buffer((k - 1) * width))
                if k > 1
                else r.geometry.buffer(width)
            )
            rr = r.copy()
            rr["geometry"] = ring
            rr["ring"] = k
            rows.append(rr)
    return gpd.GeoDataFrame(rows, crs=u.crs)


_tmp_rasters = Path(tempfile.mkdtemp(prefix="blind4_r_"))


def slope(fmt):
    from osgeo import gdal

    path = _tmp_rasters / f"slope_{fmt}.tif"
    if not path.exists():
        gdal.DEMProcessing(str(path), str(SAMPLE / "dem.tif"), "slope", slopeFormat=fmt, computeEdges=True)
    return str(path)


def contours(interval):
    from osgeo import gdal, ogr, osr

    path = _tmp_rasters / f"contours_{interval}.gpkg"
    if not path.exists():
        src = gdal.Open(str(SAMPLE / "dem.tif"))
        ds = ogr.GetDriverByName("GPKG").CreateDataSource(str(path))
        srs = osr.SpatialReference()
        srs.ImportFromWkt(src.GetProjection())
        lyr = ds.CreateLayer("contour", srs, ogr.wkbLineString)
        lyr.CreateField(ogr.FieldDefn("ID", ogr.OFTInteger))
        lyr.CreateField(ogr.FieldDefn("ELEV", ogr.OFTReal))
        gdal.ContourGenerate(src.GetRasterBand(1), float(interval), 0.0, [], 1, -9999.0, lyr, 0, 1)
        ds = None
    return gpd.read_file(path)


def reproj(name, epsg):
    return lambda n: [V(n[name].to_crs(epsg))]


def keep(name):
    return lambda n: [V(n[name])]


def filt(name, fn, fname="out.gpkg"):
    return lambda n: [V(n[name][fn(n[name])], fname)]


# ----------------------------------------------------------------------------- builders
B: dict[str, tuple] = {}


def reg(ids: str, correct, *wrongs):
    for i in ids.split():
        assert i not in B, i
        B[i] = (correct, list(wrongs))


# --- sample town, plain & typo
reg(
    "en-001",
    lambda n: [V(buf(n["bus_stops"], 150))],
    lambda n: [V(buf(n["bus_stops"], 150, True))],
    lambda n: [V(buf(n["bus_stops"], 15))],
)
reg(
    "de-001",
    lambda n: [V(buf(n["bus_stops"], 120))],
    lambda n: [V(buf(n["bus_stops"], 120, True))],
    lambda n: [V(buf(n["bus_stops"], 1200))],
)
reg("zh-001", lambda n: [V(buf(n["bus_stops"], 80))], lambda n: [V(buf(n["bus_stops"], 8))])
reg("en-132", lambda n: [V(buf(n["bus_stops"], 75))], lambda n: [V(buf(n["bus_stops"], 75, True))])
reg(
    "en-002 en-138 de-003",
    lambda n: [V(centroids(n["districts"]))],
    lambda n: [V(n["districts"])],
    lambda n: [V(vertices(n["districts"]))],
)
reg("en-003", lambda n: [T(add_length(n["roads"], "km"))], lambda n: [T(add_length(n["roads"], "m"))])
reg("zh-003", lambda n: [V(add_length(n["roads"], "m"))], lambda n: [V(add_length(n["roads"], "km"))])
reg("en-004", lambda n: [V(convex_all(n["cafes"]))], lambda n: [V(buf(n["cafes"], 1))])
reg(
    "en-005 en-136",
    lambda n: [V(n["districts"].dissolve("landuse").reset_index())],
    lambda n: [V(n["districts"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["districts"])],
)
reg("en-006", lambda n: [V(voronoi(n["schools"]))], lambda n: [V(buf(n["schools"], 100))])
reg("en-011", lambda n: [V(contours(10))], lambda n: [V(contours(20))], lambda n: [V(contours(5))])
reg("en-013", lambda n: [R(slope("percent"))], lambda n: [R(slope("degree"))])
reg("en-014", filt("countries", lambda g: g.continent == "Africa"), filt("countries", lambda g: g.continent == "Asia"))
reg(
    "de-005",
    filt("countries", lambda g: g.continent == "South America"),
    filt("countries", lambda g: g.continent == "North America"),
)
reg("zh-005", filt("countries", lambda g: g.continent == "Asia"), filt("countries", lambda g: g.continent != "Asia"))
reg(
    "en-015",
    lambda n: [A(f"The mean of value_eur is {n['houses'].value_eur.mean():.2f} EUR.")],
    lambda n: [A(f"The median of value_eur is {n['houses'].value_eur.median():.2f} EUR.")],
)

# --- blind4 plain
reg(
    "en-007",
    lambda n: [V(n["wells"].assign(lon=n["wells"].to_crs(4326).geometry.x, lat=n["wells"].to_crs(4326).geometry.y))],
    lambda n: [V(n["wells"].assign(x=n["wells"].geometry.x, y=n["wells"].geometry.y))],
)
reg(
    "en-008 zh-002",
    lambda n: [A(f"{int((n['wells'].Nutzung == 'monitoring').sum())} wells have Nutzung = monitoring.")],
    lambda n: [A(f"The layer has {len(n['wells'])} features.")],
)
reg(
    "de-002",
    lambda n: [A(f"{int((n['wells'].Nutzung == 'domestic').sum())} Brunnen.")],
    lambda n: [A(f"{int((n['wells'].Nutzung == 'irrigation').sum())} Brunnen.")],
)
reg(
    "en-009",
    lambda n: [V(n["gauges"].sort_values("mean_flow_cfs", ascending=False))],
    lambda n: [V(n["gauges"].sort_values("mean_flow_cfs"))],
)
reg(
    "en-010",
    lambda n: [V(add_area(n["subbasins"], "ha"))],
    lambda n: [V(add_area(n["subbasins"], "m2"))],
    lambda n: [V(add_area(n["subbasins"], "acres"))],
)
reg("de-004", lambda n: [T(add_area(n["subbasins"], "km2"))], lambda n: [T(add_area(n["subbasins"], "ha"))])
reg(
    "en-012",
    lambda n: [V(boundary(n["farm_parcels"]))],
    lambda n: [V(centroids(n["farm_parcels"]))],
    lambda n: [V(n["farm_parcels"])],
)
reg(
    "en-016",
    lambda n: [V(n["subbasins"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["subbasins"].dissolve("landcover").reset_index())],
)
reg(
    "zh-004",
    lambda n: [V(centroids(n["subbasins"]))],
    lambda n: [
        V(
            n["subbasins"]
            .representative_point()
            .to_frame("geometry")
            .set_geometry("geometry")
            .set_crs(n["subbasins"].crs, allow_override=True)
            .assign(k=1)
            .iloc[:6]
        )
    ],
)

# --- crs roles
for ids, layer, epsg in [
    ("en-017 en-133 zh-006 de-054 zh-052", "gauges", 3310),
    ("en-018 en-027", "wells", 2226),
    ("en-019", "farm_parcels", 4326),
    ("en-020", "streams", 32610),
    ("en-021", "cafes", 4326),
    ("en-022 de-011 zh-009", "world_cities", 3857),
    ("en-023 de-008", None, 25833),
    ("en-024", "subbasins", 4326),
    ("en-025", "gauges", 26910),
    ("en-026", "schools", 3035),
    ("en-028", "countries", 8857),
    ("en-029 zh-007", "farm_parcels", 32610),
    ("en-030", "bus_stops", 4258),
    ("de-006", "gauges", 32610),
    ("de-007", "farm_parcels", 3310),
    ("de-009", "districts", 31469),
    ("de-010 zh-010", "streams", 4326),
    ("zh-008", "schools", 4326),
    ("zh-011", "districts", 3035),
]:
    for i in ids.split():
        lyr = layer or ("districts" if i == "en-023" else "cafes")
        reg(i, reproj(lyr, epsg), keep(lyr))

# --- output clauses
reg(
    "en-031",
    lambda n: [V(buf(n["schools"], 400), "out.geojson")],
    lambda n: [V(buf(n["schools"], 400))],
    lambda n: [V(buf(n["schools"], 400, True), "out.geojson")],
)
reg("en-032 zh-012", lambda n: [V(n["wells"], "wells.csv")], lambda n: [V(n["wells"], "wells.geojson")])
reg(
    "en-033",
    filt("gauges", lambda g: g.status == "active", "gauges.shp"),
    filt("gauges", lambda g: g.status == "active"),
    lambda n: [V(n["gauges"], "gauges.shp")],
)
reg(
    "en-034",
    lambda n: [V(n["districts"].dissolve("landuse").reset_index(), "d.gpkg")],
    lambda n: [V(n["districts"].dissolve("landuse").reset_index(), "d.shp")],
)
reg("en-035", lambda n: [V(n["streams"], "streams.geojson")], lambda n: [V(n["streams"], "streams.gpkg")])
reg(
    "en-036",
    filt("cafes", lambda g: g.wifi == "yes", "wifi_cafes.geojson"),
    filt("cafes", lambda g: g.wifi == "yes", "cafes.geojson"),
    lambda n: [V(n["cafes"], "wifi_cafes.geojson")],
)
reg("en-037", lambda n: [V(n["subbasins"], "subbasins.fgb")], lambda n: [V(n["subbasins"], "subbasins.gpkg")])
reg(
    "en-038",
    lambda n: [T(n["houses"].groupby("type").size().reset_index(name="count"), "counts.csv")],
    lambda n: [V(n["houses"].dissolve("type", aggfunc={"house_id": "count"}).reset_index(), "counts.gpkg")],
    lambda n: [T(group(n["houses"], "type", "residents", "sum"), "counts.csv")],
)
reg(
    "en-039",
    lambda n: [V(n["gauges"].to_crs(3310), "gauges.shp")],
    lambda n: [V(n["gauges"], "gauges.shp")],
    lambda n: [V(n["gauges"].to_crs(3310), "gauges.gpkg")],
)
reg("en-040", lambda n: [V(n["schools"], "schools_copy.gpkg")], lambda n: [V(n["schools"], "schools.gpkg")])
reg(
    "en-041",
    lambda n: [V(within_dist(n["wells"], n["streams"], 500), "w.geojson")],
    lambda n: [V(within_dist(n["wells"], n["streams"], 500, far=True), "w.geojson")],
    lambda n: [V(within_dist(n["wells"], n["streams"], 500), "w.gpkg")],
)
reg(
    "en-042",
    filt("roads", lambda g: g["type"] == "primary", "roads.shp"),
    filt("roads", lambda g: g["type"] == "primary"),
    filt("roads", lambda g: g["type"] != "primary", "roads.shp"),
)
reg("de-012", lambda n: [V(n["schools"], "schulen.geojson")], lambda n: [V(n["schools"], "schulen.gpkg")])
reg(
    "de-013",
    filt("wells", lambda g: g.Nutzung == "municipal", "brunnen.shp"),
    filt("wells", lambda g: g.Nutzung != "municipal", "brunnen.shp"),
    filt("wells", lambda g: g.Nutzung == "municipal"),
)
reg(
    "de-014",
    lambda n: [V(buf(n["schools"], 250), "p.gpkg")],
    lambda n: [V(buf(n["schools"], 250), "p.shp")],
    lambda n: [V(buf(n["schools"], 250, True), "p.gpkg")],
)
reg("de-015", lambda n: [T(n["gauges"], "pegel.csv")], lambda n: [V(n["gauges"], "pegel.gpkg")])
reg("de-016", lambda n: [V(n["roads"], "strassen_export.geojson")], lambda n: [V(n["roads"], "roads.geojson")])
reg("zh-013", lambda n: [V(n["cafes"], "cafes.shp")], lambda n: [V(n["cafes"], "cafes.gpkg")])
reg("zh-014", lambda n: [V(n["subbasins"], "sb.geojson")], lambda n: [V(n["subbasins"], "sb.gpkg")])
reg(
    "zh-015",
    lambda n: [V(buf(n["schools"], 600), "b.gpkg")],
    lambda n: [V(buf(n["schools"], 600), "b.geojson")],
    lambda n: [V(buf(n["schools"], 60), "b.gpkg")],
)
reg(
    "zh-016",
    filt("wells", lambda g: g.Nutzung == "irrigation", "irrigation_wells.geojson"),
    filt("wells", lambda g: g.Nutzung == "irrigation", "wells.geojson"),
    lambda n: [V(n["wells"], "irrigation_wells.geojson")],
)

# --- each / per
reg(
    "en-043 zh-017",
    lambda n: [V(count_in(n["cafes"], n["districts"]))],
    lambda n: [V(with_attr_of(n["cafes"], n["districts"]))],
    lambda n: [V(n["districts"].assign(NUMPOINTS=len(n["cafes"])))],
)
reg(
    "de-017",
    lambda n: [V(count_in(n["houses"], n["districts"]))],
    lambda n: [V(with_attr_of(n["houses"], n["districts"]))],
)
reg("en-044", lambda n: [V(buf(n["schools"], 300))], lambda n: [V(buf(n["schools"], 300, True))])
reg(
    "en-045 en-135 de-018 de-052 zh-054",
    lambda n: [V(count_in(n["wells"], n["subbasins"]))],
    lambda n: [V(with_attr_of(n["wells"], n["subbasins"]))],
    lambda n: [V(count_in(n["wells"].iloc[:80], n["subbasins"]))],
)
reg(
    "en-055 zh-018",
    lambda n: [T(count_in(n["gauges"], n["subbasins"]))],
    lambda n: [V(with_attr_of(n["gauges"], n["subbasins"]))],
    lambda n: [T(count_in(n["gauges"][n["gauges"].gauge_type == "stream"], n["subbasins"]))],
)
reg(
    "en-046",
    lambda n: [T(group(n["houses"], "type", "value_eur", "mean"))],
    lambda n: [T(group(n["houses"], "type", "value_eur", "sum"))],
)
reg(
    "en-047",
    lambda n: [T(add_length(n["streams"]).groupby("Gewaesser").length_m.sum().reset_index())],
    lambda n: [T(add_length(n["streams"], "km").groupby("Gewaesser").length_km.sum().reset_index())],
    lambda n: [T(add_length(n["streams"]))],
)
reg(
    "de-021",
    lambda n: [T(add_length(n["streams"]).groupby("strahler").length_m.sum().reset_index())],
    lambda n: [T(add_length(n["streams"]).groupby("strahler").length_m.mean().reset_index())],
)
reg(
    "en-048",
    lambda n: [
        V(
            n["districts"].assign(
                residents_sum=gpd.sjoin(n["houses"], n["districts"])
                .groupby("district_id")
                .residents.sum()
                .reindex(n["districts"].district_id, fill_value=0)
                .values
            )
        )
    ],
    lambda n: [V(count_in(n["houses"], n["districts"]))],
)
reg(
    "en-049",
    lambda n: [V(hull_by(n["farm_parcels"], "crop_type"))],
    lambda n: [V(convex_all(n["farm_parcels"]))],
    lambda n: [V(n["farm_parcels"].dissolve("crop_type").reset_index())],
)
reg(
    "en-050",
    lambda n: [V(nearest_dist(n["cafes"], n["bus_stops"]))],
    lambda n: [V(nearest_dist(n["bus_stops"], n["cafes"]))],
    lambda n: [V(nearest_dist(n["cafes"], n["cafes"].iloc[::-1]))],
)
reg(
    "en-051",
    lambda n: [
        V(gpd.sjoin_nearest(n["gauges"].to_crs(32610), n["wells"], distance_col="dist").drop(columns="index_right"))
    ],
    lambda n: [V(gpd.sjoin_nearest(n["wells"], n["gauges"].to_crs(32610)).drop(columns="index_right"))],
)
reg(
    "en-052",
    lambda n: [T(group(n["districts"], "landuse", "population", "sum"))],
    lambda n: [T(group(n["districts"], "landuse", "population", "mean"))],
)
reg(
    "zh-046",
    lambda n: [V(n["districts"].dissolve("landuse", aggfunc={"population": "sum"}).reset_index())],
    lambda n: [V(n["districts"].dissolve("landuse").reset_index())],
)
reg(
    "en-053",
    lambda n: [T(group(n["wells"], "Nutzung", "nitrate_mgL", "max"))],
    lambda n: [T(group(n["wells"], "Nutzung", "nitrate_mgL", "mean"))],
)
reg("en-054", lambda n: [V(buf(n["roads"], 200))], lambda n: [V(buf(n["roads"], 200, True))])
reg(
    "de-019",
    lambda n: [T(group(n["cafes"], "wifi", "rating", "mean"))],
    lambda n: [T(group(n["cafes"], "wifi", "seats", "mean"))],
)
reg("de-020", lambda n: [V(buf(n["gauges"], 200))], lambda n: [V(buf(n["gauges"], 200, True))])
reg(
    "zh-019",
    lambda n: [T(group(n["houses"], "type", "year_built", "mean"))],
    lambda n: [T(group(n["houses"], "type", "year_built", "median"))],
)
reg("zh-020", lambda n: [V(buf(n["wells"], 100))], lambda n: [V(buf(n["wells"], 100, True))])
reg(
    "zh-021",
    lambda n: [V(nearest_dist(n["bus_stops"], n["schools"]))],
    lambda n: [V(nearest_dist(n["schools"], n["bus_stops"]))],
)


# --- roles
def dist_named(n, col, value):
    return n["districts"][n["districts"][col] == value]


reg(
    "en-056",
    lambda n: [V(clip(n["roads"], dist_named(n, "district_id", 4)))],
    lambda n: [V(clip(n["roads"], n["districts"]))],
    lambda n: [V(clip(n["districts"], n["roads"].buffer(1).to_frame("geometry")))],
)
reg(
    "en-057",
    lambda n: [V(clip(n["roads"], dist_named(n, "name", "Südhafen")))],
    lambda n: [V(intersecting(n["roads"], dist_named(n, "name", "Südhafen")))],
)
reg(
    "de-022",
    lambda n: [V(clip(n["roads"], dist_named(n, "name", "Nordend")))],
    lambda n: [V(intersecting(n["roads"], dist_named(n, "name", "Nordend")))],
)
reg(
    "en-058 de-023 zh-024",
    lambda n: [V(difference(n["subbasins"], n["farm_parcels"]))],
    lambda n: [V(difference(n["farm_parcels"], n["subbasins"].buffer(-1).to_frame("geometry")))],
    lambda n: [V(gpd.overlay(n["subbasins"], n["farm_parcels"].to_crs(3310), how="intersection"))],
)
reg(
    "en-059",
    lambda n: [V(difference(n["farm_parcels"], n["subbasins"][n["subbasins"].basinName == "Oak Knoll"]))],
    lambda n: [V(difference(n["subbasins"][n["subbasins"].basinName == "Oak Knoll"], n["farm_parcels"]))],
    lambda n: [V(n["farm_parcels"])],
)
reg(
    "en-060",
    lambda n: [V(clip(n["houses"], dist_named(n, "name", "Lindenau")))],
    lambda n: [V(intersecting(n["districts"], n["houses"]))],
    lambda n: [V(n["houses"])],
)
reg(
    "zh-022",
    lambda n: [V(clip(n["houses"], dist_named(n, "name", "Westpark")))],
    lambda n: [V(clip(n["houses"], dist_named(n, "district_id", 6)))],
)
reg(
    "en-061",
    lambda n: [V(intersecting(n["wells"], n["farm_parcels"]))],
    lambda n: [V(intersecting(n["farm_parcels"], n["wells"]))],
)
reg(
    "en-062 zh-026",
    lambda n: [V(intersecting(n["farm_parcels"], n["wells"]))],
    lambda n: [V(intersecting(n["wells"], n["farm_parcels"]))],
)
reg(
    "en-063",
    lambda n: [V(clip(n["bus_stops"], dist_named(n, "name", "Altstadt")))],
    lambda n: [V(n["bus_stops"][~n["bus_stops"].within(dist_named(n, "name", "Altstadt").union_all())])],
)
for i, col, val in [
    ("en-064", "basin_code", "SB-07"),
    ("de-026", "basinName", "Milliken"),
    ("zh-023", "basin_code", "SB-09"),
]:
    reg(
        i,
        (lambda c, v: lambda n: [V(clip(n["streams"], n["subbasins"][n["subbasins"][c] == v]))])(col, val),
        (lambda c, v: lambda n: [V(intersecting(n["streams"], n["subbasins"][n["subbasins"][c] == v]))])(col, val),
        (lambda c, v: lambda n: [V(clip(n["subbasins"], n["streams"].buffer(5).to_frame("geometry")))])(col, val),
    )
reg(
    "en-065",
    lambda n: [V(split_by_lines(n["farm_parcels"], n["streams"]))],
    lambda n: [V(n["farm_parcels"])],
    lambda n: [V(clip(n["streams"], n["farm_parcels"]))],
)
reg(
    "en-066",
    lambda n: [V(within_dist(n["cafes"], n["roads"], 50))],
    lambda n: [V(within_dist(n["cafes"], n["roads"], 50, far=True))],
    lambda n: [V(within_dist(n["roads"], n["cafes"], 50))],
)
reg(
    "en-067",
    lambda n: [V(gpd.overlay(n["streams"], n["subbasins"].to_crs(26910), how="intersection", keep_geom_type=True))],
    lambda n: [V(clip(n["streams"], n["subbasins"]))],
    lambda n: [
        V(gpd.overlay(n["subbasins"], n["streams"].to_crs(3310).buffer(1).to_frame("geometry"), how="intersection"))
    ],
)
reg(
    "en-068",
    lambda n: [V(n["districts"][n["districts"].name != "Seeviertel"])],
    lambda n: [V(n["districts"][n["districts"].name == "Seeviertel"])],
    lambda n: [V(n["districts"])],
)
reg(
    "de-024",
    lambda n: [V(with_attr_of(n["bus_stops"], n["districts"]))],
    lambda n: [V(count_in(n["bus_stops"], n["districts"]))],
)
reg(
    "de-025",
    lambda n: [V(intersecting(n["farm_parcels"], n["streams"]))],
    lambda n: [V(intersecting(n["streams"], n["farm_parcels"]))],
    lambda n: [V(clip(n["farm_parcels"], n["streams"].buffer(5).to_frame("geometry")))],
)
reg(
    "zh-025",
    lambda n: [V(intersecting(n["districts"], n["schools"]))],
    lambda n: [V(intersecting(n["schools"], n["districts"]))],
    lambda n: [V(n["districts"])],
)

# --- negation and numbers (attribute filters: correct vs the misreading)
F = {
    "en-069 de-027": ("cafes", lambda g: g.wifi == "no", lambda g: g.wifi == "yes"),
    "en-070": ("schools", lambda g: g["type"] != "primary", lambda g: g["type"] == "primary"),
    "en-071": ("wells", lambda g: g.Nutzung != "irrigation", lambda g: g.Nutzung == "irrigation"),
    "en-073 zh-028": ("gauges", lambda g: g.status != "decommissioned", lambda g: g.status == "decommissioned"),
    "en-074 zh-027": ("roads", lambda g: g["type"] != "residential", lambda g: g["type"] == "residential"),
    "en-075 en-139": ("farm_parcels", lambda g: g.irrigated == "N", lambda g: g.irrigated == "Y"),
    "en-079": ("subbasins", lambda g: g.landcover != "urban", lambda g: g.landcover == "urban"),
    "en-080": ("countries", lambda g: ~g.continent.isin(["Europe", "Asia"]), lambda g: g.continent != "Europe"),
    "zh-031": ("countries", lambda g: g.continent != "Europe", lambda g: g.continent == "Europe"),
    "en-081": ("wells", lambda g: g.owner != "private", lambda g: g.owner == "private"),
    "de-028": ("gauges", lambda g: g.status != "active", lambda g: g.status == "active"),
    "de-029": ("houses", lambda g: g["type"] != "apartment", lambda g: g["type"] == "apartment"),
    "de-030": ("wells", lambda g: g.owner != "City of Valle Verde", lambda g: g.owner == "City of Valle Verde"),
    "de-031 zh-029": ("bus_stops", lambda g: g.shelter == "no", lambda g: g.shelter == "yes"),
    "en-082": (
        "cafes",
        lambda g: g.index.isin(g.nlargest(7, "seats").index),
        lambda g: g.index.isin(g.nlargest(5, "seats").index),
    ),
    "en-083": ("houses", lambda g: g.value_eur > 450000, lambda g: g.value_eur > 450),
    "en-084": ("wells", lambda g: g.depth_ft > 750, lambda g: g.depth_ft > 750 / 0.3048),
    "en-087": ("streams", lambda g: g.strahler >= 3, lambda g: g.strahler > 3),
    "en-088": (
        "districts",
        lambda g: g.index.isin(g.nsmallest(3, "population").index),
        lambda g: g.index.isin(g.nlargest(3, "population").index),
    ),
    "en-090": ("schools", lambda g: g.students.between(800, 1100), lambda g: g.students > 800),
    "en-091": ("wells", lambda g: g.nitrate_mgL > 10, lambda g: g.nitrate_mgL >= 1),
    "en-093": ("subbasins", lambda g: g.Niederschlag_mm < 700, lambda g: g.Niederschlag_mm > 700),
    "en-094": (
        "houses",
        lambda g: (g.year_built < 1920) & (g.residents > 10),
        lambda g: (g.year_built < 1920) | (g.residents > 10),
    ),
    "en-095": (
        "wells",
        lambda g: g.index.isin(g.nsmallest(10, "yield_gpm").index),
        lambda g: g.index.isin(g.nlargest(10, "yield_gpm").index),
    ),
    "de-032": (
        "schools",
        lambda g: g.index.isin(g.nlargest(5, "students").index),
        lambda g: g.index.isin(g.nsmallest(5, "students").index),
    ),
    "de-033": ("wells", lambda g: g.depth_ft > 600, lambda g: g.depth_ft < 600),
    "de-035": ("farm_parcels", lambda g: g.assessed_usd > 2000000, lambda g: g.assessed_usd > 200000),
    "de-036": ("cafes", lambda g: g.seats >= 60, lambda g: g.seats <= 60),
    "zh-032": (
        "cafes",
        lambda g: g.index.isin(g.nlargest(3, "seats").index),
        lambda g: g.index.isin(g.nsmallest(3, "seats").index),
    ),
    "zh-033": ("wells", lambda g: g.nitrate_mgL > 12, lambda g: g.nitrate_mgL < 12),
    "zh-036": ("houses", lambda g: g.year_built < 1950, lambda g: g.year_built >= 1950),
    "en-134 zh-053": ("cafes", lambda g: g.rating > 4, lambda g: g.rating >= 3),
    "de-053": ("cafes", lambda g: g.rating > 4.5, lambda g: g.rating > 4),
    "en-137": ("streams", lambda g: g.strahler == 1, lambda g: g.strahler != 1),
    "en-140": ("schools", lambda g: g.students > 1000, lambda g: g.students < 1000),
    "zh-035": ("subbasins", lambda g: g.to_crs(6933).area > 16e6, lambda g: g.to_crs(6933).area > 16e3),
    "en-085": (
        "farm_parcels",
        lambda g: g.area > 40 * 43560 / 1.0000040000160002,
        lambda g: g.area > 40 * 4046.8564224,
    ),
}
for ids, (layer, ok, bad) in F.items():
    for i in ids.split():
        reg(i, filt(layer, ok), filt(layer, bad))

reg(
    "en-072",
    lambda n: [
        V(
            n["houses"][
                ~n["houses"].within(n["districts"][n["districts"].name.isin(["Lindenau", "Nordend"])].union_all())
            ]
        )
    ],
    lambda n: [
        V(
            n["houses"][
                n["houses"].within(n["districts"][n["districts"].name.isin(["Lindenau", "Nordend"])].union_all())
            ]
        )
    ],
)
reg(
    "en-076",
    lambda n: [V(within_dist(n["bus_stops"], n["schools"], 300, far=True))],
    lambda n: [V(within_dist(n["bus_stops"], n["schools"], 300))],
)
reg(
    "en-077",
    lambda n: [V(within_dist(n["gauges"].to_crs(26910), n["streams"], 50, far=True))],
    lambda n: [V(within_dist(n["gauges"].to_crs(26910), n["streams"], 50))],
)
reg(
    "en-078",
    lambda n: [V(n["districts"][~n["districts"].intersects(n["schools"].union_all())])],
    lambda n: [V(intersecting(n["districts"], n["schools"]))],
)
reg(
    "zh-030",
    lambda n: [V(n["wells"][~n["wells"].within(n["farm_parcels"].to_crs(32610).union_all())])],
    lambda n: [V(intersecting(n["wells"], n["farm_parcels"]))],
)
reg(
    "en-086",
    lambda n: [V(within_dist(n["bus_stops"], n["schools"][n["schools"].name == "Linden Primary School"], 1500))],
    lambda n: [V(within_dist(n["bus_stops"], n["schools"], 1500))],
    lambda n: [V(within_dist(n["bus_stops"], n["schools"][n["schools"].name == "Linden Primary School"], 150))],
)
reg(
    "de-034",
    lambda n: [V(within_dist(n["houses"], n["schools"][n["schools"].name == "Mühlen High School"], 1200))],
    lambda n: [V(within_dist(n["houses"], n["schools"][n["schools"].name == "Mühlen High School"], 12))],
)
reg(
    "zh-034",
    lambda n: [V(within_dist(n["houses"], n["schools"], 1500))],
    lambda n: [V(within_dist(n["houses"], n["schools"], 1500, far=True))],
    lambda n: [V(within_dist(n["houses"], n["schools"], 150))],
)
reg(
    "en-089",
    lambda n: [V(buf(n["gauges"], 804.672))],
    lambda n: [V(buf(n["gauges"], 500))],
    lambda n: [V(buf(n["gauges"], 804.672 / 2))],
)
reg(
    "en-092",
    lambda n: [V(rings(n["schools"], 3, 250))],
    lambda n: [V(buf(n["schools"], 250))],
    lambda n: [V(rings(n["schools"], 3, 750 / 3 * 2))],
)

# --- chains
reg(
    "en-115",
    lambda n: [V(count_in(n["houses"], buf(n["schools"], 500).to_crs(n["schools"].crs)))],
    lambda n: [V(within_dist(n["houses"], n["schools"], 500))],
    lambda n: [V(count_in(n["houses"], buf(n["schools"], 50)))],
)
reg(
    "en-116",
    lambda n: [V(n["farm_parcels"][n["farm_parcels"].crop_type == "vineyard"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["farm_parcels"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["farm_parcels"][n["farm_parcels"].crop_type == "vineyard"])],
)
reg(
    "en-117",
    lambda n: [V(buf(n["roads"][n["roads"]["type"] == "primary"], 50))],
    lambda n: [V(buf(n["roads"], 50))],
    lambda n: [V(buf(n["roads"][n["roads"]["type"] == "primary"], 50, True))],
)
reg("de-044", lambda n: [V(buf(n["roads"][n["roads"]["type"] == "primary"], 100))], lambda n: [V(buf(n["roads"], 100))])
reg(
    "en-118",
    lambda n: [V(n["wells"][n["wells"].Nutzung == "municipal"].to_crs(2226))],
    lambda n: [V(n["wells"][n["wells"].Nutzung == "municipal"])],
    lambda n: [V(n["wells"].to_crs(2226))],
)
reg(
    "en-119",
    lambda n: [V(nearest_dist(n["cafes"][n["cafes"].rating >= 4.5], n["schools"]))],
    lambda n: [V(nearest_dist(n["cafes"], n["schools"]))],
    lambda n: [
        V(nearest_dist(n["cafes"][n["cafes"].rating >= 4.5], n["bus_stops"] if "bus_stops" in n else n["cafes"]))
    ],
)
reg(
    "en-120",
    filt("gauges", lambda g: (g.status == "active") & (g.gauge_type == "stream"), "g.geojson"),
    filt("gauges", lambda g: g.status == "active", "g.geojson"),
    filt("gauges", lambda g: (g.status == "active") & (g.gauge_type == "stream"), "g.gpkg"),
)
reg(
    "en-121",
    lambda n: [V(add_area(n["districts"].dissolve("landuse").reset_index().drop(columns="area_km2"), "km2"))],
    lambda n: [V(add_area(n["districts"].drop(columns="area_km2"), "km2"))],
    lambda n: [V(add_area(n["districts"].dissolve("landuse").reset_index(), "ha"))],
)
reg(
    "de-046",
    lambda n: [V(add_area(n["districts"].dissolve("landuse").reset_index(), "ha"))],
    lambda n: [V(add_area(n["districts"].dissolve("landuse").reset_index(), "m2"))],
)
reg(
    "en-122",
    lambda n: [V(centroids(n["subbasins"]).to_crs(4326))],
    lambda n: [V(centroids(n["subbasins"]))],
    lambda n: [V(n["subbasins"].to_crs(4326))],
)
reg(
    "en-123",
    lambda n: [A(f"Mean value_eur: {clip(n['houses'], dist_named(n, 'name', 'Westpark')).value_eur.mean():.1f}")],
    lambda n: [A(f"Mean value_eur: {n['houses'].value_eur.mean():.1f}")],
)
reg(
    "en-124",
    lambda n: [V(within_dist(n["wells"], n["streams"], 30))],
    lambda n: [V(within_dist(n["wells"], n["streams"], 300))],
    lambda n: [V(buf(n["streams"], 30))],
)
reg(
    "de-045",
    lambda n: [V(n["farm_parcels"][n["farm_parcels"].irrigated == "Y"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["farm_parcels"][n["farm_parcels"].irrigated == "N"].dissolve().reset_index(drop=True))],
    lambda n: [V(n["farm_parcels"][n["farm_parcels"].irrigated == "Y"])],
)
reg(
    "de-047",
    lambda n: [V(n["gauges"][n["gauges"].status == "active"].to_crs(32610))],
    lambda n: [V(n["gauges"].to_crs(32610))],
    lambda n: [V(n["gauges"][n["gauges"].status == "active"])],
)
reg(
    "zh-044",
    lambda n: [V(buf(n["cafes"][n["cafes"].wifi == "yes"], 200))],
    lambda n: [V(buf(n["cafes"], 200))],
    lambda n: [V(buf(n["cafes"][n["cafes"].wifi == "yes"], 200, True))],
)
reg(
    "zh-045",
    lambda n: [V(add_area(n["farm_parcels"].to_crs(32610), "ha"))],
    lambda n: [V(add_area(n["farm_parcels"], "ha"))],
    lambda n: [V(n["farm_parcels"].to_crs(32610).assign(area_ha=n["farm_parcels"].area / 1e4))],
)
reg(
    "zh-047",
    lambda n: [V(buf(n["streams"][n["streams"].strahler >= 2], 50))],
    lambda n: [V(buf(n["streams"][n["streams"].strahler > 2], 50))],
    lambda n: [V(buf(n["streams"][n["streams"].strahler >= 2], 50, True))],
)

# --- typos that reuse earlier builders
reg("de-051", lambda n: [V(buf(n["schools"], 300))], lambda n: [V(buf(n["schools"], 30))])
reg("zh-051", lambda n: [V(buf(n["schools"], 500))], lambda n: [V(buf(n["schools"], 500, True))])


# --- other correct shapes a tool may well produce (QGIS-like 5-segment buffers, tables instead of
# layers, rounded values, empty geometries kept, results in another CRS): these must pass too
ALT: dict[str, list] = {}


def alt(ids: str, *builders):
    for i in ids.split():
        ALT.setdefault(i, []).extend(builders)


def _empty_seeviertel(n):
    d = n["districts"].copy()
    d.loc[d.name == "Seeviertel", "geometry"] = None
    return d


alt("en-001", lambda n: [V(buf(n["bus_stops"], 150, segs=5).to_crs(4326), "b.geojson")])
alt("en-115", lambda n: [V(count_in(n["houses"], buf(n["schools"], 500, segs=5)))])
alt("en-068", lambda n: [V(_empty_seeviertel(n))])
alt("en-043 zh-017", lambda n: [T(count_in(n["cafes"], n["districts"]))])
alt("en-003", lambda n: [V(add_length(n["roads"], "km").round(3), "roads.geojson")])
alt(
    "en-050",
    lambda n: [V(gpd.sjoin_nearest(n["cafes"], n["bus_stops"], distance_col="distance").drop(columns="index_right"))],
)
alt(
    "en-121",
    lambda n: [V(n["districts"].dissolve("landuse").reset_index().assign(area_km2=lambda d: (d.area / 1e6).round(3)))],
)
alt("en-058 zh-024 de-023", lambda n: [V(difference(n["subbasins"], n["farm_parcels"]).to_crs(2226))])
alt("zh-019", lambda n: [T(group(n["houses"], "type", "year_built", "mean").round(1))])
alt("de-019", lambda n: [T(group(n["cafes"], "wifi", "rating", "mean").round(2))])
alt(
    "en-044 en-054",
    lambda n: [V(buf(n["schools" if "schools" in n else "roads"], 300 if "schools" in n else 200, segs=5))],
)
alt("en-092", lambda n: [V(pd.concat([buf(n["schools"], 250 * k, segs=5).assign(ring=k) for k in (1, 2, 3)]))])
alt("en-009", lambda n: [V(n["gauges"].sort_values("mean_flow_cfs", ascending=False, na_position="first"))])
alt("en-013", lambda n: [R(_qgis_like_slope())])


def _qgis_like_slope():
    from osgeo import gdal

    path = _tmp_rasters / "slope_percent_noedges.tif"
    if not path.exists():
        gdal.DEMProcessing(str(path), str(SAMPLE / "dem.tif"), "slope", slopeFormat="percent")
    return str(path)


# ----------------------------------------------------------------------------- schema
def check_schema(cases, lang, errors):
    for c in cases:
        cid = c.get("id", "?")
        for key in ("id", "lang", "class", "request", "inputs", "expect"):
            if key not in c:
                errors.append(f"{cid}: missing {key}")
        if not re.fullmatch(rf"{lang}-\d{{3}}", str(cid)):
            errors.append(f"{cid}: bad id for {lang}")
        if c.get("lang") != lang:
            errors.append(f"{cid}: lang {c.get('lang')} in the {lang} file")
        if c.get("class") not in CLASSES:
            errors.append(f"{cid}: class {c.get('class')}")
        if c.get("expect") not in ("answer", "decline"):
            errors.append(f"{cid}: expect {c.get('expect')}")
        for ref in c.get("inputs") or []:
            if not re.fullmatch(r"[sb]:[\w.]+", ref) or not input_path(ref).exists():
                errors.append(f"{cid}: input {ref}")
        if not c.get("inputs"):
            errors.append(f"{cid}: no inputs")
        stems = [input_path(r).stem for r in c.get("inputs") or []]
        if len(stems) != len(set(stems)):
            errors.append(f"{cid}: two inputs share a stem")
        if c.get("expect") == "decline" and c.get("checks"):
            errors.append(f"{cid}: a decline case has checks")
        if c.get("expect") == "answer":
            if not c.get("checks"):
                errors.append(f"{cid}: an answer case without checks")
            for ch in c.get("checks") or []:
                if "answer_number" in ch or "answer_contains" in ch:
                    continue
                if ch.get("output") not in KINDS:
                    errors.append(f"{cid}: output kind {ch.get('output')}")
                forms = [k for k in ("crs", "suffix", "expect") if k in ch]
                if len(forms) != 1:
                    errors.append(f"{cid}: check needs exactly one of crs/suffix/expect: {ch}")
                if "expect" in ch and "equals" not in ch:
                    errors.append(f"{cid}: expect without equals")
                if "suffix" in ch and ch["suffix"] != ch["suffix"].lower():
                    errors.append(f"{cid}: suffix must be lower case (the checker lower-cases the path)")
                if "crs" in ch and not isinstance(ch["crs"], int):
                    errors.append(f"{cid}: crs must be an EPSG integer")
                for tol in ("rel", "abs"):
                    if tol in ch and not isinstance(ch[tol], (int, float)):
                        errors.append(f"{cid}: {tol} not a number")
        if lang == "zh" and re.search(rf"{CJK} {CJK}", c.get("request", "")):
            errors.append(f"{cid}: space between Chinese characters")


def eval_static(case, errors):
    """Evaluate every expression that does not need `out` on the inputs."""
    ns = checkers._namespace(inputs_ns(case), {"answer": ""})
    for ch in case.get("checks") or []:
        for key in ("equals", "answer_number", "answer_contains"):
            if key in ch:
                try:
                    eval(ch[key], ns)  # noqa: S307
                except Exception as exc:  # noqa: BLE001
                    errors.append(f"{case['id']}: {key} {ch[key]!r}: {type(exc).__name__}: {exc}")


def main() -> int:
    errors: list[str] = []
    all_cases = []
    for lang in LANGS:
        cases = yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8"))
        check_schema(cases, lang, errors)
        if len(cases) < LANGS[lang]:
            errors.append(f"{lang}: only {len(cases)} cases (need {LANGS[lang]})")
        all_cases += cases
    ids = Counter(c["id"] for c in all_cases)
    errors += [f"duplicate id {i}" for i, k in ids.items() if k > 1]
    reqs = Counter(c["request"] for c in all_cases)
    errors += [f"duplicate request {r!r}" for r, k in reqs.items() if k > 1]
    unknown = set(B) - set(ids)
    errors += [f"builder for unknown case {i}" for i in sorted(unknown)]

    answer = [c for c in all_cases if c.get("expect") == "answer"]
    validated = 0
    wrong_total = 0
    alt_total = 0
    tmp = Path(tempfile.mkdtemp(prefix="blind4_"))
    for c in answer:
        eval_static(c, errors)
        if c["id"] not in B:
            continue
        correct, wrongs = B[c["id"]]
        ns = inputs_ns(c)
        task = {"id": c["id"], "checks": c["checks"]}
        try:
            report = write_report(correct(ns), tmp / c["id"] / "correct")
            res = checkers.check_task(task, report, inputs_ns(c))
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{c['id']}: correct builder failed: {type(exc).__name__}: {exc}")
            continue
        if not res.passed:
            errors.append(f"{c['id']}: CORRECT result fails: {res.failures}")
            continue
        for k, other in enumerate(ALT.get(c["id"], [])):
            try:
                report = write_report(other(inputs_ns(c)), tmp / c["id"] / f"alt{k}")
                res = checkers.check_task(task, report, inputs_ns(c))
            except Exception as exc:  # noqa: BLE001
                errors.append(f"{c['id']}: alternative correct builder {k} failed: {type(exc).__name__}: {exc}")
                continue
            alt_total += 1
            if not res.passed:
                errors.append(f"{c['id']}: alternative CORRECT result {k} fails: {res.failures}")
        if not wrongs:
            errors.append(f"{c['id']}: no wrong result")
        ok = True
        for k, wrong in enumerate(wrongs):
            try:
                report = write_report(wrong(inputs_ns(c)), tmp / c["id"] / f"wrong{k}")
            except Exception as exc:  # noqa: BLE001
                errors.append(f"{c['id']}: wrong builder {k} failed: {type(exc).__name__}: {exc}")
                ok = False
                continue
            res = checkers.check_task(task, report, inputs_ns(c))
            wrong_total += 1
            if res.passed:
                errors.append(f"{c['id']}: WRONG result {k} passes every check")
                ok = False
        validated += ok
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(_tmp_rasters, ignore_errors=True)

    by = Counter((c["lang"], c["class"]) for c in all_cases)
    print("cases:", len(all_cases), dict(Counter(c["lang"] for c in all_cases)))
    print("answer:", len(answer), "decline:", len(all_cases) - len(answer))
    for lang in LANGS:
        print(f"  {lang}:", ", ".join(f"{cl} {by[(lang, cl)]}" for cl in sorted(CLASSES) if by[(lang, cl)]))
    share = validated / len(answer)
    print(
        f"validated with correct+wrong results: {validated}/{len(answer)} answer cases ({share:.0%}), "
        f"{wrong_total} wrong results all rejected, {alt_total} alternative correct results accepted"
        if not errors
        else ""
    )
    if share < 0.6:
        errors.append(f"only {share:.0%} of answer cases validated")
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
