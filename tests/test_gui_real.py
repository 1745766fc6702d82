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


def _ask_schools_in(dock, town, locale: str, text: str):  # noqa: F811
    """Ask `text` on the schools in a QGIS set to `locale` (its translator installed for the request only)."""
    from geoclerk.geoclerk_plugin import i18n

    i18n.install_translator(locale)
    try:
        dock.layer_picker.set_checked([town["schools"].id()])
        return ask(dock, text)
    finally:
        i18n.remove_translator()


@pytest.mark.parametrize(
    ("locale", "said", "counts", "badge", "group"),
    [
        ("de", "schools um 100 m gepuffert.", "(6 Objekte ein, 6 aus), Ergebnis in EPSG:32633.",
         "Funktion · offline · fertig", "GeoClerk-Ergebnisse"),
        ("zh-Hans", "已将schools缓冲100 m。", "（输入 6 个要素，输出 6 个），结果坐标系为 EPSG:32633。",
         "函数 · 离线 · 完成", "GeoClerk 结果"),
    ],
)  # fmt: skip
def test_real_tier0_answer_in_the_users_language(real_engine, dock, town, locale, said, counts, badge, group):  # noqa: F811
    # issue 13: answers stayed English in a German or Chinese QGIS ("Puffer on 'schools' (12 features in…)")
    card = _ask_schools_in(dock, town, locale, "buffer schools by 100 m")
    assert card.report["status"] == "ok" and card.report["route"] == "function", card.report
    answer = card.answer.text()
    assert answer.startswith(said) and answer.endswith(counts), answer
    assert card.badge.text() == badge
    found = QgsProject.instance().layerTreeRoot().findGroup(group)
    assert found is not None and [la.layer().featureCount() for la in found.findLayers()] == [6]


@pytest.mark.parametrize(
    ("locale", "words", "fix", "badge"),
    [
        ("de", "Diese Wörter der Anfrage wurden nicht verstanden: 'along', 'zorbles'.",
         "öffnen Sie die GeoClerk-Einstellungen", "braucht ein Modell"),
        ("zh-Hans", "请求中的这些词无法理解：'along', 'zorbles'。", "请打开 GeoClerk 设置并配置模型", "需要模型"),
    ],
)  # fmt: skip
def test_real_not_understood_in_the_users_language(real_engine, dock, town, locale, words, fix, badge):  # noqa: F811
    # tier 0 answers only what it understood; the words it could not place are named, in the user's language
    card = _ask_schools_in(dock, town, locale, "buffer the schools by 100 m along the zorbles")
    assert (card.report["status"], card.report["route"], card.report["outputs"]) == ("needs_llm", "function", [])
    assert words in card.error_view.text() and fix in card.error_view.text(), card.error_view.text()
    assert badge in card.badge.text() and not card.settings_button.isHidden()


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
    # classes of whole numbers that cover every district, drawn see-through over the inputs, counts as labels
    ranges = layer.renderer().ranges()
    assert all(r.lowerValue().is_integer() and r.upperValue().is_integer() for r in ranges)
    assert all("." not in r.label() for r in ranges) and len(ranges) <= 2  # 3 districts: at most 2 classes
    assert all(sum(r.lowerValue() <= c <= r.upperValue() for r in ranges) == 1 for c in counts)
    assert all(r.symbol().color().alpha() < 255 for r in ranges) and layer.labelsEnabled()


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
    assert "GEOCLERK_API_KEY" not in card.report["error"]  # inside QGIS the key is set in the plugin's settings
    assert not card.settings_button.isHidden()


