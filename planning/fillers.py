"""Readers for each parameter kind: distances, numbers, booleans, enums, fields, strings, expressions."""

from __future__ import annotations

import re

from ..reading.calc import calc_expression, raster_expression
from ..reading.conditions import conditions_expression
from ..reading.quantities import find_distances, find_paths, free_numbers
from ..reading.schema_match import find_fields, find_values, is_numeric
from ..reading.text import as_number
from ..reading.words import BOOLEAN_WORDS, ENUM_WORDS, GROUP_CUE, NUMBER_WORDS, STRING_CUES, TYPE_WORDS, operator_label

DISTANCE_WORDS = {
    "distance": r"buffer|distance|within|radius|around|abstand|umkreis|puffer|距离|缓冲|范围",
    "radius": r"radius|bandwidth|search|kernel|半径|带宽",
    "pixel_size": r"pixel|cell|resolution|auflösung|auflosung|zelle|像素|分辨率",
    "spacing": r"spacing|cells?|grid|abstand|raster|间距|格网|网格",
    "eps": r"eps|epsilon|within|distance|search|radius|距离|abstand|邻域",
    "min_distance": r"apart|min(?:imum)?\s+distance|at least|mindestabstand|最小距离|间隔",
    "max_distance": r"max(?:imum)?\s+distance|within|up to|search radius|höchstens|hochstens|最大距离|以内",
    "interval": r"interval|every|contours?|abstand|间距|等高距",
}
_ID_LIKE = re.compile(r"(?:^|_)(?:id|fid|gid|objectid|code|name|nom|geoid|pin|uuid)(?:_|$)|^name", re.IGNORECASE)


def assign_distances(dist_params, folded: str, lang: str) -> dict:
    """Distances to distance params: by a keyword near each one, then in order to the required ones."""
    found = find_distances(folded, lang)
    out, used = {}, set()
    if len(dist_params) > 1:
        for p in dist_params:
            key = DISTANCE_WORDS.get(p.name, re.escape(p.name.replace("_", " ")))
            for i, d in enumerate(found):
                if i in used:
                    continue
                near = folded[max(0, d.start - 28) : d.start] + " " + folded[d.end : d.end + 16]
                if re.search(key, near):
                    out[p.name] = as_number(round(d.metres, 3))
                    used.add(i)
                    break
    rest = [d for i, d in enumerate(found) if i not in used]
    for p in dist_params:
        if p.name in out or not rest:
            continue
        if p.required or len(dist_params) == 1 or re.search(DISTANCE_WORDS.get(p.name, "$^"), folded):
            out[p.name] = as_number(round(rest.pop(0).metres, 3))
    return out


def number_for(folded: str, name: str, lang: str):
    key = NUMBER_WORDS.get(name, re.escape(name.replace("_", " ")))
    if name == "interval":
        for d in find_distances(folded, lang):
            if re.search(key, folded[max(0, d.start - 28) : d.end + 16]):
                return as_number(round(d.metres, 3))
    for n in free_numbers(folded, lang):
        before, after = folded[max(0, n.start - 24) : n.start], folded[n.end : n.end + 20]
        if re.search(r"(?:" + key + r")\s*(?:of|=|:|von|为|是)?\s*$", before) or re.match(r"\s*(?:" + key + ")", after):
            return as_number(n.value)
    return None


_RANGE = re.compile(
    r"(-?\d+(?:[.,]\d+)?)\s*(?:-|–|to|bis|到|至|~)\s*(-?\d+(?:[.,]\d+)?)\s*(?:->|→|=>|=|to|as|为|:|becomes|wird|zu)\s*"
    r"(-?\d+(?:[.,]\d+)?)"
)


def numbers_for(folded: str, name: str, lang: str):
    """Coordinate pairs for network start/end ('from 12.5, 41.9 to 12.6, 42.0'); reclassification tables."""
    if name == "table":
        rows = [[float(g.replace(",", ".")) for g in m.groups()] for m in _RANGE.finditer(folded)]
        return [as_number(v) for row in rows for v in row] or None
    pairs = list(re.finditer(r"(-?\d+(?:\.\d+)?)\s*[,;]\s*(-?\d+(?:\.\d+)?)", folded))
    if name in ("start", "end") and pairs:
        idx = 0 if name == "start" else 1
        return [float(pairs[idx].group(1)), float(pairs[idx].group(2))] if len(pairs) > idx else None
    return None


