"""Layers and fields named in a request: fuzzy names, plurals, German/Chinese words, and meanings."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from . import dictionary
from .text import fold, name_tokens, singular

# Layer themes: what users call a layer (English, German, Chinese) → one theme key per kind of thing.
THEMES = {
    "district": "district neighbourhood neighborhood ward borough quarter admin_boundary bezirk stadtteil kreis "
                "viertel 行政区 街区 城区 辖区 片区",
    "school": "school schule 学校 小学 中学",
    "hospital": "hospital health_facility clinic krankenhaus krankenhause klinik 医院 诊所",
    "station": "station train_station metro_station railway_station rail_station stops_rail stop_rail rail_stop "
               "bahnhof bahnhofe 车站 地铁站 火车站",
    "well": "well borehole brunnen 水井 井",
    "gauge": "gauge gauging_station stream_gauge river_gauge pegel pegelstation messpegel 水文站 水位站 测站",
    "trail": "trail hiking_trail footpath ski_run piste wanderweg pfad 步道 小径 徒步道 雪道",
    "lift": "lift ski_lift chairlift chair_lift gondola cable_car draglift drag_lift t_bar surface_lift skilift "
            "bergbahn sessellift sesselbahn seilbahn luftseilbahn gondelbahn schlepplift 缆车 索道 拖牵索道",
    "facility": "facility amenity einrichtung 设施",
    "habitat": "habitat lebensraum biotop 栖息地 生境",
    "snow_cannon": "snow_cannon snow_gun snowmaker schneekanone 造雪机",
    "shelter": "shelter refuge hut mountain_hut hutte schutzhutte berghutte unterkunft 避难所 山屋 山间小屋",
    "forest": "forest woodland wald forst 森林 林地",
    "wetland": "wetland marsh feuchtgebiet 湿地",
    "airport": "airport airfield flughafen 机场",
    "cafe": "cafe coffee_shop coffeeshop coffee cafes 咖啡馆 咖啡店 咖啡厅",
    "bus_stop": "bus_stop busstop stop bus_station bushaltestelle haltestelle 公交站 公交车站",
    "house": "house home dwelling address haus hauser wohnhaus wohnhauser 房屋 住宅 房子 民居",
    "tree": "tree street_tree baum baume strassenbaum strassenbaume 树木 行道树",
    "incident": "incident crime accident collision vorfall vorfalle unfall unfalle 事故 案件",
    "city": "city town place populated_place stadt stadte ortschaft 城市 乡镇 城镇",
    "pharmacy": "pharmacy chemist drugstore apotheke 药店 药房",
    "supermarket": "supermarket grocery supermarkt 超市",
    "restaurant": "restaurant gaststatte 餐厅 饭店",
    "library": "library bibliothek bucherei 图书馆",
    "sensor": "sensor monitoring_station air_quality_sensor weather_station snow_station messstation sensoren "
              "wetterstation schneestation schneemessstation 传感器 监测站 观测站 气象站 积雪站 积雪观测站",
    "road": "road street road_network roadway strasse strass weg 道路 路网 公路 街道 马路",
    "river": "river stream creek brook waterway river_line river_segment river_reach fluss flusse gewasser bach bache "
             "gewasserabschnitt gewasserabschnitte flussabschnitt 河流 河 溪流 小溪 河段",
    "catchment": "catchment subcatchment sub_catchment watershed drainage_basin einzugsgebiet einzugsgebiete "
                 "teileinzugsgebiet teileinzugsgebiete 流域 子流域 集水区",
    "sampling_site": "sampling_station sampling_site sampling_point sample_site measuring_point messstelle messstellen "
                     "messpunkt probenahmestelle probestelle 采样站 采样点 取样点",
    "farm": "farm farmstead agricultural_holding hof hofe bauernhof bauernhofe landwirtschaftsbetrieb "
            "农场 农户 养殖场",
    "protected_area": "protected_area nature_reserve conservation_area schutzgebiet naturschutzgebiet "
                      "保护区 自然保护区",
    "treatment_plant": "treatment_plant wastewater_plant sewage_plant wwtp klaranlage 污水处理厂",
    "railway": "railway rail_line track railroad bahn bahnlinie gleis gleise 铁路",
    "bike_lane": "bike_lane cycleway cycle_network cycle_path bike_path radweg 自行车道",
    "pipe": "pipe pipeline water_main leitung rohr rohre 管线 水管",
    "parcel": "parcel lot cadastre land_parcel flurstuck parzelle 地块",
    "building": "building building_footprint footprint gebaude 建筑 建筑物",
    "tract": "tract census_tract block_group zahlbezirk 人口普查区",
    "country": "country nation world lander land staat staate 国家",
    "park": "park green_space grunflache 公园 绿地",
    "lake": "lake water_body reservoir see 湖泊 水体",
    "avalanche_zone": "avalanche_zone avalanche_area avalanche_path lawinenzone lawinengebiet lawinenzug "
                      "雪崩区 雪崩区域 雪崩危险区",
    "flood_zone": "flood_zone floodplain flood_risk_area flood_area uberschwemmungsgebiet 洪水区 洪泛区",
    "study_area": "study_area boundary city_boundary aoi area_of_interest municipality commune "
                  "gemeinde kommune untersuchungsgebiet "
                  "stadtgrenze 研究区 边界 市镇",
    "landcover": "landcover land_cover land_use corine worldcover landbedeckung 土地覆盖",
    "census_table": "census_table census demographic demographics_table pop_stat stats_table zensustabelle 人口普查表",
    "dem": "dem dtm dgm srtm elevation elevation_model elevation_raster terrain hohenmodell 高程 数字高程模型",
    "ndvi": "ndvi ndvi_raster",
    "image": "image imagery satellite satellite_image multispectral multispectral_image scene orthophoto ortho "
             "sentinel2 landsat satellitenbild bild bildern luftbild szene multispektralbild "
             "影像 卫星影像 遥感影像 多光谱影像",
    "temperature": "temperature temperature_raster temperature_grid temperaturraster tmean lst 温度栅格 气温",
}  # fmt: skip
THEME = {w: key for key, ws in THEMES.items() for w in ws.split()}
# Words that also name the things of other themes: German 'Bahn' is a railway and, in the mountains, a lift (Berg-,
# Sessel-, Gondelbahn); a 'Gemeinde' or 市镇 is a municipality and also a town. In a request such a word finds a loaded
# layer of any of its themes, so two loaded layers it fits are a question (two layers on one phrase), never a pick;
# a layer's own name takes the word's first theme (THEME).
ALSO_THEMES = {"bahn": ("lift",), "gemeinde": ("city",), "市镇": ("city",)}
# Theme words that name one KIND of the theme's thing (a chairlift is a lift, not every lift is a chairlift): they
# find the layer, but on a layer that records kinds (a 'type' field, or the word among its values) they may mean a
# subset, so there they explain no word of the request (planning/explain.py) and an unplaced kind is asked about.
THEME_KINDS = {  # one kind per token, its names in en/de/zh joined by '/': 'Kliniken' of a layer 'clinics' is its name
    "lift": "chairlift/chair_lift/sessellift/sesselbahn/吊椅 gondola/gondelbahn cable_car/seilbahn/luftseilbahn/缆车 "
            "draglift/drag_lift/t_bar/surface_lift/schlepplift/拖牵索道",  # 索道 (ropeway) is any ski lift
    "sensor": "weather_station/wetterstation/气象站 snow_station/schneestation/schneemessstation/积雪站/积雪观测站",
    "trail": "ski_run/piste/雪道",
    "school": "小学 中学",
    "hospital": "clinic/klinik/诊所",  # a clinic is one kind of health facility; German Klinik is asked too
    "station": "metro_station/地铁站",
    "tree": "street_tree/strassenbaum/strassenbaume/行道树",
    "river": "creek/brook/bach/bache/小溪/溪流",
    "city": "town/乡镇",
    "farm": "养殖场",
    "protected_area": "nature_reserve/naturschutzgebiet/自然保护区",
}  # fmt: skip
KIND_NAMES = {w: frozenset(group.split("/")) for ws in THEME_KINDS.values() for group in ws.split()
              for w in group.split("/")}  # fmt: skip
KIND_WORDS = set(KIND_NAMES)
_KIND_FIELD = re.compile(
    r"(?:^|_)(?:type|kind|class|category|categorie|typ|art|klasse|kategorie|sorte|subtype)s?(?:_|$)|类型|类别|种类"
)


def records_kinds(layer, word: str) -> bool:
    """Does the layer record kinds of its things, so that `word` (a kind word) may name a subset of it: a field
    named like a kind ('type', 'lift_type', 'Art', '类型'), or a text field with the word among its sample values."""
    forms_of = {fold(word), singular(fold(word)), fold(word).replace("_", " "), singular(fold(word)).replace("_", "")}
    for f in getattr(layer, "fields", ()) or ():
        if _KIND_FIELD.search(fold(f.name)):
            return True
        if any(isinstance(v, str) and {fold(v), singular(fold(v))} & forms_of for v in f.samples):
            return True
    return False
ZH_WORDS = {w: key for w, key in THEME.items() if re.match(r"[\u4e00-\u9fff]", w)}
ZH_SORTED = sorted(ZH_WORDS.items(), key=lambda kv: -len(kv[0]))
CJK_RE = re.compile(r"[\u4e00-\u9fff]")
_GENERIC_TOKENS = {"layer", "data", "the", "of", "shp", "gpkg", "geojson", "csv", "new", "all", "final", "osm"}

# Meanings: words users say → tokens a field name may carry.
CONCEPTS = [
    ({"population", "people", "inhabitants", "residents", "populous", "populated", "einwohner", "bevolkerung",
      "einwohnerzahl", "人口", "居民"}, {"pop", "population", "popul", "einw", "inhabitants", "pop_est"}),
    ({"name", "names", "called", "named", "namen", "bezeichnung", "名称", "名字"}, {"name", "nom", "nombre", "bez"}),
    ({"area", "size", "flache", "flaeche", "面积", "big", "large", "largest", "biggest", "gross", "grosste",
      "grossten"},
     {"area", "shape_area", "flaeche", "flache", "acres", "ha", "hectares", "m2", "km2"}),
    ({"length", "long", "lange", "laenge", "长度"}, {"length", "len", "shape_leng", "laenge", "lange"}),
    ({"type", "kind", "category", "class", "classes", "typ", "art", "kategorie", "klasse", "类型", "类别", "种类"},
     {"type", "fclass", "class", "category", "kind", "typ", "kategorie", "highway", "amenity"}),
    ({"height", "tall", "hohe", "hoehe", "高度"}, {"height", "hoehe", "hohe", "h"}),
    ({"elevation", "altitude", "hohenlage", "海拔", "高程"}, {"elev", "elevation", "alt", "altitude", "dem", "z"}),
    ({"speed", "speeds", "geschwindigkeit", "速度", "限速"}, {"maxspeed", "speed", "max_speed"}),
    ({"lanes", "lane", "spuren", "fahrspuren", "fahrstreifen", "车道", "车道数"}, {"lanes", "lane"}),
    ({"floors", "storeys", "stories", "levels", "stockwerke", "etagen", "geschosse", "楼层", "层"},
     {"floors", "levels", "storeys", "building_levels", "geschosse"}),
    ({"students", "pupils", "enrolment", "enrollment", "schuler", "schueler", "学生"},
     {"students", "pupils", "enrolment", "enrollment", "schueler"}),
    ({"income", "einkommen", "收入"}, {"income", "inc", "median_income"}),
    ({"value", "values", "wert", "werte", "价值"}, {"value"}),
    ({"price", "prices", "cost", "expensive", "cheap", "worth", "valuable", "preis", "wert", "价格", "房价", "价值"},
     {"price", "cost", "value"}),
    ({"year", "built", "baujahr", "jahr", "年份", "建成", "建造"},
     {"year", "built", "year_built", "baujahr", "yr", "constr", "jahr"}),
    ({"gdp", "economy", "economic", "bip", "wirtschaftsleistung", "国内生产总值"},
     {"gdp", "gdp_md", "gdp_md_est", "bip"}),
    ({"continent", "kontinent", "大洲"}, {"continent"}),
    # a size adjective hints at capacity too (a winery's or a hall's size): with an area field as well, it is asked
    ({"capacity", "seats", "seating", "kapazitat", "sitzplatz", "sitzplatze", "sitzplatzen", "sitze", "容量", "座位",
      "座位数", "forderleistung", "foerderleistung", "transportkapazitat", "运量", "运力", "big", "large", "largest",
      "biggest", "gross", "grosste", "grossten"}, {"capacity", "seats"}),
    ({"rating", "rated", "stars", "score", "bewertung", "bewertet", "sterne", "评分", "评级", "星级"},
     {"rating", "stars", "score"}),
    ({"density", "dichte", "密度"}, {"density", "dens"}),
    ({"id", "identifier", "编号", "kennung"}, {"id", "fid", "gid", "objectid"}),
    ({"depth", "deep", "tiefe", "深度"}, {"depth", "max_depth", "tiefe"}),
    ({"width", "wide", "breite", "宽度"}, {"width", "breite"}),
    ({"status", "condition", "zustand", "状态"}, {"status", "condition", "zustand"}),
    ({"beds", "bed", "betten", "床位", "床位数"}, {"beds", "bed", "betten"}),
    ({"riders", "ridership", "passengers", "boardings", "busiest", "busy", "fahrgaste", "客流量"},
     {"riders", "ridership", "pax", "boardings", "passengers"}),
    ({"households", "haushalte", "户数"}, {"households", "hh"}),
    ({"diameter", "trunk", "durchmesser", "stammdurchmesser", "胸径", "直径"}, {"diameter", "dbh", "diam"}),
    ({"species", "genus", "baumart", "树种"}, {"species", "genus"}),
    ({"landuse", "zoning", "landnutzung", "土地利用"}, {"landuse", "zoning", "lu", "lc", "land_use"}),
    ({"date", "when", "datum", "日期", "时间"}, {"date", "timestamp", "occurred", "time"}),
    ({"occupants", "residents", "inhabitants", "bewohner", "住户"}, {"occupants", "residents"}),
    ({"construction", "baujahr", "建造年份"}, {"year", "built", "constr", "yr"}),
    ({"concentration", "pm25", "pollution", "konzentration", "浓度"}, {"pm", "no", "pm25", "no2"}),
    ({"surface", "belag", "路面"}, {"surface"}),
    ({"shelter", "shelters", "unterstand", "wartehauschen", "候车亭"}, {"shelter"}),
    ({"wifi", "wlan", "无线网络", "无线网"}, {"wifi"}),
    ({"district", "region", "borough", "bezirk", "stadtteil", "区", "区域"}, {"district", "region", "borough"}),
    ({"difficulty", "schwierigkeit", "schwierigkeitsgrad", "难度", "难度等级"}, {"difficulty"}),
    ({"snow", "snowpack", "snow_depth", "schnee", "schneehohe", "schneetiefe", "积雪深度", "积雪厚度", "雪深"},
     {"snow", "snow_depth", "snowdepth"}),
    ({"ascent", "climb", "aufstieg", "hohenmeter", "爬升", "累计爬升"}, {"ascent", "climb"}),
    ({"season", "saison", "季节"}, {"season", "saison"}),
]  # fmt: skip


# Adjectives that only hint at a field ('the 3 largest districts by population' ranks by population).
_WEAK_WORDS = {"big", "large", "largest", "biggest", "gross", "grosse", "grosste", "grossten", "grossere", "long"}


@lru_cache(maxsize=8192)
def forms(word: str) -> tuple[str, ...]:
    """A word and its likely base forms (English and German plurals and case endings)."""
    w = fold(word)
    out = [w, singular(w)]
    if len(w) > 4:
        for suffix in ("en", "er", "es", "e", "n", "s"):  # des Bildes, des Flusses: the genitive -es too
            if w.endswith(suffix):
                out.append(w[: -len(suffix)])
    return tuple(dict.fromkeys(out))


def canon(word: str) -> str:
    """A word's theme key when it has one, else its singular."""
    for f in forms(word):
        if f in THEME:
            return THEME[f]
    return singular(fold(word))


