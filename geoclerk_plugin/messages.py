"""Conversation bubbles: the user's request and the agent's reply card (badge, details, outputs, usage)."""

from __future__ import annotations

import json

from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
)

from .i18n import tr
from .widgets import WrapButton, WrapText

TIER_NAMES = {0: "offline", 1: "functions", 2: "code"}
STATUS_COLOURS = {
    "ok": "#2e7d32",
    "needs_llm": "#b26a00",
    "ask": "#1565c0",
    "rejected": "#6a1b9a",
    "error": "#c62828",
    "cancelled": "#616161",
    "working": "#1565c0",
}


def tier_label(tier) -> str:
    return {0: tr("offline"), 1: tr("functions"), 2: tr("code")}.get(tier, str(tier))


def route_label(route) -> str:
    """The router's route ('function', 'codegen', 'chat', or a forced one) in the user's language."""
    return {
        "auto": tr("Auto"),
        "function": tr("function"),
        "codegen": tr("code generation"),
        "chat": tr("chat"),
    }.get(route, str(route))


class UserBubble(QFrame):
    """The request as the user typed it, with the route they forced (if any)."""

    def __init__(self, text: str, route: str = "auto", parent=None):
        super().__init__(parent)
        self.setObjectName("userBubble")
        self.setStyleSheet("#userBubble { background: #e3f2fd; border-radius: 6px; }")
        layout = QVBoxLayout(self)
        layout.addWidget(WrapText(text))
        if route != "auto":
            forced = QLabel(tr("Route forced: {route}").format(route=route_label(route)))
            forced.setWordWrap(True)
            layout.addWidget(forced)
        self.text = text


