"""GEO-A query tools: select, filter, spatial join, sort and coordinate export, checked against pandas/Shapely."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from geoclerk.errors import ValidationError
from geoclerk.function_lib.io import read_vector
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run
from shapely.geometry import LineString, Point, box


def _cities():
    return gpd.GeoDataFrame(
        {
            "name": ["Philadelphia", "Pittsburgh", "Allentown", "Albany", "Erie"],
            "state": ["PA", "PA", "PA", "NY", "PA"],
            "population": [1_600_000, 300_000, 125_000, 99_000, 94_000],
            "rank_txt": ["10", "9", "100", "2", "x"],
        },
        geometry=[Point(i, i) for i in range(5)],
        crs="EPSG:4326",
    )


def test_filter_by_expression_matches_pandas(tmp_path):
    cities = _cities()
    ctx = make_ctx(tmp_path, cities=cities)
    res = run(ctx, "filter_by_expression", layer="cities", expression="population > 100000 and state = 'PA'")
    out = read_vector(res.outputs[0].path)
    expected = cities[(cities.population > 100000) & (cities.state == "PA")]
    assert out["name"].tolist() == expected["name"].tolist() == ["Philadelphia", "Pittsburgh", "Allentown"]
    assert list(out.columns) == list(cities.columns)
    assert "5 features in, 3 out" in res.summary
    with pytest.raises(ValidationError) as err:
        run(ctx, "filter_by_expression", layer="cities", expression="populaton > 5")
    assert "Did you mean 'population'" in err.value.fix
    with pytest.raises(ValidationError):
        run(ctx, "filter_by_expression", layer="cities", expression="__import__('os').system('id')")


@pytest.mark.parametrize(
    "expression",
    [
        '"state" != \'TX\'',
        'NOT "state" = \'Texas\'',
        '"state" NOT IN (\'PA\', \'德克萨斯\')',
        '"state" <> \'Pennsylvanien\'',
        '"state" != \'ny\'',  # the filter compares exactly: 'ny' excludes nothing of 'NY'
    ],
)
def test_excluding_a_value_the_field_does_not_have_is_refused_with_its_values(tmp_path, expression):
    """'not TX' on a field of PA and NY keeps every feature and looks right: refused, naming the values."""
    ctx = make_ctx(tmp_path, cities=_cities())
    with pytest.raises(ValidationError) as err:
        run(ctx, "filter_by_expression", layer="cities", expression=expression)
    assert "is not a value of the field state" in err.value.message and "'NY', 'PA'" in err.value.fix


@pytest.mark.parametrize(
    "expression, kept",
    [('"state" != \'NY\'', 4), ('"state" NOT IN (\'PA\')', 1), ('"population" != 5', 5)],
)
def test_excluding_a_value_the_field_has_filters(tmp_path, expression, kept):
    ctx = make_ctx(tmp_path, cities=_cities())
    res = run(ctx, "filter_by_expression", layer="cities", expression=expression)
    assert len(read_vector(res.outputs[0].path)) == kept


def test_select_rows_by_value_and_top_n(tmp_path):
    cities = _cities()
    ctx = make_ctx(tmp_path, cities=cities)
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", field="state", value="ny").outputs[0].name)
    assert out["name"].tolist() == ["Albany"]  # case-insensitive fallback for text
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", field="population", value="125000").outputs[0].name)
    assert out["name"].tolist() == ["Allentown"]
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", field="population", top_n=2).outputs[0].name)
    assert out["name"].tolist() == cities.nlargest(2, "population")["name"].tolist()
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", field="population", top_n=2, ascending=True).outputs[0].name)
    assert out["name"].tolist() == cities.nsmallest(2, "population")["name"].tolist()
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", top_n=3).outputs[0].name)
    assert out["name"].tolist() == cities["name"].head(3).tolist()
    out = ctx.gdf(run(ctx, "select_rows", layer="cities", field="state", value="PA", top_n=1).outputs[0].name)
    assert out["name"].tolist() == ["Philadelphia"]
    with pytest.raises(ValidationError, match="needs the field"):
        run(ctx, "select_rows", layer="cities", value="PA")
    with pytest.raises(ValidationError, match="minimum"):
        run(ctx, "select_rows", layer="cities", top_n=0)


def test_sort_by_field_numeric_text_and_descending(tmp_path):
    cities = _cities()
    ctx = make_ctx(tmp_path, cities=cities)
    out = read_vector(run(ctx, "sort_by_field", layer="cities", field="population").outputs[0].path)
    assert out["population"].tolist() == sorted(cities["population"])
    assert out["rank"].tolist() == [1, 2, 3, 4, 5]
    out = ctx.gdf(run(ctx, "sort_by_field", layer="cities", field="name", descending=True).outputs[0].name)
    assert out["name"].tolist() == sorted(cities["name"], reverse=True)
    # a text field holding numbers sorts numerically only when every value is a number; here 'x' keeps it text
    out = ctx.gdf(run(ctx, "sort_by_field", layer="cities", field="rank_txt").outputs[0].name)
    assert out["rank_txt"].tolist() == sorted(cities["rank_txt"])
    nums = cities.assign(rank_txt=["10", "9", "100", "2", "1"])
    ctx = make_ctx(tmp_path, nums=nums)
    out = ctx.gdf(run(ctx, "sort_by_field", layer="nums", field="rank_txt").outputs[0].name)
    assert out["rank_txt"].tolist() == ["1", "2", "9", "10", "100"]


def _districts():
    return gpd.GeoDataFrame(
        {"district": ["west", "east"], "name": ["W", "E"]},
        geometry=[box(0, 0, 10, 10), box(10, 0, 20, 10)],
        crs="EPSG:32633",
    )


def test_spatial_join_intersects_and_within(tmp_path):
    pts = gpd.GeoDataFrame(
        {"name": ["p1", "p2", "p3"]}, geometry=[Point(1, 1), Point(15, 5), Point(50, 50)], crs="EPSG:32633"
    )
    ctx = make_ctx(tmp_path, pts=pts, districts=_districts())
    res = run(ctx, "spatial_join", layer="pts", join="districts")
    out = read_vector(res.outputs[0].path)
    direct = gpd.sjoin(pts, _districts(), how="left", predicate="intersects")
    assert out["district"].fillna("-").tolist() == direct["district"].fillna("-").tolist() == ["west", "east", "-"]
    assert out["name_left"].tolist() == ["p1", "p2", "p3"] and out["name_right"].tolist()[:2] == ["W", "E"]
    assert res.values["matches"] == 2 and "index_right" not in out.columns
    out = ctx.gdf(run(ctx, "spatial_join", layer="districts", join="pts", predicate="contains").outputs[0].name)
    assert out["name_right"].tolist() == ["p1", "p2"]


def test_spatial_join_nearest_in_metres_for_degrees(tmp_path):
    # Points on the equator; the nearest stop is 0.01 degrees (about 1113 m) east.
    homes = gpd.GeoDataFrame({"home": ["h1", "h2"]}, geometry=[Point(0, 0), Point(1, 0)], crs="EPSG:4326")
    stops = gpd.GeoDataFrame({"stop": ["s1", "s2"]}, geometry=[Point(0.01, 0), Point(1.5, 0)], crs="EPSG:4326")
    ctx = make_ctx(tmp_path, homes=homes, stops=stops)
    res = run(ctx, "spatial_join", layer="homes", join="stops", predicate="nearest")
    out = read_vector(res.outputs[0].path)
    assert out["stop"].tolist() == ["s1", "s2"]
    assert out["join_distance_m"].iloc[0] == pytest.approx(1113.19, rel=0.005)
    assert out["join_distance_m"].iloc[1] == pytest.approx(55659.7, rel=0.005)
    assert out.crs.to_epsg() == 4326 and out.geometry.iloc[1].equals(Point(1, 0))
    assert "EPSG:32631" in res.summary


def test_spatial_join_reprojects_the_second_layer(tmp_path):
    pts = gpd.GeoDataFrame({"n": [1]}, geometry=[Point(15, 5)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, pts=pts.to_crs(4326), districts=_districts())
    res = run(ctx, "spatial_join", layer="districts", join="pts")
    out = ctx.gdf(res.outputs[0].name)
    assert out["n"].fillna(0).tolist() == [0, 1] and out.crs.to_epsg() == 32633
    assert "Reprojected 'pts' from EPSG:4326 to EPSG:32633" in res.summary


def test_spatial_join_refuses_one_crs_less_layer(tmp_path):
    raw = gpd.GeoDataFrame({"n": [1]}, geometry=[Point(15, 5)])
    ctx = make_ctx(tmp_path, raw=raw, districts=_districts())
    with pytest.raises(ValidationError, match="'raw' has no CRS"):
        run(ctx, "spatial_join", layer="districts", join="raw")


def test_export_coordinates_matches_shapely(tmp_path):
    layer = gpd.GeoDataFrame(
        {"name": ["road", "park"]},
        geometry=[LineString([(0, 0), (1, 2), (3, 3)]), box(10, 10, 11, 12)],
        crs="EPSG:32633",
    )
    ctx = make_ctx(tmp_path, things=layer)
    res = run(ctx, "export_coordinates", layer="things")
    table = pd.read_csv(res.outputs[0].path)
    coords, owner = shapely.get_coordinates(layer.geometry.values, return_index=True)
    assert np.allclose(table[["x", "y"]].to_numpy(), coords)
    assert table["feature_id"].tolist() == owner.tolist()
    assert table["vertex"].tolist() == [0, 1, 2, 0, 1, 2, 3, 4]
    assert table["name"].tolist() == ["road"] * 3 + ["park"] * 5
    assert res.values["coordinate_count"] == 8


def test_spatial_join_nearest_world_wide(tmp_path):
    homes = gpd.GeoDataFrame({"home": ["h1", "h2"]}, geometry=[Point(0, 0), Point(100, 0)], crs="EPSG:4326")
    stops = gpd.GeoDataFrame({"stop": ["s1", "s2"]}, geometry=[Point(0.01, 0), Point(100.01, 0)], crs="EPSG:4326")
    ctx = make_ctx(tmp_path, homes=homes, stops=stops)
    out = ctx.gdf(run(ctx, "spatial_join", layer="homes", join="stops", predicate="nearest").outputs[0].name)
    assert out["stop"].tolist() == ["s1", "s2"]
    assert out["join_distance_m"].tolist() == pytest.approx([1113.19, 1113.19], rel=0.005)
    assert [g.x for g in out.geometry] == pytest.approx([0, 100])


def test_spatial_join_repairs_invalid_polygons_and_matches_the_repaired_join(tmp_path):
    from shapely.geometry import Polygon

    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    zones = gpd.GeoDataFrame({"zone": ["bow", "box"]}, geometry=[bowtie, box(20, 0, 30, 10)], crs="EPSG:32633")
    pts = gpd.GeoDataFrame(
        {"p": ["left lobe", "top gap", "in box"]}, geometry=[Point(1, 5), Point(5, 9), Point(25, 5)], crs="EPSG:32633"
    )
    ctx = make_ctx(tmp_path, pts=pts, zones=zones)
    res = run(ctx, "spatial_join", layer="pts", join="zones")
    out = ctx.gdf(res.outputs[0].name)
    fixed = zones.set_geometry(zones.make_valid())
    direct = gpd.sjoin(pts, fixed, how="left", predicate="intersects")
    assert out["zone"].fillna("-").tolist() == direct["zone"].fillna("-").tolist() == ["bow", "-", "box"]
    assert "Repaired 1 invalid geometry in 'zones'" in res.summary
    assert len(ctx.outputs) == 1  # the speculative first run wrote nothing


def test_run_validated_reraises_when_inputs_are_valid(tmp_path):
    from geoclerk.function_lib.io import run_validated

    layer = gpd.GeoDataFrame(geometry=[box(0, 0, 1, 1)], crs="EPSG:32633")

    def boom(gdf):
        raise RuntimeError("not about validity")

    with pytest.raises(RuntimeError, match="not about validity"):
        run_validated(make_ctx(tmp_path), boom, (layer, "boxes"))


def test_filter_that_matches_nothing_suggests_the_value_in_its_own_case(tmp_path):
    """'bibb' finds nothing (values are matched exactly); the note names 'Bibb', the value the layer has."""
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool

    counties = gpd.GeoDataFrame({"NAME": ["Bibb", "Baldwin"]}, geometry=[box(0, 0, 1, 1), box(1, 0, 2, 1)],
                                crs="EPSG:4269")
    ctx = RunContext(tmp_path / "out")
    ctx.layers.add("counties", data=counties)
    res = run_tool(load_registry(), "filter_by_expression", {"layer": "counties", "expression": "\"NAME\" = 'bibb'"},
                   ctx)
    assert res.values.get("feature_count") == 0
    assert "Did you mean NAME = 'Bibb'?" in res.summary
    res = run_tool(load_registry(), "filter_by_expression", {"layer": "counties", "expression": "\"NAME\" = 'Zzz'"},
                   ctx)
    assert "Did you mean" not in res.summary
