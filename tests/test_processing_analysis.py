"""Processing joins, statistics, clustering, network and creation tools against hand-computed values."""

from __future__ import annotations

import csv
import math

import pytest
import shapely
from pyproj import Transformer
from shapely.geometry import LineString

pytest.importorskip("qgis.core")

from geoclerk.tests.processing_helpers import CRS, X0, Y0, gdf, pt, run, sq  # noqa: E402

POLYS = gdf([sq(0, 0), sq(100, 0)], zone=["west", "east"])
POINTS = gdf(
    [pt(10, 10), pt(20, 30), pt(150, 50), pt(300, 300)],
    name=["a", "b", "c", "d"],
    pop=[1, 2, 4, 8],
    kind=["x", "x", "y", "y"],
)


def test_join_by_location(reg, tmp_path):
    args = {"layer": "pts", "join": "polys", "predicate": "within"}
    _, out = run(reg, tmp_path, "qgis_join_by_location", args, pts=POINTS, polys=POLYS)
    got = {n: z if isinstance(z, str) else None for n, z in zip(out["name"], out["zone"])}
    expected = {
        n: next((z for z, p in zip(POLYS["zone"], POLYS.geometry) if g.within(p)), None)
        for n, g in zip(POINTS["name"], POINTS.geometry)
    }
    assert got == expected == {"a": "west", "b": "west", "c": "east", "d": None}


def test_join_by_location_nearest(reg, tmp_path):
    args = {"layer": "pts", "join": "polys", "predicate": "nearest"}
    _, out = run(reg, tmp_path, "qgis_join_by_location", args, pts=POINTS, polys=POLYS)
    assert dict(zip(out["name"], out["zone"]))["d"] == "east"


def test_join_by_field(reg, tmp_path):
    table = gdf([pt(0, 0), pt(1, 1)], key=["x", "y"], label=["ex", "why"])
    args = {"layer": "pts", "field": "kind", "table": "t", "table_field": "key"}
    _, out = run(reg, tmp_path, "qgis_join_by_field", args, pts=POINTS, t=table)
    assert dict(zip(out["name"], out["label"])) == {"a": "ex", "b": "ex", "c": "why", "d": "why"}


def test_join_by_nearest_distances(reg, tmp_path):
    targets = gdf([pt(0, 0), pt(300, 310)], tname=["origin", "far"])
    args = {"layer": "pts", "target": "t"}
    _, out = run(reg, tmp_path, "qgis_join_by_nearest", args, pts=POINTS, t=targets)
    for _name, tname, dist, geom in zip(out["name"], out["tname"], out["distance"], out.geometry):
        dists = {n: geom.distance(g) for n, g in zip(targets["tname"], targets.geometry)}
        assert tname == min(dists, key=dists.get) and dist == pytest.approx(min(dists.values()))


def test_count_points_in_polygon(reg, tmp_path):
    args = {"polygons": "polys", "points": "pts"}
    res, out = run(reg, tmp_path, "qgis_count_points_in_polygon", args, pts=POINTS, polys=POLYS)
    expected = {z: int(POINTS.within(p).sum()) for z, p in zip(POLYS["zone"], POLYS.geometry)}
    assert dict(zip(out["zone"], out["count"])) == expected == {"west": 2, "east": 1}
    assert res.answer == "3 points in 2 polygons (at most 2 in one)."


def test_field_calculator_expression_value_and_area(reg, tmp_path):
    _, out = run(
        reg, tmp_path, "qgis_field_calculator", {"layer": "p", "field_name": "d", "expression": "pop * 2"}, p=POINTS
    )
    assert out["d"].tolist() == [2, 4, 8, 16]
    _, out = run(reg, tmp_path, "qgis_field_calculator", {"layer": "p", "field_name": "tag", "value": "town"}, p=POINTS)
    assert out["tag"].tolist() == ["town"] * 4
    _, out = run(
        reg, tmp_path, "qgis_field_calculator", {"layer": "z", "field_name": "a", "expression": "$area"}, z=POLYS
    )
    assert out["a"].tolist() == pytest.approx(POLYS.area.tolist())


