"""Writes cases_en.yaml, cases_de.yaml, cases_zh.yaml (the YAML files are the deliverable; this only
keeps the long check expressions consistent)."""
import os
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- check helpers
def n(eq):
    return {"output": "vector", "expect": "len(out)", "equals": eq}


def crs(e, kind="vector"):
    return {"output": kind, "crs": e}


def suffix(s):
    return {"output": "vector", "suffix": s}


def area(eq, rel=0.03):
    return {"output": "vector", "expect": "round(utm(out).area.sum())", "equals": f"round({eq})", "rel": rel}


def length(eq, rel=0.02):
    return {"output": "vector", "expect": "round(utm(out).length.sum())", "equals": f"round({eq})", "rel": rel}


def ids(field, frame_expr):
    return {"output": "vector", "expect": f"sorted(out['{field}'].tolist())",
            "equals": f"sorted(({frame_expr})['{field}'].tolist())"}


def order(field, frame_expr):
    return {"output": "vector", "expect": f"list(out['{field}'])", "equals": f"list(({frame_expr})['{field}'])"}


def points():
    return {"output": "vector", "expect": "set(out.geom_type)", "equals": "{'Point'}"}


def ans(expr, rel=0.01):
    return {"answer_number": expr, "rel": rel}


def has(val, rel=0.01, kind="any_table"):
    """the output table (or layer attributes) contains a value close to VAL somewhere"""
    return {"output": kind,
            "expect": "any(np.isclose(float(v), %s, rtol=%s) for v in pd.to_numeric("
                      "out.drop(columns='geometry', errors='ignore').stack(), errors='coerce').dropna())" % (val, rel),
            "equals": "True"}


def per_key(key, exp_dict, rel=0.01):
    """some attribute column of `out`, keyed by the input's KEY field, matches EXP_DICT (every key)"""
    return {"output": "vector",
            "expect": "any(all(np.isclose(float(d.get(k, np.nan)), float(v), rtol=%s, atol=1e-9) for k, v in (%s).items()) "
                      "for d in [dict(zip(out['%s'], pd.to_numeric(out[c], errors='coerce'))) for c in out.columns if c not in ('geometry', '%s')])"
                      % (rel, exp_dict, key, key),
            "equals": "True"}


def image():
    return {"output": "image", "expect": "str(out).lower().endswith('.png')", "equals": "True"}


def pts_in(poly, key, pts):
    return "dict(zip(%s['%s'], [int(%s.to_crs(%s.crs).within(g).sum()) for g in %s.geometry]))" % (poly, key, pts, poly, poly)


def near_pairs(a, ka, b, kb):
    return {"output": "vector", "expect": f"sorted(zip(out['{ka}'], out['{kb}']))",
            "equals": f"sorted(zip(*[gpd.sjoin_nearest(utm({a}), utm({b}).to_crs(utm({a}).crs))[c] for c in ('{ka}', '{kb}')]))"}


def within_d(target, ref, d):
    """features of TARGET within D metres of REF (distance in local UTM)"""
    return f"{target}[utm({target}).distance(utm({ref}).to_crs(utm({target}).crs).union_all()).values <= {d}]"


def beyond_d(target, ref, d):
    return f"{target}[utm({target}).distance(utm({ref}).to_crs(utm({target}).crs).union_all()).values > {d}]"


S = "s:"
B = "b:"
cases = {"en": [], "de": [], "zh": []}


def c(lang, cls, request, inputs, checks=None):
    lst = cases[lang]
    case = {"id": f"{lang}-{len(lst) + 1:03d}", "lang": lang, "class": cls, "request": request, "inputs": inputs,
            "expect": "answer" if checks else "decline"}
    if checks:
        case["checks"] = checks
    lst.append(case)


def d(lang, cls, request, inputs):
    c(lang, cls, request, inputs, None)


SZ = "equal_area(districts).area"   # not used: town is in metres already
HAB_HA = "dict(zip(habitats['HabCode'], equal_area(habitats).area / 1e4))"
ZONE_MINUS_HAB = "utm(mgmt_zones).area.sum() - utm(mgmt_zones).union_all().intersection(utm(habitats).to_crs(utm(mgmt_zones).crs).union_all()).area"
SENS_IN_ZONES = "sensors[sensors.within(mgmt_zones.union_all())]"
TRAILS_CLIP_HAB = "utm(gpd.clip(trails, habitats.to_crs(trails.crs))).length.sum()"

# ================================================================ ENGLISH — sample town
E = "en"
c(E, "plain", "buffer schools 250m", [S + "schools.gpkg"],
  [n("len(schools)"), area("schools.buffer(250).area.sum()")])
