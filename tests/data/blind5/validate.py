"""Validate blind set 5: schema of every case, and every check against hand-built results.

For every `expect: answer` case this builds one CORRECT result (files written to a temp folder and a
run report like the bench's) and one or more plausible WRONG results, and grades each with
bench/checkers.py's check_task: the correct one must pass, every wrong one must fail at least one
check. Decline cases must have no checks.

Run:  /work/main/.venv/bin/python tests/data/blind5/validate.py
"""

from __future__ import annotations

import math
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import geopandas as gpd
import numpy as np
import pandas as pd
import shapely
import yaml
from shapely.geometry import box
from shapely.ops import split as shp_split

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SAMPLE = ROOT / "data" / "sample"
BLIND = HERE / "data"
sys.dont_write_bytecode = True
warnings.filterwarnings("ignore")
sys.path.insert(0, str(ROOT / "bench"))
from checkers import check_task, utm  # noqa: E402

LANGS = ("en", "de", "zh")
CLASSES = {
    "plain", "crs_roles", "output_clause", "each_per", "roles", "negation", "numbers", "not_loaded",
    "missing_field", "chain", "open_ended", "typo",
}
MINIMUM = {"en": 130, "de": 50, "zh": 50}
CHECK_KEYS = {"output", "crs", "suffix", "expect", "equals", "rel", "abs", "answer_number", "answer_contains"}


# ------------------------------------------------------------------ inputs
def input_path(ref: str) -> Path:
    prefix, name = ref.split(":", 1)
    return (SAMPLE if prefix == "s" else BLIND) / name


def load_input(ref: str):
    path = input_path(ref)
    if path.suffix == ".tif":
        return str(path)
    return gpd.read_file(path)


ALL_REFS = [f"s:{f}" for f in ("bus_stops.gpkg", "cafes.gpkg", "countries.geojson", "districts.gpkg",
                               "houses.gpkg", "roads.gpkg", "schools.gpkg", "world_cities.geojson", "dem.tif")]
ALL_REFS += [f"b:{f}.gpkg" for f in ("substations", "power_lines", "outages", "service_areas", "waldbrand_zonen")]
L = {Path(r.split(":", 1)[1]).stem: load_input(r) for r in ALL_REFS}
bus_stops, cafes, countries, districts = L["bus_stops"], L["cafes"], L["countries"], L["districts"]
houses, roads, schools, world_cities, dem = L["houses"], L["roads"], L["schools"], L["world_cities"], L["dem"]
substations, power_lines, outages = L["substations"], L["power_lines"], L["outages"]
service_areas, waldbrand_zonen = L["service_areas"], L["waldbrand_zonen"]
sub_m = substations.to_crs(32613)
pl_m = power_lines.to_crs(32613)
wz_m = waldbrand_zonen.to_crs(32613)


# ------------------------------------------------------------------ results
class Result:
    """What a run produced: output files (kind, GeoDataFrame/DataFrame/text, file name) and an answer."""

    def __init__(self, outputs=(), answer="Done."):
        self.outputs = list(outputs)
        self.answer = answer

    def report(self, folder: Path) -> dict:
        outs = []
        for k, (kind, obj, name) in enumerate(self.outputs):
            sub = folder / str(k)
            sub.mkdir(parents=True, exist_ok=True)
            path = sub / name
            if kind == "vector":
                suffix = path.suffix.lower()
                driver = {".gpkg": "GPKG", ".geojson": "GeoJSON", ".shp": "ESRI Shapefile"}[suffix]
                obj.to_file(path, driver=driver)
            elif kind == "table":
                df = obj
                if isinstance(df, gpd.GeoDataFrame):
                    df = pd.DataFrame(df.drop(columns="geometry")).assign(wkt=df.geometry.to_wkt())
                df.to_csv(path, index=False)
            elif kind == "image":
                import matplotlib

                matplotlib.use("Agg")
                import matplotlib.pyplot as plt

                fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
                obj.plot(ax=ax)
                fig.savefig(path)
                plt.close(fig)
            elif kind == "html":
                path.write_text(obj, encoding="utf-8")
            elif kind == "raster":
                path = Path(obj)
            outs.append({"kind": kind, "path": str(path)})
        return {"status": "ok", "outputs": outs, "answer": self.answer}


def in_degrees(result: Result) -> Result:
    """The same result with every vector output reprojected to EPSG:4326 (a CRS the request did not ask for)."""
    outs = [(k, o.to_crs(4326) if k == "vector" and getattr(o, "crs", None) is not None else o, n)
            for k, o, n in result.outputs]
    return Result(outs, result.answer)


def V(gdf, name="result.gpkg", answer="Done."):
    if name.lower().endswith(".csv"):
        return Result([("table", gdf, name)], answer)
    return Result([("vector", gdf, name)], answer)


def T(df, name="result.csv", answer="Done."):
    return Result([("table", df, name)], answer)


def A(text):
    return Result([], text)


def IMG(gdf, name="map.png"):
    return Result([("image", gdf, name)])


def HTML(text, name="table.html"):
    return Result([("html", text, name)])


def RAS(path):
    return Result([("raster", path, Path(path).name)])


# ------------------------------------------------------------------ operations
def buf(gdf, d, quad=8, dissolve=False):
    x = utm(gdf).copy()
    x["geometry"] = x.buffer(d, resolution=quad)
    return x.dissolve().reset_index(drop=True) if dissolve else x


def reproj(gdf, epsg):
    return gdf.to_crs(epsg)


def assign(gdf, epsg):
    return gdf.set_crs(epsg, allow_override=True)


def centroids(gdf):
    x = gdf.copy()
    x["geometry"] = gdf.centroid
    return x


def surface_pts(gdf):
    x = gdf.copy()
    x["geometry"] = gdf.representative_point()
    return x


def count_in(polys, pts, field="NUMPOINTS", predicate="within"):
    pts = pts.to_crs(polys.crs)
    j = gpd.sjoin(pts[["geometry"]], polys[["geometry"]], predicate=predicate)
    out = polys.copy()
    out[field] = j.groupby("index_right").size().reindex(polys.index, fill_value=0).astype(int)
    return out


def stats_by(gdf, by, field, how):
    return gdf.groupby(by)[field].agg(how).reset_index()


def length_field(gdf, unit="km", metres=True):
    x = gdf.copy()
    lengths = utm(gdf).length if metres else gdf.length
    x[f"length_{unit}"] = lengths / {"km": 1000, "m": 1, "mi": 1609.344}[unit]
    return x


def area_field(gdf, unit="ha", factor=None):
    x = gdf.copy()
    a = gdf.to_crs(6933).area if gdf.crs.is_geographic else gdf.area
    x[f"area_{unit}"] = a / (factor or {"ha": 1e4, "km2": 1e6, "m2": 1}[unit])
    return x


def dissolve(gdf, by=None):
    return (gdf.dissolve(by) if by else gdf.dissolve()).reset_index()


def clip(gdf, mask):
    return gpd.clip(gdf, mask.to_crs(gdf.crs))


