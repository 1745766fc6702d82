"""The plugin loads through classFactory, registers its provider, and unloads without leaving anything."""

from __future__ import annotations

import configparser
import sys

from geoclerk import classFactory
from geoclerk.geoclerk_plugin import dependencies, installer
from geoclerk.tests.test_gui_support import ROOT, isolated_settings  # noqa: F401
from qgis.core import Qgis, QgsApplication


def _version_number(text: str) -> int:
    major, minor = (int(x) for x in text.split(".")[:2])
    return major * 10000 + minor * 100


def test_metadata_versions_cover_this_qgis():
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt")
    general = meta["general"]
    assert general["name"] == "GeoClerk"
    assert general["hasProcessingProvider"] == "yes"
    assert (
        _version_number(general["qgisMinimumVersion"])
        <= Qgis.QGIS_VERSION_INT
        <= _version_number(general["qgisMaximumVersion"]) + 99
    )


def test_metadata_changelog_starts_with_this_version():
    """The plugin repository shows the changelog: its first entry is the version being published, in lines."""
    meta = configparser.ConfigParser()
    meta.read(ROOT / "metadata.txt", encoding="utf-8")
    general = meta["general"]
    lines = general["changelog"].strip().splitlines()
    assert lines[0] == general["version"] and all(line.startswith("- ") for line in lines[1:4])
    assert "GeoClerk" in general["about"] and len(general["about"]) > 500
    if "supportsQt6" in general:  # declared only while the Qt6 scan is clean (tests/qt6_scan.py, issue 16)
        from geoclerk.tests.qt6_scan import scan_tree

        assert general["supportsQt6"] == "True" and scan_tree() == []


def test_plugin_loads_and_unloads_cleanly(qgis_iface, isolated_settings):  # noqa: F811
    registry = QgsApplication.processingRegistry()
    plugin = classFactory(qgis_iface)
    plugin.initGui()
    assert registry.providerById("geoclerk") is not None
    assert registry.algorithmById("geoclerk:ask") is not None
    assert len(plugin.actions) == 2
    dock = plugin.ensure_dock()
    assert dock is not None and dock.objectName() == "GeoClerkDock"
    plugin.unload()
    assert registry.providerById("geoclerk") is None
    assert plugin.dock is None and plugin.actions == []


def test_the_dock_opens_as_a_tab_over_a_panel_already_on_the_right(qgis_iface, isolated_settings, monkeypatch):  # noqa: F811
    # The desktop run (tests/test_desktop_qgis.py) found it: under the Processing Toolbox the chat got ~60 px.
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtWidgets import QDockWidget

    main = qgis_iface.mainWindow()
    monkeypatch.setattr(qgis_iface, "addDockWidget", main.addDockWidget)  # pytest-qgis's iface drops docks
    toolbox, hidden = QDockWidget("Processing Toolbox", main), QDockWidget("Layer Styling", main)
    for panel in (hidden, toolbox):
        main.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)
    hidden.hide()
    plugin = classFactory(qgis_iface)
    monkeypatch.setattr(plugin, "warm_up", lambda: None)
    try:
        plugin.initGui()
        plugin.toggle_dock(True)
        assert main.tabifiedDockWidgets(plugin.dock) == [toolbox]
        assert main.dockWidgetArea(plugin.dock) == Qt.DockWidgetArea.RightDockWidgetArea
    finally:
        plugin.unload()
        for panel in (toolbox, hidden):
            main.removeDockWidget(panel)
            panel.deleteLater()


