"""Native field names and values for Chinese and German corpus layers (人口, 类型 = '城区'; Einwohner, Landkreis)."""

from __future__ import annotations

import random

NATIVE_RATE = {"zh": 0.35, "de": 0.3}

# meaning → field names a Chinese or German data set would use
NATIVE_FIELDS = {
    "zh": {
        "name": ["名称", "名字"],
        "population": ["人口", "常住人口", "总人口", "人口数"],
        "type": ["类型", "类别", "等级", "种类"],
        "area": ["面积", "占地面积"],
        "students": ["学生数", "学生人数", "在校生"],
        "beds": ["床位数", "床位"],
        "income": ["收入", "人均收入"],
        "value": ["价值", "房价", "评估价"],
        "year": ["建成年份", "建造年份", "年份"],
        "district": ["所属区", "区县", "街道"],
        "rating": ["评分"],
        "status": ["状态"],
        "speed": ["限速"],
        "lanes": ["车道数"],
        "height": ["高度"],
        "depth": ["深度"],
        "length": ["长度"],
        "riders": ["客流量", "日客流"],
        "capacity": ["座位数", "容量"],
        "residents": ["居住人数", "住户人数"],
        "households": ["户数"],
        "landuse": ["用地类型", "土地利用"],
        "continent": ["大洲"],
    },
    "de": {
        "name": ["Name", "Bezeichnung"],
        "population": ["Einwohner", "EW", "Bevoelkerung", "Einwohnerzahl"],
        "type": ["Typ", "Art", "Kategorie", "Schulform"],
        "area": ["Flaeche", "Flaeche_ha", "Flaeche_km2"],
        "students": ["Schueler", "Schuelerzahl"],
        "beds": ["Betten", "Bettenzahl"],
        "income": ["Einkommen"],
        "value": ["Wert", "Preis", "Kaufpreis"],
        "year": ["Baujahr"],
        "district": ["Stadtteil", "Bezirk", "Landkreis", "Ortsteil"],
        "rating": ["Bewertung"],
        "status": ["Status", "Zustand"],
        "speed": ["Tempolimit", "Hoechstgeschwindigkeit"],
        "lanes": ["Fahrspuren"],
        "height": ["Hoehe"],
        "depth": ["Tiefe"],
        "length": ["Laenge"],
        "riders": ["Fahrgaeste"],
        "capacity": ["Sitzplaetze", "Plaetze"],
        "residents": ["Bewohner"],
        "households": ["Haushalte"],
        "landuse": ["Nutzung", "Flaechennutzung"],
    },
}

# the name field of some archetypes, as its data would call it (区名 for districts, Strassenname for roads)
NATIVE_NAME_FIELD = {
    "zh": {"districts": ["区名", "街道名"], "roads": ["路名", "道路名称"], "hospitals": ["医院名称"],
           "schools": ["学校名称", "校名"], "cities": ["城市名", "镇名"], "parks": ["公园名称"]},
    "de": {"districts": ["Stadtteil", "Bezirksname"], "roads": ["Strassenname"], "cities": ["Gemeinde", "Ort"],
           "schools": ["Schulname"], "hospitals": ["Klinikname"]},
}  # fmt: skip
# meaning → category values in the data's own language (as many as the archetype has, drawn without repeats)
NATIVE_VALUES = {
    "zh": {
        "district": ["武侯区", "锦江区", "城关镇", "新华街道", "东城区", "高新区", "海淀区", "朝阳区"],
        "status": ["正常", "停用", "在建", "废弃"],
        "landuse": ["住宅", "商业", "工业", "绿地", "农业", "混合"],
    },
    "de": {
        "district": ["Altstadt", "Nordstadt", "Südvorstadt", "Weststadt", "Nordkreis", "Südkreis", "Schwabing"],
        "status": ["aktiv", "stillgelegt", "geplant", "trocken"],
        "landuse": ["Wohnen", "Gewerbe", "Industrie", "Mischgebiet", "Grünfläche", "Landwirtschaft"],
    },
}
# 'type' values only where the archetype says what they are (a road is no Gymnasium); others keep their values
NATIVE_TYPES = {
    "zh": {"schools": ["小学", "中学", "高中"], "hospitals": ["三甲", "二甲", "一级"],
           "roads": ["主干道", "次干道", "支路"], "districts": ["城区", "郊区", "新区"],
           "cities": ["乡", "镇", "街道"]},
    "de": {"schools": ["Grundschule", "Gymnasium", "Realschule"], "hospitals": ["Klinik", "Notaufnahme", "Allgemein"],
           "roads": ["Hauptstrasse", "Nebenstrasse", "Wohnstrasse"]},
}  # fmt: skip
NATIVE_NAMES = {
    "zh": ["城关镇", "新华镇", "东山乡", "人民医院", "第一中学", "武侯区", "锦江区", "青年路", "中山公园"],
    "de": ["Altstadt", "Neustadt", "Hausen", "Bergheim", "Stern-Apotheke", "Königstraße", "Am Markt", "Lindenhof"],
}


def nativise(seed, layer, lang: str) -> None:
    """Sometimes give a zh/de layer native field names and values; its own rng keeps the corpus draws unchanged."""
    rate = NATIVE_RATE.get(lang)
    if not rate or layer.kind != "vector":
        return
    rng = random.Random(seed)
    if rng.random() >= rate:
        return
    taken = {f.name for f in layer.fields}
    for f in layer.fields:
        names = list(NATIVE_FIELDS[lang].get(f.meaning, ()))
        if f.meaning == "name":
            names += NATIVE_NAME_FIELD[lang].get(layer.archetype, [])
        names = [n for n in names if n not in taken]
        if not names:
            continue
        taken.discard(f.name)
        f.name = rng.choice(names)
        taken.add(f.name)
        pool = NATIVE_VALUES[lang].get(f.meaning, ())
        if f.meaning == "type":
            pool = NATIVE_TYPES[lang].get(layer.archetype, ())
        if f.categories and len(pool) >= len(f.categories):
            mapping = dict(zip(f.categories, rng.sample(pool, len(f.categories))))
            f.categories = [mapping[c] for c in f.categories]
            f.samples = [mapping.get(s, s) for s in f.samples]
        elif f.meaning == "name" and f.type == "string":
            f.samples = rng.sample(NATIVE_NAMES[lang], min(3, len(f.samples) or 3))
