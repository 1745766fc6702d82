"""Helpers shared by the GUI, plugin and provider tests: small layers, settings isolation, waiting on tasks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from qgis.core import QgsApplication, QgsSettings
from qgis.PyQt.QtCore import QCoreApplication

ROOT = Path(__file__).resolve().parent.parent


def process_until(condition, timeout: float = 30.0) -> bool:
    """Run the Qt event loop until condition() is true (tasks finish through queued signals)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if condition():
            return True
        time.sleep(0.01)
    QCoreApplication.processEvents()
    return bool(condition())


def wait_for_tasks(timeout: float = 60.0) -> bool:
    return process_until(lambda: QgsApplication.taskManager().countActiveTasks() == 0, timeout)


def make_town(folder: Path) -> dict[str, str]:
    """A tiny projected town: 3 districts with population, 6 schools, 2 roads (EPSG:32633)."""
    import geopandas as gpd
    from shapely.geometry import LineString, Point, box

    folder.mkdir(parents=True, exist_ok=True)
    x0, y0 = 500000, 5000000
    districts = gpd.GeoDataFrame(
        {
            "name": ["North", "Centre", "South"],
            "population": [1200, 5400, 2300],
            "kind": ["residential", "mixed", "residential"],
        },
        geometry=[
            box(x0, y0 + 2000, x0 + 3000, y0 + 3000),
            box(x0, y0 + 1000, x0 + 3000, y0 + 2000),
            box(x0, y0, x0 + 3000, y0 + 1000),
        ],
        crs="EPSG:32633",
    )
    schools = gpd.GeoDataFrame(
        {"name": [f"School {i}" for i in range(6)], "pupils": [120, 340, 90, 410, 230, 60]},
        geometry=[Point(x0 + 300 + 450 * i, y0 + 400 + 450 * i) for i in range(6)],
        crs="EPSG:32633",
    )
    roads = gpd.GeoDataFrame(
        {"name": ["Main Street", "River Road"], "lanes": [2, 4]},
        geometry=[
            LineString([(x0, y0 + 1500), (x0 + 3000, y0 + 1500)]),
            LineString([(x0 + 1500, y0), (x0 + 1500, y0 + 3000)]),
        ],
        crs="EPSG:32633",
    )
    paths = {}
    for name, gdf in (("districts", districts), ("schools", schools), ("roads", roads)):
        path = folder / f"{name}.gpkg"
        gdf.to_file(path, driver="GPKG")
        paths[name] = str(path)
    return paths


@pytest.fixture
def isolated_settings():
    """Snapshot the GeoClerk/ settings and restore them afterwards; start from defaults (no model)."""
    store = QgsSettings()
    store.beginGroup("GeoClerk")
    saved = {k: store.value(k) for k in store.allKeys()}
    store.remove("")
    store.endGroup()
    store.beginGroup("locale")
    saved_locale = {k: store.value(k) for k in store.allKeys()}
    store.endGroup()
    yield store
    store.beginGroup("GeoClerk")
    store.remove("")
    for k, v in saved.items():
        store.setValue(k, v)
    store.endGroup()
    store.beginGroup("locale")
    store.remove("")
    for k, v in saved_locale.items():
        store.setValue(k, v)
    store.endGroup()
