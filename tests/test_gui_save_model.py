"""The dock's "Save as model": a tier-0 answer's plan in the profile's models folder, listed in the toolbox."""

from __future__ import annotations

from pathlib import Path

import pytest
from geoclerk.geoclerk_plugin import dock as dock_module
from geoclerk.geoclerk_plugin.dock import GeoClerkDock
from geoclerk.tests.test_gui_dock import ask
from geoclerk.tests.test_gui_support import isolated_settings, process_until  # noqa: F401
from qgis.core import QgsApplication, QgsProcessingModelAlgorithm, QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture
def dock(qgis_iface, qgis_new_project, tmp_path, monkeypatch, isolated_settings):  # noqa: F811
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    assert ensure_qgis()
    monkeypatch.setattr(dock_module, "results_dir", lambda project: tmp_path / "results")
    for var in ("GEOCLERK_BASE_URL", "GEOCLERK_MODEL", "GEOCLERK_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    widget = GeoClerkDock(qgis_iface)
    widget.resize(420, 640)
    yield widget
    widget.unload()
    widget.deleteLater()


@pytest.fixture
def models():
    """The profile's models folder; the models a test saves there are removed afterwards."""
    from geoclerk.geoclerk_plugin.saved_models import models_folder, reload_models

    folder = models_folder()
    before = set(folder.glob("*.model3")) if folder.exists() else set()
    yield folder
    for path in set(folder.glob("*.model3")) - before:
        path.unlink()
    reload_models()


def _toolbox_models():
    provider = QgsApplication.processingRegistry().providerById("model")
    return {alg.displayName(): alg for alg in provider.algorithms()}


def test_save_as_model_writes_the_plan_into_the_toolbox(dock, models, tmp_path):
    layer = QgsVectorLayer(str(SAMPLE / "schools.gpkg"), "schools", "ogr")
    QgsProject.instance().addMapLayer(layer)
    dock.layer_picker.set_checked([layer.id()])
    request = "buffer schools by 250 m"
    card = ask(dock, request)
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    assert request not in _toolbox_models()
    assert not card.save_model_button.isHidden()
    QTest.mouseClick(card.save_model_button, Qt.MouseButton.LeftButton)
    saved = models / "buffer_schools_by_250_m.model3"
    assert saved.exists(), sorted(models.glob("*"))
    assert "Saved as the Processing model" in card.model_note.toPlainText() and not card.model_note.isHidden()
    listed = _toolbox_models()
    assert request in listed and listed[request].shortDescription() == request
    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(str(saved))
    assert [c.algorithmId() for c in model.childAlgorithms().values()] == ["native:buffer"]
    assert model.childAlgorithms()["step1_buffer"].parameterSources()["DISTANCE"][0].staticValue() == 250
    assert [p.name() for p in model.parameterDefinitions() if not p.isDestination()] == ["schools"]
    QTest.mouseClick(card.save_model_button, Qt.MouseButton.LeftButton)  # pressed once: the button is done
    assert not card.save_model_button.isEnabled() and len(list(models.glob("buffer_schools_by_250_m*"))) == 1
    card.save_model_button.setEnabled(True)  # a second model of the same request never replaces the first
    QTest.mouseClick(card.save_model_button, Qt.MouseButton.LeftButton)
    assert (models / "buffer_schools_by_250_m_2.model3").exists() and saved.exists()
    assert f"{request} (2)" in _toolbox_models() and request in _toolbox_models()


def test_a_geopandas_only_plan_is_not_saved_and_says_why(dock, models):
    layer = QgsVectorLayer(str(SAMPLE / "districts.gpkg"), "districts", "ogr")
    QgsProject.instance().addMapLayer(layer)
    dock.layer_picker.set_checked([layer.id()])
    card = ask(dock, "sort districts by population")
    assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
    QTest.mouseClick(card.save_model_button, Qt.MouseButton.LeftButton)
    text = card.model_note.toPlainText()
    assert "Not saved as a model" in text and "Step 1 (sort_by_field)" in text and "GeoPandas only" in text
    assert not list(models.glob("sort_districts*.model3"))


def test_saved_two_step_model_opens_in_the_model_designer(qgis_iface, monkeypatch, tmp_path):
    """The buffer → count model in QGIS's Model Designer: two inputs, two children wired, one output."""
    from geoclerk.function_lib import load_registry
    from geoclerk.function_lib.context import RunContext
    from geoclerk.function_lib.registry import run_tool
    from geoclerk.geoclerk_plugin.model_writer import save_model
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis
    from qgis.PyQt.QtCore import QSize

    assert ensure_qgis()
    from processing.modeler.ModelerDialog import ModelerDialog

    monkeypatch.setattr(qgis_iface, "iconSize", lambda dockedToolbar=False: QSize(24, 24), raising=False)  # noqa: N803
    registry = load_registry()
    bind(registry)
    ctx = RunContext(tmp_path / "run")
    for name in ("schools", "houses"):
        ctx.layers.add_path(SAMPLE / f"{name}.gpkg")
    steps = [{"tool": "buffer", "params": {"layer": "schools", "distance": 500}},
             {"tool": "count_points_in_polygons",
              "params": {"polygons": "schools_buffer", "points": "houses"}}]  # fmt: skip
    for step in steps:
        run_tool(registry, step["tool"], step["params"], ctx)
    saved = save_model(steps, ctx, registry, "count houses near schools", tmp_path / "two.model3")
    model = QgsProcessingModelAlgorithm()
    assert model.fromFile(saved.path)
    dialog = ModelerDialog.create(model) if hasattr(ModelerDialog, "create") else ModelerDialog(model)
    kinds = [type(item).__name__ for item in dialog.view().scene().items()]
    assert kinds.count("ModelerChildAlgorithmGraphicItem") == 2
    assert kinds.count("ModelerInputGraphicItem") == 2 and kinds.count("ModelerOutputGraphicItem") == 1
    assert dialog.model().name() == "count houses near schools"
    dialog.close()


def test_a_card_restored_from_a_project_offers_no_model(qgis_iface):
    """Without the layers the request ran on (a card read back from a project) there is nothing to save."""
    from geoclerk.geoclerk_plugin.messages import ReplyCard

    step = {"tool": "buffer", "params": {"layer": "schools", "distance": 300}}
    report = {
        "status": "ok",
        "tier": 0,
        "route": "function",
        "request": "buffer schools",
        "steps": [step],
        "outputs": [],
    }
    restored, fresh = ReplyCard(), ReplyCard()
    fresh.store = object()
    restored.show_report(report)
    fresh.show_report(report)
    assert restored.save_model_button.isHidden() and not fresh.save_model_button.isHidden()
    fresh.show_report({**report, "tier": 1})
    assert fresh.save_model_button.isHidden()


@pytest.mark.parametrize(
    ("locale", "button", "refusal"),
    [
        (
            "de",
            "Als Modell speichern",
            "Nicht als Modell gespeichert: Schritt 1 (sort_by_field) läuft nur mit GeoPandas",
        ),
        ("zh_CN", "另存为模型", "未保存为模型：第 1 步（sort_by_field）只能用 GeoPandas 运行"),
        ("en_US", "Save as model", "Not saved as a model: Step 1 (sort_by_field) runs with GeoPandas only"),
    ],
)
def test_save_as_model_speaks_the_users_language(
    qgis_iface,
    qgis_new_project,
    isolated_settings,  # noqa: F811
    models,
    tmp_path,
    monkeypatch,
    locale,
    button,
    refusal,
):
    from geoclerk import classFactory
    from geoclerk.tests.test_gui_i18n import translations

    translations.compile_all()
    monkeypatch.setattr(dock_module, "results_dir", lambda project: tmp_path / "results")
    isolated_settings.setValue("locale/overrideFlag", True)
    isolated_settings.setValue("locale/userLocale", locale)
    plugin = classFactory(qgis_iface)
    try:
        plugin.initGui()
        dock = plugin.ensure_dock()
        layer = QgsVectorLayer(str(SAMPLE / "districts.gpkg"), "districts", "ogr")
        QgsProject.instance().addMapLayer(layer)
        dock.layer_picker.set_checked([layer.id()])
        card = ask(dock, "sort districts by population")
        assert card.report["status"] == "ok" and card.report["tier"] == 0, card.report
        assert card.save_model_button.text() == button
        QTest.mouseClick(card.save_model_button, Qt.MouseButton.LeftButton)
        assert card.model_note.toPlainText().startswith(refusal)
    finally:
        plugin.unload()
