"""Random but realistic layer contexts: archetypes (schools, roads, parcels...) with typed fields and sample values."""

from __future__ import annotations

from dataclasses import dataclass, field

NUMERIC = ("integer", "real")


@dataclass(frozen=True)
class FieldDef:
    """A field of an archetype: its meaning, name variants, type and sample values (or number range)."""

    meaning: str
    names: tuple
    type: str
    values: tuple = ()  # category values for strings
    lo: float = 0
    hi: float = 100


@dataclass
class Field:
    name: str
    type: str
    samples: list
    meaning: str
    categories: list = field(default_factory=list)
    lo: float = 0
    hi: float = 100

    @property
    def numeric(self) -> bool:
        return self.type in NUMERIC


@dataclass
class Layer:
    name: str
    kind: str  # vector | raster | table
    geometry_type: str | None
    crs: str | None
    fields: list
    archetype: str
    nouns: dict

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "kind": "raster" if self.kind == "raster" else "vector",
            "geometry_type": self.geometry_type,
            "crs": self.crs,
            "fields": [{"name": f.name, "type": f.type, "samples": f.samples} for f in self.fields],
        }

    def by_meaning(self, meaning: str) -> Field | None:
        return next((f for f in self.fields if f.meaning == meaning), None)


def _f(meaning, names, type_, *values, lo=0, hi=100):
    names = (names,) if isinstance(names, str) else tuple(names)
    return FieldDef(meaning, names, type_, tuple(values), lo, hi)


NAME = _f("name", ["name", "NAME", "Name"], "string")
DISTRICT = _f("district", ["district", "region", "borough"], "string", "North", "Central", "Riverside", "Old Town")