def difference(a, b):
    return gpd.overlay(a, b.to_crs(a.crs)[["geometry"]], how="difference")


def intersection(a, b):
    return gpd.overlay(a, b.to_crs(a.crs), how="intersection")


def within_dist(a, b, d, inverse=False):
    am = utm(a)
    dist = am.distance(b.to_crs(am.crs).union_all())
    return a[dist > d] if inverse else a[dist <= d]


def intersecting(a, b, inverse=False):
    hit = a.intersects(b.to_crs(a.crs).union_all())
    return a[~hit] if inverse else a[hit]


def grid(gdf, size):
    x0, y0, x1, y1 = gdf.total_bounds
    cells = [box(x, y, x + size, y + size) for x in np.arange(x0, x1, size) for y in np.arange(y0, y1, size)]
    return gpd.GeoDataFrame({"id": range(len(cells))}, geometry=cells, crs=gdf.crs)


def voronoi(gdf):
    env = box(*gdf.total_bounds).buffer(500)
    cells = shapely.voronoi_polygons(shapely.MultiPoint(list(gdf.geometry)), extend_to=env)
    polys = gpd.GeoDataFrame(geometry=[c.intersection(env) for c in cells.geoms], crs=gdf.crs)
    return gpd.sjoin(polys, gdf, predicate="contains").drop(columns="index_right")


def delaunay(gdf):
    tris = shapely.delaunay_triangles(shapely.MultiPoint(list(gdf.geometry)))
    return gpd.GeoDataFrame(geometry=list(tris.geoms), crs=gdf.crs)


def vertices(gdf):
    rows = []
    for idx, geom in zip(gdf.index, gdf.geometry):
        for xy in shapely.get_coordinates(geom):
            rows.append((idx, shapely.Point(xy)))
    x = gdf.drop(columns="geometry").loc[[r[0] for r in rows]].reset_index(drop=True)
    return gpd.GeoDataFrame(x, geometry=[r[1] for r in rows], crs=gdf.crs)


def endpoints(gdf):
    x = pd.concat([gdf.assign(geometry=gdf.geometry.apply(lambda g: shapely.Point(g.coords[0]))),
                   gdf.assign(geometry=gdf.geometry.apply(lambda g: shapely.Point(g.coords[-1])))])
    return gpd.GeoDataFrame(x, crs=gdf.crs)


def coords_table(gdf):
    return pd.DataFrame(shapely.get_coordinates(gdf.geometry.values), columns=["x", "y"])


def hull(gdf, by=None):
    if by is None:
        return gpd.GeoDataFrame(geometry=[gdf.union_all().convex_hull], crs=gdf.crs)
    rows = [(k, g.union_all().convex_hull) for k, g in gdf.groupby(by)]
    return gpd.GeoDataFrame({by: [r[0] for r in rows]}, geometry=[r[1] for r in rows], crs=gdf.crs)


def envelopes(gdf):
    return gdf.assign(geometry=gdf.envelope)


def rings(gdf, n, step):
    parts = []
    for k in range(1, n + 1):
        outer = gdf.buffer(k * step)
        inner = gdf.buffer((k - 1) * step) if k > 1 else None
        ring = outer if inner is None else outer.difference(inner)
        parts.append(gdf.assign(geometry=ring, ring=k))
    return gpd.GeoDataFrame(pd.concat(parts, ignore_index=True), crs=gdf.crs)


def split_polys(polys, lines):
    lines_u = lines.to_crs(polys.crs).union_all()
    rows = []
    for _, row in polys.iterrows():
        for piece in shp_split(row.geometry, lines_u).geoms:
            rows.append({**row.drop("geometry").to_dict(), "geometry": piece})
    return gpd.GeoDataFrame(rows, crs=polys.crs)


def nearest_join(a, b, cols):
    b = b.to_crs(a.crs)[cols + ["geometry"]]
    return gpd.sjoin_nearest(a, b, distance_col="distance").drop(columns="index_right")


def dist_to_nearest(a, b):
    am = utm(a)
    return a.assign(dist_m=am.distance(b.to_crs(am.crs).union_all()).values)


def slope(fmt="degree"):
    from osgeo import gdal

    path = Path(tempfile.mkdtemp()) / f"slope_{fmt}.tif"
    gdal.DEMProcessing(str(path), dem, "slope", slopeFormat=fmt, computeEdges=True)
    return str(path)


def html_of(gdf):
    return pd.DataFrame(gdf.drop(columns="geometry")).to_html()


def sa_counts():
    return count_in(service_areas, outages)


def district_house_counts():
    return count_in(districts, houses)


TOTAL_ONLY = T(pd.DataFrame({"count": [1]}))

