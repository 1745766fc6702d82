"""English words of the request reader (folded: lower case, no accents). See languages/__init__.py."""

from __future__ import annotations

FILLERS = {
    # articles, pronouns, auxiliaries, conjunctions that join nothing of their own
    "a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "them", "they", "their", "theirs",
    "i", "i'd", "i'm", "me", "my", "we", "us", "our", "you", "your", "is", "are", "was", "were", "be", "been",
    "being", "am", "do", "does", "did", "done", "have", "has", "had", "will", "would", "could", "can", "should",
    "shall", "may", "might", "must", "and", "also", "just", "only", "so", "as", "which", "what", "who", "whose",
    "there", "here", "now", "quickly", "quick", "simply", "actually", "basically", "really", "then",
    # prepositions that mark no role of their own (role markers are read by the role readers)
    "of", "in", "on", "at", "for", "by", "to", "into", "onto", "with", "using", "via", "over", "inside", "within",
    "around", "across", "about", "up", "out", "off", "down", "through",
    # politeness and framing
    "please", "pls", "plz", "thanks", "thank", "thx", "kindly", "hi", "hello", "hey", "ok", "okay", "want",
    "wanna", "need", "needs", "like", "let", "let's", "lets", "help", "try", "real",
    "go", "ahead", "some", "bit", "little", "mind", "possible", "able", "know", "tell", "see", "look",
    # generic verbs that say "do it" and nothing more
    "compute", "computes", "computed", "computing", "calculate", "calculates", "calculated", "calculating",
    "calc", "create", "creates", "created", "creating", "make", "makes", "making", "made", "generate",
    "generates", "generated", "generating", "produce", "produced", "get", "gets", "getting", "give", "gives",
    "giving", "return", "returns", "find", "finds", "run", "perform", "apply", "determine", "figure", "work",
    "draw", "turn", "any", "network", "show", "list", "display", "map", "maps", "mapped", "visualise", "visualize",
    "derive", "build", "take", "put", "obtain", "report",
    # generic nouns for the data itself
    "layer", "layers", "data", "dataset", "datasets", "file", "files", "feature", "features", "result", "results",
    "output", "table", "attribute", "attributes", "record", "records", "row", "rows", "object", "objects",
    "geometry", "geometries", "shape", "shapes", "item", "items", "entries", "entry", "thing", "things",
    "one", "ones", "all", "everything", "whole", "entire", "new", "existing", "current", "loaded", "given",
    "set", "version", "copy", "polygon", "polygons", "point", "points", "line", "lines", "vector", "gis",
}  # fmt: skip

NEGATIONS = {
    "not", "no", "non", "none", "never", "without", "except", "excluding", "exclude", "excluded", "but", "nor",
    "neither", "other", "don't", "doesn't", "isn't", "aren't", "aside", "outside", "beyond", "farther",
    "further", "away", "besides", "minus", "unless", "lacking", "missing",
}  # fmt: skip

EACH = {"each", "every", "per", "individually", "separately", "separate", "respective", "respectively", "apart",
        "individual", "own"}  # fmt: skip

FORMAT_WORDS = {"geojson", "json", "shapefile", "shapefiles", "shp", "kml", "gpkg", "geopackage", "csv", "parquet",
                "geoparquet", "fgb", "flatgeobuf", "esri", "google", "earth", "format", "file"}  # fmt: skip

SOURCE_MARKERS = ("from",)
TARGET_MARKERS = ("to", "into", "in", "as")

SAVE_WORDS = {"save", "saved", "saving", "export", "exported", "exporting", "write", "written", "store", "stored",
              "output", "as", "format", "file", "new", "download", "keep", "give", "me", "called", "named"}  # fmt: skip

