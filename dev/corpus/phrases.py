"""Slot phrases per language with their exact labels: distances, numbers, comparisons, CRSs, formats, mentions."""

from __future__ import annotations

import re

from .layers import Field, Layer
from .meanings import MEANINGS

FT, MI, YD = 0.3048, 1609.344, 0.9144


def metres(value: float) -> float | int:
    """A label distance: rounded to the millimetre, an int when whole."""
    value = round(value, 3)
    return int(value) if value == int(value) else value


def _num_en(rng, v):
    return f"{v:,}" if v >= 1000 and rng.random() < 0.5 else str(v)


def distance(rng, lang: str, small: bool = False) -> tuple[str, float]:
    """A distance phrase and its value in metres."""
    m_vals = [10, 20, 25, 30, 50, 75, 100, 150, 200, 250, 300, 400, 500, 750, 800, 1000, 1200, 1500, 2000, 2500, 5000]
    km_vals = [0.5, 1, 1.5, 2, 2.5, 3, 5, 10, 15, 20, 25, 50]
    if small:
        m_vals, km_vals = m_vals[:14], km_vals[:4]
    pick = rng.random()
    if lang == "en":
        words = [
            ("half a kilometre", 500),
            ("half a kilometer", 500),
            ("a kilometre", 1000),
            ("one kilometer", 1000),
            ("a quarter mile", MI / 4),
            ("half a mile", MI / 2),
            ("a mile", MI),
            ("two kilometres", 2000),
            ("five hundred metres", 500),
            ("a hundred meters", 100),
            ("fifty metres", 50),
            ("two miles", 2 * MI),
        ]
        if pick < 0.45:
            v = rng.choice(m_vals)
            fmt = rng.choice(["{} m", "{}m", "{} meters", "{} metres", "{} meter", "{} mtrs"])
            return fmt.format(_num_en(rng, v)), metres(v)
        if pick < 0.7:
            v = rng.choice(km_vals)
            fmt = rng.choice(["{} km", "{}km", "{} kilometers", "{} kilometres", "{} kms"])
            return fmt.format(v), metres(v * 1000)
        if pick < 0.82:
            v = rng.choice([50, 100, 250, 300, 500, 1000, 1500, 2000])
            return rng.choice(["{} ft", "{} feet", "{}ft", "{} foot"]).format(v), metres(v * FT)
        if pick < 0.9:
            v = rng.choice([1, 2, 3, 5, 10, 0.5])
            unit = "mile" if v == 1 else rng.choice(["miles", "mi"])
            return f"{v} {unit}", metres(v * MI)
        if pick < 0.93:
            v = rng.choice([100, 200, 500])
            return f"{v} yards", metres(v * YD)
        text, v = rng.choice(words)
        return text, metres(v)
    if lang == "zh":
        words = [
            ("半公里", 500),
            ("一公里", 1000),
            ("两公里", 2000),
            ("五百米", 500),
            ("三公里", 3000),
            ("一百米", 100),
            ("五公里", 5000),
            ("十公里", 10000),
            ("两百米", 200),
            ("一英里", MI),
            ("一千米", 1000),
            ("三百米", 300),
            ("一千五百米", 1500),
        ]
        if pick < 0.5:
            v = rng.choice(m_vals)
            return rng.choice(["{}米", "{} 米", "{}m", "{} m"]).format(v), metres(v)
        if pick < 0.78:
            v = rng.choice(km_vals)
            return rng.choice(["{}公里", "{} 公里", "{}千米", "{}km"]).format(v), metres(v * 1000)
        if pick < 0.85:
            v = rng.choice([100, 300, 500, 1000])
            return f"{v}英尺", metres(v * FT)
        text, v = rng.choice(words)
        return text, metres(v)
    words = [
        # no articles: "um einen Kilometer" but "von einem Kilometer" would need the case of the template
        ("0,5 Kilometer", 500),
        ("1 Kilometer", 1000),
        ("zwei Kilometer", 2000),
        ("fünfhundert Meter", 500),
        ("hundert Meter", 100),
        ("drei Kilometer", 3000),
        ("1 Meile", MI),
    ]
    if pick < 0.5:
        v = rng.choice(m_vals)
        fmt = rng.choice(["{} m", "{}m", "{} Meter", "{} Metern"])
        return fmt.format(f"{v:,}".replace(",", ".") if v >= 1000 and rng.random() < 0.5 else v), metres(v)
    if pick < 0.8:
        v = rng.choice(km_vals)
        shown = str(v).replace(".", ",")
        return rng.choice(["{} km", "{}km", "{} Kilometer", "{} Kilometern"]).format(shown), metres(v * 1000)
    if pick < 0.87:
        v = rng.choice([100, 300, 500, 1000])
        return f"{v} Fuß", metres(v * FT)
    text, v = rng.choice(words)
    return text, metres(v)


