"""English phrasings built differently: passive voice, noun first, context first, goal first, questions."""

FUNCTION = {
    "buffer": [
        "{layer} should be buffered by {dist}",
        "using {layer}, make buffers of {dist}",
        "{dist} buffer of {layer}",
        "for my report I need everything within {dist} of {layer} shaded as a zone",
        "can the {layer} get a {dist} buffer?",
        "zones of {dist} around every feature of {layer}",
        ("{layer} buffered {dist}, all merged together", {"dissolve": True}),
    ],
    "clip": [
        "can {layer} be clipped to {layer2}?",
        "using {layer2} as the boundary, clip {layer}",
        "{layer} clipped to {layer2}",
        "I only want the bits of {layer} that are inside {layer2}",
    ],
    "filter_by_expression": [
        "which of the {layer} have {cond}?",
        "{layer} with {cond} only",
        "are there any {layer} with {cond}? select them",
        "from {layer}, take the ones with {cond}",
        "{cond}: select those {layer}",
    ],
    "reproject": [
        "{layer} in {crs}, please",
        "could {layer} be transformed to {crs}?",
        "using {crs}, reproject {layer}",
        "I want {layer} to use the {crs} projection",
    ],
    "within_distance": [
        "are any {layer} within {dist} of {layer2}? select them",
        "using {layer2}, find {layer} in {dist}",
        "{layer} within {dist} walking distance of {layer2} (straight line)",
    ],
    "count_points_in_polygons": [
        "using {polys}, count the {points}",
        "{points} per {polys}, counted",
        "number of {points} in every {polys} polygon",
    ],
    "spatial_join": [
        "give each of {layer} the attributes of the {layer2} it overlaps",
        "{layer} + {layer2} joined spatially",
    ],
    "dissolve": ["{layer} dissolved on {field}", "one polygon per {field} from {layer}"],
    "geometry_area": [
        "{layer} areas",
        "how much area does each of {layer} cover?",
        "for each polygon in {layer}, the area",
    ],
    "geometry_length": [
        "{layer} lengths",
        "how long are the {layer}?",
        "for each line in {layer}, the length in metres",
    ],
    "centroids": ["{layer} as centroid points", "replace the polygons of {layer} by their centroids"],
    "group_by": [
        "using {layer}, {agg} of {field} per {by}",
        "{field} per {by}, {agg}",
        ("{layer} counts by {by}", {"agg": "count"}),
    ],
    "select_rows": [
        ("top {n} {layer} ranked by {field}", {"ascending": False}),
        ("{n} {layer} with the smallest {field}", {"ascending": True}),
        ("the {n} biggest {layer} by {field}, please", {"ascending": False}),
    ],
    "sort_by_field": [("{layer} sorted by {field}, largest first", {"descending": True}), "{layer} in {field} order"],
    "count_features": ["number of {layer}?", "{layer}: how many?", "count of {layer} grouped by {field}"],
    "save_result": ["{layer} to {fmt}", "can {layer} be saved as {fmt}?", "write {layer} to a {fmt}"],
    "convert_format": ["{layer} converted to {fmt}", "format conversion of {layer} to {fmt}"],
    "plot_map": [
        ("{layer} choropleth on {field}", {"kind": "choropleth"}),
        ("histogram: {field}", {"kind": "histogram"}),
        ("a bar plot of {field} from {layer}", {"kind": "bar"}),
    ],
    "visualize_layer": ["{layer} on the map, please", "colour {layer} by {field} on the map"],
    "join_table": ["{table} joined to {layer} on {field}", "using {field}, join {table} onto {layer}"],
    "overlay": [
        ("{layer} intersected with {layer2}", {"how": "intersection"}),
        ("{layer} minus {layer2}", {"how": "difference"}),
        ("{layer} unioned with {layer2}", {"how": "union"}),
    ],
    "voronoi": ["{layer} voronoi", "thiessen polygons, please, for {layer}"],
    "cluster_points": [
        ("{layer} in {n} k-means clusters", {"method": "kmeans"}),
        ("DBSCAN, eps {dist}, on {layer}", {"method": "dbscan"}),
    ],
    "join_nearest": [
        "{layer} joined to their nearest {layer2}",
        "using {layer2}, find the nearest one for every {layer}",
    ],
    "distance_matrix": ["{layer} to {layer2} distance matrix", "distances from {layer} to all {layer2}"],
    "add_xy": ["{layer} with x/y columns", "x and y of {layer} as fields in {crs}"],
    "add_field": ["{layer} needs a column {name} equal to {calc}", "new field: {name} = {calc}"],
    "rename_field": ["{field} → {name} in {layer}", "field rename on {layer}: {field} becomes {name}"],
    "export_coordinates": ["{layer} coordinates to csv", "coordinate list of {layer}"],
    "qgis_heatmap": [
        "{layer} heatmap, {dist} radius, {px} pixels",
        "where are {layer} densest? kernel density with {dist} radius and {px} cells",
    ],
    "qgis_zonal_statistics": ["{raster} zonal stats by {layer}", "using {layer} as zones, summarise {raster}"],
    "qgis_slope": ["{raster} slope", "slope in degrees for {raster}"],
    "qgis_contours": ["{raster} contours at {iv}", "{iv} contours please"],
    "qgis_extract_by_location": [
        ("{layer} inside {layer2} only", {"predicate": "within"}),
        ("{layer} not touching {layer2} at all", {"predicate": "disjoint"}),
    ],
    "qgis_fix_geometries": ["{layer} geometry repair", "invalid geometries in {layer}: fix"],
    "qgis_basic_statistics": ["{field} stats", "{layer} {field}: min, max, mean, std"],
    "qgis_create_grid": [
        ("{dist} hexagons over {layer}", {"type": "hexagon"}),
        ("{dist} fishnet for {layer}", {"type": "rectangle"}),
    ],
    "qgis_merge_layers": ["{layer} and {layer2} as one layer", "{layer} + {layer2} merged"],
    "qgis_shortest_path": [
        "path from {start} to {end} on {layer}, shortest",
        "{layer}: shortest route {start} → {end}",
    ],
}