# archetype: geometry types, layer-name variants, nouns per language, fields
ARCHETYPES = {
    "schools": (
        ("Point",),
        ["schools", "Schools", "school_points", "schools_2021", "osm_schools"],
        {"en": ["schools"], "zh": ["学校"], "de": ["Schulen"]},
        [
            NAME,
            _f("type", ["type", "level", "school_type"], "string", "primary", "secondary", "high"),
            _f("students", ["students", "enrolment", "n_pupils"], "integer", lo=80, hi=2400),
            DISTRICT,
        ],
    ),
    "hospitals": (
        ("Point",),
        ["hospitals", "hospital_pts", "health_facilities"],
        {"en": ["hospitals"], "zh": ["医院"], "de": ["Krankenhäuser"]},
        [
            NAME,
            _f("beds", ["beds", "bed_count"], "integer", lo=20, hi=900),
            _f("type", ["type", "category"], "string", "general", "clinic", "emergency"),
        ],
    ),
    "stations": (
        ("Point",),
        ["stations", "metro_stations", "train_stations", "stops_rail"],
        {"en": ["stations", "train stations"], "zh": ["车站", "地铁站"], "de": ["Bahnhöfe", "Stationen"]},
        [
            NAME,
            _f("riders", ["daily_riders", "ridership", "pax_day"], "integer", lo=500, hi=90000),
            _f("type", ["operator", "line_type"], "string", "metro", "tram", "rail"),
        ],
    ),
    "wells": (
        ("Point",),
        ["wells", "water_wells", "boreholes"],
        {"en": ["wells", "boreholes"], "zh": ["水井"], "de": ["Brunnen"]},
        [
            _f("id", ["well_id", "ID"], "string"),
            _f("depth", ["depth_m", "depth"], "real", lo=5, hi=300),
            _f("status", ["status"], "string", "active", "abandoned", "dry"),
        ],
    ),
    "cafes": (
        ("Point",),
        ["cafes", "coffee_shops", "cafes_osm"],
        {"en": ["cafes", "coffee shops"], "zh": ["咖啡馆"], "de": ["Cafés"]},
        [
            NAME,
            _f("rating", ["rating", "stars"], "real", lo=1, hi=5),
            _f("capacity", ["seats"], "integer", lo=8, hi=120),
            _f("wifi", ["wifi", "has_wifi"], "string", "yes", "no"),
        ],
    ),
    "bus_stops": (
        ("Point",),
        ["bus_stops", "busstops", "stops"],
        {"en": ["bus stops"], "zh": ["公交站"], "de": ["Bushaltestellen"]},
        [
            NAME,
            _f("id", ["stop_id"], "string"),
            _f("riders", ["boardings"], "integer", lo=10, hi=4000),
            _f("shelter", ["shelter"], "string", "yes", "no"),
        ],
    ),
    "houses": (
        ("Point", "Polygon"),
        ["houses", "addresses", "dwellings"],
        {"en": ["houses", "homes"], "zh": ["房屋", "住宅"], "de": ["Häuser", "Wohnhäuser"]},
        [
            _f("id", ["house_id", "addr_id"], "string"),
            _f("value", ["price", "value_eur"], "integer", lo=90000, hi=900000),
            _f("year", ["year_built", "built"], "integer", lo=1890, hi=2022),
            _f("type", ["type", "house_type"], "string", "detached", "terrace", "apartment"),
            _f("residents", ["residents", "occupants"], "integer", lo=1, hi=8),
            DISTRICT,
        ],
    ),
    "trees": (
        ("Point",),
        ["trees", "street_trees", "tree_inventory"],
        {"en": ["trees", "street trees"], "zh": ["树木", "行道树"], "de": ["Bäume", "Straßenbäume"]},
        [
            _f("species", ["species", "genus"], "string", "Tilia", "Acer", "Quercus", "Platanus"),
            _f("diameter", ["dbh_cm", "diameter"], "real", lo=5, hi=140),
            _f("height", ["height_m"], "real", lo=2, hi=35),
        ],
    ),
    "incidents": (
        ("Point",),
        ["crimes", "incidents", "accidents", "collisions_2022"],
        {"en": ["incidents", "crimes", "accidents"], "zh": ["事故", "案件"], "de": ["Vorfälle", "Unfälle"]},
        [
            _f("date", ["date", "occurred"], "date"),
            _f("type", ["category", "severity"], "string", "minor", "serious", "fatal"),
            DISTRICT,
        ],
    ),
    "cities": (
        ("Point",),
        ["cities", "places", "populated_places", "towns", "world_cities"],
        {"en": ["cities", "towns"], "zh": ["城市"], "de": ["Städte"]},
        [
            NAME,
            _f("population", ["POP2020", "population", "pop_max"], "integer", lo=5000, hi=9000000),
            _f("type", ["featurecla", "capital"], "string", "capital", "regional", "town"),
        ],
    ),
    "sensors": (
        ("Point",),
        ["sensors", "air_quality_sensors", "stations_pm25"],
        {"en": ["sensors", "monitoring stations"], "zh": ["传感器", "监测站"], "de": ["Sensoren", "Messstationen"]},
        [
            _f("id", ["sensor_id"], "string"),
            _f("reading", ["pm25", "no2"], "real", lo=2, hi=80),
            _f("date", ["timestamp"], "date"),
        ],
    ),
    "roads": (
        ("LineString", "MultiLineString"),
        ["roads", "streets", "osm_roads", "road_network", "Roads_2023"],
        {"en": ["roads", "streets"], "zh": ["道路", "路网"], "de": ["Straßen"]},
        [
            NAME,
            _f("type", ["type", "highway", "fclass"], "string", "primary", "secondary", "residential", "motorway"),
            _f("speed", ["speed_limit", "maxspeed"], "integer", lo=20, hi=130),
            _f("lanes", ["lanes"], "integer", lo=1, hi=6),
        ],
    ),
    "rivers": (
        ("LineString", "MultiLineString"),
        ["rivers", "streams", "waterways", "river_lines"],
        {"en": ["rivers", "streams"], "zh": ["河流"], "de": ["Flüsse", "Gewässer"]},
        [
            NAME,
            _f("width", ["width_m", "width"], "real", lo=1, hi=400),
            _f("type", ["class", "waterway"], "string", "river", "stream", "canal"),
        ],
    ),
    "railways": (
        ("LineString",),
        ["railways", "rail_lines", "tracks"],
        {"en": ["railways", "rail lines"], "zh": ["铁路"], "de": ["Bahnlinien", "Gleise"]},
        [NAME, _f("type", ["usage", "service"], "string", "main", "branch", "freight")],
    ),
    "bike_lanes": (
        ("LineString",),
        ["bike_lanes", "cycleways", "cycle_network"],
        {"en": ["bike lanes", "cycle paths"], "zh": ["自行车道"], "de": ["Radwege"]},
        [NAME, _f("type", ["surface"], "string", "asphalt", "gravel", "paved")],
    ),
    "pipelines": (
        ("LineString",),
        ["pipes", "water_mains", "pipelines"],
        {"en": ["pipes", "water mains"], "zh": ["管线", "水管"], "de": ["Leitungen", "Rohre"]},
        [
            _f("id", ["pipe_id"], "string"),
            _f("diameter", ["diam_mm"], "integer", lo=50, hi=1200),
            _f("year", ["install_yr"], "integer", lo=1920, hi=2022),
        ],
    ),
    "parcels": (
        ("Polygon", "MultiPolygon"),
        ["parcels", "cadastre", "lots", "land_parcels"],
        {"en": ["parcels", "lots"], "zh": ["地块"], "de": ["Flurstücke", "Parzellen"]},
        [
            _f("id", ["parcel_id", "PIN"], "string"),
            _f(
                "landuse",
                ["landuse", "zoning", "LU_CODE"],
                "string",
                "residential",
                "commercial",
                "industrial",
                "agricultural",
            ),
            _f("area", ["area_ha", "AREA_M2", "acres"], "real", lo=0.02, hi=40),
            _f("value", ["assessed_value", "land_value"], "integer", lo=20000, hi=3000000),
        ],
    ),
    "districts": (
        ("Polygon", "MultiPolygon"),
        ["districts", "neighbourhoods", "wards", "admin_boundaries", "boroughs"],
        {"en": ["districts", "neighbourhoods"], "zh": ["行政区", "街区"], "de": ["Bezirke", "Stadtteile"]},
        [
            _f("name", ["NAME", "district_name", "name_en", "name"], "string"),
            _f("population", ["POP2020", "population", "pop_total"], "integer", lo=3000, hi=400000),
            _f("area", ["area_km2", "AREA_KM2"], "real", lo=1, hi=120),
            _f("id", ["district_id", "CODE"], "string"),
            _f(
                "landuse", ["landuse", "main_use"], "string", "residential", "commercial", "mixed", "industrial", "park"
            ),
            _f("income", ["median_income", "MED_INC"], "integer", lo=18000, hi=90000),
        ],
    ),
    "buildings": (
        ("Polygon", "MultiPolygon"),
        ["buildings", "building_footprints", "osm_buildings"],
        {"en": ["buildings", "building footprints"], "zh": ["建筑", "建筑物"], "de": ["Gebäude"]},
        [
            _f("type", ["building", "use", "bldg_type"], "string", "residential", "commercial", "school", "industrial"),
            _f("height", ["height", "height_m"], "real", lo=3, hi=180),
            _f("year", ["year_built", "constr_yr"], "integer", lo=1850, hi=2023),
            _f("levels", ["levels", "floors"], "integer", lo=1, hi=40),
        ],
    ),
    "tracts": (
        ("Polygon", "MultiPolygon"),
        ["census_tracts", "tracts", "tracts_2020", "block_groups"],
        {"en": ["census tracts", "tracts"], "zh": ["人口普查区"], "de": ["Zählbezirke"]},
        [
            _f("id", ["GEOID", "tract_id"], "string"),
            _f("population", ["pop_total", "POP2020", "total_pop"], "integer", lo=800, hi=9000),
            _f("income", ["median_income", "MED_INC"], "integer", lo=18000, hi=190000),
            _f("households", ["households", "HH_TOTAL"], "integer", lo=200, hi=4000),
        ],
    ),
    "countries": (
        ("MultiPolygon", "Polygon"),
        ["countries", "ne_countries", "world", "ne_110m_admin_0_countries"],
        {"en": ["countries"], "zh": ["国家"], "de": ["Länder", "Staaten"]},
        [
            _f("name", ["NAME", "name_en", "ADMIN", "name"], "string"),
            _f("id", ["iso_a3", "ISO_A3"], "string"),
            _f("population", ["POP_EST", "pop_est", "population"], "integer", lo=90000, hi=1400000000),
            _f("gdp", ["GDP_MD", "gdp_md_est"], "integer", lo=200, hi=21000000),
            _f("continent", ["CONTINENT", "continent"], "string", "Europe", "Africa", "Asia", "South America"),
        ],
    ),
    "parks": (
        ("Polygon", "MultiPolygon"),
        ["parks", "green_spaces", "parks_osm"],
        {"en": ["parks", "green spaces"], "zh": ["公园", "绿地"], "de": ["Parks", "Grünflächen"]},
        [
            NAME,
            _f("area", ["area_ha", "AREA"], "real", lo=0.1, hi=300),
            _f("type", ["leisure", "park_type"], "string", "park", "garden", "playground"),
        ],
    ),
    "lakes": (
        ("Polygon",),
        ["lakes", "water_bodies", "lakes_reservoirs"],
        {"en": ["lakes", "water bodies"], "zh": ["湖泊", "水体"], "de": ["Seen"]},
        [NAME, _f("area", ["area_km2"], "real", lo=0.01, hi=500), _f("depth", ["max_depth"], "real", lo=1, hi=300)],
    ),
    "flood_zones": (
        ("Polygon", "MultiPolygon"),
        ["flood_zones", "floodplain", "flood_risk_areas"],
        {"en": ["flood zones", "flood areas"], "zh": ["洪水区", "洪泛区"], "de": ["Überschwemmungsgebiete"]},
        [_f("type", ["zone", "risk"], "string", "high", "medium", "low"), _f("id", ["zone_id"], "string")],
    ),
    "study_area": (
        ("Polygon",),
        ["study_area", "boundary", "city_boundary", "aoi", "municipality"],
        {"en": ["study area", "city boundary"], "zh": ["研究区", "边界"], "de": ["Untersuchungsgebiet", "Stadtgrenze"]},
        [NAME],
    ),
    "landcover": (
        ("Polygon", "MultiPolygon"),
        ["landcover", "land_cover", "corine_2018", "land_use"],
        {"en": ["land cover", "land use polygons"], "zh": ["土地覆盖"], "de": ["Landbedeckung"]},
        [
            _f("landuse", ["class", "code_18", "lc_type"], "string", "forest", "urban", "water", "cropland"),
            _f("area", ["area_ha"], "real", lo=0.5, hi=900),
        ],
    ),
}