def theme_keys(word: str) -> tuple[str, ...]:
    """Every theme a request word names: its own and those of ALSO_THEMES ('Bahnen' → railway, lift)."""
    key = canon(word)
    if key not in THEMES:
        return ()
    also = next((ALSO_THEMES[f] for f in forms(word) if f in ALSO_THEMES), ())
    return (key, *also)


def theme_words(theme: str) -> list[str]:
    """The words that name a theme in a request: its own and the shared words of ALSO_THEMES."""
    return THEMES[theme].split() + [w for w, keys in ALSO_THEMES.items() if theme in keys]


@dataclass
class Mention:
    """Something of the schema named in the text: what, where, and how sure."""

    name: str
    start: int
    end: int
    score: float
    layer: str | None = None  # for fields and values: the layer they belong to
    value: object = None  # for category values
    note: str = ""  # how a word was read when not as written: 'Sichtungen → sighting → sightings' (dictionary)


_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@lru_cache(maxsize=8192)
def word_re(variant: str) -> re.Pattern:
    """A compiled pattern finding `variant` as a whole word (as a substring for Chinese)."""
    if _is_cjk(variant[:1]):
        return re.compile(re.escape(variant))
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(variant) + r"(?![A-Za-z0-9_])")


def _text_words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(fold(text))]