c(E, "plain", "Reproject the districts layer to WGS84.", [S + "districts.gpkg"],
  [crs(4326), n("len(districts)")])
c(E, "plain", "dissolve districts by landuse", [S + "districts.gpkg"],
  [n("districts['landuse'].nunique()"), area("districts.area.sum()", 0.01)])
c(E, "plain", "centroids of the districts", [S + "districts.gpkg"],
  [n("8"), points(), {"output": "vector", "expect": "round(out.to_crs(32633).geometry.x.sum())", "equals": "round(districts.centroid.x.sum())", "abs": 5}])
c(E, "plain", "what's the total length of all roads, in km?", [S + "roads.gpkg"],
  [ans("roads.length.sum() / 1000")])
c(E, "plain", "calculate the area of each district in hectares", [S + "districts.gpkg"],
  [n("8"), per_key("district_id", "dict(zip(districts['district_id'], districts.area / 1e4))")])
c(E, "plain", "show me the cafes with a rating above 4.5", [S + "cafes.gpkg"],
  [ids("cafe_id", "cafes[cafes['rating'] > 4.5]")])
c(E, "each_per", "count the houses in each district", [S + "districts.gpkg", S + "houses.gpkg"],
  [n("8"), per_key("name", pts_in("districts", "name", "houses"))])
c(E, "plain", "select the cafes within 300 m of a bus stop", [S + "cafes.gpkg", S + "bus_stops.gpkg"],
  [ids("cafe_id", within_d("cafes", "bus_stops", 300))])
c(E, "each_per", "find the nearest bus stop to every school", [S + "schools.gpkg", S + "bus_stops.gpkg"],
  [n("12"), near_pairs("schools", "school_id", "bus_stops", "stop_id")])
c(E, "plain", "convex hull around all the schools", [S + "schools.gpkg"],
  [n("1"), area("schools.union_all().convex_hull.area", 0.01)])
c(E, "plain", "bounding box of the houses layer", [S + "houses.gpkg"],
  [n("1"), area("shapely.box(*houses.total_bounds).area", 0.01)])
c(E, "plain", "What's the average number of students at a school?", [S + "schools.gpkg"],
  [ans("schools['students'].mean()")])
c(E, "plain", "sort the districts by population, largest first", [S + "districts.gpkg"],
  [order("name", "districts.sort_values('population', ascending=False)")])
c(E, "output_clause", "export the schools as geojson", [S + "schools.gpkg"],
  [suffix(".geojson"), n("12")])
c(E, "output_clause", "save the cafes as a shapefile please", [S + "cafes.gpkg"],
  [suffix(".shp"), n("40")])
c(E, "output_clause", "make a map of the districts coloured by median income and save it as PNG", [S + "districts.gpkg"],
  [image()])
c(E, "crs_roles", "reproject houses from UTM 33N to ETRS89-LAEA (EPSG:3035)", [S + "houses.gpkg"],
  [crs(3035), n("1500")])
c(E, "crs_roles", "convert the districts to web mercator", [S + "districts.gpkg"],
  [crs(3857)])
c(E, "crs_roles", "the schools are in EPSG:32633, I need them in EPSG:4326", [S + "schools.gpkg"],
  [crs(4326), n("12")])
c(E, "crs_roles", "transform roads from EPSG:32633 into EPSG:25833", [S + "roads.gpkg"],
  [crs(25833), length("roads.length.sum()", 0.01)])
c(E, "each_per", "total residents per district", [S + "districts.gpkg", S + "houses.gpkg"],
  [per_key("name", "dict(zip(districts['name'], [int(houses.loc[houses.within(g), 'residents'].sum()) for g in districts.geometry]))")])
c(E, "each_per", "how many houses of each type are there?", [S + "houses.gpkg"],
  [ans("(houses['type'] == 'detached').sum()", 0), ans("(houses['type'] == 'terrace').sum()", 0), ans("(houses['type'] == 'apartment').sum()", 0)])
c(E, "each_per", "number of cafes per district", [S + "districts.gpkg", S + "cafes.gpkg"],
  [per_key("name", pts_in("districts", "name", "cafes"))])
c(E, "roles", "select houses within 200 m of schools", [S + "houses.gpkg", S + "schools.gpkg"],
  [ids("house_id", within_d("houses", "schools", 200))])
c(E, "roles", "use the districts to count the cafes", [S + "cafes.gpkg", S + "districts.gpkg"],
  [n("8"), per_key("name", pts_in("districts", "name", "cafes"))])
c(E, "negation", "which districts contain no school at all?", [S + "districts.gpkg", S + "schools.gpkg"],
  [ids("name", "districts[[not schools.within(g).any() for g in districts.geometry]]")])
