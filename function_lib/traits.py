"""What each tool does to its input, declared once: the request reader and the result checks read these.

Traits:
- per_feature: one output feature per input feature (unless a parameter in AGGREGATING_PARAMS says otherwise)
- per_group: one output row per value of a grouping field, or per polygon of a second layer
- aggregates: the whole layer becomes one figure, one feature or one table
- keeps_subset: outputs a subset of the input features, unchanged
- measures: adds measured values (area, length, distance)
- writes_format: writes the layer in a chosen file format
- makes_image: draws a picture
- reprojects: changes the CRS
- two_layers: reads two layers whose roles must be marked in the request
- statistic: its job is a statistic, so statistic words (sum, mean, total) are its own vocabulary
- reports_totals: reports the layer's total besides each feature's value ('total length' is its own answer)
- per_polygon: one output row per polygon of its polygon layer, whatever the parameters
- subtracts: keeps what one layer has and the other lacks ('A minus B', 'except where')
- orders: sorts the features by a field
- dissolves / merges_layers: merges features (by a field) / merges layers into one
- prefers_numbers: its field is a quantity (a numeric field is chosen over a text one of equal fit)
- dated_pair: its first two layer parameters are one place at an earlier and a later date (before, after): their
  order comes from the dates in the layers' names, else from the request naming both; never from load order

ONE_OF: tools that need one of several optional parameters; NEEDS_WITH: a parameter that needs another.
TABLE_PARAMS: the layer parameters that also take a table without geometry (a CSV, a sheet, a DBF); every other
layer parameter needs a layer. KEY_PAIRS: a tool's two key fields that match rows of two inputs (an attribute join).
"""

from __future__ import annotations

TRAITS: dict[str, frozenset[str]] = {}


def _declare(traits: str, *tools: str) -> None:
    for tool in tools:
        TRAITS[tool] = TRAITS.get(tool, frozenset()) | frozenset(traits.split())


_declare(
    "per_feature",
    "buffer", "qgis_buffer", "qgis_multi_ring_buffer", "centroids", "qgis_centroids", "qgis_point_on_surface",
    "geometry_area", "geometry_length", "reproject", "qgis_reproject", "qgis_convex_hull",
    "qgis_oriented_bounding_box", "main_direction", "add_xy", "qgis_add_xy_fields", "add_field",
    "qgis_field_calculator", "to_lines", "qgis_polygons_to_lines", "count_points_in_polygons",
    "qgis_count_points_in_polygon", "qgis_zonal_statistics", "zonal_statistics", "nearest_point_on_line",
    "perpendicular_distance",
    "join_nearest", "qgis_join_by_nearest", "spatial_join", "qgis_join_by_location", "join_table",
    "qgis_join_by_field", "qgis_sample_raster", "nearest_distance_summary", "qgis_fix_geometries", "rename_field",
    "lines_to_polygons", "qgis_lines_to_polygons", "voronoi", "qgis_voronoi", "qgis_random_points_in_polygons",
    "xy_to_line", "sort_by_field", "save_result", "convert_format",
)  # fmt: skip
_declare(
    "per_group",
    "group_by", "count_features", "dissolve", "qgis_dissolve", "qgis_aggregate", "qgis_statistics_by_categories",
    "bounding_geometry", "qgis_minimum_bounding_geometry", "count_points_in_polygons", "qgis_count_points_in_polygon",
    "qgis_zonal_statistics", "zonal_statistics",
)  # fmt: skip
_declare(
    "aggregates",
    "dissolve", "qgis_dissolve", "count_features", "qgis_basic_statistics", "qgis_aggregate", "group_by",
    "qgis_statistics_by_categories", "connect_closest_pair", "qgis_nearest_neighbour_analysis", "qgis_merge_layers",
    "bounding_geometry", "qgis_minimum_bounding_geometry", "qgis_heatmap", "qgis_delaunay", "distance_matrix",
    "qgis_distance_matrix",
)  # fmt: skip
_declare(
    "keeps_subset",
    "filter_by_expression", "select_rows", "qgis_extract_by_attribute", "qgis_extract_by_expression",
    "qgis_extract_by_location", "qgis_extract_within_distance", "within_distance",
)  # fmt: skip
_declare(
    "measures",
    "geometry_area", "geometry_length", "distance_matrix", "qgis_distance_matrix", "nearest_distance_summary",
    "perpendicular_distance", "nearest_point_on_line", "join_nearest", "qgis_join_by_nearest",
)  # fmt: skip
_declare("writes_format", "save_result", "convert_format")
_declare("makes_image", "plot_map", "visualize_layer")
_declare("reprojects", "reproject", "qgis_reproject")
_declare(
    "two_layers",
    "clip", "qgis_clip", "overlay", "qgis_difference", "qgis_intersection", "qgis_union", "qgis_symmetrical_difference",
    "split_polygons_by_lines", "qgis_split_with_lines", "spatial_join", "qgis_join_by_location", "within_distance",
    "qgis_extract_within_distance", "qgis_extract_by_location", "count_points_in_polygons",
    "qgis_count_points_in_polygon", "join_nearest", "qgis_join_by_nearest", "nearest_point_on_line",
    "perpendicular_distance", "qgis_zonal_statistics", "zonal_statistics", "qgis_sample_raster", "raster_change",
)  # fmt: skip
_declare(
    "statistic",
    "group_by", "qgis_basic_statistics", "qgis_aggregate", "qgis_zonal_statistics", "nearest_distance_summary",
    "count_features", "count_points_in_polygons", "qgis_heatmap", "qgis_nearest_neighbour_analysis",
    "distance_matrix", "plot_map", "qgis_sample_raster", "zonal_statistics",
)  # fmt: skip
_declare("reports_totals", "geometry_length", "geometry_area")
_declare(
    "per_polygon", "count_points_in_polygons", "qgis_count_points_in_polygon", "qgis_zonal_statistics",
    "zonal_statistics",
)  # fmt: skip
_declare("subtracts", "qgis_difference")
_declare("orders", "sort_by_field")
_declare("dissolves", "dissolve", "qgis_aggregate")
_declare("merges_layers", "qgis_merge_layers")
_declare("prefers_numbers", "qgis_basic_statistics", "sort_by_field")
_declare("dated_pair", "raster_change")

