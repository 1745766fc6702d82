"""The tier-0 plan filler: every parameter of the top tool filled by its kind from the text and the layers."""

from __future__ import annotations

import re

from ..function_lib.describe import LayerInfo
from .conditions import conditions_expression, find_conditions
from .crs import find_crs
from .quantities import find_bbox, find_distances, find_format, find_paths, find_url, free_numbers, integer_for
from .result import Plan
from .roles import assign_layers
from .schema_match import find_fields, find_layers, find_values, is_numeric
from .text import as_number, detect_lang, fold
from .words import BOOLEAN_WORDS, ENUM_WORDS, GROUP_CUE, NUMBER_WORDS, STRING_CUES, operator_label

DISTANCE_WORDS = {
    "distance": r"buffer|distance|within|radius|around|abstand|umkreis|puffer|距离|缓冲|范围",
    "radius": r"radius|bandwidth|search|kernel|radius von|半径|带宽",
    "pixel_size": r"pixel|cell|resolution|auflösung|zelle|像素|分辨率",
    "spacing": r"spacing|cells?|grid|abstand|raster|间距|格网|网格",
    "eps": r"eps|epsilon|within|distance|search|radius|距离|abstand",
    "min_distance": r"apart|min(?:imum)?\s+distance|at least|mindestabstand|最小距离|间隔",
    "max_distance": r"max(?:imum)?\s+distance|within|up to|höchstens|最大距离|以内",
    "interval": r"interval|every|contours?|abstand|间距|等高距",
}


def paths_as_layers(text: str) -> list[LayerInfo]:
    """When no layers are in play, the file names written in the text stand in for them."""
    out = []
    for path in find_paths(text):
        low = path.lower()
        kind = "raster" if low.endswith((".tif", ".tiff", ".asc")) else "vector"
        out.append(LayerInfo(name=path, path=path, kind=kind))
    return out


def fill_plan(spec, text: str, layers: list, lang: str | None = None, mentions=None) -> Plan:
    """The plan for `spec`: params read by kind; `complete` only when every required one is unambiguous."""
    lang = lang or detect_lang(text)
    folded = fold(text)
    if not layers:
        layers, mentions = paths_as_layers(text), None
    mentions = find_layers(folded, layers) if mentions is None else mentions
    params: dict = {}
    missing: list[str] = []
    lp, lmiss = assign_layers(spec, folded, layers, mentions)
    params.update(lp)
    missing.extend(lmiss)
    by_name = {la.name: la for la in layers}
    main = by_name.get(params.get("layer") or params.get("polygons") or params.get("raster") or "")
    dist_params = [p for p in spec.params if p.kind == "distance"]
    distances = _assign_distances(dist_params, folded, lang)
    conds_cache: dict = {}

    def conds(layer):
        if layer.name not in conds_cache:
            skip = [(d.start, d.end) for d in find_distances(folded, lang)]
            conds_cache[layer.name] = find_conditions(text, layer, lang, spans_to_skip=skip)
        return conds_cache[layer.name]

    for p in spec.params:
        if p.kind == "layer":
            continue
        owner = by_name.get(params.get(p.of_layer or "layer", "")) or main
        value = None
        if p.kind == "layers":
            names = [m.name for m in mentions]
            value = names if len(names) >= 2 else ([la.name for la in layers] if len(layers) >= 2 and not names else None)
        elif p.kind == "distance":
            value = distances.get(p.name)
        elif p.kind == "integer":
            value = integer_for(folded, p.name, lang)
        elif p.kind == "number":
            value = _number_for(folded, p.name, lang)
        elif p.kind == "numbers":
            value = _numbers_for(folded, p.name)
        elif p.kind == "crs":
            value = find_crs(text)
        elif p.kind == "format":
            value = find_format(text, list(p.enum) if p.enum else None)
        elif p.kind == "url":
            value = find_url(text)
        elif p.kind == "bbox":
            value = find_bbox(text)
        elif p.kind == "boolean":
            value = _boolean_for(folded, p.name)
        elif p.kind == "enum":
            value = _enum_for(folded, p, owner, conds)
        elif p.kind == "expression":
            value = _expression_for(spec, text, folded, owner, conds)
        elif p.kind in ("field", "fields"):
            value = _field_for(spec, p, folded, owner, conds, params)
        elif p.kind in ("value", "string"):
            value = _string_for(spec, p, text, folded, owner, conds)
        if value is not None:
            params[p.name] = value
        elif p.required and p.name not in missing:
            missing.append(p.name)
    if spec.name in ("select_rows",) and not any(k in params for k in ("value", "top_n")):
        missing.append("value")
    order = [p.name for p in spec.params]
    params = {k: params[k] for k in sorted(params, key=order.index)}
    missing = sorted(set(missing), key=order.index)
    return Plan(tool=spec.name, params=params, complete=not missing, missing=missing)


def _assign_distances(dist_params, folded: str, lang: str) -> dict:
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


def _number_for(folded: str, name: str, lang: str):
    key = NUMBER_WORDS.get(name, re.escape(name.replace("_", " ")))
    for d in find_distances(folded, lang):
        if re.search(key, folded[max(0, d.start - 28) : d.end + 16]) and name in ("interval",):
            return as_number(round(d.metres, 3))
    for n in free_numbers(folded, lang):
        before, after = folded[max(0, n.start - 24) : n.start], folded[n.end : n.end + 20]
        if re.search(r"(?:" + key + r")\s*(?:of|=|:|von|为|是)?\s*$", before) or re.match(r"\s*(?:" + key + ")", after):
            return as_number(n.value)
    return None