c(E, "negation", "all houses except the apartments", [S + "houses.gpkg"],
  [n("(houses['type'] != 'apartment').sum()")])
c(E, "negation", "cafes without wifi", [S + "cafes.gpkg"],
  [ids("cafe_id", "cafes[cafes['wifi'] == 'no']")])
c(E, "negation", "bus stops that are NOT within 500 m of any school", [S + "bus_stops.gpkg", S + "schools.gpkg"],
  [ids("stop_id", beyond_d("bus_stops", "schools", 500))])
c(E, "negation", "districts that aren't residential", [S + "districts.gpkg"],
  [ids("name", "districts[districts['landuse'] != 'residential']")])
c(E, "numbers", "top 5 schools by number of students", [S + "schools.gpkg"],
  [ids("school_id", "schools.nlargest(5, 'students')")])
c(E, "numbers", "houses built before 1950 that are worth more than 400k", [S + "houses.gpkg"],
  [ids("house_id", "houses[(houses['year_built'] < 1950) & (houses['value_eur'] > 400000)]")])
c(E, "numbers", "buffer the roads by half a mile", [S + "roads.gpkg"],
  [area("roads.buffer(804.672).area.sum()")])
c(E, "numbers", "1000 ft buffer around bus stops", [S + "bus_stops.gpkg"],
  [n("60"), area("bus_stops.buffer(304.8).area.sum()")])
c(E, "numbers", "the 3 cafes with the most seats", [S + "cafes.gpkg"],
  [ids("cafe_id", "cafes.nlargest(3, 'seats')")])
d(E, "not_loaded", "how many hospitals are within 1 km of each school?", [S + "schools.gpkg"])
d(E, "not_loaded", "average rainfall in each district last year", [S + "districts.gpkg"])
d(E, "missing_field", "filter the schools where capacity > 800", [S + "schools.gpkg"])
d(E, "missing_field", "sort roads by traffic volume, busiest first", [S + "roads.gpkg"])
d(E, "chain", "buffer the schools by 300 m, then count the houses in each buffer and export to csv",
  [S + "schools.gpkg", S + "houses.gpkg"])
d(E, "chain", "find the districts with more than 10000 people and clip the houses to them",
  [S + "districts.gpkg", S + "houses.gpkg"])
d(E, "open_ended", "which district would be best for a new school?", [S + "districts.gpkg", S + "schools.gpkg", S + "houses.gpkg"])
d(E, "open_ended", "is there anything weird in the houses data?", [S + "houses.gpkg"])
c(E, "typo", "bufer the scools by 1km", [S + "schools.gpkg"],
  [n("12"), area("schools.buffer(1000).area.sum()")])
c(E, "typo", "reprojet districs to 4326 pls", [S + "districts.gpkg"],
  [crs(4326)])
c(E, "typo", "cout cafes per distrct", [S + "districts.gpkg", S + "cafes.gpkg"],
  [per_key("name", pts_in("districts", "name", "cafes"))])
c(E, "plain", "compute slope in degrees from the DEM", [S + "dem.tif"],
  [crs(32633, "raster")])
c(E, "each_per", "mean elevation of each district from the dem", [S + "districts.gpkg", S + "dem.tif"],
  [n("8")])
c(E, "plain", "how many countries are in Africa?", [S + "countries.geojson"],
  [ans("(countries['continent'] == 'Africa').sum()", 0)])
c(E, "crs_roles", "reproject countries from WGS 84 to Equal Earth (EPSG:8857)", [S + "countries.geojson"],
  [crs(8857), n("len(countries)")])
c(E, "numbers", "the 10 most populous countries", [S + "countries.geojson"],
  [ids("name", "countries.nlargest(10, 'pop_est')")])
c(E, "roles", "world cities that fall inside South America", [S + "world_cities.geojson", S + "countries.geojson"],
  None)  # placeholder replaced below (chain: filter + select)
cases[E][-1].update({"class": "chain", "expect": "decline"})
c(E, "plain", "Could you join the district attributes onto the schools, please?", [S + "schools.gpkg", S + "districts.gpkg"],
  [n("12"), {"output": "vector", "expect": "sorted(zip(out['school_id'], out['district_id']))",
             "equals": "sorted(zip(*[gpd.sjoin(schools, districts, predicate='within')[c] for c in ('school_id', 'district_id')]))"}])

# ================================================================ ENGLISH — coastal park (blind2 data)
c(E, "plain", "buffer the trails by 50 m", [B + "trails.gpkg"],
  [n("24"), area("utm(trails).buffer(50).area.sum()")])
c(E, "numbers", "500 ft buffer around the trails", [B + "trails.gpkg"],
  [n("24"), area("utm(trails).buffer(152.4).area.sum()")])
