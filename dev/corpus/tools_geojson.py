"""Scenario builders for the GeoPandas tools: which layers, fields and quantities each request carries."""

from __future__ import annotations

from . import phrases
from .layers import ANY, LINE, POINT, POLY

AGG = {
    "en": {
        "sum": ["total", "sum of", "summed"],
        "mean": ["average", "mean"],
        "max": ["maximum", "highest"],
        "min": ["minimum", "lowest"],
        "median": ["median"],
    },
    "zh": {"sum": ["总", "合计"], "mean": ["平均"], "max": ["最大"], "min": ["最小"], "median": ["中位数"]},
    "de": {
        "sum": ["Summe", "Gesamtsumme"],
        "mean": ["Mittelwert", "Durchschnitt"],
        "max": ["Maximum"],
        "min": ["Minimum"],
        "median": ["Median"],
    },
}
NEW_NAMES = ["density", "pop_k", "ratio", "score", "flag", "label", "value_per_ha", "checked", "category2", "note"]
OSM_TAGS = {
    "en": [
        ("hospitals", "amenity=hospital"),
        ("cafes", "amenity=cafe"),
        ("schools", "amenity=school"),
        ("parks", "leisure=park"),
        ("supermarkets", "shop=supermarket"),
        ("bus stops", "highway=bus_stop"),
        ("pharmacies", "amenity=pharmacy"),
        ("amenity=restaurant", "amenity=restaurant"),
        ("building=yes", "building=yes"),
    ],
    "zh": [
        ("医院", "amenity=hospital"),
        ("咖啡馆", "amenity=cafe"),
        ("学校", "amenity=school"),
        ("公园", "leisure=park"),
        ("超市", "shop=supermarket"),
        ("amenity=restaurant", "amenity=restaurant"),
    ],
    "de": [
        ("Krankenhäuser", "amenity=hospital"),
        ("Cafés", "amenity=cafe"),
        ("Schulen", "amenity=school"),
        ("Parks", "leisure=park"),
        ("Supermärkte", "shop=supermarket"),
        ("amenity=pharmacy", "amenity=pharmacy"),
    ],
}
BBOXES = [
    [13.3, 52.45, 13.5, 52.55],
    [-0.2, 51.45, 0.05, 51.56],
    [2.25, 48.8, 2.42, 48.9],
    [116.3, 39.85, 116.5, 39.98],
    [8.45, 47.33, 8.6, 47.42],
    [-74.05, 40.68, -73.9, 40.8],
]
PATHS = [
    "/data/parcels.shp",
    "C:/GIS/roads.gpkg",
    "rivers.geojson",
    "~/Downloads/wells.csv",
    "data/sample/schools.gpkg",
    "D:/projects/flood/flood_zones.shp",
    "/home/ana/buildings.fgb",
    "tracts_2020.parquet",
    "./input/stations.geojson",
]
URLS = [
    "https://example.org/data/parks.geojson",
    "https://opendata.city.gov/api/bikes.geojson",
    "http://data.example.com/stations.json",
    "https://raw.githubusercontent.com/geo/countries/main/countries.geojson",
]


def calc(b, layer):
    """An arithmetic expression on fields, as text and expression, for add_field."""
    nums = [f for f in layer.fields if f.numeric and f.meaning != "fid"]
    f1 = b.rng.choice(nums)
    m1 = _fm(b, layer, f1)
    others = [f for f in nums if f is not f1]
    lang, r = b.lang, b.rng.random()
    if others and r < 0.5:
        f2 = b.rng.choice(others)
        m2 = _fm(b, layer, f2)
        if b.rng.random() < 0.6:
            text = {
                "en": b.rng.choice(["{a} divided by {b}", "{a} / {b}", "the ratio of {a} to {b}"]),
                "zh": b.rng.choice(["{a}除以{b}", "{a}/{b}"]),
                "de": b.rng.choice(["{a} geteilt durch {b}", "{a} / {b}"]),
            }[lang]
            return text.format(a=m1, b=m2), f'"{f1.name}" / "{f2.name}"'
        text = {"en": "{a} plus {b}", "zh": "{a}加{b}", "de": "{a} plus {b}"}[lang]
        return text.format(a=m1, b=m2), f'"{f1.name}" + "{f2.name}"'
    k = b.rng.choice([2, 10, 100, 1000])
    if b.rng.random() < 0.5:
        text = {"en": "{a} times {k}", "zh": "{a}乘以{k}", "de": "{a} mal {k}"}[lang]
        return text.format(a=m1, k=k), f'"{f1.name}" * {k}'
    text = {"en": "{a} divided by {k}", "zh": "{a}除以{k}", "de": "{a} geteilt durch {k}"}[lang]
    return text.format(a=m1, k=k), f'"{f1.name}" / {k}'


