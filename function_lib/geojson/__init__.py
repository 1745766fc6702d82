"""The GeoPandas half of the function library: every module's (spec, implementation) pairs in one list."""

from . import conversion, imagery, mapping, measure, overlay_ops, proximity, query, shapes

TOOLS = (
    conversion.TOOLS + query.TOOLS + measure.TOOLS + mapping.TOOLS + overlay_ops.TOOLS + proximity.TOOLS + shapes.TOOLS
    + imagery.TOOLS
)