def boolean_for(folded: str, name: str):
    words = BOOLEAN_WORDS.get(name)
    if words is None:
        return True if re.search(r"(?<![a-z])" + re.escape(name.replace("_", " ")) + r"(?![a-z])", folded) else None
    yes, no = words
    if no and re.search(no, folded):
        return False
    return True if re.search(yes, folded) else None


def enum_for(folded: str, p, owner, conds):
    if p.name == "operator" and owner is not None:
        found = conds(owner)
        return operator_label(found[0].op, p.enum) if found else None
    hits = []
    for value in p.enum or ():
        pat = ENUM_WORDS.get(value, re.escape(str(value).replace("_", " ")))
        for m in re.finditer(r"(?:" + pat + r")", folded):
            if m.start() > 0 and re.match(r"[a-z]", m.group()) and re.match(r"[a-z]", folded[m.start() - 1]):
                continue  # inside a word
            hits.append((value == p.default, m.start(), -len(m.group()), value))
            break
    return min(hits)[3] if hits else None


def expression_for(spec, text, folded, owner, conds, params, lang):
    """A filter expression (conditions), a calculator expression (fields and operators) or a raster condition."""
    raster = params.get("raster")
    if raster and not any(p.kind in ("field", "fields") for p in spec.params):
        return raster_expression(folded, raster, lang)
    if owner is None:
        return None
    if any(p.name == "field_name" for p in spec.params):
        return calc_expression(text, owner)
    return conditions_expression(conds(owner), text)


def _grouped(mentions, folded):
    """Fields right after 'by/per/nach/按' (one word may sit between: 'by house type'), best match first."""
    cue = GROUP_CUE + r"[\s-]*(?:the|each|every|den|der|die|jede[mnrs]?|field|feld)?\s*(?:[a-z]+\s+)?[\"'“„]?$"
    found = [m for m in mentions if re.search(cue, folded[max(0, m.start - 26) : m.start])]
    found = [m for m in found if m.score >= 1.0 or not _ID_LIKE.search(m.name)]
    return sorted(found, key=lambda m: (-m.score, m.start))


def categorical_field(layer) -> str | None:
    """The one string field that looks like a category (not a name or an id), if there is exactly one."""
    cats = [f.name for f in layer.fields if f.type in ("string", "str", "text") and not _ID_LIKE.search(f.name)]
    return cats[0] if len(cats) == 1 else None


def field_for(spec, p, folded, owner, conds, params):
    if owner is None:
        return None
    names = [q.name for q in spec.params]
    if p.kind == "field" and "value" in names and p.name == "field":
        values = find_values(folded, owner)
        if values:
            return values[0].name
        cs = conds(owner)
        if cs:
            return cs[0].field
    if p.name in ("x1", "y1", "x2", "y2"):
        return _xy_field(p.name, folded, owner)
    if p.name == "field" and params.get("agg") == "count":
        return None
    if p.name == "table_field":
        return _table_field(folded, owner, params)
    mentions = find_fields(folded, owner)
    types = {f.name: f.type for f in owner.fields}
    if p.kind == "fields" or p.name == "by":
        grouped = [m.name for m in _grouped(mentions, folded)]
        if not grouped and re.search(GROUP_CUE + r"[\s-]*(?:the\s+)?(?:field\s+)?(?:" + TYPE_WORDS + ")", folded):
            cat = categorical_field(owner)
            grouped = [cat] if cat else []
        if p.kind == "fields":
            several = [g for g in grouped if any(m.name == g and m.score >= 0.95 for m in mentions)]
            chosen = several if len(several) > 1 else grouped[:1]
            if not chosen and p.name != "by":
                chosen = [m.name for m in mentions[:1]]
            return chosen or None
        return grouped[0] if grouped else None
    if not mentions:
        return None
    taken = {v for k, v in params.items() if k != p.name and isinstance(v, str)}
    taken |= {x for v in params.values() if isinstance(v, list) for x in v if isinstance(x, str)}
    pool = [m for m in mentions if m.name not in taken]
    if p.name in ("field", "weight_field") and ("agg" in names or "prefers_numbers" in spec.traits):
        numeric = [m for m in pool if is_numeric(types.get(m.name, ""))]
        pool = numeric or pool
    if not pool:
        return None
    return max(pool, key=lambda m: (m.score, -m.start)).name