def _is_cjk(word: str) -> bool:
    return bool(re.match(r"[\u4e00-\u9fff]", word))


# Words that end layer names but name a measure or an operation in a request ('study_area': 'the area of…').
_NOT_HEADS = {
    "area", "zone", "point", "line", "polygon", "feature", "layer", "data", "grid", "boundary", "extent", "buffer",
    "result", "output", "input", "table", "land", "type", "name", "value", "total", "count", "sample", "test", "copy",
    "clip", "union", "merge", "join", "level", "class", "code", "stat", "summary", "centroid", "center", "centre",
    "hull", "cell", "ring", "distance", "length", "size", "part", "shape", "geom", "geometry", "clean", "fixed",
}  # fmt: skip
_SHORT_OK = re.compile(r"(?:layer|图层|ebene)\s*$|[\"'“„「«]$")


@lru_cache(maxsize=8192)
def layer_theme(name: str) -> str | None:
    """The theme of a layer name: 'osm_schools' → school, 'wards' → district, 'srtm_30m' → dem."""
    toks = [singular(t) for t in name_tokens(name) if not t.isdigit() and t not in _GENERIC_TOKENS]
    for n in range(len(toks), 0, -1):
        for i in range(len(toks) - n, -1, -1):  # English compounds end in their head noun: world_cities
            key = THEME.get("_".join(toks[i : i + n])) or THEME.get("".join(toks[i : i + n]))
            if key is None and n == 1:
                key = next((THEME[f] for f in forms(toks[i]) if f in THEME), None)
            if key:
                return key
    return None