COMPARE_WORDS = {"euro", "euros", "eur", "dollar", "dollars", "usd", "percent",
    "where", "whose", "which", "that", "with", "having", "has", "have", "more", "less", "fewer", "than", "greater",
    "bigger", "larger", "smaller", "higher", "lower", "over", "under", "above", "below", "at", "least", "most",
    "equal", "equals", "is", "are", "exactly", "between", "and", "or", "either", "contain", "contains",
    "containing", "start", "starts", "starting", "begin", "begins", "end", "ends", "ending", "named", "called",
    "type", "value", "values", "set", "marked", "only", "keep", "filter", "select", "extract", "just", "those",
    "ones", "rated", "rating", "built", "after", "before", "since", "up", "greater-than", "less-than", "or more",
    "minimum", "maximum", "max", "min", "of", "the", "kind", "class", "category", "field", "column", "bottom",
    "earlier", "later", "older", "newer", "younger", "until", "till", "from", "to", "inclusive",
    "number", "count", "times", "multiplied", "divided", "plus", "holding", "ratio", "percentage",
}  # fmt: skip

AGG_WORDS = {"sum", "sums", "summed", "total", "totals", "average", "averages", "avg", "mean", "median", "max",
             "maximum", "min", "minimum", "count", "number", "statistics", "statistic", "stats", "summary",
             "summarise", "summarize", "combined", "together", "overall", "aggregate", "aggregated", "how", "many",
             "much"}  # fmt: skip

CRS_WORDS = {
    "crs", "epsg", "srid", "source", "target", "original", "currently", "assign", "define", "defined", "projection",
    "projected", "project", "reproject", "reprojected", "reprojecting",
    "transform", "transformed", "convert", "converted", "coordinate", "coordinates", "system", "reference",
    "spatial", "wgs", "wgs84", "utm", "zone", "mercator", "web", "pseudo", "lat", "lon", "long", "latitude",
    "longitude", "geographic", "degrees", "north", "n", "nad83", "nad", "etrs89", "etrs", "code", "change",
    "switch", "put", "datum", "google", "spherical", "world", "map", "metres", "meters", "metric", "grid",
    "national", "british", "lambert", "albers", "equal", "area", "state", "plane", "feet", "us", "ftus",
}  # fmt: skip

MEASURE_WORDS = {"area", "areas", "size", "sizes", "length", "lengths", "long", "big", "large", "how", "much",
                 "measure", "measured", "perimeter", "perimeters", "square", "sq", "metres", "meters", "metre",
                 "meter", "kilometres", "kilometers", "km", "km2", "m2", "hectares", "ha", "acres", "miles",
                 "feet", "ft", "units", "unit", "total"}  # fmt: skip

DISTANCE_WORDS = {"distance", "radius", "of", "within", "around", "away", "metres", "meters", "metre", "meter",
                  "m", "km", "kilometres", "kilometers", "kilometre", "kilometer", "miles", "mile", "mi", "feet",
                  "foot", "ft", "yards", "yd", "wide", "by", "zone", "zones", "ring", "rings", "close",
                  "near", "nearby", "closer", "than", "up", "walking", "range", "reach", "multi", "multiple",
                  "inward", "inwards", "negative"}  # fmt: skip