def _fm(b, layer, f):
    from .phrases import field_mention

    return field_mention(b.rng, b.lang, layer, f)


def b_download(b):
    b.text("url", "url", b.rng.choice(URLS))
    bbox = b.rng.choice(BBOXES)
    b.text("bbox", "bbox", bbox, ", ".join(str(v) for v in bbox))
    text, tag = b.rng.choice(OSM_TAGS[b.lang])
    b.text("tag", "tag", tag, text)


def b_read(b):
    b.text("path", "path", b.rng.choice(PATHS))


def b_add_field(b):
    lyr = b.layer(archetypes=["districts", "tracts", "parcels", "countries", "buildings", "houses", "cities"])
    b.text("field_name", "name", b.rng.choice(NEW_NAMES))
    text, expr = calc(b, lyr)
    b.text("expression", "calc", expr, text)
    val = b.rng.choice(["yes", "todo", "2024", "checked", "A"])
    b.text("value", "val", val)


def b_rename(b):
    lyr = b.layer()
    f = b.pick_field(lyr, "any")
    b.slots["field"] = f.name  # renaming names the exact field
    b.pmap["field"] = ("field", f.name)
    b.text(
        "new_name",
        "name",
        b.rng.choice(["pop_2020", "label", "road_type", "nom", "area", "category", "Name_EN", "speed"]),
    )


def b_save(b):
    b.layer()
    b.fmt()
    b.text("name", "fname", b.rng.choice(["result", "final_output", "schools_buffer", "clean_roads", "export_2024"]))


def b_convert(b):
    b.layer()
    b.fmt()


def b_reproject(b):
    lyr = b.layer()
    b.crs(avoid=lyr.crs)


def b_visualize(b):
    lyr = b.layer()
    b.field("field", lyr, want="any")


def b_one(geoms):
    def build(b):
        b.layer(geoms=geoms)

    return build


def b_group_by(b):
    pool = [
        "schools",
        "houses",
        "roads",
        "parcels",
        "buildings",
        "countries",
        "trees",
        "hospitals",
        "stations",
        "rivers",
    ]
    lyr = b.layer(archetypes=pool if "field" in b.want else pool + ["incidents"])
    cat = b.pick_field(lyr, "category")
    if not cat.categories:
        cat = next(f for f in lyr.fields if f.type == "string")
    b.field("by", lyr, slot="by", f=cat, array=True)
    nums = [f for f in lyr.fields if f.numeric and f.meaning != "fid"]
    if nums:
        b.field("field", lyr, f=b.rng.choice(nums))
    agg = b.rng.choice(["sum", "mean", "max", "min", "median", "sum", "mean"])
    b.text("agg", "agg", agg, b.rng.choice(AGG[b.lang][agg]))


def b_join_table(b):
    lyr = b.layer(archetypes=["tracts", "districts"])
    key = next(f for f in lyr.fields if f.meaning == "id")
    b.field("field", lyr, f=key)
    b.slots["field"] = key.name
    tab = b.table("table", "table")
    tkey = next(f for f in tab.fields if f.meaning == "id")
    if b.rng.random() < 0.7:
        tkey.name = key.name  # most tables share the key's name
    b.text("table_field", "tfield", tkey.name)


def b_two(p2, g1, g2, slot2="layer2", a2=None):
    def build(b):
        b.layer(geoms=g1)
        b.layer(p2, slot2, geoms=g2, archetypes=a2)

    return build


AREAS = ["study_area", "districts", "flood_zones", "parks", "countries", "landcover"]


def b_buffer(b):
    b.layer()
    b.distance()
    b.integer("rings", "n", (2, 3, 4, 5))


def b_cluster(b):
    b.layer(geoms=POINT)
    b.integer("clusters", "n", (3, 4, 5, 6, 8, 10))
    b.distance("eps", "dist", small=True)
    b.integer("min_samples", "m", (3, 4, 5, 10))


def b_bounding(b):
    lyr = b.layer(geoms=POINT, category=True)
    b.field("by", lyr, want="category")


def b_sort(b):
    lyr = b.layer(numeric=True)
    b.field("field", lyr, want="numeric")


def b_target(g1, g2=POINT):
    def build(b):
        b.layer(geoms=g1)
        b.layer("target", "layer2", geoms=g2)

    return build


