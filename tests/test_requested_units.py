"""Requested units end to end: the router reads area/length units and distances, the tools compute them, by value."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.describe import describe_gdf
from geoclerk.function_lib.geojson.measure import AREA_UNITS, LENGTH_UNITS, plain_number
from geoclerk.reading.quantities import AREA_UNIT_WORDS, LENGTH_UNIT_WORDS, find_distances, output_units, unit_for
from geoclerk.reading.text import fold
from shapely.geometry import LineString, Point, box

SQFT = 0.09290304




@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Parcels and streets in EPSG:2263 (NY Long Island, US feet); parks in WGS84."""
    folder = tmp_path_factory.mktemp("h1units")
    x0, y0 = 985000, 200000
    parcels = gpd.GeoDataFrame(
        {"parcel_id": ["P1", "P2"], "land_use": ["Residential", "Park"]},
        geometry=[box(x0, y0, x0 + 100, y0 + 1200), box(x0 + 200, y0, x0 + 250, y0 + 100)],
        crs="EPSG:2263",
    )
    streets = gpd.GeoDataFrame(
        {"street": ["Main St", "Oak Ave"]},
        geometry=[LineString([(x0, y0), (x0 + 2700, y0)]), LineString([(x0, y0 + 500), (x0, y0 + 2260)])],
        crs="EPSG:2263",
    )
    parks = gpd.GeoDataFrame({"name": ["A"]}, geometry=[box(13.40, 52.50, 13.41, 52.51)], crs="EPSG:4326")
    paths = {"parcels": folder / "parcels.gpkg", "streets": folder / "streets.gpkg", "parks": folder / "parks.gpkg"}
    parcels.to_file(paths["parcels"])
    streets.to_file(paths["streets"])
    parks.to_file(paths["parks"])
    return {k: str(v) for k, v in paths.items()}


def _route(router, text, path, name):
    return router.route(text, [describe_gdf(gpd.read_file(path), name, path)])


def _run(text, path, tmp_path, registry, router):
    report = run_request(text, [path], tmp_path / "out", AgentConfig(offline=True), registry=registry, router=router)
    assert report.status == "ok", (report.error, report.router)
    assert report.tier == 0
    return report, gpd.read_file(report.outputs[-1]["path"])


# -- reading units ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "unit"),
    [
        ("area of each parcel in square feet", "area", "ft2"),
        ("area of the parcels in sq ft", "area", "ft2"),
        ("the square footage of each parcel", "area", "ft2"),
        ("how many acres is each parcel", "area", "acres"),
        ("parcel area in hectares", "area", "ha"),
        ("area in km²", "area", "km2"),
        ("area (sq mi)", "area", "mi2"),
        ("area in square yards", "area", "yd2"),
        ("area in feet", "area", "ft2"),
        ("Fläche der Parzellen in Quadratfuß", "area", "ft2"),
        ("Fläche in Quadratmeilen", "area", "mi2"),
        ("计算每个地块的面积（平方英尺）", "area", "ft2"),
        ("每个区的面积是多少平方英里", "area", "mi2"),
        ("地块面积是多少亩", "area", "mu"),
        ("以公顷计算面积", "area", "ha"),
        ("total length of the streets in miles", "length", "mi"),
        ("street length in yards", "length", "yd"),
        ("length in nautical miles", "length", "nmi"),
        ("Länge der Straßen in Kilometern", "length", "km"),
        ("计算街道长度（英尺）", "length", "ft"),
        ("area of the parcels", "area", None),
        ("area of parcels larger than 3 acres", "area", None),  # a quantity, not the output unit
    ],
)
def test_unit_read(text, kind, unit):
    allowed = AREA_UNITS if kind == "area" else LENGTH_UNITS
    assert unit_for(fold(text), kind, tuple(allowed)) == (unit, None)


