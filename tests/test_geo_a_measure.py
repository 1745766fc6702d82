"""GEO-A measuring and counting tools, checked against geodesic values, Shapely and pandas, plus input validation."""

from __future__ import annotations

import geopandas as gpd
import numpy as np
import pandas as pd
import pytest
import shapely
from geoclerk.errors import ToolError, ValidationError
from geoclerk.function_lib.io import read_vector
from geoclerk.tests.geo_helpers import make_ctx
from geoclerk.tests.geo_helpers import run_result as run
from pyproj import Geod, Transformer
from shapely.geometry import LineString, Point, Polygon, box

GEOD = Geod(ellps="WGS84")


def test_length_of_one_degree_at_the_equator_in_metres(tmp_path):
    lines = gpd.GeoDataFrame({"name": ["eq"]}, geometry=[LineString([(0, 0), (1, 0)])], crs="EPSG:4326")
    ctx = make_ctx(tmp_path, lines=lines)
    res = run(ctx, "geometry_length", layer="lines")
    out = read_vector(res.outputs[0].path)
    geodesic = GEOD.geometry_length(lines.geometry.iloc[0])  # 111 319.49 m
    assert geodesic == pytest.approx(111_319.49, abs=0.1)
    assert out["length_m"].iloc[0] == pytest.approx(geodesic, rel=0.005)
    assert out.crs.to_epsg() == 4326 and out.geometry.iloc[0].equals(lines.geometry.iloc[0])  # back in the layer's CRS
    assert out["name"].tolist() == ["eq"]
    assert "EPSG:32631" in res.summary and "EPSG:32631" in res.answer
    assert "111.3" in res.answer and "km" in res.answer


