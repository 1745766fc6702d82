"""Consumption tracking: a tier-0 plan is complete only when every salient cue of the request is used.

Salient cues are numbers, feature names and category values, field names, aggregation words and output units.
Each must be consumed by a filled parameter (or be part of something already read: a layer name, a path, a CRS);
what is left names the part of the request one tool call would silently drop.
"""

from __future__ import annotations

import difflib
import re

from ..function_lib.traits import GIVES_STATISTICS
from ..reading.conditions import other_identifier
from ..reading.crs import find_crs
from ..reading.quantities import output_units
from ..reading.schema_match import find_fields, find_values
from ..reading.text import find_numbers
from ..reading.words import GROUP_CUE
from .result import Gap

AGG_WORDS = [
    ("sum", r"(?<![a-z_])(?:sum(?:s|med)?|summe\w*|summier\w*|aufsummier\w*)(?![a-z])|总和|求和|合计|加总"),
    ("total", r"(?<![a-z_])(?:total|gesamt\w*|insgesamt)(?![a-z_])|总(?!体)"),
    ("mean", r"(?<![a-z_])(?:average|mean|durchschnitt\w*|mittelwert\w*)(?![a-z_])|平均"),
    ("median", r"(?<![a-z_])median(?![a-z_])|中位数"),
    ("maximum", r"(?<![a-z_])(?:maximum|max)(?![a-z_])(?!\s*(?:distance|abstand|radius|search|of\s+\d|\d|\())|最大值"),
    (
        "minimum",
        r"(?<![a-z_-])(?:minimum|min)(?![a-z_])(?![\s-]*(?:distance|abstand|size|samples|points|cluster|bounding|"
        r"area|rect|box|enclosing|convex|circle|\d))|最小值",
    ),
]
# The totals a tool with the reports_totals trait gives itself.
_TOTALS = {"total", "sum"}

# A feature named like an identifier: 'Hospital 3', 'T05', 'Zone B-12', and a lone capital letter after a word
# ('irrigation zone A', 'Feld C'): a name, not the article 'a' (English 'I' is the pronoun).
_IDENT = re.compile(
    r"(?<![\w'\"])(?:[A-Z][a-z]+\s+\d{1,4}(?![\d.,]*\s*(?:m|km|ft|mi|%)\b)|[A-Z]{1,3}-?\d{1,5}"
    r"|(?<=[a-z] )[A-HJ-Z](?![\w'-]))(?![\w.])"
)
# A Title-case name between 'the' and a layer noun names one feature of it: 'the Delta river', 'the Old Town district'.
_NAMED_FEATURE = re.compile(r"(?<![\w])the\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,2})(\s+)(?=[a-z])")
_QUOTED = re.compile(r"'([^']{2,40})'|\"([^\"]{2,40})\"|“([^”]{2,40})”|„([^“”]{2,40})[“”]")
_GROUP_WORD = re.compile(
    r"(?<![a-z])(?:by|per|for each|je|pro)\s+(?:the\s+|each\s+|their\s+|ihre[mn]?\s+)?([a-z_][a-z0-9_]{2,})"
)
_ZH_GROUP = re.compile(r"按(?:照)?\s*([\u4e00-\u9fffa-z_0-9]{1,12}?)\s*字段")
_COND_WORD = re.compile(
    r"(?<![a-z])(?:where|whose|wo|deren|dessen)\s+(?:the\s+)?([a-z_][a-z0-9_]{2,})\s*"
    r"(?:>|<|=|!|is\b|are\b|greater|more|less|over|under|above|below|at\b|equals|ist\b|grosser|kleiner|uber|unter)"
)
_ID_FIELD = re.compile(r"[_\d]|^[A-Z]{2,}$")
_FIELD_CUE = re.compile(
    r"(?:most|least|highest|lowest|largest|smallest|fewest|biggest|by|per|where|whose|sorted by|field|column|"
    r"meisten|wenigsten|nach|wo|字段|最多|最少|最高|最低)\s+(?:the\s+|das\s+|die\s+|der\s+)?$"
)
_NOT_FIELDS = {
    "the", "a", "an", "all", "each", "every", "one", "type", "kind", "category", "class", "meter", "metre", "meters",
    "metres", "km", "feet", "miles", "distance", "area", "length", "size", "hand", "name", "default", "value",
    "group", "groups", "layer", "field", "column", "attribute", "them", "it", "themselves", "itself", "location",
    "nearest", "closest", "count", "number", "their", "its", "width", "radius", "centroid", "using",
    "epsg", "typ", "art", "feld", "spalte", "bezirk", "ebene", "polygon", "polygons", "points", "lines",
    "row", "rows", "expression", "feature", "features", "predicate", "attributes",
}  # fmt: skip


