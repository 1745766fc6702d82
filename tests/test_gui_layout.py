"""The dock as it fits on a screen: cards never wider than the dock, a chat never squeezed, the whole pip command."""

from __future__ import annotations

import pytest
from geoclerk.geoclerk_plugin import dependencies
from geoclerk.geoclerk_plugin.messages import ReplyCard, UserBubble
from geoclerk.tests.test_gui_dock import dock  # noqa: F401
from geoclerk.tests.test_gui_support import isolated_settings, process_until  # noqa: F401
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QTextOption
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import QApplication, QDockWidget, QPlainTextEdit, QPushButton, QWidget

URL = "https://a-rather-long-host-name.example.invalid/v1/chat/completions/with/a/long/path?and=query&more=stuff"


def _overflowing(dock) -> list[str]:  # noqa: F811
    """The visible widgets of the chat whose right edge lies beyond the visible width (cut off)."""
    viewport = dock.scroll.viewport()
    cut = []
    for widget in dock.chat.findChildren(QWidget):
        if widget.isVisible() and widget.mapTo(viewport, widget.rect().topRight()).x() >= viewport.width():
            cut.append(f"{type(widget).__name__} {widget.objectName()}")
    return cut


@pytest.mark.parametrize("width", [280, 420])
def test_cards_with_long_urls_fit_the_dock_when_the_scrollbar_shows(dock, width):  # noqa: F811
    # issue 13: reply cards were clipped on the right once a scrollbar showed or a URL was long
    dock.resize(width, 520)
    dock.show()
    for _ in range(3):
        dock._add_widget(UserBubble(f"buffer the schools by 100 m, see {URL}", route="codegen"))
        card = ReplyCard()
        card.show_report({"status": "error", "route": "codegen", "tier": 2, "request": "r", "fix_in_settings": True,
                          "error": f"The server at {URL} is not answering. Check the base URL.", "notes": [URL],
                          "outputs": [{"path": "/tmp/" + "result_" * 12 + ".gpkg", "kind": "vector"}],
                          "steps": [{"tool": "buffer", "params": {"layer": "schools"}}]})  # fmt: skip
        card.ask_model_button.show()
        dock._add_widget(card)
    process_until(lambda: False, 0.3)
    assert dock.scroll.verticalScrollBar().isVisible()
    assert _overflowing(dock) == []
    # the text wraps inside the card and is all there (a copy gives it unchanged)
    assert card.error_view.text() == f"The server at {URL} is not answering. Check the base URL."
    assert card.error_view.height() > 2 * card.error_view.fontMetrics().height()
    dock.hide()


def test_the_dock_opens_as_a_tab_over_the_processing_toolbox(qgis_iface, isolated_settings):  # noqa: F811
    # issue 13: the dock opened squeezed under the Processing Toolbox (a ~50 px chat area)
    from geoclerk import classFactory

    main = qgis_iface.mainWindow()
    toolbox = QDockWidget("Processing Toolbox", main)
    toolbox.setObjectName("ProcessingToolbox")
    main.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, toolbox)
    plugin = classFactory(qgis_iface)
    try:
        plugin.initGui()
        dock = plugin.ensure_dock()  # noqa: F811
        assert main.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
        assert main.tabifiedDockWidgets(dock) == [toolbox]
        assert dock.scroll.minimumHeight() >= 200
    finally:
        plugin.unload()
        main.removeDockWidget(toolbox)
        toolbox.deleteLater()


def test_the_missing_packages_bar_shows_the_whole_command(qgis_iface, monkeypatch, tmp_path):
    # issue 13: the bar cut the pip command off
    from geoclerk import classFactory

    installed = {"geopandas": "1.1.4", "shapely": "1.8.5", "scikit-learn": "1.9.1", "openai": "3.54.0",
                 "pyyaml": "6.0.2", "jsonschema": "4.26.0"}  # fmt: skip
    problems = dependencies.check_dependencies(version_of=installed.get, find=lambda m: object(), shadows=list)
    monkeypatch.setattr(dependencies, "check_dependencies", lambda: problems)
    monkeypatch.setattr(dependencies, "libs_dir", lambda: tmp_path / ("a-long-profile-folder-name" * 4) / "libs")
    plugin = classFactory(qgis_iface)
    try:
        plugin.initGui()
        item = plugin.dependency_message
        [command] = item.findChildren(QPlainTextEdit, "pipCommand")
        assert (
            command.toPlainText() == dependencies.fix_text(problems)
            and "installer.py --target" in command.toPlainText()
        )
        assert command.isReadOnly() and command.lineWrapMode() == QPlainTextEdit.LineWrapMode.WidgetWidth
        assert command.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        [copy] = [b for b in item.findChildren(QPushButton) if b.text() == "Copy command"]
        QTest.mouseClick(copy, Qt.MouseButton.LeftButton)
        assert QApplication.clipboard().text() == dependencies.fix_text(problems)
    finally:
        plugin.unload()
