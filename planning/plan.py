"""The tier-0 plan filler: every parameter of the top tool filled by its kind from the text and the layers."""

from __future__ import annotations

import re
from pathlib import Path

from ..function_lib.traits import KEY_PAIRS, NEEDS_WITH, ONE_OF, traits_of
from ..languages import LEXICONS
from ..reading.conditions import except_scope
from ..reading.quantities import (
    AREA_UNIT_WORDS,
    PATH_RE,
    WRITABLE_FORMATS,
    find_bbox,
    find_format,
    find_url,
    integer_for,
    output_format,
    unit_for,
)
from ..reading.request import Request, mask
from ..reading.schema_match import find_fields
from ..reading.series import INWARD, distance_series, equal_steps, signed
from ..reading.text import as_number, fold
from ..reading.words import osm_tag
from . import fillers as fill
from .consume import unconsumed
from .explain import unexplained
from .markers import crs_for, drop_layer_named_fields, per_feature_wording, use_marks_the_second_layer, zh_head_is_kept
from .result import Gap, Plan
from .roles import assign_layers, order_dated_pair

_VERBS = (
    r"count|measure|buffer|clip|export|plot|filter|select|join|reproject|project|intersect|dissolve|compute|"
    r"calculate|sum|merge|aggregate|convert|save|sort|rank|find|extract|keep|zahle|zähle|puffere|filtere|behalte|"
    r"verschneide|sortiere|projiziere|schneide|exportiere|berechne|speichere"
)
# Words that join steps: a request with them needs more than one tool.
CHAIN = re.compile(
    r"(?<![a-z])(?:then|afterwards|after that|followed by|and next|anschliessend|danach|dann|im anschluss)(?![a-z])|"
    r"然后|之后|接着|随后|再(?!见|次)|并(?:且)?(?:导出|缓冲|裁剪|筛选|排序|投影|统计|计算|融合|合并|相交|叠加|连接|保存|求)|"
    r"(?:\b(?:and|und)|[,;])\s+(?:also\s+)?(?:count(?!\s+(?:them|it|those)\s*[.!?]?$)|measure|buffer|draw an?\b|"
    r"clip|export|plot|filter|select|join|reproject|intersect|dissolve|compute|calculate|sum|total|average|merge|"
    r"aggregate|convert|"
    r"sort|rank|find|list|extract|label|colou?r|zahle|puffere|filtere|behalte|verschneide|sortiere|projiziere|"
    r"schneide|exportiere|berechne|berechnen|summiere|ermittle|verschmelze|gruppiere|aggregiere|"
    r"extrahiere|wahle|zeichne|keep(?!\s+the\s+(?:average|mean|sum|summed|total|lowest|highest|min|max|largest|smallest))(?!\s+(?:them|it|those|each)\s+(?:apart|separate|separated|individual)))\b"
)
NEXT_STEP = Gap("next_step")
SUPERLATIVE = re.compile(
    r"(?<![a-z])(?:the (?:most|least|fewest|[a-z]{3,}est)|largest|biggest|highest|smallest|lowest|greatest)(?![a-z])|"
    r"am (?:grossten|hochsten|kleinsten|niedrigsten|meisten|wenigsten)|(?:grosste|hochste|kleinste|niedrigste)[nrs]?\b|"
    r"(?:die|den|der) (?:meisten|wenigsten)\b|(?<![a-z])(?<!at )(?:least|fewest) [a-z]{4,}|"
    r"最大|最高|最多|最小|最低|最少"
)


# What a first step looks like, before ', buffer them…': a verb of the toolbox, not 'using EPSG:32617, …'.
_ACTION = re.compile(
    r"\b(?:buffer|clip|download|fetch|get|load|open|select|filter|keep|take|find|join|merge|dissolve|intersect|"
    r"reproject|project|convert|count|cluster|extract|compute|calculate|create|make|add|sort|rank)\w*"
)


