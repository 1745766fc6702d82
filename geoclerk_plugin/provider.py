"""The "GeoClerk" Processing provider, holding the Ask GeoClerk algorithm."""

from __future__ import annotations

from pathlib import Path

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtGui import QIcon

from .algorithm import AskGeoClerkAlgorithm

ICON = Path(__file__).resolve().parent / "icons" / "geoclerk.svg"


class GeoClerkProvider(QgsProcessingProvider):
    def id(self):
        return "geoclerk"

    def name(self):
        return "GeoClerk"

    def longName(self):  # noqa: N802
        return "GeoClerk"

    def icon(self):
        return QIcon(str(ICON))

    def loadAlgorithms(self):  # noqa: N802
        self.addAlgorithm(AskGeoClerkAlgorithm())
