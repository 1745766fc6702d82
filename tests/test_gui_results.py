"""Layer adapters and result handling: inputs from project layers, styles, titles, provenance, zoom to."""

from __future__ import annotations

import json

import pytest
from geoclerk.geoclerk_plugin.layers import build_inputs, describe_layer
from geoclerk.geoclerk_plugin.results import layer_title, load_outputs, provenance, read_provenance
from geoclerk.geoclerk_plugin.styling import choose_style
from geoclerk.tests.test_gui_dock import dock, town  # noqa: F401
from geoclerk.tests.test_gui_support import isolated_settings, make_town  # noqa: F401
from qgis.core import QgsFeature, QgsField, QgsGeometry, QgsPointXY, QgsProject, QgsVectorLayer


def _memory_points() -> QgsVectorLayer:
    layer = QgsVectorLayer("Point?crs=EPSG:4326&field=name:string&field=visits:integer", "cafés in memory", "memory")
    features = []
    for i, (x, y) in enumerate([(13.40, 52.52), (13.41, 52.53), (13.42, 52.51)]):
        f = QgsFeature(layer.fields())
        f.setAttributes([f"Café {i}", 10 * (i + 1)])
        f.setGeometry(QgsGeometry.fromPointXY(QgsPointXY(x, y)))
        features.append(f)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def test_memory_layer_is_exported_and_described(tmp_path, qgis_new_project):
    layer = _memory_points()
    layer.selectByIds([layer.allFeatureIds()[0]])
    store, [info] = build_inputs([layer], tmp_path / "inputs")
    entry = store.get("cafés in memory")
    assert entry.path.endswith(".gpkg") and entry.path.startswith(str(tmp_path))
    assert info.crs == "EPSG:4326" and info.crs_is_geographic is True
    assert info.geometry_type == "Point" and info.feature_count == 3 and info.selected_count == 1
    assert [(f.name, f.type) for f in info.fields] == [("name", "string"), ("visits", "integer")]
    assert info.fields[1].samples == [10, 20, 30]
    reread = QgsVectorLayer(entry.path, "x", "ogr")
    assert reread.featureCount() == 3


def test_field_types_are_described_on_every_qgis():
    """QgsField.type() is a QVariant.Type before QGIS 3.38 and a QMetaType.Type since (the only one under Qt6)."""
    kinds = {"i": "integer", "l": "int8", "r": "double", "b": "boolean", "d": "date", "t": "datetime", "s": "string"}
    uri = "Point?crs=EPSG:4326&" + "&".join(f"field={name}:{kind}" for name, kind in kinds.items())
    layer = QgsVectorLayer(uri, "typed", "memory")
    assert layer.isValid() and layer.fields().count() == len(kinds)
    described = {field.name: field.type for field in describe_layer(layer).fields}
    assert described == {"i": "integer", "l": "integer", "r": "real", "b": "boolean", "d": "date", "t": "date",
                         "s": "string"}  # fmt: skip


def test_file_layer_is_used_in_place(tmp_path):
    paths = make_town(tmp_path / "data")
    layer = QgsVectorLayer(paths["districts"], "districts", "ogr")
    info = describe_layer(layer)
    assert info.path == paths["districts"] and info.crs == "EPSG:32633"
    layer.setSubsetString("population > 2000")  # a filtered layer is exported, not read whole
    store, [filtered] = build_inputs([layer], tmp_path / "inputs")
    assert store.get("districts").path != paths["districts"] and filtered.feature_count == 2


@pytest.mark.parametrize(
    ("request_text", "steps", "expected"),
    [
        ("map districts by kind", [], ("categorized", "kind")),
        ("show the population of each district", [], ("graduated", "population")),
        ("buffer districts by 10 m", [{"tool": "buffer"}], ("buffer", None)),
        ("dissolve the districts", [{"tool": "dissolve"}], ("single", None)),
    ],
)
def test_style_follows_the_request(tmp_path, request_text, steps, expected):
    layer = QgsVectorLayer(make_town(tmp_path / "d")["districts"], "districts", "ogr")
    assert choose_style(layer, request_text, steps) == expected


