"""Negated and IN-list filters (QA3 P1-1, P1-2): the negation and the list survive routing and filter by value."""

from __future__ import annotations

import re
from pathlib import Path

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.describe import describe_gdf
from geoclerk.function_lib.expression import filter_mask
from shapely.geometry import Point


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """Schools (13 privada of 30), stores with cities and a numeric revenue."""
    folder = tmp_path_factory.mktemp("h5neg")
    redes = ["privada"] * 13 + ["municipal"] * 10 + ["estadual"] * 7
    escolas = gpd.GeoDataFrame(
        {"nome": [f"E{i}" for i in range(30)], "rede": redes, "alunos": [100 + 10 * i for i in range(30)]},
        geometry=[Point(-44 + i * 0.01, -19.9) for i in range(30)],
        crs="EPSG:4674",
    )
    cities = ["Lisbon"] * 4 + ["Porto"] * 3 + ["Faro"] * 2 + ["Braga"]
    stores = gpd.GeoDataFrame(
        {"store_id": [f"S{i}" for i in range(10)], "city": cities, "revenue": [10, 20, 30, 40, 50, 60, 70, 80, 90, 5]},
        geometry=[Point(-9 + i * 0.01, 38.7) for i in range(10)],
        crs="EPSG:4326",
    )
    paths = {"escolas": folder / "escolas.gpkg", "stores": folder / "stores.gpkg"}
    escolas.to_file(paths["escolas"])
    stores.to_file(paths["stores"])
    return {k: str(v) for k, v in paths.items()}


def _plan(router, text, path, name):
    decision = router.route(text, [describe_gdf(gpd.read_file(path), name, path)])
    return decision.plan


CASES = [
    ("escolas where rede != 'privada'", "escolas", "\"rede\" != 'privada'", 17),
    ("escolas where rede is not 'privada'", "escolas", "\"rede\" != 'privada'", 17),
    ("escolas where rede <> 'privada'", "escolas", "\"rede\" != 'privada'", 17),
    ("Escolas, deren rede nicht 'privada' ist", "escolas", "\"rede\" != 'privada'", 17),
    ("stores where NOT city = 'Lisbon'", "stores", "\"city\" != 'Lisbon'", 6),
    ("stores where city = 'Lisbon'", "stores", "\"city\" = 'Lisbon'", 4),
    ("stores whose city is not Lisbon", "stores", "\"city\" != 'Lisbon'", 6),
    ("stores with revenue not greater than 50", "stores", '"revenue" <= 50', 6),
    ("stores with revenue not less than 50", "stores", '"revenue" >= 50', 5),
    ("stores with revenue greater than 50", "stores", '"revenue" > 50', 4),
    ("escolas where rede in ('municipal', 'estadual')", "escolas", "\"rede\" IN ('municipal', 'estadual')", 17),
    ("stores where city in ('Lisbon', 'Porto')", "stores", "\"city\" IN ('Lisbon', 'Porto')", 7),
    ("stores where city not in ('Lisbon', 'Porto')", "stores", "\"city\" NOT IN ('Lisbon', 'Porto')", 3),
    ("stores where revenue in (10, 20, 90)", "stores", '"revenue" IN (10, 20, 90)', 3),
]


@pytest.mark.parametrize(("text", "name", "expression", "rows"), CASES)
def test_route_keeps_negation_and_lists(router, data, text, name, expression, rows):
    plan = _plan(router, text, data[name], name)
    assert plan is not None and plan.tool == "filter_by_expression"
    assert plan.params.get("expression") == expression
    assert plan.complete, plan.missing
    df = gpd.read_file(data[name])
    assert int(filter_mask(expression, df).sum()) == rows


