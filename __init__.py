"""GeoAgent QGIS plugin entry point: a lazy classFactory, so importing the package costs nothing."""


def classFactory(iface):  # noqa: N802 - QGIS looks the factory up by this exact name
    """Return the plugin instance; QGIS calls this once when the plugin is enabled."""
    from .geoagent_plugin.plugin import GeoAgentPlugin

    return GeoAgentPlugin(iface)