def _theme_mentions(text: str, words) -> list[tuple[str, int, int]]:
    """Theme words in the text (1-3 word phrases and Chinese terms), as (theme, start, end)."""
    out, taken = [], set()
    for n in (3, 2, 1):
        for i in range(len(words) - n + 1):
            if any(j in taken for j in range(i, i + n)):
                continue
            parts = [singular(w) for w, _, _ in words[i : i + n]]
            key = THEME.get("_".join(parts)) or (THEME.get("".join(parts)) if n > 1 else None)
            keys = theme_keys(words[i][0]) or ((key,) if key else ()) if n == 1 else (key,) if key else ()
            s, e = words[i][1], words[i + n - 1][2]
            if keys and "_" not in text[max(0, s - 1) : s] + text[e : e + 1]:  # not a part of 'district_name'
                out += [(k, s, e) for k in keys]
                taken.update(range(i, i + n))
    if not CJK_RE.search(text):
        return out
    for zh, key in ZH_SORTED:
        for m in word_re(zh).finditer(text):
            if not any(s <= m.start() < e for _, s, e in out):
                out += [(k, m.start(), m.end()) for k in (key, *ALSO_THEMES.get(zh, ()))]
    for m in _ZH_DISTRICT.finditer(text):  # 每个区, 各区, 区内: the one-character word for the districts
        if not any(s <= m.start() < e for _, s, e in out):
            out.append(("district", m.start(), m.end()))
    return out