# The statistics a statistic tool gives when no parameter chooses them (consume.py: a statistic word the tool
# does not give, 'median elevation per parcel' from zonal statistics' count/sum/mean/min/max, is a dropped step).
# A tool not listed gives whatever statistic its words ask for (a parameter, or every common one).
GIVES_STATISTICS = {
    "qgis_zonal_statistics": frozenset({"total", "sum", "mean", "minimum", "maximum"}),
    "zonal_statistics": frozenset({"total", "sum", "mean", "minimum", "maximum"}),  # its GeoPandas twin (+ stdev)
    "count_points_in_polygons": frozenset(),
    "qgis_count_points_in_polygon": frozenset(),
    "count_features": frozenset(),
    "qgis_sample_raster": frozenset(),
}


# select_rows keeps rows by a value or the top N of a field; a download needs a URL or a bounding box.
# A normalized difference needs a named index or a band pair.
ONE_OF = {
    "select_rows": ("value", "top_n"),
    "download_geojson": ("url", "bbox"),
    "normalized_difference": ("index", "band_a"),
}
NEEDS_WITH = {"select_rows": {"top_n": "field"}, "normalized_difference": {"band_a": "band_b", "band_b": "band_a"}}

# Parameters that turn a per-feature tool into a whole-layer one: (name, value that aggregates).
AGGREGATING_PARAMS = {
    "buffer": ("dissolve", True),
    "qgis_buffer": ("dissolve", True),
    "centroids": ("whole_layer", True),
    "qgis_centroids": ("whole_layer", True),
}
# Grouping parameters: set, the tool gives one row per group; unset, one for the whole layer.
GROUP_PARAMS = {"by", "fields", "group_by", "category_field"}


def traits_of(tool: str) -> frozenset[str]:
    return TRAITS.get(tool, frozenset())


def one_per_feature(tool: str, params: dict) -> bool:
    """Will the tool, with these parameters, give one output feature per input feature?"""
    if "per_feature" not in traits_of(tool):
        return False
    agg = AGGREGATING_PARAMS.get(tool)
    return not (agg and params.get(agg[0]) == agg[1])


def one_per_group(tool: str, params: dict) -> bool:
    """Will the tool give one row per group of a field, or per polygon of a second layer?"""
    if "per_group" not in traits_of(tool):
        return False
    if "per_polygon" in traits_of(tool):
        return True
    return any(params.get(name) for name in GROUP_PARAMS)


TABLE_PARAMS: dict[str, tuple[str, ...]] = {
    "join_table": ("table",),
    "qgis_join_by_field": ("table",),
    "xy_to_line": ("layer",),
    "group_by": ("layer",),
    "flatten_fields": ("layer",),
}
KEY_PAIRS: dict[str, tuple[str, str]] = {
    "join_table": ("field", "table_field"),
    "qgis_join_by_field": ("field", "table_field"),
}


def table_params(tool: str) -> tuple[str, ...]:
    """The layer parameters of `tool` that accept a table without geometry."""
    return TABLE_PARAMS.get(tool, ())
