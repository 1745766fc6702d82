"""zh/de/en attribute queries: patterns, native field names, Chinese numbers, top-N, totals and their tier-0 plans."""

from __future__ import annotations

import json

import pytest
from geoclerk.function_lib import load_registry
from geoclerk.function_lib.describe import FieldInfo, LayerInfo
from geoclerk.planning.plan import fill_plan
from geoclerk.reading.conditions import conditions_expression, find_conditions
from geoclerk.reading.schema_match import find_fields
from geoclerk.reading.text import detect_lang, find_numbers, fold, zh_value
from geoclerk.router.model import normalise

REGISTRY = load_registry()


def layer(name, geom, fields):
    fields = [FieldInfo(*f) for f in fields]
    return LayerInfo(name=name, geometry_type=geom, kind="vector", crs="EPSG:32633", fields=fields)


TOWNS = layer(
    "towns",
    "Polygon",
    [("镇名", "string", ["城关镇", "新华镇"]), ("人口", "integer", [12000, 8000]), ("类型", "string", ["镇", "乡"])],
)
HOSPITALS = layer("hospitals", "Point", [("医院名称", "string", ["人民医院"]), ("床位数", "integer", [800]),
                                         ("等级", "string", ["三甲", "二甲"])])  # fmt: skip
PHARMACIES = layer(
    "apotheken", "Point", [("Name", "string", ["Stern-Apotheke"]), ("Stadtteil", "string", ["Altstadt", "Neustadt"])]
)
GEMEINDEN = layer("gemeinden", "Polygon", [("Gemeinde", "string", ["Hausen"]), ("Einwohner", "integer", [4200])])
SCHOOLS = layer("schools", "Point", [("name", "string", ["Linden Primary"]), ("type", "string", ["primary", "high"]),
                                     ("students", "integer", [645])])  # fmt: skip
PARCELS = layer("parcels", "Polygon", [("Land Use", "string", ["Park", "Commercial"]), ("NAME_EN", "string", ["T 1"])])


@pytest.mark.parametrize(
    "text, lyr, expression",
    [
        # a user's own LIKE pattern is kept as written (it was '%Tract 1%%', a contains match)
        ("tracts where NAME_EN like 'Tract 1%'", PARCELS, "\"NAME_EN\" LIKE 'Tract 1%'"),
        ("NAME_EN like '%T_1'", PARCELS, "\"NAME_EN\" LIKE '%T_1'"),
        ("NAME_EN starts with 'Tract'", PARCELS, "\"NAME_EN\" LIKE 'Tract%'"),
        ("select parcels where \"Land Use\" = 'Park'", PARCELS, "\"Land Use\" = 'Park'"),
        # German: the value before the verb
        ("Apotheken, deren Name mit 'Stern' anfängt", PHARMACIES, "\"Name\" LIKE 'Stern%'"),
        ("Apotheken, deren Name mit Stern beginnt", PHARMACIES, "\"Name\" LIKE 'Stern%'"),
        ("Apotheken deren Name 'Löwen' enthält", PHARMACIES, "\"Name\" LIKE '%Löwen%'"),
        ("Apotheken, deren Name auf 'apotheke' endet", PHARMACIES, "\"Name\" LIKE '%apotheke'"),
        ("Gemeinden ab 30.000 Einwohnern", GEMEINDEN, '"Einwohner" >= 30000'),
        ("Gemeinden bis 5000 Einwohner", GEMEINDEN, '"Einwohner" <= 5000'),
        # Chinese: 以…开头/结尾, 包含, values end at 的, 不足 and number words
        ("镇名以东开头的乡镇", TOWNS, "\"镇名\" LIKE '东%'"),
        ("镇名以山结尾的乡镇", TOWNS, "\"镇名\" LIKE '%山'"),
        ("镇名中含有'北'的乡镇", TOWNS, "\"镇名\" LIKE '%北%'"),
        ("镇名包含河的乡镇", TOWNS, "\"镇名\" LIKE '%河%'"),
        ("镇名为武侯镇的乡镇", TOWNS, "\"镇名\" = '武侯镇'"),
        ("类型是乡的乡镇", TOWNS, "\"类型\" = '乡'"),
        ("人口不足5千的镇", TOWNS, '"人口" < 5000'),
        ("人口介于两万和五万之间的乡镇", TOWNS, '"人口" >= 20000 AND "人口" <= 50000'),
        ("人口在5000到1.2万之间的乡镇", TOWNS, '"人口" >= 5000 AND "人口" <= 12000'),
        ("人口超过三千五的乡镇", TOWNS, '"人口" > 3500'),
    ],
)
def test_conditions(text, lyr, expression):
    assert conditions_expression(find_conditions(text, lyr), text) == expression


@pytest.mark.parametrize(
    "text, value",
    [("三千五", 3500), ("一万五", 15000), ("两百五", 250), ("一千零五", 1005), ("两千三百", 2300), ("两亿", 2e8),
     ("一亿五千万", 1.5e8), ("十五", 15), ("两万", 20000)],
)  # fmt: skip
def test_chinese_numerals(text, value):
    assert zh_value(text) == value


