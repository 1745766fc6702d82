"""Tier-0 plans are complete only when every salient cue is consumed; CRS names with '/'; distance lists; chains."""

from __future__ import annotations

import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib import load_registry
from geoclerk.planning.plan import fill_plan, split_steps
from geoclerk.reading.crs import find_crs

from tests.test_router_extract import layer

REGISTRY = load_registry()

HOSPITALS = layer(
    "hospitals",
    "Point",
    [("id", "integer", [1, 2]), ("NAME_EN", "string", ["Hospital 1", "Hospital 2"]), ("beds", "integer", [50, 90]),
     ("type", "string", ["public", "private"])],
)  # fmt: skip
TRACTS = layer(
    "census_tracts",
    "Polygon",
    [("TRACT_ID", "string", ["T01", "T02"]), ("NAME_EN", "string", ["Tract 1", "Tract 2"]),
     ("POP2020", "integer", [1350, 4200]), ("median_age", "real", [33.5]), ("district", "string", ["North", "South"])],
)  # fmt: skip
RIVERS = layer("rivers", "LineString", [("name", "string", ["Blue River", "Green River"])])
PARKS = layer("parks", "Polygon", [("name", "string", ["Oak Park"]), ("kind", "string", ["forest", "garden"])])
HOUSES = layer("houses", "Point", [("year", "integer", [1990])])
DISTRICTS = layer("districts", "Polygon", [("name", "string", ["Altstadt"])])
CITY = [HOSPITALS, TRACTS, RIVERS, PARKS]


def plan(tool, text, layers):
    return fill_plan(REGISTRY.get(tool).spec, text, layers)


# Plain requests keep complete plans (negative rows: the tracking must not block ordinary work).
@pytest.mark.parametrize(
    "tool, text, layers, params",
    [
        ("buffer", "buffer roads by 100 m", [layer("roads", "LineString")], {"layer": "roads", "distance": 100}),
        ("reproject", "reproject to EPSG:4326", [HOSPITALS], {"layer": "hospitals", "crs": "EPSG:4326"}),
        (
            "count_points_in_polygons",
            "count the houses in each district",
            [HOUSES, DISTRICTS],
            {"polygons": "districts", "points": "houses"},
        ),
        ("buffer", "buffer the hospitals by 500 m", CITY, {"layer": "hospitals", "distance": 500}),
        (
            "filter_by_expression",
            "select tracts where POP2020 > 4000",
            CITY,
            {"layer": "census_tracts", "expression": '"POP2020" > 4000'},
        ),
        (
            "filter_by_expression",
            "private hospitals only",
            CITY,
            {"layer": "hospitals", "expression": "\"type\" = 'private'"},
        ),
        ("dissolve", "dissolve tracts by district", CITY, {"layer": "census_tracts", "fields": ["district"]}),
        ("reproject", "reproject the hospitals to WGS 84", CITY, {"layer": "hospitals", "crs": "EPSG:4326"}),
        ("cluster_points", "cluster hospitals with k-means into 3 groups", CITY,
         {"layer": "hospitals", "method": "kmeans", "clusters": 3}),
        ("bounding_geometry", "minimum bounding circle around the hospitals", CITY,
         {"layer": "hospitals", "shape": "circle"}),
    ],
)  # fmt: skip
def test_plain_requests_stay_complete(tool, text, layers, params):
    p = plan(tool, text, layers)
    assert p.complete, p.missing
    assert p.params == params


