"""GeoClerk QGIS plugin entry point: a lazy classFactory, so importing the package costs nothing."""

# pytest imports this file on its own, as '__init__', when the checkout's folder is no Python name ('geoclerk-main'):
# there is no package then, and nothing to adopt. As a package (QGIS, the CLI, the tests) it runs.
if __package__:
    from .compat import adopt_old_environment

    adopt_old_environment()  # GEOAGENT_* variables from before the rename still count


def classFactory(iface):  # noqa: N802 - QGIS looks the factory up by this exact name
    """Return the plugin instance; QGIS calls this once when the plugin is enabled."""
    from .geoclerk_plugin.plugin import GeoClerkPlugin

    return GeoClerkPlugin(iface)
