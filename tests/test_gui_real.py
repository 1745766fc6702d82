"""The dock on the real router, library and agent: tier 0 offline, no-model message, scripted-model tiers 1 and 2."""

from __future__ import annotations

import json
import time

import pytest
from geoclerk.geoclerk_plugin import engine
from geoclerk.tests.scripted_server import ScriptedServer
from geoclerk.tests.test_gui_dock import SECRET, ask, dock, result_layers, town  # noqa: F401
from geoclerk.tests.test_gui_support import isolated_settings, process_until  # noqa: F401
from qgis.core import QgsProject
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest


@pytest.fixture(scope="module")
def real_engine():
    """The real registry (Processing half bound) and router, loaded once for the module."""
    try:
        from geoclerk.router import load_router  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"the router is not importable yet: {exc}")
    engine.reset()
    engine.registry()
    from geoclerk.geoclerk_plugin.task import in_python_thread

    in_python_thread(engine.router)
    yield
    engine.reset()


@pytest.fixture
def scripted_model(isolated_settings):  # noqa: F811
    server = ScriptedServer(model="scripted").start()
    isolated_settings.setValue("GeoClerk/base_url", server.url)
    isolated_settings.setValue("GeoClerk/model", "scripted")
    yield server
    server.stop()


def test_real_tier0_buffer(real_engine, dock, town):  # noqa: F811
    dock.layer_picker.set_checked([town["schools"].id(), town["roads"].id()])
    card = ask(dock, "buffer schools by 100 m")
    report = card.report
    assert report["status"] == "ok" and report["tier"] == 0 and report["route"] == "function", report
    assert "buffer" in report["steps"][0]["tool"] and report["steps"][0]["params"]["distance"] == 100
    [layer] = result_layers()
    assert layer.featureCount() == 6 and layer.renderer().symbol().color().alpha() < 100
    prov = json.loads(layer.customProperty("geoclerk/provenance"))
    assert prov["tier"] == 0 and prov["model"] is None and SECRET not in json.dumps(prov)


def test_a_layer_the_request_names_is_taken_and_ticked(real_engine, dock, town):  # noqa: F811
    # issue 13: only the districts ticked, "count the schools in each district" said a layer could not be read
    dock.layer_picker.set_checked([town["districts"].id()])
    card = ask(dock, "count the schools in each district")
    assert card.report["status"] == "ok", card.report
    assert town["schools"].id() in dock.layer_picker.checked_ids()
    assert "schools" in card.notes.text()
    [layer] = result_layers()
    counts = [f[layer.fields().names()[-1]] for f in layer.getFeatures()]
    assert sum(counts) == 6


def test_real_count_points_is_graduated_on_request(real_engine, dock, town):  # noqa: F811
    dock.layer_picker.set_checked([town["schools"].id(), town["districts"].id()])
    card = ask(dock, "count schools in each district and map the count")
    assert card.report["status"] == "ok", card.report
    [layer] = result_layers()
    counts = sorted(f[layer.renderer().classAttribute()] for f in layer.getFeatures())
    assert layer.renderer().type() == "graduatedSymbol" and sum(counts) == 6


def test_real_needs_model_without_model(real_engine, dock, town):  # noqa: F811
    before = set(QgsProject.instance().mapLayers())
    card = ask(dock, "which school would be the best site for a new sports hall, and why?")
    assert card.report["status"] == "needs_llm", card.report
    assert "set a model" in card.error_view.text() and not card.settings_button.isHidden()
    assert set(QgsProject.instance().mapLayers()) == before


def _buffer_call(body):
    names = [t["function"]["name"] for t in body.get("tools") or []]
    name = next(n for n in names if "buffer" in n)
    return {"tool_calls": [{"name": name, "arguments": {"layer": "schools", "distance": 250}}]}


def test_scripted_model_function_calling_adds_layer(real_engine, dock, town, scripted_model):  # noqa: F811
    scripted_model.add(_buffer_call, {"content": "Buffered the schools by 250 m."})
    dock.layer_picker.set_checked([town["schools"].id()])
    dock.route_combo.setCurrentIndex(dock.route_combo.findData("function"))
    card = ask(dock, "buffer the schools by a comfortable walking distance")
    report = card.report
    assert report["status"] == "ok" and report["tier"] == 1, report
    assert report["usage"]["llm_calls"] == 2 and "model calls" in card.usage.text()
    [layer] = result_layers()
    area = sum(f.geometry().area() for f in layer.getFeatures())
    assert area == pytest.approx(6 * 3.14159 * 250**2, rel=0.03)
    prov = json.loads(layer.customProperty("geoclerk/provenance"))
    assert prov["model"] == "scripted" and prov["tier"] == 1
    assert all(h.get("authorization") == f"Bearer {SECRET}" for h in scripted_model.headers)
    assert SECRET not in json.dumps(prov) and SECRET not in layer.metadata().abstract()