class ReplyCard(QFrame):
    """One reply: status badge, answer or error with what to do, details, outputs and usage."""

    rerun_requested = pyqtSignal(list)  # edited steps
    zoom_requested = pyqtSignal(str)  # layer id
    open_requested = pyqtSignal(str)  # path
    settings_requested = pyqtSignal()
    ask_model_requested = pyqtSignal()  # "Not what I meant": the same request again, past tier 0
    save_model_requested = pyqtSignal()  # a tier-0 plan as a Processing model
    answer_given = pyqtSignal(str, str)  # status "ask": question id and the choice; the same request resumes with it

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("replyCard")
        self.setStyleSheet("#replyCard { background: #fafafa; border: 1px solid #ddd; border-radius: 6px; }")
        self.report: dict | None = None
        self.store = None  # the LayerStore the request ran on (set by the dock), for "Save as model"
        self.question_card = None
        layout = QVBoxLayout(self)
        self.badge = QLabel(tr("Working…"))
        self.badge.setObjectName("badge")
        self.badge.setMinimumWidth(1)  # one line; in a very narrow dock it is cut, never the card
        self.answer = WrapText()
        self.notes = WrapText()
        self.notes.setStyleSheet("QTextBrowser { background: transparent; color: #555; font-style: italic; }")
        self.notes.hide()
        self.error_view = WrapText()
        self.error_view.setObjectName("errorView")
        self.error_view.setStyleSheet("#errorView { background: transparent; color: #b71c1c; }")
        self.error_view.hide()
        self.settings_button = QPushButton(tr("Open settings"))
        self.settings_button.clicked.connect(self.settings_requested)
        self.settings_button.hide()
        self.outputs_box = QVBoxLayout()
        self.details_toggle = QToolButton()
        self.details_toggle.setText(tr("Show tool calls"))
        self.details_toggle.setCheckable(True)
        self.details_toggle.toggled.connect(self._toggle_details)
        self.details_toggle.hide()
        self.details = QPlainTextEdit()
        self.details.hide()
        buttons = QHBoxLayout()
        self.copy_button = QPushButton(tr("Copy"))
        self.copy_button.clicked.connect(lambda: QApplication.clipboard().setText(self.details.toPlainText()))
        self.rerun_button = QPushButton(tr("Re-run edited"))
        self.rerun_button.clicked.connect(self._rerun)
        for b in (self.copy_button, self.rerun_button):
            b.hide()
            buttons.addWidget(b)
        self.ask_model_button = WrapButton(tr("Not what I meant — ask the model"))
        self.ask_model_button.setToolTip(tr("Send the same request to the model, without the no-model answer"))
        self.ask_model_button.clicked.connect(self.ask_model_requested)
        self.ask_model_button.hide()
        self.save_model_button = WrapButton(tr("Save as model"))
        self.save_model_button.setToolTip(tr("Save these steps as a Processing model that runs on other layers"))
        self.save_model_button.clicked.connect(self.save_model_requested)
        self.save_model_button.hide()
        self.model_note = WrapText()
        self.model_note.hide()
        buttons.addStretch(1)
        ask_row = QHBoxLayout()  # a row of its own: next to Copy and Re-run it made the card wider than a dock
        ask_row.addWidget(self.ask_model_button)
        ask_row.addWidget(self.save_model_button)
        ask_row.addStretch(1)
        self.usage = QLabel()
        self.usage.setStyleSheet("color: #666;")
        self.usage.setWordWrap(True)
        badge_row = QHBoxLayout()
        badge_row.addWidget(self.badge)
        badge_row.addStretch(1)
        layout.addLayout(badge_row)
        for w in (self.answer, self.notes, self.error_view, self.settings_button):
            layout.addWidget(w)
        layout.addLayout(self.outputs_box)
        layout.addWidget(self.details_toggle)
        layout.addWidget(self.details)
        layout.addLayout(buttons)
        layout.addLayout(ask_row)
        layout.addWidget(self.model_note)
        layout.addWidget(self.usage)
        self._set_badge("working", tr("Working…"))

    def _set_badge(self, status: str, text: str) -> None:
        colour = STATUS_COLOURS.get(status, "#444")
        self.badge.setText(text)
        self.badge.setStyleSheet(
            f"#badge {{ color: white; background: {colour}; padding: 2px 6px; border-radius: 4px; }}"
        )

    def set_progress(self, message: str) -> None:
        if message:
            self.answer.setText(message)

    def show_report(self, report: dict, layers: list | None = None) -> None:
        """Fill the card from a report dict (the CLI JSON shape) and the layers it added."""
        self.report = report
        status = report.get("status", "error")
        route, tier = report.get("route", "?"), report.get("tier", 0)
        self._set_badge(status, f"{route_label(route)} · {tier_label(tier)} · {status_text(status)}")
        self.answer.setText(report.get("answer") or "")
        self.answer.setVisible(bool(report.get("answer")))
        self.ask_model_button.setVisible(status == "ok" and tier == 0)  # a tier-0 reading the user can overrule
        steps = report.get("steps") or []
        self.save_model_button.setVisible(  # a card restored from a project has no layers to save a model of
            status == "ok" and tier == 0 and self.store is not None and bool(steps) and all("tool" in s for s in steps)
        )
        notes = [str(n) for n in report.get("notes") or []] + [str(e) for e in report.get("escalations") or []]
        self.notes.setText("\n".join(f"• {n}" for n in notes))
        self.notes.setVisible(bool(notes))
        if status == "ask":  # the question card says it: not the answer text, not an error
            self.answer.hide()
            self._show_question((report.get("questions") or [{}])[0])
        elif status != "ok":
            self.show_error(report.get("error") or tr("Something went wrong."), status)
            self.settings_button.setVisible(status == "needs_llm" or bool(report.get("fix_in_settings")))
        self._show_outputs(report.get("outputs", []), layers or [])
        self._show_details(report.get("steps", []))
        self.usage.setText(usage_text(report))

    def _show_question(self, question: dict) -> None:
        from .question_card import QuestionCard

        self.question_card = QuestionCard(question)
        self.question_card.answered.connect(self.answer_given)
        self.layout().insertWidget(1, self.question_card)  # under the badge

    def show_error(self, text: str, status: str = "error") -> None:
        self.error_view.setText(text)
        self.error_view.show()
        self.settings_button.setVisible(status == "needs_llm")

    def show_model_saved(self, text: str, ok: bool = True) -> None:  # noqa: FBT001, FBT002
        self.model_note.setText(text)
        self.model_note.setStyleSheet(
            "QTextBrowser { background: transparent; color: %s; }" % ("#2e7d32" if ok else "#b71c1c")
        )
        self.model_note.show()
        self.save_model_button.setEnabled(not ok)

    def show_cancelled(self) -> None:
        self._set_badge("cancelled", tr("Cancelled"))
        self.answer.setText(tr("The request was cancelled. Nothing was added to the project."))
        self.answer.show()

    def _show_outputs(self, outputs: list[dict], layers: list) -> None:
        by_path = {}
        for layer in layers:
            by_path[layer.source().split("|")[0]] = layer
        for out in outputs:
            row = QHBoxLayout()
            layer = by_path.get(out["path"])
            name = layer.name() if layer is not None else out["path"].replace("\\", "/").rsplit("/", 1)[-1]
            label = WrapText(f"{out.get('kind', '')}: {name}")
            label.setToolTip(out["path"])
            row.addWidget(label, 1)
            if layer is not None:
                zoom = QPushButton(tr("Zoom to"))
                zoom.clicked.connect(lambda _=False, lid=layer.id(): self.zoom_requested.emit(lid))
                row.addWidget(zoom)
            opener = QPushButton(tr("Open"))
            opener.clicked.connect(lambda _=False, p=out["path"]: self.open_requested.emit(p))
            row.addWidget(opener)
            self.outputs_box.addLayout(row)

    def _show_details(self, steps: list[dict]) -> None:
        if not steps:
            return
        has_code = any("code" in s for s in steps)
        self.details_toggle.setText(tr("Show code") if has_code else tr("Show tool calls"))
        if has_code:
            text = "\n\n".join(s.get("code", "") for s in steps if "code" in s)
        else:
            text = json.dumps(steps, indent=2, ensure_ascii=False)
        self.details.setPlainText(text)
        self.details_toggle.show()

    def _toggle_details(self, shown: bool) -> None:  # noqa: FBT001
        for w in (self.details, self.copy_button, self.rerun_button):
            w.setVisible(shown)

    def edited_steps(self) -> list[dict]:
        """The details as steps again: a JSON list of tool calls, or the code as one code step."""
        text = self.details.toPlainText()
        steps = (self.report or {}).get("steps", [])
        if any("code" in s for s in steps):
            return [{"code": text}]
        data = json.loads(text)
        return data if isinstance(data, list) else [data]

    def _rerun(self) -> None:
        try:
            steps = self.edited_steps()
        except json.JSONDecodeError as exc:
            self.show_error(tr("The edited tool calls are not valid JSON: {error}").format(error=exc))
            return
        self.rerun_requested.emit(steps)


def status_text(status: str) -> str:
    return {
        "ok": tr("done"),
        "needs_llm": tr("needs a model"),
        "ask": tr("a question"),
        "rejected": tr("rejected"),
        "error": tr("error"),
        "cancelled": tr("cancelled"),
    }.get(status, status)


def usage_text(report: dict) -> str:
    timings = report.get("timings_ms") or {}
    usage = report.get("usage") or {}
    parts = [tr("{ms:.0f} ms").format(ms=timings.get("total", 0.0))]
    if usage.get("llm_calls"):
        parts.append(
            tr("{calls} model calls, {prompt} + {completion} tokens").format(
                calls=usage["llm_calls"],
                prompt=usage.get("prompt_tokens", 0),
                completion=usage.get("completion_tokens", 0),
            )
        )
    else:
        parts.append(tr("no model calls"))
    return " · ".join(parts)