TABLES = {
    "census_table": (
        ["census_2020.csv", "census_table", "demographics", "pop_stats"],
        {"en": ["census table", "demographics table"], "zh": ["人口普查表"], "de": ["Zensustabelle"]},
        [
            _f("id", ["GEOID", "tract_id", "district_id", "CODE"], "string"),
            _f("population", ["pop_total", "population"], "integer", lo=500, hi=90000),
            _f("income", ["median_income"], "integer", lo=18000, hi=190000),
        ],
    ),
    "trips_table": (
        ["trips.csv", "od_pairs", "flights", "commutes"],
        {"en": ["trips table", "origin-destination table"], "zh": ["出行表", "OD表"], "de": ["Fahrtentabelle"]},
        [_f("id", ["trip_id"], "string")],
    ),
}

RASTERS = {
    "dem": (
        ["dem", "elevation", "srtm_30m", "dtm_5m", "dem.tif"],
        {
            "en": ["DEM", "elevation model", "elevation raster"],
            "zh": ["DEM", "高程", "数字高程模型"],
            "de": ["DGM", "Höhenmodell"],
        },
    ),
    "ndvi": (
        ["ndvi", "ndvi_2022", "sentinel_ndvi"],
        {"en": ["NDVI raster", "NDVI"], "zh": ["NDVI"], "de": ["NDVI-Raster"]},
    ),
    "landcover_raster": (
        ["landcover_raster", "lc_2020.tif", "worldcover"],
        {"en": ["land cover raster"], "zh": ["土地覆盖栅格"], "de": ["Landbedeckungsraster"]},
    ),
    "temperature": (
        ["temperature", "lst_summer", "tmean.tif"],
        {"en": ["temperature raster", "temperature grid"], "zh": ["温度栅格", "气温"], "de": ["Temperaturraster"]},
    ),
}