@pytest.mark.parametrize(
    ("text", "name", "rows"),
    [
        ("escolas where rede != 'privada'", "escolas", 17),
        ("stores where NOT city = 'Lisbon'", "stores", 6),
        ("stores where city not in ('Lisbon', 'Porto')", "stores", 3),
        ("escolas where rede in ('municipal', 'estadual')", "escolas", 17),
        ("stores with revenue not greater than 50", "stores", 6),
    ],
)
def test_run_offline_filters_by_value(data, tmp_path, registry, router, text, name, rows):
    report = run_request(text, [data[name]], tmp_path / "out", AgentConfig(offline=True), registry=registry,
                         router=router)  # fmt: skip
    assert report.status == "ok" and report.tier == 0, (report.error, report.router)
    out = gpd.read_file(report.outputs[-1]["path"])
    assert len(out) == rows
    if name == "escolas" and "!=" in text:
        assert "privada" not in set(out["rede"])


def test_null_words_are_not_values(router, data):
    plan = _plan(router, "stores where city is not null", data["stores"], "stores")
    assert "'null'" not in str(plan.params.get("expression"))


def _layer():
    from geoclerk.function_lib.describe import FieldInfo, LayerInfo

    fields = [
        FieldInfo("regiao", "string", ["Central", "Oeste", "Sul"]),
        FieldInfo("populacao", "integer", [2315560, 621863]),
        FieldInfo("POP2020", "integer", [58000]),
    ]
    return LayerInfo(name="br_municipios", geometry_type="Polygon", kind="vector", crs="EPSG:4674", fields=fields)


@pytest.mark.parametrize(
    ("text", "expression"),
    [
        ("municipios not in regiao Norte", "\"regiao\" != 'Norte'"),  # a value beyond the samples, after its field
        ("municipios in regiao Norte", "\"regiao\" = 'Norte'"),
        ("municipios excluding regiao Oeste", "\"regiao\" != 'Oeste'"),
        ("municipios where NOT populacao > 5000", '"populacao" <= 5000'),
        ("municipios where populacao is not less than 5000", '"populacao" >= 5000'),
        ("municipios where regiao is not null", None),
        ("regiao不等于Sul的市镇", "\"regiao\" != 'Sul'"),
        ("regiao为Sul或Oeste的市镇", "\"regiao\" = 'Sul' OR \"regiao\" = 'Oeste'"),  # 或 before a latin value
        ("municipios with populacao not between 100 and 200", None),  # never read as between
        ("municipios with populacao between 100 and 200", '"populacao" >= 100 AND "populacao" <= 200'),
        ("municipios where regiao in (01003, Sul)", "\"regiao\" IN ('01003', 'Sul')"),  # text keeps its codes
        ("municipios where populacao in (5, 7.5)", '"populacao" IN (5, 7.5)'),
        ("municipios where regiao is not equal to 'Sul'", "\"regiao\" != 'Sul'"),
        ("municipios whose regiao is different from Sul", "\"regiao\" != 'Sul'"),
        ("municipios where regiao is not Sul or Oeste", "\"regiao\" != 'Sul' AND \"regiao\" != 'Oeste'"),  # neither
        ("municipios where regiao = 'Sul' or regiao = 'Oeste'", "\"regiao\" = 'Sul' OR \"regiao\" = 'Oeste'"),
        ("municipios where regiao is Sul or Norte", "\"regiao\" = 'Sul' OR \"regiao\" = 'Norte'"),  # Norte kept
        (
            "municipios in regiao Sul or Norte with populacao > 5",
            '("regiao" = \'Sul\' OR "regiao" = \'Norte\') AND "populacao" > 5',
        ),
        ("municipios where POPULATION > 5000", None),  # no such field: never swapped for populacao/POP2020
        ("municipios where POP_2020 > 5000", '"POP2020" > 5000'),  # a near-identical spelling
    ],
)
def test_conditions_on_layer(text, expression):
    from geoclerk.reading.conditions import conditions_expression, find_conditions

    assert conditions_expression(find_conditions(text, _layer()), text) == expression