def test_reproject_and_assign(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_reproject", {"layer": "p", "crs": "EPSG:4326"}, p=POINTS)
    lon, lat = Transformer.from_crs(CRS, 4326, always_xy=True).transform(X0 + 10, Y0 + 10)
    assert out.crs.to_epsg() == 4326 and [out.geometry[0].x, out.geometry[0].y] == pytest.approx([lon, lat])
    _, same = run(reg, tmp_path, "qgis_reproject", {"layer": "p", "crs": "EPSG:32634", "assign": True}, p=POINTS)
    assert same.crs.to_epsg() == 32634 and same.geometry[0].x == pytest.approx(X0 + 10)


def test_add_xy_fields(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_add_xy_fields", {"layer": "p"}, p=POINTS)
    assert out["x"].tolist() == pytest.approx(POINTS.geometry.x.tolist())
    _, ll = run(reg, tmp_path, "qgis_add_xy_fields", {"layer": "p", "crs": "EPSG:4326"}, p=POINTS)
    lon, lat = Transformer.from_crs(CRS, 4326, always_xy=True).transform(X0 + 10, Y0 + 10)
    assert [ll["x"][0], ll["y"][0]] == pytest.approx([lon, lat])


BLOBS = gdf(
    [pt(0, 0), pt(5, 0), pt(0, 5), pt(5, 5), pt(1000, 1000), pt(1005, 1000), pt(1000, 1005), pt(5000, 0)],
    name=list("abcdefgh"),
)


def test_kmeans_separates_blobs(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_kmeans", {"layer": "b", "clusters": 3}, b=BLOBS)
    ids = dict(zip(out["name"], out["CLUSTER_ID"]))
    assert len({ids[n] for n in "abcd"}) == 1 and len({ids[n] for n in "efg"}) == 1
    assert len({ids["a"], ids["e"], ids["h"]}) == 3


def test_dbscan_finds_two_clusters_and_noise(reg, tmp_path):
    res, out = run(reg, tmp_path, "qgis_dbscan", {"layer": "b", "eps": 10, "min_samples": 3}, b=BLOBS)
    ids = dict(zip(out["name"], out["CLUSTER_ID"]))
    assert res.values["NUM_CLUSTERS"] == 2 and res.answer == "2 clusters found."
    assert len({ids[n] for n in "abcd"}) == 1 and ids["a"] != ids["e"] and math.isnan(ids["h"])


def test_nearest_neighbour_analysis_on_a_grid(reg, tmp_path):
    grid = gdf([pt(x * 50, y * 50) for x in range(5) for y in range(5)])
    res, _ = run(reg, tmp_path, "qgis_nearest_neighbour_analysis", {"layer": "g"}, g=grid)
    assert res.values["OBSERVED_MD"] == pytest.approx(50.0)
    assert res.values["NN_INDEX"] > 1 and "dispersed" in res.answer and "50.0 m" in res.answer
    assert res.outputs[0].kind == "html"


def test_distance_matrix_three_four_five(reg, tmp_path):
    pts = gdf([pt(0, 0), pt(30, 0), pt(0, 40)], name=["o", "e", "n"])
    res, out = run(reg, tmp_path, "qgis_distance_matrix", {"layer": "p"}, p=pts)
    got = sorted(round(d, 6) for d in out["Distance"] if d > 0)
    assert got == [30, 30, 40, 40, 50, 50]


NETWORK = gdf(
    [
        LineString([(X0, Y0), (X0 + 100, Y0)]),
        LineString([(X0 + 100, Y0), (X0 + 100, Y0 + 100)]),
        LineString([(X0, Y0), (X0, Y0 + 300)]),
        LineString([(X0, Y0 + 300), (X0 + 100, Y0 + 100)]),
    ]
)


def test_shortest_path_length(reg, tmp_path):
    args = {"layer": "net", "start": [X0, Y0], "end": [X0 + 100, Y0 + 100]}
    res, out = run(reg, tmp_path, "qgis_shortest_path", args, net=NETWORK)
    assert out.length.sum() == pytest.approx(200.0)
    assert res.values["TRAVEL_COST"] == pytest.approx(200.0, rel=1e-3)  # QGIS measures on the ellipsoid
    assert "Route length: 200." in res.answer


def test_service_area_reach(reg, tmp_path):
    args = {"layer": "net", "start": [X0, Y0], "distance": 150}
    _, out = run(reg, tmp_path, "qgis_service_area", args, net=NETWORK)
    # 100 m east + 50 m north from the corner, and 150 m up the west edge (QGIS costs are ellipsoidal)
    assert shapely.union_all(out.geometry).length == pytest.approx(300.0, rel=1e-3)
    assert shapely.get_coordinates(out.geometry)[:, 1].max() == pytest.approx(Y0 + 150, abs=0.2)


def test_create_grid_cells(reg, tmp_path):
    _, out = run(reg, tmp_path, "qgis_create_grid", {"layer": "s", "spacing": 50}, s=gdf([sq(0, 0)]))
    assert len(out) == 4 and out.area.tolist() == pytest.approx([2500] * 4)
    assert shapely.union_all(out.geometry).equals(sq(0, 0))


def test_random_points_in_polygons(reg, tmp_path):
    res, out = run(reg, tmp_path, "qgis_random_points_in_polygons", {"layer": "z", "count": 5}, z=POLYS)
    assert len(out) == 10
    for zone, geom in zip(out["zone"], out.geometry):
        assert geom.within(POLYS[POLYS["zone"] == zone].geometry.iloc[0])


def test_aggregate_sum_per_group(reg, tmp_path):
    args = {"layer": "p", "by": "kind", "field": "pop", "agg": "sum"}
    _, out = run(reg, tmp_path, "qgis_aggregate", args, p=POINTS)
    assert dict(zip(out["kind"], out["pop_sum"])) == POINTS.groupby("kind")["pop"].sum().to_dict()
    assert dict(zip(out["kind"], out["count"])) == {"x": 2, "y": 2}


def test_statistics_by_categories(reg, tmp_path):
    args = {"layer": "p", "by": ["kind"], "field": "pop", "agg": "mean"}
    res, _ = run(reg, tmp_path, "qgis_statistics_by_categories", args, p=POINTS)
    with open(res.outputs[0].path, newline="") as fh:
        rows = {r["kind"]: float(r["mean"]) for r in csv.DictReader(fh)}
    assert rows == POINTS.groupby("kind")["pop"].mean().to_dict()
    assert "x: 1.5" in res.answer and "y: 6" in res.answer


def test_basic_statistics_answer(reg, tmp_path):
    res, _ = run(reg, tmp_path, "qgis_basic_statistics", {"layer": "p", "field": "pop"}, p=POINTS)
    assert res.values["MEAN"] == pytest.approx(3.75) and res.values["MAX"] == 8 and res.values["SUM"] == 15
    assert "mean 3.75" in res.answer and "max 8" in res.answer


@pytest.mark.parametrize("fids", [[1, 2, 3, 4], [1, 1, 2, 2]])
def test_a_result_with_repeated_fids_is_written_whole(fids, tmp_path):
    # one input feature became several (random points, one-to-many joins): the GeoPackage keeps all of them, and
    # 'fid' stays the FID column whenever its values are unique
    import geopandas as gpd
    from geoclerk.geoclerk_plugin.processing_tools.runner import write_gpkg
    from qgis.core import QgsFeature, QgsGeometry, QgsPointXY, QgsProcessingContext, QgsVectorLayer

    layer = QgsVectorLayer(f"Point?crs={CRS}&field=fid:integer&field=name:string", "result", "memory")
    features = []
    for i, fid in enumerate(fids):
        feature = QgsFeature(layer.fields())
        feature.setAttributes([fid, f"p{i}"])
        feature.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(X0 + i, Y0)))
        features.append(feature)
    layer.dataProvider().addFeatures(features)
    target = tmp_path / "result.gpkg"
    write_gpkg(layer, target, None, QgsProcessingContext())
    written = gpd.read_file(target, fid_as_index=True)
    assert sorted(written["name"]) == ["p0", "p1", "p2", "p3"]
    if len(set(fids)) == len(fids):
        assert sorted(written.index) == fids and "fid" not in written.columns
    else:
        assert sorted(written["fid"]) == fids
