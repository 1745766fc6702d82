"""Scenario builders for the Processing-only tools (jobs the GeoPandas half cannot do), and the exclusion list."""

from __future__ import annotations

from .layers import ANY, LINE, POINT, POLY

# Processing tools never used as labels, because the same job is labelled with its GeoPandas tool
# (CATALOG.md: "The router labels such requests with the GeoPandas name"), with the labelled tool and
# the constant params the job implies. Every other registered tool must appear in the corpus.
LABELLED_AS: dict[str, tuple[str, dict]] = {
    "qgis_buffer": ("buffer", {}),
    "qgis_multi_ring_buffer": ("buffer", {}),
    "qgis_clip": ("clip", {}),
    "qgis_intersection": ("overlay", {"how": "intersection"}),
    "qgis_difference": ("overlay", {"how": "difference"}),
    "qgis_union": ("overlay", {"how": "union"}),
    "qgis_symmetrical_difference": ("overlay", {"how": "symmetric_difference"}),
    "qgis_dissolve": ("dissolve", {}),
    "qgis_extract_by_attribute": ("filter_by_expression", {}),  # every attribute condition is an expression
    "qgis_extract_by_expression": ("filter_by_expression", {}),
    "qgis_extract_within_distance": ("within_distance", {}),
    "qgis_join_by_location": ("spatial_join", {}),
    "qgis_join_by_field": ("join_table", {}),
    "qgis_count_points_in_polygon": ("count_points_in_polygons", {}),
    "qgis_field_calculator": ("add_field", {}),
    "qgis_reproject": ("reproject", {}),
    "qgis_centroids": ("centroids", {}),
    "qgis_point_on_surface": ("centroids", {"method": "representative_point"}),
    "qgis_minimum_bounding_geometry": ("bounding_geometry", {}),
    "qgis_voronoi": ("voronoi", {}),
    "qgis_kmeans": ("cluster_points", {"method": "kmeans"}),
    "qgis_dbscan": ("cluster_points", {"method": "dbscan"}),
    "qgis_distance_matrix": ("distance_matrix", {}),
    "qgis_polygons_to_lines": ("to_lines", {}),
    "qgis_lines_to_polygons": ("lines_to_polygons", {}),
    "qgis_extract_vertices": ("vertices_to_points", {}),
    "qgis_split_with_lines": ("split_polygons_by_lines", {}),
    "qgis_add_xy_fields": ("add_xy", {}),
    "qgis_statistics_by_categories": ("group_by", {}),
    # the GeoPandas twin of QGIS's zonal statistics (GeoPandas runs it where QGIS is absent, or for another band)
    "zonal_statistics": ("qgis_zonal_statistics", {}),
}
EXCLUDED = {
    name: f"same job as {tool}" + "".join(f" {k}={v}" for k, v in extra.items())
    for name, (tool, extra) in LABELLED_AS.items()
}

NETWORKS = ["roads", "bike_lanes", "railways"]
START_END = [
    ([13.4, 52.52], [13.45, 52.5]),
    ([2.35, 48.86], [2.29, 48.87]),
    ([-0.12, 51.5], [-0.08, 51.52]),
    ([389000, 5820000], [392500, 5818200]),
    ([116.4, 39.91], [116.32, 39.99]),
]


def _coords(v) -> str:
    return f"{v[0]}, {v[1]}"


def b_one(geoms, archetypes=None):
    def build(b):
        b.layer(geoms=geoms, archetypes=archetypes)

    return build


def b_raster_only(key="dem"):
    def build(b):
        b.raster(key=key)

    return build


def b_extract_location(b):
    b.layer()
    b.layer("reference", "layer2", geoms=POLY)


def b_join_nearest_max(b):
    b.layer(geoms=POINT)
    b.layer("target", "layer2", geoms=POINT)
    b.distance("max_distance", "dist")


PLACES = {  # five origins, then destinations
    "en": [
        "the station",
        "the town hall",
        "my house",
        "the fire station",
        "the depot",
        "the airport",
        "the school",
        "the harbour",
        "the university",
        "the hospital",
    ],
    "zh": ["火车站", "市政府", "我家", "消防站", "仓库", "机场", "学校", "港口", "大学", "医院"],
    "de": [
        "dem Bahnhof",
        "dem Rathaus",
        "meiner Wohnung",
        "der Feuerwache",
        "dem Depot",
        "zum Flughafen",
        "zur Schule",
        "zum Hafen",
        "zur Universität",
        "zum Krankenhaus",
    ],
}