# One operation applied to the result of another: 'intersect the districts with a 1 km buffer of the schools'.
_NESTED = re.compile(
    r"^\W*(?:please\s+)?(?:intersect|clip|cut|count|join|select|erase|overlay|union|merge|dissolve|difference|"
    r"subtract)\w*\b.*\b(?:an?|the|minus)\s+[\d.,]+\s*[a-z]*\s+(?:[a-z]+\s+)?(?:buffer|ring|zone)s?\b"
)


_PARAM_VERBS = {"dissolve": r"dissolve|merge|verschmelz|融合|合并", "compute": r"compute|calculate|berechn|ermittl"}


def _own_verbs(tool: str | None) -> str | None:
    """The verbs of the tool's own work after 'and' (lexicon TRAIT_VERBS of its traits), as one pattern."""
    stems = {v for t in traits_of(tool or "") for lang in LEXICONS.values() for v in lang.TRAIT_VERBS.get(t, ())}
    return "|".join(sorted(stems, key=len, reverse=True)) or None


def is_chain(folded: str, tool: str | None = None, filled=()) -> bool:
    """Does the request join several steps ('…, then…', '… and count them per…', '…，然后…')?"""
    if _NESTED.search(folded):
        return True
    statistic, own = "statistic" in traits_of(tool or ""), _own_verbs(tool)
    for m in CHAIN.finditer(folded):
        if (statistic or "agg" in filled) and re.search(
            r"(?:sum|total|average|mean|aggregate|summier|aggregier|berechn|ermittl|统计|计算|求)\w*\s*$", m.group()
        ):
            continue  # 'dissolve by ward and sum the area' is one aggregate
        if statistic and re.search(r"(?:compute|calculate|berechn|ermittl|计算|统计)\w*\s*$", m.group()):
            continue
        if own and re.search(r"(?:" + own + r")\w*\s*$", m.group()):
            continue
        if any(re.search(r"(?:" + _PARAM_VERBS[n] + r")\w*\s*$", m.group()) for n in filled if n in _PARAM_VERBS):
            continue  # 'buffers … and dissolve them': the buffer's own dissolve
        if m.group().lstrip()[:1] not in ",;":
            return True
        if _ACTION.search(folded[: m.start()]):
            return True
    return False


# Where one step ends and the next begins: connectors alone, or a list separator before a toolbox verb.
_SPLIT = re.compile(
    r"\s*(?:[,;]\s*)?(?:\b(?:and\s+)?then\b|\bafterwards\b|\bafter that\b|\bfollowed by\b|\banschlie(?:ss|ß)end\b|"
    r"\bdanach\b|\b(?:und\s+)?dann\b|然后|之后|接着|随后|；|;)\s*,?\s*|"
    r"\s*(?:,\s*(?:and\s+|und\s+)?|\s+(?:and|und)\s+)(?=(?:also\s+)?(?:" + _VERBS + r")\w*\b)|，\s*(?=再|并)"
)


def split_steps(text: str) -> list[str]:
    """A request cut into its steps ('select…, dissolve them, and compute…' → three clauses); one when no chain."""
    if not is_chain(fold(text)):
        return [text]
    parts = [p.strip(" ,.;，。；") for p in _SPLIT.split(text)]
    return [p for p in parts if len(p) >= 3] or [text]


