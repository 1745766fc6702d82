"""The dock's conversation keeps the sandbox's variables between code requests; 'Reset sandbox' clears them."""

from __future__ import annotations

import pytest
from geoclerk.tests.scripted_server import ScriptedServer
from geoclerk.tests.test_gui_dock import ask, dock, result_layers, toolkit, town  # noqa: F401
from geoclerk.tests.test_gui_support import isolated_settings, process_until  # noqa: F401
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest

LOAD = "import geopandas as gpd\nbig = gpd.read_file('schools.gpkg').query('pupils > 300')\nprint(len(big), 'big')"
SAVE = (
    "try:\n    big\nexcept NameError:\n    print('clean')\nelse:\n"
    "    big.to_file('big.gpkg', driver='GPKG')\n    print(len(big), 'saved')"
)


def _code(body: str) -> dict:
    return {"content": f"```python\n{body}\n```"}


@pytest.fixture
def scripted_model(isolated_settings):  # noqa: F811
    server = ScriptedServer(model="scripted").start()
    isolated_settings.setValue("GeoClerk/base_url", server.url)
    isolated_settings.setValue("GeoClerk/model", "scripted")
    yield server
    server.stop()


def test_variables_survive_between_requests_until_reset(dock, town, toolkit, scripted_model):  # noqa: F811
    toolkit.decision.route, toolkit.decision.confidence = "codegen", 0.9
    scripted_model.add(_code(LOAD), _code(SAVE), _code(SAVE))
    dock.layer_picker.set_checked([town["schools"].id()])
    assert ask(dock, "load the big schools", timeout=120).report["answer"] == "2 big"
    second = ask(dock, "save them", timeout=120).report
    assert second["status"] == "ok" and second["answer"] == "2 saved", second
    [layer] = result_layers()
    assert sorted(f["pupils"] for f in layer.getFeatures()) == [340, 410]
    assert "big: GeoDataFrame (2 rows" in scripted_model.requests[1]["messages"][1]["content"]
    assert dock.reset_button.text() == "Reset sandbox" and dock.reset_button.isEnabled()
    QTest.mouseClick(dock.reset_button, Qt.MouseButton.LeftButton)
    third = ask(dock, "save them", timeout=120).report
    assert third["answer"] == "clean" and third["outputs"] == []
    assert "big:" not in scripted_model.requests[2]["messages"][1]["content"]


def test_python_for_generated_code_is_the_settings_choice(dock, town, toolkit, scripted_model, isolated_settings,  # noqa: F811
                                                          tmp_path):  # fmt: skip
    """Inside QGIS, sys.executable is QGIS: the user picks the Python that runs generated code in the settings. A
    path that is not a program is said on the card, by name, before anything runs; a good one runs the code."""
    import sys

    toolkit.decision.route, toolkit.decision.confidence = "codegen", 0.9
    dock.layer_picker.set_checked([town["schools"].id()])
    missing = tmp_path / "no" / "python3"
    isolated_settings.setValue("GeoClerk/sandbox_python", str(missing))
    report = ask(dock, "load the big schools", timeout=60).report
    assert report["status"] == "error" and str(missing) in report["error"], report
    assert "Python for generated code" in report["error"] and not scripted_model.requests
    isolated_settings.setValue("GeoClerk/sandbox_python", sys.executable)
    scripted_model.add(_code(LOAD))
    assert ask(dock, "load the big schools", timeout=120).report["answer"] == "2 big"
    assert dock._sandbox.python == sys.executable
