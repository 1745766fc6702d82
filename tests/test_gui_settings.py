"""Settings dialog: Test connection in plain words, and the API key kept in QgsAuthManager (never in QgsSettings)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import pytest
from geoclerk.geoclerk_plugin.settings import GeoClerkSettings
from geoclerk.geoclerk_plugin.settings_dialog import SettingsDialog
from geoclerk.tests.scripted_server import ScriptedServer
from geoclerk.tests.test_gui_support import ROOT, isolated_settings, process_until  # noqa: F401
from qgis.PyQt.QtCore import Qt
from qgis.PyQt.QtTest import QTest


@pytest.fixture
def server():
    srv = ScriptedServer(model="qwen2.5:7b").start()
    yield srv
    srv.stop()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _test(dialog, url: str, model: str) -> str:
    dialog.base_url.setText(url)
    dialog.model.setText(model)
    QTest.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: dialog.task is None, 30)
    return dialog.test_result.text()


def test_connection_reports_in_plain_words(qgis_iface, isolated_settings, server):  # noqa: F811
    dialog = SettingsDialog()
    assert _test(dialog, server.url, "qwen2.5:7b") == "Connected. Model 'qwen2.5:7b' is available."
    text = _test(dialog, server.url, "llama3")
    assert "no model called 'llama3'" in text and "qwen2.5:7b" in text
    text = _test(dialog, f"http://127.0.0.1:{_free_port()}/v1", "x")
    assert text.startswith("Could not reach http://127.0.0.1:") and "server running" in text
    assert _test(dialog, "", "x").startswith("No base URL is set")


def test_dialog_round_trips_settings_and_presets(qgis_iface, isolated_settings):  # noqa: F811
    dialog = SettingsDialog()
    dialog.preset.setCurrentIndex(dialog.preset.findData("ollama"))
    assert dialog.base_url.text() == "http://localhost:11434/v1"
    dialog.model.setText("qwen2.5:7b")
    dialog.architecture.setCurrentIndex(dialog.architecture.findData("planner"))
    dialog.tier0.setChecked(False)
    dialog.threshold.setValue(0.75)
    dialog.max_repairs.setValue(3)
    dialog.review_code.setChecked(True)
    assert dialog.form.labelForField(dialog.python_row).text() == "Python for generated code"
    dialog.sandbox_python.setText(" /opt/python/bin/python3 ")
    dialog.accept()
    s = GeoClerkSettings.read()
    assert s.sandbox_python == "/opt/python/bin/python3"
    assert s.agent_config("codegen").sandbox_python == "/opt/python/bin/python3"
    assert SettingsDialog().sandbox_python.text() == "/opt/python/bin/python3"
    assert (s.preset, s.base_url, s.model, s.architecture) == ("ollama", "http://localhost:11434/v1", "qwen2.5:7b",
                                                               "planner")  # fmt: skip
    assert (s.tier0, s.threshold, s.max_repairs, s.review_code) == (False, 0.75, 3, True)
    config = s.agent_config("codegen")
    assert config.route == "codegen" and config.has_model and config.max_repairs == 3 and not config.tier0



def test_the_code_workers_mode_is_chosen_next_to_the_function_tiers_and_kept(qgis_iface, isolated_settings):  # noqa: F811
    dialog = SettingsDialog()
    form = dialog.form
    assert form.getWidgetPosition(dialog.codegen_mode)[0] == form.getWidgetPosition(dialog.architecture)[0] + 1
    assert form.labelForField(dialog.codegen_mode).text() == "Code worker"
    assert [dialog.codegen_mode.itemData(i) for i in range(dialog.codegen_mode.count())] == ["react", "planner"]
    assert dialog.codegen_mode.currentData() == "react" and GeoClerkSettings().codegen_mode == "react"
    dialog.codegen_mode.setCurrentIndex(dialog.codegen_mode.findData("planner"))
    dialog.accept()
    s = GeoClerkSettings.read()
    assert (s.codegen_mode, s.architecture) == ("planner", "react")  # the two choices are independent
    assert s.agent_config("codegen").codegen_mode == "planner"
    again = SettingsDialog()
    assert again.codegen_mode.currentData() == "planner" and again.architecture.currentData() == "react"


def test_the_local_gguf_provider_asks_for_a_file_and_starts_the_model(qgis_iface, isolated_settings, tmp_path):  # noqa: F811
    import stat

    from geoclerk.agent.local_model import stop_shared

    dialog = SettingsDialog()
    dialog.show()
    dialog.preset.setCurrentIndex(dialog.preset.findData("local_gguf"))
    # a file, not a URL, a model name or a key
    assert dialog.gguf_path.isVisible() and dialog.llama_server.isVisible()
    assert not dialog.base_url.isVisible() and not dialog.model.isVisible() and not dialog.api_key.isVisible()
    program = tmp_path / "llama-server"
    fake = ROOT / "tests" / "fake_llama_server.py"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" "$@"\n')
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    model = tmp_path / "tiny.gguf"
    model.write_bytes(b"GGUF")
    dialog.gguf_path.setText(str(model))
    dialog.llama_server.setText(str(program))
    try:
        QTest.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)  # starts the server off the main thread
        assert process_until(lambda: dialog.task is None, 60)
        assert "tiny.gguf is running at http://127.0.0.1:" in dialog.test_result.text()
    finally:
        stop_shared()
    dialog.accept()
    s = GeoClerkSettings.read()
    assert (s.preset, s.gguf_path, s.llama_server) == ("local_gguf", str(model), str(program))
    config = s.agent_config()
    assert config.local_model == str(model) and config.has_model and config.api_key is None
    assert config.timeout_s >= 300  # a CPU model takes minutes
    dialog.preset.setCurrentIndex(dialog.preset.findData("ollama"))
    assert not dialog.base_url.isHidden() and dialog.gguf_path.isHidden()  # (the dialog itself is closed now)
    dialog.gguf_path.setText(str(tmp_path / "missing.gguf"))
    dialog.preset.setCurrentIndex(dialog.preset.findData("local_gguf"))
    QTest.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    assert process_until(lambda: dialog.task is None, 30)
    assert "missing" in dialog.test_result.text()

SCRIPT = """
import json, sys
from qgis.core import QgsApplication, QgsSettings
app = QgsApplication([], True)
app.initQgis()
assert QgsApplication.authManager().setMasterPassword("test-master", True)
from geoclerk.geoclerk_plugin.settings import GeoClerkSettings
from geoclerk.geoclerk_plugin.settings_dialog import SettingsDialog
dialog = SettingsDialog()
dialog.base_url.setText("https://api.example.invalid/v1")
dialog.model.setText("m")
dialog.api_key.setText("sk-SECRET-123")
dialog.accept()
s = GeoClerkSettings.read()
QgsSettings().sync()
again = SettingsDialog()  # an empty key field keeps the stored key
again.accept()
print(json.dumps({"authcfg": s.authcfg, "key": GeoClerkSettings.read().api_key(),
                  "config_key": GeoClerkSettings.read().agent_config().api_key(),
                  "ini": QgsSettings().fileName()}))