def fill_plan(
    spec, request: Request | str, layers: list | None = None, lang: str | None = None, mentions=None, given=None
) -> Plan:
    """The plan for `spec`: params read by kind; `complete` only when every required one is unambiguous.

    `request` is the Request read once by the router (or a text, read here over `layers`). `given`: parameters the
    user chose in answer to a question (planning/holes.py); they replace what the text gave, and every other reading and
    check (every word explained) runs over them as over a plan read from the text."""
    given = {k: v for k, v in (given or {}).items() if any(p.name == k for p in spec.params)}
    req = request if isinstance(request, Request) else Request.read(request, layers, lang, mentions)
    text, folded, lang, layers, mentions = req.text, req.folded, req.lang, req.layers, req.mentions
    params: dict = {}
    missing: list[Gap] = []
    lp, lmiss = assign_layers(spec, folded, layers, mentions)
    if "layer" in lmiss and not mentions:
        owner = _layer_by_fields(spec, folded, layers)
        if owner:
            lp["layer"] = owner
            lmiss.remove("layer")
    params.update(lp)
    missing.extend(lmiss)
    layer_given = {k: v for k, v in given.items() if spec.param(k).kind == "layer"}
    params.update(layer_given)  # a chosen layer before its fields are read: they are read from it
    missing = [m for m in missing if m not in layer_given and getattr(m, "subject", None) not in layer_given]
    if lang == "zh":
        zh_head_is_kept(spec, params, folded, mentions)
    use_marks_the_second_layer(spec, params, folded, mentions)
    dated_gap, dated_note = order_dated_pair(spec, params, mentions)
    if dated_gap:
        missing.append(dated_gap)
    by_name = req.by_name
    main = by_name.get(params.get("layer") or params.get("polygons") or params.get("raster") or "")
    spans = req.mention_spans
    ftext, otext = req.masked_folded, req.masked_text  # for fields, values and conditions
    distances = fill.assign_distances([p for p in spec.params if p.kind == "distance"], folded, lang)

    def conds(layer):
        return except_scope(req.masked_folded, req.conditions_as_written(layer))

    for p in spec.params:
        if p.kind == "layer":
            continue
        owner = by_name.get(params.get(p.of_layer or "layer", "")) or main
        if p.name == "table_field":
            owner = by_name.get(params.get("table", ""))
        value = None
        if p.kind == "layers":
            names = [m.name for m in mentions]
            value = (
                names if len(names) >= 2 else ([la.name for la in layers] if len(layers) >= 2 and not names else None)
            )
        elif p.kind == "distance":
            value = distances.get(p.name)
        elif p.kind == "integer":
            value = integer_for(folded, p.name, lang)
        elif p.kind == "number":
            value = fill.number_for(folded, p.name, lang)
        elif p.kind == "numbers":
            value = fill.numbers_for(folded, p.name, lang)
        elif p.kind == "crs":
            value, problem = crs_for(text, main)
            if problem:
                missing.append(Gap("crs", problem))  # a source with no target, or two CRSs with no role: never a guess
        elif p.kind == "format":
            value = find_format(text, list(p.enum) if p.enum else None)
            asked = req.format_asked
            if value is None and asked and p.enum and asked.code not in p.enum:
                missing.append(Gap("format", f"format: {asked.word} ({_CANNOT_WRITE} {', '.join(p.enum)})"))
        elif p.kind == "url":
            value = find_url(text)
        elif p.kind == "bbox":
            value = find_bbox(text)
        elif p.kind == "boolean":
            value = fill.boolean_for(folded, p.name)
        elif p.kind == "enum" and p.name in ("unit", "units"):
            value, problem = unit_for(ftext, "area" if set(p.enum or ()) & set(AREA_UNIT_WORDS) else "length", p.enum)
            if problem:
                missing.append(Gap("unit", problem))  # a unit asked for but not readable: never a silent default
            value = None if value in ("m", "m2") else value  # the tools' own unit: no param needed
        elif p.kind == "enum":
            value = fill.enum_for(folded, p, owner, conds)
        elif p.kind == "expression":
            value = fill.expression_for(spec, otext, ftext, owner, conds, params, lang)
        elif p.kind in ("field", "fields") or p.name == "table_field":
            value = fill.field_for(spec, p, ftext, owner, conds, params)
        elif p.name == "tag":
            value = osm_tag(folded)
        elif p.kind in ("value", "string"):
            value = fill.string_for(spec, p, otext, ftext, owner, conds, list(by_name), text)
        if value is not None:
            params[p.name] = value
        elif p.required and p.name not in missing:
            missing.append(Gap.param(p.name))
    params.update(given)
    kinds = {spec.param(k).kind for k in given}  # a CRS whose role was unclear is settled by the chosen target
    missing = [m for m in missing if m not in given and getattr(m, "subject", None) not in given
               and not (getattr(m, "kind", None) == "crs" and "crs" in kinds)]  # fmt: skip
    key_note, key_gap = shared_key(spec, params, by_name, folded)
    if key_gap:
        missing.append(key_gap)
    _implied(spec, params, folded)
    per_feature_wording(spec, params, folded)
    drop_layer_named_fields(spec, params, folded, by_name)
    if "format" in params and "writes_format" in spec.traits and _TO_LAYER.search(folded) and params["format"] == "csv":
        params["format"] = "gpkg"  # 'convert the csv into a point layer': the csv is the source, a layer the target
    missing.extend(several_distances(spec, params, folded, lang))
    missing = [m for m in missing if m not in params] + _one_of_missing(spec, params) + _rank_by_text(params, by_name)
    if any(m.kind == "format" for m in missing):
        missing = [m for m in missing if m != "format"]  # the explained one says why
    fmt, chain_text = None, folded
    if not any(p.kind == "format" or p.name == "path" for p in spec.params):
        asked = req.format_asked
        if asked:  # the save clause is not a step of its own
            chain_text = mask(folded, [(_save_clause_start(folded, asked.start), asked.end)])
        if asked and asked.code in WRITABLE_FORMATS:
            fmt = asked.code
        elif asked:
            missing.append(Gap("format", f"format: {asked.word} ({_CANNOT_WRITE} {', '.join(WRITABLE_FORMATS)})"))
    out_path = None
    if not any(p.name == "path" for p in spec.params):  # a file named for the result, for every tool that has
        out_path, problem = output_path_for(text, layers)  # no path of its own (save_result too: 'in die Datei x')
        if problem:
            missing.append(Gap("output_path", problem))
        elif out_path:
            ext = _EXT_FORMAT.get(Path(out_path).suffix.lower().lstrip("."))
            fmt = fmt or (params.get("format") if isinstance(params.get("format"), str) else None)
            if fmt and ext and fmt != ext:
                ext_text = f"format: {fmt} asked, but the file name ends in .{Path(out_path).suffix[1:]}"
                missing.append(Gap("format", ext_text))
            fmt = fmt or ext
    if "writes_format" in spec.traits:
        asked = req.format_asked
        rest = mask(folded, [(asked.start, asked.end)]) if asked else folded
        if _OPERATION.search(mask(rest, spans)):
            missing.append(NEXT_STEP)  # 'dissolve the tracts and save the result as GeoJSON': save is the last step
    if is_chain(chain_text, spec.name, [k for k, v in params.items() if v is not None]):
        missing.append(NEXT_STEP)  # one tool cannot serve a chain: tier 1 plans the steps
    listed = [(g[0].start, g[-1].end) for g in distance_series(folded, lang) if len(g) >= 2 and "rings" not in params]
    extra, notes = unconsumed(spec, params, req, ftext, listed if spec.params else ())
    notes = notes + ([key_note] if key_note else []) + ([dated_note] if dated_note else [])
    notes += _dictionary_notes(req, params)
    missing.extend(m for m in extra if m not in missing)
    if not missing:  # the whitelist: every word must be claimed by the plan's readings or be a filler
        inferred = KEY_PAIRS.get(spec.name, ()) if key_note or given.keys() & set(KEY_PAIRS.get(spec.name, ())) else ()
        inferred = (*inferred, *given)  # a chosen field is the user's word for it, as a key found in both layers is
        left = unexplained(spec, params, req, req.format_asked if fmt else None, out_path, inferred)
        if left:
            missing.append(Gap.words(left[:8]))
    order = [p.name for p in spec.params]
    params = {k: params[k] for k in sorted(params, key=order.index)}
    missing = sorted(set(missing), key=lambda m: order.index(m) if m in order else len(order))
    return Plan(
        tool=spec.name,
        params=params,
        complete=not missing,
        missing=missing,
        notes=notes,
        output_format=fmt,
        output_path=out_path,
    )


