"""Coordinate reference systems in request text: EPSG codes, UTM zones, and common names → 'EPSG:n'."""

from __future__ import annotations

import re
from functools import lru_cache

from ..languages import topic
from .text import fold

_CRS = topic("crs")


def _alts(name: str) -> str:
    """Every language's alternatives for `name`, joined in the order of LANGUAGES."""
    return "|".join(getattr(m, name) for m in _CRS if getattr(m, name))


_ZONE = r"(?:-?\s*(?:" + _alts("ZONE_WORDS") + r")\s*)?"
_ZONE_SUFFIX = r"(?:" + _alts("ZONE_SUFFIXES") + r")?" if _alts("ZONE_SUFFIXES") else ""
# Names users write for common CRSs (folded: lower case, no accents). Longer names are tried first.
NAMED = {"|".join(m.CRS_NAMES[code] for m in _CRS if code in m.CRS_NAMES): code for code in _CRS[0].CRS_NAMES}
_NAMED = [(re.compile(p), code) for p, code in sorted(NAMED.items(), key=lambda kv: -len(kv[0]))]
_GK = {2: 31466, 3: 31467, 4: 31468, 5: 31469}


_SLASH_INDEX: dict[str, list[tuple[str, str]]] | None = None


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _slash_index() -> dict[str, list[tuple[str, str]]]:
    """EPSG names 'datum / projection' from pyproj's database, by squashed datum; built once (~0.2 s)."""
    global _SLASH_INDEX
    if _SLASH_INDEX is None:
        index: dict[str, list[tuple[str, str]]] = {}
        try:
            from pyproj.database import query_crs_info
            from pyproj.enums import PJType

            infos = query_crs_info(auth_name="EPSG", pj_types=[PJType.PROJECTED_CRS, PJType.GEOGRAPHIC_2D_CRS])
        except Exception:  # noqa: BLE001 - no pyproj database: the hand list still works
            infos = []
        for info in sorted(infos, key=lambda i: (i.deprecated, int(i.code) if i.code.isdigit() else 0)):
            if "/" not in info.name:
                continue
            datum, _, proj = _squash(fold(info.name)).partition("/")
            rank = (info.deprecated, int(info.code) if info.code.isdigit() else 0)
            index.setdefault(datum, []).append((proj, f"EPSG:{info.code}", (0, *rank)))
            bare = re.sub(r"\([^)]*\)$", "", proj)
            if bare != proj:  # 'utm zone 32n' also names 'ETRS89 / UTM zone 32N (N-E)', after the exact name
                index[datum].append((bare, f"EPSG:{info.code}", (1, *rank)))
        for datum in index:  # longest name first; then exact before stripped, non-deprecated, lowest code
            index[datum] = [(n, c) for n, c, _ in sorted(index[datum], key=lambda e: (-len(e[0]), e[2]))]
        _SLASH_INDEX = index
    return _SLASH_INDEX


def slash_crs(low: str) -> tuple[bool, str | None]:
    """'NAD83 / New York Long Island (ftUS)' → (True, 'EPSG:2263'): the longest EPSG name, never the datum alone.

    (True, None) when a datum is followed by '/' but no projection of it matches: the caller must not fall
    back to the datum (that would silently return geographic coordinates)."""
    if "/" not in low:
        return False, None
    index = _slash_index()
    seen = False
    for m in re.finditer(r"/", low):
        rest = low[m.end() :]
        pos = [i for i, ch in enumerate(rest) if not ch.isspace()]
        after = "".join(rest[i] for i in pos)
        starts = [w.start() for w in re.finditer(r"(?<![a-z0-9])[a-z0-9]", low[max(0, m.start() - 48) : m.start()])]
        datums = [_squash(low[max(0, m.start() - 48) + s : m.start()]) for s in starts]
        for datum in sorted((d for d in datums if d in index), key=len, reverse=True):
            seen = True
            for name, code in index[datum]:
                if after.startswith(name):
                    end = pos[len(name) - 1] + 1
                    if end >= len(rest) or not (rest[end].isalnum() and rest[end - 1].isalnum()):
                        return True, code
    return seen, None


def find_crs(text: str) -> str | None:
    """The CRS a request names, as 'EPSG:n', or None. UTM zones default to the northern hemisphere."""
    low = fold(text)
    slashed, code = slash_crs(low)
    if code:
        return code
    found = _find_crs(low)
    if slashed and found and _geographic(found):
        return None  # 'ETRS89 / <unknown projection>' never falls back to the datum's geographic CRS
    if found and _geographic(found) and _PROJECTION_WORDS.search(low):
        return None  # 'CGCS2000 3度带 CM 105E', 'GDA94 MGA zone 55': a projection we did not resolve, not the datum
    return found


