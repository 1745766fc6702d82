"""Small dock widgets: the request input with history, the checkable list of layers in play, wrapping text."""

from __future__ import annotations

import math

from qgis.core import QgsMapLayer, QgsProject
from qgis.PyQt.QtCore import QSize, Qt
from qgis.PyQt.QtGui import QTextOption
from qgis.PyQt.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QTextBrowser,
)

from .qgis_enums import LayerType


class WrapButton(QPushButton):
    """A push button whose text wraps onto two lines when the dock is narrow, instead of widening the card."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self.label = QLabel(text, self)
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self.label.setText(text)
        self.updateGeometry()

    def sizeHint(self):  # noqa: N802 - Qt override
        """One line when there is room (a wrapped QLabel alone would ask for a narrow, two-line shape)."""
        margins = self.layout().contentsMargins()
        metrics = self.label.fontMetrics()
        width = metrics.horizontalAdvance(self.label.text()) + margins.left() + margins.right() + 8
        return QSize(width, metrics.height() + margins.top() + margins.bottom() + 4)

    def minimumSizeHint(self):  # noqa: N802 - Qt override
        margins = self.layout().contentsMargins()
        widest = max((self.label.fontMetrics().horizontalAdvance(w) for w in self.label.text().split()), default=0)
        return QSize(widest + margins.left() + margins.right() + 8, self.sizeHint().height())

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt override
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        return self.layout().heightForWidth(width)


class WrapText(QTextBrowser):
    """Read-only, selectable text that wraps anywhere a word is too long for the width (URLs, paths) and is as tall
    as its text. A word-wrapped QLabel breaks only at spaces: one long URL made the whole chat wider than the dock,
    and cards were cut off on the right. text()/setText() as on a QLabel; copying gives the text unchanged."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(40)
        self.document().setDocumentMargin(0)
        self.viewport().setAutoFillBackground(False)
        self.setStyleSheet("QTextBrowser { background: transparent; }")
        self.setText(text)

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802 - QLabel's name
        self.setPlainText(text or "")
        self._fit()

    def _fit(self) -> None:
        self.document().setTextWidth(max(self.viewport().width(), 1))
        self.setFixedHeight(math.ceil(self.document().size().height()) + 2 * self.frameWidth() + 2)

    def resizeEvent(self, event):  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()


class HistoryLineEdit(QLineEdit):
    """A line edit that recalls earlier requests with Up and Down, like a shell."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.history: list[str] = []
        self._pos = 0

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._pos = len(self.history)

    def keyPressEvent(self, event):  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Up and self.history:
            self._pos = max(0, self._pos - 1)
            self.setText(self.history[self._pos])
        elif event.key() == Qt.Key.Key_Down and self.history:
            self._pos = min(len(self.history), self._pos + 1)
            self.setText(self.history[self._pos] if self._pos < len(self.history) else "")
        else:
            super().keyPressEvent(event)


class LayerPicker(QListWidget):
    """The project's vector and raster layers, checkable; the active/selected ones checked by default."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setMaximumHeight(110)
        self._touched = False
        self.itemChanged.connect(self._on_changed)

    def _on_changed(self, _item) -> None:
        self._touched = True

    def refresh(self, project: QgsProject, preferred: list[QgsMapLayer] | None = None) -> None:
        """Rebuild the list; keep the user's choices, otherwise check the preferred (or all) layers."""
        previous = set(self.checked_ids()) if self._touched else None
        preferred_ids = {layer.id() for layer in preferred or []}
        self.blockSignals(True)
        self.clear()
        ordered = [layer for layer in project.layerTreeRoot().layerOrder() if layer is not None]
        # a layer added to the project before its tree node (a result: added, then put in its group) is in play too
        ordered += [layer for layer in project.mapLayers().values() if layer not in ordered]
        layers = [layer for layer in ordered if layer.type() in (LayerType.Vector, LayerType.Raster)]
        for layer in layers:
            item = QListWidgetItem(layer.name())
            item.setData(Qt.ItemDataRole.UserRole, layer.id())
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            if previous is not None:
                checked = layer.id() in previous
            elif preferred_ids:
                checked = layer.id() in preferred_ids
            else:
                checked = True
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
            self.addItem(item)
        self.blockSignals(False)

    def set_checked(self, layer_ids: list[str]) -> None:
        for i in range(self.count()):
            item = self.item(i)
            checked = item.data(Qt.ItemDataRole.UserRole) in layer_ids
            item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def checked_ids(self) -> list[str]:
        items = [self.item(i) for i in range(self.count())]
        return [item.data(Qt.ItemDataRole.UserRole) for item in items if item.checkState() == Qt.CheckState.Checked]

    def checked_layers(self, project: QgsProject) -> list[QgsMapLayer]:
        return [layer for layer in (project.mapLayer(i) for i in self.checked_ids()) if layer is not None]

    def tick_named(self, project: QgsProject, request: str, previous=()) -> list[str]:
        """Tick the unticked layers the request names ('count the houses in each district' with only the
        districts ticked), and `previous`: the previous request's results (layer ids) a follow-up refers back to
        ('now buffer those by 100 m'; the dock passes them only then); returns their names. Matching is the
        router's own."""
        from ..function_lib.describe import LayerInfo
        from ..reading.schema_match import find_layers
        from ..reading.text import fold
        from .results import origin_of

        ids = {self.item(i).data(Qt.ItemDataRole.UserRole): self.item(i) for i in range(self.count())}
        layers = [layer for layer in (project.mapLayer(i) for i in ids) if layer is not None]
        infos = [LayerInfo(name=layer.name(), origin=origin_of(layer)) for layer in layers]
        named = {m.name for m in find_layers(fold(request), infos)}
        if previous:
            named |= {layer.name() for layer in layers if layer.id() in previous}
        added = []
        for layer in layers:
            item = ids[layer.id()]
            if layer.name() in named and item.checkState() != Qt.CheckState.Checked:
                item.setCheckState(Qt.CheckState.Checked)
                added.append(layer.name())
        return added
