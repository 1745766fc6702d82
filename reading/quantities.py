"""Quantities in request text: distances with units (to metres), counts near a keyword, formats, URLs, paths."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..languages import topic
from .text import Number, detect_lang, find_numbers, fold, fraction_before

_UNITS = topic("units")


def _joined(table: str, code: str) -> str:
    """One unit's patterns of every language as one alternation (one that matches nothing when none has any)."""
    return "|".join(p for m in _UNITS if (p := getattr(m, table)[code])) or r"$^"


_NB = r"(?![a-z" + "".join(m.WORD_LETTERS for m in topic("script")) + "])"
_METRES = {"nmi": 1852.0, "km": 1000.0, "mi": 1609.344, "ft": 0.3048, "yd": 0.9144, "cm": 0.01, "m": 1.0}
UNITS: list[tuple[str, float]] = [(_joined("DISTANCE_UNITS", code), metres) for code, metres in _METRES.items()]
_UNIT_RE = re.compile("|".join(f"(?P<u{i}>(?:{pat}){_NB})" for i, (pat, _) in enumerate(UNITS)), re.IGNORECASE)


@dataclass
class Distance:
    """A distance in the text, converted to metres, with its span."""

    metres: float
    start: int
    end: int


def find_distances(text: str, lang: str | None = None) -> list[Distance]:
    """Every distance with a unit: '500 m', '1.5km', 'half a kilometre', '2 miles', '五百米', '1,5 Kilometer'."""
    lang = lang or detect_lang(text)
    numbers = find_numbers(text, lang)
    out: list[Distance] = []
    for m in _UNIT_RE.finditer(text):
        factor = next(UNITS[i][1] for i in range(len(UNITS)) if m.group(f"u{i}"))
        if m.group().lower() == "m" and _m_is_not_metres(text, m.end()):
            continue
        gap_start = len(text[: m.start()].rstrip(" \t-"))
        number = next((n for n in numbers if n.end == gap_start), None)
        part = _fraction_of(text, gap_start)
        if part is not None:  # '1/4 mile', '1 1/2 miles', 'three quarters of a mile', '四分之一英里'
            out.append(Distance(part[0] * factor, part[1], m.end()))
            continue
        if number is not None:
            value, start = number.value, number.start
            frac = fraction_before(text, start)
            if frac is not None and frac[0] == 0.5 and text[frac[1] : start].strip().lower() == "and a half":
                value += 0.5
        else:
            if lang != "zh" and not re.search(r"\s$", text[: m.start()]) and m.start() > 0:
                continue  # a unit glued to a word is part of that word
            frac = fraction_before(text, gap_start) or _zh_half(text, gap_start)
            if frac is None:
                continue
            value, start = frac
        out.append(Distance(value * factor, start, m.end()))
    out.sort(key=lambda d: d.start)
    return out


_SLASH = re.compile(r"(?<![\d/.,])(?:(?P<w>\d+)\s+)?(?P<n>\d+)\s*/\s*(?P<d>\d+)$")


_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4, "fifth": 5, "fifths": 5,
          "tenth": 10, "tenths": 10, "viertel": 4, "drittel": 3}  # fmt: skip
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "nine": 9, "ein": 1, "eine": 1, "einen": 1,
           "zwei": 2, "drei": 3}  # fmt: skip
_WORD_FRACTION = re.compile(
    r"(?<![a-z])(?:(?P<n>\d+|a|an|one|two|three|four|nine|eine?n?|zwei|drei)\s*)?"
    r"(?P<p>halves|thirds?|quarters?|fifths?|tenths?|viertel|drittel)(?:\s+of)?(?:\s+(?:an?|einer?))?\s*$",
    re.IGNORECASE,
)
_ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_ZH_FRACTION = re.compile(r"(?P<d>\d+|[一二三四五六七八九十])分之(?P<n>\d+|[一二两三四五六七八九])$")