TOOL_CUES = {
    "add_xy": {"add", "x", "y", "xy", "coordinates", "coordinate", "columns", "fields", "lat", "lon", "latitude",
               "longitude", "easting", "northing"},
    "qgis_add_xy_fields": {"add", "x", "y", "xy", "coordinates", "columns", "fields"},
    "add_field": {"add", "field", "column", "new", "called", "named", "holding", "with"},
    "qgis_field_calculator": {"add", "field", "column", "new", "called", "named", "calculator"},
    "distance_matrix": {"between", "distances", "pairwise", "matrix", "all", "pairs"},
    "nearest_distance_summary": {"between", "nearest", "neighbour", "neighbor", "average", "mean", "distance"},
    "connect_closest_pair": {"between", "closest", "two", "nearest", "together", "pair", "line"},
    "perpendicular_distance": {"from", "nearest", "closest", "distance", "perpendicular", "shortest"},
    "nearest_point_on_line": {"snap", "snapped", "nearest", "closest", "point", "on", "onto", "line"},
    "join_nearest": {"add", "attach", "attributes", "nearest", "closest", "connect", "link", "line", "lines",
                     "neighbour", "neighbor" },
    "qgis_join_by_nearest": {"nearest", "closest", "attach", "attributes", "join"},
    "qgis_oriented_bounding_box": {"oriented", "minimum", "bounding", "box", "rectangle", "rotated"},
    "main_direction": {"main", "direction", "orientation", "degrees", "angle", "bearing"},
    "cluster_points": {"cluster", "clusters", "clustering", "dbscan", "kmeans", "least", "per", "minimum",
                       "points", "groups"},
    "qgis_create_grid": {"grid", "cells", "cell", "fishnet", "square", "squares", "hexagon", "extent", "over"},
    "to_lines": {"boundary", "boundaries", "outline", "outlines", "lines", "border", "borders"},
    "qgis_point_on_surface": {"point", "guaranteed", "inside", "surface", "within"},
    "interactive_edit": {"editable", "html", "table", "edit"},
    "interactive_query": {"web", "page", "click", "search", "browse", "html", "searchable", "interactive", "clickable"},
    "buffer": {"buffer", "buffers", "buffered", "buffering", "around", "zone", "zones"},
    "qgis_buffer": {"buffer", "buffers", "buffered", "buffering", "around", "zone", "zones"},
    "centroids": {"centroid", "centroids", "center", "centre", "centers", "centres", "middle", "midpoint",
                  "midpoints", "central", "guaranteed", "inside", "surface"},
    "qgis_centroids": {"centroid", "centroids", "center", "centre", "centers", "centres", "middle"},
    "reproject": {"reproject", "reprojected", "reprojection", "project", "projected", "transform", "convert",
                  "converted", "change", "switch", "crs", "epsg"},
    "qgis_reproject": {"reproject", "reprojected", "reprojection", "project", "projected", "transform", "convert"},
    "clip": {"clip", "clipped", "clipping", "cut", "crop", "cropped", "trim", "trimmed", "mask", "inside", "to"},
    "qgis_clip": {"clip", "clipped", "clipping", "cut", "crop", "trim", "mask"},
    "dissolve": {"segments", "same", "share", "sharing", "that", "dissolve", "dissolved", "dissolving", "merge",
                 "merged", "boundaries", "borders", "combine",
                 "combined", "unify", "single", "into"},
    "qgis_dissolve": {"dissolve", "dissolved", "merge", "merged", "boundaries", "combine"},
    "geometry_area": {"area", "areas", "size", "sizes", "big", "large", "square", "measure", "surface"},
    "geometry_length": {"length", "lengths", "long", "perimeter", "perimeters", "measure", "km", "metres"},
    "count_features": {"count", "counts", "counting", "number", "how", "many", "total", "there", "amount"},
    "count_points_in_polygons": {"count", "counts", "number", "how", "many", "inside", "contained", "fall",
                                 "falls", "lie", "located", "there", "points", "polygon"},
    "qgis_count_points_in_polygon": {"count", "number", "how", "many", "inside", "contained", "fall"},
    "filter_by_expression": {"filter", "filtered", "keep", "select", "extract", "only", "just", "those",
                             "ones", "where", "subset"},
    "select_rows": {"shortest",
                    "which", "select", "top", "first", "largest", "biggest", "highest", "smallest",
                    "lowest", "most",
                    "least", "only", "keep", "pick", "those", "ones", "where"},
    "sort_by_field": {"shortest",
                      "sort", "sorted", "order", "ordered", "rank", "ranked", "ascending",
                      "descending",
                      "highest", "lowest", "largest", "smallest", "biggest", "most", "least", "first", "last",
                      "top"},
    "bounding_geometry": {"bbox", "bboxes", "whole", "bounding", "box", "boxes", "hull", "convex", "envelope",
                          "extent", "enclosing",
                          "minimum", "rectangle", "circle"},
    "qgis_convex_hull": {"convex", "hull", "hulls"},
    "within_distance": {"within", "near", "close", "closer", "nearby", "from", "of", "select", "find",
                        "keep", "those", "lie", "are", "located"},
    "qgis_extract_within_distance": {"within", "near", "close", "from", "of", "extract"},
    "qgis_extract_by_location": {"or", "inside", "intersect", "intersecting", "touch", "touching", "cross", "crossing",
                                 "within", "overlap", "overlapping", "located", "lie", "fall", "select", "extract"},
    "xy_to_line": {"origin", "destination", "origin-destination", "od", "lines", "line", "draw", "from", "to",
                   "start", "end", "coordinates", "flow", "flows"},
    "flatten_fields": {"flatten", "unnest", "nested", "struct", "structs", "expand", "fields", "columns", "plain",
                       "normal", "separate", "spread", "attributes"},
    "join_table": {"join", "attach", "link", "merge", "table", "key", "field", "on", "by", "to", "with", "attributes"},
    "spatial_join": {"attach", "name", "names", "add", "join", "joined", "attributes", "spatial",
                     "location", "which", "lies", "in" },
    "save_result": {"save", "export", "write", "store", "as", "format", "file"},
    "convert_format": {"convert", "converted", "format", "as", "to", "change", "save", "export"},
    "voronoi": {"voronoi", "thiessen", "polygons", "diagram", "cells"},
    "plot_map": {"plot", "chart", "map", "choropleth", "histogram", "bar", "scatter", "draw", "colour", "color",
                 "coloured", "colored", "png", "image", "picture", "export", "save"},
    "visualize_layer": {"map", "show", "display", "visualize", "visualise", "view", "draw", "plot", "picture",
                        "png", "image", "export", "save", "coloured", "colored", "colour", "color"},
    "normalized_difference": {"index", "indices", "vegetation", "water", "normalized", "normalised", "difference",
                              "from", "bands", "band", "raster", "derive", "map", "green", "greenness"},
    "classify_image": {"classify", "classified", "classification", "unsupervised", "classes", "class", "into",
                       "k-means", "kmeans", "k", "cluster", "pixels", "groups", "land", "cover", "spectral",
                       "segment"},
    "raster_change": {"change", "changes", "changed", "detect", "detection", "between", "difference", "from", "to",
                      "two", "images", "dates", "what", "compare", "subtract", "much", "area", "threshold", "than",
                      "more", "by"},
}  # fmt: skip

