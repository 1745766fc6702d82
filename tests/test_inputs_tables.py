"""Plain tables as inputs (issue 14): read, described as tables, joined to layers at tier 0 and tier 1."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.agent.pipeline import AgentConfig, build_context, run_request
from geoclerk.errors import ValidationError
from geoclerk.function_lib.context import RunContext
from geoclerk.function_lib.tables import NoGeometryError, read_input
from geoclerk.tests.agent_toolkit import config_for
from geoclerk.tests.scripted_server import ScriptedServer
from shapely.geometry import box


def _wards(tmp_path, extra_name: bool = False):
    folder = tmp_path / "data"
    folder.mkdir(exist_ok=True)
    wards = gpd.GeoDataFrame(
        {"ward_id": [1, 2, 3], "name": ["North", "South", "East"]},
        geometry=[box(i * 100, 0, i * 100 + 100, 100) for i in range(3)],
        crs="EPSG:32633",
    )
    wards.to_file(folder / "wards.gpkg")
    header = "ward_id;name;budget_eur" if extra_name else "ward_id;budget_eur"
    rows = ["1;North;1200,5", "2;South;800", "4;West;50"] if extra_name else ["1;1200,5", "2;800", "4;50"]
    (folder / "budget.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return [str(folder / "wards.gpkg"), str(folder / "budget.csv")]


def test_a_table_is_described_as_a_table_and_never_as_a_layer(tmp_path):
    inputs = _wards(tmp_path)
    ctx, infos = build_context(inputs, tmp_path / "out")
    budget = next(i for i in infos if i.name == "budget")
    assert (budget.kind, budget.geometry_type, budget.feature_count) == ("table", None, 3)
    assert [(f.name, f.type) for f in budget.fields] == [("ward_id", "integer"), ("budget_eur", "real")]
    assert budget.fields[1].samples == [1200.5, 800.0, 50.0]
    text = budget.prompt_text()
    assert text.startswith("- budget: table (no geometry), 3 rows, file budget.csv")
    assert "pandas.read_csv(sep=';', decimal=',')" in text  # how generated code reads it the same way
    assert ctx.is_table("budget") and not ctx.is_table("wards")
    with pytest.raises(NoGeometryError, match="'budget.csv' is a table without geometry"):
        ctx.gdf("budget")


JOINS = {
    "en": "join budget to wards by ward_id",
    "de": "Verknüpfe die Tabelle budget mit wards über ward_id",
    "zh": "把budget表按ward_id连接到wards",
    "en_shared_key": "join the budget table to the wards",
    "de_shared_key": "verknüpfe budget mit wards",
    "zh_shared_key": "将budget表连接到wards",
}


@pytest.mark.parametrize("lang", list(JOINS))
def test_tier0_joins_a_table_to_a_layer_and_reports_unmatched_keys(tmp_path, lang):
    report = run_request(JOINS[lang], _wards(tmp_path), tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok", report.to_json()
    assert report.tier == 0
    assert report.router["plan"]["params"] == {
        "layer": "wards", "field": "ward_id", "table": "budget", "table_field": "ward_id"
    }  # fmt: skip
    out = gpd.read_file(report.outputs[0]["path"]).sort_values("ward_id")
    assert out["budget_eur"].tolist()[:2] == [1200.5, 800.0] and out["budget_eur"].isna().tolist() == [0, 0, 1]
    assert out.area.tolist() == [10000.0] * 3 and out.crs.to_epsg() == 32633  # the layer's geometry is kept
    notes = " ".join(report.notes) + report.answer
    assert "1 feature of 'wards' found no row in 'budget' (ward_id: 3)" in notes
    assert "1 row of 'budget' matched no feature (ward_id: 4)" in notes
    if lang.endswith("shared_key"):
        assert "key: 'ward_id', the one field both 'wards' and 'budget' have" in report.router["plan"]["notes"]


DECLINED = {
    "en": "join the budget table to the wards",
    "de": "verknüpfe budget mit wards",
    "zh": "将budget表连接到wards",
}


@pytest.mark.parametrize("lang", list(DECLINED))
def test_tier0_declines_when_the_key_is_not_obvious(tmp_path, lang):
    """ward_id and name are in both: with no key named, tier 0 asks instead of choosing one (issue 25: as a question
    whose choices are the shared fields), and the answer joins on it."""
    inputs = _wards(tmp_path, extra_name=True)
    report = run_request(DECLINED[lang], inputs, tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ask" and report.outputs == []
    assert "share several fields (ward_id, name)" in " ".join(report.router["plan"]["missing"])
    assert [(q["id"], q["choices"]) for q in report.questions] == [("field", ["ward_id", "name"])]
    config = AgentConfig(offline=True)
    done = run_request(DECLINED[lang], inputs, tmp_path / "done", config, answers={"field": "name"})
    assert (done.status, done.tier) == ("ok", 0), done.error
    joined = {"layer": "wards", "field": "name", "table": "budget", "table_field": "name"}
    assert done.router["plan"]["params"] == joined
    out = gpd.read_file(done.outputs[0]["path"]).sort_values("ward_id")
    assert out["budget_eur"].tolist()[:2] == [1200.5, 800.0] and out["budget_eur"].isna().tolist() == [0, 0, 1]


@pytest.mark.parametrize("request_text", ["buffer the budget by 10 m", "puffere budget um 10 m", "将budget缓冲10米"])
def test_tier0_refuses_a_geometry_tool_on_a_table_and_says_why(tmp_path, request_text):
    report = run_request(request_text, _wards(tmp_path), tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "needs_llm" and report.outputs == []
    assert "layer" not in report.router["plan"]["params"]  # never the wards left over in its place
    assert "('budget' is a table without geometry)" in report.error


def test_tier1_joins_through_the_model_and_sees_the_table(tmp_path):
    server = ScriptedServer().start()
    try:
        call = {"layer": "wards", "field": "ward_id", "table": "budget", "table_field": "ward_id"}
        server.add({"tool_calls": [{"name": "join_table", "arguments": call}]},
                   {"content": "Joined the budget to the wards; ward 3 has no budget."})  # fmt: skip
        # tier0=False: straight to tier 1's function calling (with tier 0 on, the model is first asked the key as a
        # closed question: tests/test_model_fills_hole.py)
        report = run_request("attach the budget figures to the wards", _wards(tmp_path, extra_name=True),
                             tmp_path / "out", config_for(server, top_k=5, tier0=False))  # fmt: skip
        prompt = " ".join(str(m.get("content")) for m in server.requests[0]["messages"])
    finally:
        server.stop()
    assert report.status == "ok", report.to_json()
    assert report.tier == 1 and report.steps[0]["tool"] == "join_table"
    assert "- budget: table (no geometry), 3 rows, file budget.csv" in prompt
    out = gpd.read_file(report.outputs[0]["path"]).sort_values("ward_id")
    assert out["budget_eur"].tolist()[:2] == [1200.5, 800.0] and len(out) == 3
    assert any("matched no feature (ward_id: 4)" in n for n in report.notes)


def test_group_by_runs_on_a_table(tmp_path):
    path = tmp_path / "sales.csv"
    path.write_text("region,amount\nN,10\nS,5\nN,7\n", encoding="utf-8")
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.registry import run_tool

    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    result = run_tool(load_registry(), "group_by", {"layer": "sales", "by": ["region"], "field": "amount",
                                                    "agg": "sum"}, ctx)  # fmt: skip
    import pandas as pd

    table = pd.read_csv(result.outputs[0].path)
    assert dict(zip(table["region"], table["amount_sum"])) == {"N": 17, "S": 5}
    assert "Grouped 3 rows of 'sales'" in result.summary


def test_sheets_dbf_and_parquet_without_geometry_are_tables(tmp_path):
    import pandas as pd
    import pyogrio

    df = pd.DataFrame({"code": ["A1", "B2"], "wert": [1.5, 2.5], "名称": ["甲", "乙"]})
    pyogrio.write_dataframe(df, tmp_path / "lookup.xlsx", driver="XLSX")
    pyogrio.write_dataframe(df, tmp_path / "lookup.ods", driver="ODS")
    df.to_parquet(tmp_path / "lookup.parquet")
    # a cp1252 DBF (no .cpg) with a German field name and value: GDAL reads it through its code page
    latin = pd.DataFrame({"code": ["A1", "B2"], "wert": [1.5, 2.5], "straße": ["Hauptstraße", "Weg"]})
    pyogrio.write_dataframe(latin, tmp_path / "lookup.dbf", driver="ESRI Shapefile", encoding="cp1252")
    for name in ("lookup.xlsx", "lookup.ods", "lookup.dbf", "lookup.parquet"):
        table = read_input(tmp_path / name)
        assert type(table).__name__ == "DataFrame", name
        assert table["code"].tolist() == ["A1", "B2"] and table["wert"].tolist() == [1.5, 2.5], name
        if name == "lookup.dbf":
            assert table["straße"].tolist() == ["Hauptstraße", "Weg"]
        else:
            assert table["名称"].tolist() == ["甲", "乙"], name


def test_an_unreadable_input_names_the_file_what_was_expected_and_the_fix(tmp_path):
    bad = tmp_path / "broken.gpkg"
    bad.write_bytes(b"not a geopackage at all")
    report = run_request("buffer broken by 10 m", [str(bad)], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "error"
    assert "Could not read 'broken.gpkg' as a vector file (GeoPackage" in report.error
    assert "export it again" in report.error
    assert bad.read_bytes() == b"not a geopackage at all"


def test_a_table_with_named_but_empty_coordinates_says_so(tmp_path):
    bad = tmp_path / "words.csv"
    bad.write_text("name,lat,lon\na,north,east\n", encoding="utf-8")
    with pytest.raises(ValidationError, match="lon/lat columns, but they hold no numbers"):
        read_input(bad)


def test_tier2_code_reads_the_table_as_described(tmp_path):
    """The code worker gets the table copied beside the layer and told how to read it (separator, decimal comma)."""
    from geoclerk.tests.agent_toolkit import TinyRouter, tiny_registry

    code = """
