"""planning/holes.py: a plan's gaps as typed holes with ranked candidates, and the gaps that make no hole."""

from __future__ import annotations

import pytest
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.describe import FieldInfo, LayerInfo
from geoclerk.planning.holes import MAX_CHOICES, holes_of
from geoclerk.planning.result import Gap, Plan


@pytest.fixture(scope="module")
def specs():
    return {s.name: s for s in load_registry().specs()}


def _points(name, fields=()):
    return LayerInfo(name, kind="vector", geometry_type="Point", crs="EPSG:4326",
                     fields=[FieldInfo(n, t) for n, t in fields])  # fmt: skip


def _polygons(name, fields=()):
    return LayerInfo(name, kind="vector", geometry_type="Polygon", crs="EPSG:4326",
                     fields=[FieldInfo(n, t) for n, t in fields])  # fmt: skip


def test_a_layer_hole_offers_the_layers_of_the_geometry_said(specs):
    layers = [_points("cafes"), _points("stops"), _polygons("districts")]
    plan = Plan("buffer", {"distance": 100}, missing=[Gap.param("layer")])
    (hole,) = holes_of(plan, specs["buffer"], layers, "buffer the points by 100 m")
    assert (hole.id, hole.kind, hole.fills, hole.candidates) == ("layer", "layer", "layer", ["cafes", "stops"])
    (hole,) = holes_of(plan, specs["buffer"], layers, "buffer them by 100 m")  # no geometry said: every layer
    assert hole.candidates == ["cafes", "stops", "districts"]


def test_a_layer_already_in_the_plan_is_no_candidate(specs):
    layers = [_points("cafes"), _points("stops"), _polygons("districts")]
    plan = Plan("count_points_in_polygons", {"polygons": "districts"}, missing=[Gap.param("points")])
    (hole,) = holes_of(plan, specs["count_points_in_polygons"], layers, "count the points in each district")
    assert hole.candidates == ["cafes", "stops"] and hole.kind == "layer"


def test_too_many_layers_is_no_closed_question(specs):
    layers = [_points(f"p{i}") for i in range(MAX_CHOICES + 1)]
    plan = Plan("buffer", {"distance": 100}, missing=[Gap.param("layer")])
    assert holes_of(plan, specs["buffer"], layers, "buffer the points by 100 m") == []


def test_a_word_that_is_no_field_is_a_hole_but_not_inside_a_file_name(specs):
    festivals = _points("festivals", [("festival", "string"), ("visitors", "integer")])
    gap = Gap("field", "field: big_festivals (no such field; did you mean festival?)")
    plan = Plan("filter_by_expression", {"layer": "festivals"}, missing=[gap])
    spec = specs["filter_by_expression"]
    saved = "Write the festivals with more than 5000 visitors to big_festivals.gpkg"
    assert holes_of(plan, spec, [festivals], saved) == []  # an output file's name, not a field said
    (hole,) = holes_of(plan, spec, [festivals], "the festivals by big_festivals")
    assert (hole.id, hole.kind, hole.words, hole.candidates) == ("word:big_festivals", "field", "big_festivals",
                                                                 ["festival"])  # fmt: skip
    assert hole.rewrite("the festivals by big_festivals", "festival") == "the festivals by festival"


def test_gaps_without_a_closed_list_make_no_hole(specs):
    layers = [_points("cafes")]
    plan = Plan("buffer", {"layer": "cafes"}, missing=[Gap.param("distance"), Gap("number", "number: 93"),
                                                        Gap("next_step"), Gap.words(["zorbles"])])  # fmt: skip
    assert holes_of(plan, specs["buffer"], layers, "buffer the cafes along the zorbles 93") == []


def test_one_key_of_a_join_said_leaves_the_other_no_question(specs):
    wards = _polygons("wards", [("ward_id", "integer"), ("name", "string")])
    keys = [FieldInfo("ward_id", "integer"), FieldInfo("name", "string")]
    budget = LayerInfo("budget", kind="table", fields=keys)
    said = {"layer": "wards", "table": "budget", "table_field": "name"}
    plan = Plan("join_table", said, missing=[Gap.param("field")])
    assert holes_of(plan, specs["join_table"], [wards, budget], "join budget to wards by name") == []