def _fraction_of(text: str, end: int) -> tuple[float, int] | None:
    """A fraction written before a unit: '1/4', '1 1/2', 'three quarters of a', 'drei Viertel', '四分之三'."""
    head = text[:end]
    m = _SLASH.search(head)
    if m and int(m.group("d")) > 0:
        return int(m.group("n")) / int(m.group("d")) + int(m.group("w") or 0), m.start()
    m = _WORD_FRACTION.search(head)
    if m and (m.group("n") or not re.search(r"\d\s*$", head[: m.start("p")])):
        count = m.group("n") or "a"
        n = int(count) if count.isdigit() else _COUNTS[count.lower()]
        return n / _PARTS[m.group("p").lower()], m.start()
    m = _ZH_FRACTION.search(head)
    if m:
        d, n = (int(g) if g.isdigit() else _ZH_DIGITS[g] for g in (m.group("d"), m.group("n")))
        return (n / d, m.start()) if d else None
    return None


def _m_is_not_metres(text: str, end: int) -> bool:
    """'m' followed by '²' or '2' is an area; 'm' in 'I'm' is not a unit."""
    return text[end : end + 1] in ("²", "2", "'")


def _zh_half(text: str, end: int):
    return (0.5, end - 1) if end > 0 and text[end - 1] == "半" else None


def distance_spans(text: str, lang: str | None = None) -> list[tuple[int, int]]:
    return [(d.start, d.end) for d in find_distances(text, lang)]


def free_numbers(text: str, lang: str | None = None) -> list[Number]:
    """Numbers that are not part of a distance, a year-like field name or an EPSG code."""
    lang = lang or detect_lang(text)
    spans = distance_spans(text, lang)
    out = []
    for n in find_numbers(text, lang):
        if any(s <= n.start < e for s, e in spans):
            continue
        before = text[max(0, n.start - 12) : n.start].lower()
        if re.search(r"(epsg|srid|crs|zone|utm)[\s:=]*$", before):
            continue
        if n.start > 0 and re.match(r"[A-Za-z_]", text[n.start - 1]):
            continue
        out.append(n)
    return out


# Output units ('area in square feet', 'length in miles', 'Fläche in Quadratfuß', '面积（亩）'), on folded text.
# Long words name a unit anywhere; short ones ('ft', 'ha', '米') only after a cue ('in', 'as', '(', '以', '单位').
AREA_UNIT_WORDS = {
    code: (_joined("AREA_UNITS", code), _joined("AREA_ABBREVIATIONS", code)) for code in _UNITS[0].AREA_UNITS
}
LENGTH_UNIT_WORDS = {
    code: (_joined("LENGTH_UNITS", code), _joined("LENGTH_ABBREVIATIONS", code)) for code in _UNITS[0].LENGTH_UNITS
}
# Units people ask for that the measuring tools do not give: read, so the plan says so instead of using m/m².
OTHER_UNIT_WORDS = "|".join(m.OTHER_UNITS for m in _UNITS if m.OTHER_UNITS)
_OTHER_UNITS = re.compile(r"(?<![a-z0-9])(?:" + OTHER_UNIT_WORDS + r")(?![a-z0-9])")
UNIT_KIND = {**{c: "area" for c in AREA_UNIT_WORDS}, **{c: "length" for c in LENGTH_UNIT_WORDS}}
SQUARE_OF = {"m": "m2", "km": "km2", "mi": "mi2", "ft": "ft2", "yd": "yd2"}
_UNIT_CUE = (
    r"(?:(?<![a-z])(?:" + "|".join(m.UNIT_CUE_WORDS for m in _UNITS if m.UNIT_CUE_WORDS) + r")\s*[:=]?\s*(?:"
    + "|".join(m.UNIT_CUE_ARTICLES for m in _UNITS if m.UNIT_CUE_ARTICLES) + r")?|"
    + "|".join(m.UNIT_CUE_MARKS for m in _UNITS if m.UNIT_CUE_MARKS) + r")$"
)
_UNIT_QUESTIONS = "".join(f"|{q}$" for m in _UNITS for q in m.UNIT_QUESTIONS)