@pytest.mark.parametrize(("text", "outside"), [
    ("schools farther than 2 km from the rivers", True),
    ("schools more than 2 km away from the rivers", True),
    ("schools at least 2 km from the rivers", True),
    ("schools not within 2 km of the rivers", True),
    ("schools within 2 km of the rivers", None),
])  # fmt: skip
def test_the_far_side_of_a_distance_is_kept(router, text, outside, tmp_path):
    """QA3 P1-20: 'farther than 2 km' ran as 'within 2 km' (the complement) at tier 0."""
    from shapely.geometry import LineString

    schools = gpd.GeoDataFrame({"n": [1, 2]}, geometry=[Point(0, 0), Point(5000, 0)], crs="EPSG:32633")
    rivers = gpd.GeoDataFrame({"r": [1]}, geometry=[LineString([(0, 100), (100, 100)])], crs="EPSG:32633")
    infos = [describe_gdf(schools, "schools"), describe_gdf(rivers, "rivers")]
    plan = router.route(text, infos).plan
    assert plan.tool == "within_distance" and plan.complete, plan
    assert plan.params.get("outside") == outside and plan.params["distance"] == pytest.approx(2000)


# -- an indefinite pronoun is never a value: 'anything other than X' is X negated --------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "districts whose landuse is anything other than residential",
        "Bezirke, deren landuse irgendetwas anderes als residential ist",
        "landuse为residential以外任何类型的区",
    ],
)
def test_an_indefinite_pronoun_is_no_value_of_the_filter(text):
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.describe import describe_path
    from geoclerk.planning.plan import fill_plan

    sample = Path(__file__).resolve().parents[1] / "data" / "sample"
    spec = load_registry().get("filter_by_expression").spec
    plan = fill_plan(spec, text, [describe_path(str(sample / "districts.gpkg"))])
    expr = plan.params.get("expression", "")
    assert not re.search(r"'(?:anything|irgendetwas|任何)", expr)  # never a value
    if plan.complete:  # answered: the negation is kept; otherwise declined with the words named
        assert expr == "\"landuse\" != 'residential'"
    else:
        assert plan.missing


# -- an exception marker negates the condition it scopes --------------------------------------------------------
_SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample"


def _filter_plan(text, layer_file):
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.describe import describe_path
    from geoclerk.planning.plan import fill_plan

    spec = load_registry().get("filter_by_expression").spec
    return fill_plan(spec, text, [describe_path(str(_SAMPLE / layer_file))])


@pytest.mark.parametrize(
    "text, expr",
    [
        ("all cafes except those with wifi", "\"wifi\" != 'yes'"),
        ("alle Cafés außer denen mit WLAN", "\"wifi\" != 'yes'"),
        ("除了有wifi的以外的所有咖啡馆", "\"wifi\" != 'yes'"),
    ],
)
def test_except_negates_a_yes_no_condition(text, expr):
    p = _filter_plan(text, "cafes.gpkg")
    assert p.complete and p.params["expression"] == expr


@pytest.mark.parametrize(
    "text",
    [
        "schools except those with more than 500 pupils",
        "Schulen außer denen mit mehr als 500 Schülern",
        "除了学生超过500名的以外的所有学校",
    ],
)
def test_except_inverts_a_comparison(text):
    p = _filter_plan(text, "schools.gpkg")
    assert p.params.get("expression") == '"students" <= 500'  # never '> 500', the ones left out
    assert p.complete or text.startswith("除")  # Chinese may still ask about a word; never the reverse


@pytest.mark.parametrize(
    "text", ["roads except residential", "Straßen außer residential", "不是住宅道路（residential）的道路"]
)
def test_a_negation_at_the_value_is_not_negated_twice(text):
    p = _filter_plan(text, "roads.gpkg")
    assert p.complete and p.params["expression"] == "\"type\" != 'residential'"


def test_a_chinese_gloss_never_swallows_a_superlative():
    p = _filter_plan("最长的住宅道路（residential）", "roads.gpkg")
    assert not p.complete and "最长" in " ".join(p.missing)
