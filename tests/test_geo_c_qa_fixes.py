"""QA fixes in the GeoPandas half: units, dissolve aggregation, CSV CRS notes, disjoint inputs, validity cache."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib import io as gio
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.registry import run_tool
from shapely.geometry import LineString, Point, Polygon, box

CRS = "EPSG:32633"


@pytest.fixture(scope="module")
def reg():
    return load_registry()


def context(tmp_path, **layers):
    ctx = RunContext(tmp_path / "out")
    for name, frame in layers.items():
        ctx.layers.add(name, data=frame)
    return ctx


def frame(geoms, **cols):
    return gpd.GeoDataFrame(cols, geometry=list(geoms), crs=CRS)


# -- 1. units ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("unit", "expected"), [(None, 3000.0), ("m", 3000.0), ("km", 3.0), ("ft", 3000 / 0.3048), ("mi", 3000 / 1609.344)]
)
def test_length_in_the_asked_unit(reg, tmp_path, unit, expected):
    lines = frame([LineString([(0, 0), (1000, 0)]), LineString([(0, 0), (0, 2000)])])
    args = {"layer": "roads"} | ({"unit": unit} if unit else {})
    res = run_tool(reg, "geometry_length", args, context(tmp_path, roads=lines))
    out = gpd.read_file(res.outputs[0].path)
    column = f"length_{unit or 'm'}"
    assert column in out.columns
    assert out[column].sum() == pytest.approx(expected)
    assert res.values["total"] == pytest.approx(expected) and res.values["total_m"] == pytest.approx(3000.0)
    if unit and unit != "m":
        assert f"{expected:,.2f} {unit}" in res.answer and f"{expected:,.2f} {unit}" in res.summary


@pytest.mark.parametrize(
    ("unit", "label", "expected"),
    [("m2", "m²", 2e6), ("km2", "km²", 2.0), ("ha", "ha", 200.0), ("acres", "acres", 2e6 / 4046.8564224),
     ("mi2", "mi²", 2e6 / 2589988.110336)],
)
def test_area_in_the_asked_unit(reg, tmp_path, unit, label, expected):
    polys = frame([box(0, 0, 1000, 1000), box(2000, 0, 3000, 1000)])
    res = run_tool(reg, "geometry_area", {"layer": "parks", "unit": unit}, context(tmp_path, parks=polys))
    out = gpd.read_file(res.outputs[0].path)
    assert out[f"area_{unit}"].tolist() == pytest.approx([expected / 2, expected / 2])
    shown = f"{expected:,.2f} {label}" if expected >= 1 else f"{expected:.4g} {label}"
    assert shown in res.answer


def test_area_without_unit_keeps_square_metres(reg, tmp_path):
    res = run_tool(reg, "geometry_area", {"layer": "p"}, context(tmp_path, p=frame([box(0, 0, 10, 20)])))
    assert gpd.read_file(res.outputs[0].path)["area_m2"].tolist() == pytest.approx([200.0])
    assert "200.00 m²" in res.answer


def test_unknown_unit_is_refused(reg, tmp_path):
    with pytest.raises(ValidationError):
        run_tool(reg, "geometry_area", {"layer": "p", "unit": "sqft"}, context(tmp_path, p=frame([box(0, 0, 1, 1)])))


# -- 2. dissolve with aggregation ----------------------------------------------------------------------
def tracts():
    cells = [box(i * 10, 0, i * 10 + 10, 10) for i in range(5)]
    names = ["a1", "a2", "b1", "b2", "b3"]
    return frame(cells, district=["A", "A", "B", "B", "B"], pop=[100, 250, 1, 2, 3], name=names)


@pytest.mark.parametrize(
    ("agg", "expected"),
    [("sum", [350, 6]), ("mean", [175, 2]), ("min", [100, 1]), ("max", [250, 3]), ("count", [2, 3]),
     ("first", [100, 1])],
)
def test_dissolve_aggregates_a_field(reg, tmp_path, agg, expected):
    args = {"layer": "t", "fields": ["district"], "field": "pop", "agg": agg}
    res = run_tool(reg, "dissolve", args, context(tmp_path, t=tracts()))
    out = gpd.read_file(res.outputs[0].path).sort_values("district")
    assert out[f"pop_{agg}"].tolist() == pytest.approx(expected)
    assert out["n_features"].tolist() == [2, 3]
    assert out.geometry.area.tolist() == pytest.approx([200.0, 300.0])
    assert f"{agg} of pop" in res.summary and res.values["aggregated"] == f"pop_{agg}"


def test_dissolve_field_alone_sums_and_all_in_one(reg, tmp_path):
    res = run_tool(reg, "dissolve", {"layer": "t", "field": "pop"}, context(tmp_path, t=tracts()))
    out = gpd.read_file(res.outputs[0].path)
    assert out["pop_sum"].tolist() == [356] and len(out) == 1
    assert "all: 356" in res.summary


def test_dissolve_without_field_is_unchanged_and_says_first_value(reg, tmp_path):
    res = run_tool(reg, "dissolve", {"layer": "t", "fields": ["district"]}, context(tmp_path, t=tracts()))
    out = gpd.read_file(res.outputs[0].path).sort_values("district")
    assert out["pop"].tolist() == [100, 1] and "pop_sum" not in out.columns
    assert "first feature's value" in res.summary


def test_dissolve_agg_without_field_or_on_text_is_refused(reg, tmp_path):
    with pytest.raises(ValidationError, match="needs a field"):
        run_tool(reg, "dissolve", {"layer": "t", "agg": "sum"}, context(tmp_path, t=tracts()))
    with pytest.raises(ValidationError, match="has no numbers"):
        run_tool(reg, "dissolve", {"layer": "t", "field": "name", "agg": "mean"}, context(tmp_path, t=tracts()))


def test_dissolve_with_agg_keeps_geopandas(reg, tmp_path):
    from geoclerk.function_lib.registry import choose_tool

    args = {"layer": "t", "fields": ["district"], "field": "pop", "agg": "sum"}
    assert choose_tool(reg, "dissolve", args, context(tmp_path, t=tracts())).spec.half == "geojson"


# -- 4. CSV point layers -------------------------------------------------------------------------------
def write_csv(path, header, rows):
    path.write_text(header + "\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    return path


@pytest.mark.parametrize("cols", ["lon,lat", "X,Y", "Longitude,Latitude"])
def test_csv_with_degree_columns_is_wgs84_and_noted(reg, tmp_path, cols):
    path = write_csv(tmp_path / "air_stations.csv", f"station,{cols},pm25",
                     [("S0", -9.15, 38.72, 5), ("S1", -9.145, 38.724, 12)])
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(reg, "buffer", {"layer": "air_stations", "distance": 1000}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert out.crs.to_epsg() == 4326 and len(out) == 2
    assert "assumed EPSG:4326" in res.summary
    area = out.to_crs("EPSG:32629").area  # a 1 km buffer: about pi km² (segments make it a little less)
    assert area.tolist() == pytest.approx([np.pi * 1e6] * 2, rel=0.02)


def test_csv_with_projected_xy_has_no_crs_and_says_how_to_assign(reg, tmp_path):
    path = write_csv(tmp_path / "wells.csv", "id,x,y", [(1, 500000, 5000000), (2, 500100, 5000000)])
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    assert ctx.gdf("wells").crs is None
    res = run_tool(reg, "count_features", {"layer": "wells"}, ctx)
    assert res.values["count"] == 2
    with pytest.raises(ValidationError) as err:
        run_tool(reg, "buffer", {"layer": "wells", "distance": 10}, ctx)
    assert "no CRS" in err.value.message and "assign" in (err.value.fix or "").lower()


# -- 3. inputs that do not overlap ---------------------------------------------------------------------
def test_clip_of_disjoint_layers_says_they_do_not_overlap(reg, tmp_path):
    ctx = context(tmp_path, pts=frame([Point(0, 0), Point(5, 5)]), area=frame([box(1000, 1000, 2000, 2000)]))
    res = run_tool(reg, "clip", {"layer": "pts", "overlay": "area"}, ctx)
    assert res.values["feature_count"] == 0
    assert "do not overlap" in res.summary and "[1000, 1000, 2000, 2000]" in res.summary


def test_count_points_of_disjoint_layers_says_why_all_zero(reg, tmp_path):
    ctx = context(tmp_path, zones=frame([box(1000, 1000, 2000, 2000)]), pts=frame([Point(0, 0)]))
    res = run_tool(reg, "count_points_in_polygons", {"polygons": "zones", "points": "pts"}, ctx)
    assert res.values["points_inside"] == 0
    assert "do not overlap" in res.summary and "every count is 0" in res.summary


def test_overlapping_layers_get_no_overlap_note(reg, tmp_path):
    ctx = context(tmp_path, zones=frame([box(0, 0, 10, 10)]), pts=frame([Point(20, 20), Point(5, 5)]))
    res = run_tool(reg, "count_points_in_polygons", {"polygons": "zones", "points": "pts"}, ctx)
    assert res.values["points_inside"] == 1 and "overlap" not in res.summary


# -- 5. validity tested once per input -----------------------------------------------------------------
def test_validity_is_tested_once_per_input(reg, tmp_path, monkeypatch):
    calls = []
    real = gio._invalid
    monkeypatch.setattr(gio, "_invalid", lambda geoms, type_ids=None: calls.append(len(geoms)) or real(geoms, type_ids))
    zones = frame([box(0, 0, 10, 10), box(10, 0, 20, 10)], zid=[1, 2])
    ctx = context(tmp_path, zones=zones, pts=frame([Point(5, 5), Point(15, 5), Point(16, 5)]))
    first = run_tool(reg, "count_points_in_polygons", {"polygons": "zones", "points": "pts"}, ctx)
    second = run_tool(reg, "spatial_join", {"layer": "pts", "join": "zones"}, ctx)
    assert first.values["points_inside"] == 3 and second.values["matches"] == 3
    assert calls.count(2) == 1  # the zones were tested by the first tool only


def test_invalid_polygon_is_still_repaired(reg, tmp_path):
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    ctx = context(tmp_path, zones=frame([bowtie]), pts=frame([Point(8, 5), Point(5, 8), Point(2, 5)]))
    res = run_tool(reg, "count_points_in_polygons", {"polygons": "zones", "points": "pts"}, ctx)
    assert "Repaired 1 invalid geometry" in res.summary
    assert res.values["points_inside"] == 2  # the two triangles of the bow-tie hold (8, 5) and (2, 5)