# ------------------------------------------------------------------ solutions: id -> (correct, [wrong, ...])
STORMS = int((outages["ursache"] == "storm").sum())
S = {
    # ---- en plain
    "en-001": (lambda: V(buf(cafes, 250)), [lambda: V(buf(cafes, 25)), lambda: V(buf(cafes, 250, dissolve=True))]),
    "en-002": (lambda: A(f"{STORMS} outages were caused by storm."), [lambda: A("There are 160 outages.")]),
    "en-003": (lambda: V(reproj(substations, 32613)),
               [lambda: V(substations), lambda: V(reproj(substations, 32633)), lambda: V(reproj(substations, 26913))]),
    "en-004": (lambda: V(length_field(power_lines, "km")),
               [lambda: V(length_field(power_lines, "km", metres=False)),
                lambda: V(length_field(power_lines, "m"))]),
    "en-005": (lambda: V(dissolve(service_areas, "gebietstyp")),
               [lambda: V(dissolve(service_areas)), lambda: V(service_areas)]),
    "en-006": (lambda: V(centroids(waldbrand_zonen)),
               [lambda: V(surface_pts(waldbrand_zonen)), lambda: V(vertices(waldbrand_zonen))]),
    "en-007": (lambda: V(hull(cafes)), [lambda: V(envelopes(gpd.GeoDataFrame(geometry=[cafes.union_all()], crs=cafes.crs))),
                                        lambda: V(cafes.assign(geometry=cafes.convex_hull))]),
    "en-008": (lambda: V(schools[schools["students"] > 1000]),
               [lambda: V(schools[schools["students"] < 1000]), lambda: V(schools)]),
    "en-009": (lambda: V(voronoi(bus_stops)), [lambda: V(delaunay(bus_stops)), lambda: V(buf(bus_stops, 300))]),
    "en-010": (lambda: V(area_field(districts, "ha")),
               [lambda: V(area_field(districts, "ha", factor=1)), lambda: V(area_field(districts, "ha", factor=1e6))]),
    "en-011": (lambda: V(substations[substations["status"] == "standby"]),
               [lambda: V(substations[substations["status"] == "active"]), lambda: V(substations)]),
    "en-012": (lambda: V(vertices(power_lines)), [lambda: V(endpoints(power_lines)), lambda: V(centroids(power_lines))]),
    "en-013": (lambda: A(f"Total kunden: {int(service_areas['kunden'].sum())}"),
               [lambda: A(f"Mean kunden: {service_areas['kunden'].mean():.1f}"), lambda: A("There are 12 service areas.")]),
    "en-014": (lambda: A("The mean elevation is 159.69 m."), [lambda: A("The maximum elevation is 227.34 m.")]),
    "en-015": (lambda: RAS(slope("degree")), [lambda: RAS(slope("percent")), lambda: RAS(dem)]),
    "en-016": (lambda: V(grid(districts, 500)), [lambda: V(grid(districts, 1000)), lambda: V(grid(districts, 50))]),
    # ---- en crs_roles
    "en-017": (lambda: V(reproj(cafes, 4326)), [lambda: V(cafes), lambda: V(assign(cafes, 4326))]),
    "en-018": (lambda: V(reproj(outages, 4326)), [lambda: V(outages), lambda: V(assign(outages, 4326))]),
    "en-019": (lambda: V(reproj(power_lines, 26913)),
               [lambda: V(power_lines), lambda: V(reproj(power_lines, 32613)), lambda: V(assign(power_lines, 26913))]),
    "en-020": (lambda: V(assign(outages, 26913)),
               [lambda: V(outages), lambda: V(assign(outages.to_crs(4326), 26913))]),
    "en-021": (lambda: V(reproj(world_cities, 3857)), [lambda: V(world_cities), lambda: V(reproj(world_cities, 3395))]),
    "en-022": (lambda: V(reproj(countries, 8857)), [lambda: V(countries), lambda: V(reproj(countries, 3857))]),
    "en-023": (lambda: V(reproj(districts, 3035)), [lambda: V(districts), lambda: V(assign(districts, 3035))]),
    "en-024": (lambda: V(reproj(service_areas, 2232)),
               [lambda: V(service_areas), lambda: V(reproj(service_areas, 2231)), lambda: V(reproj(service_areas, 26954))]),
    "en-025": (lambda: V(reproj(substations, 2232)), [lambda: V(substations), lambda: V(reproj(substations, 2231))]),
    "en-026": (lambda: V(reproj(roads, 4326)), [lambda: V(reproj(countries, 32633)), lambda: V(roads)]),
    "en-027": (lambda: V(reproj(outages, 2232)), [lambda: V(reproj(power_lines, 32613)), lambda: V(outages)]),
    "en-028": (lambda: V(reproj(houses, 25833)), [lambda: V(houses), lambda: V(reproj(houses, 25832))]),
    "en-029": (lambda: V(reproj(waldbrand_zonen, 4326)),
               [lambda: V(waldbrand_zonen), lambda: V(assign(waldbrand_zonen, 4326)), lambda: V(reproj(waldbrand_zonen, 4269))]),
    "en-030": (lambda: V(reproj(bus_stops, 31468)), [lambda: V(bus_stops), lambda: V(reproj(bus_stops, 31467))]),
    # ---- en output_clause
    "en-031": (lambda: V(buf(schools, 300), "schools_buffer.geojson"),
               [lambda: V(buf(schools, 300), "schools_buffer.gpkg"), lambda: V(buf(schools, 30), "schools_buffer.geojson")]),
    "en-032": (lambda: V(cafes[cafes["wifi"] == "yes"], "wifi_cafes.csv"),
               [lambda: V(cafes[cafes["wifi"] == "yes"], "result.csv"), lambda: V(cafes, "wifi_cafes.csv"),
                lambda: V(cafes[cafes["wifi"] == "yes"], "wifi_cafes.gpkg"),
                lambda: V(cafes[cafes["wifi"] == "no"], "wifi_cafes.csv")]),
    "en-033": (lambda: V(substations, "substations.shp"), [lambda: V(substations, "substations.gpkg")]),
    "en-034": (lambda: V(centroids(service_areas), "service_centroids.geojson"),
               [lambda: V(centroids(service_areas), "service_areas_centroids.gpkg"),
                lambda: V(service_areas, "service_centroids.geojson")]),
    "en-035": (lambda: V(outages[outages["severity"] == "high"], "high_outages.gpkg"),
               [lambda: V(outages[outages["severity"] == "high"], "outages_filtered.gpkg"),
                lambda: V(outages, "high_outages.gpkg")]),
    "en-036": (lambda: V(power_lines, "power_lines.geojson"), [lambda: V(power_lines, "power_lines.gpkg")]),
    "en-037": (lambda: V(dissolve(districts, "landuse"), "landuse_dissolved.shp"),
               [lambda: V(dissolve(districts, "landuse"), "landuse_dissolved.gpkg"),
                lambda: V(dissolve(districts, "landuse"), "districts_dissolve.shp"),
                lambda: V(dissolve(districts), "landuse_dissolved.shp")]),
    "en-038": (lambda: T(coords_table(roads), "roads_vertices.csv"),
               [lambda: T(coords_table(centroids(roads)), "roads_vertices.csv"), lambda: V(vertices(roads))]),
    "en-039": (lambda: V(count_in(districts, bus_stops), "bus_stops_per_district.csv"),
               [lambda: V(count_in(districts, bus_stops)), lambda: T(pd.DataFrame({"count": [60]}))]),
    "en-040": (lambda: V(reproj(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] == 4], 4326), "zones4.geojson"),
               [lambda: V(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] == 4], "zones4.geojson"),
                lambda: V(reproj(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] == 4], 4326), "zones4.gpkg"),
                lambda: V(reproj(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] >= 3], 4326), "zones4.geojson")]),
    "en-041": (lambda: V(cafes, "cafes_copy.gpkg"), [lambda: V(cafes, "cafes.gpkg"), lambda: V(cafes, "cafes_copy.geojson")]),
    "en-042": (lambda: IMG(districts), [lambda: V(districts)]),
    "en-043": (lambda: HTML(html_of(substations)), [lambda: V(substations), lambda: HTML(html_of(substations.head(5)))]),
    # ---- en each_per
    "en-044": (lambda: T(houses.groupby("type").size().rename("count").reset_index()),
               [lambda: T(pd.DataFrame({"count": [1500]})), lambda: T(houses.groupby("type")["residents"].sum().reset_index())]),
    "en-045": (lambda: V(sa_counts()), [lambda: T(pd.DataFrame({"count": [160]})), lambda: V(count_in(service_areas, substations))]),
    "en-046": (lambda: V(buf(substations, 2000)), [lambda: V(buf(substations, 2000, dissolve=True)), lambda: V(buf(substations, 200))]),
    "en-047": (lambda: T(stats_by(outages, "ursache", "dauer_min", "mean")),
               [lambda: T(stats_by(outages, "ursache", "dauer_min", "sum")),
                lambda: T(pd.DataFrame({"mean": [outages["dauer_min"].mean()]}))]),
    "en-048": (lambda: V(hull(service_areas, "gebietstyp")),
               [lambda: V(hull(service_areas)), lambda: V(service_areas.assign(geometry=service_areas.convex_hull))]),
    "en-049": (lambda: V(dist_to_nearest(schools, bus_stops)),
               [lambda: V(dist_to_nearest(bus_stops, schools)),
                lambda: V(schools.assign(dist_m=[schools.distance(bus_stops.geometry.iloc[0]).min()] * 12))]),
    "en-050": (lambda: T(utm(power_lines).assign(km=lambda d: d.length / 1000).groupby("voltageKV")["km"].sum().reset_index()),
               [lambda: T(power_lines.assign(km=lambda d: d.length / 1000).groupby("voltageKV")["km"].sum().reset_index()),
                lambda: T(utm(power_lines).assign(km=lambda d: d.length / 1000).groupby("Leitungstyp")["km"].sum().reset_index())]),
    "en-051": (lambda: T(gpd.sjoin(houses, districts[["district_id", "geometry"]], predicate="within")
                         .groupby("district_id")["value_eur"].mean().reset_index()),
               [lambda: T(gpd.sjoin(houses, districts[["district_id", "geometry"]], predicate="within")
                          .groupby("district_id")["value_eur"].median().reset_index()),
                lambda: T(houses.groupby("type")["value_eur"].mean().reset_index())]),
    "en-052": (lambda: T(stats_by(service_areas, "gebietstyp", "kunden", "max")),
               [lambda: T(stats_by(service_areas, "gebietstyp", "kunden", "min")),
                lambda: T(pd.DataFrame({"max": [service_areas["kunden"].max()]}))]),
    "en-053": (lambda: V(envelopes(waldbrand_zonen)),
               [lambda: V(envelopes(dissolve(waldbrand_zonen))), lambda: V(waldbrand_zonen.assign(geometry=waldbrand_zonen.convex_hull))]),
    "en-054": (lambda: V(count_in(countries, world_cities, predicate="intersects")),
               [lambda: T(pd.DataFrame({"count": [243]})),
                lambda: V(count_in(countries, world_cities, predicate="intersects").nlargest(20, "NUMPOINTS"))]),
    "en-055": (lambda: T(cafes.groupby("wifi").size().rename("n").reset_index()),
               [lambda: T(pd.DataFrame({"n": [40]})), lambda: T(cafes.groupby("wifi")["seats"].sum().reset_index())]),
    "en-056": (lambda: V(nearest_join(outages, substations, ["station_id", "Name"])),
               [lambda: V(nearest_join(sub_m, outages, ["report_id"])),
                lambda: V(outages.assign(station_id=int(substations["station_id"].iloc[0])))]),
    # ---- en roles
    "en-057": (lambda: V(clip(waldbrand_zonen, service_areas)),
               [lambda: V(clip(service_areas, waldbrand_zonen)), lambda: V(waldbrand_zonen)]),
    "en-058": (lambda: V(clip(outages, waldbrand_zonen)),
               [lambda: V(outages), lambda: V(clip(waldbrand_zonen, buf(outages, 1))), lambda: V(intersecting(waldbrand_zonen, outages))]),
    "en-059": (lambda: V(difference(service_areas, waldbrand_zonen)),
               [lambda: V(difference(wz_m, service_areas)), lambda: V(intersection(service_areas, waldbrand_zonen))]),
    "en-060": (lambda: V(difference(waldbrand_zonen, service_areas)),
               [lambda: V(difference(service_areas, waldbrand_zonen)), lambda: V(clip(waldbrand_zonen, service_areas))]),
    "en-061": (lambda: V(within_dist(outages, power_lines, 300, inverse=True)),
               [lambda: V(within_dist(outages, power_lines, 300)), lambda: V(within_dist(outages, power_lines, 91.44, inverse=True))]),
    "en-062": (lambda: V(intersecting(power_lines, waldbrand_zonen)),
               [lambda: V(intersecting(waldbrand_zonen, power_lines)), lambda: V(intersecting(power_lines, waldbrand_zonen, inverse=True))]),
    "en-063": (lambda: V(intersecting(waldbrand_zonen, outages)),
               [lambda: V(intersecting(outages, waldbrand_zonen)), lambda: V(waldbrand_zonen)]),
    "en-064": (lambda: V(split_polys(districts, roads)),
               [lambda: V(clip(roads, districts)), lambda: V(districts)]),
    "en-065": (lambda: V(intersection(service_areas, waldbrand_zonen)),
               [lambda: V(clip(waldbrand_zonen, service_areas)), lambda: V(gpd.overlay(service_areas, wz_m, how="union"))]),
    "en-066": (lambda: V(gpd.sjoin(sub_m, service_areas, predicate="within").drop(columns="index_right")),
               [lambda: V(gpd.sjoin(service_areas, sub_m, predicate="contains").drop(columns="index_right")),
                lambda: V(substations.assign(area_code=None))]),
    "en-067": (lambda: V(within_dist(cafes, schools, 400)),
               [lambda: V(within_dist(schools, cafes, 400)), lambda: V(within_dist(cafes, schools, 400, inverse=True))]),
    "en-068": (lambda: V(within_dist(houses, bus_stops, 400, inverse=True)),
               [lambda: V(within_dist(houses, bus_stops, 400)), lambda: V(within_dist(bus_stops, houses, 400, inverse=True))]),
    "en-069": (lambda: V(clip(power_lines, waldbrand_zonen)),
               [lambda: V(intersecting(power_lines, waldbrand_zonen)), lambda: V(clip(waldbrand_zonen, power_lines))]),
    "en-070": (lambda: V(intersecting(countries, world_cities)),
               [lambda: V(intersecting(world_cities, countries)), lambda: V(countries)]),
    # ---- en negation
    "en-071": (lambda: V(cafes[cafes["wifi"] == "no"]), [lambda: V(cafes[cafes["wifi"] == "yes"])]),
    "en-072": (lambda: V(substations[substations["status"] != "decommissioned"]),
               [lambda: V(substations[substations["status"] == "decommissioned"])]),
    "en-073": (lambda: V(intersecting(districts, schools, inverse=True)), [lambda: V(intersecting(districts, schools))]),
    "en-074": (lambda: V(houses[~houses.within(bus_stops.buffer(300, resolution=5).union_all())]), [lambda: V(within_dist(houses, bus_stops, 300))]),
    "en-075": (lambda: V(outages[(outages["ursache"] != "storm") & (outages["customersAffected"] > 1000)]),
               [lambda: V(outages[(outages["ursache"] == "storm") & (outages["customersAffected"] > 1000)]),
                lambda: V(outages[outages["ursache"] != "storm"])]),
    "en-076": (lambda: V(service_areas.nlargest(9, "kunden")),
               [lambda: V(service_areas.nsmallest(3, "kunden")), lambda: V(service_areas.nlargest(3, "kunden"))]),
    "en-077": (lambda: V(power_lines[power_lines["Leitungstyp"] == "overhead"]),
               [lambda: V(power_lines[power_lines["Leitungstyp"] == "underground"])]),
    "en-078": (lambda: V(countries[~countries["continent"].isin(["Africa", "Europe"])]),
               [lambda: V(countries[countries["continent"].isin(["Africa", "Europe"])]),
                lambda: V(countries[countries["continent"] != "Africa"])]),
    "en-079": (lambda: V(bus_stops[bus_stops["shelter"] == "no"]), [lambda: V(bus_stops[bus_stops["shelter"] == "yes"])]),
    "en-080": (lambda: V(schools[schools["type"] != "primary"]), [lambda: V(schools[schools["type"] == "primary"])]),
    "en-081": (lambda: V(waldbrand_zonen[waldbrand_zonen["letzter_brand"].isna()]),
               [lambda: V(waldbrand_zonen[waldbrand_zonen["letzter_brand"].notna()])]),
    "en-082": (lambda: V(buf(roads[roads["type"] != "residential"], 20)),
               [lambda: V(buf(roads[roads["type"] == "residential"], 20)), lambda: V(roads[roads["type"] != "residential"]),
                lambda: V(buf(roads, 20))]),
    "en-083": (lambda: V(intersecting(outages, waldbrand_zonen, inverse=True)), [lambda: V(intersecting(outages, waldbrand_zonen))]),
    # ---- en numbers
    "en-084": (lambda: V(cafes.nlargest(7, "rating")), [lambda: V(cafes.nlargest(5, "rating")), lambda: V(cafes.nsmallest(7, "rating"))]),
    "en-085": (lambda: V(within_dist(outages, substations, 1500)),
               [lambda: V(within_dist(outages, substations, 150)), lambda: V(within_dist(outages, substations, 1500, inverse=True))]),
    "en-086": (lambda: V(service_areas[service_areas.area > 90e6]),
               [lambda: V(service_areas[service_areas.area > 9e6]), lambda: V(service_areas[service_areas.area < 90e6])]),
    "en-087": (lambda: V(buf(power_lines, 30.48)), [lambda: V(buf(power_lines, 100)), lambda: V(buf(power_lines, 30.48, dissolve=True))]),
    "en-088": (lambda: V(houses[(houses["year_built"] < 1950) & (houses["value_eur"] > 400000)]),
               [lambda: V(houses[(houses["year_built"] <= 1950) & (houses["value_eur"] >= 400000)]),
                lambda: V(houses[houses["year_built"] < 1950])]),
    "en-089": (lambda: V(power_lines.assign(L=utm(power_lines).length).nlargest(5, "L")),
               [lambda: V(power_lines.assign(L=utm(power_lines).length).nsmallest(5, "L")),
                lambda: V(power_lines.nlargest(5, "install_year"))]),
    "en-090": (lambda: V(cafes[cafes["rating"] >= 4.5]), [lambda: V(cafes[cafes["rating"] > 4.5])]),
    "en-091": (lambda: V(rings(schools, 3, 250)), [lambda: V(rings(schools, 3, 250 / 3)), lambda: V(buf(schools, 250))]),
    "en-092": (lambda: V(roads[roads.length > 5000]), [lambda: V(roads[roads.length > 5]), lambda: V(roads[roads.length < 5000])]),
    "en-093": (lambda: V(outages[outages["dauer_min"] > 180]), [lambda: V(outages[outages["dauer_min"] > 3])]),
    "en-094": (lambda: V(countries.nsmallest(10, "gdp_md_est")), [lambda: V(countries.nlargest(10, "gdp_md_est"))]),
    "en-095": (lambda: V(buf(substations, 500)),
               [lambda: V(substations.assign(geometry=substations.buffer(0.5))), lambda: V(buf(substations, 5000))]),
    "en-096": (lambda: V(districts[districts["median_income"].between(40000, 50000)]),
               [lambda: V(districts[~districts["median_income"].between(40000, 50000)])]),
    # ---- en chain
    "en-111": (lambda: V(buf(roads[roads["type"] == "primary"], 50)),
               [lambda: V(buf(roads, 50)), lambda: V(roads[roads["type"] == "primary"])]),
    "en-112": (lambda: V(within_dist(outages, power_lines[power_lines["voltageKV"] == 230], 200)),
               [lambda: V(within_dist(outages, power_lines, 200)), lambda: V(buf(power_lines[power_lines["voltageKV"] == 230], 200))]),
    "en-113": (lambda: V(buf(substations, 1000).to_crs(32613)),
               [lambda: V(buf(substations, 1000).to_crs(4326)), lambda: V(reproj(substations, 32613))]),
    "en-114": (lambda: V(area_field(dissolve(districts, "landuse"), "km2")),
               [lambda: V(area_field(districts, "km2")), lambda: V(area_field(dissolve(districts, "landuse"), "km2", factor=1))]),
    "en-115": (lambda: V(voronoi(substations[substations["status"] == "active"])),
               [lambda: V(voronoi(substations)), lambda: V(substations[substations["status"] == "active"])]),
    "en-116": (lambda: V(district_house_counts().query("NUMPOINTS > 200")),
               [lambda: V(district_house_counts()), lambda: V(district_house_counts().query("NUMPOINTS <= 200"))]),
    "en-117": (lambda: V(clip(roads, districts[districts["name"] == "Lindenau"])),
               [lambda: V(intersecting(roads, districts[districts["name"] == "Lindenau"])), lambda: V(clip(roads, districts))]),
    "en-118": (lambda: T(outages[outages["severity"] == "high"].groupby("ursache").size().rename("n").reset_index()),
               [lambda: T(outages.groupby("ursache").size().rename("n").reset_index()),
                lambda: T(pd.DataFrame({"n": [int((outages["severity"] == "high").sum())]}))]),
    "en-119": (lambda: V(count_in(schools.assign(geometry=schools.buffer(500, resolution=5)), houses)),
               [lambda: V(count_in(dissolve(schools.assign(geometry=schools.buffer(500))), houses)),
                lambda: V(count_in(schools.assign(geometry=schools.buffer(50)), houses))]),
    "en-120": (lambda: V(reproj(countries[countries["continent"] == "South America"], 5880)),
               [lambda: V(countries[countries["continent"] == "South America"]), lambda: V(reproj(countries, 5880))]),
    # ---- en typo
    "en-128": (lambda: V(buf(schools, 400)), [lambda: V(buf(schools, 40)), lambda: V(buf(schools, 400, dissolve=True))]),
    "en-129": (lambda: V(reproj(substations, 32613)), [lambda: V(substations), lambda: V(reproj(substations, 32612))]),
    "en-130": (lambda: V(sa_counts()), [lambda: T(pd.DataFrame({"count": [160]}))]),
    "en-131": (lambda: V(dissolve(service_areas, "gebietstyp")), [lambda: V(dissolve(service_areas)), lambda: V(service_areas)]),
    "en-132": (lambda: V(cafes[(cafes["wifi"] == "yes") & (cafes["rating"] > 4)]),
               [lambda: V(cafes[cafes["wifi"] == "yes"]), lambda: V(cafes[(cafes["wifi"] == "yes") & (cafes["rating"] >= 4)])]),
    "en-133": (lambda: V(centroids(districts)), [lambda: V(districts), lambda: V(vertices(districts))]),
    "en-134": (lambda: A(f"Total length: {utm(power_lines).length.sum() / 1609.344:.1f} mi"),
               [lambda: A(f"Total length: {utm(power_lines).length.sum() / 1000:.1f} km"),
                lambda: A(f"Total length: {power_lines.length.sum():.0f} ft")]),
    "en-135": (lambda: V(houses[houses["year_built"] > 2000]), [lambda: V(houses[houses["year_built"] >= 2000])]),
    "en-136": (lambda: V(intersection(waldbrand_zonen, service_areas)),
               [lambda: V(clip(waldbrand_zonen, service_areas)), lambda: V(difference(waldbrand_zonen, service_areas))]),
}