app.exitQgis()
"""


def test_api_key_lives_in_the_auth_database_only(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QGIS_CUSTOM_CONFIG_PATH=str(tmp_path),
               QGIS_AUTH_DB_DIR_PATH=str(tmp_path), GEOCLERK_API_KEY="")  # fmt: skip
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPT)], capture_output=True, text=True, env=env,
                         timeout=120, cwd=ROOT)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    import json

    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["authcfg"] and out["key"] == "sk-SECRET-123" and out["config_key"] == "sk-SECRET-123"
    ini = open(out["ini"], encoding="utf-8").read()
    assert out["authcfg"] in ini and "sk-SECRET-123" not in ini
    assert str(tmp_path) in out["ini"]


def test_offline_requests_never_open_the_auth_database(isolated_settings, monkeypatch):  # noqa: F811
    # issue 13: the master password was asked for on offline requests; the key is read only when a model is set
    from geoclerk.geoclerk_plugin.settings import GeoClerkSettings

    def no_key(self):
        raise AssertionError("the auth database was opened for an offline request")

    monkeypatch.setattr(GeoClerkSettings, "api_key", no_key)
    for var in ("GEOCLERK_BASE_URL", "GEOCLERK_MODEL"):
        monkeypatch.delenv(var, raising=False)
    config = GeoClerkSettings.read().agent_config()
    assert config.offline and config.api_key is None
