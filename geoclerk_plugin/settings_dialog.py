"""The settings dialog: model endpoint (key kept in QgsAuthManager), routing and code options."""

from __future__ import annotations

from qgis.core import QgsApplication
from qgis.PyQt.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
)

from .connection import ConnectionTask
from .i18n import tr
from .settings import ARCHITECTURES, CODEGEN_MODES, PRESETS, GeoClerkSettings, remove_api_key, store_api_key


class SettingsDialog(QDialog):
    """Edits GeoClerkSettings; the key field is write-only (an empty field keeps the stored key)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle(tr("GeoClerk settings"))
        self.settings = GeoClerkSettings.read()
        self.task = None
        form = QFormLayout()
        self.preset = QComboBox()
        for name, preset in PRESETS.items():
            self.preset.addItem(preset["label"], name)
        self.base_url = QLineEdit(self.settings.base_url)
        self.base_url.setPlaceholderText("http://localhost:11434/v1")
        self.model = QLineEdit(self.settings.model)
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.api_key.setPlaceholderText(
            tr("stored in the QGIS authentication database")
            if self.settings.authcfg
            else tr("not needed for local servers")
        )
        self.gguf_path = QLineEdit(self.settings.gguf_path)
        self.gguf_path.setPlaceholderText(tr("a .gguf file (empty: the model `make model` downloaded)"))
        self.llama_server = QLineEdit(self.settings.llama_server)
        self.llama_server.setPlaceholderText(tr("llama-server program (empty: the built one, or the one on PATH)"))
        self.gguf_row = self._with_browse(self.gguf_path, tr("GGUF model files (*.gguf)"))
        self.server_row = self._with_browse(self.llama_server, "")
        self.sandbox_python = QLineEdit(self.settings.sandbox_python)  # QGIS's own Python may lack geopandas
        self.sandbox_python.setPlaceholderText(tr("a python executable (empty: the one found next to QGIS)"))
        self.python_row = self._with_browse(self.sandbox_python, "")
        self.forget_key = QCheckBox(tr("Forget the stored key"))
        self.forget_key.setVisible(bool(self.settings.authcfg))
        self.architecture = QComboBox()
        for name, label in zip(ARCHITECTURES, (tr("Single agent (ReAct)"), tr("Planner and worker"))):
            self.architecture.addItem(label, name)
        self.codegen_mode = QComboBox()  # the same two architectures, for code generation (they compare on one task)
        for name, label in zip(CODEGEN_MODES, (tr("Single agent (ReAct)"), tr("Planner and worker"))):
            self.codegen_mode.addItem(label, name)
        self.tier0 = QCheckBox(tr("Run clear standard requests offline, without a model (tier 0)"))
        self.trust_tier0 = QCheckBox(tr("Trust those no-model answers (skip the model's one-round check)"))
        self.threshold = QDoubleSpinBox()
        self.threshold.setRange(0.0, 1.0)
        self.threshold.setSingleStep(0.05)
        self.review_code = QCheckBox(tr("Show generated code before running it"))
        self.max_repairs = QSpinBox()
        self.max_repairs.setRange(0, 10)
        self.keep_conversation = QCheckBox(tr("Keep the conversation in the project file (no keys are saved)"))
        form.addRow(tr("Provider"), self.preset)
        form.addRow(tr("Base URL"), self.base_url)
        form.addRow(tr("Model"), self.model)
        form.addRow(tr("API key"), self.api_key)
        form.addRow(tr("Model file (GGUF)"), self.gguf_row)
        form.addRow(tr("llama-server"), self.server_row)
        self.form = form
        form.addRow("", self.forget_key)
        form.addRow(tr("Architecture"), self.architecture)
        form.addRow(tr("Code worker"), self.codegen_mode)
        form.addRow("", self.tier0)
        form.addRow("", self.trust_tier0)
        form.addRow(tr("Router confidence threshold"), self.threshold)
        form.addRow("", self.review_code)
        form.addRow(tr("Maximum code repair attempts"), self.max_repairs)
        form.addRow(tr("Python for generated code"), self.python_row)
        form.addRow("", self.keep_conversation)
        test_row = QHBoxLayout()
        self.test_button = QPushButton(tr("Test connection"))
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        test_row.addWidget(self.test_button)
        test_row.addWidget(self.test_result, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(test_row)
        layout.addWidget(buttons)
        self._load()
        self.preset.currentIndexChanged.connect(self._preset_changed)
        self._show_provider_rows()

    def _with_browse(self, edit: QLineEdit, filter_text: str) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        button = QPushButton(tr("Browse…"))
        button.clicked.connect(lambda: self._browse(edit, filter_text))
        row.addWidget(button)
        row.browse = button  # shown and hidden with its line
        return row

    def _browse(self, edit: QLineEdit, filter_text: str) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a file"), edit.text(), filter_text)
        if path:
            edit.setText(path)

    def _show_provider_rows(self) -> None:
        """A local GGUF file needs a file (and perhaps a server program), not a URL, a model name or a key."""
        local = self.preset.currentData() == "local_gguf"
        for widget in (self.base_url, self.model, self.api_key):
            widget.setVisible(not local)
            label = self.form.labelForField(widget)
            if label is not None:
                label.setVisible(not local)
        self.forget_key.setVisible(bool(self.settings.authcfg) and not local)
        for row, edit in ((self.gguf_row, self.gguf_path), (self.server_row, self.llama_server)):
            edit.setVisible(local)
            row.browse.setVisible(local)
            label = self.form.labelForField(row)
            if label is not None:
                label.setVisible(local)

    def _load(self) -> None:
        s = self.settings
        self.preset.setCurrentIndex(max(0, self.preset.findData(s.preset)))
        self.architecture.setCurrentIndex(max(0, self.architecture.findData(s.architecture)))
        self.codegen_mode.setCurrentIndex(max(0, self.codegen_mode.findData(s.codegen_mode)))
        self.tier0.setChecked(s.tier0)
        self.trust_tier0.setChecked(s.trust_tier0)
        self.threshold.setValue(s.threshold)
        self.review_code.setChecked(s.review_code)
        self.max_repairs.setValue(s.max_repairs)
        self.keep_conversation.setChecked(s.keep_conversation)

    def _preset_changed(self) -> None:
        url = PRESETS[self.preset.currentData()]["base_url"]
        if url:
            self.base_url.setText(url)
        self._show_provider_rows()

    def values(self) -> GeoClerkSettings:
        """The settings as shown in the dialog (the key is handled separately)."""
        s = GeoClerkSettings(**vars(self.settings))
        s.preset = self.preset.currentData()
        s.base_url = self.base_url.text().strip()
        s.model = self.model.text().strip()
        s.gguf_path = self.gguf_path.text().strip()
        s.llama_server = self.llama_server.text().strip()
        s.sandbox_python = self.sandbox_python.text().strip()
        s.architecture = self.architecture.currentData()
        s.codegen_mode = self.codegen_mode.currentData()
        s.tier0 = self.tier0.isChecked()
        s.trust_tier0 = self.trust_tier0.isChecked()
        s.threshold = float(self.threshold.value())
        s.review_code = self.review_code.isChecked()
        s.max_repairs = int(self.max_repairs.value())
        s.keep_conversation = self.keep_conversation.isChecked()
        return s

    def accept(self) -> None:
        s = self.values()
        if self.forget_key.isChecked():
            remove_api_key(s.authcfg)
            s.authcfg = ""
        key = self.api_key.text().strip()
        if key:
            s.authcfg = store_api_key(key, s.authcfg)
            if not s.authcfg:
                self.test_result.setText(
                    tr(
                        "The key could not be stored: unlock or set up the QGIS authentication "
                        "database (Settings > Options > Authentication) and try again."
                    )
                )
                return
        s.write()
        self.settings = s
        super().accept()

    def test_connection(self) -> None:
        s = self.values()
        key = self.api_key.text().strip() or s.api_key()
        self.test_button.setEnabled(False)
        self.test_result.setText(tr("Testing…"))
        local = (s.gguf_path, s.llama_server) if s.preset == "local_gguf" else None
        if local is not None:
            self.test_result.setText(tr("Starting the local model (a few seconds)…"))
        self.task = ConnectionTask(s.base_url, s.model, key, self._tested, local=local)
        QgsApplication.taskManager().addTask(self.task)

    def _tested(self, ok: bool, message: str) -> None:  # noqa: FBT001
        self.test_button.setEnabled(True)
        self.test_result.setStyleSheet("color: #2e7d32;" if ok else "color: #c62828;")
        self.test_result.setText(message)
        self.task = None
