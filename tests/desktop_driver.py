"""Runs inside the real QGIS desktop (`qgis --code`): plays a scenario of user steps and records what it sees.

tests/test_desktop_qgis.py writes the scenario (JSON: {"out": path, "artifacts": dir, "steps": [...]}) and passes its
path in GEOCLERK_DESKTOP_SCENARIO. Each step is {"do": name, ...} and runs the function STEPS[name]; what it returns
is recorded, in order, in the "out" file (rewritten after every step, so a crash leaves what happened before it).
The driver observes, the test asserts. To add a step: write a function here taking (state, step) and returning a
dict, put it in STEPS, and use it in the test's scenario.
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from pathlib import Path

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsLayerTreeGroup,
    QgsProject,
    QgsRasterBandStats,
    QgsRasterLayer,
    QgsSettings,
    QgsVectorLayer,
)
from qgis.PyQt.QtCore import QCoreApplication, QEvent, QPoint, Qt, QTimer
from qgis.PyQt.QtGui import QInputMethodEvent, QKeyEvent
from qgis.PyQt.QtTest import QTest
from qgis.PyQt.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDockWidget,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QWidget,
)
from qgis.utils import iface, plugins

PLUGIN = "geoclerk"
AREAS = {Qt.DockWidgetArea.LeftDockWidgetArea: "left", Qt.DockWidgetArea.RightDockWidgetArea: "right"}


def wait_until(condition, timeout: float) -> bool:
    """Run QGIS's event loop until condition() holds (tasks report back through queued signals)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


def settle(seconds: float = 0.3) -> None:
    """Let layouts, repaints and deferred scrolls happen."""
    wait_until(lambda: False, seconds)


class State:
    """What the steps share: the scenario, the plugin, its dock, and the layers the driver loaded."""

    def __init__(self, scenario: dict):
        self.scenario = scenario
        self.artifacts = Path(scenario["artifacts"])
        self.plugin = plugins.get(PLUGIN)
        self.dock = None
        self.layers: dict[str, QgsVectorLayer] = {}
        self.dialogs: list[dict] = []  # modal dialogs that popped up (and were closed so the run goes on)


# -- what a user sees ---------------------------------------------------------------------------------------------
def type_text(widget: QWidget, text: str) -> None:
    """Type as a user does: ASCII as key clicks, other letters (ä, ß, —) as the key events a keyboard layout sends,
    Chinese as an input method commits it (QTest's key clicks accept ASCII only)."""
    for char in text:
        if char.isascii():
            QTest.keyClick(widget, char)
        elif ord(char) < 0x2E80:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(widget, QKeyEvent(kind, 0, Qt.KeyboardModifier.NoModifier, char))
        else:
            event = QInputMethodEvent()
            event.setCommitString(char)
            QApplication.sendEvent(widget, event)
    QCoreApplication.processEvents()


def visible_text(widget: QWidget | None) -> str:
    return widget.text() if widget is not None and widget.isVisible() else ""


def clipped_widgets(dock) -> list[str]:
    """Widgets in the chat whose right edge lies past the visible chat area (cut off for the user)."""
    viewport = dock.scroll.viewport()
    limit = viewport.width() + 1
    out = []
    for widget in dock.chat.findChildren(QWidget):
        if not widget.isVisible() or not isinstance(widget, (QLabel, QAbstractButton)):
            continue
        right = widget.mapTo(viewport, QPoint(widget.width(), 0)).x()
        if right > limit:
            out.append(f"{type(widget).__name__} {widget.text()[:40]!r} ends at {right} px > {limit} px")
    return out


def card_view(card) -> dict:
    return {
        "badge": card.badge.text(),
        "answer": visible_text(card.answer),
        "notes": visible_text(card.notes),
        "error": visible_text(card.error_view),
        "settings_button": visible_text(card.settings_button),
        "ask_model_button": visible_text(card.ask_model_button),
        "details_toggle": visible_text(card.details_toggle),
        "usage": card.usage.text(),
        "report": card.report,
    }


