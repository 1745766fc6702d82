"""Processing geometry and overlay tools against Shapely computations on small data in EPSG:32633."""

from __future__ import annotations

import pytest
import shapely
from shapely.geometry import LineString, MultiPoint, Polygon

pytest.importorskip("qgis.core")

from geoclerk.tests.processing_helpers import CRS, X0, Y0, gdf, pt, run, sq  # noqa: E402


def test_buffer_matches_shapely_polygon(reg, tmp_path):
    res, out = run(reg, tmp_path, "qgis_buffer", {"layer": "p", "distance": 100}, p=gdf([pt(0, 0)], name=["a"]))
    assert out.area.iloc[0] == pytest.approx(pt(0, 0).buffer(100, quad_segs=16).area, rel=1e-9)  # as the GeoPandas half
    assert out["name"].tolist() == ["a"] and str(out.crs) == CRS
    assert "1 features in, 1 out" in res.summary


def test_buffer_rings_are_donuts(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_buffer", {"layer": "p", "distance": 10, "rings": 3}, p=gdf([pt(0, 0)]))
    discs = [pt(0, 0).buffer(r, quad_segs=8) for r in (10, 20, 30)]
    expected = sorted([discs[0].area, discs[1].difference(discs[0]).area, discs[2].difference(discs[1]).area])
    assert sorted(out.area) == pytest.approx(expected, rel=0.02)


def test_multi_ring_buffer(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_multi_ring_buffer", {"layer": "p", "rings": 2, "distance": 50}, p=gdf([pt(0, 0)]))
    assert len(out) == 2
    assert out.area.sum() == pytest.approx(pt(0, 0).buffer(100, quad_segs=8).area, rel=0.01)


A, B = sq(0, 0), sq(50, 50)


@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        ("qgis_clip", A.intersection(B).area),
        ("qgis_intersection", A.intersection(B).area),
        ("qgis_difference", A.difference(B).area),
        ("qgis_union", A.union(B).area),
        ("qgis_symmetrical_difference", A.symmetric_difference(B).area),
    ],
)
def test_overlays_match_shapely_areas(reg, tmp_path, tool, expected):
    _, out = run(reg, tmp_path, tool, {"layer": "a", "overlay": "b"}, a=gdf([A], ka=[1]), b=gdf([B], kb=[2]))
    assert out.area.sum() == pytest.approx(expected, rel=1e-9)
    if tool == "qgis_intersection":
        assert out[["ka", "kb"]].values.tolist() == [[1, 2]]


def test_overlay_reprojects_a_second_layer_in_another_crs(reg, tmp_path):
    b_ll = gdf([B]).to_crs(4326)
    res, out = run(reg, tmp_path, "qgis_clip", {"layer": "a", "overlay": "b"}, a=gdf([A]), b=b_ll)
    assert out.area.sum() == pytest.approx(2500, rel=1e-3)
    assert "Reprojected 'b'" in res.summary


def test_dissolve_by_field(reg, tmp_path):
    layer = gdf([sq(0, 0), sq(100, 0), sq(300, 0)], kind=["a", "a", "b"])
    _, out = run(reg, tmp_path, "qgis_dissolve", {"layer": "l", "fields": ["kind"]}, l=layer)
    areas = dict(zip(out["kind"], out.area))
    assert areas == pytest.approx({"a": 20000.0, "b": 10000.0})
    assert shapely.get_num_geometries(out.set_index("kind").geometry["a"]) == 1


POINTS = gdf(
    [pt(10, 10), pt(50, 50), pt(150, 150), pt(90, 20)],
    name=["p1", "p2", "p3", "p4"],
    pop=[50, 150, 300, 120],
    kind=["a", "a", "b", "b"],
)


def test_extract_by_location_within(reg, tmp_path):
    args = {"layer": "pts", "reference": "poly", "predicate": "within"}
    _, out = run(reg, tmp_path, "qgis_extract_by_location", args, pts=POINTS, poly=gdf([sq(0, 0)]))
    expected = [n for n, g in zip(POINTS["name"], POINTS.geometry) if g.within(sq(0, 0))]
    assert sorted(out["name"]) == sorted(expected) == ["p1", "p2", "p4"]