_ZH_DISTRICT = re.compile(r"(?:(?<=每个)|(?<=各个)|(?<=[各每]))区(?![域划名])|(?<![\u4e00-\u9fff])区(?=内|里|中)")


def find_layers(text: str, layers) -> list[Mention]:
    """Layers named in the text, left to right; each layer at most once (its best, first mention)."""
    if not layers:
        return []
    folded = fold(text)
    words = _text_words(folded)
    found: dict[str, Mention] = {}

    def add(name, start, end, score):
        inner = r"[a-z0-9_]"  # a part of an identifier ('houses_out', 'district_name') names no layer
        if re.match(inner, folded[end - 1 : end]) and re.match(inner, folded[end : end + 1]):
            return
        if start and re.match(inner, folded[start : start + 1]) and re.match(inner, folded[start - 1]):
            return
        old = found.get(name)
        if old is None or score > old.score + 0.05 or (abs(score - old.score) <= 0.05 and start < old.start):
            found[name] = Mention(name, start, end, score)

    themes = _theme_mentions(folded, words)
    for layer in layers:
        name = layer.name
        whole_name_only = bool(getattr(layer, "origin", None))  # a result titled after its request: see below
        full = fold(name)
        # A result titled after the request that made it carries that request's words: typed again ('buffer schools
        # by 300 m' a second time) they say the operation, so the title names the layer only as a name: quoted or
        # after a layer word. A result the user renamed is named like any layer.
        titled = whole_name_only and _titled_after(full, fold(layer.origin))
        variants = {full, full.replace("_", " "), re.sub(r"\.\w+$", "", full)}
        if layer.path:
            variants |= {fold(Path(layer.path).name), fold(str(layer.path))}
        for variant in variants:
            if not variant:
                continue
            for m in word_re(variant).finditer(folded):
                if (len(variant) < 3 or titled) and not _SHORT_OK.search(folded[max(0, m.start() - 8) : m.start()]):
                    continue  # a layer called 'a' or 'it' is named only as "layer a" or in quotes
                add(name, m.start(), m.end(), 1.0)
        if whole_name_only:  # 'count the schools in them': 'schools' names the schools, not 'buffer the schools…'
            continue
        toks = [singular(t) for t in name_tokens(name) if not t.isdigit()]
        n = len(toks)
        for i in range(len(words) - n + 1):
            if n and [singular(w) for w, _, _ in words[i : i + n]] == toks:
                start = words[i][1]
                if len("".join(toks)) >= 3 or _SHORT_OK.search(folded[max(0, start - 8) : start]):
                    add(name, start, words[i + n - 1][2], 0.95)
        head = [t for t in toks if t not in _GENERIC_TOKENS and t not in _NOT_HEADS and len(t) >= 4][-1:]
        for w, s, e in words if head and n > 1 else ():  # the head noun: br_municipios named by 'municipios'
            if head[0] in forms(w) and "_" not in folded[max(0, s - 1) : s] + folded[e : e + 1]:  # Stationen
                add(name, s, e, 0.8)  # not a part of 'district_name'
        theme = layer_theme(name)
        for key, s, e in themes:
            if key == theme and not _named_as_value(folded, s, e, layers):
                add(name, s, e, 0.85)
        target = "_".join(toks)
        if name not in found and len(target) >= 5:
            for w, s, e in words:
                if len(w) >= 5 and _close(w, target, 0.8):
                    add(name, s, e, 0.6)
                    break
    if DICTIONARY and any(la.name for la in layers):  # last: only words nothing above placed, nor the lexicon's
        _dictionary_layers(text, layers, found, themes)
    out = sorted(found.values(), key=lambda m: m.start)
    # Two layers on one phrase: the better match keeps it ('train stations' → stations, not stations_pm25).
    return [
        m
        for m in out
        if not any(o is not m and o.start < m.end and m.start < o.end and o.score > m.score + 0.05 for o in out)
    ]


