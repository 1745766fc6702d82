"""Layer parameters by role: geometry types, the words before each mention, and word order."""

from __future__ import annotations

import re

from ..function_lib.traits import table_params
from ..reading.schema_match import Mention, _text_words, _theme_mentions, find_layers, geometry_class, layer_theme
from ..reading.text import fold, singular
from .result import Gap

# A hard geometry (or kind) a parameter needs, by its name.
HARD = {"polygons": "polygon", "points": "point", "lines": "line", "raster": "raster", "dem": "raster"}
_SECOND = r"(?:with|by|to|using|against|within|inside|in|from|of|onto|into|near|around|across|minus|mit|durch|an|auf|" \
          r"innerhalb|von|vom|zu|zum|zur|nach|um|aus|与|和|用|以|到|在|按|跟|同|对)"  # fmt: skip
_MEASURED_FROM = ("from", "von", "vom", "aus")
_PRIMARY_FOR_JOIN = r"(?:to|onto|into|for|zu|an|für|fur|给|到)"
_EACH = re.compile(r"(?:\beach|\bevery|\bjede[nmrs]?)(?: of(?: the)?)?\s*[\"'“„「«]?$|(?:为每个|每个)\s*[\"'“„「«]?$")
_JOIN_VERBS = re.compile(
    r"join|attach|link|append|transfer|copy|anhäng|anhang|verknüpf|verknupf|verbind|关联|连接|附加"
)
_ERASE_VERBS = re.compile(
    r"\berase|\bremov\w* .{0,40}\bfrom\b|subtract|cut\w* (?:out|away)|take\w* away|abzieh|去掉|去除|擦除|减去"
)
_NEAREST = r"(?:nearest|closest|next|nachste[nmrs]?|nächste[nmrs]?|最近的?)"
_FILLER = (
    r"(?:\s+(?:the|a|an|all|each|every|den|dem|der|die|das|des|jede[nmrs]?|allen?|layer|图层|每个|各|"
    + _NEAREST[3:-1]
    + r"))*\s*[\"'“„「«]?"
)


def _cue(folded: str, m: Mention) -> str | None:
    """The preposition right before a mention ('with', 'to', '用'...), if any.

    'of' counts only after a distance ('500 m of the schools'): 'the overlap of X' names the main layer.
    """
    head = folded[max(0, m.start - 30) : m.start]
    if re.match(r"\s*(?:图层|层)?\s*(?:的)?\s*(?:周边|周围|附近|旁边|边上)", folded[m.end : m.end + 8]):
        return "near"
    if re.search(r"(?:距离|离|距)\s*$", head):
        return "near"
    if re.match(r"[\"'”」»]?\s*(?:图层|层)?\s*(?:之内|以内|范围内|范围里|内部|内|里)的?", folded[m.end : m.end + 8]):
        return "in"  # '只保留A内的B': A is where, B what is kept
    hit = re.search(r"(?:^|[\s,])(" + _SECOND + r")" + _FILLER + r"$", head)
    if hit:
        before = head[: hit.start(1)]
        if hit.group(1) in ("of", "von", "vom") and not re.search(
            r"(\d|\bm|km|metres?|meters?|miles?|feet|ft|yards?)\s*$", before
        ):
            return None
        if re.search(_NEAREST + r"\s+\S*$", head) or re.search(_NEAREST + r"\s*$", head):
            return "nearest"
        return hit.group(1)
    zh = re.search(r"(" + _SECOND + r")\s*[\"'“„「«]?\s*$", head)
    return zh.group(1) if zh and re.match(r"[\u4e00-\u9fff]", zh.group(1)) else None


def fits_param(param, layer, table_ok: tuple[str, ...] = ()) -> bool:
    """Can this layer fill this parameter (raster vs vector, hard geometry; a table only the params in table_ok)?"""
    if getattr(layer, "kind", "vector") == "table":
        return param.name in table_ok
    cls = geometry_class(layer)
    want = HARD.get(param.name)
    desc = (param.description or "").lower()
    if want is None and "raster" in desc:
        want = "raster"
    if want == "raster":
        return cls == "raster"
    if cls == "raster":
        return False
    if want and cls is not None:
        return cls == want
    return True