c(E, "crs_roles", "reproject the trails from NY state plane (feet) to WGS 84", [B + "trails.gpkg"],
  [crs(4326), n("24")])
c(E, "crs_roles", "put the sensors in EPSG:32118", [B + "sensors.gpkg"],
  [crs(32118), n("60")])
c(E, "crs_roles", "habitats are in CONUS Albers, I need them in UTM zone 18N", [B + "habitats.gpkg"],
  [crs(32618), n("30")])
c(E, "crs_roles", "convert shoreline from EPSG:32618 to EPSG:2263", [B + "shoreline.gpkg"],
  [crs(2263), n("8")])
c(E, "crs_roles", "the shelters are already in EPSG:32118 - reproject the trails to match them", [B + "trails.gpkg", B + "shelters.gpkg"],
  [crs(32118), n("24")])
c(E, "plain", "clip the sensors to the management zones", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [ids("SensorID", SENS_IN_ZONES)])
c(E, "roles", "use the habitats to cut the trails", [B + "trails.gpkg", B + "habitats.gpkg"],
  [length(TRAILS_CLIP_HAB)])
c(E, "roles", "erase the habitats from the zones", [B + "mgmt_zones.gpkg", B + "habitats.gpkg"],
  [area(ZONE_MINUS_HAB, 0.02)])
c(E, "plain", "dissolve habitats by hab_type", [B + "habitats.gpkg"],
  [n("habitats['hab_type'].nunique()"), area("utm(habitats).area.sum()", 0.01)])
c(E, "each_per", "total habitat area per habitat type, in hectares", [B + "habitats.gpkg"],
  [has("equal_area(habitats)[habitats['hab_type'] == 'beach'].area.sum() / 1e4"),
   has("equal_area(habitats)[habitats['hab_type'] == 'tidal_flat'].area.sum() / 1e4")])
c(E, "plain", "how long is the ocean shoreline in km?", [B + "shoreline.gpkg"],
  [ans("utm(shoreline)[shoreline['shore_typ'] == 'ocean'].length.sum() / 1000")])
c(E, "numbers", "total trail length in miles", [B + "trails.gpkg"],
  [ans("utm(trails).length.sum() / 1609.344")])
c(E, "each_per", "count sensors in each management zone", [B + "mgmt_zones.gpkg", B + "sensors.gpkg"],
  [n("6"), per_key("ZoneName", pts_in("mgmt_zones", "ZoneName", "sensors"))])
c(E, "each_per", "how many sensors of each sensType?", [B + "sensors.gpkg"],
  [ans("(sensors['sensType'] == 'tide_gauge').sum()", 0), ans("(sensors['sensType'] == 'weather').sum()", 0),
   ans("(sensors['sensType'] == 'water_quality').sum()", 0)])
c(E, "plain", "centroid of every habitat polygon", [B + "habitats.gpkg"],
  [n("30"), points()])
c(E, "each_per", "nearest shelter for each sensor", [B + "sensors.gpkg", B + "shelters.gpkg"],
  [n("60"), near_pairs("sensors", "SensorID", "shelters", "ShelterNo")])
c(E, "numbers", "sensors with battery below 20%", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['batt_pct'] < 20]")])
c(E, "numbers", "which sensors are at 20% battery or less?", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['batt_pct'] <= 20]")])
c(E, "negation", "all sensors except the offline ones", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['status'] != 'offline']")])
c(E, "negation", "trails that are not boardwalk", [B + "trails.gpkg"],
  [ids("TrailID", "trails[trails['SurfaceTyp'] != 'boardwalk']")])
c(E, "negation", "shelters that are NOT within 500 m of any trail", [B + "shelters.gpkg", B + "trails.gpkg"],
  [ids("ShelterNo", beyond_d("shelters", "trails", 500))])
c(E, "numbers", "which 3 zones had the most visitors in 2023", [B + "mgmt_zones.gpkg"],
  [ids("ZoneName", "mgmt_zones.nlargest(3, 'Visitors_2023')")])
c(E, "numbers", "shelters with at least 10 beds", [B + "shelters.gpkg"],
  [ids("ShelterNo", "shelters[shelters['beds'] >= 10]")])
d(E, "not_loaded", "which huts are closest to the parking lots?", [B + "shelters.gpkg", B + "trails.gpkg"])
d(E, "not_loaded", "overlay the 2022 bird nesting counts with the habitats", [B + "habitats.gpkg"])
d(E, "missing_field", "show trails where slope_pct is above 10", [B + "trails.gpkg"])
d(E, "missing_field", "average salinity of the water_quality sensors", [B + "sensors.gpkg"])
d(E, "chain", "buffer the shoreline by 200 m, find which shelters fall inside it, then export them as csv",
  [B + "shoreline.gpkg", B + "shelters.gpkg"])