def test_numbers_and_language():
    assert [n.value for n in find_numbers("人口超过两亿的国家", "zh")] == [2e8]
    assert detect_lang("Gemeinden ab 30.000 Einwohnern") == "de"
    assert detect_lang("show me what it has") == "en"


@pytest.mark.parametrize(
    "text, lyr, field",
    [
        ("die drei größten Schulen nach Schülerzahl", SCHOOLS, "students"),  # Schüler|zahl
        ("durchschnittliche Schülerzahl pro Schultyp", SCHOOLS, "type"),  # Schul|typ
        ("die 5 bevölkerungsreichsten", GEMEINDEN, "Einwohner"),  # a field named like the concept word
        ("按等级统计医院的床位总数", HOSPITALS, "床位数"),  # 床位 names 床位数
        ("居民最多的乡镇", TOWNS, "人口"),
    ],
)
def test_fields_by_compound_or_stem(text, lyr, field):
    assert field in {m.name for m in find_fields(fold(text), lyr)}


def test_chinese_number_words_are_features_like_digits():
    assert normalise("学生人数大于一千的学校") == normalise("学生人数大于1000的学校")
    assert normalise("人口不足5千的镇") == normalise("人口不足5000的镇")
    assert normalise("缓冲五千米") == "缓冲五千米"  # a distance stays a distance
    assert normalise("缓冲5千米") == "缓冲0千米"


def plan(tool, text, layers):
    return fill_plan(REGISTRY.get(tool).spec, text, layers)


@pytest.mark.parametrize(
    "tool, text, layers, params",
    [
        ("select_rows", "人口最多的3个乡镇", [TOWNS],
         {"layer": "towns", "field": "人口", "top_n": 3, "ascending": False}),
        ("select_rows", "床位数最少的医院", [HOSPITALS], {"layer": "hospitals", "field": "床位数", "top_n": 1,
                                                        "ascending": True}),
        ("select_rows", "die 5 bevölkerungsreichsten Gemeinden", [GEMEINDEN],
         {"layer": "gemeinden", "field": "Einwohner", "top_n": 5}),  # ascending: False is the default
        ("select_rows", "Welche Gemeinde hat die wenigsten Einwohner?", [GEMEINDEN],
         {"layer": "gemeinden", "field": "Einwohner", "top_n": 1, "ascending": True}),
        ("count_features", "每种类型的乡镇各有多少个", [TOWNS], {"layer": "towns", "by": "类型"}),
        ("group_by", "按等级统计医院的床位总数", [HOSPITALS],
         {"layer": "hospitals", "by": ["等级"], "field": "床位数", "agg": "sum"}),
        ("qgis_basic_statistics", "全部乡镇的人口总和", [TOWNS], {"layer": "towns", "field": "人口"}),
    ],
)  # fmt: skip
def test_complete_plans(tool, text, layers, params):
    p = plan(tool, text, layers)
    assert p.complete, p.missing
    assert p.params == params


def test_a_sum_per_group_without_a_value_field_is_incomplete():
    p = plan("group_by", "按等级统计医院的总数值", [layer("h", "Point", [("等级", "string", ["三甲"])])])
    assert not p.complete and "field" in p.missing


def test_corpus_has_native_layers_and_pattern_labels():
    """The generated corpus trains on Chinese/German field names and on LIKE conditions, with real fields."""
    from geoclerk.router.train import CORPUS

    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    names = [{f["name"] for la in r["layers"] for f in la["fields"]} for r in rows]
    assert sum(1 for r, n in zip(rows, names) if r["lang"] == "zh" and n & {"人口", "类型", "名称"}) >= 30
    assert sum(1 for r, n in zip(rows, names) if r["lang"] == "de" and n & {"Einwohner", "Typ", "Bezeichnung"}) >= 30
    likes = [r for r in rows if "LIKE" in ((r.get("params") or {}).get("expression") or "")]
    assert len(likes) >= 10
    for r in likes:
        fields = {f["name"] for la in r["layers"] for f in la["fields"]}
        assert r["params"]["expression"].split('"')[1] in fields


CN_DISTRICTS = layer(
    "cn_districts",
    "Polygon",
    [("区名", "string", ["锦江区", "青羊区"]), ("人口", "integer", [12000]), ("类型", "string", ["城区", "郊区"])],
)
DE_DISTRICTS = layer(
    "bezirke",
    "Polygon",
    [("Stadtteil", "string", ["Schwabing"]), ("Einwohner", "integer", [1]), ("Fläche_ha", "real", [4.5])],
)