def test_extract_by_attribute(reg, tmp_path):
    args = {"layer": "pts", "field": "pop", "operator": ">", "value": "100"}
    _, out = run(reg, tmp_path, "qgis_extract_by_attribute", args, pts=POINTS)
    assert sorted(out["name"]) == sorted(POINTS[POINTS["pop"] > 100]["name"])


def test_extract_by_expression_accepts_python_style_equality(reg, tmp_path):
    args = {"layer": "pts", "expression": "pop > 100 and kind == 'b'"}
    _, out = run(reg, tmp_path, "qgis_extract_by_expression", args, pts=POINTS)
    assert sorted(out["name"]) == ["p3", "p4"]


def test_extract_by_expression_reads_double_quoted_text_as_a_value(reg, tmp_path):
    args = {"layer": "pts", "expression": 'kind == "a" and "pop" < 100'}
    _, out = run(reg, tmp_path, "qgis_extract_by_expression", args, pts=POINTS)
    assert out["name"].tolist() == ["p1"]


def test_extract_within_distance(reg, tmp_path):
    line = LineString([(X0, Y0 + 200), (X0 + 200, Y0 + 200)])
    args = {"layer": "pts", "reference": "line", "distance": 100}
    _, out = run(reg, tmp_path, "qgis_extract_within_distance", args, pts=POINTS, line=gdf([line]))
    expected = [n for n, g in zip(POINTS["name"], POINTS.geometry) if g.distance(line) <= 100]
    assert sorted(out["name"]) == sorted(expected) == ["p3"]


def test_centroids_and_whole_layer(reg, tmp_path):
    layer = gdf([sq(0, 0), sq(200, 0, 50)])
    _, out = run(reg, tmp_path, "qgis_centroids", {"layer": "l"}, l=layer)
    expected = shapely.get_coordinates(layer.centroid).ravel()
    assert shapely.get_coordinates(out.geometry).ravel() == pytest.approx(expected)
    _, whole = run(reg, tmp_path, "qgis_centroids", {"layer": "l", "whole_layer": True}, l=layer)
    expected = shapely.geometrycollections(list(layer.geometry)).centroid
    assert len(whole) == 1 and [whole.geometry[0].x, whole.geometry[0].y] == pytest.approx([expected.x, expected.y])


def test_point_on_surface_is_inside_a_concave_polygon(reg, tmp_path):
    u_shape = Polygon(
        [
            (X0, Y0),
            (X0 + 30, Y0),
            (X0 + 30, Y0 + 100),
            (X0 + 70, Y0 + 100),
            (X0 + 70, Y0),
            (X0 + 100, Y0),
            (X0 + 100, Y0 + 130),
            (X0, Y0 + 130),
        ]
    )
    _, out = run(reg, tmp_path, "qgis_point_on_surface", {"layer": "u"}, u=gdf([u_shape]))
    assert out.geometry[0].within(u_shape) and not u_shape.centroid.within(u_shape)
    _, rep = run(reg, tmp_path, "qgis_centroids", {"layer": "u", "method": "representative_point"}, u=gdf([u_shape]))
    assert rep.geometry[0].within(u_shape)


def test_convex_hull_and_oriented_box(reg, tmp_path):
    tri = Polygon([(X0, Y0), (X0 + 100, Y0 + 10), (X0 + 40, Y0 + 60), (X0 + 50, Y0 + 20)])
    _, hull = run(reg, tmp_path, "qgis_convex_hull", {"layer": "t"}, t=gdf([tri]))
    assert hull.area[0] == pytest.approx(tri.convex_hull.area)
    _, obb = run(reg, tmp_path, "qgis_oriented_bounding_box", {"layer": "t"}, t=gdf([tri]))
    assert obb.area[0] == pytest.approx(shapely.oriented_envelope(tri).area, rel=1e-4)


