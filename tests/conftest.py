"""Shared fixtures: versions in the report header, sample data copied into tmp_path, the Processing registry."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

# GDAL writes statistics next to rasters it reads (dem.tif.aux.xml); the bundled data must stay as shipped.
os.environ.setdefault("GDAL_PAM_ENABLED", "NO")
# Core messages follow GEOCLERK_LANG, else the POSIX locale: the tests read English unless they ask for another.
os.environ["GEOCLERK_LANG"] = "en"

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"


def pytest_report_header(config):
    lines = [f"python {sys.version.split()[0]}"]
    try:
        from osgeo import gdal
        from qgis.core import Qgis
        from qgis.PyQt.QtCore import QT_VERSION_STR

        lines.append(f"QGIS {Qgis.QGIS_VERSION}, GDAL {gdal.__version__}, Qt {QT_VERSION_STR}")
    except ImportError:
        lines.append("QGIS not importable")
    try:
        import geopandas
        import shapely

        lines.append(
            f"GEOS {shapely.geos_version_string}, shapely {shapely.__version__}, geopandas {geopandas.__version__}"
        )
    except ImportError:
        pass
    return lines


@pytest.fixture
def sample_data(tmp_path) -> Path:
    """A private copy of data/sample, so no test can modify the bundled files."""
    target = tmp_path / "sample"
    shutil.copytree(SAMPLE, target)
    return target


@pytest.fixture
def out_dir(tmp_path) -> Path:
    path = tmp_path / "out"
    path.mkdir()
    return path


@pytest.fixture(scope="module")
def reg():
    """A Registry of the Processing specs bound to QGIS Processing; skips when QGIS cannot start."""
    from geoclerk.function_lib.processing_specs import PROCESSING_SPECS
    from geoclerk.function_lib.registry import Registry
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    status = ensure_qgis()
    if not status:
        pytest.skip(status.reason)
    registry = Registry()
    for spec in PROCESSING_SPECS:
        registry.register(spec)
    bind(registry)
    return registry


@pytest.fixture(scope="module")
def registry():
    """Both halves' specs, GeoPandas implementations only (no Processing binder): fast and deterministic."""
    from geoclerk.function_lib import load_registry

    return load_registry()


@pytest.fixture(scope="module")
def bound_registry():
    """Both halves with the Processing half bound, as the CLI and the plugin run them where PyQGIS is available."""
    from geoclerk.function_lib import load_registry
    from geoclerk.geoclerk_plugin.processing_tools import bind
    from geoclerk.geoclerk_plugin.qgis_env import ensure_qgis

    assert ensure_qgis()
    registry = load_registry()
    bind(registry)
    return registry


@pytest.fixture(scope="module")
def router(registry):
    """The trained router over that registry."""
    from geoclerk.router import load_router

    return load_router(registry)


@pytest.fixture(scope="module")
def dask_settings_restored():
    """The dask engine's settings as they were before the module: its tests lower the size threshold to 100
    features, and left so, every later test's tool call of more than 100 features ran on dask (integer counts where
    QGIS gives reals: test_save_model failed after the dask tests in one run of the whole suite)."""
    from dataclasses import asdict

    from geoclerk.function_lib.dask_engine.settings import SETTINGS, configure

    saved = asdict(SETTINGS)
    yield
    configure(**saved)
