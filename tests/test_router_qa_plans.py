"""QA3 wrong-but-ok plans: layer nouns are not fields, OR of predicates, 'minus' between layers, one named feature,
unknown field names and bare superlatives — routed and run offline by value on data built here."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.function_lib.describe import describe_gdf
from geoclerk.reading.words import ENUM_WORDS
from shapely.geometry import LineString, box


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("h5plans")
    names = ["Belo Horizonte", "Contagem", "Betim", "Sabará", "Nova Lima", "Ibirité"]
    pops = [2300000, 620000, 410000, 130000, 96000, 170000]
    municipios = gpd.GeoDataFrame(
        {
            "nome_municipio": names,
            "populacao": pops,
            "regiao": ["Norte", "Norte", "Sul", "Sul", "Oeste", "Oeste"],
            "codigo_ibge": [f"31{i:05d}" for i in range(6)],
        },
        geometry=[box(-44 + 0.1 * i, -20, -43.9 + 0.1 * i, -19.9) for i in range(6)],  # adjacent squares
        crs="EPSG:4674",
    )
    counties = gpd.GeoDataFrame(
        {"NAME": ["Autauga", "Baldwin", "Bibb"], "COUNTYFP": ["001", "003", "007"], "POP2020": [58000, 231000, 22000]},
        geometry=[box(-87 + 0.5 * i, 32, -86.5 + 0.5 * i, 32.5) for i in range(3)],
        crs="EPSG:4269",
    )
    x, y = 4000000, 3000000  # EPSG:3035 metres
    lakes = gpd.GeoDataFrame(
        {"lake_name": ["Blausee", "Grünsee", "Weißsee"]},
        geometry=[
            box(x, y, x + 1000, y + 1000),
            box(x + 5000, y, x + 6000, y + 1000),
            box(x, y + 9000, x + 500, y + 9500),
        ],
        crs="EPSG:3035",
    )
    rivers = gpd.GeoDataFrame(
        {"name": ["Alpha", "Beta", "Gamma", "Delta"]},
        geometry=[
            LineString([(x - 500, y + 500), (x + 1500, y + 500)]),  # crosses Blausee: 2000 m
            LineString([(x + 20000, y), (x + 24000, y)]),  # 4000 m
            LineString([(x + 30000, y), (x + 35500, y)]),  # 5500 m
            LineString([(x + 40000, y), (x + 70000, y)]),  # 30000 m
        ],
        crs="EPSG:3035",
    )
    paths = {}
    for name, gdf in (("br_municipios", municipios), ("us_counties", counties), ("lakes", lakes), ("rivers", rivers)):
        paths[name] = str(folder / f"{name}.gpkg")
        gdf.to_file(paths[name])
    return paths


def _plan(router, text, data, *names):
    return router.route(text, [describe_gdf(gpd.read_file(data[n]), n, data[n]) for n in names]).plan


def _run(text, data, tmp_path, registry, router, *names):
    return run_request(
        text, [data[n] for n in names], tmp_path / "out", AgentConfig(offline=True), registry=registry, router=router
    )


def _ok(report):
    assert report.status == "ok" and report.tier == 0, (report.error, report.router)
    return gpd.read_file(report.outputs[-1]["path"])


# -- P1-4 / P2-6: the layer's own noun is not a field; populous/population name populacao ---------------------------
@pytest.mark.parametrize(
    ("text", "ascending", "expected"),
    [
        ("the 3 most populous municipios", False, {"Belo Horizonte", "Contagem", "Betim"}),
        ("the 3 biggest municipios by population", False, {"Belo Horizonte", "Contagem", "Betim"}),
        ("the 2 least populated municipios", True, {"Nova Lima", "Sabará"}),
        ("2 municipios with the smallest populacao", True, {"Nova Lima", "Sabará"}),
        ("the municipio with the lowest populacao", True, {"Nova Lima"}),
    ],
)
def test_population_ranking_by_value(data, tmp_path, registry, router, text, ascending, expected):
    plan = _plan(router, text, data, "br_municipios")
    assert plan.tool == "select_rows" and plan.complete, plan.missing
    assert plan.params["field"] == "populacao" and plan.params["ascending"] is ascending
    out = _ok(_run(text, data, tmp_path, registry, router, "br_municipios"))
    assert set(out["nome_municipio"]) == expected


@pytest.mark.parametrize(
    ("text", "name", "rows"),
    [
        ("dissolve all municipios into one", "br_municipios", 1),
        ("merge all the municipios into a single polygon", "br_municipios", 1),
        ("dissolve the counties into one feature", "us_counties", 1),
        ("dissolve municipios by regiao", "br_municipios", 3),
    ],
)
def test_dissolve_never_by_the_layer_noun(data, tmp_path, registry, router, text, name, rows):
    plan = _plan(router, text, data, name)
    assert plan.tool == "dissolve" and plan.complete, plan.missing
    assert "nome_municipio" not in str(plan.params) and "COUNTYFP" not in str(plan.params)
    assert len(_ok(_run(text, data, tmp_path, registry, router, name))) == rows


@pytest.mark.parametrize("text", ["area of each municipio in square kilometres", "area of each county in square miles"])
def test_area_per_feature_plan_is_complete(data, router, text):
    name = "br_municipios" if "municipio" in text else "us_counties"
    plan = _plan(router, text, data, name)
    assert plan.tool == "geometry_area" and plan.complete, plan.missing


# -- P1-6: an OR of predicates is intersects -----------------------------------------------------------------------
def test_touch_or_cross_is_intersects(data, router):
    text = "lakes that touch or cross a river"
    plan = _plan(router, text, data, "lakes", "rivers")
    assert plan.complete and plan.params.get("predicate") == "intersects"
    lakes, rivers = gpd.read_file(data["lakes"]), gpd.read_file(data["rivers"]).union_all()
    picked = getattr(lakes, plan.params["predicate"])(rivers)  # the tool runs in QGIS; the predicate by value
    assert list(lakes[picked]["lake_name"]) == ["Blausee"]
    assert not lakes.touches(rivers).any()  # the old plan (touches) kept none


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("parcels that touch or overlap parks", "intersects"),
        ("lakes that overlap or touch a park", "intersects"),
        ("lakes that touch a river", "touches"),
        ("roads that cross rivers", "crosses"),
    ],
)
def test_predicate_words(text, value):
    import re

    hits = [k for k in ("intersects", "touches", "crosses", "overlaps") if re.search(ENUM_WORDS[k], text)]
    assert hits == [value]


# -- P1-7: 'minus' between layers is no negative distance ----------------------------------------------------------
def test_difference_minus_buffer_is_not_a_negative_buffer(data, tmp_path, registry, router):
    text = "difference of lakes minus 500 m river buffer"
    plan = _plan(router, text, data, "lakes", "rivers")
    assert not plan.complete
    assert plan.params.get("distance") != -500
    assert _run(text, data, tmp_path, registry, router, "lakes", "rivers").status != "ok"


def test_buffer_by_minus_is_still_inward(data, router):
    plan = _plan(router, "buffer the lakes by minus 100 m", data, "lakes")
    assert plan.tool == "buffer" and plan.params.get("distance") == -100


# -- P1-11: one named feature is no question about the whole layer -------------------------------------------------
def test_named_feature_is_not_the_whole_layer(data, tmp_path, registry, router):
    text = "how long is the Delta river in km"
    plan = _plan(router, text, data, "rivers")
    assert not plan.complete and any("Delta" in m for m in plan.missing)
    assert _run(text, data, tmp_path, registry, router, "rivers").status != "ok"
    whole = _ok(_run("length of the rivers in km", data, tmp_path / "w", registry, router, "rivers"))
    assert len(whole) == 4


# -- P1-9: a field name the layer does not have is never swapped silently ------------------------------------------
def test_unknown_field_name_is_incomplete(data, tmp_path, registry, router):
    text = "counties where POPULATION > 50000"
    plan = _plan(router, text, data, "us_counties")
    assert not plan.complete and "POP2020" not in str(plan.params)
    assert any(m.startswith("field: POPULATION (not a field of us_counties") for m in plan.missing)
    assert _run(text, data, tmp_path, registry, router, "us_counties").status != "ok"


@pytest.mark.parametrize(
    ("text", "rows"), [("counties where POP2020 > 50000", 2), ("counties where POP_2020 > 50000", 2)]
)
def test_exact_or_near_field_name_still_filters(data, tmp_path, registry, router, text, rows):
    assert len(_ok(_run(text, data, tmp_path, registry, router, "us_counties"))) == rows


@pytest.mark.parametrize(
    ("text", "complete"),
    [
        ("top 2 counties by POPULATION", False),
        ("sort the counties by POPULATION", False),
        ("top 2 counties by POP2020", True),
        ("top 2 counties by population", True),  # a word, read by meaning (and noted)
    ],
)
def test_field_params_never_swap_a_written_field_name(data, router, text, complete):
    plan = _plan(router, text, data, "us_counties")
    assert plan.complete is complete, plan.missing
    if not complete:
        assert any("POPULATION" in m for m in plan.missing)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("dissolve all municipios into one", ["br_municipios"]),
        ("area of the parcels", ["parcels"]),  # 'area' ends study_area but is a measure here
        ("count the schools in each municipio", ["br_municipios"]),
        ("rename district_name to name", []),  # a part of a field name is no layer
    ],
)
def test_layer_named_by_its_head_noun(text, names):
    from geoclerk.function_lib.describe import LayerInfo
    from geoclerk.reading.schema_match import find_layers

    layers = [LayerInfo(name=n, geometry_type="Polygon", kind="vector", crs="EPSG:4326", fields=[])
              for n in ("parcels", "study_area", "br_municipios", "cn_districts")]  # fmt: skip
    assert [m.name for m in find_layers(text, layers)] == names
