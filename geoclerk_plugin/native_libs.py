"""Load pip wheels' bundled native libraries (PROJ, GEOS, GDAL) isolated from the copies QGIS itself links."""

from __future__ import annotations

import importlib
import os
import sys

# Wheels of these packages bundle their own libproj/libgeos/libgdal. Inside the QGIS binary (or
# qgis_process) the system libraries are already in the global symbol scope, so the bundled ones
# would bind to their symbols: CRS lookups misbehave and PROJ's static destructors free memory
# twice at exit ("free(): invalid pointer", exit status 134). RTLD_DEEPBIND makes each bundled
# library prefer its own symbols.
WHEELS_WITH_NATIVE_LIBS = ("pyproj", "shapely", "pyogrio")


def isolate_wheel_libraries(modules=WHEELS_WITH_NATIVE_LIBS) -> list[str]:
    """Import the modules not yet imported with RTLD_DEEPBIND (Linux only); returns those imported now."""
    deepbind = getattr(os, "RTLD_DEEPBIND", None)
    if deepbind is None:
        return []
    pending = [m for m in modules if m not in sys.modules]
    if not pending:
        return []
    loaded = []
    previous = sys.getdlopenflags()
    sys.setdlopenflags(os.RTLD_NOW | os.RTLD_LOCAL | deepbind)
    try:
        for name in pending:
            try:
                importlib.import_module(name)
            except ImportError:
                continue  # reported by the dependency check
            loaded.append(name)
    finally:
        sys.setdlopenflags(previous)
    return loaded