d(E, "open_ended", "where should we put the next ranger station?", [B + "shelters.gpkg", B + "trails.gpkg", B + "mgmt_zones.gpkg"])
c(E, "output_clause", "export the habitats to geojson", [B + "habitats.gpkg"],
  [suffix(".geojson"), n("30")])
c(E, "output_clause", "save the trails as a shapefile to /tmp/geo_out/trails_ft.shp", [B + "trails.gpkg"],
  [suffix(".shp"), n("24")])
c(E, "output_clause", "map of the habitats by hab_type, png please", [B + "habitats.gpkg"],
  [image()])
c(E, "output_clause", "clip sensors to the zones and give me a geopackage", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [suffix(".gpkg"), ids("SensorID", SENS_IN_ZONES)])
c(E, "plain", "bounding box of the trails", [B + "trails.gpkg"],
  [n("1"), area("utm(gpd.GeoSeries([shapely.box(*trails.total_bounds)], crs=trails.crs)).area.sum()", 0.04)])
c(E, "plain", "convex hull of all sensors", [B + "sensors.gpkg"],
  [n("1"), area("utm(sensors).union_all().convex_hull.area", 0.01)])
c(E, "numbers", "perimeter of each management zone in feet", [B + "mgmt_zones.gpkg"],
  [per_key("ZoneName", "dict(zip(mgmt_zones['ZoneName'], utm(mgmt_zones).length / 0.3048))")])
c(E, "plain", "area of each habitat in acres", [B + "habitats.gpkg"],
  [per_key("HabCode", "dict(zip(habitats['HabCode'], equal_area(habitats).area / 4046.8564))")])
c(E, "plain", "stats for batt_pct", [B + "sensors.gpkg"],
  [ans("sensors['batt_pct'].mean()"), ans("sensors['batt_pct'].max()", 0), ans("sensors['batt_pct'].min()", 0)])
c(E, "each_per", "mean battery level per sensor type", [B + "sensors.gpkg"],
  [has("sensors.loc[sensors['sensType'] == 'weather', 'batt_pct'].mean()"),
   has("sensors.loc[sensors['sensType'] == 'tide_gauge', 'batt_pct'].mean()")])
c(E, "typo", "clip sensers to mgmt zones pls", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [ids("SensorID", SENS_IN_ZONES)])
c(E, "typo", "bufer shorline 100m", [B + "shoreline.gpkg"],
  [n("8"), area("utm(shoreline).buffer(100).area.sum()")])
c(E, "roles", "select the habitats that touch a trail", [B + "habitats.gpkg", B + "trails.gpkg"],
  [ids("HabCode", "habitats[habitats.intersects(trails.to_crs(habitats.crs).union_all())]")])
c(E, "roles", "join the zone attributes to the sensors", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [{"output": "vector", "expect": "sorted((s, z) for s, z in zip(out['SensorID'], out['ZoneName']) if isinstance(z, str))",
    "equals": "sorted(zip(*[gpd.sjoin(sensors, mgmt_zones, predicate='within')[c] for c in ('SensorID', 'ZoneName')]))"}])
d(E, "chain", "which trails cross the tidal flats and how long are those crossings in total?", [B + "trails.gpkg", B + "habitats.gpkg"])
d(E, "open_ended", "summarize what's going on with the sensors and trails", [B + "sensors.gpkg", B + "trails.gpkg"])
c(E, "numbers", "sensors installed in 2018 or later", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['Install_Yr'] >= 2018]")])
c(E, "each_per", "shoreline length by shore type (km)", [B + "shoreline.gpkg"],
  [has("utm(shoreline)[shoreline['shore_typ'] == 'ocean'].length.sum() / 1000"),
   has("utm(shoreline)[shoreline['shore_typ'] == 'bay'].length.sum() / 1000")])
c(E, "roles", "trails within 0.25 miles of the bay shoreline? no wait, any shoreline", [B + "trails.gpkg", B + "shoreline.gpkg"],
  [ids("TrailID", within_d("trails", "shoreline", 402.336))])
c(E, "plain", "how many habitat polygons are used for nesting", [B + "habitats.gpkg"],
  [ans("(habitats['nesting'] == 'yes').sum()", 0)])
d(E, "missing_field", "colour the trails by their elevation gain", [B + "trails.gpkg"])
c(E, "output_clause", "give me the shelters as a CSV with lat/lon columns", [B + "shelters.gpkg"],
  [{"output": "any_table", "expect": "len(out)", "equals": "15"},
   has("shelters.to_crs(4326).geometry.y.iloc[0]", 1e-6)])