# Multiband images (blue, green, red, nir): drawn only by name (the random draws above stay as they were). Two
# dates of one place: every 'before' name is older than every 'after' name.
IMAGERY = {
    "image": (
        ["sentinel2_2024", "s2_scene", "landsat8_2023", "image_2024", "ortho_rgbi", "scene.tif", "planet_4band"],
        {
            "en": ["satellite image", "image", "scene", "multispectral image", "imagery"],
            "zh": ["卫星影像", "影像", "遥感影像", "多光谱影像"],
            "de": ["Satellitenbild", "Bild", "Szene", "Luftbild", "Multispektralbild"],
        },
    ),
    "image_before": (
        ["image_2019", "s2_2018", "ortho_2015", "landsat_2020", "scene_2019.tif"],
        {"en": ["earlier image", "old image"], "zh": ["早期影像"], "de": ["älteres Bild"]},
    ),
    "image_after": (
        ["image_2024", "s2_2023", "ortho_2021", "landsat_2025", "scene_2024.tif"],
        {"en": ["later image", "new image"], "zh": ["新影像"], "de": ["neueres Bild"]},
    ),
}

GEOGRAPHIC = ["EPSG:4326"]
PROJECTED = [
    "EPSG:32633",
    "EPSG:3857",
    "EPSG:25832",
    "EPSG:27700",
    "EPSG:2154",
    "EPSG:3035",
    "EPSG:32617",
    "EPSG:26918",
    "EPSG:28992",
    "EPSG:32650",
    "EPSG:4490",
]

