"""Renders the dock with a short conversation and the map canvas with a result to PNGs under tests/artifacts/."""

from __future__ import annotations

from geoclerk.tests.agent_toolkit import Plan
from geoclerk.tests.test_gui_dock import ask, dock, result_layers, toolkit, town  # noqa: F401
from geoclerk.tests.test_gui_support import ROOT, isolated_settings, process_until  # noqa: F401
from qgis.core import QgsMapRendererCustomPainterJob, QgsProject
from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QColor, QImage, QPainter
from qgis.PyQt.QtTest import QTest

ARTIFACTS = ROOT / "tests" / "artifacts"


def _conversation(dock, toolkit, town):  # noqa: F811
    dock.layer_picker.set_checked([town["schools"].id(), town["districts"].id()])
    toolkit.decision.plan = Plan("buffer", {"layer": "schools", "distance": 250}, complete=True)
    toolkit.decision.confidence = 0.93
    first = ask(dock, "buffer schools by 250 m")
    toolkit.decision.route, toolkit.decision.plan = "codegen", None
    ask(dock, "estimate traffic noise at each school")
    QTest.mouseClick(first.details_toggle, Qt.MouseButton.LeftButton)
    dock.input.setText("count schools in each district")
    return first


def _plain_style(layer, colour: str, outline: str | None, width: float | None = None) -> None:
    """Quiet input styles so the result stands out in the picture."""
    symbol = layer.renderer().symbol()
    symbol.setColor(QColor(colour))
    if outline is not None:
        symbol.symbolLayer(0).setStrokeColor(QColor(outline))
    if width is not None:
        symbol.setWidth(width)
    layer.triggerRepaint()


def _non_background(image: QImage, step: int = 4) -> int:
    background = image.pixelColor(0, 0)
    xs, ys = range(0, image.width(), step), range(0, image.height(), step)
    return sum(image.pixelColor(x, y) != background for x in xs for y in ys)


def test_render_dock_conversation(dock, toolkit, town):  # noqa: F811
    first = _conversation(dock, toolkit, town)
    dock.resize(460, 820)
    dock.show()
    process_until(lambda: False, 0.3)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pixmap = dock.grab()
    path = ARTIFACTS / "dock_conversation.png"
    assert pixmap.save(str(path))
    image = QImage(str(path))
    assert image.width() == 460 and image.height() == 820
    assert _non_background(image) > 500
    assert len(dock.cards) == 2 and first.report["status"] == "ok" and dock.cards[1].report["status"] == "needs_llm"
    assert first.details.isVisible() and dock.cards[1].error_view.isVisible()
    dock.hide()


def test_render_map_canvas_with_result(dock, toolkit, town, qgis_canvas):  # noqa: F811
    _conversation(dock, toolkit, town)
    [result] = result_layers()
    _plain_style(town["districts"], "#f2efe9", "#9e9e9e")
    _plain_style(town["roads"], "#616161", None, width=0.8)
    _plain_style(town["schools"], "#1565c0", None)
    layers = [result, town["schools"], town["roads"], town["districts"]]
    qgis_canvas.setDestinationCrs(town["districts"].crs())
    qgis_canvas.setLayers(layers)
    extent = town["districts"].extent()
    extent.scale(1.15)
    qgis_canvas.setExtent(extent)
    settings = qgis_canvas.mapSettings()
    settings.setOutputSize(QSize(800, 800))
    settings.setExtent(extent)
    settings.setBackgroundColor(QColor("white"))
    image = QImage(QSize(800, 800), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    job = QgsMapRendererCustomPainterJob(settings, painter)
    job.renderSynchronously()
    painter.end()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "map_result.png"
    assert image.save(str(path))
    # the buffers' red outline must be drawn: count strongly red pixels
    red = sum(
        1
        for x in range(0, 800, 2)
        for y in range(0, 800, 2)
        if (c := image.pixelColor(x, y)).red() > 180 and c.green() < 90 and c.blue() < 90
    )
    assert red > 50
    assert QgsProject.instance().layerTreeRoot().findGroup("GeoClerk results") is not None


def test_render_dock_in_german(qgis_iface, toolkit, town, isolated_settings, tmp_path, monkeypatch):  # noqa: F811
    from geoclerk import classFactory
    from geoclerk.geoclerk_plugin import dock as dock_module

    monkeypatch.setattr(dock_module, "results_dir", lambda project: tmp_path / "results")
    isolated_settings.setValue("locale/overrideFlag", True)
    isolated_settings.setValue("locale/userLocale", "de")
    plugin = classFactory(qgis_iface)
    try:
        plugin.initGui()
        german = plugin.ensure_dock()
        _conversation(german, toolkit, town)
        german.resize(460, 820)
        german.show()
        process_until(lambda: False, 0.3)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        assert german.grab().save(str(ARTIFACTS / "dock_de.png"))
        assert german.send_button.text() == "Senden" and "braucht ein Modell" in german.cards[1].badge.text()
        german.hide()
    finally:
        plugin.unload()
