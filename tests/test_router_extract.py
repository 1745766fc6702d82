"""Router extractors, one row per case: distances, CRSs, numbers, comparisons, layers and fields, in en/zh/de."""

from __future__ import annotations

import pytest
from geoclerk.function_lib.describe import FieldInfo, LayerInfo
from geoclerk.reading.conditions import conditions_expression, find_conditions
from geoclerk.reading.crs import find_crs
from geoclerk.reading.quantities import find_distances, find_format, find_paths, integer_for
from geoclerk.reading.schema_match import find_fields, find_layers
from geoclerk.reading.text import find_numbers


def layer(name, geom, fields=(), kind="vector"):
    return LayerInfo(name=name, geometry_type=geom, kind=kind, crs="EPSG:32633", fields=[FieldInfo(*f) for f in fields])


DISTRICTS = layer(
    "districts",
    "Polygon",
    [
        ("NAME_EN", "string", ["Altstadt", "Nordend"]),
        ("POP2020", "integer", [12000]),
        ("area_km2", "real", [1.5]),
        ("type", "string", ["urban", "rural"]),
    ],
)
ROADS = layer(
    "roads",
    "LineString",
    [
        ("name", "string", ["Main St"]),
        ("fclass", "string", ["primary", "residential"]),
        ("maxspeed", "integer", [30, 50]),
        ("lanes", "integer", [1, 2]),
    ],
)
SCHOOLS = layer("schools", "Point", [("name", "string", ["A"]), ("students", "integer", [300])])
BUS_STOPS = layer("bus_stops", "Point", [("stop_id", "integer", [1])])
DEM = layer("dem", None, [("band_1", "real", [])], kind="raster")
ALL = [DISTRICTS, ROADS, SCHOOLS, BUS_STOPS, DEM]


@pytest.mark.parametrize(
    "text, metres",
    [
        ("buffer the schools by 500 m", [500]),
        ("a 1.5km buffer", [1500]),
        ("within 1,500 metres", [1500]),
        ("half a kilometre around", [500]),
        ("a quarter mile from the river", [402.336]),
        ("within 300 ft", [91.44]),
        ("2 miles", [3218.688]),
        ("one and a half km", [1500]),
        ("500-metre buffer", [500]),
        ("五百米缓冲区", [500]),
        ("2公里以内", [2000]),
        ("半公里", [500]),
        ("1,5 km Puffer um die Schulen", [1500]),
        ("Puffer von 200 Metern", [200]),
        ("einen halben Kilometer", [500]),
        ("eine Meile", [1609.344]),
        ("area over 5000 m2", []),
        ("no distance here, 42 schools", []),
    ],
)
def test_distances_to_metres(text, metres):
    assert [round(d.metres, 3) for d in find_distances(text)] == metres


@pytest.mark.parametrize(
    "text, code",
    [
        ("reproject to EPSG:3857", "EPSG:3857"),
        ("to epsg 32633", "EPSG:32633"),
        ("to UTM zone 33N", "EPSG:32633"),
        ("UTM zone 17", "EPSG:32617"),
        ("utm 33 south", "EPSG:32733"),
        ("reproject to web mercator", "EPSG:3857"),
        ("convert to WGS 84", "EPSG:4326"),
        ("to British National Grid", "EPSG:27700"),
        ("in ETRS89 / UTM zone 32N", "EPSG:25832"),
        ("reproject districts to 4326", "EPSG:4326"),
        ("转换为北京54坐标系", "EPSG:4214"),
        ("重投影到WGS84", "EPSG:4326"),
        ("投影到UTM 50N", "EPSG:32650"),
        ("nach Gauß-Krüger Zone 3", "EPSG:31467"),
        ("Projiziere nach Web-Mercator", "EPSG:3857"),
        ("buffer 3000 m", None),
    ],
)
def test_crs_by_code_name_or_description(text, code):
    assert find_crs(text) == code


@pytest.mark.parametrize(
    "text, values",
    [
        ("pop over 100k", [100000]),
        ("over 1.2 million people", [1200000]),
        ("mehr als 100.000 Einwohner", [100000]),
        ("1,5 Kilometer", [1.5]),
        ("three hundred and fifty", [350]),
        ("3万人口", [30000]),
        ("twenty-five clusters", [25]),
        ("crimes in 4 k-means clusters", [4]),
    ],
)
def test_numbers_in_three_languages(text, values):
    assert [n.value for n in find_numbers(text)] == values