# Verb stems (folded) that name the tool's own work after 'and': 'group the shapes by type and merge them' is
# one dissolve, not a chain. Keyed by trait (function_lib/traits.py).
TRAIT_VERBS = {"dissolves": ("dissolve", "merge"), "merges_layers": ("merge",)}

# Indefinite pronouns: never the value of a condition ('Nutzung is anything other than irrigation' keeps
# only the negation).
# Words that stand for a layer said before: in this request, or the previous request's result in a conversation.
REFERENCES = {"them", "those", "these", "it", "they", "the result", "the results", "the previous result",
              "the last result", "that result", "this result", "the output", "the result layer", "the new layer",
              "that layer", "the previous layer", "the last layer"}  # fmt: skip
# Prepositions that make the word after them a layer's role ('count the houses in them', 'clip to it').
REFERENCE_ROLES = {"in", "inside", "within", "into", "around", "near", "from", "to", "across", "along", "over", "of",
                   "with", "against", "onto", "on", "intersecting", "touching", "outside", "beyond", "between",
                   "crossing", "covering", "containing", "by"}  # fmt: skip

# 'do the same for the cafes': the previous request's steps again, on another layer (planning/followup.py).
SAME = {"do the same", "the same", "same thing", "same", "repeat that", "repeat it", "repeat this", "again",
        "likewise", "as well", "too"}  # fmt: skip