def test_missing_dependency_shows_one_message_and_installs(qgis_iface, monkeypatch, tmp_path):
    installed = {"numpy": "1.26.4", "pandas": "2.3.3", "geopandas": "1.1.4", "shapely": "1.8.5", "pyproj": "3.4.1",
                 "pyogrio": "0.13.0", "rasterio": "1.4.4", "scikit-learn": "1.9.1", "scipy": "1.10.1",
                 "matplotlib": "3.6.3", "openai": "3.54.0", "pyyaml": "6.0.2", "jsonschema": "4.26.0"}  # fmt: skip

    def find(module):
        return None if module in ("openai", "rasterio") else object()

    problems = dependencies.check_dependencies(version_of=installed.get, find=find, shadows=list)
    assert [p.pip_name for p in problems] == ["shapely", "rasterio", "openai"]
    assert problems[0].found == "1.8.5" and problems[1].found is None
    assert dependencies.check_dependencies() == []  # this environment has everything

    monkeypatch.setattr(dependencies, "check_dependencies", lambda: problems)
    monkeypatch.setattr(dependencies, "libs_dir", lambda: tmp_path / "libs")
    plugin = classFactory(qgis_iface)
    plugin.initGui()
    text = plugin.dependency_text()
    assert "shapely 1.8.5 (too old, need >= 2.0)" in text and "rasterio (missing" in text
    assert "installer.py --target" in text and "Install button" in text and str(tmp_path / "libs") in text
    assert "--upgrade" not in text
    plugin.show_dependency_message()  # a second call must not add a second message
    assert plugin.dependency_message is not None

    # The button's installer, for real, with this test's Python standing in for QGIS's: it has every package, so
    # nothing is installed, everything is kept, the import check passes and an empty folder with its record appears.
    monkeypatch.setattr(dependencies, "check_dependencies", lambda: [])
    plugin.install_dependencies(python=sys.executable)
    from geoclerk.tests.test_gui_support import process_until

    assert process_until(lambda: plugin.install_task is None, 120)
    assert plugin.problems == [] and plugin.dependency_message is None
    [message] = qgis_iface.messageBar().get_messages(Qgis.MessageLevel.Success)
    assert "Nothing needed installing." in message and "GeoClerk is ready." in message
    import numpy

    assert f"Kept QGIS's own numpy {numpy.__version__}" in message
    record = installer.read_manifest(tmp_path / "libs")
    assert record["ok"] and record["installed"] == {} and record["kept"]["rasterio"]
    plugin.unload()


def test_a_failed_install_says_why_in_the_users_language_and_changes_nothing(qgis_iface, monkeypatch, tmp_path):
    # A Python without pip stands in for a QGIS whose Python lacks it (Debian without python3-pip).
    import subprocess

    from geoclerk.geoclerk_plugin.dependencies import Problem
    from geoclerk.geoclerk_plugin.i18n import install_translator
    from geoclerk.tests.test_gui_support import process_until

    venv = tmp_path / "no-pip"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    libs = tmp_path / "libs"
    (libs / "kept_package").mkdir(parents=True)
    monkeypatch.setattr(dependencies, "check_dependencies", lambda: [Problem("rasterio", "1.3", None)])
    monkeypatch.setattr(dependencies, "libs_dir", lambda: libs)
    plugin = classFactory(qgis_iface)
    try:
        install_translator("de")
        plugin.initGui()
        plugin.install_dependencies(python=str(venv / "bin" / "python"))
        assert process_until(lambda: plugin.install_task is None, 120)
        [message] = qgis_iface.messageBar().get_messages(Qgis.MessageLevel.Critical)
        assert "Die Installation der Pakete ist fehlgeschlagen; nichts wurde verändert" in message
        assert f"Das Python von QGIS ({venv / 'bin' / 'python'}) hat kein pip" in message
        words = message.replace(str(tmp_path), "")
        assert "has no pip" not in words and "failed" not in words  # no English inside the German message
        assert plugin.last_install_report.error_kind == "no_pip"
        assert [p.name for p in libs.iterdir()] == ["kept_package"]
    finally:
        plugin.unload()


def test_an_old_installers_folder_that_shadows_qgis_numpy_is_reported(tmp_path):
    # issue 27: the old Install button put NumPy 2 into geoclerk_libs, over the NumPy 1 QGIS's GDAL is built against
    own, mine = tmp_path / "dist-packages", tmp_path / "geoclerk_libs"
    for folder, version in ((own, "1.24.2"), (mine, "2.4.6")):
        meta = folder / f"numpy-{version}.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: numpy\nVersion: {version}\n")
    [problem] = dependencies.shadowed_packages([mine], path=[str(mine), str(own)])
    assert (problem.pip_name, problem.found, problem.shadows) == ("numpy", "2.4.6", "1.24.2")
    assert problem.describe() == "numpy 2.4.6 in GeoClerk's folder shadows QGIS's numpy 1.24.2"
    (mine / installer.MANIFEST).write_text("{}")  # a folder the new installer made: never scanned
    assert dependencies.shadowed_packages([mine], path=[str(mine), str(own)]) == []


def test_loading_the_plugin_imports_no_heavy_package(tmp_path):
    """QGIS start-up stays fast: the dependency check finds packages without importing them."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; from unittest.mock import MagicMock\n"
        "from qgis.core import QgsApplication; app = QgsApplication([], False); app.initQgis()\n"
        "from geoclerk import classFactory; plugin = classFactory(MagicMock())\n"
        "print(sorted(m for m in ('geopandas', 'sklearn', 'openai', 'pandas', 'pyproj') if m in sys.modules))\n"
        "print(plugin.problems)\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split("\n")[:2] == ["[]", "[]"]
