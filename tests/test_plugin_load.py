"""The plugin loads through classFactory, registers its provider, and unloads without leaving anything."""

from __future__ import annotations

import configparser

from geoagent import classFactory
from geoagent.geoagent_plugin import dependencies
from geoagent.tests.test_gui_support import ROOT, isolated_settings  # noqa: F401
from qgis.core import Qgis, QgsApplication


def _version_number(text: str) -> int:
    major, minor = (int(x) for x in text.split(".")[:2])
    return major * 10000 + minor * 100


def test_metadata_versions_cover_this_qgis():
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt")
    general = meta["general"]
    assert general["name"] == "GeoAgent"
    assert general["hasProcessingProvider"] == "yes"
    assert (
        _version_number(general["qgisMinimumVersion"])
        <= Qgis.QGIS_VERSION_INT
        <= _version_number(general["qgisMaximumVersion"]) + 99
    )


def test_plugin_loads_and_unloads_cleanly(qgis_iface, isolated_settings):  # noqa: F811
    registry = QgsApplication.processingRegistry()
    plugin = classFactory(qgis_iface)
    plugin.initGui()
    assert registry.providerById("geoagent") is not None
    assert registry.algorithmById("geoagent:ask") is not None
    assert len(plugin.actions) == 2
    dock = plugin.ensure_dock()
    assert dock is not None and dock.objectName() == "GeoAgentDock"
    plugin.unload()
    assert registry.providerById("geoagent") is None
    assert plugin.dock is None and plugin.actions == []


def test_missing_dependency_shows_one_message_and_installs(qgis_iface, monkeypatch, tmp_path):
    fake_versions = {"shapely": "1.8.5"}

    def importer(name):
        if name == "openai":
            raise ImportError("No module named 'openai'")
        mod = __import__(name)
        if name in fake_versions:
            return type("M", (), {"__version__": fake_versions[name]})
        return mod

    problems = dependencies.check_dependencies(importer=importer)
    assert [p.pip_name for p in problems] == ["shapely", "openai"]
    assert problems[0].found == "1.8.5" and problems[1].found is None

    monkeypatch.setattr(dependencies, "check_dependencies", lambda: problems)
    monkeypatch.setattr(dependencies, "libs_dir", lambda: tmp_path / "libs")
    plugin = classFactory(qgis_iface)
    plugin.initGui()
    text = plugin.dependency_text()
    assert "shapely 1.8.5 (too old, need >= 2.0)" in text and "openai (missing" in text
    assert "-m pip install --upgrade --target" in text and "Install button" in text and '"shapely>=2.0"' in text
    plugin.show_dependency_message()  # a second call must not add a second message
    assert plugin.dependency_message is not None

    calls = []

    def fake_pip(command):
        calls.append(command)
        return 0, "Successfully installed shapely openai"

    monkeypatch.setattr(dependencies, "check_dependencies", lambda: [])
    plugin.install_dependencies(runner=fake_pip)
    from geoagent.tests.test_gui_support import process_until

    assert process_until(lambda: plugin.install_task is None, 20)
    assert calls and calls[0][1:5] == ["-m", "pip", "install", "--upgrade"]
    assert calls[0][-2:] == ["shapely>=2.0", "openai>=1.0"]
    assert str(tmp_path / "libs") in calls[0]
    assert plugin.problems == [] and plugin.dependency_message is None
    assert any("installed" in m for m in qgis_iface.messageBar().get_messages(Qgis.Success))
    plugin.unload()