import geopandas as gpd
import pandas as pd
wards = gpd.read_file('wards.gpkg')
budget = pd.read_csv('budget.csv', sep=';', decimal=',')
out = wards.merge(budget, on='ward_id', how='left')
out.to_file('wards_budget.gpkg', driver='GPKG')
print(f"total budget {out['budget_eur'].sum():.1f} EUR over {out['budget_eur'].notna().sum()} wards")
"""
    server = ScriptedServer().start()
    try:
        server.add({"content": f"```python\n{code.strip()}\n```"})
        report = run_request("score the wards by their budget", _wards(tmp_path), tmp_path / "out",
                             config_for(server), registry=tiny_registry(),
                             router=TinyRouter(route="codegen", confidence=0.9))  # fmt: skip
        prompt = " ".join(str(m.get("content")) for m in server.requests[0]["messages"])
    finally:
        server.stop()
    assert report.status == "ok", report.to_json()
    assert report.tier == 2 and "total budget 2000.5 EUR over 2 wards" in report.answer
    assert "- budget: table (no geometry), 3 rows, file budget.csv" in prompt
    assert "pandas.read_csv(sep=';', decimal=',')" in prompt
    out = gpd.read_file(next(o["path"] for o in report.outputs if o["path"].endswith(".gpkg")))
    assert sorted(out["budget_eur"].dropna()) == [800.0, 1200.5]


def test_a_broken_raster_or_empty_table_is_reported_not_raised(tmp_path):
    bad = tmp_path / "dem.tif"
    bad.write_bytes(b"junk")
    empty = tmp_path / "leer.csv"
    empty.write_bytes(b"")
    for path, expected in (
        (bad, "Could not read 'dem.tif' as a raster"),
        (empty, "Could not read 'leer.csv' as a table"),
    ):
        report = run_request("count the features", [str(path)], tmp_path / "out", AgentConfig(offline=True))
        assert report.status == "error" and expected in report.error, report.error
        assert "open it in QGIS to see" in report.error
    assert bad.read_bytes() == b"junk"


def test_swapped_lon_lat_columns_get_no_crs_and_a_note(tmp_path):
    path = tmp_path / "swapped.csv"
    path.write_text("id,lat,lon\n1,120.5,45.1\n2,121.0,46.0\n", encoding="utf-8")
    gdf = read_input(path)
    assert gdf.crs is None
    assert "they fit as degrees with lon and lat swapped: check the column names" in gdf.attrs["crs_note"]


def _chinese_and_german(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    crs = "EPSG:32633"
    polygons = [box(i * 100, 0, i * 100 + 100, 100) for i in range(3)]
    gpd.GeoDataFrame({"区号": [1, 2, 3], "名称": ["北", "南", "东"]}, geometry=polygons, crs=crs).to_file(
        folder / "城区.gpkg"
    )
    (folder / "预算.csv").write_bytes("\ufeff区号,预算\n1,100\n2,200\n".encode())  # with a BOM, as Excel writes it
    gpd.GeoDataFrame({"Bezirksnummer": [1, 2, 3]}, geometry=polygons, crs=crs).to_file(folder / "bezirke.gpkg")
    (folder / "haushalt.csv").write_bytes("Bezirksnummer;Ausgaben_€\n1;100,5\n2;200\n".encode("cp1252"))
    return folder


@pytest.mark.parametrize(
    "request_text, files, key, column, values",
    [
        ("把预算表按区号连接到城区", ("城区.gpkg", "预算.csv"), "区号", "预算", [100, 200]),
        ("将预算连接到城区", ("城区.gpkg", "预算.csv"), "区号", "预算", [100, 200]),  # 预算 names the table here
        ("verknüpfe haushalt mit bezirke über Bezirksnummer", ("bezirke.gpkg", "haushalt.csv"), "Bezirksnummer",
         "Ausgaben_€", [100.5, 200.0]),
        ("verknüpfe die Tabelle haushalt mit bezirke", ("bezirke.gpkg", "haushalt.csv"), "Bezirksnummer",
         "Ausgaben_€", [100.5, 200.0]),
    ],
)  # fmt: skip
def test_joins_with_chinese_and_german_field_names(tmp_path, request_text, files, key, column, values):
    folder = _chinese_and_german(tmp_path)
    report = run_request(request_text, [str(folder / f) for f in files], tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "ok" and report.tier == 0, report.to_json()
    assert report.router["plan"]["params"]["field"] == key == report.router["plan"]["params"]["table_field"]
    out = gpd.read_file(report.outputs[0]["path"]).sort_values(key)
    assert out[column].tolist()[:2] == values and out[column].isna().tolist() == [False, False, True]


def test_an_explicit_key_the_layer_lacks_is_never_replaced_by_the_shared_one(tmp_path):
    folder = _chinese_and_german(tmp_path)
    inputs = [str(folder / "城区.gpkg"), str(folder / "预算.csv")]
    report = run_request("join 预算 to 城区 by 预算", inputs, tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "needs_llm" and report.outputs == []


def test_an_attribute_table_inside_a_geopackage_is_an_input(tmp_path):
    import pandas as pd
    import pyogrio

    path = tmp_path / "stadt.gpkg"
    gpd.GeoDataFrame({"ward_id": [1, 2]}, geometry=[box(0, 0, 1, 1), box(1, 0, 2, 1)], crs="EPSG:32633").to_file(
        path, layer="wards"
    )
    pyogrio.write_dataframe(pd.DataFrame({"ward_id": [2], "budget": [9.5]}), path, layer="budget", append=False)
    ctx, infos = build_context([str(path)], tmp_path / "out")
    assert [(i.name, i.kind) for i in infos] == [("wards", "vector"), ("budget", "table")]
    report = run_request("join budget to wards by ward_id", [str(path)], tmp_path / "out2", AgentConfig(offline=True))
    assert report.status == "ok", report.to_json()
    out = gpd.read_file(report.outputs[0]["path"]).sort_values("ward_id")
    assert out["budget"].isna().tolist() == [True, False] and out["budget"].tolist()[1] == 9.5


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_tier0_does_not_pick_one_row_of_a_one_to_many_table(tmp_path, lang):
    # blind set 6: 'join the monthly measurements to the stations' took each station's first month, at tier 0, ok
    inputs = _wards(tmp_path)
    monthly = ["ward_id;month;budget_eur", "1;1;10", "1;2;20", "2;1;5", "2;2;7", "3;1;1"]
    (tmp_path / "data" / "budget.csv").write_text("\n".join(monthly) + "\n", encoding="utf-8")
    report = run_request(JOINS[lang], inputs, tmp_path / "out", AgentConfig(offline=True))
    assert report.status == "needs_llm" and report.outputs == [], report.to_json()
    assert "2 rows that repeat a ward_id" in report.error