S.update({
    # ---- de
    "de-001": (lambda: V(buf(schools, 300)), [lambda: V(buf(schools, 3)), lambda: V(buf(schools, 300, dissolve=True))]),
    "de-002": (lambda: A(f"{int((outages['ursache'] == 'animal').sum())} Störungen."), [lambda: A("160 Störungen.")]),
    "de-003": (lambda: V(centroids(service_areas)), [lambda: V(surface_pts(service_areas)), lambda: V(service_areas)]),
    "de-004": (lambda: V(length_field(power_lines, "m")),
               [lambda: V(length_field(power_lines, "m", metres=False)), lambda: V(length_field(power_lines, "km"))]),
    "de-005": (lambda: V(dissolve(districts, "landuse")), [lambda: V(dissolve(districts)), lambda: V(districts)]),
    "de-006": (lambda: A("Der höchste Wert beträgt 227.34 m."), [lambda: A("Der Mittelwert beträgt 159.69 m.")]),
    "de-007": (lambda: V(reproj(cafes, 4326)), [lambda: V(cafes), lambda: V(assign(cafes, 4326))]),
    "de-008": (lambda: V(reproj(substations, 32613)), [lambda: V(substations), lambda: V(assign(substations, 32613))]),
    "de-009": (lambda: V(reproj(power_lines, 26913)), [lambda: V(power_lines), lambda: V(reproj(power_lines, 32613))]),
    "de-010": (lambda: V(reproj(outages, 3857)), [lambda: V(outages), lambda: V(reproj(outages, 4326))]),
    "de-011": (lambda: V(assign(districts, 25833)),
               [lambda: V(districts), lambda: V(reproj(districts.set_crs(32633, allow_override=True), 25832))]),
    "de-012": (lambda: V(schools, "schools.geojson"), [lambda: V(schools, "schools.gpkg")]),
    "de-013": (lambda: V(cafes[cafes["wifi"] == "yes"], "cafes_wlan.csv"),
               [lambda: V(cafes[cafes["wifi"] == "yes"], "cafes_wlan.gpkg"), lambda: V(cafes, "cafes_wlan.csv"),
                lambda: V(cafes[cafes["wifi"] == "yes"], "cafes.csv")]),
    "de-014": (lambda: V(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] >= 3], "zonen.shp"),
               [lambda: V(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] > 3], "zonen.shp"),
                lambda: V(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] >= 3], "zonen.gpkg")]),
    "de-015": (lambda: V(buf(substations, 1000), "puffer_uw.gpkg"),
               [lambda: V(buf(substations, 1000), "substations_buffer.gpkg"), lambda: V(buf(substations, 1), "puffer_uw.gpkg")]),
    "de-016": (lambda: IMG(service_areas), [lambda: V(service_areas)]),
    "de-017": (lambda: V(district_house_counts()), [lambda: T(pd.DataFrame({"n": [1500]})), lambda: V(count_in(districts, cafes))]),
    "de-018": (lambda: T(stats_by(outages, "ursache", "dauer_min", "mean")),
               [lambda: T(stats_by(outages, "severity", "dauer_min", "mean")), lambda: T(stats_by(outages, "ursache", "dauer_min", "max"))]),
    "de-019": (lambda: V(buf(substations, 750)), [lambda: V(buf(substations, 750, dissolve=True))]),
    "de-020": (lambda: T(utm(power_lines).assign(km=lambda d: d.length / 1000).groupby("owner name")["km"].sum().reset_index()),
               [lambda: T(power_lines.assign(km=lambda d: d.length / 1000).groupby("owner name")["km"].sum().reset_index()),
                lambda: T(pd.DataFrame({"km": [utm(power_lines).length.sum() / 1000]}))]),
    "de-021": (lambda: T(houses.groupby("type")["residents"].sum().reset_index()),
               [lambda: T(houses.groupby("type")["residents"].mean().reset_index()), lambda: T(houses.groupby("type").size().reset_index())]),
    "de-022": (lambda: V(clip(waldbrand_zonen, service_areas)), [lambda: V(clip(service_areas, waldbrand_zonen))]),
    "de-023": (lambda: V(difference(service_areas, waldbrand_zonen)), [lambda: V(difference(wz_m, service_areas))]),
    "de-024": (lambda: V(clip(power_lines, waldbrand_zonen)),
               [lambda: V(intersecting(power_lines, waldbrand_zonen)), lambda: V(clip(waldbrand_zonen, buf(power_lines, 1)))]),
    "de-025": (lambda: V(intersecting(power_lines, waldbrand_zonen)), [lambda: V(intersecting(waldbrand_zonen, power_lines))]),
    "de-026": (lambda: V(within_dist(houses, schools, 500, inverse=True)),
               [lambda: V(within_dist(houses, schools, 500)), lambda: V(within_dist(schools, houses, 500, inverse=True))]),
    "de-027": (lambda: V(substations[substations["status"] != "decommissioned"]),
               [lambda: V(substations[substations["status"] == "decommissioned"])]),
    "de-028": (lambda: V(bus_stops[bus_stops["shelter"] == "no"]), [lambda: V(bus_stops[bus_stops["shelter"] == "yes"])]),
    "de-029": (lambda: V(intersecting(service_areas, substations, inverse=True)),
               [lambda: V(intersecting(service_areas, substations)), lambda: V(intersecting(service_areas, substations.set_crs(32613, allow_override=True), inverse=True))]),
    "de-030": (lambda: V(intersecting(outages, waldbrand_zonen, inverse=True)), [lambda: V(intersecting(outages, waldbrand_zonen))]),
    "de-031": (lambda: V(countries[countries["continent"] != "Asia"]), [lambda: V(countries[countries["continent"] == "Asia"])]),
    "de-032": (lambda: V(cafes.nlargest(5, "seats")), [lambda: V(cafes.nsmallest(5, "seats")), lambda: V(cafes.nlargest(5, "rating"))]),
    "de-033": (lambda: V(outages[outages["customersAffected"] > 2000]),
               [lambda: V(outages[outages["customersAffected"] > 2]), lambda: V(outages[outages["customersAffected"] < 2000])]),
    "de-034": (lambda: V(buf(schools, 2500)), [lambda: V(buf(schools, 2)), lambda: V(buf(schools, 25))]),
    "de-035": (lambda: V(service_areas[service_areas["peakLoad_MW"] > 100]),
               [lambda: V(service_areas[~(service_areas["peakLoad_MW"] <= 100)]), lambda: V(service_areas[service_areas["peakLoad_MW"] < 100])]),
    "de-036": (lambda: V(houses[houses["value_eur"] < 150000]),
               [lambda: V(houses[houses["value_eur"] < 150]), lambda: V(houses[houses["value_eur"] > 150000])]),
    "de-043": (lambda: V(buf(roads[roads["type"] == "primary"], 30)),
               [lambda: V(buf(roads, 30)), lambda: V(roads[roads["type"] == "primary"])]),
    "de-044": (lambda: V(buf(substations, 500).to_crs(32613)),
               [lambda: V(buf(substations, 500).to_crs(4326)), lambda: V(buf(substations, 500).to_crs(32613).pipe(dissolve))]),
    "de-045": (lambda: V(within_dist(outages, substations[substations["status"] == "active"], 3000)),
               [lambda: V(within_dist(outages, substations, 3000)),
                lambda: V(within_dist(outages, substations[substations["status"] == "active"], 300))]),
    "de-046": (lambda: V(area_field(dissolve(districts, "landuse"), "ha")),
               [lambda: V(area_field(districts, "ha")), lambda: V(area_field(dissolve(districts, "landuse"), "ha", factor=1))]),
    "de-050": (lambda: V(buf(schools, 200)), [lambda: V(buf(schools, 20))]),
    "de-051": (lambda: V(reproj(power_lines, 4326)), [lambda: V(power_lines), lambda: V(assign(power_lines, 4326))]),
    "de-052": (lambda: V(sa_counts()), [lambda: T(pd.DataFrame({"n": [160]}))]),
    # ---- zh
    "zh-001": (lambda: V(buf(cafes, 200)), [lambda: V(buf(cafes, 20)), lambda: V(buf(cafes, 200, dissolve=True))]),
    "zh-002": (lambda: A(f"有{int((substations['status'] == 'standby').sum())}个变电站处于standby状态。"),
               [lambda: A("共有24个变电站。")]),
    "zh-003": (lambda: V(length_field(roads, "m")), [lambda: V(length_field(roads, "km")), lambda: V(roads)]),
    "zh-004": (lambda: V(dissolve(districts, "landuse")), [lambda: V(dissolve(districts)), lambda: V(districts)]),
    "zh-005": (lambda: V(centroids(service_areas)), [lambda: V(surface_pts(service_areas)), lambda: V(service_areas)]),
    "zh-006": (lambda: A("平均高程为159.69米。"), [lambda: A("最高高程为227.34米。")]),
    "zh-007": (lambda: V(reproj(schools, 4326)), [lambda: V(schools), lambda: V(assign(schools, 4326))]),
    "zh-008": (lambda: V(reproj(outages, 4326)), [lambda: V(outages), lambda: V(assign(outages, 4326))]),
    "zh-009": (lambda: V(reproj(power_lines, 32613)),
               [lambda: V(power_lines), lambda: V(assign(power_lines, 32613)), lambda: V(reproj(power_lines, 26913))]),
    "zh-010": (lambda: V(reproj(world_cities, 3857)), [lambda: V(world_cities)]),
    "zh-011": (lambda: V(reproj(waldbrand_zonen, 4326)), [lambda: V(waldbrand_zonen), lambda: V(assign(waldbrand_zonen, 4326))]),
    "zh-012": (lambda: V(substations, "substations.geojson"), [lambda: V(substations, "substations.gpkg")]),
    "zh-013": (lambda: V(outages[outages["severity"] == "high"], "high.csv"),
               [lambda: V(outages[outages["severity"] == "high"], "high.gpkg"), lambda: V(outages[outages["severity"] == "high"], "outages.csv"),
                lambda: V(outages, "high.csv")]),
    "zh-014": (lambda: V(centroids(districts), "districts_centroids.shp"),
               [lambda: V(centroids(districts), "districts_centroids.gpkg"), lambda: V(districts, "districts.shp")]),
    "zh-015": (lambda: V(buf(bus_stops, 100), "bus_buffer.geojson"),
               [lambda: V(buf(bus_stops, 100), "bus_stops_buffer.gpkg"), lambda: V(buf(bus_stops, 10), "bus_buffer.geojson")]),
    "zh-016": (lambda: IMG(districts), [lambda: T(districts[["name", "population"]])]),
    "zh-017": (lambda: V(district_house_counts()), [lambda: T(pd.DataFrame({"n": [1500]}))]),
    "zh-018": (lambda: T(outages.groupby("ursache").size().rename("n").reset_index()),
               [lambda: T(outages.groupby("severity").size().rename("n").reset_index()), lambda: T(pd.DataFrame({"n": [160]}))]),
    "zh-019": (lambda: T(stats_by(service_areas, "gebietstyp", "kunden", "sum")),
               [lambda: T(stats_by(service_areas, "gebietstyp", "kunden", "mean")), lambda: T(pd.DataFrame({"sum": [service_areas["kunden"].sum()]}))]),
    "zh-020": (lambda: V(buf(schools, 500)), [lambda: V(buf(schools, 500, dissolve=True))]),
    "zh-021": (lambda: V(sa_counts()), [lambda: T(pd.DataFrame({"n": [160]})), lambda: V(count_in(service_areas, substations))]),
    "zh-022": (lambda: V(clip(waldbrand_zonen, service_areas)), [lambda: V(clip(service_areas, waldbrand_zonen))]),
    "zh-023": (lambda: V(difference(service_areas, waldbrand_zonen)),
               [lambda: V(difference(wz_m, service_areas)), lambda: V(intersection(service_areas, waldbrand_zonen))]),
    "zh-024": (lambda: V(clip(power_lines, waldbrand_zonen)),
               [lambda: V(power_lines), lambda: V(clip(waldbrand_zonen, buf(power_lines, 1)))]),
    "zh-025": (lambda: V(within_dist(houses, bus_stops, 300, inverse=True)), [lambda: V(within_dist(houses, bus_stops, 300))]),
    "zh-026": (lambda: V(intersecting(power_lines, waldbrand_zonen)), [lambda: V(intersecting(waldbrand_zonen, power_lines))]),
    "zh-027": (lambda: V(cafes[cafes["wifi"] == "no"]), [lambda: V(cafes[cafes["wifi"] == "yes"])]),
    "zh-028": (lambda: V(substations[substations["status"] != "decommissioned"]),
               [lambda: V(substations[substations["status"] == "decommissioned"])]),
    "zh-029": (lambda: V(intersecting(outages, waldbrand_zonen, inverse=True)), [lambda: V(intersecting(outages, waldbrand_zonen))]),
    "zh-030": (lambda: V(roads[roads["type"] != "residential"]), [lambda: V(roads[roads["type"] == "residential"])]),
    "zh-031": (lambda: V(intersecting(districts, schools, inverse=True)), [lambda: V(intersecting(districts, schools))]),
    "zh-032": (lambda: V(cafes.nlargest(3, "rating")), [lambda: V(cafes.nsmallest(3, "rating")), lambda: V(cafes.nlargest(5, "rating"))]),
    "zh-033": (lambda: V(outages[outages["dauer_min"] > 120]), [lambda: V(outages[outages["dauer_min"] > 2])]),
    "zh-034": (lambda: V(service_areas[service_areas.area > 100e6]), [lambda: V(service_areas[service_areas.area > 100])]),
    "zh-035": (lambda: V(buf(power_lines, 15.24)), [lambda: V(buf(power_lines, 50)), lambda: V(buf(power_lines, 15.24, dissolve=True))]),
    "zh-036": (lambda: V(districts[districts["population"] > 10000]), [lambda: V(districts[districts["population"] > 1])]),
    "zh-043": (lambda: V(buf(roads[roads["type"] == "primary"], 100)), [lambda: V(buf(roads, 100))]),
    "zh-044": (lambda: V(buf(substations, 2000).to_crs(32613)), [lambda: V(buf(substations, 2000).to_crs(4326))]),
    "zh-045": (lambda: V(intersecting(outages, waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] == 4])),
               [lambda: V(intersecting(outages, waldbrand_zonen)), lambda: V(waldbrand_zonen[waldbrand_zonen["Gefahrenstufe"] == 4])]),
    "zh-046": (lambda: V(area_field(dissolve(districts, "landuse"), "km2")), [lambda: V(area_field(districts, "km2"))]),
    "zh-050": (lambda: V(buf(schools, 300)), [lambda: V(buf(schools, 30))]),
    "zh-051": (lambda: V(reproj(substations, 32613)), [lambda: V(substations)]),
    "zh-052": (lambda: V(district_house_counts()), [lambda: T(pd.DataFrame({"n": [1500]}))]),
})