# Unconsumed cues: the plan is not complete and `missing` names what was not understood.
@pytest.mark.parametrize(
    "tool, text, missing",
    [
        ("buffer", "5 km buffer around Hospital 3", "selection: Hospital 3"),
        ("buffer", "buffer the hospitals by 500 m, but only public ones", "selection: public"),
        ("geometry_area", "area of tract T05 in km2", "selection: T05"),
        ("within_distance", "count hospitals within 1 km of the Blue River", "selection: Blue River"),
        ("filter_by_expression", "select tracts with POP2020 > 4000, dissolve them, and compute the area", "next_step"),
        ("within_distance", "find parks within 1 km of a hospital and sum their area", "next_step"),
        ("buffer", "buffer hospitals by 500m and 1km", "distance: several distances (500 m, 1000 m)"),
        ("dissolve", "dissolve tracts by ward", "field: ward (no such field)"),
        ("distance_matrix", "distance matrix between the hospitals in miles", "unit: miles"),
        ("buffer", "buffer the hospitals by 200 m where beds > 70", "number: 70"),
        ("centroids", "centroids of the hospitals with the most beds", "field: beds"),
        ("geometry_length", "average length of the rivers", "aggregation: mean"),
        ("sort_by_field", "sort the tracts by POP2020 and average median_age", "aggregation: mean of median_age"),
        ("buffer", "buffer the hospitals with the most beds by 1 km", "field: beds"),
        ("buffer", "把医院缓冲1公里并统计每个普查区的数量", "next_step"),
    ],
)
def test_unconsumed_cues_block_tier0(tool, text, missing):
    p = plan(tool, text, CITY)
    assert not p.complete
    assert missing in p.missing


def test_field_read_by_meaning_is_noted():
    p = plan("filter_by_expression", "select tracts where population > 4000", CITY)
    assert p.complete and p.params["expression"] == '"POP2020" > 4000'
    assert p.notes == ["'population' read as field POP2020 of census_tracts"]
    assert p.to_json()["notes"] == p.notes


def test_unit_is_consumed_by_the_unit_param_or_reported():
    spec = REGISTRY.get("geometry_area").spec
    p = plan("geometry_area", "area of each park in hectares", CITY)
    if any(q.name == "unit" for q in spec.params):
        assert p.complete and p.params == {"layer": "parks", "unit": "ha"}
    else:
        assert "unit: hectares" in p.missing


@pytest.mark.parametrize(
    "text, crs",
    [
        ("reproject to NAD83 / New York Long Island (ftUS)", "EPSG:2263"),
        ("reproject to WGS 84 / Pseudo-Mercator", "EPSG:3857"),
        ("reproject to ETRS89 / Portugal TM06", "EPSG:3763"),
        ("assign ETRS89 / UTM zone 32N to it", "EPSG:25832"),
        ("warp lakes to Amersfoort / RD New please", "EPSG:28992"),
        ("to OSGB36 / British National Grid", "EPSG:27700"),
        ("reproject to ETRS89 / No Such Grid", None),  # never the datum before the slash
        ("reproject to lat/lon", "EPSG:4326"),
        ("reproject to EPSG:32633", "EPSG:32633"),
        ("reproject to WGS84", "EPSG:4326"),
    ],
)
def test_crs_names_with_a_slash(text, crs):
    assert find_crs(text) == crs


@pytest.mark.parametrize(
    "text, params, complete",
    [
        ("multi-ring buffer around hospitals at 200, 400 and 600 m", {"distance": 200, "rings": 3}, True),
        ("rings of 100 m and 200 m around the hospitals", {"distance": 100, "rings": 2}, True),
        ("Puffer 200, 400 und 600 Meter um die Krankenhäuser", {"distance": 200, "rings": 3}, True),
        ("buffer hospitals by 500m and 1km", {}, False),
        ("buffer hospitals at 200, 500 and 600 m", {}, False),
        ("buffer the parks by -200 m", {"distance": -200}, True),
        ("buffer the parks inward by 200 m", {"distance": -200}, True),
        ("buffer the parks by 200 m", {"distance": 200}, True),
    ],
)
def test_distance_lists_and_signs(text, params, complete):
    p = plan("buffer", text, CITY)
    got = {k: v for k, v in p.params.items() if k in ("distance", "rings")}
    assert got == params
    assert p.complete is complete