# Words that say a projected CRS is meant; a datum found beside them is not the answer.
_PROJECTION_WORDS = re.compile(_alts("PROJECTION_WORDS"))
_TARGET_CODE = re.compile(
    r"(?:" + _alts("TARGET_CODE_WORDS") + r")\s*(\d{4,5})(?!\s*(?:" + _alts("UNIT_WORDS") + r")\b)"
)
_UTM = re.compile(
    r"(?:utm|mga)\s*" + _ZONE + r"(\d{1,2})\s*" + _ZONE_SUFFIX + r"\s*(" + _alts("HEMISPHERES") + r")?(?![a-z])"
)
_SOUTH_STARTS = tuple(start for m in _CRS for start in m.SOUTH_STARTS)
_SOUTHERN = re.compile(_alts("SOUTHERN"))
# UTM zones on another datum than WGS 84: base EPSG code + zone, and the zones that exist.
_UTM_DATUMS = (
    (re.compile(r"nad\s*-?\s*83"), 26900, range(1, 24)),
    (re.compile(r"nad\s*-?\s*27"), 26700, range(1, 23)),
    (re.compile(r"gda\s*-?\s*94"), 28300, range(48, 59)),
    (re.compile(r"gda\s*-?\s*2020"), 7800, range(46, 60)),
)


@lru_cache(maxsize=256)
def _geographic(code: str) -> bool:
    try:
        from pyproj import CRS

        return CRS.from_user_input(code).is_geographic
    except Exception:  # noqa: BLE001 - unknown to pyproj: treat as not geographic
        return False


def _find_crs(low: str) -> str | None:
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
    m = _TARGET_CODE.search(low)
    if m and 2000 <= int(m.group(1)) <= 32767:
        return f"EPSG:{int(m.group(1))}"
    return None


def _utm(low: str) -> str | None:
    m = _UTM.search(low)
    if not m:
        m2 = re.search(r"(?:zone|zona)\s*(\d{1,2})\s*([ns])?(?![a-z\d])", low)
        if not (m2 and ("utm" in low or "mga" in low)):
            return None
        m = m2
    zone = int(m.group(1))
    if not 1 <= zone <= 60:
        return None
    hemi = (m.group(2) or "").lower()
    south = (
        hemi.startswith(_SOUTH_STARTS) or bool(_SOUTHERN.search(low))
    )
    etrs = bool(re.search(r"etrs\s*-?\s*89", low)) and 28 <= zone <= 38 and not south
    if etrs:
        return f"EPSG:{25800 + zone}"
    for datum, base, zones in _UTM_DATUMS:
        if datum.search(low):  # NAD zones are northern, GDA/MGA zones southern by definition
            return f"EPSG:{base + zone}" if zone in zones else None
    return f"EPSG:{(32700 if south else 32600) + zone}"


# -- a UTM zone said without its datum, over European data: WGS 84's or ETRS89's? ------------------------------------
_DATUM_WORD = re.compile(r"wgs\s*-?\s*84|etrs|nad\s*-?\s*(?:83|27)|gda|sirgas|\b(?:epsg|srid)\b|\b326\d\d\b")
EUROPE = (-16.0, 32.0, 40.0, 84.0)  # ETRS89's extent (lon/lat), where ETRS89 / UTM zones 28N-38N are the usual ones


def utm_datum(code: str | None, text: str, layer) -> tuple[str | None, str | None]:
    """'UTM 32N' with no datum word reads as WGS 84's zone (EPSG:32632), except for a layer in Europe, where ETRS89's
    zone (EPSG:25832) is as likely (two blind sets' authors read it each way): there a layer already in one of the
    zone's two CRSs keeps its own, else the datum is asked. Returns (code, problem)."""
    if not code or not re.fullmatch(r"EPSG:326(2[89]|3[0-8])", code) or _DATUM_WORD.search(text.lower()):
        return code, None
    twin = _etrs_code(code)
    own = (getattr(layer, "crs", None) or "").upper()
    if own in (code, twin):
        return own, None
    centre = _lonlat_centre(layer)
    west, south, east, north = EUROPE
    if centre is None or not (west <= centre[0] <= east and south <= centre[1] <= north):
        return code, None
    zone = int(code[-2:])
    return None, f"crs: UTM zone {zone}N on which datum, WGS 84 ({code}) or ETRS89 ({twin})?"


def _etrs_code(code: str) -> str:
    """ETRS89's UTM CRS of a WGS 84 UTM zone's code (EPSG:25832 for EPSG:32632)."""
    return f"EPSG:258{code[-2:]}"


def etrs_twin(asked: str, got: str) -> bool:
    """Is `got` the ETRS89 twin of the asked WGS 84 UTM zone (EPSG:25832 for EPSG:32632)?"""
    a = asked.upper()
    return bool(re.fullmatch(r"EPSG:326\d\d", a)) and got.upper() == _etrs_code(a)


