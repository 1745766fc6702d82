"""Start a headless QgsApplication and Processing once per process (CLI, tests); inside QGIS, reuse it."""

from __future__ import annotations

import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

_lock = threading.Lock()
_state: dict = {}


@dataclass(frozen=True)
class QgisStatus:
    """Whether PyQGIS and Processing are ready; falsy with a reason when they are not."""

    ok: bool
    reason: str = ""
    version: str = ""

    def __bool__(self) -> bool:
        return self.ok


def ensure_qgis() -> QgisStatus:
    """Make QGIS and Processing usable in this process; idempotent and thread-safe."""
    with _lock:
        if "status" not in _state:
            _state["status"] = _start()
        return _state["status"]


def _start() -> QgisStatus:
    try:
        from qgis.core import Qgis, QgsApplication
    except ImportError as exc:
        return QgisStatus(False, f"PyQGIS is not importable ({exc}).")
    if QgsApplication.instance() is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QgsApplication([], False)
        app.initQgis()
        _state["app"] = app  # keep a reference: the application dies with its last Python reference
    try:
        _init_processing()
    except Exception as exc:  # noqa: BLE001 - any failure here means Processing is unusable
        return QgisStatus(False, f"QGIS Processing could not start ({exc}).")
    return QgisStatus(True, version=Qgis.QGIS_VERSION)


def _init_processing() -> None:
    from qgis.core import QgsApplication

    registry = QgsApplication.processingRegistry()
    if registry.providerById("native") is None:
        from qgis.analysis import QgsNativeAlgorithms

        registry.addProvider(QgsNativeAlgorithms())
    if registry.providerById("qgis") is not None and registry.providerById("gdal") is not None:
        return
    try:
        import processing  # noqa: F401 - already on the path inside QGIS
    except ImportError:
        plugins = Path(QgsApplication.pkgDataPath()) / "python" / "plugins"
        for candidate in (plugins, Path("/usr/share/qgis/python/plugins")):
            if candidate.is_dir() and str(candidate) not in sys.path:
                sys.path.append(str(candidate))
    from processing.core.Processing import Processing

    Processing.initialize()