def _xy_field(name: str, folded: str, layer) -> str | None:
    """Start/end coordinate fields: x-like (lon, x, east, Rechtswert, 经度) and y-like (lat, y, north, Hochwert, 纬度)
    by the axis words of function_lib/geometry_columns.py, first pair then second."""
    from ..function_lib.geometry_columns import axis_of

    xish = re.compile(r"(?:^|_)(?:lon|lng|long|x|east|easting|rechts)")
    yish = re.compile(r"(?:^|_)(?:lat|y|north|northing|hoch)")
    mentioned = [m.name for m in find_fields(folded, layer) if m.score >= 0.8]
    pool = mentioned if len(mentioned) >= 4 else [f.name for f in layer.fields]

    def axis(field: str, which: str, pattern) -> bool:
        hit = axis_of(field)
        if hit is not None:
            return hit[1] == which
        return bool(pattern.search(field.lower()) or re.search(which + r"\d?$", field.lower()))

    xs = [f for f in pool if axis(f, "x", xish)]
    ys = [f for f in pool if axis(f, "y", yish)]
    lst, k = (xs if name[0] == "x" else ys), int(name[1]) - 1
    return lst[k] if len(lst) == 2 else None


def _table_field(folded: str, table, params) -> str | None:
    mentions = [m.name for m in find_fields(folded, table) if m.score >= 0.8]
    if params.get("field") in {f.name for f in table.fields} and (not mentions or params.get("field") in mentions):
        return params["field"]
    return mentions[0] if len(mentions) == 1 else None


def string_for(spec, p, text, folded, owner, conds, layer_names, original=""):
    names = [q.name for q in spec.params]
    if p.kind == "value" or (p.name == "value" and "operator" in names):
        if owner is None:
            return None
        found = conds(owner)
        if p.kind == "value":  # a category value the field must equal, never a number from a comparison
            found = [c for c in found if c.op == "=" and isinstance(c.value, str)]
        if found:
            v = found[0].value
            return v if isinstance(v, str) else str(as_number(v))
        return None
    if p.name == "path":
        paths = find_paths(original)
        return paths[0] if paths else None
    cue = STRING_CUES.get(p.name)
    if cue is None:
        return None
    skip = {n.lower() for n in layer_names}
    if owner is not None and p.name in ("new_name", "field_name"):
        skip |= {f.name.lower() for f in owner.fields}
    skip |= {
        "a",
        "an",
        "the",
        "it",
        "field",
        "column",
        "feld",
        "spalte",
        "layer",
        "to",
        "as",
        "in",
        "new",
        "neues",
        "called",
        "named",
        "holding",
        "with",
        "on",
        "of",
        "um",
        "the field",
        "den",
        "das",
        "die",
    }
    # overlapping matches: 'file name' inside 'a shapefile named gs_out' must not hide the 'named' after it
    for m in re.finditer(r"(?=(" + cue + r"))", text, re.IGNORECASE):
        start, end, said = m.start(1), m.end(1), m.group(1)
        if re.match(r"[A-Za-z0-9_]", said[-1:]) and re.match(r"[A-Za-z0-9_]", text[end : end + 1]):
            continue  # 'value' inside 'value_per_ha'
        if start > 0 and re.match(r"[A-Za-z0-9_]", text[start - 1]) and re.match(r"[A-Za-z]", said):
            continue
        v = _VALUE.match(text, end)
        if not v or v.end() == end:
            continue
        value = next(g for g in v.groups() if g).strip()
        if not value or value.lower() in skip or (re.fullmatch(r"\d+(?:\.\d+)?", value) and p.name != "value"):
            continue
        return value
    if p.name == "field_name":
        m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)", text)
        if m and m.group(1).lower() not in skip:
            return m.group(1)
    return None


_VALUE = re.compile(r"\s*[:=]?\s*(?:'([^']+)'|\"([^\"]+)\"|“([^”]+)”|([A-Za-z0-9_\-]*[A-Za-z0-9_]|[\u4e00-\u9fff]+))")