_COORD_PARAMS = {"x1", "y1", "x2", "y2", "x_field", "y_field", "table_field"}
_COMMON = {"no", "yes", "none", "true", "false", "on", "off", "all", "other", "unknown", "n/a", "na", "null", "the"}


_FIELD_CACHE: dict = {}


def _fields(ftext: str, la):
    """find_fields, memoised for one request (the checks below ask for the same layer several times)."""
    key = (ftext, id(la), la.name)
    if key not in _FIELD_CACHE:
        if len(_FIELD_CACHE) > 64:
            _FIELD_CACHE.clear()
        _FIELD_CACHE[key] = find_fields(ftext, la)
    return _FIELD_CACHE[key]


def _samples(layers):
    return [str(v) for la in layers for f in la.fields for v in (f.samples or []) if isinstance(v, str)]


def _said(word: str, joined: str) -> bool:
    """Is `word` among the plan's strings? A short one as a whole word: 'a' is in every plan's text."""
    if len(word) > 2:
        return word in joined
    return re.search(r"(?<![\w])" + re.escape(word) + r"(?![\w])", joined) is not None


def _sample_prefix(word: str, layers) -> bool:
    w = word.lower()
    return any(v.lower().startswith(w + " ") for v in _samples(layers))


def _is_sample(q: str, layers) -> bool:
    q = q.lower()
    return any(v.lower() == q for v in _samples(layers))


def _consumed_strings(params: dict) -> list[str]:
    out = []
    for v in params.values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, str):
                out.append(x)
    return out


def _consumed_numbers(params: dict) -> list[float]:
    out: list[float] = []
    for v in params.values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, bool):
                continue
            if isinstance(x, (int, float)):
                out += [float(x), abs(float(x))]
            elif isinstance(x, str):
                out += [float(n) for n in re.findall(r"\d+(?:\.\d+)?", x)]
    return out


def _close_to(value: float, pool: list[float]) -> bool:
    """The same number, allowing for rounding; whole numbers exactly (2025 is not the 2024 of 'image_2024')."""
    whole = float(value).is_integer()
    return any(value == p if whole and float(p).is_integer() else abs(value - p) <= 1e-3 * max(1.0, abs(p))
               for p in pool)  # fmt: skip


def layer_named_fields(la, folded: str) -> set[str]:
    from .explain import layer_named_fields as named

    return named(la, folded)