DICTIONARY = True  # German and Chinese words through the general dictionaries (reading/dictionary.py)


def _dictionary_layers(text: str, layers, found: dict, themes) -> None:
    """'Sichtungen' names the layer 'sightings' through the de→en dictionary; a word already placed (as a layer or a
    theme word of the lexicon) is not read again, and a word landing on two layers names none of them."""
    taken = [(m.start, m.end) for m in found.values()] + [(s, e) for _, s, e in themes]
    names = [la.name for la in layers if not getattr(la, "origin", None)]
    fields: list = []  # words the lexicon reads as a field of a loaded layer ('Förderleistung': capacity, not 'lift')

    def skip(s, e):
        if not fields:
            fields.extend((m.start, m.end) for la in layers for m in find_fields(text, la, by_dictionary=False))
            fields.append((-1, -1))
        return any(a < e and s < b for a, b in taken + fields)

    for name, s, e, note in dictionary.mentions(text, names, skip):
        found.setdefault(name, Mention(name, s, e, 0.75, note=note))


def _titled_after(name: str, origin: str) -> bool:
    """Is a result's (folded) name the (folded) request that made it, or a part of it ('count houses per district…')?"""
    return bool(name) and (name in origin or origin in name)


_VALUE_CUE = re.compile(r"(?:为|是|等于|(?<![a-z])(?:is|ist|equals?|gleich)\s*|=\s*)['\"]?$")


