"""Words tier 0 used to explain away: an output's name, a German compound's modifier, a lone capital letter naming a
feature, a statistic the tool does not give. Each dropped word is a filter or step the plan would not apply, so the
plan is incomplete (the request goes to a model); the same request without the word stays complete. English, German
and Chinese."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.function_lib.describe import describe_path

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture(scope="module")
def infos():
    return [describe_path(str(SAMPLE / name)) for name in ("houses.gpkg", "cafes.gpkg", "districts.gpkg", "dem.tif")]


def _plan(router, infos, text):
    return router.route(text, infos).plan


def _missing(plan) -> str:
    return " ".join(map(str, plan.missing)).lower()


# -- an output's name is the user's literal: it explains no other word ('active' of 'active_wells') -------------------
@pytest.mark.parametrize(
    "text",
    [
        "save the detached houses to a shapefile called detached_houses",
        "die detached Häuser als Shapefile namens detached_houses speichern",
        "把detached房屋保存为shapefile，名为detached_houses",
    ],
)
def test_a_word_of_the_output_name_is_no_filter(router, infos, text):
    plan = _plan(router, infos, text)
    assert not plan.complete and "detached" in _missing(plan), plan


@pytest.mark.parametrize(
    "text, name",
    [
        ("save the houses to a shapefile called detached_houses", "detached_houses"),
        ("把房屋保存为shapefile，名为houses_out", "houses_out"),  # the layer's name inside the output's names no layer
    ],
)
def test_the_output_name_itself_is_claimed_where_it_stands(router, infos, text, name):
    plan = _plan(router, infos, text)
    assert plan.complete and plan.params.get("name") == name, plan


# -- a compound's modifier is a word of its own unless the layer's own name is a compound too ------------------------
@pytest.mark.parametrize(
    "text",
    ["Terrassenhäuser als GeoJSON exportieren", "export the terrace houses as GeoJSON", "把联排房屋导出为GeoJSON"],
)
def test_a_modifier_of_the_layer_noun_is_not_dropped(router, infos, text):
    assert not _plan(router, infos, text).complete


@pytest.mark.parametrize(
    "text", ["Häuser als GeoJSON exportieren", "export the houses as GeoJSON", "把房屋导出为GeoJSON"]
)
def test_the_bare_layer_noun_stays_complete(router, infos, text):
    assert _plan(router, infos, text).complete


def test_a_compound_of_a_compound_layer_name_is_its_name(router, tmp_path):
    """'Wasserbezirke' for water_districts: the modifier says the layer's own first word."""
    import geopandas as gpd
    from shapely.geometry import box

    path = tmp_path / "water_districts.gpkg"
    gpd.GeoDataFrame({"wd_id": [1, 2]}, geometry=[box(0, 0, 1, 1), box(1, 0, 2, 1)], crs=25832).to_file(path)
    plan = _plan(router, [describe_path(str(path))], "Wasserbezirke als GeoJSON exportieren")
    assert plan.complete, plan


# -- a lone capital letter after a word names one feature ('zone A'), not the article 'a' ----------------------------
@pytest.mark.parametrize("text", ["the cafes in district A", "die Cafés im Bezirk A", "B区里的咖啡馆"])
def test_a_capital_letter_names_a_feature(router, infos, text):
    assert not _plan(router, infos, text).complete


@pytest.mark.parametrize("text", ["the cafes in the districts", "a buffer of 100 m around the cafes"])
def test_the_article_a_stays_a_filler(router, infos, text):
    assert _plan(router, infos, text).complete


# -- a statistic the tool does not give (zonal statistics: count, sum, mean, min, max) --------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "median elevation per district from the dem",  # 'median' is also part of a field the plan does not use
        "Median des DEM je Bezirk",
        "每个区的高程中位数",
    ],
)
def test_a_statistic_the_tool_does_not_give_is_missing(router, infos, text):
    plan = _plan(router, infos, text)
    assert not plan.complete and "median" in _missing(plan), plan


@pytest.mark.parametrize("text", ["mean elevation per district from the dem", "每个区的平均高程"])
def test_a_statistic_the_tool_gives_stays_complete(router, infos, text):
    plan = _plan(router, infos, text)
    assert plan.complete and plan.tool == "qgis_zonal_statistics", plan


def test_both_halves_of_zonal_statistics_declare_what_they_give():
    """The GeoPandas twin of QGIS's zonal statistics (function_lib/geojson/imagery.py) gives no median either."""
    from geoclerk.function_lib.traits import GIVES_STATISTICS

    assert GIVES_STATISTICS["zonal_statistics"] == GIVES_STATISTICS["qgis_zonal_statistics"]
    assert "median" not in GIVES_STATISTICS["zonal_statistics"]


# -- a kind of the layer's thing ('chairlifts' of 'lifts') may be a subset when the layer records kinds ---------------
def _lines(tmp_path, name, columns):
    import geopandas as gpd
    from shapely.geometry import LineString

    rows = [LineString([(2600000 + 100 * i, 1200000), (2600000 + 100 * i, 1200500)]) for i in range(4)]
    gdf = gpd.GeoDataFrame(columns, geometry=rows, crs=2056)
    path = tmp_path / f"{name}.gpkg"
    gdf.to_file(path)
    return describe_path(str(path))