def b_nearest_summary(b):
    lyr = b.layer(geoms=POINT, category="field" in b.want)
    b.layer("target", "layer2", geoms=POINT)
    b.field("by", lyr, want="category")


def b_count(b):
    lyr = b.layer(category="field" in b.want)
    b.field("by", lyr, want="category")


def b_count_pip(b):
    b.layer(
        "polygons",
        "polys",
        geoms=POLY,
        archetypes=["districts", "tracts", "parcels", "countries", "parks", "flood_zones"],
    )
    b.layer("points", "points", geoms=POINT)
    b.text("field_name", "name", b.rng.choice(["n_schools", "count", "num_points", "total", "n"]))


def b_xy_to_line(b):
    tab = b.table("layer", "layer", "trips_table")
    style = b.rng.choice(
        [
            ("x1", "y1", "x2", "y2"),
            ("start_x", "start_y", "end_x", "end_y"),
            ("orig_lon", "orig_lat", "dest_lon", "dest_lat"),
            ("from_x", "from_y", "to_x", "to_y"),
        ]
    )
    from .layers import Field

    for slot, name in zip(("x1", "y1", "x2", "y2"), style):
        tab.fields.append(Field(name, "real", [round(b.rng.uniform(-5, 20), 4)], "coord"))
        b.text(slot, slot, name)


def b_add_xy(b):
    lyr = b.layer(geoms=POINT)
    b.crs(avoid=lyr.crs)


def b_select_top(b):
    lyr = b.layer(numeric=True)
    b.field("field", lyr, want="numeric")
    b.integer("top_n", "n", (3, 5, 10, 20, 25, 50, 100))


def b_filter(b):
    if "range" in b.want:  # a range on its own slot: '人口在1万到3万之间的{layer}'
        lyr = b.layer(numeric=True)
        f = b.pick_field(lyr, "numeric")
        text, expr = phrases.range_condition(b.rng, b.lang, f, phrases.field_mention(b.rng, b.lang, lyr, f))
        b.text(None, "range", None, text)
        b.pmap["expression"] = ("range", expr)
        return
    if {"field", "value"} <= b.want:  # '{field}为{value}的{layer}': a field named, then one of its values
        lyr = b.layer(category=True)
        pool = [f for f in lyr.fields if f.type == "string" and (f.categories or (f.meaning == "name" and f.samples))]
        if pool:
            f = b.rng.choice(pool)
            b.field(None, lyr, f=f)
            value = str(b.rng.choice(f.categories or f.samples))
            b.text(None, "value", None, value)
            escaped = value.replace("'", "''")
            b.pmap["expression"] = (("field", "value"), f"\"{f.name}\" = '{escaped}'")
            return
        b.condition("expression", lyr)
        return
    if b.want & {"notval", "inval"}:  # a category value alone: 'hospitals that are not private', 'in the North …'
        lyr = b.layer(category=True)
        f = b.pick_field(lyr, "category")
        if not f.categories:
            b.condition("expression", lyr, slot="notval" if "notval" in b.want else "inval")
            return
        slot = "notval" if "notval" in b.want else "inval"
        if "field" in b.want:
            b.field(None, lyr, f=f)
        value = b.category_value(None, lyr, f, slot=slot)
        op = "!=" if slot == "notval" else "="
        b.pmap["expression"] = (slot, f"\"{f.name}\" {op} '{value}'")
        return
    lyr = b.layer()
    b.condition("expression", lyr)


def b_plot(b):
    lyr = b.layer(numeric=True)
    b.field("field", lyr, want="numeric")
    b.text("title", "title", b.rng.choice(["Population 2020", "Road speeds", "Land value", "Overview", "My map"]))


def b_dissolve(b):
    lyr = b.layer(geoms=POLY, category=True)
    b.field("fields", lyr, want="category", array=True)


def b_within(b):
    b.layer()
    b.layer("reference", "layer2")
    b.distance()


# What users call each normalized-difference index (the enum value is the label).
INDEX_WORDS = {
    "en": {
        "ndvi": ["NDVI", "the NDVI", "the vegetation index (NDVI)", "the normalized difference vegetation index"],
        "ndwi": ["NDWI", "the water index NDWI", "the normalized difference water index"],
        "gndvi": ["GNDVI", "the green NDVI"],
        "ndbi": ["NDBI", "the built-up index NDBI"],
        "mndwi": ["MNDWI", "the modified NDWI"],
    },
    "de": {
        "ndvi": ["NDVI", "den NDVI", "den Vegetationsindex NDVI"],
        "ndwi": ["NDWI", "den Wasserindex NDWI"],
        "gndvi": ["GNDVI"],
        "ndbi": ["NDBI"],
        "mndwi": ["MNDWI"],
    },
    "zh": {
        "ndvi": ["NDVI", "归一化植被指数", "植被指数NDVI"],
        "ndwi": ["NDWI", "归一化水体指数"],
        "gndvi": ["GNDVI"],
        "ndbi": ["NDBI", "建筑指数NDBI"],
        "mndwi": ["MNDWI"],
    },
}


