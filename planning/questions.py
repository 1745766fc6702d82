"""Questions whose answer takes steps no single tool says: read at tier 0 as compositions of library tools.

Each shape is a composition read from the tools' traits, not a new tool (agent/questions.py runs it):
- count after a filter: 'how many houses were built before 1950?', 'wie viele Cafés haben WLAN?', '有多少…' — the
  request without its question words is a filter today's filter reader (a `keeps_subset` tool) fully explains, then
  the count of what it kept; with a share word ('what share of …') the count of the whole layer too.
- rank after an aggregate: 'which district has the most cafes?', 'welcher Bezirk hat die meisten Cafés?',
  '哪个区的咖啡馆最多？' — one polygon layer and one point layer named: the points counted per polygon (a `per_polygon`
  statistic), then the top (or bottom) polygon by that count.
- filter on a derived measure: 'roads longer than 1 km', 'Straßen, die länger als 1 km sind', '长度超过1公里的道路' —
  the measure (a `measures` tool of the layer's geometry), then a filter on the field it wrote; with 'how many', the
  count of what is kept.
Every word must be claimed: the question words, superlatives and comparatives of the lexicons, the layers, the
quantity, and closed-class words (FILLERS). Anything else, a second reading, or a layer that does not fit, and the
question is not read here (None): precision first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..function_lib.traits import traits_of
from ..languages import lexicon, words_of
from ..reading.quantities import find_distances
from ..reading.schema_match import find_layers, geometry_class
from ..reading.text import detect_lang, fold

LATIN = ("en", "de")
_PUNCT = re.compile(r"[\s,.;:!?，。；：！？、'\"()（）]+")


@dataclass
class Question:
    kind: str  # count | share | rank | measure | group_rank
    lang: str
    layer: str | None = None  # the layer counted, filtered or measured
    expression: str | None = None  # count/share: the filter read by today's filter reader
    polygons: str | None = None  # rank: the polygons ranked by the count of the points inside
    points: str | None = None
    lowest: bool = False  # rank: the fewest instead of the most
    measure: str | None = None  # measure: 'length'
    op: str | None = None  # measure: '>' or '<'
    metres: float | None = None
    count: bool = False  # measure: 'how many' asks the count of what is kept
    params: dict = field(default_factory=dict)  # group_rank: the group_by plan
    notes: list = field(default_factory=list)


def _lex(name: str, lang: str):
    return set(getattr(lexicon("zh"), name)) if lang == "zh" else words_of(name, LATIN)


def _spans(folded: str, lang: str, words) -> list[tuple[int, int]]:
    """Where the words stand (longest first, never overlapping; whole words outside Chinese)."""
    out: list[tuple[int, int]] = []
    for w in sorted(words, key=len, reverse=True):
        pattern = re.escape(w) if lang == "zh" else rf"(?<![\w']){re.escape(w)}(?![\w'])"
        for m in re.finditer(pattern, folded):
            if not any(s < m.end() and m.start() < e for s, e in out):
                out.append((m.start(), m.end()))
    return sorted(out)


def _blank(text: str, spans) -> str:
    for s, e in spans:
        text = text[:s] + " " * (e - s) + text[e:]
    return text


def only_closed_words(folded: str, spans, lang: str, extra=()) -> bool:
    """Whether what the spans leave is closed-class words only (FILLERS, the lexicon lists in `extra`)."""
    rest = _blank(folded, spans)
    allowed = _lex("FILLERS", lang) | set().union(*(_lex(n, lang) for n in extra))
    if lang == "zh":
        for w in sorted(allowed, key=len, reverse=True):
            rest = rest.replace(w, " ")
        return not _PUNCT.sub("", rest)
    return all(w in allowed for w in re.findall(r"[^\W_]+(?:'[^\W_]+)?", rest))


def read(request: str, layers, specs, previous: str | None = None) -> Question | None:
    """The question's composition, or None when the request is none of these shapes or not every word is claimed.

    `previous`: in a chain (agent/chain.py), the previous step's result: a clause that names no layer measures it
    ('…, then keep the ones shorter than 2 km'); only the measure is read then (the other shapes name their layers)."""
    if not layers:
        return None
    folded, lang = fold(request), detect_lang(request)
    if previous is not None:
        return _measure(folded, lang, layers, previous)
    return (
        _measure(folded, lang, layers)
        or _rank(folded, lang, layers)
        or _group_rank(request, folded, lang, layers, specs)
        or _count(request, folded, lang, layers, specs)
    )


def asks_a_number(request: str) -> bool:
    """Whether the request asks how many, or what share ('how many', 'wie viele', '多少', 'what share of', '占比')."""
    folded, lang = fold(request), detect_lang(request)
    return bool(_spans(folded, lang, _lex("HOW_MANY", lang) | _lex("SHARE", lang)))


def _count(request: str, folded: str, lang: str, layers, specs) -> Question | None:
    share = _spans(folded, lang, _lex("SHARE", lang))
    many = [] if share else _spans(folded, lang, _lex("HOW_MANY", lang))
    asked = share or many
    if len(asked) != 1 or "filter_by_expression" not in specs or _spans(folded, lang, _lex("JOINS", lang)):
        return None  # 'how many cafes with and without wifi': groups, or conditions joined, are no one filter's count
    from .plan import fill_plan

    base = request if len(folded) == len(request) else folded
    rest = _blank(base, asked).strip()
    plan = fill_plan(specs["filter_by_expression"], rest, layers)
    if not plan.complete or not plan.params.get("expression") or not plan.params.get("layer"):
        return None
    return Question("share" if share else "count", lang, layer=plan.params["layer"],
                    expression=plan.params["expression"], notes=list(plan.notes or ()))  # fmt: skip


def _group_rank(request: str, folded: str, lang: str, layers, specs) -> Question | None:
    """'which type of house has the highest average value?': the group said after WHICH is read as PER ('per type of
    house … the average value'), the superlative set aside; today's group_by reader must explain every other word and
    read a statistic that is no min or max (the superlative ranks the groups, it is not their statistic)."""
    which = _spans(folded, lang, _lex("WHICH", lang))
    high, low = _spans(folded, lang, _lex("HIGHEST", lang)), _spans(folded, lang, _lex("LOWEST", lang))
    if len(which) != 1 or len(high) + len(low) != 1 or "group_by" not in specs:
        return None
    if _spans(folded, lang, _lex("MOST", lang) | _lex("FEWEST", lang) | _lex("JOINS", lang)):
        return None
    from .plan import fill_plan

    base = request if len(folded) == len(request) else folded
    (ws, we), (ss, se) = which[0], (high or low)[0]
    per = getattr(lexicon(lang), "PER_WORD", "per")
    text = base[:ss] + " " * (se - ss) + base[se:]
    text = (text[:ws] + per + text[we:]) if lang == "zh" else (text[:ws] + per.ljust(we - ws) + text[we:])
    plan = fill_plan(specs["group_by"], text, layers)
    p = plan.params
    if not plan.complete or not p.get("by") or len(p["by"]) != 1 or not p.get("field"):
        return None
    if p.get("agg") not in ("mean", "sum", "median"):
        return None
    return Question("group_rank", lang, layer=p.get("layer"), lowest=bool(low), params=dict(p),
                    notes=list(plan.notes or ()))  # fmt: skip


def _one_each(mentions) -> dict[str, tuple[int, int]]:
    """Layer name → its span, or {} when a layer is named twice in different places (more than one reading)."""
    out: dict[str, tuple[int, int]] = {}
    for m in mentions:
        if m.name in out:
            return {}
        out[m.name] = (m.start, m.end)
    return out


def _rank(folded: str, lang: str, layers) -> Question | None:
    which = _spans(folded, lang, _lex("WHICH", lang))
    most, fewest = _spans(folded, lang, _lex("MOST", lang)), _spans(folded, lang, _lex("FEWEST", lang))
    if len(which) != 1 or len(most) + len(fewest) != 1:
        return None
    by_name = {la.name: la for la in layers}
    named = _one_each(find_layers(folded, layers))
    if len(named) != 2:
        return None
    kinds = {geometry_class(by_name[n]): n for n in named}
    if set(kinds) != {"polygon", "point"}:
        return None
    spans = [*which, *most, *fewest, *named.values(), *_spans(folded, lang, _lex("HAVE", lang))]
    if not only_closed_words(folded, spans, lang):
        return None
    return Question("rank", lang, polygons=kinds["polygon"], points=kinds["point"], lowest=bool(fewest))


def _measure(folded: str, lang: str, layers, previous: str | None = None) -> Question | None:
    comparatives = getattr(lexicon(lang), "MEASURE_COMPARATIVES", {})
    if lang != "zh":
        comparatives = {**lexicon("en").MEASURE_COMPARATIVES, **lexicon("de").MEASURE_COMPARATIVES}
    found = _spans(folded, lang, comparatives)
    if len(found) != 1:
        return None
    s, e = found[0]
    measure, op = comparatives[folded[s:e]]
    thans = "|".join(map(re.escape, _lex("THAN", lang))) if lang != "zh" else None
    than = re.match(r"\s*(" + thans + r")(?![\w'])", folded[e:]) if thans else None
    after = e + (than.end() if than else 0)
    if lang != "zh" and not than:
        return None
    distances = [d for d in find_distances(folded, lang) if d.start >= after and not folded[after : d.start].strip()]
    if len(distances) != 1 or len(find_distances(folded, lang)) != 1 or distances[0].metres <= 0:
        return None
    found = find_layers(folded, layers)
    named = _one_each(found)
    by_name = {la.name: la for la in layers}
    refs = _spans(folded, lang, _lex("REFERENCES", lang)) if previous is not None else []
    if previous is not None and not found and previous in by_name:
        named = {previous: refs[0] if refs else (0, 0)}  # nothing named: the previous step's result
        refs = refs[1:]
    if len(named) != 1:
        return None
    layer = next(iter(named))
    if measure == "length" and geometry_class(by_name[layer]) != "line":
        return None  # a polygon's 'longer' is no perimeter the user asked for: not guessed
    many = _spans(folded, lang, _lex("HOW_MANY", lang))
    which = _spans(folded, lang, _lex("WHICH", lang))
    if len(many) > 1 or len(which) > 1:
        return None
    spans = [(s, after), (distances[0].start, distances[0].end), *named.values(), *many, *which, *refs]
    if not only_closed_words(folded, spans, lang, ("HAVE", "KEEP_VERBS")):
        return None
    return Question("measure", lang, layer=layer, measure=measure, op=op, metres=distances[0].metres,
                    count=bool(many))  # fmt: skip


def measuring_tool(measure: str, specs) -> str | None:
    """The library tool that measures `measure` per feature, from the traits ('measures', 'per_feature')."""
    names = {"length": "geometry_length", "area": "geometry_area"}
    tool = names.get(measure)
    return tool if tool in specs and {"measures", "per_feature"} <= traits_of(tool) else None