def _count_check(dock, sample_town, layer):  # noqa: F811
    """`layer` counts the cafes of the districts above 5000 inhabitants, as the count over all districts does."""
    count_field = [f.name() for f in layer.fields() if "count" in f.name().lower()][0]
    big = [f for f in sample_town["districts"].getFeatures() if f["population"] > 5000]
    assert layer.featureCount() == len(big)
    known = {la.id() for la in result_layers()}
    assert ask(dock, "count cafes in each district").report["status"] == "ok"  # all districts, for comparison
    [every] = [la for la in result_layers() if la.id() not in known]
    per_name = {f["name"]: f[count_field] for f in every.getFeatures()}
    assert {f["name"]: f[count_field] for f in layer.getFeatures()} == {f["name"]: per_name[f["name"]] for f in big}


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [("extract the districts with population above 5000", "now count the cafes in them"),
     ("extrahiere die Bezirke mit population über 5000", "zähle jetzt die Cafés darin"),
     ("提取population大于5000的行政区", "统计它们中的咖啡馆数量")],
)  # fmt: skip
def test_a_follow_up_refers_to_the_previous_result(real_engine, dock, sample_town, first, follow_up):  # noqa: F811
    # issue 13: "now buffer those by 100 m" — the chat must remember what 'them' is: the last result layer
    dock.layer_picker.set_checked([sample_town["districts"].id()])
    card = ask(dock, first)
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    [extracted] = result_layers()
    assert dock.previous_results == [extracted.id()]
    card = ask(dock, follow_up)  # the cafes are not ticked, and the result is not either: the request names both
    assert card.report["status"] == "ok" and card.report["tier"] == 0, (card.report.get("error"), card.report["router"])
    assert card.report["steps"][0]["params"]["polygons"] == extracted.name()
    ticked = dock.layer_picker.checked_ids()
    assert extracted.id() in ticked and sample_town["cafes"].id() in ticked
    [layer] = [la for la in result_layers() if la.id() != extracted.id()]
    _count_check(dock, sample_town, layer)


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [("select the districts with population above 5000", "now count the cafes in them"),
     ("wähle die Bezirke mit population über 5000 aus", "zähle jetzt die Cafés darin"),
     ("选出population大于5000的行政区", "统计它们中的咖啡馆数量")],
)  # fmt: skip
def test_select_makes_a_qgis_selection_and_them_is_the_selection(real_engine, dock, sample_town, first, follow_up):  # noqa: F811
    # issue 13: "select the districts with …" means QGIS's selection on the districts, not a new layer
    districts = sample_town["districts"]
    dock.layer_picker.set_checked([districts.id()])
    card = ask(dock, first)
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    assert result_layers() == []
    big = sorted(f.id() for f in districts.getFeatures() if f["population"] > 5000)
    assert sorted(districts.selectedFeatureIds()) == big and 0 < len(big) < districts.featureCount()
    assert f"{len(big)} of {districts.featureCount()}" in " ".join(card.report["notes"])
    card = ask(dock, follow_up)
    assert card.report["status"] == "ok" and card.report["tier"] == 0, (card.report.get("error"), card.report["router"])
    assert card.report["steps"][0]["params"]["polygons"] == "districts"
    [layer] = result_layers()
    _count_check(dock, sample_town, layer)
    extract = ask(dock, "extract the districts with population above 5000")  # a layer-making word: a new layer
    assert extract.report["status"] == "ok" and len(result_layers()) == 3


AGAIN = ["now do the same for the cafes", "mach dasselbe für die Cafés", "对咖啡馆做同样的操作"]


@pytest.mark.parametrize("again", AGAIN)
def test_do_the_same_for_another_layer_repeats_the_last_steps(real_engine, dock, sample_town, again):  # noqa: F811
    dock.layer_picker.set_checked([sample_town["roads"].id()])
    first = ask(dock, "buffer the roads by 25 m")
    assert first.report["status"] == "ok" and first.report["tier"] == 0, first.report.get("error")
    card = ask(dock, again)  # the cafes are not ticked: the request names them
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    assert card.report["steps"] == [{"tool": "buffer", "params": {"layer": "cafes", "distance": 25}}]
    buffers = [la for la in result_layers() if la.name() == card.report["request"]]
    assert len(buffers) == 1 and buffers[0].featureCount() == sample_town["cafes"].featureCount() == 40
    # anything more than 'the same for X' is a new request: offline, it needs a model
    more = ask(dock, "do the same for the cafes but with 200 m")
    assert more.report["status"] == "needs_llm", more.report


def test_the_key_is_read_only_when_the_model_is_called(real_engine, dock, town, scripted_model, isolated_settings,  # noqa: F811
                                                       monkeypatch):  # fmt: skip
    # issue 13: QGIS's master password was asked for on requests that never call a model
    from geoclerk.geoclerk_plugin import settings as settings_module

    reads = []
    monkeypatch.setattr(settings_module, "read_api_key", lambda authcfg: reads.append(authcfg) or "")
    isolated_settings.setValue("GeoClerk/trust_tier0", True)
    dock.layer_picker.set_checked([town["schools"].id()])
    card = ask(dock, "buffer schools by 100 m")
    assert (card.report["status"], card.report["tier"]) == ("ok", 0), card.report
    assert reads == [] and scripted_model.requests == []
    scripted_model.add(_buffer_call, {"content": "Buffered the schools by 250 m."})
    dock.route_combo.setCurrentIndex(dock.route_combo.findData("function"))
    card = ask(dock, "buffer the schools by a comfortable walking distance")
    assert (card.report["status"], card.report["tier"]) == ("ok", 1), card.report
    assert len(reads) == 1 and all(h.get("authorization") == f"Bearer {SECRET}" for h in scripted_model.headers)
