"""Quantities in request text: distances with units (to metres), counts near a keyword, formats, URLs, paths."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import Number, detect_lang, find_numbers, fold, fraction_before

_NB = r"(?![a-zäöüß])"
UNITS: list[tuple[str, float]] = [
    (r"nautical\s+miles?|nmi|seemeilen?|海里", 1852.0),
    (r"kilomet(?:er|re)s?n?|kms?|klicks?|公里|千米", 1000.0),
    (r"miles?|meilen?|mi|英里", 1609.344),
    (r"feet|foot|ft|fuss|fuß|英尺", 0.3048),
    (r"yards?|yds?|码", 0.9144),
    (r"centimet(?:er|re)s?|cm", 0.01),
    (r"met(?:er|re)s?n?|mtrs?|m|米|公尺", 1.0),
]
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


# Counts: the keywords that name what an integer parameter counts, in three languages.
COUNT_WORDS = {
    "clusters": r"clusters?|groups?|classes|klassen|gruppen|cluster|簇|类|组",
    "rings": r"rings?|ringe?|环|圈|zones|bands|buffers",
    "top_n": r"top|largest|biggest|highest|greatest|most|fewest|smallest|lowest|first|best|bottom|least|last|"
    r"[a-z]{3,}iest|"
    r"größten|grossten|hochsten|"
    r"höchsten|kleinsten|niedrigsten|ersten|letzten|前|最大的|最小的|最高的|最低的",
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
        if re.match(r"\s*(?:-\s*)?(?:[\w-]+\s+){0,3}(?:" + key + ")", after):
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