def _unit_regex(table: dict, short: bool) -> re.Pattern:
    parts = [f"(?P<{code}>{pats[1] if short else pats[0]})" for code, pats in table.items()]
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(parts) + r")(?![a-z0-9])")


_LONG_UNITS = _unit_regex({**AREA_UNIT_WORDS, **LENGTH_UNIT_WORDS}, short=False)
_SHORT_UNITS = _unit_regex({**AREA_UNIT_WORDS, **LENGTH_UNIT_WORDS}, short=True)


@dataclass
class UnitWord:
    """A unit named without a number ('in acres'): the unit a result should be given in."""

    code: str
    start: int
    end: int
    word: str


def output_units(folded: str, lang: str | None = None) -> list[UnitWord]:
    """Units the result is asked in: unit words not attached to a number ('500 ft' is a quantity, not a unit)."""
    lang = lang or detect_lang(folded)
    numbers = find_numbers(folded, lang)
    quantities = [(d.start, d.end) for d in find_distances(folded, lang)]
    out: list[UnitWord] = []
    for regex, short in ((_LONG_UNITS, False), (_SHORT_UNITS, True)):
        for m in regex.finditer(folded):
            if any(s <= m.start() < e or s < m.end() <= e for s, e in quantities):
                continue
            if any(u.start <= m.start() < u.end for u in out):
                continue
            before = folded[: m.start()].rstrip(" \t-")
            if any(n.end == len(before) for n in numbers) or re.search(r"[\d.,]$|(?:^|\s)(?:a|an|one|half)$", before):
                continue  # '3 acres', '5平方公里', 'a mile': a quantity
            if short and not re.search(_UNIT_CUE, folded[: m.start()]):
                continue
            code = next(c for c, v in m.groupdict().items() if v is not None)
            out.append(UnitWord(code, m.start(), m.end(), m.group()))
    for m in _OTHER_UNITS.finditer(folded):
        before = folded[: m.start()].rstrip(" \t-")
        if any(u.start <= m.start() < u.end for u in out) or any(n.end == len(before) for n in numbers):
            continue
        if re.search(r"[\d.,]$", before) or not re.search(_UNIT_CUE + _UNIT_QUESTIONS, folded[: m.start()]):
            continue  # only an output unit ('in inches', '（顷）'), never '5 inches' or a word in passing
        out.append(UnitWord("other", m.start(), m.end(), m.group()))
    return sorted(out, key=lambda u: u.start)


def unit_for(folded: str, kind: str, allowed, lang: str | None = None) -> tuple[str | None, str | None]:
    """(unit, problem) for a measuring param of `kind` ('area' or 'length'): the one unit asked for, read into
    one of `allowed`; or a problem naming what could not be honoured (two units, an unknown or wrong-kind unit)."""
    found = output_units(folded, lang)
    codes: list[str] = []
    for u in found:
        code = u.code
        if kind == "area" and UNIT_KIND.get(code) == "length":
            code = SQUARE_OF.get(code, code)  # 'area in feet' means square feet
        if code == "other":
            return None, f"unit: {u.word} (not a unit GeoClerk measures in)"
        if UNIT_KIND.get(code) != kind or (allowed and code not in allowed):
            return None, f"unit: {u.word}" + ("" if UNIT_KIND.get(code) == kind else f" (not a unit of {kind})")
        codes.append(code)
    codes = list(dict.fromkeys(codes))
    if len(codes) > 1:
        return None, "unit: several units (" + ", ".join(codes) + ")"
    return (codes[0] if codes else None), None