def _numbers_for(folded: str, name: str):
    """Coordinate pairs for network start/end points ('from 12.5, 41.9 to 12.6, 42.0')."""
    pairs = list(re.finditer(r"(-?\d+(?:\.\d+)?)\s*[,;]\s*(-?\d+(?:\.\d+)?)", folded))
    if name in ("start", "end") and pairs:
        idx = 0 if name == "start" else 1
        return [float(pairs[idx].group(1)), float(pairs[idx].group(2))] if len(pairs) > idx else None
    return None


def _boolean_for(folded: str, name: str):
    words = BOOLEAN_WORDS.get(name)
    if words is None:
        return True if re.search(r"(?<![a-z])" + re.escape(name.replace("_", " ")) + r"(?![a-z])", folded) else None
    yes, no = words
    if no and re.search(no, folded):
        return False
    return True if re.search(yes, folded) else None


def _enum_for(folded: str, p, owner, conds):
    if p.name == "operator" and owner is not None:
        found = conds(owner)
        return operator_label(found[0].op, p.enum) if found else None
    hits = []
    for value in p.enum or ():
        pat = ENUM_WORDS.get(value, re.escape(str(value).replace("_", " ")))
        m = re.search(r"(?:(?<![a-z])|(?<=[\u4e00-\u9fff]))(?:" + pat + r")", folded)
        if m:
            hits.append((m.start(), -len(m.group()), value))
    return min(hits)[2] if hits else None


def _expression_for(spec, text, folded, owner, conds):
    if owner is None:
        return None
    if any(p.name == "field_name" for p in spec.params) or "raster" in spec.name:
        m = re.search(r"(?:=|\bas\b|equal to|als|为|等于)\s*(.+)$", text)
        if not m:
            return None
        return _arithmetic(m.group(1), owner)
    return conditions_expression(conds(owner), text)


def _arithmetic(tail: str, layer) -> str | None:
    """The calculator expression at the start of `tail`: fields, numbers, + - * / and brackets, quoted."""
    names = {fold(f.name): f.name for f in layer.fields}
    out = []
    for m in re.finditer(r'\s*("[^"]+"|\$?[A-Za-z_][\w]*|\d+(?:\.\d+)?|[-+*/()])', tail):
        tok = m.group(1)
        key = fold(tok.strip('"'))
        if key in names:
            out.append(f'"{names[key]}"')
        elif re.fullmatch(r"\d+(?:\.\d+)?|[-+*/()]|\$area|\$length|\$x|\$y", tok):
            out.append(tok)
        else:
            break
    while out and out[-1] in "+-*/(":
        out.pop()
    expr = " ".join(out).replace("( ", "(").replace(" )", ")")
    return expr if any(t.startswith('"') or t.startswith("$") for t in out) else None


def _field_for(spec, p, folded, owner, conds, params):
    if owner is None:
        return None
    if p.kind == "field" and any(q.name == "value" and q.kind in ("value", "string") for q in spec.params):
        values = find_values(folded, owner)
        if values:
            return values[0].name
        cs = conds(owner)
        if cs:
            return cs[0].field
    mentions = find_fields(folded, owner)
    if not mentions:
        return None
    types = {f.name: f.type for f in owner.fields}
    if p.kind == "fields" or p.name == "by":
        grouped = [m for m in mentions if re.search(GROUP_CUE + r"\s*(?:the|each|every|den|der|die|jede[mnrs]?)?\s*$",
                                                     folded[max(0, m.start - 16) : m.start])]
        if p.kind == "fields":
            chosen = grouped or ([] if p.name == "by" else mentions[:1])
            return [m.name for m in chosen] or None
        return grouped[0].name if grouped else None
    taken = {v for k, v in params.items() if k != p.name and isinstance(v, str)}
    taken |= {x for v in params.values() if isinstance(v, list) for x in v if isinstance(x, str)}
    pool = [m for m in mentions if m.name not in taken]
    if p.name == "field" and any(q.name == "agg" for q in spec.params):
        numeric = [m for m in pool if is_numeric(types.get(m.name, ""))]
        pool = numeric or pool
    if not pool:
        return None
    best = max(pool, key=lambda m: (m.score, -m.start))
    return best.name


def _string_for(spec, p, text, folded, owner, conds):
    if p.kind == "value" or (p.name == "value" and any(q.name == "operator" for q in spec.params)):
        if owner is None:
            return None
        found = conds(owner)
        if found:
            v = found[0].value
            return v if isinstance(v, str) else str(as_number(v))
        return None
    if p.name == "path":
        paths = find_paths(text)
        return paths[0] if paths else None
    cue = STRING_CUES.get(p.name)
    if cue is None:
        return None
    m = re.search(r"(?:" + cue + r")\s*[:=]?\s*(?:'([^']+)'|\"([^\"]+)\"|“([^”]+)”|([\w\-]+))", text, re.IGNORECASE)
    if not m:
        return None
    value = next(g for g in m.groups() if g)
    return None if value.lower() in ("a", "an", "the", "it", "field", "column") else value