def layer_view(layer) -> dict:
    parent = QgsProject.instance().layerTreeRoot().findLayer(layer.id()).parent()
    renderer = layer.renderer() if isinstance(layer, QgsVectorLayer) else None
    view = {
        "name": layer.name(),
        "group": parent.name() if isinstance(parent, QgsLayerTreeGroup) and parent.parent() is not None else None,
        "source": layer.source().split("|")[0],
        "renderer": renderer.type() if renderer is not None else None,
        "class_attribute": renderer.classAttribute() if hasattr(renderer, "classAttribute") else None,
        "classes": len(renderer.ranges()) if hasattr(renderer, "ranges") else None,
        "metadata": layer.metadata().abstract(),
    }
    if isinstance(layer, QgsVectorLayer):
        view["feature_count"] = layer.featureCount()
        view["fields"] = layer.fields().names()
        view["area"] = sum(f.geometry().area() for f in layer.getFeatures())
        symbol = renderer.symbol() if hasattr(renderer, "symbol") and renderer.symbol() else None
        view["fill_alpha"] = symbol.color().alpha() if symbol is not None else None
        numeric = [f.name() for f in layer.fields() if f.isNumeric()]
        rows = list(layer.getFeatures())[:200]
        view["values"] = {name: [row[name] for row in rows] for name in numeric}
        view["class_values"] = view["values"].get(view["class_attribute"])
    elif isinstance(layer, QgsRasterLayer):
        stats = layer.dataProvider().bandStatistics(1, QgsRasterBandStats.Stats.All)
        view["raster"] = {"bands": layer.bandCount(), "width": layer.width(), "height": layer.height(),
                          "min": stats.minimumValue, "max": stats.maximumValue, "mean": stats.mean}  # fmt: skip
    return view


def dock_view(dock) -> dict:
    main = iface.mainWindow()
    return {
        "title": dock.windowTitle(),
        "area": AREAS.get(main.dockWidgetArea(dock), "other"),
        "visible": dock.isVisible(),
        "size": [dock.width(), dock.height()],
        "chat_area": [dock.scroll.viewport().width(), dock.scroll.viewport().height()],
        "layers_label": dock.layers_label.text(),
        "send": dock.send_button.text(),
        "cancel": dock.cancel_button.text(),
        "clear": dock.clear_button.text(),
        "settings": dock.settings_button.text(),
        "hint": dock.hint.text(),
        "placeholder": dock.input.placeholderText(),
        "routes": [dock.route_combo.itemText(i) for i in range(dock.route_combo.count())],
    }


# -- steps ---------------------------------------------------------------------------------------------------------
def step_start(state: State, step: dict) -> dict:
    """Where the plugin came from and how QGIS started: the installed copy, the locale, the window."""
    main = iface.mainWindow()
    screen = QApplication.primaryScreen().availableGeometry()
    main.setGeometry(screen)  # Xvfb has no window manager to maximise it
    settle(0.5)
    return {
        "plugins": sorted(plugins),
        "plugin_file": sys.modules[PLUGIN].__file__,
        "qgis_version": Qgis.QGIS_VERSION,
        "locale": QgsSettings().value("locale/userLocale", ""),
        "translation": getattr(state.plugin, "translation", None),
        "menu": [a.text() for a in iface.mainWindow().menuBar().actions()],
    }


def step_load_layers(state: State, step: dict) -> dict:
    """Layer ▸ Add Layer for each file (each named like its file), then the map on one of them."""
    for path in step["paths"]:
        name = Path(path).stem
        if path.endswith(".tif"):
            layer = iface.addRasterLayer(path, name, "gdal")
        else:
            layer = iface.addVectorLayer(path, name, "ogr")
        if layer is None or not layer.isValid():
            raise RuntimeError(f"QGIS could not load {path}")
        state.layers[name] = layer
    iface.mapCanvas().setExtent(state.layers[step.get("extent_of", name)].extent())
    iface.mapCanvas().refresh()
    counts = {
        n: la.featureCount() if isinstance(la, QgsVectorLayer) else la.bandCount() for n, la in state.layers.items()
    }
    return {"loaded": counts}


def step_show_panel(state: State, step: dict) -> dict:
    """Show one of QGIS's own panels, as View ▸ Panels does (e.g. the Processing Toolbox most users keep open)."""
    panel = iface.mainWindow().findChild(QDockWidget, step["object_name"])
    if panel is None:
        raise RuntimeError(f"no panel {step['object_name']}")
    panel.show()
    panel.raise_()
    settle(0.5)
    return {"panel": panel.windowTitle(), "area": int(iface.mainWindow().dockWidgetArea(panel))}


