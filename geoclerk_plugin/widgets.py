"""Small dock widgets: the request input with history and the checkable list of layers in play."""

from __future__ import annotations

from qgis.core import QgsMapLayer, QgsProject
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtWidgets import QLineEdit, QListWidget, QListWidgetItem


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
        layers = [
            layer
            for layer in project.layerTreeRoot().layerOrder()
            if layer is not None and layer.type() in (QgsMapLayer.VectorLayer, QgsMapLayer.RasterLayer)
        ]
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

    def tick_named(self, project: QgsProject, request: str) -> list[str]:
        """Tick the unticked layers the request names ('count the houses in each district' with only the
        districts ticked); returns their names. Matching is the router's own (names, plurals, themes)."""
        from ..function_lib.describe import LayerInfo
        from ..router.schema_match import find_layers
        from ..router.text import fold

        ids = {self.item(i).data(Qt.ItemDataRole.UserRole): self.item(i) for i in range(self.count())}
        layers = [layer for layer in (project.mapLayer(i) for i in ids) if layer is not None]
        infos = [LayerInfo(name=layer.name()) for layer in layers]
        named = {m.name for m in find_layers(fold(request), infos)}
        added = []
        for layer in layers:
            item = ids[layer.id()]
            if layer.name() in named and item.checkState() != Qt.CheckState.Checked:
                item.setCheckState(Qt.CheckState.Checked)
                added.append(layer.name())
        return added
