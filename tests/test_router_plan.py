"""Tier-0 plans: parameters filled by kind, layer roles, completeness and ambiguity, against the real specs."""

from __future__ import annotations

import pytest
from geoclerk.function_lib import load_registry
from geoclerk.planning.plan import fill_plan

from tests.test_router_extract import ALL, BUS_STOPS, DISTRICTS, ROADS, SCHOOLS, layer

REGISTRY = load_registry()


def plan(tool, text, layers=ALL):
    return fill_plan(REGISTRY.get(tool).spec, text, layers)


@pytest.mark.parametrize(
    "tool, text, layers, params",
    [
        ("buffer", "buffer the schools by 500 m", ALL, {"layer": "schools", "distance": 500}),
        ("buffer", "Puffer von 1,5 km um die Schulen", ALL, {"layer": "schools", "distance": 1500}),
        ("buffer", "学校周围半公里的缓冲区", ALL, {"layer": "schools", "distance": 500}),
        (
            "buffer",
            "3 rings of 100 m around the schools, dissolved",
            ALL,
            {"layer": "schools", "distance": 100, "rings": 3, "dissolve": True},
        ),
        ("buffer", "buffer by 2 miles", [SCHOOLS], {"layer": "schools", "distance": 3218.688}),
        ("reproject", "reproject the roads to web mercator", ALL, {"layer": "roads", "crs": "EPSG:3857"}),
        ("clip", "clip roads to districts", ALL, {"layer": "roads", "overlay": "districts"}),
        ("clip", "用行政区裁剪道路", ALL, {"layer": "roads", "overlay": "districts"}),
        (
            "count_points_in_polygons",
            "count bus stops in each district",
            ALL,
            {"polygons": "districts", "points": "bus_stops"},
        ),
        (
            "count_points_in_polygons",
            "how many points in each polygon",
            [SCHOOLS, DISTRICTS],
            {"polygons": "districts", "points": "schools"},
        ),
        (
            "within_distance",
            "roads within 200 m of schools",
            ALL,
            {"layer": "roads", "reference": "schools", "distance": 200},
        ),
        (
            "filter_by_expression",
            "districts with population over 100,000 and type urban",
            ALL,
            {"layer": "districts", "expression": '"POP2020" > 100000 AND "type" = \'urban\''},
        ),
        ("save_result", "save the roads as a shapefile", ALL, {"layer": "roads", "format": "shp"}),
        (
            "sort_by_field",
            "sort districts by population, highest first",
            ALL,
            {"layer": "districts", "field": "POP2020", "descending": True},
        ),
        (
            "group_by",
            "total population by type",
            [DISTRICTS],
            {"layer": "districts", "by": ["type"], "field": "POP2020", "agg": "sum"},
        ),
        (
            "cluster_points",
            "cluster the schools into 5 groups",
            ALL,
            {"layer": "schools", "clusters": 5, "method": "kmeans"},
        ),
        ("select_rows", "primary roads", ALL, {"layer": "roads", "field": "fclass", "value": "primary"}),
        (
            "add_field",
            "add a field called density = POP2020 / area_km2 to districts",
            ALL,
            {"layer": "districts", "field_name": "density", "expression": '"POP2020" / "area_km2"'},
        ),
        (
            "add_field",
            "in districts make a field named pop_k holding population times 1000",
            ALL,
            {"layer": "districts", "field_name": "pop_k", "expression": '"POP2020" * 1000'},
        ),
        (
            "rename_field",
            "rename NAME_EN to title in districts",
            ALL,
            {"layer": "districts", "field": "NAME_EN", "new_name": "title"},
        ),
        (
            "qgis_heatmap",
            "heatmap of schools with a 500 m radius and 10 m pixels",
            ALL,
            {"layer": "schools", "radius": 500, "pixel_size": 10},
        ),
        ("qgis_zonal_statistics", "mean elevation per district", ALL, {"layer": "districts", "raster": "dem"}),
        ("qgis_contours", "contour lines every 10 m from the dem", ALL, {"raster": "dem", "interval": 10}),
        (
            "qgis_extract_by_attribute",
            "roads with maxspeed over 50",
            ALL,
            {"layer": "roads", "field": "maxspeed", "operator": ">", "value": "50"},
        ),
        ("buffer", "buffer data/roads.shp by 100 m", [], {"layer": "data/roads.shp", "distance": 100}),
    ],
)
def test_complete_plans(tool, text, layers, params):
    p = plan(tool, text, layers)
    assert (p.tool, p.params, p.complete, p.missing) == (tool, params, True, [])


@pytest.mark.parametrize(
    "tool, text, layers, missing",
    [
        ("buffer", "buffer the schools", ALL, ["distance"]),  # no distance said
        ("buffer", "buffer by 500 m", [SCHOOLS, ROADS], ["layer"]),  # two candidates, no cue
        ("reproject", "reproject the roads", ALL, ["crs"]),
        ("clip", "clip to the districts", ALL, ["layer"]),  # roads or schools or bus stops?
        ("count_points_in_polygons", "count the points per polygon", [SCHOOLS, BUS_STOPS, DISTRICTS], ["points"]),
        ("clip", "clip the roads to the districts, then count them", ALL, ["next_step"]),  # a chain: tier 1
        ("buffer", "buffer the hospitals by 1 km", [SCHOOLS], ["layer"]),  # names a layer that is not loaded
        ("buffer", "intersect the districts with a 1 km buffer of the schools", ALL, ["next_step"]),  # nested
        ("count_points_in_polygons", "count hospitals per district", [SCHOOLS, DISTRICTS], ["points"]),
    ],
)
def test_incomplete_plans_say_what_is_missing(tool, text, layers, missing):
    p = plan(tool, text, layers)
    assert not p.complete
    assert p.missing == missing


def test_clip_to_the_only_other_layer_is_unambiguous():
    p = plan("clip", "clip to the districts", [ROADS, DISTRICTS])
    assert p.params == {"layer": "roads", "overlay": "districts"} and p.complete


def test_field_values_keep_their_case_from_the_data():
    cities = layer("cities", "Point", [("NAME", "string", ["Oak Park", "Riverside"]), ("POP", "integer", [5])])
    p = plan("filter_by_expression", "cities with NAME is Oak Park", [cities])
    assert p.params["expression"] == "\"NAME\" = 'Oak Park'"


# -- 'every' after a role preposition quantifies the reference, it does not make it the main layer ----------------
@pytest.mark.parametrize(
    "text",
    [
        "bus stops that are more than 300 m away from every school",
        "Bushaltestellen, die mehr als 300 m von jeder Schule entfernt sind",
        "距离每所学校都超过300米的公交站",
    ],
)
def test_every_after_from_quantifies_the_reference(text):
    p = plan("within_distance", text, [BUS_STOPS, SCHOOLS])
    assert p.params.get("layer") == "bus_stops" and p.params.get("reference") == "schools"
    if p.complete:  # answered: the stops farther than 300 m from all schools; otherwise declined, never reversed
        assert p.params.get("outside") is True and p.params.get("distance") == 300


@pytest.mark.parametrize(
    "text",
    ["find the nearest bus stop to every school", "die nächste Bushaltestelle zu jeder Schule", "每所学校最近的公交站"],
)
def test_every_after_to_still_names_the_layer_each_feature_of_which_gets_a_result(text):
    p = plan("join_nearest", text, [BUS_STOPS, SCHOOLS])
    if p.complete or "layer" in p.params:  # never the stops as the main layer: one line per school
        assert p.params.get("layer") == "schools" and p.params.get("target") == "bus_stops"