WORDS = {
    "en": {
        2: "two",
        3: "three",
        4: "four",
        5: "five",
        6: "six",
        7: "seven",
        8: "eight",
        10: "ten",
        12: "twelve",
        20: "twenty",
    },
    "zh": {2: "两", 3: "三", 4: "四", 5: "五", 6: "六", 7: "七", 8: "八", 10: "十", 12: "十二", 20: "二十"},
    "de": {
        2: "zwei",
        3: "drei",
        4: "vier",
        5: "fünf",
        6: "sechs",
        7: "sieben",
        8: "acht",
        10: "zehn",
        12: "zwölf",
        20: "zwanzig",
    },
}


def small_int(rng, lang: str, choices=(2, 3, 4, 5, 6, 7, 8, 10, 12, 20)) -> tuple[str, int]:
    """A small integer, as digits or as a word."""
    v = rng.choice(list(choices))
    if v in WORDS[lang] and rng.random() < 0.4:
        return WORDS[lang][v], v
    return str(v), v


def _round_value(rng, f: Field):
    lo, hi = f.lo, f.hi
    v = rng.uniform(lo + (hi - lo) * 0.1, lo + (hi - lo) * 0.7)
    if f.type == "real" and hi <= 50:
        return round(v, 1) if v < 10 else int(round(v))
    mag = 10 ** max(0, len(str(int(v))) - 2)
    return int(round(v / mag) * mag) or 1


def number_text(rng, lang: str, v) -> str:
    """A number as users write it: thousands separators, 100k, 1.5 million, 10万."""
    if isinstance(v, float):
        return str(v).replace(".", ",") if lang == "de" else str(v)
    r = rng.random()
    if lang == "en":
        if v >= 1_000_000 and v % 100_000 == 0 and r < 0.5:
            return f"{v / 1e6:g} million"
        if v >= 10_000 and v % 1000 == 0 and r < 0.3:
            return f"{v // 1000}k"
        return f"{v:,}" if v >= 1000 and r < 0.7 else str(v)
    if lang == "zh":
        if v >= 10_000 and v % 10_000 == 0 and r < 0.5:
            return f"{v // 10_000}万"
        if v >= 10_000 and v % 1000 == 0 and r < 0.6:
            return f"{v / 10_000:g}万"  # 1.5万
        if 1000 <= v < 100_000 and v % 1000 == 0 and r > 0.8:
            return _zh_thousands(v)  # 五千, 两万, 一万五千
        if 1000 <= v < 10_000 and v % 1000 == 0 and r > 0.6:
            return f"{v // 1000}千"  # 5千
        return str(v)
    if v >= 1_000_000 and v % 100_000 == 0 and r < 0.3:
        return f"{v / 1e6:g} Millionen".replace(".", ",")
    return f"{v:,}".replace(",", ".") if v >= 1000 and r < 0.6 else str(v)


ZH_DIGITS = "零一两三四五六七八九"