# Counts: the keywords that name what an integer parameter counts, in three languages.
COUNT_WORDS = {
    "clusters": r"clusters?|groups?|classes|klassen|gruppen|cluster|簇|类|组",
    "rings": r"rings?|ringe?|环|圈|zones|bands|buffers",
    "top_n": r"top|largest|biggest|highest|greatest|most|fewest|smallest|lowest|first|best|bottom|least|last|"
    r"[a-z]{3,}iest|"
    r"größten|grossten|hochsten|"
    r"höchsten|kleinsten|niedrigsten|ersten|letzten|meisten|wenigsten|[a-z]{3,}sten|"
    r"grosste|hochste|kleinste|niedrigste|"
    r"前|最大的|最小的|最高的|最低的|最多的|最少的",
    "min_samples": r"min(?:imum)?[\s_]*(?:samples|points|pts)|(?:min(?:imum)?\s+)?cluster size|min(?:imum)? size|"
    r"mindestgrosse|mindestens|at least|个点|点|punkte|points|最少|至少|最小簇",
    "k": r"neighbou?rs?|nachbarn|邻",
    "classes": r"classes|klassen|bins|breaks|类|级",
    "count": r"(?:random\s+)?points|(?:zufalls)?punkte|个(?:随机)?点|随机点|"
    r"per\s+(?:polygon|feature|park|zone|area|each)|"
    r"(?:in\s+)?each\b|pro\s+(?:polygon|fläche|flache)|je\s+(?:polygon|fläche|flache)",
}


def integer_for(text: str, name: str, lang: str | None = None) -> int | None:
    """An integer written next to the word(s) that name a count param ('5 clusters', 'k=5', 'top 10', '前10')."""
    lang = lang or detect_lang(text)
    key = COUNT_WORDS.get(name, re.escape(name.replace("_", " ")) + r"s?")
    nums = [n for n in free_numbers(text, lang) if float(n.value).is_integer()]
    low = text.lower()
    for n in nums:
        after = low[n.end : n.end + 64]
        before = low[max(0, n.start - 24) : n.start]
        if re.match(r"\s*(?:-\s*)?(?:(?!\d)[\w-]+\s+){0,3}(?:" + key + ")", after):  # no number between them
            return int(n.value)
        if re.search(r"(?:" + key + r")\s*(?:[:=]|of|von|为|of\s+size)?\s*$", before):
            return int(n.value)
    if name in ("clusters", "k"):
        m = re.search(r"\bk\s*=\s*(\d+)", low)
        if m:
            return int(m.group(1))
    return None


FORMATS = {
    "shp": r"shape[\s-]*(?:files?|datei)|shp|esri shape",
    "geojson": r"geo\s*json|\.json\b|\bjson\b",
    "gpkg": r"geo\s*package|gpkg",
    "csv": r"csv|comma[- ]separated|spreadsheet|表格",
    "parquet": r"geo\s*parquet|parquet",
    "fgb": r"flat\s*geobuf|fgb",
    "kml": r"kml|google earth",
    "xlsx": r"excel|xlsx",
    "gml": r"\bgml\b",
}


def find_format(text: str, allowed: list[str] | None = None) -> str | None:
    """The output format asked for ('as a shapefile', 'to CSV', 'als GeoPackage'), limited to `allowed`."""
    low = fold(text)
    hits = []
    for code, pat in FORMATS.items():
        if allowed is not None and code not in allowed:
            continue
        m = re.search(pat, low)
        if m:
            hits.append((m.start(), code))
    if not hits:
        return None
    # The format named after 'as/to/into/als/为' is the target one ('convert the shapefile to GeoJSON').
    for start, code in sorted(hits, reverse=True):
        if re.search(
            r"(as|to|into|in|als|zu|nach|in ein|为|成|转为|导出为)\s*(an?|the|eine?n?)?\s*\.?$", low[:start].rstrip()
        ):
            return code
    return sorted(hits)[-1][1]


