"""The GeoClerk dock: a chat over the layers in play; every request runs in a QgsTask."""

from __future__ import annotations

import traceback
from pathlib import Path

from qgis.core import (
    Qgis,
    QgsApplication,
    QgsCoordinateTransform,
    QgsMapLayer,
    QgsMessageLog,
    QgsProject,
    QgsVectorLayer,
)
from qgis.gui import QgsDockWidget
from qgis.PyQt.QtCore import QEvent, Qt, QTimer, QUrl, pyqtSignal
from qgis.PyQt.QtGui import QDesktopServices
from qgis.PyQt.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..errors import DependencyError, GeoClerkError
from ..reading.references import refers_back
from . import conversation, engine
from .dependencies import check_dependencies, dependency_message
from .i18n import tr
from .layers import build_inputs
from .messages import ReplyCard, UserBubble
from .rerun import make_rerun
from .results import load_outputs, results_dir
from .review import CodeReviewer
from .saved_models import save_card_model
from .settings import GeoClerkSettings, secrets_of
from .task import AgentTask

ROUTE_VALUES = ("auto", "function", "codegen")
CHAT_MIN_HEIGHT = 220  # px: a request and its reply card stay readable


MAP_KINDS = ("map", "choropleth")


def shown_layers(report: dict, store) -> list[str]:
    """Input layers a step asked to show as a map (visualize_layer, plot_map of a map kind): added again, styled.

    In QGIS a styled layer is the useful map; the user's own layer is never restyled.
    """
    paths = []
    for step in report.get("steps", []):
        params = step.get("params") or {}
        tool = step.get("tool")
        if tool == "visualize_layer" or (tool == "plot_map" and params.get("kind") in MAP_KINDS):
            entry = store.find(str(params.get("layer", "")))
            if entry is not None and entry.path:
                paths.append(entry.path)
    return paths