def assign_layers(spec, text: str, layers, mentions: list[Mention] | None = None) -> tuple[dict, list[str]]:
    """Fill the layer params of `spec`: a name per param, and the params left missing or ambiguous."""
    params = [p for p in spec.params if p.kind == "layer"]
    table_ok = table_params(spec.name)

    def compatible(p, layer) -> bool:
        return fits_param(p, layer, table_ok)

    folded = fold(text)
    mentions = find_layers(folded, layers) if mentions is None else mentions
    by_name = {layer.name: layer for layer in layers}
    out: dict[str, str] = {}
    missing: list[Gap] = []
    used: set[str] = set()
    asked: set[str] = set()  # params whose layer is a question already (several named alike)
    absent = unmatched_themes(folded, layers)

    # 1. Params with a hard geometry: the one mentioned layer that fits, else the only layer that fits.
    for p in params:
        if p.name not in HARD and not (p.description and "raster" in p.description.lower()):
            continue
        fits = [m for m in mentions if m.name not in used and compatible(p, by_name[m.name])]
        if len(fits) >= 1 and (len(fits) == 1 or fits[0].score > fits[1].score):
            choice = fits[0].name
        elif len(fits) > 1:
            choice = _by_cue(p, fits, folded) or _by_number(fits, folded)
            tied = [m.name for m in fits if m.score >= fits[0].score]
            takers = [q for q in params if all(compatible(q, by_name[n]) for n in tied)]
            if choice is None and len(tied) > len(takers):  # 'NDVI of the image' with image_2024 and image_2025
                said = " or ".join(f"'{n}'" for n in tied)  # (a change between two dates takes both: no question)
                missing.append(Gap("param", f"{p.name}: {said}? the request names them alike", p.name))
                used |= set(tied)
                asked.add(p.name)
                continue
        else:
            pool = [la.name for la in layers if la.name not in used and compatible(p, la)]
            # a raster beside a vector layer (zonal stats, sampling) must be named, never taken by elimination
            named_only = HARD.get(p.name) == "raster" and any(q.name not in HARD for q in params)
            choice = pool[0] if len(pool) == 1 and not absent and not named_only else None
        if choice:
            out[p.name] = choice
            used.add(choice)

    # 2. Soft roles: the main layer is the mention without a secondary cue; the others follow in order.
    soft = [p for p in params if p.name not in out and p.name not in asked]
    # A table (no geometry) fits only a param that takes one: it goes there whatever the word order
    # ('verknüpfe die Tabelle budget mit wards').
    for m in mentions:
        slot = next((p for p in soft if p.name in table_ok), None)
        if slot is not None and m.name not in used and getattr(by_name[m.name], "kind", "") == "table":
            out[slot.name] = m.name
            used.add(m.name)
            soft.remove(slot)
    if not soft:
        return out, missing
    rest = [m for m in mentions if m.name not in used and any(compatible(p, by_name[m.name]) for p in soft)]
    main = next((p for p in soft if p.name == "layer"), soft[0])
    others = [p for p in soft if p is not main]
    join_like = any(p.name in ("join", "table") for p in others) and bool(_JOIN_VERBS.search(folded))
    cues = {m.name: _cue(folded, m) for m in rest}
    primary = _primary_by_verb(rest, cues, folded, join_like)
    if any(p.name == "join" for p in others):  # a spatial join: whose rows are kept is the main layer
        primary = _join_target(rest, folded, by_name) or primary
    primary = (
        primary or [m for m in rest if not cues[m.name]] or [m for m in rest if cues[m.name] != "nearest"] or rest[:1]
    )
    order = ([primary[0]] if primary else []) + [m for m in rest if not primary or m is not primary[0]]
    if len(order) == 1 and any(p.required for p in others) and cues.get(order[0].name) and not join_like:
        order = [None, order[0]]  # the only mention is the secondary one ('clip to the districts')
    for p, m in zip([main] + others, order):
        if m is not None and compatible(p, by_name[m.name]):
            out[p.name] = m.name
            used.add(m.name)

    # 3. Still unfilled: the only compatible layer left (never a guess between several, and never when the
    # text names a kind of layer that is not in play: 'buffer the hospitals' with only schools loaded).
    # A table named but fitting no param ('buffer the budget') is never replaced by the layer left over.
    tables = [m.name for m in mentions if m.name not in used and getattr(by_name[m.name], "kind", "") == "table"]
    for p in [main] + others:
        if p.name in out or p.name in asked:
            continue
        pool = [la for la in layers if la.name not in used and compatible(p, la)]
        if len(pool) == 1 and p.required and not absent and not tables:
            out[p.name] = pool[0].name
            used.add(pool[0].name)
        elif p.required:
            if tables:  # the one named is a table, which this param cannot take
                missing.append(Gap("param", f"{p.name} ('{tables[0]}' is a table without geometry)", p.name))
            else:
                missing.append(Gap.param(p.name))
    return out, missing


