"""The "GeoAgent" Processing provider, holding the Ask GeoAgent algorithm."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from .algorithm import AskGeoAgentAlgorithm

ICON = Path(__file__).resolve().parent / "icons" / "geoagent.svg"


class GeoAgentProvider(QgsProcessingProvider):
    def id(self):
        return "geoagent"

    def name(self):
        return "GeoAgent"

    def longName(self):  # noqa: N802
        return "GeoAgent"

    def icon(self):
        return QIcon(str(ICON))

    def loadAlgorithms(self):  # noqa: N802
        self.addAlgorithm(AskGeoAgentAlgorithm())