_EXT_FORMAT = {"gpkg": "gpkg", "geojson": "geojson", "json": "geojson", "shp": "shp", "csv": "csv",
               "parquet": "parquet", "fgb": "fgb", "kml": "kml"}  # fmt: skip
_SAVE_BEFORE = re.compile(
    r"(?:save|saved|write|written|export|store|output|put|as|to|into|speicher\w*|schreib\w*|exportier\w*|als|nach|unter|"
    r"in|保存|导出|输出|写入|存为|存到|另存为|为|到)\W*(?:(?:it|them|the result|that|es|sie|das ergebnis|结果)\W+)?"
    r"(?:(?:as|to|into|in|als|nach|unter)\W+)?(?:a\s+|die\s+|eine\s+)?(?:new\s+|neue\s+)?(?:file\s+|datei\s+)?"
    r"(?:(?:called|named|namens|mit dem namen)\s+)?$"
)


def output_path_for(text: str, layers) -> tuple[str | None, str | None]:
    """The file a request asks its result written to ('save to results/out.csv', '导出为 out.geojson'): a path
    that is no input, after a save word. Two such paths are a question, not a guess."""
    inputs = {Path(la.path or "").name.lower() for la in layers} | {la.name.lower() for la in layers}
    input_paths = {str(la.path).lower() for la in layers if la.path}
    found = []
    for m in PATH_RE.finditer(text):
        path = m.group()
        if path.lower().startswith("http") or Path(path).suffix.lower().lstrip(".") not in _EXT_FORMAT:
            continue
        if not _SAVE_BEFORE.search(fold(text[max(0, m.start() - 40) : m.start()])):
            continue
        # after a save word a path is the output, even named like an input ('save the roads to out/roads.shp'),
        # unless it is an input itself, written in full or as a bare file name
        if path.lower() in input_paths or ("/" not in path and "\\" not in path and Path(path).name.lower() in inputs):
            continue
        found.append(path)
    if len(set(found)) > 1:
        return None, "output path: several files named (" + ", ".join(dict.fromkeys(found)) + ")"
    return (found[0] if found else None), None