def b_shortest(b):
    b.layer(archetypes=NETWORKS)
    start, end = b.rng.choice(START_END)
    b.text("start", "start", start, _coords(start))
    b.text("end", "end", end, _coords(end))
    b.text(None, "place1", b.rng.choice(PLACES[b.lang][:5]))
    b.text(None, "place2", b.rng.choice(PLACES[b.lang][5:]))


def b_service(b):
    b.layer(archetypes=NETWORKS)
    start, _ = b.rng.choice(START_END)
    b.text("start", "start", start, _coords(start))
    b.distance()
    b.text(None, "place1", b.rng.choice(PLACES[b.lang][:5]))


def b_grid(b):
    b.layer(geoms=POLY, archetypes=["study_area", "districts", "countries", "parks", "flood_zones"])
    b.distance("spacing", "dist")


def b_random_points(b):
    b.layer(geoms=POLY)
    b.integer("count", "n", (5, 10, 20, 50, 100, 200, 500))
    b.distance("min_distance", "dist", small=True)


def b_merge(b):
    first = b.layer(None, "layer", archetypes=["roads", "rivers", "parcels", "schools", "buildings", "districts"])
    second = b.layer(None, "layer2", geoms=(first.geometry_type,))
    # the second layer is another piece of the same kind of data
    second.archetype, second.nouns, second.fields = first.archetype, first.nouns, list(first.fields)
    second.name = b.rng.choice([first.name + "_east", first.name + "_2", "new_" + first.name, first.name + "_b"])
    from .phrases import layer_mention

    b.slots["layer2"] = second.name if b.rng.random() < 0.8 else layer_mention(b.rng, b.lang, second)
    b.slots["layer"] = first.name
    b.pmap["layers"] = (("layer", "layer2"), [first.name, second.name])
    b.layer_params["layers"] = "layer"


def b_basic_stats(b):
    lyr = b.layer(numeric=True)
    b.field("field", lyr, want="numeric")


def b_heatmap(b):
    lyr = b.layer(geoms=POINT)
    b.distance("radius", "dist")
    b.distance("pixel_size", "px", small=True)
    nums = [f for f in lyr.fields if f.numeric and f.meaning != "fid"]
    if nums:
        b.field("weight_field", lyr, f=b.rng.choice(nums))


def b_zonal(b):
    b.layer(geoms=POLY)
    b.raster()


def b_sample(b):
    b.layer(geoms=POINT)
    b.raster()


def b_contours(b):
    b.raster(key="dem")
    v = b.rng.choice([1, 2, 5, 10, 20, 25, 50, 100])
    unit = {"en": ["{} m", "{}m", "{} metres", "{} meter"], "zh": ["{}米", "{} 米"], "de": ["{} m", "{} Meter"]}[b.lang]
    b.text("interval", "iv", v, b.rng.choice(unit).format(v))


def b_hillshade(b):
    b.raster(key="dem")
    v = b.rng.choice([315, 300, 270, 225, 180, 45])
    b.text("azimuth", "az", v)


def b_rasterize(b):
    lyr = b.layer(geoms=POLY, numeric=True)
    b.distance("pixel_size", "px", small=True)
    b.field("field", lyr, want="numeric")


THRESHOLDS = {"dem": [100, 250, 500, 1000], "ndvi": [0.2, 0.3, 0.5], "temperature": [25, 30, 35]}
CUTS = {
    "dem": [[0, 500, 1000, 3000], [0, 100, 200, 400]],
    "ndvi": [[-1, 0, 0.3, 1], [-1, 0.2, 0.5, 1]],
    "temperature": [[0, 10, 20, 40], [-10, 0, 15, 30]],
}


def _de(v) -> str:
    """A number as Germans write it (decimal comma)."""
    return str(v).replace(".", ",")