def _zh_thousands(v: int) -> str:
    """A multiple of 1000 below 100000 in Chinese numerals: 5000 → 五千, 20000 → 两万, 15000 → 一万五千."""
    wan, qian = divmod(v // 1000, 10)
    out = (ZH_DIGITS[wan].replace("两", "一") if wan == 1 else ZH_DIGITS[wan]) + "万" if wan else ""
    return out + (ZH_DIGITS[qian] + "千" if qian else "")


def _num(rng, lang: str, f: Field, v) -> str:
    """Years are written plainly (1990, not 1,990 or 1.990)."""
    return str(v) if f.meaning == "year" else number_text(rng, lang, v)


def _lit(v) -> str:
    return str(v)


OPS = {
    "en": {
        ">": ["over {}", "above {}", "greater than {}", "more than {}", "> {}", "exceeding {}", "higher than {}"],
        ">=": ["at least {}", ">= {}", "{} or more", "no less than {}"],
        "<": ["under {}", "below {}", "less than {}", "< {}", "lower than {}"],
        "<=": ["at most {}", "<= {}", "{} or less", "no more than {}"],
    },
    "zh": {
        ">": ["大于{}", "超过{}", "高于{}", "> {}", "多于{}"],
        ">=": ["至少{}", "不少于{}", ">= {}", "{}以上", "不低于{}"],
        "<": ["小于{}", "低于{}", "不到{}", "< {}", "不足{}", "少于{}"],
        "<=": ["最多{}", "不超过{}", "<= {}", "{}以下"],
    },
    "de": {
        ">": ["über {}", "größer als {}", "mehr als {}", "> {}", "höher als {}"],
        ">=": ["mindestens {}", ">= {}", "{} oder mehr", "ab {}"],
        "<": ["unter {}", "kleiner als {}", "weniger als {}", "< {}"],
        "<=": ["höchstens {}", "<= {}", "{} oder weniger"],
    },
}
JOIN = {"en": " {} ", "zh": "{}", "de": " {} "}


RANGE_TEXTS = {
    "en": ["{f} between {a} and {b}", "{f} from {a} to {b}"],
    "zh": ["{f}在{a}到{b}之间", "{f}介于{a}和{b}之间", "{f}在{a}至{b}之间", "{f}介于{a}与{b}之间"],
    "de": ["{f} zwischen {a} und {b}", "{f} von {a} bis {b}"],
}


def range_condition(rng, lang: str, f: Field, fmention: str, v=None) -> tuple[str, str]:
    """'population between 10,000 and 30,000' (人口在1万到3万之间) as text and expression."""
    v = _round_value(rng, f) if v is None else v
    if f.meaning == "year":
        hi = v + rng.choice([10, 20, 30])
    else:
        hi = v * 3 if isinstance(v, int) else round(v * 2, 1)
    a, b = _num(rng, lang, f, v), _num(rng, lang, f, hi)
    text = rng.choice(RANGE_TEXTS[lang])
    return text.format(f=fmention, a=a, b=b), f'"{f.name}" >= {_lit(v)} AND "{f.name}" <= {_lit(hi)}'


LIKE_TEXTS = {
    "starts": {
        "en": ["{f} starts with '{v}'", "{f} beginning with {v}", "{f} begins with '{v}'"],
        "zh": ["{f}以{v}开头", "{f}以'{v}'开头"],
        "de": ["{f} beginnt mit '{v}'", "{f} beginnt mit {v}"],
    },
    "contains": {
        "en": ["{f} contains '{v}'", "{f} containing {v}", "{f} including '{v}'"],
        "zh": ["{f}包含{v}", "{f}中含有'{v}'"],
        "de": ["{f} enthält '{v}'"],
    },
    "ends": {
        "en": ["{f} ends with '{v}'", "{f} ending in {v}"],
        "zh": ["{f}以{v}结尾", "{f}以'{v}'结束"],
        "de": ["{f} endet auf '{v}'", "{f} endet mit {v}"],
    },
}


def _like(rng, lang: str, f: Field, fmention: str) -> tuple[str, str]:
    """A pattern condition on a name field: starts with / contains / ends with part of a sample name."""
    sample = str(rng.choice(f.samples))
    kind = rng.choice(["starts", "starts", "contains", "ends"])
    words = sample.split()
    cjk = bool(re.search(r"[\u4e00-\u9fff]", sample))
    if kind == "starts":
        half = sample[: max(3, len(sample) // 2)]
        part = sample[: rng.choice([1, 2])] if cjk else (words[0] if len(words) > 1 else half)
    elif kind == "ends":
        part = sample[-1:] if cjk else (words[-1] if len(words) > 1 else sample[-3:])
    else:
        part = sample[1:2] if cjk and len(sample) > 2 else (words[-1] if len(words) > 1 else sample[1:4])
    part = part.strip() or sample
    if lang == "en" and kind == "starts" and rng.random() < 0.2:  # the user's own SQL pattern, kept as written
        return f"{fmention} like '{part}%'", f"\"{f.name}\" LIKE '{part}%'"
    text = rng.choice(LIKE_TEXTS[kind][lang])
    pattern = {"starts": f"{part}%", "contains": f"%{part}%", "ends": f"%{part}"}[kind]
    return text.format(f=fmention, v=part), f"\"{f.name}\" LIKE '{pattern}'"


def comparison(rng, lang: str, f: Field, fmention: str) -> tuple[str, str]:
    """A condition on one field, as text and as a QGIS-like expression."""
    if f.meaning == "name" and f.type == "string" and f.samples and rng.random() < 0.35:
        return _like(rng, lang, f, fmention)
    if f.categories or not f.numeric:
        val = rng.choice(f.categories or f.samples)
        text = rng.choice(
            {
                "en": ["{f} = '{v}'", "{f} is {v}", "{f} equal to {v}", "{f} of '{v}'"],
                "zh": ["{f}为{v}", "{f}等于'{v}'", "{f}是{v}"],
                "de": ["{f} = '{v}'", "{f} gleich {v}", "{f} ist {v}"],
            }[lang]
        )
        return text.format(f=fmention, v=val), f"\"{f.name}\" = '{val}'"
    v = _round_value(rng, f)
    if rng.random() < 0.15:
        return range_condition(rng, lang, f, fmention, v)
    op = rng.choice(list(OPS[lang]))
    phrase = rng.choice(OPS[lang][op]).format(_num(rng, lang, f, v))
    sep = "" if lang == "zh" else " "
    if lang == "en" and rng.random() < 0.3 and phrase[0] not in "<>":
        sep = rng.choice([" of ", " is "])
    return f"{fmention}{sep}{phrase}", f'"{f.name}" {op} {_lit(v)}'


CRS_NAMES = {
    "EPSG:3857": {
        "en": ["web mercator", "Web Mercator", "pseudo-mercator", "EPSG:3857", "EPSG 3857", "3857"],
        "zh": ["Web 墨卡托", "EPSG:3857", "web墨卡托投影"],
        "de": ["Web Mercator", "EPSG:3857", "Pseudo-Mercator"],
    },
    "EPSG:4326": {
        "en": ["WGS 84", "WGS84", "lat/lon WGS84", "EPSG:4326", "plain lat long (4326)"],
        "zh": ["WGS84", "WGS 84 经纬度", "EPSG:4326", "经纬度坐标系 WGS84"],
        "de": ["WGS 84", "EPSG:4326", "WGS84"],
    },
    "EPSG:32633": {
        "en": ["UTM zone 33N", "UTM 33N", "WGS 84 / UTM zone 33N", "EPSG:32633"],
        "zh": ["UTM 33N", "EPSG:32633"],
        "de": ["UTM Zone 33N", "EPSG:32633"],
    },
    "EPSG:32617": {
        "en": ["UTM zone 17N", "UTM zone 17", "EPSG:32617"],
        "zh": ["UTM 17N 带", "EPSG:32617"],
        "de": ["UTM Zone 17N"],
    },
    "EPSG:32650": {
        "en": ["UTM zone 50N", "EPSG:32650"],
        "zh": ["UTM 第50带", "UTM 50N", "EPSG:32650"],
        "de": ["UTM Zone 50N"],
    },
    "EPSG:25832": {
        "en": ["ETRS89 / UTM zone 32N", "EPSG:25832"],
        "zh": ["EPSG:25832"],
        "de": ["ETRS89 / UTM Zone 32N", "EPSG:25832", "UTM32 (ETRS89)"],
    },
    "EPSG:25833": {
        "en": ["ETRS89 UTM 33N", "EPSG:25833"],
        "zh": ["EPSG:25833"],
        "de": ["ETRS89 / UTM Zone 33N", "EPSG 25833"],
    },
    "EPSG:27700": {
        "en": ["British National Grid", "OSGB 1936", "EPSG:27700"],
        "zh": ["英国国家格网", "EPSG:27700"],
        "de": ["British National Grid"],
    },
    "EPSG:2154": {"en": ["Lambert-93", "RGF93 / Lambert-93", "EPSG:2154"], "zh": ["EPSG:2154"], "de": ["Lambert-93"]},
    "EPSG:3035": {
        "en": ["ETRS89-LAEA", "LAEA Europe", "EPSG:3035"],
        "zh": ["EPSG:3035", "欧洲 LAEA"],
        "de": ["ETRS89-LAEA", "EPSG:3035"],
    },
    "EPSG:26918": {"en": ["NAD83 / UTM zone 18N", "EPSG:26918"], "zh": ["EPSG:26918"], "de": ["NAD83 UTM 18N"]},
    "EPSG:28992": {
        "en": ["RD New", "Amersfoort / RD New", "EPSG:28992"],
        "zh": ["EPSG:28992"],
        "de": ["RD New", "EPSG:28992"],
    },
    "EPSG:4490": {
        "en": ["CGCS2000", "EPSG:4490"],
        "zh": ["CGCS2000", "国家2000坐标系", "EPSG:4490", "2000国家大地坐标系"],
        "de": ["CGCS2000"],
    },
    "EPSG:2056": {
        "en": ["Swiss LV95", "CH1903+ / LV95", "EPSG:2056"],
        "zh": ["EPSG:2056"],
        "de": ["LV95", "CH1903+ / LV95", "EPSG:2056"],
    },
    "EPSG:31468": {
        "en": ["Gauss-Kruger zone 4", "EPSG:31468"],
        "zh": ["EPSG:31468"],
        "de": ["Gauß-Krüger Zone 4", "DHDN / GK4", "EPSG:31468"],
    },
    "EPSG:5070": {"en": ["NAD83 Conus Albers", "EPSG:5070"], "zh": ["EPSG:5070"], "de": ["EPSG:5070"]},
}


def crs(rng, lang: str, avoid: str | None = None) -> tuple[str, str]:
    """A target CRS phrase and its EPSG id (never the layer's own CRS)."""
    code = rng.choice([c for c in CRS_NAMES if c != avoid])
    return rng.choice(CRS_NAMES[code][lang]), code


FORMATS = {
    "en": [
        ("a shapefile", "shp"),
        ("shapefile", "shp"),
        ("SHP", "shp"),
        ("GeoPackage", "gpkg"),
        ("a geopackage", "gpkg"),
        ("gpkg", "gpkg"),
        ("GeoJSON", "geojson"),
        ("geojson", "geojson"),
        ("CSV", "csv"),
        ("a CSV file", "csv"),
        ("csv", "csv"),
        ("GeoParquet", "parquet"),
        ("parquet", "parquet"),
        ("FlatGeobuf", "fgb"),
        ("fgb", "fgb"),
    ],
    "zh": [
        ("Shapefile", "shp"),
        ("shp 文件", "shp"),
        ("shp", "shp"),
        ("GeoPackage", "gpkg"),
        ("gpkg", "gpkg"),
        ("GeoJSON", "geojson"),
        ("CSV", "csv"),
        ("CSV 表格", "csv"),
        ("GeoParquet", "parquet"),
        ("FlatGeobuf", "fgb"),
    ],
    "de": [
        ("Shapefile", "shp"),
        ("Shape-Datei", "shp"),
        ("GeoPackage", "gpkg"),
        ("GPKG", "gpkg"),
        ("GeoJSON", "geojson"),
        ("CSV", "csv"),
        ("CSV-Datei", "csv"),
        ("GeoParquet", "parquet"),
        ("FlatGeobuf", "fgb"),
    ],
}


def output_format(rng, lang: str, allowed=None) -> tuple[str, str]:
    choices = [c for c in FORMATS[lang] if allowed is None or c[1] in allowed]
    return rng.choice(choices)


QUOTES = {"en": ['"{}"', "'{}'", "`{}`"], "zh": ["“{}”", "「{}」", '"{}"'], "de": ["„{}“", '"{}"', "'{}'"]}


def _maybe_quoted(rng, lang: str, name: str) -> str:
    """Users sometimes quote exact layer and field names: 'buffer "roads" by 10 m'."""
    return rng.choice(QUOTES[lang]).format(name) if rng.random() < 0.1 else name


def layer_mention(rng, lang: str, layer: Layer) -> str:
    """How a user names a layer: its exact name, its plain noun, or 'the X layer'."""
    noun = rng.choice(layer.nouns[lang])
    r = rng.random()
    if layer.kind == "table" and lang == "en":
        return rng.choice([layer.name, f"the {layer.name} table", f"the {noun}"])
    if lang == "en":
        if r < 0.45:
            return _maybe_quoted(rng, lang, layer.name)
        if r < 0.7:
            return f"the {noun}"
        if r < 0.85:
            return f"the {layer.name} layer"
        return noun if r < 0.95 else f"layer {layer.name}"
    if lang == "zh":
        if r < 0.5:
            return _maybe_quoted(rng, lang, layer.name)
        if r < 0.75:
            return noun
        return f"{layer.name}图层" if r < 0.9 else f"{noun}图层"
    if r < 0.55:
        return _maybe_quoted(rng, lang, layer.name)
    return f"Layer {layer.name}" if r < 0.7 else noun


def field_mention(rng, lang: str, layer: Layer, f: Field) -> str:
    """How a user names a field: its exact name or a word for its meaning (unique in the layer)."""
    words = MEANINGS.get(f.meaning, {}).get(lang)
    unique = sum(1 for g in layer.fields if g.meaning == f.meaning) == 1
    if words and unique and rng.random() < 0.5:
        return rng.choice(words)
    r = rng.random()
    name = _maybe_quoted(rng, lang, f.name)
    if lang == "en":
        return name if r < 0.6 else (f"the {name} field" if r < 0.85 else f"field {name}")
    if lang == "zh":
        return name if r < 0.6 else f"{name}字段"
    return name if r < 0.65 else f"Feld {name}"