# ------------------------------------------------------------------ schema
def check_schema(cases: list[dict], lang: str, seen: set) -> list[str]:
    errors = []
    for c in cases:
        cid = c.get("id", "?")
        for key in ("id", "lang", "class", "request", "inputs", "expect"):
            if key not in c:
                errors.append(f"{cid}: missing {key}")
        if not str(cid).startswith(f"{lang}-") or not str(cid)[3:].isdigit() or len(str(cid)) != 6:
            errors.append(f"{cid}: id must be {lang}-NNN")
        if cid in seen:
            errors.append(f"{cid}: duplicate id")
        seen.add(cid)
        if c.get("lang") != lang:
            errors.append(f"{cid}: lang {c.get('lang')} in the {lang} file")
        if c.get("class") not in CLASSES:
            errors.append(f"{cid}: unknown class {c.get('class')}")
        if not isinstance(c.get("request"), str) or not c["request"].strip():
            errors.append(f"{cid}: empty request")
        for ref in c.get("inputs") or []:
            if not (ref.startswith("s:") or ref.startswith("b:")) or not input_path(ref).exists():
                errors.append(f"{cid}: bad input {ref}")
        if not c.get("inputs"):
            errors.append(f"{cid}: no inputs")
        if c.get("expect") == "decline":
            if c.get("checks"):
                errors.append(f"{cid}: a decline case has checks")
        elif c.get("expect") == "answer":
            if not c.get("checks"):
                errors.append(f"{cid}: an answer case without checks")
            for chk in c.get("checks") or []:
                if set(chk) - CHECK_KEYS:
                    errors.append(f"{cid}: unknown check keys {set(chk) - CHECK_KEYS}")
                if "answer_number" in chk or "answer_contains" in chk:
                    continue
                if chk.get("output") not in ("vector", "table", "any_table", "image", "html", "raster"):
                    errors.append(f"{cid}: bad output kind {chk.get('output')}")
                if sum(k in chk for k in ("crs", "suffix", "expect")) != 1:
                    errors.append(f"{cid}: a check needs exactly one of crs/suffix/expect")
                if "expect" in chk and "equals" not in chk:
                    errors.append(f"{cid}: expect without equals")
        else:
            errors.append(f"{cid}: expect must be answer or decline")
    return errors


