"""A second hand of English phrasings for every tool: questions, indirect requests, domain wording, terse notes."""

FUNCTION = {
    "download_geojson": ["get me {tag} data from OSM for {bbox}", "I'd like to import a GeoJSON from the web: {url}"],
    "read_vector": ["import {path}", "there's a file at {path}, load it please", "use the data in {path}"],
    "add_field": [
        "I need an extra attribute {name} on {layer} that equals {calc}",
        "populate a new field {name} with {calc}",
        "tag every feature of {layer} with {name} = '{val}'",
    ],
    "rename_field": ["the field {field} in {layer} should be called {name}", "rename attribute {field} → {name}"],
    "save_result": [
        "I'd like a {fmt} copy of {layer}",
        "output {layer} as {fmt}",
        "persist {layer} to a {fmt} named {fname}",
    ],
    "convert_format": ["switch {layer} over to {fmt}", "reformat {layer} as {fmt}"],
    "reproject": [
        "{layer} needs to be in {crs}",
        "my layer {layer} is in the wrong projection, make it {crs}",
        "re-project {layer} into the {crs} coordinate system",
        "align {layer} to {crs}",
    ],
    "visualize_layer": ["add {layer} to the map with colours by {field}", "I can't see {layer}, display it"],
    "interactive_edit": ["I need to correct a few attributes in {layer} manually", "edit mode for {layer}"],
    "group_by": [
        "what's the {agg} {field} for each {by} in {layer}?",
        "{layer}: {agg} of {field} grouped by {by}",
        ("tally {layer} per {by}", {"agg": "count"}),
        "per-{by} {agg} of {field}",
    ],
    "join_table": [
        "link {table} to {layer}, key {field} = {tfield}",
        "enrich {layer} with {table} via {field}",
    ],
    "count_features": [
        "how many {layer} do I have?",
        "give me a count of {layer} split by {field}",
        "feature count for {layer}",
    ],
    "count_points_in_polygons": [
        "for each of {polys}, how many {points} are inside?",
        "density of {points} per {polys} (count only)",
        "aggregate {points} into {polys} as counts",
    ],
    "select_rows": [
        ("list the {n} {layer} with the greatest {field}", {"ascending": False}),
        ("highest {n} {field} values in {layer}", {"ascending": False}),
    ],
    "filter_by_expression": [
        "I only care about {layer} where {cond}",
        "drop every feature of {layer} except those with {cond}",
        "make a new layer of {layer} with {cond}",
        "where {cond}, select from {layer}",
        "give me the subset of {layer} having {cond}",
    ],
    "sort_by_field": [
        ("which of {layer} has the biggest {field}? sort them", {"descending": True}),
        "put {layer} in order of {field}",
    ],
    "interactive_query": ["I want to explore {layer} feature by feature", "identify tool on {layer}"],
    "export_coordinates": [
        "save the coordinates of {layer} as a table",
        "what are the coordinates of each of {layer}? export them",
    ],
    "plot_map": [
        ("visualise {field} of {layer} as a bar chart", {"kind": "bar"}),
        ("make a thematic map of {field}", {"kind": "choropleth"}),
        ("produce a quick PNG map of {layer}", {"kind": "map"}),
        ("histogram for {field} please", {"kind": "histogram"}),
    ],
    "geometry_length": [
        "total length of each line of {layer}",
        "how many metres is every segment in {layer}?",
        "line length {layer}",
    ],
    "geometry_area": [
        "size of every polygon in {layer} in square metres",
        "add area in m2 to each of {layer}",
        "area {layer}",
    ],
    "add_xy": ["I need the coordinates of {layer} as attributes", "add easting/northing fields to {layer}"],
    "flatten_fields": [
        "flatten the nested fields of {layer}",
        "unnest the struct columns in {layer}",
        "expand the nested attributes of {layer} into plain columns",
        "{layer} has JSON structs in its fields, spread them into separate columns",
        "turn the nested names and categories of {layer} into normal fields",
    ],
    "clip": [
        "I only need the {layer} that fall inside {layer2}, cut them",
        "mask {layer} with {layer2}",
        "crop {layer} to {layer2}",
    ],
    "overlay": [
        ("overlap of {layer} and {layer2} as new polygons", {"how": "intersection"}),
        ("merge {layer} and {layer2} into one layer with all the pieces (union)", {"how": "union"}),
        ("take {layer2} out of {layer}", {"how": "difference"}),
        ("what parts of {layer} or {layer2} don't overlap?", {"how": "symmetric_difference"}),
    ],
    "buffer": [
        "how far do {dist} reach around {layer}? show as polygons",
        "{dist} around {layer}",
        "buffer zones, {dist}, {layer}",
        "generate buffers of {dist} for each feature in {layer}",
        "I need a {dist} setback around {layer}",
        ("create {n} rings, each {dist} wide, around {layer}", {}),
        ("a single dissolved {dist} buffer of {layer}", {"dissolve": True}),
    ],
    "within_distance": [
        "what {layer} are in {dist} of {layer2}?",
        "{layer} located less than {dist} from {layer2}",
        "filter {layer} to those within {dist} of {layer2}",
    ],
    "spatial_join": [
        "tag each of {layer} with the {layer2} it sits in",
        "location-based join of {layer2} onto {layer}",
        ("join {layer2} to {layer} with predicate within", {"predicate": "within"}),
        "which {layer2} is each of the {layer} in",
        "in which of {layer2} does each of {layer} lie?",
        "for every one of {layer}, the {layer2} it is in",
        "which {layer2} are the {layer} in? one row per feature",
    ],
    "dissolve": [
        "merge {layer} into one feature",
        "group the shapes of {layer} by {field} and merge them",
        "dissolve by {field}",
    ],
    "split_polygons_by_lines": [
        "break {layer} apart using {layer2}",
        "split the {layer} wherever a line from {layer2} crosses",
    ],
    "to_lines": ["{layer} outlines as lines", "boundary lines of {layer}"],
    "lines_to_polygons": ["polygonise the closed rings in {layer}", "fill the closed lines of {layer} to make areas"],
    "vertices_to_points": ["all vertices of {layer} as a point layer", "node points of {layer}"],
    "centroids": [
        "middle point of each of {layer}",
        "centre of each of {layer} as points",
        ("representative points of {layer}", {"method": "representative_point"}),
    ],
    "voronoi": ["proximity polygons around {layer}", "thiessen {layer}"],
    "bounding_geometry": [
        ("draw the convex hull around all {layer}", {"shape": "convex_hull"}),
        ("smallest enclosing circle of {layer} per {field}", {"shape": "circle"}),
        ("bounding box of each {field} group of {layer}", {"shape": "envelope"}),
    ],
    "cluster_points": [
        ("partition {layer} into {n} spatial clusters", {"method": "kmeans"}),
        ("detect dense groups of {layer}: neighbours within {dist}, min {m} points", {"method": "dbscan"}),
        ("spatial clustering of {layer} with kmeans", {"method": "kmeans"}),
    ],
    "main_direction": ["orientation of {layer}", "which way does each of {layer} point? angle in degrees"],
    "connect_closest_pair": [
        "what are the two nearest {layer}? draw a line between them",
        "closest two points of {layer}",
    ],
    "distance_matrix": ["OD distance matrix {layer} to {layer2}", "how far apart are all of the {layer}? full matrix"],
    "nearest_distance_summary": [
        "mean and max distance from {layer} to nearest {layer2}",
        "nearest-distance stats for {layer} grouped by {field}",
    ],
    "join_nearest": ["closest {layer2} to each {layer}, joined", "nearest-neighbour join of {layer} and {layer2}"],
    "nearest_point_on_line": [
        "closest point on {layer2} from {layer}",
        "where does each of {layer} meet {layer2} at the shortest distance?",
    ],
    "perpendicular_distance": ["distance of {layer} to the {layer2} line", "how close is each of {layer} to {layer2}?"],
    "xy_to_line": [
        "lines from coordinate columns {x1},{y1},{x2},{y2} of {layer}",
        "origin-destination lines from {layer}",
    ],
}

