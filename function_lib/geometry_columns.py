"""Geometry found in a table by content: WKT/WKB/GeoJSON text columns and coordinate pairs (en/de/zh names)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Axis words by family: a pair is one x word and one y word of the same family, with the same rest of the name
# ('from_x'/'from_y', 'start_lon'/'start_lat', '起点经度'/'起点纬度').
AXIS_FAMILIES = {
    "xy": (("x", "xcoord", "xkoord", "coordx", "rechts", "x坐标", "横坐标"),
           ("y", "ycoord", "ykoord", "coordy", "hoch", "y坐标", "纵坐标")),
    "lonlat": (("lon", "long", "lng", "longitude", "laenge", "länge", "geo_laenge", "经度"),
               ("lat", "latitude", "breite", "geo_breite", "纬度")),
    "en": (("easting", "east", "rechtswert", "ostwert", "东坐标"),
           ("northing", "north", "hochwert", "nordwert", "北坐标")),
}  # fmt: skip
DEGREE_FAMILIES = {"lonlat"}
_SEP = r"[\s_.\-:/()]"
_WKT = re.compile(
    r"^\s*(?:SRID=\d+;\s*)?(?:MULTI)?(?:POINT|LINESTRING|POLYGON|CURVEPOLYGON|COMPOUNDCURVE|CIRCULARSTRING|"
    r"GEOMETRYCOLLECTION|MULTICURVE|MULTISURFACE|TRIANGLE|TIN|POLYHEDRALSURFACE)\s*(?:ZM|Z|M)?\s*(?:\(|EMPTY)",
    re.IGNORECASE,
)
_HEX = re.compile(r"^(?:00|01)[0-9a-fA-F]{16,}$")
_GEOJSON = re.compile(r'^\s*\{.*"type"\s*:\s*"(?:Multi)?(?:Point|LineString|Polygon)|GeometryCollection', re.DOTALL)
SAMPLE = 50


@dataclass
class CoordinatePair:
    """Two numeric columns that hold X and Y (lon and lat, easting and northing) of one point per row."""

    x: str
    y: str
    family: str
    rest: str  # what the two names share besides the axis word: '' for x/y, 'from' for from_x/from_y
    numeric: bool = True  # False when no row holds numbers in both ('north', 'east')

    @property
    def label(self) -> str:
        return f"{self.x}/{self.y}"


def geometry_text_kind(values) -> str | None:
    """'wkt', 'wkb' or 'geojson' when every sampled non-empty value of a column parses as that, else None."""
    import shapely

    sample = [v for v in values[: SAMPLE * 4] if v is not None and str(v).strip() != ""][:SAMPLE]
    if not sample:
        return None
    if all(isinstance(v, (bytes, bytearray, memoryview)) for v in sample):
        kind, parse = "wkb", shapely.from_wkb
    else:
        text = [str(v) for v in sample]
        if all(_WKT.match(t) for t in text):
            kind, parse = "wkt", shapely.from_wkt
        elif all(_HEX.match(t.strip()) and len(t.strip()) % 2 == 0 for t in text):
            kind, parse = "wkb", shapely.from_wkb
        elif all(_GEOJSON.match(t) for t in text):
            kind, parse = "geojson", shapely.from_geojson
        else:
            return None
        sample = [t.strip() for t in text]
    try:
        parsed = parse(sample, on_invalid="ignore") if kind != "geojson" else [parse(s) for s in sample]
    except Exception:  # noqa: BLE001 - a value that looks like geometry but does not parse: not a geometry column
        return None
    return kind if all(g is not None for g in parsed) else None


def geometry_text_columns(df) -> list[tuple[str, str]]:
    """(column, kind) for every text or binary column whose values are geometries, in column order."""
    found = []
    for column in df.columns:
        values = df[column]
        if values.dtype.kind not in "OSU" and not str(values.dtype).startswith(("str", "string", "binary")):
            continue
        kind = geometry_text_kind(values.dropna().head(SAMPLE * 4).tolist())
        if kind:
            found.append((str(column), kind))
    return found


def parse_geometry_column(values, kind: str):
    """The column's geometries (None where a value is empty or does not parse) and the number that did not parse."""
    import numpy as np
    import shapely

    items = values.tolist()
    empty = [v is None or (isinstance(v, float) and v != v) or str(v).strip() == "" for v in items]
    if kind == "wkb":
        raw = [None if e else (bytes(v) if isinstance(v, (bytes, bytearray, memoryview)) else str(v).strip())
               for v, e in zip(items, empty)]  # fmt: skip
        geoms = shapely.from_wkb(raw, on_invalid="ignore")
    elif kind == "wkt":
        geoms = shapely.from_wkt([None if e else re.sub(r"^\s*SRID=\d+;", "", str(v)) for v, e in zip(items, empty)],
                                 on_invalid="ignore")  # fmt: skip
    else:
        geoms = np.array([None if e else _geojson_or_none(str(v)) for v, e in zip(items, empty)], dtype=object)
    bad = sum(1 for g, e in zip(geoms, empty) if g is None and not e)
    return geoms, bad