@pytest.mark.parametrize(
    ("shape", "func"),
    [
        ("envelope", shapely.envelope),
        ("convex_hull", shapely.convex_hull),
        ("rectangle", shapely.oriented_envelope),
        ("circle", shapely.minimum_bounding_circle),
    ],
)
def test_minimum_bounding_geometry_per_group(reg, tmp_path, shape, func):
    args = {"layer": "pts", "shape": shape, "by": "kind"}
    _, out = run(reg, tmp_path, "qgis_minimum_bounding_geometry", args, pts=POINTS)
    for kind, geom in zip(out["kind"], out.geometry):
        expected = func(MultiPoint(list(POINTS[POINTS["kind"] == kind].geometry))).area
        assert geom.area == pytest.approx(expected, rel=0.01 if shape == "circle" else 1e-6)


def test_voronoi_cells_contain_their_points(reg, tmp_path):
    pts = gdf([pt(0, 0), pt(100, 0), pt(0, 100), pt(100, 100), pt(50, 50)], name=list("abcde"))
    _, out = run(reg, tmp_path, "qgis_voronoi", {"layer": "p"}, p=pts)
    assert len(out) == 5
    for name, cell in zip(out["name"], out.geometry):
        assert pts[pts["name"] == name].geometry.iloc[0].within(cell)
    assert out.area.sum() == pytest.approx(120 * 120, rel=1e-6)  # extent + 10% on each side


def test_delaunay_triangles(reg, tmp_path):
    pts = gdf([pt(0, 0), pt(100, 0), pt(0, 100), pt(100, 100), pt(50, 50)])
    _, out = run(reg, tmp_path, "qgis_delaunay", {"layer": "p"}, p=pts)
    expected = shapely.get_parts(shapely.delaunay_triangles(MultiPoint(list(pts.geometry))))
    assert len(out) == len(expected) == 4
    assert out.area.sum() == pytest.approx(10000)


def test_polygons_to_lines_and_back(reg, tmp_path):
    _, lines = run(reg, tmp_path, "qgis_polygons_to_lines", {"layer": "s"}, s=gdf([sq(0, 0)]))
    assert lines.length[0] == pytest.approx(sq(0, 0).length)
    ring = LineString(list(sq(0, 0, 40).exterior.coords))
    _, polys = run(reg, tmp_path, "qgis_lines_to_polygons", {"layer": "r"}, r=gdf([ring]))
    assert polys.area[0] == pytest.approx(1600)


def test_extract_vertices(reg, tmp_path):
    tri = Polygon([(X0, Y0), (X0 + 10, Y0), (X0, Y0 + 10)])
    _, out = run(reg, tmp_path, "qgis_extract_vertices", {"layer": "t"}, t=gdf([tri]))
    expected = shapely.get_coordinates(tri)
    assert sorted(shapely.get_coordinates(out.geometry).tolist()) == sorted(expected.tolist())


def test_split_with_lines(reg, tmp_path):
    cut = LineString([(X0 + 30, Y0 - 10), (X0 + 30, Y0 + 110)])
    _, out = run(reg, tmp_path, "qgis_split_with_lines", {"layer": "s", "lines": "c"}, s=gdf([sq(0, 0)]), c=gdf([cut]))
    assert sorted(out.area) == pytest.approx([3000, 7000])


def test_fix_geometries_repairs_a_bowtie(reg, tmp_path):
    bowtie = Polygon([(X0, Y0), (X0 + 10, Y0 + 10), (X0 + 10, Y0), (X0, Y0 + 10)])
    _, out = run(reg, tmp_path, "qgis_fix_geometries", {"layer": "b"}, b=gdf([bowtie]))
    assert out.is_valid.all()
    assert out.area.sum() == pytest.approx(shapely.make_valid(bowtie).area) == pytest.approx(50)


def test_merge_layers(reg, tmp_path):
    args = {"layers": ["a", "b"]}
    _, out = run(
        reg, tmp_path, "qgis_merge_layers", args, a=gdf([pt(0, 0)], v=[1]), b=gdf([pt(5, 5), pt(6, 6)], v=[2, 3])
    )
    assert sorted(out["v"]) == [1, 2, 3]
    assert sorted(out["layer"]) == ["a", "b", "b"]