# ================================================================ GERMAN
G = "de"
c(G, "plain", "Puffer um die Schulen, 300 m", [S + "schools.gpkg"],
  [n("12"), area("schools.buffer(300).area.sum()")])
c(G, "crs_roles", "Bezirke von UTM 33N nach ETRS89 / UTM 32N (EPSG:25832) umprojizieren", [S + "districts.gpkg"],
  [crs(25832), n("8")])
c(G, "each_per", "Anzahl der Häuser je Bezirk", [S + "districts.gpkg", S + "houses.gpkg"],
  [per_key("name", pts_in("districts", "name", "houses"))])
c(G, "negation", "alle Cafés außer denen mit WLAN", [S + "cafes.gpkg"],
  [ids("cafe_id", "cafes[cafes['wifi'] != 'yes']")])
c(G, "numbers", "die 5 Bezirke mit dem höchsten Medianeinkommen", [S + "districts.gpkg"],
  [ids("name", "districts.nlargest(5, 'median_income')")])
c(G, "output_clause", "Straßen bitte als GeoJSON exportieren", [S + "roads.gpkg"],
  [suffix(".geojson"), n("21")])
c(G, "roles", "Häuser im Umkreis von 150 m um Bushaltestellen auswählen", [S + "houses.gpkg", S + "bus_stops.gpkg"],
  [ids("house_id", within_d("houses", "bus_stops", 150))])
d(G, "not_loaded", "Wie viele Apotheken gibt es in jedem Bezirk?", [S + "districts.gpkg"])
d(G, "missing_field", "Filtere die Schulen nach Schulträger = privat", [S + "schools.gpkg"])
d(G, "chain", "Schulen um 500 m puffern, mit den Bezirken verschneiden und dann die Fläche je Bezirk berechnen",
  [S + "schools.gpkg", S + "districts.gpkg"])
c(G, "plain", "Gesamtlänge aller Straßen in Kilometern?", [S + "roads.gpkg"],
  [ans("roads.length.sum() / 1000")])
c(G, "plain", "Konvexe Hülle um alle Cafés", [S + "cafes.gpkg"],
  [n("1"), area("cafes.union_all().convex_hull.area", 0.01)])
c(G, "numbers", "Häuser mit mehr als 4 Bewohnern", [S + "houses.gpkg"],
  [n("(houses['residents'] > 4).sum()")])
c(G, "typo", "Pufer Bushaltestelen 200m", [S + "bus_stops.gpkg"],
  [n("60"), area("bus_stops.buffer(200).area.sum()")])
c(G, "plain", "Bezirke nach Einwohnerzahl aufsteigend sortieren", [S + "districts.gpkg"],
  [order("name", "districts.sort_values('population')")])
c(G, "each_per", "Durchschnittlicher Hauswert je Haustyp", [S + "houses.gpkg"],
  [has("houses.loc[houses['type'] == 'detached', 'value_eur'].mean()"),
   has("houses.loc[houses['type'] == 'apartment', 'value_eur'].mean()")])
d(G, "open_ended", "Welche Gegend der Stadt ist am besten versorgt?", [S + "districts.gpkg", S + "cafes.gpkg", S + "bus_stops.gpkg"])
c(G, "plain", "Mittelpunkt jedes Bezirks", [S + "districts.gpkg"],
  [n("8"), points()])
c(G, "negation", "Bushaltestellen ohne Unterstand", [S + "bus_stops.gpkg"],
  [ids("stop_id", "bus_stops[bus_stops['shelter'] == 'no']")])
c(G, "output_clause", "Karte der Bezirke nach Bevölkerung als PNG", [S + "districts.gpkg"],
  [image()])
# coastal park
c(G, "crs_roles", "Wanderwege von US-Fuß (EPSG:2263) nach WGS84 umwandeln", [B + "trails.gpkg"],
  [crs(4326), n("24")])
c(G, "crs_roles", "Die Habitate liegen in EPSG:5070, bitte nach EPSG:32618 umprojizieren", [B + "habitats.gpkg"],
  [crs(32618)])
c(G, "numbers", "Puffer von 1000 Fuß um die Hütten", [B + "shelters.gpkg"],
  [n("15"), area("utm(shelters).buffer(304.8).area.sum()")])
c(G, "plain", "Sensoren auf die Verwaltungszonen zuschneiden", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [ids("SensorID", SENS_IN_ZONES)])
c(G, "each_per", "Zähle die Sensoren je Zone", [B + "mgmt_zones.gpkg", B + "sensors.gpkg"],
  [per_key("ZoneName", pts_in("mgmt_zones", "ZoneName", "sensors"))])
c(G, "negation", "alle Wege außer den gesperrten (open_YN = N)", [B + "trails.gpkg"],
  [ids("TrailID", "trails[trails['open_YN'] != 'N']")])
