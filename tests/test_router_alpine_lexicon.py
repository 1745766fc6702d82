"""What German and Chinese users call layers and fields of a mountain region: avalanche zones (Lawinenzonen, 雪崩区),
huts (Berghütten, 山屋), municipalities (Gemeinden, 市镇), snow and weather stations (Schneemessstationen, 积雪站),
lifts (Bahnen, Bergbahnen), difficulty, snow depth, transport capacity, ascent, season, Gesamtlänge. A word that
names two loaded things (Bahn: railway or lift; Gemeinde/市镇: municipality or town) is a question, never a pick, and
a kind word (Sesselbahnen, 拖牵索道) of a layer that records kinds stays unplaced. English, German and Chinese."""

from __future__ import annotations

import pytest
from geoclerk.function_lib.describe import FieldInfo, LayerInfo


def _layer(name, geometry, fields, crs="EPSG:2056"):
    return LayerInfo(
        name=name, kind="vector", geometry_type=geometry, feature_count=10, crs=crs,
        fields=[FieldInfo(n, t, s) for n, t, s in fields],
    )  # fmt: skip


LIFTS = _layer("lifts", "LineString", [("name", "string", ["Lift A"]), ("type", "string", ["chairlift", "gondola"]),
                                       ("capacity", "integer", [1800, 2400])])  # fmt: skip
RAILWAYS = _layer("railways", "LineString", [("line", "string", ["S1"]), ("operator", "string", ["RhB"])])
HUTS = _layer("huts", "Point", [("name", "string", ["Alp Mot"]), ("beds", "integer", [40]),
                                ("season", "string", ["summer", "winter"])], "EPSG:4326")  # fmt: skip
ZONES = _layer("avalanche_zones", "Polygon", [("zone", "string", ["A"]), ("danger", "integer", [3, 4])])
MUNIS = _layer("municipalities", "Polygon", [("name", "string", ["Sarnaz"]), ("population", "integer", [1480])],
               "EPSG:4326")  # fmt: skip
TOWNS = _layer("towns", "Point", [("name", "string", ["Chur"]), ("population", "integer", [37000])])
TRAILS = _layer("trails", "LineString", [("name", "string", ["Zone Trail"]), ("difficulty", "string", ["T1", "T2"]),
                                         ("ascent_m", "integer", [300, 1000])], "EPSG:32632")  # fmt: skip
STATIONS = _layer("snow_stations", "Point", [("code", "string", ["S01"]), ("snow_cm", "integer", [45, 120])],
                  "EPSG:4326")  # fmt: skip
ALL = [LIFTS, HUTS, ZONES, MUNIS, TRAILS, STATIONS]


def _plan(router, layers, text):
    return router.route(text, layers).plan


# -- what users call a layer: a theme word of the user's language finds it --------------------------------------------
@pytest.mark.parametrize(
    "text, layer",
    [
        ("buffer the avalanche zones by 50 m", "avalanche_zones"),  # English named it already
        ("Puffer 50 m um die Lawinenzonen", "avalanche_zones"),
        ("雪崩区缓冲50米", "avalanche_zones"),
        ("buffer the mountain huts by 50 m", "huts"),
        ("Puffer 50 m um die Berghütten", "huts"),
        ("山屋缓冲50米", "huts"),
        ("buffer the municipalities by 50 m", "municipalities"),
        ("Puffer 50 m um die Gemeinden", "municipalities"),
        ("市镇缓冲50米", "municipalities"),
        ("buffer the weather stations by 50 m", "snow_stations"),
        ("Puffer 50 m um die Schneemessstationen", "snow_stations"),
        ("积雪站缓冲50米", "snow_stations"),
        ("buffer the ski lifts by 50 m", "lifts"),
        ("Puffer 50 m um die Bahnen", "lifts"),
        ("Puffer 50 m um die Bergbahnen", "lifts"),
    ],
)
def test_a_layer_is_named_by_what_users_call_it(router, text, layer):
    plan = _plan(router, ALL, text)
    assert plan.tool == "buffer" and plan.complete, plan
    assert plan.params["layer"] == layer and plan.params["distance"] == 50, plan