def b_index(b):
    b.raster(key="image")
    index = b.rng.choice(["ndvi", "ndvi", "ndvi", "ndwi", "gndvi", "ndbi", "mndwi"])
    b.text("index", "index", index, b.rng.choice(INDEX_WORDS[b.lang][index]))


def b_classify(b):
    b.raster(key="image")
    b.integer("classes", "n", (3, 4, 5, 6, 7, 8, 10))


def b_change(b):
    b.raster("before", "before", key="image_before")
    b.raster("after", "after", key="image_after")
    b.number("threshold", "t", (0.1, 0.2, 0.25, 0.3, 0.5))


GEOJSON_TOOLS = {
    # tool: (builder, required params; a tuple inside means "any one of these")
    "download_geojson": (b_download, (("url", "bbox"),)),
    "read_vector": (b_read, ("path",)),
    "add_field": (b_add_field, ("layer", "field_name", ("expression", "value"))),
    "rename_field": (b_rename, ("layer", "field", "new_name")),
    "save_result": (b_save, ("layer", "format")),
    "convert_format": (b_convert, ("layer", "format")),
    "reproject": (b_reproject, ("layer", "crs")),
    "visualize_layer": (b_visualize, ("layer",)),
    "interactive_edit": (b_one(ANY), ("layer",)),
    "group_by": (b_group_by, ("layer", "by")),
    "join_table": (b_join_table, ("layer", "field", "table", "table_field")),
    "geometry_length": (b_one(LINE), ("layer",)),
    "geometry_area": (b_one(POLY), ("layer",)),
    "clip": (b_two("overlay", ANY, POLY, a2=AREAS), ("layer", "overlay")),
    "to_lines": (b_one(POLY), ("layer",)),
    "vertices_to_points": (b_one(LINE + POLY), ("layer",)),
    "lines_to_polygons": (b_one(LINE), ("layer",)),
    "overlay": (b_two("overlay", POLY, POLY, a2=AREAS), ("layer", "overlay", "how")),
    "buffer": (b_buffer, ("layer", "distance")),
    "cluster_points": (b_cluster, ("layer",)),
    "voronoi": (b_one(POINT), ("layer",)),
    "bounding_geometry": (b_bounding, ("layer",)),
    "main_direction": (b_one(POLY), ("layer",)),
    "sort_by_field": (b_sort, ("layer", "field")),
    "connect_closest_pair": (b_one(POINT), ("layer",)),
    "distance_matrix": (b_target(POINT), ("layer",)),
    "nearest_distance_summary": (b_nearest_summary, ("layer",)),
    "join_nearest": (b_target(POINT), ("layer",)),
    "centroids": (b_one(POLY + LINE), ("layer",)),
    "count_features": (b_count, ("layer",)),
    "count_points_in_polygons": (b_count_pip, ("polygons", "points")),
    "nearest_point_on_line": (b_two("lines", POINT, LINE), ("layer", "lines")),
    "xy_to_line": (b_xy_to_line, ("layer", "x1", "y1", "x2", "y2")),
    "split_polygons_by_lines": (b_two("lines", POLY, LINE), ("layer", "lines")),
    "perpendicular_distance": (b_two("lines", POINT, LINE), ("layer", "lines")),
    "add_xy": (b_add_xy, ("layer",)),
    "flatten_fields": (b_one(ANY), ("layer",)),
    "select_rows": (b_select_top, ("layer",)),
    "filter_by_expression": (b_filter, ("layer", "expression")),
    "spatial_join": (b_two("join", ANY, ANY), ("layer", "join")),
    "interactive_query": (b_one(ANY), ("layer",)),
    "export_coordinates": (b_one(ANY), ("layer",)),
    "plot_map": (b_plot, ("layer",)),
    "dissolve": (b_dissolve, ("layer",)),
    "within_distance": (b_within, ("layer", "reference", "distance")),
    "normalized_difference": (b_index, ("raster", "index")),
    "classify_image": (b_classify, ("raster",)),
    "raster_change": (b_change, ("before", "after")),
}