def inputs_ns(case: dict) -> dict:
    return {Path(r.split(":", 1)[1]).stem: L[Path(r.split(":", 1)[1]).stem] for r in case["inputs"]}


def main() -> int:
    errors, seen, all_cases = [], set(), []
    for lang in LANGS:
        cases = yaml.safe_load((HERE / f"cases_{lang}.yaml").read_text(encoding="utf-8"))
        errors += check_schema(cases, lang, seen)
        if len(cases) < MINIMUM[lang]:
            errors.append(f"{lang}: only {len(cases)} cases (need {MINIMUM[lang]})")
        all_cases += cases
    n_ok = n_wrong = n_4326 = 0
    tmp = Path(tempfile.mkdtemp(prefix="blind5_"))
    for case in all_cases:
        cid = case["id"]
        if case["expect"] != "answer":
            if cid in S:
                errors.append(f"{cid}: decline case has a solution")
            continue
        if cid not in S:
            errors.append(f"{cid}: no hand-built solution")
            continue
        # every input the checks name must be loaded for the case
        task = {"checks": case["checks"]}
        ns = inputs_ns(case)
        correct, wrongs = S[cid]
        res = check_task(task, correct().report(tmp / cid / "ok"), ns)
        if not res.passed:
            errors.append(f"{cid}: CORRECT result fails: {res.failures}")
        else:
            n_ok += 1
        # outputs may come back in any CRS unless the request asks for one: the correct result in degrees
        # must pass too (skipped where a check pins the CRS, the format or the file name)
        pinned = any("crs" in k or "suffix" in k or "report[" in str(k.get("expect", "")) for k in case["checks"])
        if not pinned and any(kind == "vector" for kind, _, _ in correct().outputs):
            res = check_task(task, in_degrees(correct()).report(tmp / cid / "ok4326"), ns)
            if not res.passed:
                errors.append(f"{cid}: CORRECT result in EPSG:4326 fails: {res.failures}")
            else:
                n_4326 += 1
        if not wrongs:
            errors.append(f"{cid}: no wrong result")
        for k, wrong in enumerate(wrongs):
            res = check_task(task, wrong().report(tmp / cid / f"wrong{k}"), ns)
            if res.passed:
                errors.append(f"{cid}: WRONG result #{k} passes every check")
            else:
                n_wrong += 1
    by_lang = Counter(c["lang"] for c in all_cases)
    by_class = Counter((c["lang"], c["class"]) for c in all_cases)
    by_expect = Counter((c["lang"], c["expect"]) for c in all_cases)
    print("cases per language:", dict(by_lang), "total", len(all_cases))
    for lang in LANGS:
        print(f"  {lang}: answer {by_expect[(lang, 'answer')]}, decline {by_expect[(lang, 'decline')]};",
              ", ".join(f"{k} {by_class[(lang, k)]}" for k in sorted(CLASSES) if by_class[(lang, k)]))
    print(f"answer cases whose correct result passes: {n_ok} (also in EPSG:4326: {n_4326}); "
          f"wrong results that fail: {n_wrong}")
    if errors:
        print(f"\n{len(errors)} problem(s):")
        for e in errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