# The wording names the field by implication: "most populous" ranks by the population field.
FUNCTION["select_rows"] += [
    ("the {n} most populous {layer}", {"field": "@population", "ascending": False}),
    ("which {n} {layer} have the fewest people?", {"field": "@population", "ascending": True}),
    ("the {n} tallest {layer}", {"field": "@height", "ascending": False}),
    ("show me the {n} busiest {layer}", {"field": "@riders", "ascending": False}),
    ("the {n} oldest {layer}", {"field": "@year", "ascending": True}),
    ("the {n} deepest {layer}", {"field": "@depth", "ascending": False}),
    ("the {n} richest {layer}", {"field": "@income", "ascending": False}),
    ("find the {n} most expensive {layer}", {"field": "@value", "ascending": False}),
]
FUNCTION["sort_by_field"] += [
    ("sort {layer} from most to least populous", {"field": "@population", "descending": True}),
    ("order {layer} from oldest to newest", {"field": "@year", "descending": False}),
]
FUNCTION["reproject"] += [
    ("convert {layer} to lat/long", {"crs": "EPSG:4326"}),
    "reproject {layer} to UTM",
    "put {layer} in a metric CRS",
]
FUNCTION["buffer"] += ["a {dist} corridor along {layer}", "draw a {dist} radius around every one of {layer}"]
FUNCTION["clip"] += [
    "cut out the part of {layer} that lies inside {layer2}",
    "subset {layer} by the boundary of {layer2}",
]
FUNCTION["geometry_length"] += ["how many km of {layer} are there? length per feature"]
FUNCTION["geometry_area"] += ["acreage of each of {layer}"]