# An operation named besides saving: the save is then the last step of a chain, never the whole request.
_OPERATION = re.compile(
    r"(?<![a-z])(?:buffer|clip|dissolv|merg|intersect|union|erase|select|filter|reproject|project|join|simplif|"
    r"centroid|count|calculat|comput|sort|extract|aggregat|cluster|smooth|split|overlay|keep only|"
    r"puffer|verschneid|schneid|aufl[oö]s|vereinig|filter|w[aä]hl|projizier|zusammenf[uü]hr|berechn|z[aä]hl|"
    r"sortier|extrahier)\w*|缓冲|裁剪|融合|合并|相交|筛选|选出|选择|投影|连接|关联|计算|统计|提取|排序|简化|擦除|"
    r"聚类|平滑|分割"
)
_CANNOT_WRITE = "GeoClerk cannot write this format; it writes"
# The words that lead to an asked format: ', and save it', 'und speichere sie', '并导出' (blanked with the format,
# so 'buffer … and export as GeoJSON' is one buffer written as GeoJSON, not a chain of two tools).
_SAVE_LEAD = re.compile(
    r"(?:(?:\s*[,;，]\s*|\s+)(?:and\s+|und\s+|then\s+|dann\s+)?|并|然后|再)?"
    r"(?:(?:save|export|write|store|output|give|return|speicher|exportier|导出|保存|输出|另存)\w*[^.;!?]{0,40}?)?$"
)