def test_cluster_labels_are_categorized(tmp_path):
    from geoclerk.geoclerk_plugin.styling import apply_style

    layer = _memory_points()
    cluster = QgsField(layer.fields().field("visits"))  # an integer field, made the same way under Qt5 and Qt6
    cluster.setName("cluster")
    layer.dataProvider().addAttributes([cluster])
    layer.updateFields()
    index = layer.fields().indexOf("cluster")
    layer.dataProvider().changeAttributeValues({fid: {index: fid % 2} for fid in layer.allFeatureIds()})
    assert apply_style(layer, "group the cafés into 2 clusters", [{"tool": "cluster_points"}]) == "categorized:cluster"
    assert layer.renderer().type() == "categorizedSymbol" and len(layer.renderer().categories()) == 2


def test_titles_and_provenance_never_hold_the_key():
    assert layer_title("buffer schools by 100 m", 0, 1) == "buffer schools by 100 m"
    assert layer_title("x " * 80, 1, 2).endswith("… (2)") and len(layer_title("x " * 80, 1, 2)) < 70
    report = {"request": "r", "route": "codegen", "tier": 2, "steps": [{"code": "key = 'sk-LEAK'", "ok": True}],
              "model": "m", "usage": {}, "timings_ms": {}}  # fmt: skip
    prov = provenance(report, secrets=("sk-LEAK",))
    assert "sk-LEAK" not in json.dumps(prov) and prov["steps"][0]["code"] == "key = '***'"


def test_loaded_result_and_zoom_to(dock, town, tmp_path, qgis_canvas):  # noqa: F811
    report = {"request": "districts copy", "status": "ok", "route": "function", "tier": 0, "steps": [],
              "outputs": [{"path": town["districts"].source(), "kind": "vector"}]}  # fmt: skip
    [layer] = load_outputs(report, QgsProject.instance())
    assert read_provenance(layer)["request"] == "districts copy"
    dock.iface.mapCanvas().setDestinationCrs(layer.crs())
    dock.zoom_to(layer.id())
    extent = dock.iface.mapCanvas().extent()
    assert extent.contains(layer.extent())
    assert extent.center().x() == pytest.approx(layer.extent().center().x(), abs=1)
    assert extent.center().y() == pytest.approx(layer.extent().center().y(), abs=1)


def test_counts_per_polygon_are_graduated_on_the_count_field(tmp_path):
    """ "Count the houses in each district" shows the counts, not one flat colour."""
    from geoclerk.geoclerk_plugin.styling import choose_style
    from qgis.core import QgsVectorLayer

    path = tmp_path / "districts_count.geojson"
    path.write_text(
        '{"type":"FeatureCollection","features":['
        '{"type":"Feature","properties":{"name":"A","population":10,"NUMPOINTS":3},'
        '"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},'
        '{"type":"Feature","properties":{"name":"B","population":20,"NUMPOINTS":7},'
        '"geometry":{"type":"Polygon","coordinates":[[[2,0],[3,0],[3,1],[2,0]]]}}]}'
    )
    layer = QgsVectorLayer(str(path), "counts", "ogr")
    assert layer.isValid()
    steps = [{"tool": "count_points_in_polygons", "params": {"polygons": "districts", "points": "houses"}}]
    assert choose_style(layer, "Count the houses in each district", steps) == ("graduated", "NUMPOINTS")


def _polygons_with(tmp_path, name: str, field: str, values: list) -> QgsVectorLayer:
    """A polygon GeoJSON with one square per value (a choropleth's input)."""
    features = ",".join(
        f'{{"type":"Feature","properties":{{"{field}":{json.dumps(v)}}},"geometry":{{"type":"Polygon",'
        f'"coordinates":[[[{i},0],[{i + 1},0],[{i + 1},1],[{i},1],[{i},0]]]}}}}'
        for i, v in enumerate(values)
    )
    path = tmp_path / f"{name}.geojson"
    path.write_text(f'{{"type":"FeatureCollection","features":[{features}]}}')
    layer = QgsVectorLayer(str(path), name, "ogr")
    assert layer.isValid()
    return layer


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([81, 90, 100, 112, 130], [(81, 93), (94, 108), (109, 130)]),  # 5 features: 3 classes, whole numbers
        ([0, 1, 2, 2, 1, 0, 1], [(0, 0), (1, 1), (2, 2)]),  # 3 distinct counts: one class each
        (list(range(100)), [(0, 19), (20, 39), (40, 59), (60, 79), (80, 99)]),
        ([7, 7, 7], [(7, 7)]),
        ([2.5, 3.5], [(2.5, 2.5), (3.5, 3.5)]),
    ],
)
def test_class_breaks_suit_the_data(values, expected):
    from geoclerk.geoclerk_plugin.styling import class_breaks

    assert class_breaks(values) == expected