@pytest.mark.parametrize(
    "tool, text, params",
    [
        ("centroids", "centre of all hospitals", {"layer": "hospitals", "whole_layer": True}),
        ("centroids", "the centre of the layer", {"layer": "hospitals", "whole_layer": True}),
        (
            "filter_by_expression",
            "tracts whose NAME_EN contains 'Tract 1'",
            {"layer": "census_tracts", "expression": "\"NAME_EN\" LIKE '%Tract 1%'"},
        ),
        (
            "filter_by_expression",
            "tracts whose NAME_EN starts with Tr",
            {"layer": "census_tracts", "expression": "\"NAME_EN\" LIKE 'Tr%'"},
        ),
        ("qgis_random_points_in_polygons", "random points in parks, 5 per park", {"layer": "parks", "count": 5}),
    ],
)
def test_qa_misses(tool, text, params):
    layers = [HOSPITALS] if text == "the centre of the layer" else CITY
    p = plan(tool, text, layers)
    assert p.complete, p.missing
    assert p.params == params


def test_csv_into_a_point_layer_is_a_geopackage():
    stations = layer("air_stations", None, [("lon", "real", [1.0]), ("lat", "real", [2.0])])
    p = plan("convert_format", "convert the air stations csv into a point layer", [stations])
    assert p.params == {"layer": "air_stations", "format": "gpkg"}


@pytest.mark.parametrize(
    "text, clauses",
    [
        (
            "select tracts with POP2020 > 4000, dissolve them, and compute the area",
            ["select tracts with POP2020 > 4000", "dissolve them", "compute the area"],
        ),
        ("filter private hospitals then buffer them by 1 km", ["filter private hospitals", "buffer them by 1 km"]),
        ("先筛选人口大于4000的区，然后计算面积", ["先筛选人口大于4000的区", "计算面积"]),
        ("Puffere die Schulen um 300 m und verschneide sie mit den Parks",
         ["Puffere die Schulen um 300 m", "verschneide sie mit den Parks"]),
        ("buffer roads by 100 m", ["buffer roads by 100 m"]),
    ],
)  # fmt: skip
def test_split_steps(text, clauses):
    assert split_steps(text) == clauses


@pytest.fixture(scope="module")
def router():
    from geoclerk.router import load_router

    return load_router(REGISTRY)


@pytest.mark.parametrize(
    "text, layers, first_tools",
    [
        ("filter the private hospitals, then clip them to the parks", [HOSPITALS, PARKS],
         {"filter_by_expression", "clip"}),
        ("buffer the hospitals by 1 km and then intersect the buffers with the tracts", [HOSPITALS, TRACTS],
         {"buffer", "overlay"}),
    ],
)  # fmt: skip
def test_chain_tools_include_every_step(router, text, layers, first_tools):
    r = router.route(text, layers)
    assert first_tools <= {n for n, _ in r.tools[:3]}
    out = r.to_json()
    assert len(out["steps"]) == 2 and {"route", "confidence", "tools", "plan"} <= set(out)
    assert not r.plan.complete


@pytest.mark.parametrize("request_value", [42, None, "", "   ", ["buffer"]])
def test_bad_requests_raise_a_validation_error(router, request_value):
    with pytest.raises(ValidationError) as err:
        router.route(request_value, [HOSPITALS])
    assert err.value.fix


@pytest.mark.parametrize(
    "text, tool, params",
    [
        ("hospitals that are not private", "filter_by_expression",
         {"layer": "hospitals", "expression": "\"type\" != 'private'"}),
        ("extract tracts in the North district", "filter_by_expression",
         {"layer": "census_tracts", "expression": "\"district\" = 'North'"}),
        ("perimeter of each park", "geometry_length", {"layer": "parks"}),
        ("centre of all hospitals", "centroids", {"layer": "hospitals", "whole_layer": True}),
    ],
)  # fmt: skip
def test_qa_router_misses_route_and_plan(router, text, tool, params):
    r = router.route(text, CITY)
    assert r.route == "function" and r.tools[0][0] == tool
    assert r.plan.complete and r.plan.params == params