@pytest.mark.parametrize(
    ("text", "kind", "problem"),
    [
        ("area in acres and hectares", "area", "unit: several units (acres, ha)"),
        ("length of the streets in square feet", "length", "unit: square feet (not a unit of length)"),
        ("area in nautical miles", "area", "unit: nautical miles (not a unit of area)"),
        ("area of each parcel in rods", "area", "unit: rods (not a unit GeoClerk measures in)"),
        ("length of the rivers in cm", "length", "unit: cm (not a unit GeoClerk measures in)"),
        ("area of parcels in cm2", "area", "unit: cm2 (not a unit GeoClerk measures in)"),
        ("Fläche in Morgen", "area", "unit: morgen (not a unit GeoClerk measures in)"),
        ("地块面积是多少顷", "area", "unit: 顷 (not a unit GeoClerk measures in)"),
    ],
)
def test_unit_not_readable_is_a_problem(text, kind, problem):
    allowed = AREA_UNITS if kind == "area" else LENGTH_UNITS
    assert unit_for(fold(text), kind, tuple(allowed)) == (None, problem)


def test_every_unit_word_has_a_tool_unit():
    assert set(AREA_UNIT_WORDS) == set(AREA_UNITS)
    assert set(LENGTH_UNIT_WORDS) == set(LENGTH_UNITS)


def test_unit_words_inside_other_words_are_not_units():
    assert output_units(fold("I'm asking for the mean of the farm parcels")) == []
    assert output_units("邮政编码为100的地块") == []


@pytest.mark.parametrize(
    ("text", "metres"),
    [
        ("buffer streets by 1/4 mile", 402.336),
        ("buffer the streets by a quarter mile", 402.336),
        ("buffer the streets by half a mile", 804.672),
        ("buffer the streets by 0.25 mi", 402.336),
        ("buffer the streets by 1 1/2 miles", 2414.016),
        ("buffer by 3/4 mi", 1207.008),
        ("buffer by 100 yards", 91.44),
        ("buffer by 2 nmi", 3704.0),
        ("buffer by 1,000 ft", 304.8),
        ("在1/4英里内", 402.336),
        ("buffer the hospitals by three quarters of a mile", 1207.008),
        ("Puffer von drei Viertel Meile", 1207.008),
        ("缓冲四分之三英里", 1207.008),
        ("buffer by 2 thirds of a mile", 1072.896),
    ],
)
def test_distances_with_units_and_fractions(text, metres):
    found = find_distances(text)
    assert len(found) == 1
    assert found[0].metres == pytest.approx(metres)


# -- the plan --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("area of each parcel in square feet", "ft2"),
        ("area of each parcel in acres", "acres"),
        ("Fläche jeder Parzelle in Quadratfuß", "ft2"),
        ("计算每个地块的面积（平方英尺）", "ft2"),
    ],
)
def test_plan_reads_area_unit(router, data, text, unit):
    decision = _route(router, text, data["parcels"], "parcels")
    assert decision.plan.tool == "geometry_area"
    assert decision.plan.params == {"layer": "parcels", "unit": unit}
    assert decision.plan.complete


def test_plan_with_two_units_is_incomplete(router, data):
    plan = _route(router, "area of each parcel in acres and in hectares", data["parcels"], "parcels").plan
    assert plan.tool == "geometry_area" and not plan.complete
    assert "unit: several units (acres, ha)" in plan.missing


def test_unit_a_tool_cannot_give_is_missing(router, data):
    plan = _route(router, "distance matrix between the parcels in feet", data["parcels"], "parcels").plan
    assert plan.tool == "distance_matrix"
    assert "unit: feet" in plan.missing


@pytest.mark.parametrize(("text", "metres"), [("buffer the streets by 1/4 mile", 402.336),
                                              ("buffer the streets by half a mile", 804.672),
                                              ("buffer the streets by 0.25 mi", 402.336)])  # fmt: skip
def test_plan_buffer_distance_in_miles(router, data, text, metres):
    plan = _route(router, text, data["streets"], "streets").plan
    assert plan.tool == "buffer" and plan.complete
    assert plan.params["distance"] == pytest.approx(metres)