def test_a_choropleth_of_counts_has_whole_number_classes_over_the_inputs(tmp_path):
    # issue 13: counts showed "81 - 112.2", 5 features got 5 classes, the fill hid the inputs
    from geoclerk.geoclerk_plugin.styling import FILL_ALPHA, apply_style

    layer = _polygons_with(tmp_path, "districts_count", "NUMPOINTS", [81.0, 90.0, 100.0, 112.0, 130.0])
    steps = [{"tool": "count_points_in_polygons", "params": {"polygons": "districts", "points": "houses"}}]
    assert apply_style(layer, "count the houses in each district", steps) == "graduated:NUMPOINTS"
    renderer = layer.renderer()
    assert [r.label() for r in renderer.ranges()] == ["81 - 93", "94 - 108", "109 - 130"]
    for feature in layer.getFeatures():  # every feature falls in exactly one class
        value = feature["NUMPOINTS"]
        assert sum(r.lowerValue() <= value <= r.upperValue() for r in renderer.ranges()) == 1
    assert all(r.symbol().color().alpha() == FILL_ALPHA < 255 for r in renderer.ranges())
    assert layer.labelsEnabled() and layer.labeling().settings().fieldName == 'format_number("NUMPOINTS", 0)'


def test_a_choropleth_of_measures_keeps_the_decimals_it_needs(tmp_path):
    from geoclerk.geoclerk_plugin.styling import apply_style

    values = [0.12, 0.31, 0.45, 0.52, 0.77, 0.81, 0.93, 1.4, 2.05]  # 9 features: 4 classes, quartile breaks
    layer = _polygons_with(tmp_path, "density", "density", values)
    assert apply_style(layer, "show the density of each district", []) == "graduated:density"
    labels = [r.label() for r in layer.renderer().ranges()]
    assert labels == ["0.12 - 0.45", "0.45 - 0.77", "0.77 - 0.93", "0.93 - 2.05"]
    assert layer.labeling().settings().fieldName == 'format_number("density", 2)'


def test_many_features_are_not_labelled_and_lines_never(tmp_path):
    from geoclerk.geoclerk_plugin.styling import apply_style

    layer = _polygons_with(tmp_path, "many", "population", list(range(40)))
    apply_style(layer, "show the population", [])
    assert not layer.labelsEnabled() and len(layer.renderer().ranges()) == 5


def test_a_request_of_several_steps_shows_its_final_result_and_folds_the_steps_away(tmp_path, qgis_new_project):
    from pathlib import Path

    from geoclerk.geoclerk_plugin.results import intermediate_paths, results_group

    sample = Path(__file__).resolve().parent.parent / "data" / "sample"
    first, final = str(sample / "schools.gpkg"), str(sample / "districts.gpkg")
    report = {"request": "buffer the schools by 500 m and count the houses inside each buffer", "status": "ok",
              "route": "function", "tier": 0,
              "steps": [{"tool": "buffer", "params": {}, "output": first},
                        {"tool": "count_points_in_polygons", "params": {}, "output": final}],
              "outputs": [{"path": first, "kind": "vector"}, {"path": final, "kind": "vector"}]}  # fmt: skip
    assert intermediate_paths(report) == {first}
    added = load_outputs(report, QgsProject.instance())
    assert len(added) == 2
    group = results_group(QgsProject.instance())
    top = group.children()[0]
    assert top.layer().source().split("|")[0] == final  # the final result first, in the results group itself
    [steps] = [c for c in group.children() if hasattr(c, "findLayers") and c is not top]
    assert not steps.isExpanded() and report["request"][:20] in steps.name()
    assert [n.layer().source().split("|")[0] for n in steps.findLayers()] == [first]
    single = {**report, "steps": report["steps"][:1], "outputs": report["outputs"][:1]}
    assert intermediate_paths(single) == set()