POINT, LINE, POLY = ("Point", "MultiPoint"), ("LineString", "MultiLineString"), ("Polygon", "MultiPolygon")
ANY = POINT + LINE + POLY


def archetypes_for(geoms) -> list[str]:
    """Archetype names whose geometry fits one of `geoms`."""
    return [k for k, (g, *_rest) in ARCHETYPES.items() if set(g) & set(geoms)]


def _samples(rng, fd: FieldDef, layer_name: str) -> list:
    if fd.values:
        return rng.sample(list(fd.values), min(3, len(fd.values)))
    if fd.type == "integer":
        return [int(rng.uniform(fd.lo, fd.hi)) for _ in range(3)]
    if fd.type == "real":
        return [round(rng.uniform(fd.lo, fd.hi), 2) for _ in range(3)]
    if fd.type == "date":
        return [f"202{rng.randint(0, 3)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}" for _ in range(3)]
    if fd.meaning == "id":
        return [f"{layer_name[:2].upper()}{rng.randint(100, 999)}" for _ in range(3)]
    return rng.sample(
        ["Lindenweg", "Market St", "Hillside", "Oak Park", "Riverside", "Central", "St Mary", "Nordhafen"], 3
    )


def _fields(rng, defs, layer_name) -> list[Field]:
    out = []
    for fd in defs:
        name = rng.choice(fd.names)
        out.append(Field(name, fd.type, _samples(rng, fd, layer_name), fd.meaning, list(fd.values), fd.lo, fd.hi))
    return out


def make_layer(rng, archetype: str, geoms=None, crs: str | None = None) -> Layer:
    """A vector layer of `archetype` with a random name variant, CRS and field-name variants."""
    geom_types, names, nouns, defs = ARCHETYPES[archetype]
    allowed = [g for g in geom_types if geoms is None or g in geoms] or list(geom_types)
    geom = rng.choice(allowed)
    name = rng.choice(names)
    if crs is None:
        crs = (
            rng.choice(GEOGRAPHIC * 4 + PROJECTED)
            if archetype in ("countries", "cities")
            else rng.choice(GEOGRAPHIC * 3 + PROJECTED)
        )
    fields = _fields(rng, defs, name)
    fid = rng.choice(["fid", "id", "OBJECTID"])
    if rng.random() < 0.3 and fid not in {f.name for f in fields}:
        fields.insert(0, Field(fid, "integer", [1, 2, 3], "fid"))
    return Layer(name, "vector", geom, crs, fields, archetype, nouns)


def make_table(rng, key: str) -> Layer:
    names, nouns, defs = TABLES[key]
    name = rng.choice(names)
    return Layer(name, "table", None, None, _fields(rng, defs, name), key, nouns)


def make_raster(rng, key: str | None = None) -> Layer:
    key = key or rng.choice(list(RASTERS))
    names, nouns = RASTERS[key] if key in RASTERS else IMAGERY[key]
    name = rng.choice(names)
    crs = rng.choice(["EPSG:4326", "EPSG:32633", "EPSG:25832", "EPSG:3035"])
    bands = 4 if key in IMAGERY else 1
    fields = [Field(f"band_{i}", "real", [], "band") for i in range(1, bands + 1)]
    return Layer(name, "raster", None, crs, fields, key, nouns)