@pytest.fixture(scope="module")
def lift_layers(tmp_path_factory):
    typed = {"type": ["draglift", "gondola", "chairlift", "chairlift"], "capacity": [900, 2400, 1800, 1500]}
    return {
        "typed": [_lines(tmp_path_factory.mktemp("typed"), "lifts", typed)],
        "untyped": [_lines(tmp_path_factory.mktemp("untyped"), "lifts_plain", {"capacity": [900, 2400, 1800, 1500]})],
        "own_name": [_lines(tmp_path_factory.mktemp("own"), "chairlifts", typed)],
    }


KIND_REQUESTS = [
    "average capacity of the chairlifts",
    "buffer the gondolas by 50 m",
    "Durchschnittliche Kapazität der Sessellifte",
    "Puffere die Seilbahnen um 50 m",
    "缆车的平均运力",
    "把吊椅缓冲50米",
]


@pytest.mark.parametrize("text", KIND_REQUESTS)
def test_a_kind_word_on_a_layer_of_kinds_is_not_the_whole_layer(router, lift_layers, text):
    plan = _plan(router, lift_layers["typed"], text)
    assert not plan.complete, plan


@pytest.mark.parametrize(
    "text", ["average capacity of the lifts", "Puffere die Lifte um 50 m", "把lifts缓冲50米", "把索道缓冲50米"]
)
def test_the_layers_own_word_stays_complete(router, lift_layers, text):
    plan = _plan(router, lift_layers["typed"], text)
    assert plan.complete and plan.params.get("layer") == "lifts", plan


@pytest.mark.parametrize("text", ["buffer the chairlifts by 50 m", "Puffere die Sessellifte um 50 m", "把缆车缓冲50米"])
def test_a_kind_word_names_a_layer_that_records_no_kinds(router, lift_layers, text):
    plan = _plan(router, lift_layers["untyped"], text)
    assert plan.complete and plan.params.get("layer") == "lifts_plain", plan


def test_a_layer_named_by_the_kind_is_named_by_it(router, lift_layers):
    plan = _plan(router, lift_layers["own_name"], "buffer the chairlifts by 50 m")
    assert plan.complete and plan.params.get("layer") == "chairlifts", plan


def test_records_kinds_reads_type_fields_and_values():
    from geoclerk.function_lib.describe import FieldInfo, LayerInfo
    from geoclerk.reading.schema_match import records_kinds

    typed = LayerInfo("lifts", fields=[FieldInfo("Lift_Type", "string", ["T-bar"])])
    valued = LayerInfo("lifts", fields=[FieldInfo("use", "string", ["gondola", "chairlift"])])
    plain = LayerInfo("lifts", fields=[FieldInfo("capacity", "integer", [900]), FieldInfo("name", "string", ["A"])])
    german = LayerInfo("lifte", fields=[FieldInfo("Art", "string", ["Schlepplift"])])
    chinese = LayerInfo("索道", fields=[FieldInfo("类型", "string", ["吊椅"])])
    assert records_kinds(typed, "chairlift") and records_kinds(valued, "chairlifts")
    assert records_kinds(german, "sessellift") and records_kinds(chinese, "缆车")
    assert not records_kinds(plain, "chairlift") and not records_kinds(valued, "draglift")


@pytest.mark.parametrize("text", ["how many clinics are there?", "Wie viele Kliniken gibt es?", "有多少个诊所？"])
def test_clinics_of_a_hospitals_layer_with_a_type_are_not_every_hospital(router, tmp_path, text):
    """blind11 de056 counted all 10 hospitals for 'Kliniken' where 5 are of type 'clinic'."""
    import geopandas as gpd
    from shapely.geometry import Point

    path = tmp_path / "hospitals.gpkg"
    gpd.GeoDataFrame({"type": ["general", "clinic", "clinic"], "beds": [300, 20, 15]}, crs=2154,
                     geometry=[Point(700000 + i, 6280000) for i in range(3)]).to_file(path)  # fmt: skip
    plan = router.route(text, [describe_path(str(path))]).plan
    assert not plan.complete, plan
    assert router.route("how many hospitals are there?", [describe_path(str(path))]).plan.complete


@pytest.mark.parametrize("text", ["Puffere die Sessellifte um 50 m", "把吊椅缓冲50米", "buffer the chair lifts by 50m"])
def test_a_kind_said_in_another_language_than_the_values_is_a_subset_too(router, tmp_path, text):
    """The values are English ('chairlift' in a field named 'use', no 'type' field): the German and Chinese names
    of the same kind find them."""
    import geopandas as gpd
    from shapely.geometry import LineString

    path = tmp_path / "lifts.gpkg"
    lines = [LineString([(2600000 + 100 * i, 1200000), (2600000 + 100 * i, 1200500)]) for i in range(3)]
    gpd.GeoDataFrame({"use": ["chairlift", "draglift", "chairlift"]}, geometry=lines, crs=2056).to_file(path)
    assert not router.route(text, [describe_path(str(path))]).plan.complete
