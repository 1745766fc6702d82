"""Shared fixtures: versions in the report header, and sample data copied into tmp_path."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

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
