"""Coordinate reference systems in request text: EPSG codes, UTM zones, and common names → 'EPSG:n'."""

from __future__ import annotations

import re

from .text import fold

# Names users write for common CRSs (folded: lower case, no accents). Longer names are tried first.
NAMED = {
    r"web[\s-]*mercator|pseudo[\s-]*mercator|google[\s-]*mercator|spherical mercator|web墨卡托|网络墨卡托": 3857,
    r"wgs\s*-?\s*(?:19)?84|wgs 1984|lat(?:itude)?\s*/\s*lon(?:gitude)?|lon\s*/\s*lat|geographic coordinates"
    r"|plain (?:lat|long)|degrees|geografische koordinaten|经纬度|地理坐标": 4326,
    r"british national grid|osgb\s*(?:19)?36|ordnance survey|bng\b|英国国家网格": 27700,
    r"irish transverse mercator|\bitm\b": 2157,
    r"etrs\s*-?\s*89[\s/-]*laea|laea europe|lambert azimuthal equal area europe": 3035,
    r"etrs\s*-?\s*89[\s/-]*lcc|lcc europe": 3034,
    r"lambert[\s-]*93|rgf\s*93": 2154,
    r"swiss lv95|lv95|ch1903\+": 2056,
    r"swiss lv03|lv03|ch1903": 21781,
    r"amersfoort|dutch rd|rd new|rijksdriehoek": 28992,
    r"nztm|new zealand transverse mercator": 2193,
    r"gda\s*2020": 7844,
    r"gda\s*94": 4283,
    r"conus albers|us albers|albers (?:equal area )?(?:usa|conus)|usa contiguous albers": 5070,
    r"world mercator|\bmercator\b|墨卡托": 3395,
    r"nad\s*83": 4269,
    r"nad\s*27": 4267,
    r"etrs\s*-?\s*89": 4258,
    r"cgcs\s*2000|国家\s*2000|2000国家大地坐标": 4490,
    r"beijing\s*(?:19)?54|北京\s*(?:19)?54|北京坐标|北京": 4214,
    r"xi'?an\s*(?:19)?80|西安\s*(?:19)?80|西安坐标": 4610,
    r"equal earth": 8857,
    r"robinson": 54030,
    r"mollweide": 54009,
}
_NAMED = [(re.compile(p), code) for p, code in sorted(NAMED.items(), key=lambda kv: -len(kv[0]))]
_GK = {2: 31466, 3: 31467, 4: 31468, 5: 31469}


def find_crs(text: str) -> str | None:
    """The CRS a request names, as 'EPSG:n', or None. UTM zones default to the northern hemisphere."""
    low = fold(text)
    m = re.search(r"(?:epsg|srid|crs|esri)\s*(?:code)?\s*[:=#]?\s*(\d{4,6})", low)
    if m:
        code = int(m.group(1))
        return f"{'ESRI' if low[m.start() : m.start() + 4] == 'esri' else 'EPSG'}:{code}"
    utm = _utm(low)
    if utm:
        return utm
    m = re.search(r"(?:gauss[\s-]*kr(?:u|ue)ger|gk)\s*(?:zone|streifen)?\s*(\d)", low)
    if m and int(m.group(1)) in _GK:
        return f"EPSG:{_GK[int(m.group(1))]}"
    for pattern, code in _NAMED:
        if pattern.search(low):
            return f"{'ESRI' if code in (54030, 54009) else 'EPSG'}:{code}"
    m = re.search(
        r"(?:to|into|in|nach|auf|zu|为|到|成)\s*(\d{4,5})(?!\s*(?:m|km|meter|metres?|米|公里|ft|feet)\b)", low
    )
    if m and 2000 <= int(m.group(1)) <= 32767:
        return f"EPSG:{int(m.group(1))}"
    return None


def _utm(low: str) -> str | None:
    m = re.search(
        r"utm\s*(?:-?\s*(?:zone|zona|带|第)\s*)?(\d{1,2})\s*(?:带)?\s*([ns]|north|south|nord|süd|sud|北|南)?(?![a-z])",
        low,
    )
    if not m:
        m2 = re.search(r"(?:zone|zona)\s*(\d{1,2})\s*([ns])?(?![a-z\d])", low)
        if not (m2 and "utm" in low):
            return None
        m = m2
    zone = int(m.group(1))
    if not 1 <= zone <= 60:
        return None
    hemi = (m.group(2) or "").lower()
    south = (
        hemi.startswith("s") or hemi == "南" or bool(re.search(r"south(?:ern)? hemisphere|südhalbkugel|南半球", low))
    )
    etrs = bool(re.search(r"etrs\s*-?\s*89", low)) and 28 <= zone <= 38 and not south
    if etrs:
        return f"EPSG:{25800 + zone}"
    return f"EPSG:{(32700 if south else 32600) + zone}"