# Formats GeoClerk writes (function_lib/geojson/conversion.py FORMATS; a test keeps the two equal).
WRITABLE_FORMATS = ("gpkg", "geojson", "shp", "csv", "parquet", "fgb", "kml")
_FORMAT_WORDS = (
    r"(?P<shp>shape[\s-]*(?:files?|datei(?:en)?)|shp|esri\s+shape\w*)|(?P<geojson>geo\s*json)|"
    r"(?P<gpkg>geo\s*packages?|gpkg)|(?P<csv>csv|comma[- ]separated(?:\s+values)?)|(?P<parquet>(?:geo\s*)?parquet)|"
    r"(?P<fgb>flat\s*geobuf|fgb)|(?P<kml>kml|kmz|google earth)|(?P<xlsx>excel|xlsx?)|(?P<gml>gml)|(?P<dxf>dxf|cad)|"
    r"(?P<gpx>gpx)|(?P<json>json)|(?P<tif>geotiff|tiff?)|(?P<mif>mapinfo|tab)"
)
# The words that make a format the target: 'as/to/into/in (a) X', 'als X', 'X format', '导出为X', '保存成X'.
_FORMAT_TARGET = re.compile(
    r"(?:(?<![a-z])(?:as|to|into|als|nach|zu|im|in|give me|return|save|export|write|output|speichern?|exportieren?)"
    r"\s+(?:an?\s+|eine?[mn]?\s+|the\s+)?(?:new\s+|neue[nmrs]?\s+|single\s+)?|(?:为|成|出|存)\s*)"
    r"(?:(?P<fmt>" + _FORMAT_WORDS + r"))(?![a-z0-9])(?P<tail>[\s-]*(?:files?|formats?|layer|datei|format|文件|格式)?)"
)
_FORMAT_AFTER_SAVE = re.compile(
    r"(?:save|export|write|store|output|speicher|exportier|导出|保存|输出|另存)\w*[^.;!?]{0,40}?"
)


@dataclass
class FormatAsked:
    """An output format asked for in a request, with the span of its wording."""

    code: str
    word: str
    start: int
    end: int


def output_format(folded: str) -> FormatAsked | None:
    """The file format the result is asked in ('… as GeoJSON', 'save it as a shapefile', '导出为shp'): the last
    format word written as a target. Source files ('the csv of stations', 'roads.shp') are not targets."""
    hits = []
    for m in _FORMAT_TARGET.finditer(folded):
        if "." in (folded[m.end("fmt") : m.end("fmt") + 1], folded[m.start("fmt") - 1 : m.start("fmt")]):
            continue  # a file name ('to out.geojson' is a path, read elsewhere)
        code = next(k for k, v in m.groupdict().items() if v is not None and k not in ("fmt", "tail"))
        cue = folded[m.start() : m.start("fmt")].strip()
        saved = _FORMAT_AFTER_SAVE.search(folded[: m.start()]) or re.match(r"save|export|write|output|speicher", cue)
        if cue in ("in", "im") and not m.group("tail").strip() and not saved:
            continue  # 'the points in csv' names a source; 'in CSV format' or 'save … in CSV' a target
        if cue.endswith(" the") and not saved:
            continue  # 'clip the roads to the shapefile boundary' names a source
        if code == "tif":
            continue  # a raster format: raster tools write GeoTIFF already
        if code == "mif" and "mapinfo" not in m.group("fmt"):
            continue  # 'tab' alone is a table, not MapInfo TAB
        if code == "json":
            code = "geojson"  # a vector result 'as JSON' is GeoJSON
        hits.append(FormatAsked(code, m.group("fmt"), m.start(), m.end()))
    return hits[-1] if hits else None


def find_url(text: str) -> str | None:
    m = re.search(r"https?://[^\s'\"<>]+", text)
    return m.group().rstrip(".,;)") if m else None


PATH_RE = re.compile(
    r"(?:[\w.~:/\\-]*[/\\])?[\w.-]+\.(?:gpkg|geojson|json|shp|fgb|parquet|kml|gml|csv|tif|tiff|asc|xlsx|zip)\b",
    re.IGNORECASE,
)


def find_paths(text: str) -> list[str]:
    """File names and paths written in the request ('data/roads.shp', 'schools.geojson')."""
    return [m.group() for m in PATH_RE.finditer(text) if not m.group().lower().startswith("http")]


def find_bbox(text: str) -> list[float] | None:
    """Four numbers in brackets or after 'bbox' as [xmin, ymin, xmax, ymax]."""
    num = r"\s*(-?\d+(?:\.\d+)?)\s*"
    m = re.search(r"[\[(]?" + ",".join([num] * 4) + r"[\])]?", text)
    if not m:
        return None
    return [float(v) for v in m.groups()]