c(G, "roles", "Zonen minus Habitate", [B + "mgmt_zones.gpkg", B + "habitats.gpkg"],
  [area(ZONE_MINUS_HAB, 0.02)])
c(G, "numbers", "Sensoren mit Akkustand unter 20 %", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['batt_pct'] < 20]")])
d(G, "missing_field", "Mittlere Wassertemperatur der Sensoren?", [B + "sensors.gpkg"])
d(G, "not_loaded", "Zeig mir die Parkplätze in der Nähe der Hütten", [B + "shelters.gpkg"])
c(G, "output_clause", "Habitate als Shapefile speichern", [B + "habitats.gpkg"],
  [suffix(".shp"), n("30")])
c(G, "plain", "Fläche jedes Habitats in Hektar berechnen", [B + "habitats.gpkg"],
  [per_key("HabCode", HAB_HA)])
c(G, "plain", "Habitate nach hab_type zusammenführen", [B + "habitats.gpkg"],
  [n("habitats['hab_type'].nunique()")])
c(G, "each_per", "Uferlänge je Ufertyp in km", [B + "shoreline.gpkg"],
  [has("utm(shoreline)[shoreline['shore_typ'] == 'ocean'].length.sum() / 1000"),
   has("utm(shoreline)[shoreline['shore_typ'] == 'bay'].length.sum() / 1000")])
d(G, "chain", "Wege puffern, dann mit Habitaten verschneiden und die Fläche pro Typ ausgeben", [B + "trails.gpkg", B + "habitats.gpkg"])
c(G, "typo", "naechste Huette zu jedem Sensor", [B + "sensors.gpkg", B + "shelters.gpkg"],
  [n("60"), near_pairs("sensors", "SensorID", "shelters", "ShelterNo")])
c(G, "numbers", "Die drei Zonen mit den wenigsten Besuchern", [B + "mgmt_zones.gpkg"],
  [ids("ZoneName", "mgmt_zones.nsmallest(3, 'Visitors_2023')")])
c(G, "plain", "Wie viele Sensoren sind offline?", [B + "sensors.gpkg"],
  [ans("(sensors['status'] == 'offline').sum()", 0)])
d(G, "open_ended", "Was fällt dir an den Sensordaten auf?", [B + "sensors.gpkg"])
c(G, "negation", "Hütten, die NICHT weiter als 300 m von einem Weg entfernt sind", [B + "shelters.gpkg", B + "trails.gpkg"],
  [ids("ShelterNo", within_d("shelters", "trails", 300))])

# ================================================================ CHINESE
Z = "zh"
c(Z, "plain", "给学校做800米缓冲区", [S + "schools.gpkg"],
  [n("12"), area("schools.buffer(800).area.sum()")])
c(Z, "crs_roles", "把区县从UTM 33N转换成WGS84", [S + "districts.gpkg"],
  [crs(4326), n("8")])
c(Z, "crs_roles", "将道路投影到EPSG:3857", [S + "roads.gpkg"],
  [crs(3857)])
c(Z, "each_per", "统计每个区的房屋数量", [S + "districts.gpkg", S + "houses.gpkg"],
  [per_key("name", pts_in("districts", "name", "houses"))])
c(Z, "negation", "除了公寓以外的所有房屋", [S + "houses.gpkg"],
  [n("(houses['type'] != 'apartment').sum()")])
c(Z, "numbers", "评分最高的前10家咖啡馆", [S + "cafes.gpkg"],
  [ids("cafe_id", "cafes.nlargest(10, 'rating')")])
c(Z, "roles", "用区县图层裁剪咖啡馆", [S + "cafes.gpkg", S + "districts.gpkg"],
  [n("40"), points()])
d(Z, "not_loaded", "每个区有多少家医院?", [S + "districts.gpkg"])
d(Z, "missing_field", "按学校的建校年份排序", [S + "schools.gpkg"])
d(Z, "chain", "先筛选人口超过一万的区,再统计这些区里的咖啡馆数量", [S + "districts.gpkg", S + "cafes.gpkg"])
c(Z, "output_clause", "把公交站导出为GeoJSON", [S + "bus_stops.gpkg"],
  [suffix(".geojson"), n("60")])
c(Z, "plain", "计算道路总长度(公里)", [S + "roads.gpkg"],
  [ans("roads.length.sum() / 1000")])
c(Z, "numbers", "1980年以后建成且价值低于30万欧元的房屋", [S + "houses.gpkg"],
  [ids("house_id", "houses[(houses['year_built'] > 1980) & (houses['value_eur'] < 300000)]")])
c(Z, "plain", "公交站的凸包", [S + "bus_stops.gpkg"],
  [n("1"), area("bus_stops.union_all().convex_hull.area", 0.01)])
