"""Every word explained: a tier-0 plan runs only when each word of the request is claimed by what the plan uses.

The salient-cue checks of consume.py look for what a plan might drop; this is the whitelist behind them. Each
reader's reading claims the words it used (a layer the plan runs on, a number, a field, a CRS and its words, a
filter with its comparison words, an output format with its save words, the tool's own cue words); quantifiers
('each', 'per') are claimed only when the tool gives one output per feature or per group; negations only when the
plan holds the negation. Closed-class words come from the lexicons (languages/<code>/lexicon.py). What no one
claims is returned, so the plan is incomplete and the user is told exactly which words were not placed.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..function_lib.traits import AGGREGATING_PARAMS, one_per_feature, one_per_group
from ..languages import lexicon, words_of
from ..reading import references
from ..reading.conditions import exception_marks
from ..reading.crs import crs_name, crs_spans
from ..reading.quantities import find_paths, output_units
from ..reading.schema_match import (
    CONCEPTS,
    KIND_NAMES,
    KIND_WORDS,
    THEMES,
    _field_concepts,
    _text_words,
    _theme_mentions,
    find_fields,
    find_values,
    forms,
    layer_theme,
    records_kinds,
    theme_keys,
    theme_words,
)
from ..reading.text import singular
from ..reading.tool_words import TOOL_WORDS
from ..reading.words import ENUM_WORDS

_LATIN = re.compile(r"[a-z0-9_]+(?:'[a-z]+)?")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")
_NEGATED_EXPR = re.compile(r"(?i)\bnot\b|!=|<>|\bis\s+null\b")
_OUTSIDE_WORDS = {"not", "outside", "beyond", "farther", "further", "away", "more", "than", "at", "least", "no",
                  "ausserhalb", "nicht", "weiter", "entfernt", "mehr", "als", "mindestens"}  # fmt: skip
_NEGATED_COMPARISON = (
    r"\b(?:not|nicht|no)\s+(?:greater|more|less|fewer|higher|lower|bigger|smaller|larger|over|under|above|below|"
    r"equal|grosser|kleiner|mehr|weniger|uber|unter|gleich|hoher|niedriger)\b|不(?=大于|小于|超过|少于|等于|高于|低于|多于)"
)
# One-character heads Chinese uses for a layer already named ('…的区', '…的镇').
ZH_HEADS = {
    "district": ["区"],
    "city": ["镇", "乡", "市"],
    "road": ["路"],
    "river": ["河"],
    "school": ["校"],
    "well": ["井"],
    "hospital": ["诊所"],
    "house": ["房", "屋"],
    "parcel": ["地", "田"],
}
_NEGATED_MERGE = (
    r"\b(?:not|don't|do not|never|without|nicht|ohne|keine?)\s+(?:\w+\s+){0,2}?(?:dissolv\w*|merg\w*|combin\w*|"
    r"union\w*|zusammen\w*|auflos\w*|verschmelz\w*|vereinig\w*)|(?:keep|halte)\s+(?:them|sie)\s+(?:apart|getrennt)|"
    r"(?:不要|不|别|无需|不用)(?:合并|融合|合成|溶解)"
)
_ZH_OUTSIDE = ("不在", "以外", "之外", "外", "超过", "不")


def _variants(word: str) -> set[str]:
    """The word and its plain forms: plural, -ing, -ed, possessive ('schools', 'buffering', 'school's')."""
    w = word.removesuffix("'s")
    out = {word, w, singular(w)}
    for suffix in ("ing", "ed", "es", "s", "d", "e", "en", "n"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            out.add(w[: -len(suffix)])
            out.add(w[: -len(suffix)] + "e")
    return out


_ID_LIKE = re.compile(r"(?i)(?:^|_)(?:id|fid|gid|code|no|nr|num)$|(?-i:(?<=[a-z])(?:ID|Id|No|Nr|Num|Code)$)")


def _sample_values(la) -> list:
    return [v for f in la.fields for v in (f.samples or []) if isinstance(v, str)]


def layer_named_fields(la, folded: str) -> set[str]:
    """Fields of `la` that only the layer's own name points to (not written out in the request)."""
    written = {fm.name for fm in find_fields(folded, la) if fm.score >= 1.0}
    return _own_fields(la) - written


def _own_fields(la) -> set[str]:
    """Identifier fields of `la`, and fields whose meaning is the layer's own theme (district_id of the districts)."""
    theme_words = set(THEMES.get(layer_theme(la.name) or "", "").split())
    return {f.name for f in la.fields if _names_the_layer(f.name, theme_words)}


def _names_the_layer(field: str, theme_words: set[str]) -> bool:
    """An identifier field, or one whose meaning is the layer's own theme (district_id of the districts)."""
    if _ID_LIKE.search(field):
        return True
    return any(CONCEPTS[i][0] & theme_words for i in _field_concepts(field))


_CAPITALISED = re.compile(r"(?<![A-Za-z0-9_'äöüß])[A-ZÄÖÜ][A-Za-z0-9_'äöüß-]*")


def proper_name_words(text: str) -> set[str]:
    """The folded words of runs of two or more capitalised words inside a sentence ('Alder Run', 'Teileinzugsgebiet
    Mill Creek'): names of places and things, which a typo reading must not turn into other words. A run that opens
    the sentence counts from its second word ('Pufer Bushaltestelen 200m': German capitalises its nouns, and every
    sentence its first word)."""
    from ..reading.text import fold

    out: set[str] = set()
    run: list[re.Match] = []
    for m in [*_CAPITALISED.finditer(text), None]:
        if m is not None and run and text[run[-1].end() : m.start()] == " ":
            run.append(m)
            continue
        before = text[: run[0].start()] if run else ""
        if run and (not before.strip(" ,;:-–") or re.search(r"[.!?:;]\s*$", before)):
            run = run[1:]  # the sentence's first word is capitalised anyway
        if len(run) >= 2:
            out |= {w for r in run for w in _LATIN.findall(fold(r.group()))}
        run = [m] if m is not None else []
    return out


def _typo_of(word: str, allowed: list[str]) -> bool:
    """A misspelling of an allowed word: same first letter, one or two letters off (difflib ratio >= 0.8)."""
    import difflib

    near = [w for w in allowed if w[0] == word[0] and abs(len(w) - len(word)) <= 2]
    return bool(difflib.get_close_matches(word, near, n=1, cutoff=0.8))


def _phrase_words(phrases) -> set[str]:
    out: set[str] = set()
    for phrase in phrases:
        out |= set(_LATIN.findall(phrase.lower()))
    return out


def _cjk_phrases(phrases) -> set[str]:
    out: set[str] = set()
    for phrase in phrases:
        out |= set(_CJK_RUN.findall(phrase))
    return out


def tool_cue_words(spec) -> tuple[set[str], set[str]]:
    """(latin words, Chinese phrases) the tool's own vocabulary explains: keywords, toolbox words, lexicon cues.

    Negations and quantifiers are never tool words: they are claimed only by the readings that honour them."""
    names = {spec.name, spec.name.removeprefix("qgis_")}
    if spec.equivalent:
        names.add(spec.equivalent)
    phrases = list(spec.keywords) + [spec.name.replace("_", " ")]
    for name in names:
        phrases += TOOL_WORDS.get(name, "").split("|")
    latin = _phrase_words(phrases)
    cjk = _cjk_phrases(phrases)
    for lang in ("en", "de", "zh"):
        lex = lexicon(lang)
        for name in names:
            cues = lex.TOOL_CUES.get(name, ())
            if lang == "zh":
                cjk |= set(cues)
            else:
                latin |= set(cues)
    latin -= words_of("NEGATIONS", ("en", "de")) | words_of("EACH", ("en", "de"))
    cjk -= set(words_of("NEGATIONS", ("zh",)))
    return latin, cjk


def _year_word(folded: str, n, lang: str) -> tuple[int, int]:
    """The word of a calendar year beside its number ('the year 2025', 'im Jahr 2025', '2025年'), else an empty span:
    the number says which year, and the word says no more than that it is one."""
    if not (n.integer and 1000 <= n.value <= 2999 and n.end - n.start == 4):
        return 0, 0
    if lang == "zh":
        word = next((w for w in lexicon("zh").YEAR_WORDS if folded.startswith(w, n.end)), "")
        return n.end, n.end + len(word)
    before = re.search(r"([a-z]+)\s+$", folded[max(0, n.start - 16) : n.start])
    if before and before.group(1) in lexicon(lang).YEAR_WORDS:
        return n.start - len(before.group(0)), n.start - len(before.group(0)) + len(before.group(1))
    return 0, 0


class Claims:
    """Spans of the folded request that a reading has used, and the words allowed anywhere in it."""

    def __init__(self, folded: str, names=frozenset()):
        self.folded = folded
        self.names = set(names)  # words of a proper name ('Alder Run'): never read as a typo of an allowed word
        self.mask = bytearray(len(folded))
        self.words: set[str] = set()
        self.phrases: set[str] = set()
        self.extra: list[str] = []  # readings no word explains (a field guessed from the layer's own name)
        self.heads: set[str] = set()  # layer and theme nouns a German compound may end in
        self.compound_heads: set[str] = set()  # variants of heads whose layer's own name is a compound (two words)

    def span(self, start: int, end: int) -> None:
        for i in range(max(0, start), min(len(self.mask), end)):
            self.mask[i] = 1

    def pattern(self, pattern: str) -> None:
        for m in re.finditer(pattern, self.folded):
            self.span(m.start(), m.end())

    def allow(self, words=(), phrases=()) -> None:
        self.words |= set(words)
        self.phrases |= set(phrases)

    def rest(self, said: str = "") -> list[str]:
        """The words nobody claimed, in order of appearance. `said`: the plan's own strings (values, names,
        expressions), whose words are claimed wherever they stand."""
        text = "".join(" " if self.mask[i] else ch for i, ch in enumerate(self.folded))
        allowed = set().union(*(_variants(w) for w in self.words)) if self.words else set()
        squashed = said.replace("_", "").replace(" ", "")

        long_words = sorted(w for w in allowed if len(w) >= 5 and not w.isdigit())
        heads = {v for h in self.heads for v in _variants(h) if len(v) >= 4}

        def compound(w: str) -> bool:
            """'wasserbezirke' for water_districts: a compound whose head names a layer the plan uses (German glues
            its nouns), and whose modifier is said by the layer's own compound name or is itself allowed.
            'Kirschparzellen' for parcels is not: 'Kirsch' (cherry) is a filter the plan would drop."""
            for v in _variants(w):
                for h in heads:
                    if v.endswith(h) and len(v) >= len(h) + 3:
                        modifier = v[: -len(h)].rstrip("s") or v[: -len(h)]
                        if h in self.compound_heads or _variants(modifier) & allowed:
                            return True
            return False

        def explained(w: str) -> bool:
            w = w.strip("_")
            if not w or _variants(w) & allowed:
                return True
            if len(w) >= 2 and w.replace("_", "") in squashed:  # 'title', 'tr' of LIKE 'Tr%', 'pop_2020'
                return True
            if len(w) >= 7 and compound(w):  # 'wasserbezirk', 'weltstadte'
                return True
            if w in self.names:  # 'the subcatchment Alder Run': 'alder' is a name, not a typo of 'alter'
                return False
            return len(w) >= 5 and _typo_of(w, long_words)  # 'bufer', 'centriods', 'reprojct' for a word allowed

        left: list[str] = []
        for m in _LATIN.finditer(self.folded):
            if all(self.mask[m.start() : m.end()]) or explained(m.group()):
                continue  # a whole word claimed, or the word itself allowed ('pop_k' named in the plan)
            left += [p for p in _LATIN.findall(text[m.start() : m.end()]) if not explained(p)]
        phrases = self.phrases | set(_CJK_RUN.findall(said))
        longest = max((len(p) for p in phrases), default=0)
        for m in _CJK_RUN.finditer(text):
            left += _cjk_rest(m.group(), phrases, longest)
        return list(dict.fromkeys(left))


def _cjk_rest(run: str, phrases: set[str], longest: int) -> list[str]:
    """The pieces of a Chinese run no phrase covers, read left to right, longest phrase first at each place
    ('保存为' is 保存 + 为; a global replace in set order could take 存为 first and leave 保)."""
    left, piece, i = [], "", 0
    while i < len(run):
        size = next((n for n in range(min(longest, len(run) - i), 0, -1) if run[i : i + n] in phrases), 0)
        if size:
            if piece:
                left.append(piece)
            piece, i = "", i + size
        else:
            piece, i = piece + run[i], i + 1
    return left + ([piece] if piece else [])


# Characters that carry meaning of their own (negation, quantity, order, size): never part of a Chinese gloss.
_NOT_GLOSS = set("不没无非最每各前后大小多少高低长短的了和或与")


def _claim_gloss(claims: Claims, folded: str, name: str) -> None:
    """The word right before '(name)' glosses it: claimed with it. Latin: the one word. Chinese: the noun right
    before the bracket, at most four characters and none that carries a meaning of its own ('不是住宅道路
    （residential）' claims 住宅道路; the negation is the filter's to explain, '最长' is never swallowed)."""
    gloss = r"(?<![\u4e00-\u9fff])([a-z0-9_]+)\s*[（(]\s*" + re.escape(name) + r"\s*[)）]"
    for g in re.finditer(gloss, folded):
        claims.span(g.start(1), g.end())
    for g in re.finditer(r"([\u4e00-\u9fff]{1,4})\s*[（(]\s*" + re.escape(name) + r"\s*[)）]", folded):
        run = g.group(1)
        keep = len(run)
        while keep and run[len(run) - keep] in _NOT_GLOSS or any(c in _NOT_GLOSS for c in run[len(run) - keep :]):
            keep -= 1
        if keep:
            claims.span(g.end(1) - keep, g.end())


_OUTPUT_NAMES = ("name", "new_name", "field_name", "title")  # string parameters that name an output


def unexplained(spec, params: dict, req, fmt=None, out_path=None, from_layers=()) -> list[str]:
    """The words of the request (reading/request.py) that nothing in the plan explains (empty: all accounted for).

    from_layers: params filled from the layers, not from words (an attribute join's one shared key)."""
    folded, lang, layers, mentions = req.folded, req.lang, req.layers, req.mentions
    claims = Claims(folded, names=proper_name_words(req.text))
    by_name = req.by_name
    strings = [x for v in params.values() for x in (v if isinstance(v, list) else [v]) if isinstance(x, str)]
    joined = " ".join(strings).lower()
    # Names the request gives its outputs ('called active_wells', 'as n_houses') are its own literal words: claimed
    # where they stand, and they explain nothing else ('active' of 'active_wells' is no filter the plan applied).
    # A name read other than as written ('detached_' of 'detached_houses') claims nothing, so its words stay unplaced.
    names = [params[k] for k in _OUTPUT_NAMES if isinstance(params.get(k), str) and params[k].strip()]
    reading = " ".join(x for x in strings if not any(x is n for n in names)).lower()
    for name in names:
        claims.pattern(r"(?<![a-z0-9_])" + re.escape(name.lower()) + r"(?![a-z0-9_])")
    used = {s for s in strings if s in by_name}
    langs = ("en", "de", "zh") if lang == "zh" else ("en", "de")
    lat = lambda name: words_of(name, ("en", "de"))  # noqa: E731 - German requests carry English GIS words
    cjk = lambda name: set(words_of(name, ("zh",)))  # noqa: E731

    # Layers the plan runs on. A layer named but not used is a reading the plan drops.
    for m in mentions or ():
        if m.name in used and not _kind_of(folded[m.start : m.end], by_name[m.name]):
            rival = _rival_theme_layer(m, mentions, used, folded)
            if rival:  # 'Bahnen' with lifts and railways loaded: the plan took one, the word names both
                claims.extra.append(f"{folded[m.start : m.end]} ({m.name} or {rival}?)")
                continue
            claims.span(m.start, m.end)
            claims.pattern(re.escape(folded[m.start : m.end]))  # the same word said again names it again
    # Numbers and distances: consume.py already demands that each is a filled value.
    for n in req.numbers:
        claims.span(n.start, n.end)
        claims.span(*_year_word(folded, n, lang))
    for d in req.distances:
        claims.span(d.start, d.end)
    # Fields and category values the plan uses, in its layers.
    for la in (by_name[s] for s in used if by_name[s].kind != "raster"):
        own = _own_fields(la)
        found = find_fields(folded, la)
        for fm in found:
            # a word read by meaning claims its span unless it only names the layer itself ('region' for the
            # districts is no field of theirs, whatever district_id suggests), or other fields fit it as well
            if fm.name.lower() in joined and (fm.score >= 1.0 or fm.name not in own):
                rivals = [o.name for o in found if o.name != fm.name and o.start < fm.end and fm.start < o.end
                          and o.score >= fm.score]  # fmt: skip
                if rivals and all(r.lower() in joined for r in rivals):
                    rivals = []  # 'from' for from_x and from_y: the plan uses every field the word fits
                if fm.score < 1.0 and rivals:  # 'Lifttyp': LiftID, lift_name and LiftType fit it alike
                    claims.extra.append(f"{folded[fm.start : fm.end]} ({fm.name}, or {' or '.join(rivals)}?)")
                    continue
                claims.span(fm.start, fm.end)
        for f in la.fields:  # 'Förderleistung (yield_gpm)': the user's own gloss of a field used
            if f.name.lower() in joined:
                _claim_gloss(claims, folded, f.name.lower())
        for f in la.fields:  # 'population' for POP2020: a field's meaning words, when the plan uses the field
            if f.name.lower() in joined and f.name not in own:
                for idx in _field_concepts(f.name):
                    said = CONCEPTS[idx][0]
                    claims.allow({w for w in said if not _CJK_RUN.match(w)}, {w for w in said if _CJK_RUN.match(w)})
        for v in {str(x).lower() for x in _sample_values(la)} & set(
            re.findall(r"[（(]\s*([^()（）]+?)\s*[)）]", folded)
        ):
            if v in joined:  # 'Wohngebiet (residential)': the user's gloss of a value the plan uses
                _claim_gloss(claims, folded, v)
        for v in find_values(folded, la):
            if str(v.value).lower() in reading:
                claims.span(v.start, v.end)
    for q in re.finditer(r"'([^']+)'|\"([^\"]+)\"", folded):
        inner = (q.group(1) or q.group(2) or "").lower()
        if inner and inner in joined:
            claims.span(q.start(), q.end())
    # Paths: an input file the plan reads, or the output file (below). Any other file named is a reading the plan
    # drops, whatever words it is made of ('… unter out/strassen.shp' is no layer mention and no format word).
    for path in find_paths(folded):
        if any(path in (la.path or "") or path == la.name for la in layers if la.name in used):
            claims.pattern(re.escape(path))
        elif not (out_path and path == out_path.lower()):
            claims.extra.append(path)

    kinds = {p.kind for p in spec.params if p.name in params}
    if "crs" in kinds:
        for s, e in crs_spans(folded):
            claims.span(s, e)
        for _, _, code in req.crs:  # 'California zone 3 (ftUS)': the words of a CRS's own name
            claims.allow(_phrase_words([crs_name(code)]))
        # the source marker too: plan.crs_for has checked a named source against the layer's own CRS
        moves = "reprojects" in spec.traits  # 'reproject … and add X/Y fields': add_xy leaves the layer as it is
        keep_lat = set() if moves else lat("REPROJECT_VERBS")
        keep_cjk = set() if moves else cjk("REPROJECT_VERBS")
        claims.allow(
            (lat("CRS_WORDS") | lat("SOURCE_MARKERS")) - keep_lat,
            (cjk("CRS_WORDS") | cjk("TARGET_MARKERS") | cjk("SOURCE_MARKERS")) - keep_cjk,
        )
    if "distance" in kinds:
        claims.allow(lat("DISTANCE_WORDS"), cjk("DISTANCE_WORDS"))
    if "measures" in spec.traits or any(p.name in ("unit", "units") for p in spec.params):
        claims.allow(lat("MEASURE_WORDS"), cjk("MEASURE_WORDS"))
    if kinds & {"expression", "value", "field", "fields"} or "top_n" in params:
        claims.allow(lat("COMPARE_WORDS"), cjk("COMPARE_WORDS"))
    if "statistic" in spec.traits or params.get("agg") or "aggregates" in spec.traits:  # consume.py guards the rest
        claims.allow(lat("AGG_WORDS"), cjk("AGG_WORDS"))
    expr = " ".join(str(params[p.name]) for p in spec.params if p.kind == "expression" and p.name in params)
    if re.search(r"=\s*(?:'(?:no|n|false|nein|否|无)'|0|false)(?!\w)", expr, re.IGNORECASE):
        claims.pattern(r"\bwithout\b|\bohne\b|没有|无(?=\S)")  # 'cafes without wifi' read as wifi = 'no'
    for la in (by_name[s] for s in used if by_name[s].kind != "raster") if expr else ():
        for s, e in exception_marks(req.masked_folded, req.conditions_as_written(la), expr):  # wifi != 'yes'
            claims.span(s, e)
            if folded[s:e] in ("除了", "除去"):
                claims.pattern(r"以外|之外")  # 除了…以外: the marker's closing half
    if _NEGATED_EXPR.search(expr):  # 'anything other than', 'irgendetwas anderes als': the negation's own words
        claims.allow(lat("NEGATIONS") | lat("INDEFINITE"), cjk("NEGATIONS") | cjk("INDEFINITE"))
    elif expr:  # 'not greater than 50' read as '<= 50': the negation is inside the operator the reader chose
        claims.pattern(_NEGATED_COMPARISON)
    if params.get("outside") is True:
        claims.allow(_OUTSIDE_WORDS, _ZH_OUTSIDE)
    if fmt is not None or "format" in kinds:
        if fmt is not None:
            claims.span(fmt.start, fmt.end)
        claims.allow(lat("SAVE_WORDS"), cjk("SAVE_WORDS"))
    if kinds & {"distance", "number", "integer"}:  # 'every 10 m', 'alle 50 m', '每隔10米': an interval, not 'each'
        claims.pattern(r"(?:\bevery|\balle|每隔|每)\s*(?=\d)")
    layer_params = [p for p in spec.params if p.kind == "layer"]
    raster_params = {
        p.name for p in layer_params if p.name in ("raster", "dem") or "raster" in (p.description or "").lower()
    }
    for m in mentions or ():  # 'from the dem', 'aus dem DGM', '用DEM': a source marker of the one layer or raster read
        param = next((k for k, v in params.items() if v == m.name), None)
        if param and (len(layer_params) == 1 or param in raster_params):
            head = folded[max(0, m.start - 14) : m.start]
            hit = re.search(r"(?:\bfrom|\bvon|\bvom|\baus|从|用)\s*(?:the\s+|der\s+|dem\s+|den\s+)?$", head)
            if hit:
                claims.span(m.start - len(head) + hit.start(), m.start)
    if one_per_feature(spec.name, params) and spec.name in AGGREGATING_PARAMS:  # 'nicht zusammenfassen', '不要合并'
        claims.pattern(_NEGATED_MERGE)
    choropleth = "makes_image" in spec.traits and params.get("field")  # a map of a field shows each feature
    if one_per_feature(spec.name, params) or one_per_group(spec.name, params) or choropleth:
        claims.allow(lat("EACH"), cjk("EACH"))
    # The words of filled enum and boolean parameters ('envelope', 'dissolve', 'whole layer').
    for p in spec.params:
        if p.name in params and p.kind in ("enum", "boolean", "integer", "distance", "number"):
            claims.allow(_phrase_words([p.name.replace("_", " "), str(params[p.name]).replace("_", " ")]))
            if p.kind == "enum" and p.enum and params[p.name] in ENUM_WORDS:  # what users say for the value read
                claims.pattern(ENUM_WORDS[params[p.name]])
    cue_latin, cue_cjk = tool_cue_words(spec)
    claims.allow(cue_latin, cue_cjk)
    for la in langs:
        lex = lexicon(la)
        if la == "zh":
            claims.allow(phrases=lex.FILLERS)
        else:
            claims.allow(lex.FILLERS)
    for name in used:  # the layer's own name said again ('5 per park' after 'parks'), and its theme's words
        claims.allow(_variants(name.lower()) | {singular(w) for w in _LATIN.findall(name.lower())})
        path = by_name[name].path
        if path:  # 'waypoints.gpx': the file's own name and extension
            claims.allow({Path(path).stem.lower(), Path(path).suffix.lower().lstrip(".")})
        theme = layer_theme(name) if not by_name[name].origin else None  # a result's title is no theme
        if theme:
            said = theme_words(theme) + ZH_HEADS.get(theme, [])
            said = [w for w in said if not _kind_of(w, by_name[name])]  # 'chairlifts' of lifts with a 'type'
            said_heads = {w for w in said if not _CJK_RUN.match(w) and "_" not in w}
            claims.heads |= said_heads
            if len(_LATIN.findall(name.lower().replace("_", " "))) >= 2:  # water_districts, world_cities
                claims.compound_heads |= {v for h in said_heads for v in _variants(h)}
            claims.allow({w for w in said if not _CJK_RUN.match(w)}, {w for w in said if _CJK_RUN.match(w)})
            for key, s, e in _theme_mentions(folded, _text_words(folded)):  # 'mountain huts', 'ski lifts'
                if key == theme and not _kind_of(folded[s:e], by_name[name]):
                    claims.span(s, e)
    if any(p.name in ("unit", "units") and p.name in params for p in spec.params):
        for u in output_units(folded, lang):
            claims.span(u.start, u.end)
    if out_path:  # 'save to results/out.csv': the output path and its save words
        claims.pattern(re.escape(out_path.lower()))
        claims.allow(lat("SAVE_WORDS") | {"write", "put", "to", "under"}, cjk("SAVE_WORDS"))
    if kinds & {"format"} or fmt is not None:
        claims.allow(lat("FORMAT_WORDS"), cjk("FORMAT_WORDS"))
    _difference_marker(spec, params, folded, mentions, claims)
    for la in (by_name[s] for s in used if by_name[s].kind != "raster"):
        named = layer_named_fields(la, folded)
        for p in spec.params:
            values = params.get(p.name) if p.kind in ("field", "fields") and p.name not in from_layers else None
            for f in values if isinstance(values, list) else [values] if values else []:
                if f in named:
                    claims.extra.append(f"{f} (an identifier or the layer's own name, not a field the request names)")
    for ref in references.unplaced(folded, lang, req.text, mentions or ()):  # 'count the houses in them'
        claims.extra.append(f"{folded[ref.start : ref.end]} (which layer? the request does not name it)")
        claims.span(ref.start, ref.end)
    for m in mentions or ():  # 'them' read as the previous result, which the plan does not use
        if m.name not in used and m.score < 1.0 and folded[m.start : m.end] in references.words(lang):
            claims.extra.append(f"{folded[m.start : m.end]} (stands for '{m.name}', which the plan does not use)")
    reversed_markers = _reversed_roles(spec, params, folded, mentions, claims) + _zh_head(
        spec, params, folded, mentions
    )
    return list(dict.fromkeys(reversed_markers + claims.extra + claims.rest(reading)))


_MINUS = re.compile(r"\bminus\b|\babzuglich\b|\bohne\b|减去|减")


def _kind_of(words: str, layer) -> bool:
    """Are `words` ('chairlifts', 'Sessellifte', '缆车') a kind word of the layer's theme that the layer's own name
    does not say, on a layer that records kinds: then they may mean a subset and explain nothing by themselves."""
    latin = re.findall(r"[a-z]+", words)
    combos = _product_forms(latin)
    variants = {"_".join(f) for f in combos} | {"".join(f) for f in combos} if latin else {words}
    kinds = variants & KIND_WORDS
    if not kinds:
        return False
    own = {f for t in re.findall(r"[a-z]+|[\u4e00-\u9fff]+", layer.name.lower()) for f in forms(t)}
    own |= {"_".join(f) for f in _product_forms(re.findall(r"[a-z]+", layer.name.lower()))}
    if {name for kind in kinds for name in KIND_NAMES[kind]} & own:  # 'chairlifts', 'Kliniken' of 'clinics'
        return False
    return any(records_kinds(layer, n) for kind in kinds for n in KIND_NAMES[kind])  # Sessellifte of 'chairlift'


def _rival_theme_layer(m, mentions, used, folded: str) -> str | None:
    """Another loaded layer, not used, that a word of several themes names at the same place just as well."""
    if len(theme_keys(folded[m.start : m.end])) < 2:
        return None
    same = (o for o in mentions if o.name not in used and (o.start, o.end) == (m.start, m.end))
    return next((o.name for o in same if o.score >= m.score), None)


def _product_forms(words: list[str]) -> list[tuple[str, ...]]:
    """Each word's base forms combined ('chair lifts' → ('chair', 'lift'), …), for a phrase of up to three words."""
    out: list[tuple[str, ...]] = [()]
    for w in words[:3]:
        out = [o + (f,) for o in out for f in forms(w)]
    return out


def _difference_marker(spec, params: dict, folded: str, mentions, claims) -> None:
    """'A minus B', 'A abzüglich B', 'A减去B': claimed when the plan subtracts B from A, in that order."""
    if not ("subtracts" in spec.traits or params.get("how") == "difference"):
        return
    pos = {m.name: m.start for m in mentions or ()}
    first, second = pos.get(params.get("layer")), pos.get(params.get("overlay"))
    if first is None or second is None:
        return
    for m in _MINUS.finditer(folded):
        if first < m.start() < second:
            claims.span(m.start(), m.end())
    erase = re.search(r"\berase|\bremov|\bsubtract|\bcut|entfern|abzieh|擦除|去掉", folded)
    for m in re.finditer(r"\bfrom\b|\bvon\b|\baus\b|从", folded):  # 'erase the parks from the districts'
        if erase and second < m.start() < first:
            claims.span(m.start(), m.end())


def _zh_head(spec, params: dict, folded: str, mentions) -> list[str]:
    """'河流500米范围内的地块': in Chinese the noun after the last 的 is what the request returns; a plan whose
    input is another layer has its roles reversed (reported as the head noun, unplaced)."""
    if "keeps_subset" not in spec.traits or not mentions or "的" not in folded:
        return []
    primary = next((p.name for p in spec.params if p.kind == "layer"), None)
    last = max(mentions, key=lambda m: m.start)
    before = folded[: last.start].rstrip()
    tail = folded[last.end :].strip(" 。，,.!?！？")
    if before.endswith("的") and not tail and primary and params.get(primary) not in (None, last.name):
        return [folded[last.start : last.end]]
    return []


_USE_MARKER = re.compile(r"(?:\buse|\busing|\bwith|\bmit|\bnimm|用|使用|以)\s*(?:the\s+|den\s+|die\s+|dem\s+)?$")


def _reversed_roles(spec, params: dict, folded: str, mentions, claims=None) -> list[str]:
    """'use the districts to trim the roads': a layer after use/using/with/用 is the tool's second layer (the
    cutter, overlay or reference), never its input. Read as the input, the marker word is reported unplaced."""
    if "two_layers" not in spec.traits:
        return []
    primary = next((p.name for p in spec.params if p.kind == "layer"), None)
    out = []
    for m in mentions or ():
        head_start = max(0, m.start - 14)
        hit = _USE_MARKER.search(folded[head_start : m.start])
        if not hit or not primary:
            continue
        if params.get(primary) == m.name:
            out.append(hit.group().split()[0] if hit.group().split() else hit.group())
        elif claims is not None:
            claims.span(head_start + hit.start(), head_start + hit.end())  # the marker read right: explained
    return out
