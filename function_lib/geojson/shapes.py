"""GeoPandas shape tools: centroids, Voronoi, bounding geometry, direction, clusters, XY lines."""

from __future__ import annotations

from ._base import tool_list

TOOLS, tool = tool_list()