_DATE = re.compile(r"(?<!\d)((?:19|20)\d{2})(?:[-_]?(\d{2})(?:[-_]?(\d{2}))?)?(?!\d)")


def layer_date(name: str) -> tuple[int, ...] | None:
    """The one date a layer's name carries ('s2_20240615', 'image_2019', 'ortho-2021-06'), or None."""
    found = {tuple(int(g) for g in m.groups() if g) for m in _DATE.finditer(name)}
    return found.pop() if len(found) == 1 else None


def order_dated_pair(spec, params: dict, mentions: list[Mention]) -> tuple[Gap | None, str | None]:
    """The earlier and the later layer of a 'dated_pair' tool (change between two dates), put in that order.

    By the dates in the two names when both have one; else by the request's word order when it names each layer
    by a word of its own ('from image_a to image_b'); else a gap: the order of loading says nothing about time."""
    names = [p.name for p in spec.params if p.kind == "layer"][:2]
    if "dated_pair" not in spec.traits or len(names) < 2 or not all(params.get(n) for n in names):
        return None, None
    first, second = params[names[0]], params[names[1]]
    dates = layer_date(first), layer_date(second)
    if None not in dates and dates[0] != dates[1]:
        if dates[0] > dates[1]:
            params[names[0]], params[names[1]] = second, first
        return None, f"'{params[names[0]]}' read as the earlier and '{params[names[1]]}' as the later (dates in names)"
    spans = {m.name: (m.start, m.end) for m in mentions}
    if first in spans and second in spans and spans[first] != spans[second]:
        return None, None
    return Gap("param", f"{names[0]}/{names[1]}: which of '{first}' and '{second}' is the earlier is not said"), None


# Theme words too common in plain speech to mean a layer ('as well', 'a lot of', 'see', 'the world').
_COMMON = {"well", "see", "lot", "place", "land", "stop", "track", "world", "home", "quarter", "boundary", "kreis",
           "weg", "staat", "next", "elevation", "terrain", "park"}  # fmt: skip


_RASTER_THEMES = {"dem", "ndvi", "temperature", "landcover"}


def unmatched_themes(folded: str, layers) -> list[str]:
    """Kinds of layer the text names that no layer in play is (by theme)."""
    have = {layer_theme(la.name) for la in layers}
    fields = {fold(f.name) for la in layers for f in la.fields}  # 'by field district' names a field
    words = _text_words(folded)
    out = []
    mentions = _theme_mentions(folded, words)
    for key, s, e in mentions:
        word = folded[s:e]
        if key in _RASTER_THEMES and any(geometry_class(la) == "raster" for la in layers):
            continue  # 'the temperature grid' with a raster loaded names that raster
        if any(k in have for k, s2, e2 in mentions if (s2, e2) == (s, e)):
            continue  # a word of several themes ('Bahnen': railway, lift) names the one loaded
        if not ({word, singular(word)} & (_COMMON | fields)):
            out.append(key)
    return out


