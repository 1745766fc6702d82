"""GeoAgent became GeoClerk: what users set under the old name keeps working for one release."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from geoclerk.codegen import sandbox
from geoclerk.compat import adopt_old_environment
from geoclerk.geoclerk_plugin.settings import GeoClerkSettings, migrate_old_settings
from geoclerk.tests.test_gui_support import isolated_settings  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent


def test_old_environment_variables_count_unless_the_new_one_is_set():
    env = {"GEOAGENT_API_KEY": "old", "GEOAGENT_MODEL": "m-old", "GEOCLERK_MODEL": "m-new", "PATH": "/bin"}
    adopted = adopt_old_environment(env)
    assert env["GEOCLERK_API_KEY"] == "old" and env["GEOCLERK_MODEL"] == "m-new"
    assert adopted == ["GEOCLERK_API_KEY"]


def test_old_settings_are_copied_once_and_never_over_new_ones(isolated_settings):  # noqa: F811
    store = isolated_settings
    store.remove("GeoAgent")
    store.setValue("GeoAgent/model", "qwen-old")
    store.setValue("GeoAgent/threshold", 0.8)
    try:
        assert GeoClerkSettings.read().model == "qwen-old"  # read() migrates
        assert GeoClerkSettings.read().threshold == 0.8
        store.setValue("GeoClerk/model", "qwen-new")
        assert migrate_old_settings(store) == 0  # GeoClerk/ has settings now: the old ones never win again
        assert GeoClerkSettings.read().model == "qwen-new"
    finally:
        store.remove("GeoAgent")


def test_the_sandbox_child_finds_packages_in_the_old_libs_folder(tmp_path, monkeypatch):
    old = tmp_path / "python" / "geoagent_libs"
    old.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [*sys.path, str(old)])
    assert str(old) in sandbox._site_dirs()


def test_the_old_command_name_still_runs_and_says_the_new_one():
    exe = ROOT / ".venv" / "bin" / "geoagent"
    assert exe.is_symlink() and os.readlink(exe) == "geoclerk"
    done = subprocess.run([str(exe), "tools"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "buffer" in done.stdout
    assert "use 'geoclerk'" in done.stderr