def step_open_dock(state: State, step: dict) -> dict:
    """Plugins ▸ GeoClerk ▸ GeoClerk chat, the way a user opens it."""
    entry = next(a for a in iface.pluginMenu().actions() if a.menu() is not None and "GeoClerk" in a.text())
    chat = entry.menu().actions()[0]
    chat.trigger()
    state.dock = state.plugin.dock
    if state.dock is None:
        raise RuntimeError("the dock did not open")
    settle(1.0)
    view = dock_view(state.dock)
    view["menu"] = [entry.text()] + [a.text() for a in entry.menu().actions()]
    view["icon"] = not chat.icon().pixmap(16, 16).isNull()
    return view


def dependency_bar() -> dict | None:
    """The plugin's missing-packages message, as the bar shows it: its text, the command and the buttons."""
    for item in iface.messageBar().items():
        buttons = item.findChildren(QPushButton)
        if any(b.objectName() == "installButton" for b in buttons):
            commands = item.findChildren(QPlainTextEdit, "pipCommand")
            return {"text": item.text(), "command": commands[0].toPlainText() if commands else "",
                    "buttons": [b.text() for b in buttons]}  # fmt: skip
    return None


def step_press_install(state: State, step: dict) -> dict:
    """The Install button of the missing-packages bar, pressed as a user does; then wait for the installer."""
    bar = dependency_bar()
    if bar is None:
        raise RuntimeError("no missing-packages bar with an Install button")
    item = next(i for i in iface.messageBar().items() if i.findChildren(QPushButton, "installButton"))
    [button] = item.findChildren(QPushButton, "installButton")
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    pressed = {"button_after_press": button.text(), "enabled_after_press": button.isEnabled()}
    started = time.monotonic()
    done = wait_until(lambda: state.plugin.install_task is None, step.get("timeout", 1500))
    task_report = getattr(state.plugin, "last_install_report", None)
    return {
        "bar": bar,
        **pressed,
        "finished": done,
        "seconds": round(time.monotonic() - started, 1),
        "message": state.plugin.install_message,
        "problems_after": [p.describe() for p in state.plugin.problems],
        "bar_after": dependency_bar(),
        "report": task_report.to_json() if task_report is not None else None,
    }


def step_imports(state: State, step: dict) -> dict:
    """Import modules inside QGIS, as a plugin or the Python console would: each one's version and file, or the
    error (QGIS's GDAL bindings failed after a restart once a NumPy 2 shadowed NumPy 1)."""
    import importlib

    seen = {}
    for name in step["modules"]:
        try:
            module = importlib.import_module(name)
            top = sys.modules[name.split(".")[0]]
            seen[name] = {"version": str(getattr(top, "__version__", "")), "file": getattr(module, "__file__", "")}
        except Exception as exc:  # noqa: BLE001 - recorded for the test
            seen[name] = {"error": f"{type(exc).__name__}: {exc}"}
    return {"modules": seen, "bar": dependency_bar(), "problems": [p.describe() for p in state.plugin.problems]}


def step_ask(state: State, step: dict) -> dict:
    """Tick the layers, choose the route, type the request, press Send, and wait for the reply card."""
    dock = state.dock
    ticks = set(step.get("layers") or [])
    for i in range(dock.layer_picker.count()):
        item = dock.layer_picker.item(i)
        if ticks:
            item.setCheckState(Qt.CheckState.Checked if item.text() in ticks else Qt.CheckState.Unchecked)
    route = step.get("route", "auto")
    dock.route_combo.setCurrentIndex(dock.route_combo.findData(route))
    before = set(QgsProject.instance().mapLayers())
    cards = len(dock.cards)
    dock.input.setFocus()
    type_text(dock.input, step["request"])
    typed = dock.input.text()
    QTest.mouseClick(dock.send_button, Qt.MouseButton.LeftButton)
    started = time.monotonic()
    finished = wait_until(lambda: len(dock.cards) > cards and not dock.is_busy(), step.get("timeout", 120))
    seconds = time.monotonic() - started
    dock.scroll_to_end()
    settle(0.5)
    added = [QgsProject.instance().mapLayer(i) for i in set(QgsProject.instance().mapLayers()) - before]
    for layer in added:
        iface.mapCanvas().setExtent(layer.extent().buffered(layer.extent().width() * 0.3))
    return {
        "request": step["request"],
        "typed": typed,
        "finished": finished,
        "seconds": round(seconds, 1),
        "card": card_view(dock.cards[-1]) if len(dock.cards) > cards else None,
        "layers": [layer_view(layer) for layer in added],
        "clipped": clipped_widgets(dock),
        "dock": dock_view(dock),
    }


