"""The closed function library: GeoPandas operations and QGIS Processing specs in one registry."""


def load_registry():
    """A registry with every tool spec; GeoPandas tools bound, Processing tools bound by the QGIS adapter."""
    from .geojson import TOOLS
    from .processing_specs import PROCESSING_SPECS
    from .registry import Registry

    registry = Registry()
    for spec, impl in TOOLS:
        registry.register(spec, impl)
    for spec in PROCESSING_SPECS:
        registry.register(spec)
    return registry
