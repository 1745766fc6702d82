"""The product was called GeoAgent before GeoClerk. What users set under the old name keeps working for a release:
environment variables (GEOAGENT_* → GEOCLERK_*), plugin settings (GeoAgent/ → GeoClerk/, see the plugin's
settings.py) and the folder the plugin installed packages into (geoagent_libs). No qgis here."""

from __future__ import annotations

import os

OLD_ENV_PREFIX = "GEOAGENT_"
ENV_PREFIX = "GEOCLERK_"
OLD_SETTINGS_PREFIX = "GeoAgent/"
OLD_LIBS = "geoagent_libs"


def adopt_old_environment(environ=os.environ) -> list[str]:
    """Copy each GEOAGENT_X the user set to GEOCLERK_X when that is not set; the names adopted."""
    adopted = []
    for name in list(environ):
        if name.startswith(OLD_ENV_PREFIX):
            new = ENV_PREFIX + name[len(OLD_ENV_PREFIX) :]
            if new not in environ:
                environ[new] = environ[name]
                adopted.append(new)
    return adopted