# 'select the districts with …' means QGIS's own selection on the districts; a layer-making word means a new layer.
SELECT_VERBS = {"select", "selects", "selected", "highlight", "mark", "pick out"}
LAYER_WORDS = {"extract", "save", "export", "copy", "new layer", "as a layer", "a layer", "create a layer",
               "make a layer", "write", "store", "output", "file", "separate layer", "layer of"}  # fmt: skip

# CRS words that say the layer itself goes into the CRS: claimed only by a tool that reprojects its output
# ('reproject the stations to EPSG:32618 and add X/Y fields' is no add_xy in EPSG:32618 on the stations as they are).
REPROJECT_VERBS = {"reproject", "reprojected", "reprojecting", "transform", "transformed", "convert", "converted",
                   "project"}  # fmt: skip

INDEFINITE = {"anything", "something", "everything", "nothing", "whatever", "any", "other", "else"}
# The word of a calendar year said with its number ('the year 2025', 'im Jahr 2025', '2025年'): claimed with it.
YEAR_WORDS = {"year"}

# A request of several steps (router/chain.py): the words that join its clauses, claimed by the chain reader.
CHAIN_CONNECTORS = {"and", "then", "and then", "also", "and also", "afterwards", "after that", "next", "and next",
                    "first", "first of all", "finally", "lastly"}  # fmt: skip
# Nouns that name an earlier step's result by the tool that made it ('count the houses inside each buffer'), with
# the determiners that may come before them; the clause reads them as REFERENCE_WORD (or EACH_REFERENCE after 'each').
RESULT_NOUNS = {"buffer": {"buffer", "buffers", "buffer zone", "buffer zones", "buffered area", "buffered areas",
                           "zone", "zones", "ring", "rings"}}  # fmt: skip
RESULT_DETERMINERS = {"the", "these", "those", "all", "all the", "each", "every", "each of the", "all of the"}
REFERENCE_WORD = "them"
EACH_REFERENCE = "each of them"
# 'count the houses inside each': 'each' alone after a role word, at the clause's end, is each of the results.
BARE_EACH = {"each", "each one", "every one"}
ROLE_REFERENCE_WORD = "them"
CHAIN_AFTER_VERB: set[str] = set()

# Questions whose answer takes steps (router/questions.py): the question words, what each asks for.
HOW_MANY = {"how many", "what number of", "the number of"}
SHARE = {"what share of", "what percentage of", "what proportion of", "what fraction of", "what percent of",
         "which share of", "the share of", "the percentage of"}  # fmt: skip
WHICH = {"which", "what"}
MOST = {"the most", "most"}
FEWEST = {"the fewest", "fewest", "the least", "least"}
HAVE = {"has", "have", "had", "contains", "contain", "holds", "hold", "there", "are", "is"}
# A comparative of a measure the layer's geometry has ('roads longer than 1 km'): the measure and the operator.
MEASURE_COMPARATIVES = {"longer": ("length", ">"), "shorter": ("length", "<")}
THAN = {"than"}
# Verbs that keep the features a condition holds for ('select the roads longer than 1 km'): a question's filter.
KEEP_VERBS = {"select", "keep", "retain", "filter", "extract", "take", "pick"}
# Words joining conditions or groups in a question ('with and without wifi'): its count is no one filter's.
JOINS = {"and", "or", "both", "either", "versus", "vs"}
# 'which type of house has the highest average value?': the group said after WHICH, read as PER (router/questions.py)
HIGHEST = {"the highest", "highest", "the largest", "largest", "the biggest", "biggest", "the greatest", "greatest"}
LOWEST = {"the lowest", "lowest", "the smallest", "smallest"}
PER_WORD = "per"
