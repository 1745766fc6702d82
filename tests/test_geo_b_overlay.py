"""GEO-B overlay tools (clip, overlay, dissolve, split, lines, vertices) checked against hand geometry."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from geoclerk.errors import ToolError, ValidationError
from geoclerk.function_lib.io import read_vector
from geoclerk.tests.geo_helpers import gdf, make_ctx
from geoclerk.tests.geo_helpers import run_layer as run
from shapely.geometry import LineString, Point, Polygon, box


def test_clip_keeps_only_the_parts_inside(tmp_path):
    mask = gdf([box(0, 0, 10, 10)])
    pts = gdf([Point(1, 1), Point(5, 5), Point(20, 20), Point(-3, 4)], name=["a", "b", "c", "d"])
    line = gdf([LineString([(-5, 5), (15, 5)])], kind=["road"])
    ctx = make_ctx(tmp_path, mask=mask, pts=pts, line=line)
    res, out = run(ctx, "clip", layer="pts", overlay="mask")
    assert sorted(out["name"]) == ["a", "b"]
    assert res.values["feature_count"] == 2 and "4 features in, 2 out" in res.summary
    _, out = run(ctx, "clip", layer="line", overlay="mask")
    assert out.length.sum() == pytest.approx(10.0)
    assert out["kind"].tolist() == ["road"]
    written = read_vector(res.outputs[0].path)
    assert len(written) == 2 and written.crs.to_epsg() == 32633


def test_clip_reprojects_a_mask_in_another_crs(tmp_path):
    mask = gdf([box(500000, 5000000, 501000, 5001000)]).to_crs(4326)
    pts = gdf([Point(500500, 5000500), Point(502000, 5000500)], id=[1, 2])
    ctx = make_ctx(tmp_path, mask=mask, pts=pts)
    res, out = run(ctx, "clip", layer="pts", overlay="mask")
    assert out["id"].tolist() == [1]
    assert "Reprojected 'mask' from EPSG:4326 to EPSG:32633" in res.summary


@pytest.mark.parametrize(
    "how, area, pieces",
    [("intersection", 25, 1), ("union", 175, 3), ("difference", 75, 1), ("symmetric_difference", 150, 2),
     ("identity", 100, 2)],
)
def test_overlay_areas_match_hand_computation(tmp_path, how, area, pieces):
    a = gdf([box(0, 0, 10, 10)], a=[1])
    b = gdf([box(5, 5, 15, 15)], b=[2])
    ctx = make_ctx(tmp_path, a=a, b=b)
    _, out = run(ctx, "overlay", layer="a", overlay="b", how=how)
    assert out.area.sum() == pytest.approx(area)
    assert len(out) == pieces
    if how == "intersection":
        assert out[["a", "b"]].values.tolist() == [[1, 2]]


def test_overlay_union_rejects_points_naming_types(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(1, 1)]), b=gdf([box(0, 0, 2, 2)]))
    with pytest.raises(ValidationError) as err:
        run(ctx, "overlay", layer="p", overlay="b", how="union")
    assert "polygon" in err.value.message and "Point" in err.value.message


def test_dissolve_by_field_and_whole_layer(tmp_path):
    squares = gdf([box(i, 0, i + 1, 1) for i in range(4)], zone=["x", "x", "y", "y"], v=[1, 2, 3, 4])
    ctx = make_ctx(tmp_path, sq=squares)
    _, out = run(ctx, "dissolve", layer="sq", fields=["zone"])
    assert out["zone"].tolist() == ["x", "y"]
    assert out.area.tolist() == pytest.approx([2.0, 2.0])
    assert out["n_features"].tolist() == [2, 2]
    assert out.geometry.iloc[0].equals(box(0, 0, 2, 1))
    _, out = run(ctx, "dissolve", layer="sq")
    assert len(out) == 1 and out.area.iloc[0] == pytest.approx(4.0) and out["n_features"].iloc[0] == 4


def test_dissolve_unknown_field_suggests(tmp_path):
    ctx = make_ctx(tmp_path, sq=gdf([box(0, 0, 1, 1)], zone=["x"]))
    with pytest.raises(ValidationError) as err:
        run(ctx, "dissolve", layer="sq", fields=["zon"])
    assert "zone" in err.value.fix


def test_split_polygons_by_lines(tmp_path):
    polys = gdf([box(0, 0, 10, 10), box(20, 0, 30, 10)], name=["cut", "whole"])
    cutter = gdf([LineString([(4, -1), (4, 11)]), LineString([(4, 5), (12, 5)])])
    ctx = make_ctx(tmp_path, p=polys, l=cutter)
    res, out = run(ctx, "split_polygons_by_lines", layer="p", lines="l")
    cut = out[out["name"] == "cut"]
    assert sorted(cut.area.round(6)) == [30.0, 30.0, 40.0]
    assert out[out["name"] == "whole"].area.tolist() == [100.0]
    assert res.values["split_polygons"] == 1


def test_to_lines_gives_boundaries(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([box(0, 0, 10, 10), box(0, 0, 2, 3)], f=[1, 2]), pt=gdf([Point(0, 0)]))
    _, out = run(ctx, "to_lines", layer="p")
    assert out.length.tolist() == pytest.approx([40.0, 10.0])
    assert set(out.geom_type) == {"LineString"} and out["f"].tolist() == [1, 2]
    with pytest.raises(ValidationError):
        run(ctx, "to_lines", layer="pt")


def test_lines_to_polygons(tmp_path):
    ring = LineString([(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)])
    open_line = LineString([(0, 0), (4, 0), (4, 3)])
    too_short = LineString([(0, 0), (1, 1)])
    ctx = make_ctx(tmp_path, l=gdf([ring, open_line, too_short], n=[1, 2, 3]))
    res, out = run(ctx, "lines_to_polygons", layer="l")
    assert out["n"].tolist() == [1, 2]
    assert out.area.tolist() == pytest.approx([100.0, 6.0])
    assert "Dropped 1 lines" in res.summary


def test_vertices_to_points(tmp_path):
    line = LineString([(0, 0), (1, 0), (2, 2)])
    ctx = make_ctx(tmp_path, g=gdf([line, box(0, 0, 1, 1)], k=["l", "p"]))
    _, out = run(ctx, "vertices_to_points", layer="g")
    assert out["k"].tolist() == ["l"] * 3 + ["p"] * 5
    assert out["vertex_index"].tolist() == [0, 1, 2, 0, 1, 2, 3, 4]
    expected = np.vstack([shapely.get_coordinates(line), shapely.get_coordinates(box(0, 0, 1, 1))])
    assert np.allclose(shapely.get_coordinates(out.geometry.values), expected)


def test_empty_layer_is_a_tool_error(tmp_path):
    ctx = make_ctx(tmp_path, e=gdf([]), m=gdf([box(0, 0, 1, 1)]))
    with pytest.raises(ToolError, match="empty"):
        run(ctx, "clip", layer="e", overlay="m")


def test_invalid_geometries_are_repaired_and_reported(tmp_path):
    bowtie = Polygon([(0, 0), (10, 10), (10, 0), (0, 10), (0, 0)])
    assert not bowtie.is_valid
    ctx = make_ctx(tmp_path, b=gdf([bowtie], n=[1]), m=gdf([box(-1, -1, 11, 11)]))
    res, out = run(ctx, "clip", layer="b", overlay="m")
    assert "Repaired 1 invalid geometry in 'b'" in res.summary
    assert out.is_valid.all() and out.area.sum() == pytest.approx(50.0)


def test_one_layer_without_crs_is_rejected(tmp_path):
    ctx = make_ctx(tmp_path, p=gdf([Point(1, 1)]), m=gdf([box(0, 0, 2, 2)], crs=None))
    with pytest.raises(ValidationError, match="CRS"):
        run(ctx, "clip", layer="p", overlay="m")


def test_dissolve_overlapping_polygons_falls_back_to_a_full_union(tmp_path):
    polys = gdf([box(0, 0, 10, 10), box(5, 5, 15, 15), box(20, 0, 21, 1), box(21, 0, 22, 1)], g=["a", "a", "b", "b"],
                h=[1, 1, 2, 3])
    ctx = make_ctx(tmp_path, p=polys)
    _, out = run(ctx, "dissolve", layer="p", fields=["g"])
    assert out.area.tolist() == pytest.approx([175.0, 2.0])
    assert out.is_valid.all() and out.geometry.iloc[1].equals(box(20, 0, 22, 1))
    _, out = run(ctx, "dissolve", layer="p", fields=["g", "h"])
    assert out[["g", "h", "n_features"]].values.tolist() == [["a", 1, 2], ["b", 2, 1], ["b", 3, 1]]


def test_clip_of_a_grid_equals_shapely_intersection(tmp_path):
    cells = [box(x, y, x + 1, y + 1) for x in range(10) for y in range(10)]
    grid = gdf(cells, cid=np.arange(100))
    disc = Point(5, 5).buffer(3.3)
    ctx = make_ctx(tmp_path, g=grid, m=gdf([disc]))
    _, out = run(ctx, "clip", layer="g", overlay="m")
    expected = {i: c.intersection(disc) for i, c in enumerate(cells) if c.intersection(disc).area > 0}
    assert out["cid"].tolist() == sorted(expected)
    assert all(g.equals(expected[i]) for i, g in zip(out["cid"], out.geometry))


def test_overlay_intersection_of_lines_with_polygons(tmp_path):
    roads = gdf([LineString([(-5, 5), (15, 5)]), LineString([(20, 0), (30, 0)])], road=["a", "b"])
    zones = gdf([box(0, 0, 4, 10), box(6, 0, 10, 10)], zone=[1, 2])
    ctx = make_ctx(tmp_path, r=roads, z=zones)
    _, out = run(ctx, "overlay", layer="r", overlay="z", how="intersection")
    assert out[["road", "zone"]].values.tolist() == [["a", 1], ["a", 2]]
    assert out.length.tolist() == pytest.approx([4.0, 4.0])
    _, out = run(ctx, "overlay", layer="r", overlay="z", how="difference")
    assert sorted(out.length.round(9)) == [10.0, 12.0]


def test_world_layer_in_degrees_against_a_local_layer(tmp_path):
    local = gdf([box(500000, 5000000, 502000, 5002000)], name=["town"])  # near 15°E 45°N
    world = gdf([box(14.0, 44.0, 16.0, 46.0), box(-170.0, -50.0, -160.0, -40.0)], crs="EPSG:4326", w=["here", "far"])
    ctx = make_ctx(tmp_path, town=local, world=world)
    res, out = run(ctx, "overlay", layer="town", overlay="world", how="intersection")
    assert out["w"].tolist() == ["here"] and out.area.iloc[0] == pytest.approx(4e6)
    _, out = run(ctx, "clip", layer="town", overlay="world")
    assert out.area.tolist() == pytest.approx([4e6])
    faraway = gdf([box(-169.0, -49.0, -168.0, -48.0)], crs="EPSG:4326")
    ctx = make_ctx(tmp_path, town=local, faraway=faraway)
    with pytest.raises(ToolError, match="No feature of 'faraway'"):
        run(ctx, "clip", layer="town", overlay="faraway")


def test_dissolve_of_polygons_that_are_no_coverage(tmp_path):
    # overlapping triangles with unmatched edges make the coverage union fail; the full union takes over
    tri = [Polygon([(0, 0), (10, 0), (0, 10)]), Polygon([(2, 2), (12, 2), (2, 12)]), box(1, 1, 3, 3)]
    ctx = make_ctx(tmp_path, t=gdf(tri, g=[1, 1, 1]))
    _, out = run(ctx, "dissolve", layer="t", fields=["g"])
    assert out.area.iloc[0] == pytest.approx(shapely.union_all(tri).area) and out.is_valid.all()
