"""The sandbox child searches the plugin's own package folder before the system's, as the QGIS process does."""

from __future__ import annotations

import os
import site
import sys
from pathlib import Path

import numpy
import pytest
from geoclerk.codegen.sandbox import Sandbox, _leading_site_dirs

SYSTEM_PYTHON = "/usr/bin/python3"  # what a Debian QGIS's child runs on: sys.executable there is QGIS itself


def test_folders_ahead_of_the_standard_library_stay_ahead(tmp_path, monkeypatch):
    libs, late = str(tmp_path / "geoclerk_libs"), str(tmp_path / "site-packages")
    stdlib = os.path.dirname(os.__file__)
    monkeypatch.setattr(sys, "path", [libs, "/plugins", stdlib, late])
    assert _leading_site_dirs([libs, late]) == [libs]


def test_the_plugin_folder_wins_over_the_system_packages_in_the_child(tmp_path, monkeypatch):
    # The desktop run (tests/test_desktop_qgis.py) found it: the installed plugin's packages live in the profile's
    # geoclerk_libs, which the plugin puts first on QGIS's sys.path; the child appended it after Debian's
    # dist-packages, imported Debian's NumPy 1.24 under the plugin's pandas, and every generated script failed.
    if not os.path.exists(SYSTEM_PYTHON) or Path(sys.prefix) == Path(sys.base_prefix):
        pytest.skip("needs a virtualenv whose packages differ from the system Python's")
    libs = tmp_path / "python" / "geoclerk_libs"
    libs.parent.mkdir()
    libs.symlink_to(site.getsitepackages()[0], target_is_directory=True)
    monkeypatch.setattr(sys, "path", [str(libs), *sys.path])
    box = Sandbox(root=tmp_path / "box", python=SYSTEM_PYTHON, timeout=60)
    try:
        assert box.start()["errors"] == []
        code = "import numpy, pandas\nprint(numpy.version.version, len(pandas.DataFrame({'a': [1, 2]})))"
        result = box.run(code, box.new_work_dir())
        assert result.ok, result.error
        assert result.stdout.split() == [numpy.version.version, "2"]
    finally:
        box.close()