# -- request in, file out ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "column", "factor"),
    [
        ("area of each parcel in square feet", "area_ft2", 1.0),
        ("area of each parcel in square yards", "area_yd2", 1 / 9),
        ("area of each parcel in acres", "area_acres", 1 / 43560),
        ("area of each parcel in hectares", "area_ha", SQFT / 1e4),
        ("Fläche jeder Parzelle in Quadratfuß", "area_ft2", 1.0),
        ("计算每个地块的面积（亩）", "area_mu", SQFT * 15 / 10000),
    ],
)
def test_area_in_asked_unit_by_value(data, tmp_path, registry, router, text, column, factor):
    report, out = _run(text, data["parcels"], tmp_path, registry, router)
    assert report.steps[0]["tool"] == "geometry_area"
    # a 100 ft × 1200 ft parcel is 120000 ft², a 50 ft × 100 ft one 5000 ft²
    assert out[column].tolist() == pytest.approx([120000 * factor, 5000 * factor], rel=1e-7 if factor == 1 else 1e-4)


@pytest.mark.parametrize(
    ("text", "column", "per_foot"),
    [
        ("length of each street in feet", "length_ft", 1.0),
        ("total length of the streets in miles", "length_mi", 1 / 5280),
        ("length of the streets in yards", "length_yd", 1 / 3),
        ("length of the streets in nautical miles", "length_nmi", 0.3048 / 1852),
    ],
)
def test_length_in_asked_unit_by_value(data, tmp_path, registry, router, text, column, per_foot):
    report, out = _run(text, data["streets"], tmp_path, registry, router)
    assert report.steps[0]["tool"] == "geometry_length"
    rel = 1e-7 if per_foot == 1 else 1e-3  # feet of a US-feet layer are its own US survey feet: exact
    assert out[column].tolist() == pytest.approx([2700 * per_foot, 1760 * per_foot], rel=rel)


def test_area_of_wgs84_layer_in_square_miles(data, tmp_path, registry, router):
    from pyproj import Geod

    report, out = _run("area of the parks in square miles", data["parks"], tmp_path, registry, router)
    geodesic_m2 = abs(Geod(ellps="WGS84").geometry_area_perimeter(box(13.40, 52.50, 13.41, 52.51))[0])
    assert out["area_mi2"].iloc[0] == pytest.approx(geodesic_m2 / 2589988.110336, rel=1e-3)
    assert "mi²" in report.answer


def test_unreadable_unit_needs_llm_never_square_metres(data, tmp_path, registry, router):
    report = run_request(
        "area of each parcel in acres and in hectares",
        [data["parcels"]],
        tmp_path / "out",
        AgentConfig(offline=True),
        registry=registry,
        router=router,
    )
    assert report.status == "needs_llm"
    assert "several units" in report.error
    assert report.outputs == []


# -- plain numbers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "shown"),
    [(525000.0, "525,000"), (10500000.0, "10,500,000"), (288314.4123, "288,314.41"), (0.0123, "0.0123"), (20, "20")],
)
def test_plain_numbers(value, shown):
    assert plain_number(value) == shown


def test_statistics_answer_has_no_scientific_notation():
    handlers = pytest.importorskip("geoclerk.geoclerk_plugin.processing_tools.handlers")
    assert handlers._fmt(5.25e5) == "525,000"
    assert handlers._fmt(1.05e7) == "10,500,000"
    assert "e+" not in handlers._fmt(2.883e5)


def test_point_layer_has_no_area(data, tmp_path, registry, router):
    points = tmp_path / "pts.gpkg"
    gpd.GeoDataFrame({"a": [1]}, geometry=[Point(0, 0)], crs="EPSG:32633").to_file(points)
    report = run_request("area of the pts in acres", [str(points)], tmp_path / "o", AgentConfig(offline=True),
                         registry=registry, router=router)  # fmt: skip
    assert report.status in ("error", "needs_llm")


def test_unit_no_tool_gives_blocks_a_count(router, data):
    plan = _route(router, "how many square miles is each parcel", data["parcels"], "parcels").plan
    assert plan.tool == "geometry_area" and plan.params.get("unit") == "mi2" or not plan.complete