def step_click_card_settings(state: State, step: dict) -> dict:
    """Press the last card's "Open settings": the dialog it opens is recorded (title, fields) and closed."""
    card = state.dock.cards[-1]
    before = len(state.dialogs)
    QTest.mouseClick(card.settings_button, Qt.MouseButton.LeftButton)  # returns once the modal dialog is closed
    wait_until(lambda: len(state.dialogs) > before, 10)
    opened = state.dialogs[before:]
    del state.dialogs[before:]  # expected: not among the dialogs that stopped the user
    return {"opened": opened}


def step_screenshot(state: State, step: dict) -> dict:
    """The main window as the user sees it (map and dock), once the map has finished drawing."""
    canvas = iface.mapCanvas()
    canvas.refresh()
    settle(0.5)
    wait_until(lambda: not canvas.isDrawing(), 30)
    settle(0.5)
    path = state.artifacts / f"{step['name']}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = iface.mainWindow().grab().save(str(path))
    return {"path": str(path), "saved": saved}


STEPS = {
    "start": step_start,
    "load_layers": step_load_layers,
    "show_panel": step_show_panel,
    "open_dock": step_open_dock,
    "ask": step_ask,
    "press_install": step_press_install,
    "imports": step_imports,
    "click_card_settings": step_click_card_settings,
    "screenshot": step_screenshot,
}


# -- the run -------------------------------------------------------------------------------------------------------
def close_modal_dialogs(state: State) -> None:
    """A modal dialog would stop the run where no one can click: note what it said and close it."""
    widget = QApplication.activeModalWidget()
    if widget is not None:
        texts = [w.text() for w in widget.findChildren(QLabel) if w.text()]
        fields = [w.text() for w in widget.findChildren(QLineEdit) if w.text()]
        state.dialogs.append({"title": widget.windowTitle(), "texts": texts[:6], "fields": fields})
        widget.close()


def run_scenario() -> None:
    scenario = json.loads(Path(os.environ["GEOCLERK_DESKTOP_SCENARIO"]).read_text())
    out = Path(scenario["out"])
    state = State(scenario)
    watchdog = QTimer()
    watchdog.timeout.connect(lambda: close_modal_dialogs(state))
    watchdog.start(500)
    record = {"steps": [], "dialogs": state.dialogs, "done": False}
    try:
        for step in scenario["steps"]:
            entry = {"do": step["do"], "name": step.get("name")}
            try:
                entry.update(STEPS[step["do"]](state, step))
            except Exception:  # noqa: BLE001 - recorded for the test, which fails with it
                entry["exception"] = traceback.format_exc()
                record["steps"].append(entry)
                break
            record["steps"].append(entry)
            out.write_text(json.dumps(record, ensure_ascii=False, indent=1, default=str))
        else:
            record["done"] = True
    finally:
        watchdog.stop()
        out.write_text(json.dumps(record, ensure_ascii=False, indent=1, default=str))
        # Quit as a user does, without the questions QGIS would ask on the way: background tasks finish (else it asks
        # whether to cancel them), File ▸ New without saving (else it asks about the temporary result layers), then the
        # window closes (QGIS unloads the plugins). Not QgsApplication.exit(): that skips closing the project, and QGIS
        # 3.44 then crashes on exit whenever layers are loaded, with or without any plugin (~QgsProject removes the
        # layers and the layer tree's signal reaches QgisApp's layer tree view, already deleted).
        wait_until(lambda: QgsApplication.taskManager().countActiveTasks() == 0, 60)
        iface.newProject(False)
        QgsProject.instance().setDirty(False)
        iface.mainWindow().close()


QTimer.singleShot(0, run_scenario)  # inside QGIS's event loop, once the main window is up
