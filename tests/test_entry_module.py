"""The plugin's __init__.py loads as a bare module too: pytest imports it on its own, named '__init__', when the
checkout's folder is no Python name ('geoclerk-main', 'ci-base'), and before, its relative import then failed every
test of the suite at set-up."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_entry_file_loads_outside_a_package_and_keeps_its_factory():
    spec = importlib.util.spec_from_file_location("__init__", ROOT / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert callable(module.classFactory)


def test_as_a_package_it_still_adopts_the_old_names(monkeypatch):
    import geoclerk

    monkeypatch.setenv("GEOAGENT_TEST_ADOPT", "1")
    monkeypatch.delenv("GEOCLERK_TEST_ADOPT", raising=False)
    importlib.reload(geoclerk)
    adopted = os.environ.pop("GEOCLERK_TEST_ADOPT", None)
    assert adopted == "1"