# -- a word of two themes: the one loaded is meant; two loaded are a question -----------------------------------------
@pytest.mark.parametrize(
    "text, layers, layer",
    [
        ("Puffer 50 m um die Bahnen", [RAILWAYS, HUTS], "railways"),
        ("Puffer 50 m um die Gemeinden", [TOWNS, HUTS], "towns"),
        ("市镇缓冲50米", [TOWNS, HUTS], "towns"),
    ],
)
def test_a_word_of_two_themes_names_the_one_loaded(router, text, layers, layer):
    plan = _plan(router, layers, text)
    assert plan.complete and plan.params["layer"] == layer, plan


@pytest.mark.parametrize(
    "text, layers",
    [
        ("Puffer 50 m um die Bahnen", [LIFTS, RAILWAYS]),
        ("Puffer 50 m um die Gemeinden", [MUNIS, TOWNS]),
        ("市镇缓冲50米", [MUNIS, TOWNS]),
        ("buffer the municipalities by 50 m", [HUTS]),  # no layer of the theme loaded: never another one
        ("Puffer 50 m um die Lawinenzonen", [HUTS, MUNIS]),
        ("雪崩区缓冲50米", [HUTS, MUNIS]),
    ],
)
def test_a_word_no_single_loaded_layer_fits_is_declined(router, text, layers):
    plan = _plan(router, layers, text)
    assert plan is None or not plan.complete, plan


# -- a kind word of a layer that records kinds is no name of the whole layer ------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["buffer the drag lifts by 50 m", "Puffer 50 m um die Sesselbahnen", "Puffer 50 m um die Gondelbahnen",
     "拖牵索道缓冲50米"],
)  # fmt: skip
def test_a_kind_word_of_the_lifts_is_not_every_lift(router, text):
    plan = _plan(router, ALL, text)
    assert not plan.complete, plan


# -- what users call a field ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, field",
    [
        ("lifts with a capacity above 2000", "capacity"),
        ("Bahnen mit einer Förderleistung über 2000", "capacity"),
        ("运量超过2000的索道", "capacity"),
        ("stations with snow above 100", "snow_cm"),
        ("Stationen mit Schneehöhe über 100", "snow_cm"),
        ("积雪深度超过100的积雪站", "snow_cm"),
        ("trails with an ascent above 500", "ascent_m"),
        ("Wanderwege mit einem Aufstieg über 500", "ascent_m"),
        ("爬升超过500的步道", "ascent_m"),
    ],
)
def test_a_field_is_named_by_its_meaning(router, text, field):
    plan = _plan(router, ALL, text)
    assert plan.tool == "filter_by_expression" and plan.complete, plan
    assert f'"{field}"' in plan.params["expression"], plan


@pytest.mark.parametrize(
    "text, field",
    [
        ("How many trails are there per difficulty?", "difficulty"),
        ("Wie viele Wanderwege gibt es pro Schwierigkeitsgrad?", "difficulty"),
        ("每种难度等级的步道有多少条", "difficulty"),
        ("Wie viele Hütten gibt es je Saison?", "season"),
        ("每个季节的山屋有多少个", "season"),
    ],
)
def test_a_grouping_field_is_named_by_its_meaning(router, text, field):
    plan = _plan(router, ALL, text)
    said = [v for x in plan.params.values() for v in (x if isinstance(x, list) else [x])]
    assert plan.complete and field in said, plan


@pytest.mark.parametrize(
    "text", ["Gesamtlänge aller Wanderwege in km", "total length of all trails in km", "所有步道的总长度（公里）"]
)
def test_a_total_length_compound_is_a_measure_word(router, text):
    plan = _plan(router, ALL, text)
    assert plan.tool == "geometry_length" and plan.complete and plan.params["layer"] == "trails", plan