def _geojson_or_none(text: str):
    import shapely

    try:
        return shapely.from_geojson(text)
    except Exception:  # noqa: BLE001 - counted as unparsed by the caller
        return None


def ewkt_srid(values) -> int | None:
    """The SRID written in EWKT values ('SRID=4326;POINT(…)') when all that carry one agree."""
    codes = {m.group(1) for v in values[:SAMPLE] if isinstance(v, str) for m in [re.match(r"^\s*SRID=(\d+);", v)] if m}
    return int(codes.pop()) if len(codes) == 1 else None


def axis_of(name: str):
    """(family, 'x' or 'y', rest of the name) when a part of the column name is an axis word, else None.

    Parts are split at separators and before a trailing number ('x1', 'from_x', 'POINT_X', 'pickup_longitude');
    Chinese axis words are found inside the name ('起点经度')."""
    low = name.strip().lower()
    for family, (xs, ys) in AXIS_FAMILIES.items():
        for axis, words in (("x", xs), ("y", ys)):
            for word in (w for w in words if re.search(r"[\u4e00-\u9fff]", w)):
                if word in low:
                    return family, axis, low.replace(word, "", 1).strip(" _")
    parts = [p for p in re.split(_SEP + "+", re.sub(r"(?<=[a-zäöü])(\d+)$", r"_\1", low)) if p]
    for i, part in enumerate(parts):
        for family, (xs, ys) in AXIS_FAMILIES.items():
            for axis, words in (("x", xs), ("y", ys)):
                if part in words:
                    return family, axis, "_".join(parts[:i] + ["*"] + parts[i + 1 :])
    return None


def coordinate_pairs(df) -> list[CoordinatePair]:
    """Every pair of columns named as X and Y of one family with the same rest of the name, in column order."""
    import pandas as pd

    axes = {}
    for column in df.columns:
        hit = axis_of(str(column))
        if hit:
            axes.setdefault((hit[0], hit[2]), {}).setdefault(hit[1], str(column))
    pairs = []
    for (family, rest), found in axes.items():
        if "x" not in found or "y" not in found:
            continue
        x, y = (pd.to_numeric(df[found[a]], errors="coerce") for a in ("x", "y"))
        numeric = not len(df) or bool((x.notna() & y.notna()).any())
        pairs.append(CoordinatePair(found["x"], found["y"], family, rest.replace("*", "").strip("_ "), numeric))
    return sorted(pairs, key=lambda p: list(map(str, df.columns)).index(p.x))


def in_degrees(x, y) -> bool:
    """True when the values leave no doubt that they are longitude/latitude: all within ±180/±90 and not all whole
    numbers (a local grid or an index of small integers is not taken for degrees)."""
    import numpy as np

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    ok = np.isfinite(x) & np.isfinite(y)
    if not ok.any():
        return False
    x, y = x[ok], y[ok]
    if np.abs(x).max() > 180 or np.abs(y).max() > 90:
        return False
    return bool((np.mod(x, 1) != 0).any() or (np.mod(y, 1) != 0).any())