def b_raster_calc(b):
    key = b.rng.choice(["dem", "ndvi", "temperature"])
    r = b.raster(key=key)
    ref = f'"{r.name}@1"'
    op = b.rng.choice(["gt", "mul", "ft"] if key == "dem" else ["gt", "mul"])
    if op == "gt":
        v = b.rng.choice(THRESHOLDS[key])
        text = {"en": f"above {v}", "zh": f"大于{v}", "de": f"über {_de(v)}"}[b.lang]
        b.text("expression", "calc", f"{ref} > {v}", text)
    elif op == "mul":
        v = b.rng.choice([2, 10, 100, 0.1])
        text = {"en": f"multiplied by {v}", "zh": f"乘以{v}", "de": f"mal {_de(v)}"}[b.lang]
        b.text("expression", "calc", f"{ref} * {v}", text)
    else:
        text = {"en": "converted from feet to metres", "zh": "从英尺换算成米", "de": "von Fuß in Meter umgerechnet"}[
            b.lang
        ]
        b.text("expression", "calc", f"{ref} * 0.3048", text)
    b.pmap["raster"] = ("raster", r.name)


def b_reclass(b):
    key = b.rng.choice(["dem", "ndvi", "temperature"])
    b.raster(key=key)
    cuts = b.rng.choice(CUTS[key])
    table, parts = [], []
    for i in range(3):
        table += [cuts[i], cuts[i + 1], i + 1]
        parts.append(
            {
                "en": f"{cuts[i]}-{cuts[i + 1]} to {i + 1}",
                "zh": f"{cuts[i]}-{cuts[i + 1]} 为 {i + 1}",
                "de": f"{_de(cuts[i])} bis {_de(cuts[i + 1])} -> {i + 1}",
            }[b.lang]
        )
    b.text("table", "classes", table, ", ".join(parts))


def b_aggregate(b):
    lyr = b.layer(geoms=POLY, archetypes=["parcels", "buildings", "landcover", "countries"])
    cat = b.pick_field(lyr, "category")
    b.field("by", lyr, slot="by", f=cat)
    nums = [f for f in lyr.fields if f.numeric and f.meaning != "fid"]
    b.field("field", lyr, f=b.rng.choice(nums))
    from .tools_geojson import AGG

    agg = b.rng.choice(["sum", "mean", "max", "min", "sum"])
    b.text("agg", "agg", agg, b.rng.choice(AGG[b.lang][agg]))


PROCESSING_TOOLS = {
    "qgis_extract_by_location": (b_extract_location, ("layer", "reference")),
    "qgis_join_by_nearest": (b_join_nearest_max, ("layer", "target", "max_distance")),
    "qgis_convex_hull": (b_one(POLY + LINE), ("layer",)),
    "qgis_oriented_bounding_box": (b_one(POLY), ("layer",)),
    "qgis_delaunay": (b_one(POINT), ("layer",)),
    "qgis_nearest_neighbour_analysis": (b_one(POINT), ("layer",)),
    "qgis_shortest_path": (b_shortest, ("layer", "start", "end")),
    "qgis_service_area": (b_service, ("layer", "start", "distance")),
    "qgis_create_grid": (b_grid, ("spacing",)),
    "qgis_random_points_in_polygons": (b_random_points, ("layer", "count")),
    "qgis_fix_geometries": (b_one(POLY + LINE), ("layer",)),
    "qgis_merge_layers": (b_merge, ("layers",)),
    "qgis_aggregate": (b_aggregate, ("layer", "by")),
    "qgis_basic_statistics": (b_basic_stats, ("layer", "field")),
    "qgis_heatmap": (b_heatmap, ("layer", "radius", "pixel_size")),
    "qgis_zonal_statistics": (b_zonal, ("layer", "raster")),
    "qgis_sample_raster": (b_sample, ("layer", "raster")),
    "qgis_contours": (b_contours, ("raster", "interval")),
    "qgis_slope": (b_raster_only(), ("raster",)),
    "qgis_aspect": (b_raster_only(), ("raster",)),
    "qgis_hillshade": (b_hillshade, ("raster",)),
    "qgis_rasterize": (b_rasterize, ("layer", "pixel_size")),
    "qgis_polygonize": (b_raster_only("landcover_raster"), ("raster",)),
    "qgis_raster_calculator": (b_raster_calc, ("expression",)),
    "qgis_reclassify_by_table": (b_reclass, ("raster", "table")),
}
ANY_GEOMS = ANY