@pytest.mark.parametrize(
    "text, lyr, expression",
    [
        ("districts with population over 100,000", DISTRICTS, '"POP2020" > 100000'),
        ("at least 5 lanes", ROADS, '"lanes" >= 5'),
        ("roads with 2 or more lanes", ROADS, '"lanes" >= 2'),
        ("population between 2 and 10", DISTRICTS, '"POP2020" >= 2 AND "POP2020" <= 10'),
        ("primary roads", ROADS, "\"fclass\" = 'primary'"),
        ("roads that are not residential", ROADS, "\"fclass\" != 'residential'"),
        ("roads where fclass = motorway", ROADS, "\"fclass\" = 'motorway'"),
        ("more than 50k people and type urban", DISTRICTS, '"POP2020" > 50000 AND "type" = \'urban\''),
        ("POP2020 >= 5000 or area_km2 < 3", DISTRICTS, '"POP2020" >= 5000 OR "area_km2" < 3'),
        ("schools with fewer than 200 students", SCHOOLS, '"students" < 200'),
        ("人口大于10万的行政区", DISTRICTS, '"POP2020" > 100000'),
        ("Bezirke mit mehr als 100.000 Einwohnern", DISTRICTS, '"POP2020" > 100000'),
        ("Straßen mit höchstens 50 maxspeed", ROADS, '"maxspeed" <= 50'),
    ],
)
def test_comparisons_to_expressions(text, lyr, expression):
    assert conditions_expression(find_conditions(text, lyr), text) == expression


@pytest.mark.parametrize(
    "text, lyr, field",
    [
        ("the population of each district", DISTRICTS, "POP2020"),
        ("sort by name", DISTRICTS, "NAME_EN"),
        ("die Einwohner", DISTRICTS, "POP2020"),
        ("按人口排序", DISTRICTS, "POP2020"),
        ("speed limit", ROADS, "maxspeed"),
        ("popluation", DISTRICTS, "POP2020"),
    ],
)
def test_fields_by_name_or_meaning(text, lyr, field):
    assert field in [m.name for m in find_fields(text, lyr)]


@pytest.mark.parametrize(
    "text, names",
    [
        ("clip the roads to the districts", ["roads", "districts"]),
        ("count bus stops in each district", ["bus_stops", "districts"]),
        ("Puffer um die Schulen", ["schools"]),
        ("学校周围500米缓冲区", ["schools"]),
        ("buffer the shcools", ["schools"]),
        ("对roads做300m缓冲", ["roads"]),
        ("slope from the elevation model", ["dem"]),
        ("Zähle die Bushaltestellen pro Bezirk", ["bus_stops", "districts"]),
    ],
)
def test_layers_by_fuzzy_name(text, names):
    assert [m.name for m in find_layers(text, ALL)] == names


@pytest.mark.parametrize(
    "text, name, value",
    [
        ("cluster the cafes into 5 clusters", "clusters", 5),
        ("k-means with k=4", "clusters", 4),
        ("top 10 districts by population", "top_n", 10),
        ("3 rings of 100 m", "rings", 3),
        ("聚成5类", "clusters", 5),
        ("Bilde 4 Cluster", "clusters", 4),
    ],
)
def test_integers_next_to_their_word(text, name, value):
    assert integer_for(text, name) == value


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("save roads as a shapefile", "shp"),
        ("convert the shapefile to GeoJSON", "geojson"),
        ("export to CSV", "csv"),
        ("als GeoPackage speichern", "gpkg"),
        ("ins Shape-Datei-Format umwandeln", "shp"),
    ],
)
def test_output_format(text, fmt):
    assert find_format(text) == fmt


def test_paths_in_text():
    assert find_paths("buffer data/roads.shp by 100 m and C:/GIS/schools.geojson") == [
        "data/roads.shp",
        "C:/GIS/schools.geojson",
    ]


def test_a_layer_with_a_one_letter_name_is_not_every_article():
    a = layer("a", "Point")
    assert [m.name for m in find_layers("buffer a school by 5 m", [a, SCHOOLS])] == ["schools"]
    assert [m.name for m in find_layers("buffer layer a by 5 m", [a, SCHOOLS])] == ["a"]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("reproject tracts to GDA94 MGA zone 55", "EPSG:28355"),
        ("to NAD83 UTM 18N", "EPSG:26918"),
        ("project it into NAD27 UTM zone 15", "EPSG:26715"),
        ("将区投影到 CGCS2000 3度带 CM 105E", None),  # a projection we cannot resolve is not its datum
        ("reproject to WGS 84", "EPSG:4326"),
        ("to NAD83", "EPSG:4269"),
    ],
)
def test_datum_specific_utm_and_no_datum_fallback(text, code):
    from geoclerk.reading.crs import find_crs

    assert find_crs(text) == code