class GeoClerkDock(QgsDockWidget):
    """Conversation view, layers in play, route override, input with history, progress and Cancel."""

    request_finished = pyqtSignal(object)  # the ReplyCard that was filled
    settings_requested = pyqtSignal()

    def __init__(self, iface, parent=None):
        super().__init__(tr("GeoClerk"), parent)
        self.setObjectName("GeoClerkDock")
        self.iface = iface
        self.project = QgsProject.instance()
        self.task: AgentTask | None = None
        self.card: ReplyCard | None = None
        self.cards: list[ReplyCard] = []
        self.turns: list[dict] = []
        self.runner = None  # run_request unless replaced (tests, re-runs)
        self._config = None  # the running request's AgentConfig (its key, once read, is blanked from what is kept)
        self._scroll_timer = QTimer(self)
        self._scroll_timer.setSingleShot(True)
        self._scroll_timer.timeout.connect(self._scroll_now)
        self.last_layers: list = []
        self.previous_results: list[str] = []  # ids of the last result layers: what a follow-up's 'them' means
        self.last_steps: list[dict] = []  # the last answer's tool steps: what 'do the same for the cafes' repeats
        self.selections: set[str] = set()  # layers GeoClerk selected on: a follow-up's 'them' is the selection
        self._build()
        self.project.layersAdded.connect(self.refresh_layers)
        self.project.layersRemoved.connect(self.refresh_layers)
        self.project.readProject.connect(self._on_project_read)
        self.refresh_layers()

    # -- layout ----------------------------------------------------------------------------
    def _build(self) -> None:
        body = QWidget()
        layout = QVBoxLayout(body)
        header = QHBoxLayout()
        self.layers_label = QLabel(tr("Layers in play"))
        # the buttons keep their width; the label gives way in a narrow dock (German and Chinese labels are longer)
        self.layers_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        header.addWidget(self.layers_label, 1)
        self.clear_button = QPushButton(tr("Clear"))
        self.clear_button.clicked.connect(self.clear_conversation)
        self.reset_button = QPushButton(tr("Reset sandbox"))
        self.reset_button.setToolTip(tr("Forget the variables and data earlier code requests left in the sandbox"))
        self.reset_button.clicked.connect(self.reset_sandbox)
        self.settings_button = QPushButton(tr("Settings…"))
        self.settings_button.clicked.connect(self.settings_requested)
        header.addWidget(self.clear_button)
        header.addWidget(self.reset_button)
        header.addWidget(self.settings_button)
        layout.addLayout(header)
        from .widgets import HistoryLineEdit, LayerPicker

        self.layer_picker = LayerPicker()
        layout.addWidget(self.layer_picker)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setMinimumHeight(CHAT_MIN_HEIGHT)  # never squeezed to a strip by docks stacked with ours
        self.chat = QWidget()
        self.chat_layout = QVBoxLayout(self.chat)
        self.chat_layout.addStretch(1)
        self.scroll.setWidget(self.chat)
        self.chat.installEventFilter(self)  # its layout requests: keep the chat as wide as its cards need
        layout.addWidget(self.scroll, 1)
        self.hint = QLabel(tr("Ask for an analysis, for example: buffer roads by 100 m"))
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #666;")
        self.chat_layout.insertWidget(0, self.hint)
        working = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.clicked.connect(self.cancel)
        working.addWidget(self.progress, 1)
        working.addWidget(self.cancel_button)
        layout.addLayout(working)
        row = QHBoxLayout()
        self.route_combo = QComboBox()
        for value, label in zip(ROUTE_VALUES, (tr("Auto"), tr("Function"), tr("Code"))):
            self.route_combo.addItem(label, value)
        self.route_combo.setToolTip(tr("Route for the next message: let the router decide, or force one"))
        self.input = HistoryLineEdit()
        self.input.setPlaceholderText(tr("Type a request and press Enter"))
        self.input.returnPressed.connect(self.send)
        self.send_button = QPushButton(tr("Send"))
        self.send_button.clicked.connect(self.send)
        row.addWidget(self.route_combo)
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        layout.addLayout(row)
        self.setWidget(body)
        self._set_working(False)

    def eventFilter(self, watched, event):  # noqa: N802 - Qt override
        if watched is self.chat and event.type() == QEvent.Type.LayoutRequest:
            self._fit_chat_width()
        return super().eventFilter(watched, event)

    def _fit_chat_width(self) -> None:
        """The chat never scrolls sideways, so it may not get narrower than its widest card needs (plus the
        vertical scrollbar, which appears once the chat is long): QGIS widens the panel instead of cutting badges,
        buttons and text off on the right, as the desktop run showed it did."""
        bar = self.scroll.verticalScrollBar().sizeHint().width()
        self.scroll.setMinimumWidth(self.chat.minimumSizeHint().width() + bar + 2 * self.scroll.frameWidth())

    def _set_working(self, working: bool) -> None:
        self.progress.setVisible(working)
        self.cancel_button.setVisible(working)
        self.send_button.setEnabled(not working)
        self.reset_button.setEnabled(not working)  # the sandbox may be running this request's code
        self.progress.setValue(0)

    def _add_widget(self, widget: QWidget) -> None:
        self.hint.hide()
        self.chat_layout.insertWidget(self.chat_layout.count() - 1, widget)
        self.scroll_to_end()

    def scroll_to_end(self) -> None:
        """Show the newest message once the layout has grown to fit it (a timer owned by the dock)."""
        self._scroll_timer.start(0)

    def _scroll_now(self) -> None:
        bar = self.scroll.verticalScrollBar()
        bar.setValue(bar.maximum())

    # -- layers ----------------------------------------------------------------------------
    def preferred_layers(self) -> list[QgsMapLayer]:
        """The layers selected in the layer panel, else the active layer."""
        chosen = []
        try:
            chosen = [x for x in self.iface.layerTreeView().selectedLayers() if isinstance(x, QgsMapLayer)]
        except (AttributeError, TypeError):
            chosen = []
        active = self.iface.activeLayer() if hasattr(self.iface, "activeLayer") else None
        if not chosen and isinstance(active, QgsMapLayer):
            chosen = [active]
        return chosen

    def _same_again(self, text: str):
        """(steps, old layer, new layer) when `text` asks for the last steps again on another layer, with every
        layer those steps use ticked; else None (planning/followup.py reads the request)."""
        from ..planning.followup import asks_same, same_again

        if not self.last_steps or not asks_same(text):  # the text first: describing every layer costs more
            return None
        from .layers import describe_layer

        layers = {}
        for i in range(self.layer_picker.count()):
            layer = self.project.mapLayer(self.layer_picker.item(i).data(Qt.ItemDataRole.UserRole))
            if isinstance(layer, QgsVectorLayer):
                layers[layer.name()] = layer
        infos = [describe_layer(layer) for layer in layers.values()]
        again = same_again(text, infos, self.last_steps)
        if again is not None:
            named = {v for s in again[0] for v in s.get("params", {}).values() if isinstance(v, str) and v in layers}
            self.layer_picker.set_checked(self.layer_picker.checked_ids() + [layers[n].id() for n in named])
        return again

    def refresh_layers(self, *_args) -> None:
        self.layer_picker.refresh(self.project, self.preferred_layers())

    # -- requests --------------------------------------------------------------------------
    def is_busy(self) -> bool:
        return self.task is not None

    def send(self) -> None:
        text = self.input.text().strip()
        if not text or self.is_busy():
            return
        self.input.remember(text)
        self.input.clear()
        self.start_request(text, self.route_combo.currentData())
        self.route_combo.setCurrentIndex(0)  # the override is per message

    def start_request(
        self, text: str, route: str = "auto", runner=None, skip_tier0: bool = False, answers: dict | None = None
    ) -> ReplyCard:
        """Show the request, prepare inputs on the main thread, and start the task.

        `skip_tier0`: the user said a tier-0 answer was not what they meant; the model serves the request.
        `answers`: {question id: choice} clicked on a question card; the same request resumes with them."""
        shown = f"{text} → {', '.join(answers.values())}" if answers else text
        self._add_widget(UserBubble(shown, route))
        card = ReplyCard()
        card.answer_given.connect(lambda qid, choice, t=text: self.start_request(t, route, answers={qid: choice}))
        card.rerun_requested.connect(lambda steps, t=text: self.start_request(t, route, make_rerun(steps)))
        card.ask_model_requested.connect(lambda t=text: self.start_request(t, route, skip_tier0=True))
        card.save_model_requested.connect(lambda c=card: save_card_model(c, c.store, engine.registry()))
        card.zoom_requested.connect(self.zoom_to)
        card.open_requested.connect(self.open_output)
        card.settings_requested.connect(self.settings_requested)
        self._add_widget(card)
        self.cards.append(card)
        self.card = card
        settings = GeoClerkSettings.read()
        out_dir = results_dir(self.project)
        try:
            problems = check_dependencies()
            if problems:
                raise DependencyError(dependency_message(problems))
            again = self._same_again(text) if runner is None and not skip_tier0 else None
            if again is not None:  # 'do the same for the cafes': the last steps on the cafes, no model
                steps, old, new = again
                note = tr("The steps of the previous request, on '{new}' instead of '{old}'.").format(new=new, old=old)
                runner = make_rerun(steps, note=note, tier=0)
            previous = [i for i in self.previous_results if self.project.mapLayer(i) is not None]
            previous = previous if refers_back(text) else []  # only a follow-up that refers back reads them
            self._ticked = self.layer_picker.tick_named(self.project, text, previous)  # named layers are in play
            selected = {i for i in previous if i in self.selections and self.project.mapLayer(i).selectedFeatureCount()}
            store, infos = build_inputs(self.layer_picker.checked_layers(self.project), out_dir / "inputs", selected)
            card.store = store  # the layers the run read and made, for "Save as model"
            config = settings.agent_config(route)
            if skip_tier0:
                config.tier0 = False
            if config.has_model:  # a wrong 'Python for generated code' is said here, before anything runs
                config.sandbox = self._conversation_sandbox(config.sandbox_python)
        except GeoClerkError as exc:
            card.show_report({"status": "error", "route": route, "tier": 0, "error": exc.user_text(), "request": text})
            self.request_finished.emit(card)
            return card
        self._config = config
        self.task = AgentTask(
            text,
            store,
            infos,
            out_dir,
            config,
            on_finished=self._finished,
            runner=runner or self.runner,
            registry=engine.registry(),
            previous=[self.project.mapLayer(i).name() for i in previous],
            answers=answers,
        )
        if config.review_code:
            # The agent's code worker calls config.review(code) -> bool before each run in the sandbox.
            config.review = CodeReviewer(self, cancel_event=self.task.cancel_event)
        self.task.progressChanged.connect(self._on_progress)
        self._set_working(True)
        QgsApplication.taskManager().addTask(self.task)
        return card

    def _on_progress(self, value: float) -> None:
        self.progress.setValue(int(value))
        if self.task is not None and self.card is not None:
            self.card.set_progress(self.task.progress_message)

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _finished(self, task: AgentTask, result: bool) -> None:  # noqa: FBT001
        card, self.task = self.card, None
        self._set_working(False)
        self.last_layers = []
        try:
            if task.was_cancelled:
                card.show_cancelled()
            elif task.report is None:
                self._show_failure(card, task, task.error, task.details)
            else:
                self._show_result(card, task)
        except Exception as exc:  # noqa: BLE001 - a bad result must never leave the dock stuck
            self._show_failure(card, task, f"{type(exc).__name__}: {exc}", traceback.format_exc())
        self.scroll_to_end()
        self.request_finished.emit(card)

    def _show_failure(self, card: ReplyCard, task: AgentTask, error: str, details: str) -> None:
        QgsMessageLog.logMessage(details or error, "GeoClerk", Qgis.MessageLevel.Critical)
        text = tr("GeoClerk failed unexpectedly: {error}. Please report it with the GeoClerk log.")
        card.show_report({"status": "error", "route": task.config.route, "tier": 0, "request": task.request,
                          "error": text.format(error=error)})  # fmt: skip

    def _show_result(self, card: ReplyCard, task: AgentTask) -> None:
        report = task.report.to_json()
        if getattr(self, "_ticked", None):  # say which layers the request brought in, so nothing is silent
            note = tr("Also used, because the request names them: {names}").format(names=", ".join(self._ticked))
            report["notes"] = [note, *(report.get("notes") or [])]
        if report["status"] == "needs_llm":
            report["error"] = (report.get("error") or "") + "\n" + tr(
                "To serve it, open GeoClerk settings and set a model (for example Ollama at "
                "http://localhost:11434/v1), or rephrase so the tool and all its parameters are clear."
            )  # fmt: skip
        if report["status"] == "ok" and self._select_instead(report):
            card.show_report(report, [])
            self._remember(report)
            return
        if report["status"] == "ok":
            shown = shown_layers(report, task.store)
            self.last_layers = load_outputs(report, self.project, secrets=secrets_of(self._config), extra=shown)
            made = [la.id() for la in self.last_layers if isinstance(la, QgsVectorLayer)]
            tool_steps = [s for s in report.get("steps") or [] if "tool" in s]
            self.last_steps = tool_steps if tool_steps and len(tool_steps) == len(report["steps"]) else []
            self.previous_results = made or self.previous_results  # what 'them' means in the next request
            opened = {layer.source().split("|")[0] for layer in self.last_layers}
            spatial = [o["path"] for o in report["outputs"] if o["kind"] in ("vector", "raster")]
            unopened = [Path(p).name for p in spatial if p not in opened]
            if unopened:
                report["notes"] = report.get("notes", []) + [
                    tr("QGIS could not open these results as layers: {names}").format(names=", ".join(unopened))
                ]
        card.show_report(report, self.last_layers)
        self._remember(report)

    def _select_instead(self, report: dict) -> bool:
        """'Select the districts with …': QGIS's selection on the districts instead of a new layer, when the
        request asks for a selection and the one result is a subset of one of the user's layers (selection.py)."""
        from ..planning.followup import wants_selection
        from .selection import select_like

        vectors = [o for o in report.get("outputs", []) if o.get("kind") == "vector"]
        steps = report.get("steps") or []
        if len(vectors) != 1 or len(steps) != 1 or "tool" not in steps[0] or not wants_selection(report["request"]):
            return False
        name = (steps[0].get("params") or {}).get("layer")
        layers = [la for la in self.layer_picker.checked_layers(self.project) if la.name() == name]
        if len(layers) != 1 or not isinstance(layers[0], QgsVectorLayer):
            return False
        layer = layers[0]
        count = select_like(layer, vectors[0]["path"])
        if count is None:
            return False
        self.last_layers = []
        self.previous_results, self.selections = [layer.id()], {layer.id()}
        self.last_steps = [steps[0]]
        if count:
            self.iface.mapCanvas().zoomToSelected(layer)
        report["notes"] = [
            tr("Selected {n} of {total} features in '{layer}' (a QGIS selection: say 'extract' or 'save' for a "
               "new layer).").format(n=count, total=layer.featureCount(), layer=layer.name()),
            *(report.get("notes") or []),
        ]  # fmt: skip
        return True

    # -- outputs ---------------------------------------------------------------------------
    def zoom_to(self, layer_id: str) -> None:
        layer = self.project.mapLayer(layer_id)
        if layer is None:
            return
        canvas = self.iface.mapCanvas()
        transform = QgsCoordinateTransform(layer.crs(), canvas.mapSettings().destinationCrs(), self.project)
        extent = transform.transformBoundingBox(layer.extent())
        extent.scale(1.1)
        canvas.setExtent(extent)
        canvas.refresh()

    def open_output(self, path: str) -> None:
        for layer in self.last_layers:
            if isinstance(layer, QgsVectorLayer) and layer.source().split("|")[0] == path:
                self.iface.showAttributeTable(layer)
                return
        QDesktopServices.openUrl(QUrl.fromLocalFile(path))

    # -- conversation ----------------------------------------------------------------------
    def _remember(self, report: dict) -> None:
        self.turns.append({"request": report.get("request"), "report": report})
        if GeoClerkSettings.read().keep_conversation:
            conversation.save(self.project, self.turns, secrets=secrets_of(self._config))

    def clear_conversation(self) -> None:
        """Empty the view and forget the conversation stored in the project."""
        self.previous_results, self.last_steps, self.selections = [], [], set()
        self.clear_conversation_view()
        conversation.clear(self.project)
        self.reset_sandbox()  # a new conversation starts without the old one's variables

    def reset_sandbox(self) -> None:
        """Forget every variable earlier code requests of this conversation left (the process stays warm)."""
        sandbox = getattr(self, "_sandbox", None)
        if sandbox is not None and self.task is None:
            sandbox.reset()

    def _on_project_read(self, *_args) -> None:
        self.clear_conversation_view()
        if GeoClerkSettings.read().keep_conversation:
            for turn in conversation.load(self.project):
                self._add_widget(UserBubble(turn.get("request") or ""))
                card = ReplyCard()
                card.show_report(turn.get("report") or {})
                self._add_widget(card)
                self.cards.append(card)
                self.turns.append(turn)
        self.refresh_layers()

    def clear_conversation_view(self) -> None:
        while self.chat_layout.count() > 1:
            item = self.chat_layout.takeAt(0)
            if item.widget() is not None and item.widget() is not self.hint:
                item.widget().deleteLater()
        self.chat_layout.insertWidget(0, self.hint)
        self.hint.show()
        self.cards, self.turns = [], []

    def _conversation_sandbox(self, python: str | None = None):
        """One sandbox process per conversation: it warms up once (seconds) and each request then costs
        milliseconds; generated code still never runs in the QGIS process. `python`: the settings' 'Python for
        generated code' (a changed setting starts a new sandbox; a wrong one is a SandboxError for the card)."""
        from ..codegen.sandbox import Sandbox, find_python

        wanted = find_python(python)
        if getattr(self, "_sandbox", None) is not None and self._sandbox.python != wanted:
            self._sandbox.close()
            self._sandbox = None
        if getattr(self, "_sandbox", None) is None:
            self._sandbox = Sandbox(timeout=600, python=wanted)
        return self._sandbox

    def unload(self) -> None:
        """Cancel work, stop the sandbox process and disconnect project signals (the plugin's unload calls this)."""
        self.cancel()
        sandbox, self._sandbox = getattr(self, "_sandbox", None), None
        if sandbox is not None:
            sandbox.__exit__(None, None, None)
        for signal, slot in (
            (self.project.layersAdded, self.refresh_layers),
            (self.project.layersRemoved, self.refresh_layers),
            (self.project.readProject, self._on_project_read),
        ):
            try:
                signal.disconnect(slot)
            except TypeError:
                pass