def _named_as_value(folded: str, start: int, end: int, layers) -> bool:
    """'类型为城区的区', 'type is park': a theme word that is a sample value of a field, said as a value, no layer."""
    if not _VALUE_CUE.search(folded[max(0, start - 8) : start]):
        return False
    word = folded[start:end]
    return any(
        isinstance(v, str) and fold(v) == word for la in layers for f in getattr(la, "fields", ()) for v in f.samples
    )


GEOMETRY_WORDS = {
    "point": r"points?|point layer|punkte?n?|点",
    "line": r"lines?|line layer|linien|线",
    "polygon": r"polygons?|areas|flächen|flaechen|面|多边形|zones",
    "raster": r"raster|dem|grid|elevation model|tif|栅格|高程",
}


def geometry_class(layer) -> str | None:
    """'point', 'line', 'polygon', 'raster' or None for a LayerInfo."""
    if getattr(layer, "kind", "vector") == "raster":
        return "raster"
    g = (layer.geometry_type or "").lower()
    for cls, key in (("point", "point"), ("line", "line"), ("polygon", "polygon")):
        if key in g:
            return cls
    return None


def find_fields(text: str, layer, every: bool = False, by_dictionary: bool = True) -> list[Mention]:
    """Fields of `layer` named in the text, by exact name, token, meaning, or a close misspelling.

    One mention per field (its best), or with `every` each place a field is named.
    """
    folded = fold(text)
    words = _text_words(text)
    found: dict = {}

    def add(fname, start, end, score):
        key = (fname, start) if every else fname
        old = found.get(key)
        if old is None or score > old.score:
            found[key] = Mention(fname, start, end, score, layer=layer.name)

    exact: dict[str, tuple[int, int]] = {}
    bigram = {s: (words[i + 1][0],) for i, (_, s, _) in enumerate(words[:-1])}
    for f in layer.fields:
        full = fold(f.name)
        for variant in {full, full.replace("_", " ")}:
            m = word_re(variant).search(folded) if variant else None
            if m:
                add(f.name, m.start(), m.end(), 1.0)
                exact[f.name] = (m.start(), m.end())
    for f in layer.fields:
        full = fold(f.name)
        toks = [t for t in name_tokens(f.name) if not t.isdigit()]
        concepts = _field_concepts(f.name)
        for w, s, e in words:
            if any(a <= s and e <= b for n, (a, b) in exact.items() if n != f.name):
                continue  # 'est' inside 'pop_est' does not name gdp_md_est
            ws = singular(w)
            for t in toks:
                if len(t) < 3 and len(toks) > 1:
                    continue
                if ws == t or w == t:
                    add(f.name, s, e, 0.85 if len(toks) == 1 else 0.8)
                elif len(t) >= 3 and len(w) > len(t) and w.startswith(t):
                    add(f.name, s, e, 0.7)
                elif len(w) >= 4 and len(t) > len(w) and t.startswith(w):
                    add(f.name, s, e, 0.65)
            wforms = set(forms(w)) | {w + nxt for nxt in bigram.get(s, ())}
            weak = w in _WEAK_WORDS  # 'largest' hints at area; a field named outright wins
            for i in concepts:
                words_set = CONCEPTS[i][0]
                if wforms & words_set:
                    score = 0.85 if not (set(forms(w)) & words_set) else 0.75  # two words agree
                    add(f.name, s, e, 0.6 if weak else score)
                elif _compound(w, i):
                    add(f.name, s, e, 0.7)  # a compound: Schul|typ → type, Schüler|zahl → students, sub|type
            if f.name not in found and len(w) >= 5 and len(full) >= 5:
                if _close(w, full, 0.85):
                    add(f.name, s, e, 0.6)
        for zh in sorted((z for i in concepts for z in _CJK_WORDS[i]), key=len, reverse=True):  # 难度等级, not 难度
            if zh in text:
                i = text.index(zh)
                add(f.name, i, i + len(zh), 0.75)
        if _is_cjk(full[:1]) and f.name not in found and len(full) >= 3:
            stem = re.sub(r"(?:数量|数|量)$", "", full)  # 床位数 named as 床位, 学生数 as 学生
            if len(stem) >= 2 and stem in text:
                i = text.index(stem)
                add(f.name, i, i + len(stem), 0.7)
    if DICTIONARY and by_dictionary and not every:  # 'Arten' → species: a word no reading above nor a theme placed
        taken = [(m.start, m.end) for m in found.values()] + [(s, e) for _, s, e in _theme_mentions(folded, words)]
        skip = lambda s, e: any(a < e and s < b for a, b in taken)  # noqa: E731
        for fname, s, e, note in dictionary.mentions(text, [f.name for f in layer.fields], skip):
            found.setdefault(fname, Mention(fname, s, e, 0.7, layer=layer.name, note=note))
    return sorted(found.values(), key=lambda m: m.start)