def _primary_by_verb(rest: list[Mention], cues: dict, folded: str, join_like: bool) -> list[Mention]:
    """The main layer when the wording says it: 'for every X', 'the nearest Y to every X', 'join … onto X', 'erase …
    from X'. 'every' after 'from' quantifies the layer distances are measured from ('300 m away from every school'):
    it does not make that layer the main one."""
    each = [
        m
        for m in rest
        if _EACH.search(folded[max(0, m.start - 24) : m.start]) and cues.get(m.name) not in _MEASURED_FROM
    ]
    if each:
        return each
    if join_like:
        return [m for m in rest if cues[m.name] and re.fullmatch(_PRIMARY_FOR_JOIN, cues[m.name])]
    if _JOIN_VERBS.search(folded):
        return [m for m in rest if cues[m.name] in ("onto", "into")]
    if _ERASE_VERBS.search(folded):
        return [m for m in rest if cues[m.name] in ("from", "von", "aus")]
    return []


# The layer whose attributes are added, said outright: 'the tracts' attributes', 'district names', 'fields of the
# parcels', 'the district it is in', 'the tract containing it', 'die Attribute der Bezirke', '区的属性'.
_ATTR_NOUN = r"(?:attributes?|fields?|columns?|names?|ids?|codes?|data|info(?:rmation)?|values?|labels?|attribute|" \
             r"felder|spalten|namen|daten|属性|字段|名称|信息)"  # fmt: skip
_SOURCE_AFTER = re.compile(
    r"^(?:'s?)?\s*(?:layer\s+)?" + _ATTR_NOUN + r"(?![a-z])|^\s*(?:polygon\s+)?(?:it|each one|they|that it|which it)\s+"
    r"(?:is|are|lies|lie|falls?|sits?|belongs?|is located|are located)\s+(?:in|within|inside|to)\b|"
    r"^\s*(?:(?:that|which)\s+)?contain(?:s|ing)\s+(?:it|them|each)|^\s*(?:的)?(?:属性|字段|名称|信息)"
)
_SOURCE_BEFORE = re.compile(
    r"(?:" + _ATTR_NOUN + r"|attribute data)\s+(?:of|from|von|der|des|aus)\s+(?:the\s+|den\s+|dem\s+)?$"
)
_ONE_SIDED = {("point", "polygon"), ("point", "line"), ("line", "polygon")}


def _join_target(rest: list[Mention], folded: str, by_name) -> list[Mention]:
    """The layer that keeps its rows in a spatial join: the other one when the text names whose attributes are
    added ('join the tracts' attributes to the hospitals', 'add the district it is in'); else, for points (or lines)
    and polygons, the points, each getting the polygon it lies in ('spatial join hospitals to tracts')."""
    if len(rest) != 2:
        return []
    sources = [m for m in rest if _names_source(folded, m)]
    if len(sources) == 1:
        return [m for m in rest if m is not sources[0]]
    if sources:
        return []
    each = [m for m in rest if _EACH.search(folded[max(0, m.start - 24) : m.start])]
    if len(each) == 1:
        return each
    kinds = [geometry_class(by_name[m.name]) for m in rest]
    if tuple(kinds) in _ONE_SIDED:
        return [rest[0]]
    if tuple(reversed(kinds)) in _ONE_SIDED:
        return [rest[1]]
    return []


def _names_source(folded: str, m: Mention) -> bool:
    after, before = folded[m.end : m.end + 40], folded[max(0, m.start - 30) : m.start]
    return bool(_SOURCE_AFTER.search(after) or _SOURCE_BEFORE.search(before))


def _by_number(fits: list[Mention], folded: str) -> str | None:
    """Layers named alike ('the 2025 image'): the one whose name carries a number the request says on its own."""
    said = set(re.findall(r"(?<![\d.])\d+(?![\d.])", folded))
    hits = [m for m in fits if said & set(re.findall(r"\d+", m.name))]
    return hits[0].name if len(hits) == 1 else None


def _by_cue(p, fits: list[Mention], folded: str) -> str | None:
    """Several layers fit a hard role: the polygons after 'in/per/each', the points before it; else ambiguous."""
    if p.name == "polygons":
        cued = [
            m for m in fits if _cue(folded, m) in ("in", "per", "by", "within", "inside", "pro", "je", "in", "按", "在")
        ]
        return cued[0].name if len(cued) == 1 else None
    return None
