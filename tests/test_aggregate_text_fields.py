"""dissolve aggregates only when asked and never sums codes; text fields holding numbers in statistics."""

from __future__ import annotations

import geopandas as gpd
import pytest
from geoclerk.errors import ValidationError
from geoclerk.function_lib.geojson.numbers import text_number_kind
from geoclerk.tests.geo_helpers import make_ctx, run_layer
from shapely.geometry import Point, box

CRS = "EPSG:32633"


def counties():
    return gpd.GeoDataFrame(
        {"STATEFP": ["01", "01", "13"], "COUNTYFP": ["001", "003", "005"], "POP": [10, 20, 5],
         "POPTXT": ["10", "20", "5"]},
        geometry=[box(0, 0, 1, 1), box(1, 0, 2, 1), box(5, 5, 6, 6)], crs=CRS,
    )


def test_text_number_kinds():
    import pandas as pd

    assert text_number_kind(pd.Series(["001", "003"])) == "codes"
    assert text_number_kind(pd.Series(["1200", "300", None])) == "numbers"
    assert text_number_kind(pd.Series(["x", "1"])) == "text"


def test_dissolve_with_a_field_but_no_aggregation_sums_nothing(tmp_path):
    ctx = make_ctx(tmp_path, c=counties())
    res, out = run_layer(ctx, "dissolve", layer="c", fields=["STATEFP"], field="COUNTYFP")
    assert sorted(out["STATEFP"]) == ["01", "13"]
    assert "COUNTYFP_sum" not in out.columns and "sum" not in res.summary
    assert out.set_index("STATEFP")["n_features"].to_dict() == {"01": 2, "13": 1}


def test_dissolve_refuses_to_sum_zero_padded_codes(tmp_path):
    ctx = make_ctx(tmp_path, c=counties())
    with pytest.raises(ValidationError) as err:
        run_layer(ctx, "dissolve", layer="c", fields=["STATEFP"], field="COUNTYFP", agg="sum")
    assert "leading zeros" in err.value.message and "'001'" in err.value.message


def test_dissolve_sums_numbers_written_as_text_and_says_so(tmp_path):
    ctx = make_ctx(tmp_path, c=counties())
    res, out = run_layer(ctx, "dissolve", layer="c", fields=["STATEFP"], field="POPTXT", agg="sum")
    assert out.set_index("STATEFP")["POPTXT_sum"].to_dict() == {"01": 30, "13": 5}
    assert "'POPTXT' is a text field; its values were read as numbers." in res.summary


def test_qgis_statistics_of_a_text_field_holding_numbers(reg, tmp_path):
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool

    path = tmp_path / "strnum.geojson"
    gpd.GeoDataFrame({"Pop": ["1200", "300", "4500"], "Name": ["x", "y", "z"]},
                     geometry=[Point(0, 0), Point(1, 0), Point(2, 0)], crs=CRS).to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    res = run_tool(reg, "qgis_basic_statistics", {"layer": "strnum", "field": "Pop"}, ctx)
    assert "sum 6,000" in res.answer and "mean 2,000" in res.answer and "min 300" in res.answer
    assert res.values["SUM"] == 6000.0
    assert "'Pop' is a text field; its values were read as numbers." in res.summary
    words = run_tool(reg, "qgis_basic_statistics", {"layer": "strnum", "field": "Name"}, ctx)
    assert words.answer == "Name: count 3. 'Name' is a text field holding words, not numbers, so it has no sum or mean."


def test_qgis_aggregate_refuses_codes_and_casts_numbers(reg, tmp_path):
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool

    path = tmp_path / "counties.gpkg"
    counties().to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    with pytest.raises(ValidationError):
        run_tool(reg, "qgis_aggregate", {"layer": "counties", "by": "STATEFP", "field": "COUNTYFP", "agg": "sum"}, ctx)
    res = run_tool(reg, "qgis_aggregate", {"layer": "counties", "by": "STATEFP", "field": "POPTXT", "agg": "sum"}, ctx)
    out = gpd.read_file(res.outputs[0].path)
    assert out.set_index("STATEFP")["POPTXT_sum"].to_dict() == {"01": 30, "13": 5}


def test_qgis_statistics_by_categories_sums_numbers_in_text_and_refuses_codes(reg, tmp_path):
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool

    path = tmp_path / "counties.gpkg"
    counties().to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    args = {"layer": "counties", "by": ["STATEFP"], "field": "POPTXT", "agg": "sum"}
    res = run_tool(reg, "qgis_statistics_by_categories", args, ctx)
    assert res.answer.startswith("sum of POPTXT by STATEFP: 01: 30")
    assert "13: 5" in res.answer
    with pytest.raises(ValidationError):
        run_tool(reg, "qgis_statistics_by_categories", {**args, "field": "COUNTYFP"}, ctx)


def test_group_by_never_sums_codes_and_casts_text_numbers(tmp_path):
    """group_by: zero-padded codes are refused for a sum; plain numbers stored as text are summed (noted)."""
    import geopandas as gpd
    from geoclerk.errors import ValidationError
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool
    from shapely.geometry import Point

    gdf = gpd.GeoDataFrame({"state": ["A", "A", "B"], "fips": ["01003", "01005", "02001"],
                            "pop": ["100", "250", "40"]}, geometry=[Point(i, 0) for i in range(3)], crs="EPSG:4326")
    path = tmp_path / "counties.gpkg"
    gdf.to_file(path)
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add_path(path)
    registry = load_registry()
    with pytest.raises(ValidationError, match="leading zeros"):
        run_tool(registry, "group_by", {"layer": "counties", "by": ["state"], "field": "fips", "agg": "sum"}, ctx)
    run_tool(registry, "group_by", {"layer": "counties", "by": ["state"], "field": "pop", "agg": "sum"}, ctx)
    import pandas as pd

    table = pd.read_csv(ctx.outputs[-1].path)
    assert dict(zip(table["state"], table["pop_sum"])) == {"A": 350, "B": 40}
    assert any("text field" in n for n in ctx.notes)