def operation_without_save(text: str) -> str | None:
    """The request with its save clause blanked ('缓冲500米并导出为GeoJSON' → '缓冲500米'), when an operation remains
    to be chosen by it; None when the request is only a save ('save the hospitals as a shapefile')."""
    folded = fold(text)
    if len(text) != len(folded):
        return None
    asked = output_format(folded)
    if asked is not None:
        start, end = _save_clause_start(folded, asked.start), asked.end
    else:  # 'speichere das Ergebnis als ergebnis/schulen.geojson': a save clause named by its file
        named = [m for m in PATH_RE.finditer(folded) if _SAVE_BEFORE.search(folded[max(0, m.start() - 40) : m.start()])]
        if not named:
            return None
        start, end = _save_clause_start(folded, named[-1].start()), named[-1].end()
    if not _OPERATION.search(folded[:start] + folded[end:]):
        return None
    return text[:start] + " " * (end - start) + text[end:]


def _save_clause_start(folded: str, start: int) -> int:
    m = _SAVE_LEAD.search(folded[:start])
    return m.start() if m else start


_TO_LAYER = re.compile(
    r"(?:into|to|as)\s+(?:an?\s+)?(?:point|points|spatial|vector|geometry|gis)\s+(?:layer|data|file)"
)
_RING_WORD = re.compile(r"ring|band|zone|multi|ringe|环|圈|多环")


def several_distances(spec, params: dict, folded: str, lang: str) -> list[str]:
    """Lists of distances and signs: equal steps with a ring param → rings; other lists → not understood."""
    dist = [p for p in spec.params if p.kind == "distance"]
    if not dist:
        return []
    missing = []
    groups = distance_series(folded, lang)
    multi = [g for g in groups if len(g) >= 2]
    names = {p.name for p in spec.params}
    if multi and len(dist) == 1:
        values = [d.metres for d in multi[0]]
        step = equal_steps(values)
        if step and "rings" in names and (len(values) >= 3 or _RING_WORD.search(folded)):
            params[dist[0].name] = as_number(round(step, 3))
            params["rings"] = len(values)
        else:
            params.pop(dist[0].name, None)
            missing.append(
                Gap(
                    "distance",
                    "distance: several distances (" + ", ".join(f"{as_number(round(v, 3))} m" for v in values) + ")",
                )
            )
    name = dist[0].name
    if name in params and isinstance(params[name], (int, float)) and len(groups) == 1 and not multi:
        negative = signed(folded, groups[0][0]) < 0 or INWARD.search(folded)
        if negative and "rings" in names:  # a buffer: negative means inward
            params[name] = -abs(params[name])
        elif negative:
            missing.append(Gap("distance", f"{name}: negative distance", name))
    return missing


def shared_key(spec, params: dict, by_name: dict, folded: str) -> tuple[str | None, Gap | None]:
    """The key fields of an attribute join (traits.KEY_PAIRS) the request leaves out: the same field on the other
    side when one is named, else the one field name both inputs have. Several shared names and none named is a
    question (the gap says which), never a guess. Returns (a note for the plan, a gap)."""
    pair = KEY_PAIRS.get(spec.name)
    if not pair:
        return None, None
    owners = [spec.param(k).of_layer or ("table" if k == pair[1] else "layer") for k in pair]
    sides = [by_name.get(params.get(owner, "")) for owner in owners]
    if any(s is None for s in sides) or all(k in params for k in pair):
        return None, None
    names = [{f.lower(): f for f in s.field_names()} for s in sides]
    for key, side in zip(pair, sides):  # '将预算连接到城区': the word names the table 预算, not its field 预算
        said = str(params.get(key, "")).lower()
        if said == side.name.lower() and folded.count(said) <= 1:
            del params[key]
    named = [k for k in pair if k in params]
    if named:
        other = pair[1 - pair.index(named[0])]
        found = names[pair.index(other)].get(str(params[named[0]]).lower())
        if found:
            params[other] = found
        return None, None
    common = [names[0][k] for k in names[0] if k in names[1]]
    if len(common) == 1:
        params[pair[0]], params[pair[1]] = common[0], names[1][common[0].lower()]
        return f"key: '{common[0]}', the one field both '{sides[0].name}' and '{sides[1].name}' have", None
    if common:
        text = f"key field: '{sides[0].name}' and '{sides[1].name}' share several fields ({', '.join(common[:6])})"
        return None, Gap("field", text, pair[0])
    return None, None


