"""Code review before running: the worker thread waits for the user's answer given on the main thread."""

from __future__ import annotations

import threading
import time

from geoclerk.geoclerk_plugin.review import CodeReviewDialog, CodeReviewer
from geoclerk.tests.test_gui_support import process_until


def _ask_from_worker(reviewer, code):
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("ok", reviewer(code)))
    thread.start()
    assert process_until(lambda: "ok" in box, 10)
    thread.join(5)
    return box["ok"]


def test_worker_waits_for_the_users_answer(qgis_app):
    shown = []

    def answer(code):
        shown.append((code, threading.current_thread() is threading.main_thread()))
        return "rm" not in code

    reviewer = CodeReviewer(ask=answer)
    assert _ask_from_worker(reviewer, "print(1)") is True
    assert _ask_from_worker(reviewer, "import os; os.system('rm -rf x')") is False
    assert shown == [("print(1)", True), ("import os; os.system('rm -rf x')", True)]


def test_cancel_releases_a_waiting_worker(qgis_app):
    cancel = threading.Event()

    def slow_user(code):  # the user is still reading when the request is cancelled
        cancel.set()
        time.sleep(1.0)
        return True

    reviewer = CodeReviewer(ask=slow_user, cancel_event=cancel)
    assert _ask_from_worker(reviewer, "x = 1") is False


def test_dialog_shows_the_code_read_only(qgis_app):
    dialog = CodeReviewDialog("import geopandas as gpd\n")
    assert dialog.code.toPlainText() == "import geopandas as gpd\n" and dialog.code.isReadOnly()
    assert dialog.run_button.text() == "Run"
