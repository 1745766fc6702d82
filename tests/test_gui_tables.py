"""Tables in QGIS (issue 14): a project layer without geometry is described as a table and joins at tier 0."""

from __future__ import annotations

import geopandas as gpd
from geoclerk.agent.pipeline import AgentConfig, run_request
from geoclerk.geoclerk_plugin.layers import build_inputs
from qgis.core import QgsFeature, QgsGeometry, QgsVectorLayer


def _wards() -> QgsVectorLayer:
    layer = QgsVectorLayer("Polygon?crs=EPSG:32633&field=ward_id:integer&field=name:string", "wards", "memory")
    features = []
    for i in range(3):
        f = QgsFeature(layer.fields())
        f.setAttributes([i + 1, f"Ward {i + 1}"])
        f.setGeometry(QgsGeometry.fromWkt(f"POLYGON(({i * 100} 0,{i * 100 + 100} 0,{i * 100 + 100} 100,{i * 100} 100,"
                                          f"{i * 100} 0))"))  # fmt: skip
        features.append(f)
    layer.dataProvider().addFeatures(features)
    layer.updateExtents()
    return layer


def test_a_project_table_is_described_as_a_table_and_joined(tmp_path, qgis_new_project):
    csv = tmp_path / "budget.csv"
    csv.write_text("ward_id,budget_eur\n1,1200.5\n2,800\n4,50\n", encoding="utf-8")
    original = csv.read_bytes()
    table = QgsVectorLayer(str(csv), "budget", "ogr")
    assert table.isValid() and not table.isSpatial()
    wards = _wards()
    store, infos = build_inputs([wards, table], tmp_path / "inputs")
    budget = next(i for i in infos if i.name == "budget")
    assert (budget.kind, budget.geometry_type, budget.feature_count) == ("table", None, 3)
    report = run_request("join the budget table to the wards", store, tmp_path / "out", AgentConfig(offline=True),
                         layer_infos=infos)  # fmt: skip
    assert report.status == "ok" and report.tier == 0, report.to_json()
    out = gpd.read_file(report.outputs[0]["path"]).sort_values("ward_id")
    assert [float(v) for v in out["budget_eur"][:2]] == [1200.5, 800.0] and out["budget_eur"].isna().tolist()[2]
    assert out.area.tolist() == [10000.0] * 3
    assert csv.read_bytes() == original