def unconsumed(spec, params: dict, req, ftext: str, skip=()):
    """(missing, notes): the salient cues no filled parameter uses, and field words read by meaning.

    `req` is the Request (reading/request.py), `ftext` its folded form with layer mentions blanked, `skip` spans
    already reported (a list of distances)."""
    text, folded, layers, lang, distances = req.text, req.folded, req.layers, req.lang, req.distances
    missing: list[Gap] = []
    notes: list[str] = []
    by_name = {la.name: la for la in layers}
    strings = _consumed_strings(params)
    joined = " ".join(strings).lower()
    plan_layers = [by_name[s] for s in strings if s in by_name and by_name[s].kind != "raster"]
    names = {p.name for p in spec.params}
    taken: list[tuple[int, int]] = list(skip)
    crs_read = any(p.kind == "crs" and p.name in params for p in spec.params)  # its numbers and letters are the CRS

    # Feature names and category values: identifiers, quoted strings, sample values of the plan's layers.
    if len(text) == len(ftext):
        for m in _IDENT.finditer(text) if not crs_read else ():
            if ftext[m.start() : m.end()].strip() == "" or re.match(r"(?i)epsg|utm|zone|esri", m.group()):
                continue
            if find_crs(m.group()):
                continue  # 'WGS84', 'RGF93': a CRS, not a feature
            if " " in m.group() and not _sample_prefix(m.group().split()[0], layers):
                continue  # 'Create 50', 'Abstand 800': a capitalised word before a number, not a feature name
            if _said(m.group().lower(), joined) or any(
                m.group().lower() == f.name.lower() for la in layers for f in la.fields
            ):
                continue
            missing.append(Gap("selection", f"selection: {m.group()}", m.group()))
            taken.append((m.start(), m.end()))
        for m in _NAMED_FEATURE.finditer(text) if not crs_read else ():  # 'how long is the Delta river'
            after = m.end(1) + len(m.group(2))
            if ftext[m.start(1) : m.end(1)].strip() == "" or ftext[after : after + 1].strip():
                continue  # the name is the layer's own, or no layer is named right after it
            if m.group(1).lower() in joined or find_crs(m.group(1)):
                continue
            missing.append(Gap("selection", f"selection: {m.group(1)}", m.group(1)))
            taken.append((m.start(1), m.end(1)))
        for m in _QUOTED.finditer(text):
            q = next(g for g in m.groups() if g)
            inner = ftext[m.start() + 1 : m.end() - 1]
            if (
                not inner.strip()
                or inner.strip() != inner.strip().strip("'\"“”„")
                or q.lower() in joined
                or q.lower() in {n.lower() for n in by_name}
            ):
                continue
            if any(q.lower() == f.name.lower() for la in layers for f in la.fields):
                continue
            if not re.search(r"\d", q) and not _is_sample(q, layers):
                continue  # a quoted algorithm name ('Add geometry attributes'), not a feature
            if not any(s <= m.start() < e for s, e in taken):
                missing.append(Gap("selection", f"selection: {q}", q))
                taken.append((m.start(), m.end()))
    for la in plan_layers:
        for v in find_values(folded, la):
            if not ftext[v.start : v.end].strip():
                continue  # the value is the word that named the layer ('the towns')
            if any(fold_word(str(v.value)).rstrip("s") in fold_word(n) for n in by_name):
                continue
            if (
                str(v.value).lower() in _COMMON
                or str(v.value).lower() in joined
                or any(s <= v.start < e for s, e in taken)
            ):
                continue
            missing.append(Gap("selection", f"selection: {v.value}", v.value))
            taken.append((v.start, v.end))

    # Numbers: each must be a filled value (a distance counts in metres).
    pool = _consumed_numbers(params)
    if isinstance(params.get("rings"), int) and isinstance(params.get("distance"), (int, float)):
        pool += [abs(params["distance"]) * k for k in range(1, params["rings"] + 1)]  # '200, 400 and 600 m'
    dist_spans = [(d.start, d.end, d.metres) for d in distances]
    for n in find_numbers(ftext, lang, words_too=False) if not crs_read else ():
        if any(s <= n.start < e for s, e in taken) or not re.search(r"\d", ftext[n.start : n.end]):
            continue
        d = next((d for d in dist_spans if d[0] <= n.start < d[1]), None)
        if _close_to(n.value, pool) or (d is not None and _close_to(d[2], pool)):
            continue
        before = ftext[max(0, n.start - 14) : n.start]
        if re.search(r"(?:epsg|srid|crs|zone|utm|esri|band|@)\W*$", before) and "crs" in names | {"raster"}:
            continue
        if re.search(r"(?:epsg|srid|crs|zone|utm|esri)\W*$", before) and any(
            "EPSG" in s or "ESRI" in s for s in strings
        ):
            continue
        missing.append(Gap("number", f"number: {ftext[n.start : n.end].strip()}"))
    # A distance said in words ('over a kilometre long', 'half a mile', 'fünfhundert Meter') holds no digit, so the
    # loop above never sees it; it must be a filled value too ('roads over a kilometre long' measured every road).
    for s, e, metres in dist_spans if not crs_read else ():
        if any(a <= s < b for a, b in taken) or re.search(r"\d", ftext[s:e]) or _close_to(metres, pool):
            continue
        missing.append(Gap("number", f"number: {ftext[s:e].strip()}"))

    # Fields named but used by no parameter (the plan's layers only), and fields read by meaning (noted).
    field_tool = any(p.kind in ("field", "fields", "expression") or p.name == "by" for p in spec.params)
    empty_field_param = any(
        (p.kind in ("field", "fields") or p.name == "by") and p.name not in params and p.name not in _COORD_PARAMS
        for p in spec.params
        if not (p.name == "field" and params.get("agg") == "count")  # a count needs no value field
    )
    groups = any(p.kind == "fields" or p.name == "by" for p in spec.params)
    for la in plan_layers:
        own = layer_named_fields(la, folded)  # district_id for '区' or 'region': the word names the layer itself
        for fm in _fields(ftext, la):
            word = ftext[fm.start : fm.end]
            if fm.name in own and fm.score < 1.0:
                continue
            if not field_tool and not (
                _ID_FIELD.search(fm.name) or _FIELD_CUE.search(ftext[max(0, fm.start - 16) : fm.start])
            ):
                continue  # a tool with no field: only a field named as such ('POP2020', 'the most beds') is dropped
            written = other_identifier(text, ftext, fm) if fm.score < 1.0 else None  # 'POPULATION', has POP2020
            if written and written.lower() not in joined:  # (not the new field's own name 'pop_k')
                if f"field: {written}" not in " ".join(missing):
                    missing.append(Gap("field", f"field: {written} (not a field of {la.name}; {fm.name}?)"))
                continue
            if fm.name in strings or f'"{fm.name}"' in " ".join(strings) or fm.name.lower() in joined:
                if fm.score < 1.0 and fold_word(word) != fold_word(fm.name):
                    notes.append(fm.note or f"'{word}' read as field {fm.name} of {la.name}")
                continue
            if any(s <= fm.start < e for s, e in taken):
                continue
            if fm.score >= 1.0:
                missing.append(Gap("field", f"field: {fm.name}"))
            elif fm.score >= 0.75 and empty_field_param:  # 'histogram of measured value' with no field read
                missing.append(Gap("field", f"field: {fm.name} ('{word.strip()}')"))
            elif not groups and re.search(GROUP_CUE + r"\s*$", ftext[max(0, fm.start - 12) : fm.start]):
                missing.append(
                    Gap("field", f"field: {fm.name} ('{word.strip()}')")
                )  # 'mean … pro Schultyp' with no group param

    # A field word after 'by'/'per' or in a condition that no layer has.
    if plan_layers and any(p.kind in ("field", "fields", "expression") for p in spec.params):
        fields = [f.name for la in plan_layers for f in la.fields]
        lower = {f.lower() for f in fields} | {f.lower().replace("_", " ") for f in fields}
        group = [p.name for p in spec.params if p.kind == "fields" or p.name == "by"]
        cond = [p.name for p in spec.params if p.kind == "expression"]
        group_empty = bool(group) and not any(n in params for n in group)
        cond_empty = bool(cond) and not any(n in params for n in cond)
        pats = ((_GROUP_WORD, group_empty), (_ZH_GROUP, group_empty), (_COND_WORD, cond_empty))
        for pat in [pat for pat, empty in pats if empty]:
            for m in pat.finditer(ftext):
                w = m.group(1)
                if w in _NOT_FIELDS or w in lower or w in joined or ftext[m.start(1) : m.end(1)].strip() == "":
                    continue
                if any(fm.start <= m.start(1) < fm.end for la in plan_layers for fm in _fields(ftext, la)):
                    continue
                if any(w.rstrip("s") in fold_word(n) for n in by_name):
                    continue
                guess = difflib.get_close_matches(w, fields, n=1, cutoff=0.5)
                missing.append(
                    Gap("field", f"field: {w} (no such field" + (f"; did you mean {guess[0]}?)" if guess else ")"))
                )

    # Aggregation words the tool cannot express.
    # A statistic tool's own words are its vocabulary (traits: statistic), not a dropped step.
    # A statistic tool with a fixed set (traits.GIVES_STATISTICS) owns only the words of that set.
    gives = GIVES_STATISTICS.get(spec.name) if "statistic" in spec.traits else None
    chooses = names & {"agg", "stat", "stats", "statistic", "statistics"}
    if ("statistic" not in spec.traits or gives is not None) and not chooses:
        spans = [  # 'the mean of median_income': a statistic word inside a field the plan uses is the field's
            (fm.start, fm.end) for la in plan_layers for fm in _fields(ftext, la) if fm.score >= 0.7
            and fm.name.lower() in joined
        ]  # fmt: skip
        for label, pat in AGG_WORDS:
            if label in _TOTALS and "reports_totals" in spec.traits or (gives is not None and label in gives):
                continue
            hits = [m for m in re.finditer(pat, ftext) if not any(s <= m.start() < e for s, e in spans + taken)]
            hits = [
                m
                for m in hits
                if m.group() not in joined and not _names_used_field(ftext, m.end(), plan_layers, strings)
            ]
            if hits:
                missing.append(
                    Gap("aggregation", f"aggregation: {label}" + _of_field(ftext, hits[0].end(), plan_layers))
                )
                break

    # Output units the tool cannot honour ('distance matrix … in miles', 'how many square miles is each district' is
    # no count). A unit param reads its own unit (plan.py); metres are the measuring tools' own unit; a CRS or a
    # distance read explains unit words ('UTM in metres', 'distance in feet: 500').
    distance_read = any(p.kind == "distance" and p.name in params for p in spec.params)
    if not names & {"unit", "units"} and not crs_read and not distance_read:
        native = ("m", "m2")  # metres are the unit of every tool
        fields = {f.name.lower() for la in plan_layers for f in la.fields}
        for u in output_units(ftext, lang):
            if u.code not in native and u.word not in fields and not re.match(r"\s*[:=]?\s*\d", ftext[u.end :]):
                missing.append(Gap("unit", f"unit: {u.word}"))
    return list(dict.fromkeys(missing)), list(dict.fromkeys(notes))


def _names_used_field(ftext: str, end: int, plan_layers, strings) -> bool:
    """'median income' where MED_INC is the plan's field: the word is part of the field's name, not a statistic."""
    used = " ".join(strings)
    return any(fm.name in used for la in plan_layers for fm in _fields(ftext, la) if end <= fm.start <= end + 2)


def _of_field(ftext: str, end: int, plan_layers) -> str:
    """' of POP2020' when a field follows the aggregation word."""
    after = [fm for la in plan_layers for fm in _fields(ftext, la) if end <= fm.start <= end + 20]
    return f" of {after[0].name}" if after else ""


def fold_word(word: str) -> str:
    return re.sub(r"[\s_]+", "", word.lower())
