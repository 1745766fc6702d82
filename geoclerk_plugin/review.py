"""'Review code before running': the worker thread asks, the main thread shows the code, the user decides."""

from __future__ import annotations

import threading

from qgis.PyQt.QtCore import QObject, Qt, pyqtSignal
from qgis.PyQt.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from .i18n import tr


class CodeReviewDialog(QDialog):
    """The generated code, read-only, with Run and Don't run."""

    def __init__(self, code: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("Review generated code"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("GeoClerk wants to run this code in its sandbox, on copies of your layers.")))
        self.code = QPlainTextEdit(code)
        self.code.setReadOnly(True)
        layout.addWidget(self.code)
        buttons = QDialogButtonBox()
        self.run_button = buttons.addButton(tr("Run"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(tr("Don't run"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 480)


class CodeReviewer(QObject):
    """Callable from the worker: review(code) -> bool. Blocks that thread until the user answers or cancels."""

    requested = pyqtSignal(str)

    def __init__(self, parent=None, ask=None, cancel_event: threading.Event | None = None):
        super().__init__(parent)
        self.ask = ask or self._dialog
        self.cancel_event = cancel_event
        self._answered = threading.Event()
        self._approved = False
        self.requested.connect(self._on_request, Qt.ConnectionType.QueuedConnection)

    def __call__(self, code: str) -> bool:
        self._answered.clear()
        self._approved = False
        self.requested.emit(code)
        while not self._answered.wait(0.1):
            if self.cancel_event is not None and self.cancel_event.is_set():
                return False
        return self._approved

    def _on_request(self, code: str) -> None:
        try:
            self._approved = bool(self.ask(code))
        finally:
            self._answered.set()

    def _dialog(self, code: str) -> bool:
        parent = self.parent() if isinstance(self.parent(), QWidget) else None
        return CodeReviewDialog(code, parent).exec() == QDialog.DialogCode.Accepted
