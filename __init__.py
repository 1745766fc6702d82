"""GeoClerk QGIS plugin entry point: a lazy classFactory, so importing the package costs nothing."""

from .compat import adopt_old_environment

adopt_old_environment()  # GEOAGENT_* variables from before the rename still count


def classFactory(iface):  # noqa: N802 - QGIS looks the factory up by this exact name
    """Return the plugin instance; QGIS calls this once when the plugin is enabled."""
    from .geoclerk_plugin.plugin import GeoClerkPlugin

    return GeoClerkPlugin(iface)