FUNCTION.update(
    {
        "qgis_extract_by_location": [
            ("grab the {layer} that sit within {layer2}", {"predicate": "within"}),
            ("{layer} intersecting {layer2}, as a new layer", {"predicate": "intersects"}),
        ],
        "qgis_join_by_nearest": ["nearest {layer2} to each of {layer}, ignoring anything further than {dist}"],
        "qgis_convex_hull": ["wrap each feature of {layer} in its own convex hull"],
        "qgis_oriented_bounding_box": ["rotated bounding rectangles for {layer}"],
        "qgis_delaunay": ["connect {layer} into a delaunay mesh"],
        "qgis_nearest_neighbour_analysis": [
            "test {layer} for clustering with the nearest neighbour index",
            "what's the nearest neighbour ratio of {layer}?",
        ],
        "qgis_shortest_path": [
            "how do I get from {start} to {end} on the {layer} network? shortest path",
            "least-distance path over {layer} between {start} and {end}",
        ],
        "qgis_service_area": [
            "reachable area from {start} within {dist} on the network {layer}",
            "catchment along {layer} of {dist} from {place1}",
        ],
        "qgis_create_grid": [
            ("cover {layer} with {dist} hexagons", {"type": "hexagon"}),
            ("a regular grid, cell size {dist}", {"type": "rectangle"}),
        ],
        "qgis_random_points_in_polygons": [
            "drop {n} random points into each of {layer}",
            "random sample of {n} points per polygon in {layer}",
        ],
        "qgis_fix_geometries": ["validate and repair {layer}", "my polygons in {layer} are broken, fix them"],
        "qgis_merge_layers": [
            "union the features of {layer} and {layer2} into one file (append)",
            "merge layers {layer} + {layer2}",
        ],
        "qgis_aggregate": ["dissolve {layer} by {by} keeping the {agg} {field}"],
        "qgis_basic_statistics": [
            "how is {field} distributed in {layer}? min/max/mean",
            "stats for the {field} column",
        ],
        "qgis_heatmap": [
            "hotspot surface (kernel density) of {layer}, {dist} radius, {px} cells",
            "heat map {layer} {dist} {px}",
        ],
        "qgis_zonal_statistics": [
            "for every polygon of {layer}, summarise {raster}",
            "{raster} statistics per {layer}",
        ],
        "qgis_sample_raster": ["attach {raster} values to {layer}", "point values from {raster} for {layer}"],
        "qgis_contours": ["isolines every {iv} from {raster}", "contour map of {raster} with {iv} spacing"],
        "qgis_slope": ["steepness map from {raster}", "slope raster for {raster} please"],
        "qgis_aspect": ["terrain aspect from {raster}", "compass direction of slopes in {raster}"],
        "qgis_hillshade": ["relief shading of {raster} with the sun at {az} degrees", "hillshade {raster}"],
        "qgis_rasterize": [
            "burn {layer} into a raster with {px} cells",
            "grid {layer} to raster, resolution {px}, values from {field}",
        ],
        "qgis_polygonize": ["extract polygons from the raster {raster}", "raster {raster} to vector polygons"],
        "qgis_raster_calculator": ["calculate {raster} {calc}", "new raster = {raster} {calc}"],
        "qgis_reclassify_by_table": [
            "reclassify {raster} using ranges {classes}",
            "bin {raster} into classes: {classes}",
        ],
    }
)