c(Z, "each_per", "每种学校类型的学生总数", [S + "schools.gpkg"],
  [has("schools.loc[schools['type'] == 'primary', 'students'].sum()"),
   has("schools.loc[schools['type'] == 'secondary', 'students'].sum()")])
c(Z, "output_clause", "按人口画一张区县专题图,输出PNG", [S + "districts.gpkg"],
  [image()])
d(Z, "open_ended", "这个城市哪里最适合开新咖啡馆?", [S + "districts.gpkg", S + "cafes.gpkg"])
c(Z, "each_per", "离每个学校最近的公交站", [S + "schools.gpkg", S + "bus_stops.gpkg"],
  [n("12"), near_pairs("schools", "school_id", "bus_stops", "stop_id")])
c(Z, "negation", "离任何学校都超过500米的公交站", [S + "bus_stops.gpkg", S + "schools.gpkg"],
  [ids("stop_id", beyond_d("bus_stops", "schools", 500))])
# coastal park
c(Z, "crs_roles", "把步道从EPSG:2263转换成EPSG:4326", [B + "trails.gpkg"],
  [crs(4326), n("24")])
c(Z, "crs_roles", "传感器已经是WGS84了,把庇护所也转成同样的坐标系", [B + "shelters.gpkg", B + "sensors.gpkg"],
  [crs(4326), n("15")])
c(Z, "numbers", "步道缓冲300英尺", [B + "trails.gpkg"],
  [n("24"), area("utm(trails).buffer(91.44).area.sum()")])
c(Z, "roles", "用管理区裁剪传感器", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"],
  [ids("SensorID", SENS_IN_ZONES)])
c(Z, "each_per", "每个管理区内有多少个传感器", [B + "mgmt_zones.gpkg", B + "sensors.gpkg"],
  [per_key("ZoneName", pts_in("mgmt_zones", "ZoneName", "sensors"))])
c(Z, "negation", "不是离线状态的传感器", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['status'] != 'offline']")])
c(Z, "numbers", "2018年及以后安装的传感器", [B + "sensors.gpkg"],
  [ids("SensorID", "sensors[sensors['Install_Yr'] >= 2018]")])
d(Z, "missing_field", "筛选出型号为XT-200的传感器", [B + "sensors.gpkg"])
d(Z, "not_loaded", "计算每个栖息地的平均降雨量", [B + "habitats.gpkg"])
c(Z, "plain", "按hab_type融合栖息地", [B + "habitats.gpkg"],
  [n("habitats['hab_type'].nunique()")])
c(Z, "plain", "每个栖息地的面积(公顷)", [B + "habitats.gpkg"],
  [per_key("HabCode", HAB_HA)])
c(Z, "output_clause", "把海岸线导出成shapefile", [B + "shoreline.gpkg"],
  [suffix(".shp"), n("8")])
c(Z, "roles", "管理区减去栖息地", [B + "mgmt_zones.gpkg", B + "habitats.gpkg"],
  [area(ZONE_MINUS_HAB, 0.02)])
d(Z, "chain", "先给海岸线做200米缓冲,再找出缓冲区内的庇护所,最后导出CSV", [B + "shoreline.gpkg", B + "shelters.gpkg"])
c(Z, "plain", "庇护所床位数的统计信息", [B + "shelters.gpkg"],
  [ans("shelters['beds'].mean()"), ans("shelters['beds'].sum()", 0)])
c(Z, "negation", "离所有步道都在300米以外的庇护所", [B + "shelters.gpkg", B + "trails.gpkg"],
  [ids("ShelterNo", beyond_d("shelters", "trails", 300))])
c(Z, "each_per", "每种传感器类型的平均电量", [B + "sensors.gpkg"],
  [has("sensors.loc[sensors['sensType'] == 'weather', 'batt_pct'].mean()"),
   has("sensors.loc[sensors['sensType'] == 'wildlife_cam', 'batt_pct'].mean()")])
d(Z, "open_ended", "保护区的传感器布设合理吗?", [B + "sensors.gpkg", B + "mgmt_zones.gpkg"])
c(Z, "typo", "把栖息地转换到UTM18N座标系", [B + "habitats.gpkg"],
  [crs(32618)])
c(Z, "numbers", "步道总长度是多少英里?", [B + "trails.gpkg"],
  [ans("utm(trails).length.sum() / 1609.344")])

for lang, lst in cases.items():
    with open(os.path.join(HERE, f"cases_{lang}.yaml"), "w", encoding="utf-8") as f:
        yaml.safe_dump(lst, f, allow_unicode=True, sort_keys=False, width=200)
    print(lang, len(lst))
