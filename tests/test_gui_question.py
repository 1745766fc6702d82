"""issue 25 in the dock: a request that lacks one thing shows one short question in the user's language with the
choices as buttons and a field for another name; one click resumes the request (the path of --answer) at tier 0,
and the result layer is checked by value. The real router and registry: no stand-ins."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from geoclerk.geoclerk_plugin import dock as dock_module
from geoclerk.geoclerk_plugin.dock import GeoClerkDock
from geoclerk.tests.test_gui_dock import ask, result_layers
from geoclerk.tests.test_gui_support import isolated_settings, process_until  # noqa: F401
from qgis.core import QgsProject, QgsVectorLayer
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


@pytest.fixture
def points(tmp_path, qgis_new_project):
    project = QgsProject.instance()
    layers = {}
    for name in ("cafes", "bus_stops"):
        layer = QgsVectorLayer(str(shutil.copy(SAMPLE / f"{name}.gpkg", tmp_path / f"{name}.gpkg")), name, "ogr")
        assert layer.isValid()
        project.addMapLayer(layer)
        layers[name] = layer
    return layers


@pytest.fixture
def dock(qgis_iface, tmp_path, monkeypatch, isolated_settings):  # noqa: F811
    monkeypatch.setattr(dock_module, "results_dir", lambda project: tmp_path / "results")
    for var in ("GEOCLERK_BASE_URL", "GEOCLERK_MODEL", "GEOCLERK_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    widget = GeoClerkDock(qgis_iface)
    widget.resize(420, 640)
    yield widget
    widget.unload()
    widget.deleteLater()


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("Buffer the points by 100 m", "Which layer do you mean?"),
        ("Puffere die Punkte um 100 m", "Welchen Layer meinen Sie?"),
        ("将点缓冲100米", "您指的是哪个图层？"),
    ],
)
def test_a_click_on_a_choice_resumes_the_request(dock, points, text, question):
    dock.layer_picker.set_checked([la.id() for la in points.values()])
    card = ask(dock, text)
    assert card.report["status"] == "ask", card.report
    asked = card.question_card
    assert asked is not None and asked.text.toPlainText() == question
    assert [b.text() for b in asked.buttons] == ["cafes", "bus_stops"]
    assert result_layers() == []  # nothing ran yet

    QTest.mouseClick(asked.buttons[1], Qt.MouseButton.LeftButton)
    assert process_until(lambda: len(dock.cards) == 2 and not dock.is_busy(), 120), "the answer did not resume"
    done = dock.cards[-1].report
    assert (done["status"], done["tier"]) == ("ok", 0), done
    assert done["steps"][0] == {"tool": "buffer", "params": {"layer": "bus_stops", "distance": 100}}
    made = [la for la in result_layers() if isinstance(la, QgsVectorLayer)]
    assert len(made) == 1 and made[0].featureCount() == 60
    area = sum(f.geometry().area() for f in made[0].getFeatures()) / 60  # the result is in EPSG:32633 (metres)
    assert made[0].crs().authid() == "EPSG:32633" and math.isclose(area, math.pi * 100**2, rel_tol=0.02), area
    assert not asked.isEnabled()  # one answer per question


def test_a_name_typed_in_the_field_is_an_answer_too(dock, points):
    dock.layer_picker.set_checked([la.id() for la in points.values()])
    card = ask(dock, "Buffer the points by 100 m")
    asked = card.question_card
    asked.other.setText("CAFES")  # any loaded name of the right kind, as typed
    QTest.mouseClick(asked.other_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: len(dock.cards) == 2 and not dock.is_busy(), 120)
    done = dock.cards[-1].report
    assert done["status"] == "ok" and done["steps"][0]["params"]["layer"] == "cafes"
    assert [la.featureCount() for la in result_layers()] == [40]