def _lonlat_centre(layer) -> tuple[float, float] | None:
    """The centre of a layer's bounds in degrees (None without a CRS or bounds)."""
    bounds, crs = getattr(layer, "bounds", None), getattr(layer, "crs", None)
    if not bounds or not crs or len(bounds) != 4:
        return None
    try:
        from pyproj import Transformer

        to_degrees = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
        return to_degrees.transform((bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2)
    except Exception:  # noqa: BLE001 - a CRS pyproj cannot read: keep the code as said
        return None


# -- roles: which CRS is the source and which the target ------------------------------------------------------
_CODE_SPAN = re.compile(r"(?:epsg|srid|crs|esri)\s*(?:code)?\s*[:=#]?\s*\d{4,6}")
_UNIT_AFTER = r"(?:" + _alts("UNIT_WORDS") + r")\b"
_BARE_CODE = re.compile(r"(?:" + _alts("CODE_MARKERS") + r")\s*(\d{4,5})(?![\d.,]|\s*" + _UNIT_AFTER + ")")
_UTM_SPAN = re.compile(
    r"(?:(?:etrs\s*-?\s*89|nad\s*-?\s*83|nad\s*-?\s*27|wgs\s*-?\s*84)\s*/?\s*)?(?:utm|mga)\s*" + _ZONE
    + r"\d{1,2}\s*" + _ZONE_SUFFIX + r"\s*(?:" + _alts("HEMISPHERES") + r")?(?![a-z])"
)
SOURCE = re.compile(
    r"(?:" + _alts("SOURCE_WORDS") + r")\s*(?:" + _alts("SOURCE_ARTICLES") + r")?(?:" + _alts("SOURCE_NOUNS") + r")?$"
)
TARGET = re.compile(
    r"(?:" + _alts("TARGET_WORDS") + r")\s*(?:" + _alts("TARGET_ARTICLES") + r")?(?:" + _alts("TARGET_NOUNS") + r")?$"
)


def crs_spans(low: str) -> list[tuple[int, int]]:
    """Spans of the folded text that name a CRS (codes, UTM zones, common names)."""
    spans = [m.span() for m in _CODE_SPAN.finditer(low)] + [m.span() for m in _UTM_SPAN.finditer(low)]
    spans += [m.span(1) for m in _BARE_CODE.finditer(low) if 2000 <= int(m.group(1)) <= 32767]
    for pattern, _ in _NAMED:
        spans += [m.span() for m in pattern.finditer(low)]
    return sorted(set(spans))


def crs_mentions(low: str) -> list[tuple[int, int, str]]:
    """Every CRS named, with its span and code, longest spans first where they overlap."""
    out: list[tuple[int, int, str]] = []
    for s, e in sorted(crs_spans(low), key=lambda se: -(se[1] - se[0])):
        if any(s < oe and os < e for os, oe, _ in out):
            continue
        piece = low[s:e]
        code = find_crs(piece)
        if code is None and piece.strip().isdigit() and 2000 <= int(piece) <= 32767:
            code = f"EPSG:{int(piece)}"
        if code:
            out.append((s, e, code))
    return sorted(out)


def crs_roles(text: str) -> tuple[str | None, str | None, str | None]:
    """(source, target, problem) read from role markers: 'from A to B', 'von A nach B', '从A转换成B'.

    One CRS with no source marker is the target. Two different CRSs need markers: one after 'from' is the
    source, one after 'to' the target; without markers, or with a source and no target, `problem` says so and
    nothing is guessed."""
    low = fold(text)
    found = crs_mentions(low)
    codes = list(dict.fromkeys(c for _, _, c in found))
    if not found:
        return None, find_crs(text), None
    roles = []
    for s, _, code in found:
        head = low[max(0, s - 40) : s]
        roles.append(("source" if SOURCE.search(head) else "target" if TARGET.search(head) else None, code))
    sources = list(dict.fromkeys(c for r, c in roles if r == "source"))
    targets = list(dict.fromkeys(c for r, c in roles if r == "target"))
    if len(codes) == 1:
        if sources and not targets:
            return codes[0], None, f"crs: only the source CRS ({codes[0]}) is named; the target is not"
        return None, codes[0], None
    if len(targets) == 1 and len(sources) <= 1 and set(codes) == set(sources) | set(targets):
        return (sources[0] if sources else None), targets[0], None
    if len(sources) == 1 and len(codes) == 2 and not targets:
        target = next(c for c in codes if c != sources[0])
        return sources[0], target, None
    return None, None, f"crs: several CRSs ({', '.join(codes)}) and no from/to says which is the target"


@lru_cache(maxsize=128)
def crs_name(code: str) -> str:
    """The official name of a CRS ('NAD83 / California zone 3 (ftUS)'), or '' when pyproj does not know it."""
    try:
        from pyproj import CRS

        return fold(CRS.from_user_input(code).name)
    except Exception:  # noqa: BLE001 - an unknown code has no name to claim words from
        return ""