def test_length_of_polygons_is_their_perimeter_in_a_projected_layer(tmp_path):
    polys = gpd.GeoDataFrame({"id": [1, 2]}, geometry=[box(0, 0, 30, 40), box(0, 0, 3, 4)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, polys=polys)
    res = run(ctx, "geometry_length", layer="polys")
    assert ctx.gdf(res.outputs[0].name)["length_m"].tolist() == [140.0, 14.0]
    assert res.values["total_m"] == 154.0 and "EPSG:32633" in res.summary


def test_area_in_degrees_matches_the_geodesic_area(tmp_path):
    cells = [box(0, 0, 1, 1), box(10, 50, 11, 51)]
    polys = gpd.GeoDataFrame({"cell": ["equator", "europe"]}, geometry=cells, crs="EPSG:4326")
    ctx = make_ctx(tmp_path, cells=polys)
    res = run(ctx, "geometry_area", layer="cells")
    out = read_vector(res.outputs[0].path)
    for got, cell in zip(out["area_m2"], cells):
        assert got == pytest.approx(abs(GEOD.geometry_area_perimeter(cell)[0]), rel=0.001)
    assert out.crs.to_epsg() == 4326
    assert "Equal Area" in res.summary and "km²" in res.answer


def test_metric_request_on_a_crs_less_layer_is_refused(tmp_path):
    lines = gpd.GeoDataFrame({"n": [1]}, geometry=[LineString([(0, 0), (1, 0)])])
    polys = gpd.GeoDataFrame({"n": [1]}, geometry=[box(0, 0, 1, 1)])
    ctx = make_ctx(tmp_path, lines=lines, polys=polys)
    for tool, layer in (("geometry_length", "lines"), ("geometry_area", "polys")):
        with pytest.raises(ValidationError) as err:
            run(ctx, tool, layer=layer)
        assert "no CRS" in err.value.message and "Assign" in err.value.fix


def test_wrong_geometry_type_names_expected_and_actual(tmp_path):
    pts = gpd.GeoDataFrame({"n": [1]}, geometry=[Point(0, 0)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, pts=pts)
    with pytest.raises(ValidationError) as err:
        run(ctx, "geometry_area", layer="pts")
    assert "Point" in err.value.message and "expects polygon" in err.value.message
    with pytest.raises(ValidationError, match="expects line or polygon"):
        run(ctx, "geometry_length", layer="pts")


def test_invalid_geometries_are_repaired_and_reported(tmp_path):
    bowtie = Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])  # self-intersecting: its raw area is 0
    polys = gpd.GeoDataFrame({"n": [1, 2]}, geometry=[bowtie, box(0, 0, 1, 1)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, polys=polys)
    res = run(ctx, "geometry_area", layer="polys")
    out = ctx.gdf(res.outputs[0].name)
    assert out["area_m2"].tolist() == pytest.approx([shapely.make_valid(bowtie).area, 1.0])
    assert out["area_m2"].iloc[0] == pytest.approx(2.0)
    assert "Repaired 1 invalid geometry in 'polys'" in res.summary
    assert not ctx.gdf("polys").geometry.iloc[0].is_valid  # the input stays as it was


def test_empty_layer_error_names_it(tmp_path):
    ctx = make_ctx(tmp_path, none=gpd.GeoDataFrame({"n": []}, geometry=[], crs="EPSG:32633"))
    with pytest.raises(ToolError, match="'none' is empty"):
        run(ctx, "geometry_area", layer="none")


def test_add_xy_in_layer_crs_and_in_another(tmp_path):
    pts = gpd.GeoDataFrame(
        {"n": ["a", "b"]}, geometry=[Point(500000, 5000000), Point(510000, 5010000)], crs="EPSG:32633"
    )
    ctx = make_ctx(tmp_path, pts=pts)
    out = ctx.gdf(run(ctx, "add_xy", layer="pts").outputs[0].name)
    assert out["x"].tolist() == [500000, 510000] and out["y"].tolist() == [5000000, 5010000]
    out = ctx.gdf(run(ctx, "add_xy", layer="pts", crs="EPSG:4326").outputs[0].name)
    lon, lat = Transformer.from_crs(32633, 4326, always_xy=True).transform([500000, 510000], [5000000, 5010000])
    assert np.allclose(out["x"], lon) and np.allclose(out["y"], lat)
    assert out.crs.to_epsg() == 32633  # the layer keeps its CRS; only the fields are in 4326
    lines = gpd.GeoDataFrame(geometry=[LineString([(0, 0), (1, 1)])], crs="EPSG:32633")
    with pytest.raises(ValidationError, match="expects point"):
        run(make_ctx(tmp_path, lines=lines), "add_xy", layer="lines")


def _houses():
    return gpd.GeoDataFrame(
        {
            "district": ["n", "n", "s", "s", "s", None],
            "price": [100, 300, 50, 70, 90, 10],
            "rooms": ["3", "4", "2", "2", "x", "1"],
        },
        geometry=[Point(i, i) for i in range(6)],
        crs="EPSG:32633",
    )


def test_count_features_answer_and_by_field(tmp_path):
    ctx = make_ctx(tmp_path, houses=_houses())
    res = run(ctx, "count_features", layer="houses")
    assert res.values["count"] == 6 and res.answer == "Layer 'houses' has 6 features."
    res = run(ctx, "count_features", layer="houses", by="district")
    table = pd.read_csv(res.outputs[0].path, keep_default_na=False)
    expected = _houses()["district"].value_counts(dropna=False)
    assert dict(zip(table["district"].replace("", None), table["count"])) == {k: v for k, v in expected.items()}
    with pytest.raises(ValidationError) as err:
        run(ctx, "count_features", layer="houses", by="distrct")
    assert "Did you mean 'district'" in err.value.fix


def test_count_points_in_polygons_by_hand_and_across_crs(tmp_path):
    polys = gpd.GeoDataFrame(
        {"name": ["left", "right", "empty"]},
        geometry=[box(0, 0, 10, 10), box(10, 0, 20, 10), box(100, 100, 110, 110)],
        crs="EPSG:32633",
    )
    xy = [(1, 1), (2, 2), (5, 5), (15, 5), (9, 9), (50, 50)]
    pts_utm = gpd.GeoDataFrame({"v": range(6)}, geometry=[Point(p) for p in xy], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, polys=polys, pts=pts_utm.to_crs(4326))
    res = run(ctx, "count_points_in_polygons", polygons="polys", points="pts", field_name="n_points")
    out = read_vector(res.outputs[0].path)
    assert out["n_points"].tolist() == [4, 1, 0] and out["name"].tolist() == ["left", "right", "empty"]
    assert out.crs.to_epsg() == 32633
    assert "Reprojected 'pts' from EPSG:4326 to EPSG:32633" in res.summary
    assert res.answer.startswith("5 of 6 points")
    edge = gpd.GeoDataFrame(geometry=[Point(10, 5)], crs="EPSG:32633")  # on the shared edge: counted in both
    ctx = make_ctx(tmp_path, polys=polys, edge=edge)
    assert ctx.gdf(run(ctx, "count_points_in_polygons", polygons="polys", points="edge").outputs[0].name)[
        "count"
    ].tolist() == [1, 1, 0]
    lines = gpd.GeoDataFrame(geometry=[LineString([(0, 0), (1, 1)])], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, polys=polys, lines=lines)
    with pytest.raises(ValidationError, match="LineString geometries, but this tool expects point"):
        run(ctx, "count_points_in_polygons", polygons="polys", points="lines")


def test_count_points_matches_a_brute_force_count(tmp_path):
    rng = np.random.default_rng(7)
    grid = [box(x, y, x + 10, y + 10) for x in range(0, 50, 10) for y in range(0, 50, 10)]
    pts = rng.uniform(0.5, 49.5, size=(2000, 2))
    polys = gpd.GeoDataFrame({"cell": range(len(grid))}, geometry=grid, crs="EPSG:32633")
    points = gpd.GeoDataFrame(geometry=gpd.points_from_xy(pts[:, 0], pts[:, 1]), crs="EPSG:32633")
    ctx = make_ctx(tmp_path, cells=polys, pts=points)
    out = ctx.gdf(run(ctx, "count_points_in_polygons", polygons="cells", points="pts").outputs[0].name)
    brute = [int(shapely.intersects(cell, points.geometry.values).sum()) for cell in grid]
    assert out["count"].tolist() == brute


def test_group_by_matches_pandas(tmp_path):
    houses = _houses()
    ctx = make_ctx(tmp_path, houses=houses)
    res = run(ctx, "group_by", layer="houses", by=["district"], field="price", agg="mean")
    table = pd.read_csv(res.outputs[0].path)
    expected = houses.groupby("district", dropna=False)["price"].agg(["size", "mean"])
    got = table.set_index(table["district"].where(table["district"].notna(), None))
    for key, row in expected.iterrows():
        match = got.loc[[k == key or (pd.isna(k) and pd.isna(key)) for k in got.index]]
        assert int(match["count"].iloc[0]) == row["size"] and match["price_mean"].iloc[0] == pytest.approx(row["mean"])
    res = run(ctx, "group_by", layer="houses", by=["district"], field="rooms", agg="max")
    table = pd.read_csv(res.outputs[0].path).dropna(subset=["district"])
    assert dict(zip(table["district"], table["rooms_max"])) == {"n": 4, "s": 2}  # text numbers, 'x' ignored
    with pytest.raises(ValidationError, match="needs a field"):
        run(ctx, "group_by", layer="houses", by=["district"], agg="sum")
    with pytest.raises(ValidationError) as err:
        run(ctx, "group_by", layer="houses", by=["distric"])
    assert "Did you mean 'district'" in err.value.fix


def test_join_table_from_csv_with_text_keys(tmp_path):
    districts = gpd.GeoDataFrame(
        {"code": [1, 2, 3], "name": ["a", "b", "c"]}, geometry=[box(i, 0, i + 1, 1) for i in range(3)], crs="EPSG:32633"
    )
    csv = tmp_path / "stats.csv"
    pd.DataFrame(
        {"district_code": ["1", "3", "3", "9"], "income": [10.5, 30.0, 31.0, 90.0], "name": ["x", "y", "z", "w"]}
    ).to_csv(csv, index=False)
    ctx = make_ctx(tmp_path, districts=districts)
    ctx.layers.add_path(csv)
    res = run(ctx, "join_table", layer="districts", field="code", table="stats", table_field="district_code")
    out = read_vector(res.outputs[0].path)
    assert out["income"].tolist()[0] == 10.5 and np.isnan(out["income"].iloc[1]) and out["income"].iloc[2] == 30.0
    assert out["name"].tolist() == ["a", "b", "c"] and out["name_table"].tolist()[0] == "x"  # clash gets a suffix
    assert res.values["matched"] == 2 and "2 of 3 features matched" in res.summary
    assert "repeat a key" in res.summary
    with pytest.raises(ValidationError) as err:
        run(ctx, "join_table", layer="districts", field="code", table="stats", table_field="district_cod")
    assert "Did you mean 'district_code'" in err.value.fix


def test_world_wide_lines_are_measured_zone_by_zone(tmp_path):
    lines = gpd.GeoDataFrame(
        {"where": ["africa", "asia", "pacific"]},
        geometry=[LineString([(0, 0), (1, 0)]), LineString([(100, 0), (101, 0)]), LineString([(-170, 60), (-170, 61)])],
        crs="EPSG:4326",
    )
    ctx = make_ctx(tmp_path, lines=lines)
    res = run(ctx, "geometry_length", layer="lines")
    out = read_vector(res.outputs[0].path)
    assert out["where"].tolist() == ["africa", "asia", "pacific"]
    for got, line in zip(out["length_m"], lines.geometry):
        assert got == pytest.approx(GEOD.geometry_length(line), rel=0.005)
    assert "UTM zone" in res.summary and out.crs.to_epsg() == 4326


def test_repair_counts_match_shapely_on_a_mixed_layer(tmp_path):
    from geoclerk.function_lib.io import repaired

    rng = np.random.default_rng(5)
    polygons = [Polygon(rng.uniform(0, 10, size=(5, 2))) for _ in range(500)] + [box(0, 0, 1, 1)] * 100
    layer = gpd.GeoDataFrame({"i": range(600)}, geometry=polygons, crs="EPSG:32633")
    ctx = make_ctx(tmp_path)
    fixed = repaired(ctx, layer, "random")
    expected = int((~layer.is_valid).sum())
    assert expected > 0 and fixed.is_valid.all()
    assert ctx.notes == [f"Repaired {expected} invalid geometries in 'random' with make_valid."]
    assert fixed.geometry.iloc[-1].equals(box(0, 0, 1, 1))


def test_count_points_in_an_invalid_polygon_counts_on_the_repaired_shape(tmp_path):
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10)])
    polys = gpd.GeoDataFrame({"name": ["bow"]}, geometry=[bowtie], crs="EPSG:32633")
    pts = gpd.GeoDataFrame(geometry=[Point(1, 5), Point(9, 5), Point(5, 9), Point(5, 1)], crs="EPSG:32633")
    ctx = make_ctx(tmp_path, polys=polys, pts=pts)
    res = run(ctx, "count_points_in_polygons", polygons="polys", points="pts")
    out = ctx.gdf(res.outputs[0].name)
    assert out["count"].tolist() == [int(shapely.intersects(shapely.make_valid(bowtie), pts.geometry.values).sum())]
    assert out["count"].tolist() == [2] and out.geometry.iloc[0].is_valid
    assert "Repaired 1 invalid geometry in 'polys'" in res.summary


def test_join_table_text_codes_keep_leading_zeros(tmp_path):
    zips = gpd.GeoDataFrame({"zip": ["01234", "1234"]}, geometry=[Point(0, 0), Point(1, 1)], crs="EPSG:32633")
    table = gpd.GeoDataFrame({"code": ["1234", "01234"], "town": ["B", "A"]}, geometry=[None, None])
    ctx = make_ctx(tmp_path, zips=zips, towns=table)
    out = ctx.gdf(run(ctx, "join_table", layer="zips", field="zip", table="towns", table_field="code").outputs[0].name)
    assert out["town"].tolist() == ["A", "B"]