_CJK_WORDS = [tuple(sorted(w for w in ws if re.match(r"[\u4e00-\u9fff]", w))) for ws, _ in CONCEPTS]


@lru_cache(maxsize=8192)
def _field_concepts(name: str) -> tuple[int, ...]:
    """The CONCEPTS a field name belongs to: by its tokens, or named like one of the concept's words."""
    full = fold(name)
    toks = {t for t in name_tokens(name) if not t.isdigit()}
    return tuple(
        i
        for i, (words_set, tokens) in enumerate(CONCEPTS)
        if toks & tokens
        or full in tokens
        or toks & words_set
        or _cjk_concept(full, words_set)
        or any(t.startswith(k) for t in toks for k in tokens if len(k) >= 5)  # populacao ⊃ popul
    )


def _cjk_concept(field_name: str, words_set) -> bool:
    """A Chinese field name that holds a Chinese word of the concept (床位数 ⊃ 床位, 常住人口 ⊃ 人口)."""
    return _is_cjk(field_name[:1]) and any(_is_cjk(w) and len(w) >= 2 and w in field_name for w in words_set)


@lru_cache(maxsize=65536)
def _compound(word: str, concept: int) -> bool:
    """Is `word` a compound of a concept word: its head (Schul|typ) or a long modifier (Einwohner|zahl)?"""
    if len(word) < 7:
        return False
    for c in CONCEPTS[concept][0]:
        if len(c) >= 3 and c.isascii() and c.isalpha():
            if (word.endswith(c) and len(word) - len(c) >= 3) or (len(c) >= 6 and word.startswith(c)):
                return True
    return False


@lru_cache(maxsize=65536)
def _close(word: str, target: str, cutoff: float) -> bool:
    """A likely misspelling: the word or its singular close to the target or its plural (same first letter)."""
    if word[:1] != target[:1] or 2 * min(len(word), len(target) + 1) / (len(word) + len(target)) < cutoff:
        return False
    best = max(
        difflib.SequenceMatcher(None, a, b).ratio() for a in (word, singular(word)) for b in (target, target + "s")
    )
    return best >= cutoff


def find_values(text: str, layer) -> list[Mention]:
    """Category values of `layer`'s string fields (from their samples) that the text names."""
    folded = fold(text)
    out = []
    for f in layer.fields:
        if f.type not in ("string", "str", "text"):
            continue
        for v in f.samples:
            if not isinstance(v, str) or len(v) < 2:
                continue
            fv = fold(v)
            m = word_re(fv).search(folded)
            if m is None and not fv.endswith("s"):
                m = word_re(fv + "s").search(folded)
            if m:
                out.append(Mention(f.name, m.start(), m.end(), 1.0, layer=layer.name, value=v))
    if DICTIONARY:  # 'Luchs' → lynx, a species of the sightings; a translation that is two values is none
        values = {v: f.name for f in layer.fields if f.type in ("string", "str", "text")
                  for v in f.samples if isinstance(v, str) and len(v) >= 2}  # fmt: skip
        skip = lambda s, e: any(o.start < e and s < o.end for o in out)  # noqa: E731
        out += [Mention(values[v], s, e, 0.9, layer=layer.name, value=v, note=note)
                for v, s, e, note in dictionary.mentions(text, list(values), skip)]  # fmt: skip
    return sorted(out, key=lambda m: m.start)


def is_numeric(field_type: str) -> bool:
    return field_type in ("integer", "real", "int", "float", "double", "number")