# Questions one tool answers (its result carries the count or the statistic).
FUNCTION["within_distance"] += [
    "how many {layer} are within {dist} of {layer2}?",
    "are there {layer} closer than {dist} to {layer2}?",
]
FUNCTION["geometry_length"] += ["what is the length of each of the {layer}, and in total?"]
FUNCTION["qgis_basic_statistics"] += [
    "what's the average {field} of {layer}?",
    "what is the maximum {field} in {layer}?",
]
FUNCTION["select_rows"] += [
    ("which of the {layer} is the largest?", {"field": "@area", "top_n": 1, "ascending": False}),
    ("what is the smallest of the {layer} by area?", {"field": "@area", "top_n": 1, "ascending": True}),
    ("which of {layer} has the highest {field}?", {"top_n": 1, "ascending": False}),
]
FUNCTION["count_features"] += ["how many {layer} are there in total?", "is {layer} empty? count the features"]
FUNCTION["filter_by_expression"] += [
    "narrow {layer} down to {cond}",
    "isolate the {layer} with {cond}",
    "pick out {layer} having {cond}",
]
FUNCTION["buffer"] += ["surround each of {layer} with a {dist} zone", "pad {layer} by {dist}"]

# Synonyms and register: formal, casual, domain jargon.
for _tool, _templates in {
    "buffer": [
        "delineate a {dist} proximity zone around {layer}",
        "I'd like to see a {dist} halo around each of {layer}",
        "offset {layer} outwards by {dist}",
    ],
    "clip": ["extract {layer} within the {layer2} extent (clip)", "limit {layer} to the area of {layer2}"],
    "filter_by_expression": [
        "retain only {layer} where {cond}",
        "show just the {layer} that have {cond}",
        "apply a filter to {layer}: {cond}",
    ],
    "reproject": [
        "project {layer} on the fly to {crs} and save it",
        "switch the coordinate system of {layer} to {crs}",
    ],
    "within_distance": [
        "{layer} in the vicinity of {layer2} (max {dist})",
        "shortlist {layer} at most {dist} from {layer2}",
    ],
    "count_points_in_polygons": [
        "how dense are {points} per {polys}? give counts",
        "sum up how many {points} each {polys} polygon holds",
    ],
    "spatial_join": [
        "append {layer2} attributes to {layer} where they spatially match",
        "overlay join {layer} with {layer2}",
    ],
    "dissolve": ["generalise {layer} by merging shapes with the same {field}", "flatten {layer} into a single outline"],
    "geometry_area": ["surface of each of {layer}", "compute m² for each feature in {layer}"],
    "geometry_length": ["line length of every feature in {layer}", "measure how long each of {layer} is"],
    "centroids": ["reduce {layer} to centre points", "pin a point at the centre of each of {layer}"],
    "group_by": ["cross-tabulate {layer}: {agg} {field} for every {by}", "roll up {field} by {by} ({agg})"],
    "join_nearest": ["match every {layer} with the closest {layer2}", "pair each of {layer} with its nearest {layer2}"],
    "save_result": ["archive {layer} as {fmt}", "deliver {layer} as a {fmt} file"],
    "plot_map": [
        ("draw me a map of {layer} shaded by {field}", {"kind": "choropleth"}),
        ("chart {field} of {layer} as bars", {"kind": "bar"}),
    ],
    "count_features": ["tally up {layer}", "how many entries are in {layer}?"],
    "select_rows": [("shortlist the top {n} {layer} on {field}", {"ascending": False})],
    "sort_by_field": ["rank-order {layer} on {field}"],
    "qgis_heatmap": ["hot spots of {layer} as a smooth surface, {dist} kernel, {px} pixels"],
    "qgis_zonal_statistics": ["aggregate {raster} values over each of {layer}"],
    "qgis_extract_by_location": [("features of {layer} that lie wholly inside {layer2}", {"predicate": "within"})],
    "voronoi": ["nearest-facility regions for {layer} (Voronoi)"],
    "cluster_points": [("find {n} natural groupings in {layer} with k-means", {"method": "kmeans"})],
}.items():
    FUNCTION[_tool] += _templates
