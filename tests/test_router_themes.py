"""Layers named in the user's language: a theme word matches a layer whose file name has that theme ('Pegel',
'水文站' → gauges), and a theme word for a layer that is not loaded is never answered with another layer."""

from __future__ import annotations

import pytest
from geoclerk.function_lib.describe import LayerInfo
from geoclerk.reading.schema_match import find_layers, layer_theme
from geoclerk.reading.text import fold

GAUGES = LayerInfo(name="gauges", kind="vector", geometry_type="Point", feature_count=30, crs="EPSG:4326")
TRAILS = LayerInfo(name="ski_trails", kind="vector", geometry_type="LineString", feature_count=20, crs="EPSG:32633")
LIFTS = LayerInfo(name="lifts", kind="vector", geometry_type="LineString", feature_count=9, crs="EPSG:32633")
SCHOOLS = LayerInfo(name="schools", kind="vector", geometry_type="Point", feature_count=12, crs="EPSG:32633")


@pytest.mark.parametrize(
    "text, layer",
    [
        ("reproject the gauges to UTM 10N", GAUGES),
        ("Pegel nach UTM Zone 10N umprojizieren", GAUGES),
        ("把水文站投影到UTM 10N", GAUGES),
        ("buffer the trails by 30 m", TRAILS),
        ("Puffer von 30 m um die Pisten", TRAILS),
        ("雪道缓冲30米", TRAILS),
        ("Sessellift mit 80 m puffern", LIFTS),
        ("缆车缓冲80米", LIFTS),
    ],
)
def test_a_layer_is_found_by_its_theme_in_each_language(text, layer):
    found = find_layers(fold(text), [layer, SCHOOLS])
    assert [m.name for m in found] == [layer.name]


def test_file_names_map_to_their_themes():
    assert [layer_theme(n) for n in ("gauges", "ski_trails", "chair_lifts", "snow_cannons", "huts", "streams")] == [
        "gauge", "trail", "lift", "snow_cannon", "shelter", "river"
    ]  # fmt: skip


@pytest.mark.parametrize("text", ["buffer the huts by 100 m", "Puffer 100 m um die Hütten", "避难所缓冲100米"])
def test_a_theme_that_is_not_loaded_is_declined_not_swapped(router, text):
    plan = router.route(text, [SCHOOLS]).plan
    assert plan is None or not plan.complete or plan.params.get("layer") != "schools"


@pytest.mark.parametrize(
    "text", ["the 3 cafes with the most seats", "Die 3 Cafés mit den meisten Sitzplätzen", "座位最多的3家咖啡馆"]
)
def test_a_field_named_by_meaning_in_each_language(router, text):
    from geoclerk.function_lib.describe import FieldInfo

    cafes = LayerInfo(
        name="cafes", kind="vector", geometry_type="Point", feature_count=40, crs="EPSG:32633",
        fields=[FieldInfo("name", "string", ["Cafe 1"]), FieldInfo("seats", "integer", [20, 35]),
                FieldInfo("rating", "real", [4.1])],
    )  # fmt: skip
    plan = router.route(text, [cafes]).plan
    assert plan.tool == "select_rows" and plan.complete
    assert plan.params["field"] == "seats" and plan.params["top_n"] == 3 and plan.params["ascending"] is False
