"""The dock's question (issue 25): one short question, its choices as buttons and a field for another name.

A click (or Enter in the field) emits `answered(id, choice)` once; the dock resumes the same request with that
answer, exactly as `geoclerk run … --answer ID=CHOICE` does, so the plan runs at tier 0 with every check it has."""

from __future__ import annotations

from qgis.PyQt.QtCore import pyqtSignal
from qgis.PyQt.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout

from .i18n import tr
from .widgets import WrapButton, WrapText

BUTTONS_PER_ROW = 3


class QuestionCard(QFrame):
    """A question of a report with status "ask": {"id", "kind", "text", "choices"}."""

    answered = pyqtSignal(str, str)  # question id, the choice (a button's, or the name typed)

    def __init__(self, question: dict, parent=None):
        super().__init__(parent)
        self.setObjectName("questionCard")
        self.question = question
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        self.text = WrapText()
        self.text.setText(question.get("text") or "")
        layout.addWidget(self.text)
        grid = QGridLayout()
        self.buttons: list[QPushButton] = []
        for n, choice in enumerate(question.get("choices") or []):
            button = WrapButton(choice)
            button.setObjectName("choiceButton")
            button.clicked.connect(lambda _checked=False, c=choice: self._answer(c))
            grid.addWidget(button, n // BUTTONS_PER_ROW, n % BUTTONS_PER_ROW)
            self.buttons.append(button)
        layout.addLayout(grid)
        row = QHBoxLayout()
        self.other = QLineEdit()
        self.other.setPlaceholderText(tr("Or type another name"))
        self.other.returnPressed.connect(lambda: self._answer(self.other.text()))
        self.other_button = QPushButton(tr("Answer"))
        self.other_button.clicked.connect(lambda: self._answer(self.other.text()))
        row.addWidget(self.other, 1)
        row.addWidget(self.other_button)
        layout.addLayout(row)

    def _answer(self, choice: str) -> None:
        choice = (choice or "").strip()
        if not choice or not self.isEnabled():
            return  # nothing typed, or answered already: one answer per question
        self.setEnabled(False)
        self.answered.emit(str(self.question.get("id")), choice)