@pytest.mark.parametrize(
    "tool, text, layers, params",
    [
        # a theme word said as a field's value is not the layer: '城区' is a 类型, not 'the districts'
        ("filter_by_expression", "类型为城区的区", [CN_DISTRICTS],
         {"layer": "cn_districts", "expression": "\"类型\" = '城区'"}),
        ("filter_by_expression", "区名为武侯区的区", [CN_DISTRICTS],
         {"layer": "cn_districts", "expression": "\"区名\" = '武侯区'"}),
        # 'größten' only hints at area: the field named after 'nach' ranks
        ("select_rows", "die 3 größten Stadtteile nach Einwohnern", [DE_DISTRICTS],
         {"layer": "bezirke", "field": "Einwohner", "top_n": 3, "ascending": False}),
        # a theme word inside an identifier ('district_name') is part of the new name, not a layer mention
        ("rename_field", "将 区名 改名为 district_name", [CN_DISTRICTS],
         {"layer": "cn_districts", "field": "区名", "new_name": "district_name"}),
        ("rename_field", "cn_districts里的类型列改叫type", [CN_DISTRICTS],
         {"layer": "cn_districts", "field": "类型", "new_name": "type"}),
    ],
)  # fmt: skip
def test_values_and_identifiers_are_not_layers(tool, text, layers, params):
    p = plan(tool, text, layers)
    assert p.complete, p.missing
    assert p.params == params


def test_a_filter_sentence_gives_no_rename():
    """'区名为武侯区的区' names no new name: a bare 为 is no rename cue, so a rename plan stays incomplete."""
    p = plan("rename_field", "区名为武侯区的区", [CN_DISTRICTS])
    assert not p.complete and "new_name" in p.missing


def test_a_group_word_for_a_tool_without_groups_is_unconsumed():
    p = plan("qgis_basic_statistics", "durchschnittliche Schülerzahl pro Schultyp", [SCHOOLS])
    assert p.params.get("field") == "students"
    assert not p.complete and any(m.startswith("field: type") for m in p.missing)


def test_pharmacies_are_a_layer_theme():
    from geoclerk.reading.schema_match import find_layers

    pharmacies = layer("de_apotheken", "Point", [("Name", "string", ["Löwen-Apotheke"])])
    assert [m.name for m in find_layers("zähle die apotheken pro stadtteil", [DE_DISTRICTS, pharmacies])] == [
        "de_apotheken",
        "bezirke",
    ]


def test_the_one_character_district_word():
    from geoclerk.reading.schema_match import find_layers

    schools = layer("cn_schools", "Point", [("名称", "string", ["第一中学"])])
    found = find_layers("统计每个区内的学校数量", [CN_DISTRICTS, schools])
    assert sorted(m.name for m in found) == ["cn_districts", "cn_schools"]
    assert find_layers("武侯区内的学校", [CN_DISTRICTS]) == []  # a district's own name is no mention of the layer


HOUSES = layer("houses", "Point", [("value_eur", "integer", [367000]), ("year_built", "integer", [1983])])


@pytest.mark.parametrize(
    "text, lyr, expression",
    [
        ("districts with a name containing 'stadt'", SCHOOLS, "\"name\" LIKE '%stadt%'"),  # not 'contain' + 'ing'
        ("Bezirke, deren Name nicht mit 'Nord' beginnt", PHARMACIES, "\"Name\" NOT LIKE 'Nord%'"),
        ("学校名称不以林开头的学校", layer("s", "Point", [("学校名称", "string", ["林中"])]),
         "\"学校名称\" NOT LIKE '林%'"),
        ("value_eur不足30万的房屋", HOUSES, '"value_eur" < 300000'),  # a Chinese operator right after a field name
        ("1990年以前建成的房屋", HOUSES, '"year_built" < 1990'),
        ("2000年以后建成的房屋", HOUSES, '"year_built" > 2000'),
    ],
)
def test_more_conditions(text, lyr, expression):
    assert conditions_expression(find_conditions(text, lyr), text) == expression


@pytest.mark.parametrize(
    "text, ascending",
    [("the smallest district by area", True), ("top 5 smallest districts", True), ("top 5 districts", False),
     ("the lowest income district", True), ("bottom 3 by rating", True), ("most populous", False)],
)  # fmt: skip
def test_smallest_ranks_ascending(text, ascending):
    from geoclerk.planning.fillers import boolean_for

    assert boolean_for(fold(text), "ascending") is ascending


CAFES = layer("cafes", "Point", [("wifi", "string", ["yes", "no"]), ("rating", "real", [4.5])])
STOPS = layer("stops", "Point", [("shelter", "string", ["ja", "nein"])])


@pytest.mark.parametrize(
    "text, lyr, expression",
    [
        ("cafes with wifi", CAFES, "\"wifi\" = 'yes'"),
        ("cafes without wifi", CAFES, "\"wifi\" = 'no'"),
        ("Cafés mit WLAN und einer Bewertung über 4", CAFES, "\"wifi\" = 'yes' AND \"rating\" > 4"),
        ("Haltestellen ohne Unterstand", STOPS, "\"shelter\" = 'nein'"),
        ("没有候车亭的公交站", STOPS, "\"shelter\" = 'nein'"),
        ("cafes where wifi = 'no'", CAFES, "\"wifi\" = 'no'"),  # a value written out wins
    ],
)
def test_yes_no_fields_after_with_or_without(text, lyr, expression):
    assert conditions_expression(find_conditions(text, lyr), text) == expression