def _layer_by_fields(spec, folded: str, layers) -> str | None:
    """No layer named, but the fields named belong to exactly one layer: 'median income by land use'."""
    if not any(p.kind in ("field", "fields", "expression") for p in spec.params):
        return None
    owners = [
        la.name for la in layers if la.kind != "raster" and any(m.score >= 0.75 for m in find_fields(folded, la))
    ]
    return owners[0] if len(owners) == 1 else None


def _implied(spec, params: dict, folded: str) -> None:
    """Values a request implies without naming them: a cluster count means k-means, a radius means DBSCAN."""
    names = {p.name for p in spec.params}
    if "method" in names and "method" not in params:
        enum = spec.param("method").enum or ()
        if "clusters" in params and "kmeans" in enum:
            params["method"] = "kmeans"
        elif "eps" in params and "dbscan" in enum:
            params["method"] = "dbscan"
    if params.get("agg") == "count" and "field" in params and "by" in params:
        params.pop("field")  # a count per group needs no value field
    if {"field", "fields", "agg"} <= names and "field" in params and not params.get("agg"):
        # 'merge the segments that share the same RD_NUMBER': a field with no statistic to compute is the grouping
        params["fields"] = list(dict.fromkeys([*(params.get("fields") or []), params.pop("field")]))
    if {"top_n", "value"} <= names and not params.keys() & {"top_n", "value"} and SUPERLATIVE.search(folded):
        params["top_n"] = 1  # 'which park is the largest' asks for one
    if "ascending" in names and "top_n" in params and "ascending" not in params:
        if re.search(r"top|largest|highest|biggest|most|größte|grosste|höchste|hochste|最大|最高|最多|前", folded):
            params["ascending"] = False


def _rank_by_text(params: dict, by_name: dict) -> list[Gap]:
    """A top N ranks by a number or a date. 'Which landuse has the most districts?' sorted the landuse names and
    kept the last one ('residential') as if it were the answer; the question is a count per landuse, then its top."""
    if "top_n" not in params or not isinstance(params.get("field"), str):
        return []
    layer = by_name.get(params.get("layer"))
    kind = next((f.type for f in getattr(layer, "fields", ()) if f.name == params["field"]), None)
    if kind in ("string", "boolean"):
        top = params["top_n"]
        return [Gap("field", f"field: {params['field']} holds text; a top {top} ranks by a number or a date")]
    return []


def _one_of_missing(spec, params: dict) -> list[str]:
    """Tools that need one of several optional params (select rows: a value or a count)."""
    one_of = ONE_OF.get(spec.name)
    if one_of and not any(k in params for k in one_of):
        return [Gap.param(one_of[0])]
    for given, needed in NEEDS_WITH.get(spec.name, {}).items():
        if given in params and needed not in params:
            return [Gap.param(needed)]  # the top N by what? ('the highest daily riders' with no riders field)
    field_param = any(q.name == "field" for q in spec.params)
    if params.get("agg") not in (None, "count") and "field" not in params and field_param:
        return [Gap.param("field")]  # a sum/mean per group of no field ('床位总数' with no beds field read) cannot run
    return []


def _dictionary_notes(req, params: dict) -> list[str]:
    """'Sichtungen → sighting → sightings': a layer of the plan named through a dictionary (reading/dictionary.py)."""
    used = {x for v in params.values() for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)}
    return list(dict.fromkeys(f"{m.note} (dictionary)" for m in req.mentions if m.note and m.name in used))
