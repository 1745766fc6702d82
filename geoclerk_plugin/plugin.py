"""The plugin object QGIS loads: dock, actions, Processing provider, dependency check; unload undoes all."""

from __future__ import annotations

from pathlib import Path

from qgis.core import Qgis, QgsApplication
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtGui import QFontDatabase, QIcon, QTextOption
from qgis.PyQt.QtWidgets import QApplication, QDockWidget, QPlainTextEdit, QPushButton

try:
    from qgis.PyQt.QtGui import QAction  # Qt6 (QGIS 4)
except ImportError:
    from qgis.PyQt.QtWidgets import QAction  # Qt5 (QGIS 3)

from . import dependencies
from .i18n import install_translator, remove_translator, tr

ICON = Path(__file__).resolve().parent / "icons" / "geoclerk.svg"


def place_dock(iface, dock, area=Qt.DockWidgetArea.RightDockWidgetArea) -> None:
    """Add the dock as a tab over the docks already open on the right (the Processing Toolbox, usually) and show
    it: stacked under them, a chat got ~50 px of height."""
    iface.addDockWidget(area, dock)
    main = iface.mainWindow()
    beside = [
        other
        for other in main.findChildren(QDockWidget)
        if other is not dock and not other.isHidden() and not other.isFloating() and main.dockWidgetArea(other) == area
    ]
    if beside:
        main.tabifyDockWidget(beside[0], dock)
    dock.show()
    dock.raise_()