CODE = """```python
import geopandas as gpd
schools = gpd.read_file("schools.gpkg")
big = schools[schools["pupils"] > 200]
big.to_file("big_schools.gpkg", driver="GPKG")
print(f"{len(big)} schools have more than 200 pupils")
```"""


def test_scripted_model_code_generation_adds_layer(real_engine, dock, town, scripted_model):  # noqa: F811
    try:
        from geoclerk.agent.tiers import _worker_class

        _worker_class()
    except ImportError as exc:
        pytest.skip(f"the code worker is not importable yet: {exc}")
    scripted_model.add({"content": CODE}, {"content": CODE}, {"content": CODE})
    dock.layer_picker.set_checked([town["schools"].id()])
    dock.route_combo.setCurrentIndex(dock.route_combo.findData("codegen"))
    card = ask(dock, "keep only the schools with more than 200 pupils", timeout=180)
    report = card.report
    assert report["status"] == "ok" and report["tier"] == 2, report
    assert card.details_toggle.text() == "Show code" and "read_file" in card.details.toPlainText()
    [layer] = result_layers()
    assert sorted(f["pupils"] for f in layer.getFeatures()) == [230, 340, 410]


def test_cancel_during_a_slow_model_call_leaves_project_unchanged(real_engine, dock, town, scripted_model):  # noqa: F811
    scripted_model.add({"delay": 6, **_buffer_call_static()}, {"content": "done"})
    dock.layer_picker.set_checked([town["schools"].id()])
    dock.route_combo.setCurrentIndex(dock.route_combo.findData("function"))
    before = set(QgsProject.instance().mapLayers())
    QTest.keyClicks(dock.input, "buffer the schools by a comfortable walking distance")
    QTest.mouseClick(dock.send_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: len(scripted_model.requests) == 1, 60), "the model was never called"
    started = time.monotonic()
    QTest.mouseClick(dock.cancel_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: not dock.is_busy(), 60)
    assert "Cancelled" in dock.cards[-1].badge.text()
    assert set(QgsProject.instance().mapLayers()) == before and result_layers() == []
    assert time.monotonic() - started < 10


def _buffer_call_static():
    return {"tool_calls": [{"name": "buffer", "arguments": {"layer": "schools", "distance": 250}}]}


@pytest.fixture
def sample_town(sample_data, qgis_new_project):
    from qgis.core import QgsVectorLayer

    layers = {}
    for name in ("districts", "cafes", "roads"):
        layer = QgsVectorLayer(str(sample_data / f"{name}.gpkg"), name, "ogr")
        assert layer.isValid()
        QgsProject.instance().addMapLayer(layer)
        layers[name] = layer
    return layers


def test_sample_data_map_request_adds_graduated_layer(real_engine, dock, sample_town):  # noqa: F811
    dock.layer_picker.set_checked([sample_town["districts"].id()])
    card = ask(dock, "show the population of each district on the map")
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    [layer] = result_layers()
    assert layer.renderer().type() == "graduatedSymbol" and layer.renderer().classAttribute() == "population"
    assert layer.featureCount() == 8 and sample_town["districts"].renderer().type() == "singleSymbol"


def test_sample_data_count_cafes_per_district(real_engine, dock, sample_town):  # noqa: F811
    dock.layer_picker.set_checked([sample_town["districts"].id(), sample_town["cafes"].id()])
    card = ask(dock, "count cafes in each district")
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    [layer] = result_layers()
    count_field = [f.name() for f in layer.fields() if "count" in f.name().lower()][0]
    assert layer.featureCount() == 8 and sum(f[count_field] for f in layer.getFeatures()) <= 40
    assert not card.outputs_box.isEmpty()


def test_opening_the_dock_prepares_the_router_in_the_background(real_engine, qgis_iface, isolated_settings):  # noqa: F811
    from geoclerk import classFactory

    engine.reset()
    plugin = classFactory(qgis_iface)
    try:
        plugin.initGui()
        plugin.toggle_dock(True)
        assert plugin.warm_task is not None and not plugin.dock.isHidden()
        assert process_until(engine.router_ready, 300)
        assert "specs" in engine._cache and "registry" not in engine._cache  # binding waits for the main thread
    finally:
        plugin.unload()


def test_a_refused_key_offers_the_settings(real_engine, dock, town, scripted_model):  # noqa: F811
    # issue 13: a 401 card had no "Open settings" button and spoke of environment variables
    scripted_model.add(*[{"status": 401, "message": "invalid api key"}] * 4)
    dock.layer_picker.set_checked([town["schools"].id()])
    dock.route_combo.setCurrentIndex(dock.route_combo.findData("function"))
    card = ask(dock, "buffer the schools by a comfortable walking distance")
    assert card.report["status"] == "error" and card.report["fix_in_settings"] is True, card.report
    assert "refused the key" in card.error_view.text() and "Open settings" in card.report["error"]
    assert not card.settings_button.isHidden()