class GeoClerkPlugin:
    """QGIS calls initGui (or only initProcessing in qgis_process) and unload."""

    def __init__(self, iface):
        self.iface = iface
        self.provider = None
        self.dock = None
        self.actions: list[QAction] = []
        self.menu = tr("&GeoClerk")
        self.dependency_message = None
        self.install_task = None
        self.install_message = None  # what the last install said (the bar's text), for the user and the tests
        self.last_install_report = None
        self.warm_task = None
        self.translation = install_translator()
        dependencies.add_libs_to_path()
        self.problems = dependencies.check_dependencies()

    # -- Processing ------------------------------------------------------------------------
    def initProcessing(self):  # noqa: N802 - QGIS API
        if self.provider is None:
            from .provider import GeoClerkProvider

            self.provider = GeoClerkProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    # -- GUI -------------------------------------------------------------------------------
    def initGui(self):  # noqa: N802 - QGIS API
        self.initProcessing()
        self.dock_action = self._action(tr("GeoClerk chat"), self.toggle_dock, checkable=True)
        self.settings_action = self._action(tr("GeoClerk settings…"), self.show_settings)
        self.iface.addToolBarIcon(self.dock_action)
        if self.problems:
            self.show_dependency_message()

    def _action(self, text: str, slot, checkable: bool = False) -> QAction:
        action = QAction(QIcon(str(ICON)), text, self.iface.mainWindow())
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        self.iface.addPluginToMenu(self.menu, action)
        self.actions.append(action)
        return action

    def ensure_dock(self):
        """Create the dock on first use; None (with the dependency message shown) when packages are missing."""
        if self.dock is None:
            try:
                from .dock import GeoClerkDock
            except ImportError:
                self.show_dependency_message()
                return None
            self.dock = GeoClerkDock(self.iface, self.iface.mainWindow())
            self.dock.settings_requested.connect(self.show_settings)
            self.dock.visibilityChanged.connect(self.dock_action.setChecked)
            place_dock(self.iface, self.dock)
        return self.dock

    def toggle_dock(self, checked: bool = True) -> None:  # noqa: FBT001
        dock = self.ensure_dock()
        if dock is not None:
            dock.setVisible(bool(checked))
            if checked:
                dock.raise_()  # the front tab when it shares the area with another panel
                self.warm_up()

    def warm_up(self) -> None:
        """Prepare the library and router in the background, once, so the first request is quick."""
        from . import engine
        from .task import WarmUpTask

        if self.warm_task is None and not engine.router_ready():
            self.warm_task = WarmUpTask()
            QgsApplication.taskManager().addTask(self.warm_task)

    def show_settings(self) -> None:
        from .settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.iface.mainWindow())
        dialog.exec()

    # -- dependencies ----------------------------------------------------------------------
    def dependency_text(self) -> str:
        return dependencies.dependency_message(self.problems)

    def show_dependency_message(self) -> None:
        """One message bar item with the packages, the exact command, and an Install button."""
        if not self.problems or self.dependency_message is not None:
            return
        bar = self.iface.messageBar()
        names = "; ".join(p.describe() for p in self.problems)
        text = tr("GeoClerk needs Python packages that QGIS's Python lacks: {names}. Install them, or run:")
        item = bar.createMessage(tr("GeoClerk"), text.format(names=names))
        # The whole command, wrapped anywhere (its paths have no spaces) and selectable; the bar cut it off.
        command = QPlainTextEdit(dependencies.fix_text(self.problems))
        command.setObjectName("pipCommand")
        command.setReadOnly(True)
        command.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        command.setMaximumHeight(command.fontMetrics().lineSpacing() * 4 + 8)
        command.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        copy = QPushButton(tr("Copy command"))
        copy.clicked.connect(lambda: QApplication.clipboard().setText(command.toPlainText()))
        button = QPushButton(tr("Install"))
        button.setObjectName("installButton")
        button.clicked.connect(self.install_dependencies)
        for widget in (command, copy, button):
            item.layout().addWidget(widget)
        item.layout().setStretchFactor(command, 1)
        self.dependency_message = item
        bar.pushWidget(item, Qgis.MessageLevel.Warning)

    def install_dependencies(self, checked: bool = False, target=None, python=None) -> None:  # noqa: FBT001
        """The Install button: GeoClerk's installer in a background task (tests pass a target folder and a Python)."""
        if self.install_task is not None or not self.problems:
            return
        self.install_task = dependencies.InstallTask(on_done=self._installed, target=target, python=python)
        self.install_button_state(tr("Installing…"))
        QgsApplication.taskManager().addTask(self.install_task)

    def install_button_state(self, text: str) -> None:
        """While the installer runs the bar's button says so and cannot be pressed twice."""
        item = self.dependency_message
        try:
            buttons = [b for b in item.findChildren(QPushButton) if b.objectName() == "installButton"] if item else []
        except RuntimeError:  # the bar item was closed by the user
            buttons = []
        for button in buttons:
            button.setText(text)
            button.setEnabled(False)

    def _installed(self, ok: bool, task) -> None:  # noqa: FBT001
        self.install_task = None
        self._drop_dependency_message()
        self.problems = dependencies.check_dependencies() if ok else self.problems
        report = self.last_install_report = task.report
        if ok and not self.problems:
            text = dependencies.install_summary(report) + " " + tr("GeoClerk is ready.")
            self.install_message = text
            self.iface.messageBar().pushMessage(tr("GeoClerk"), text, level=Qgis.MessageLevel.Success)
        else:
            detail = (
                dependencies.dependency_message(self.problems)
                if ok
                else dependencies.install_failure(report, task.error)
            )
            command = dependencies.fix_text(self.problems)
            text = tr("Installing the packages failed; nothing was changed: {detail} Run this in a terminal to see "
                      "every step: {command}").format(detail=detail, command=command)  # fmt: skip
            self.install_message = text
            self.iface.messageBar().pushMessage(tr("GeoClerk"), text, level=Qgis.MessageLevel.Critical)

    def _drop_dependency_message(self) -> None:
        if self.dependency_message is not None:
            try:
                self.iface.messageBar().popWidget(self.dependency_message)
            except RuntimeError:
                pass
            self.dependency_message = None

    # -- unload ----------------------------------------------------------------------------
    def unload(self):
        """Undo everything initGui and initProcessing did."""
        self._drop_dependency_message()
        if self.warm_task is not None:
            try:
                self.warm_task.cancel()
            except RuntimeError:  # already finished and deleted by the task manager
                pass
            self.warm_task = None
        from ..agent.local_model import stop_shared

        stop_shared()  # a local model the settings started (its memory goes with the plugin)
        if self.dock is not None:
            self.dock.unload()
            self.iface.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = None
        for action in self.actions:
            self.iface.removePluginMenu(self.menu, action)
            self.iface.removeToolBarIcon(action)
            action.deleteLater()
        self.actions = []
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
        remove_translator()
