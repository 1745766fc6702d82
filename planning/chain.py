"""A request of several steps read as clauses, each for today's readers (no qgis here).

'buffer the schools by 500 m and count the houses inside each buffer' is a conversation inside one request: the
clauses come from `split_steps`, and the words that join them (lexicon CHAIN_CONNECTORS: and, then, dann, 然后, 并…)
are claimed here, so each clause is read as a request of its own. A clause refers to an earlier step's result with
the words of a follow-up ('them', 'darin', '其中'; router/references.py) or by the noun of what the tool made ('each
buffer', 'in jedem Puffer', '每个缓冲区'; lexicon RESULT_NOUNS of the tool that made it): such a noun is read as the
language's reference word, so the clause's readers see a follow-up ('count the houses inside each of them').

Nothing else is rewritten. A split that drops a word that is no connector, a noun of a result no earlier step made,
or a noun that names a loaded layer: the request is not read as a chain here (agent/chain.py declines it).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..languages import lexicon, words_of
from ..reading.schema_match import find_layers
from ..reading.text import detect_lang, fold
from .plan import _SPLIT, is_chain

LATIN = ("en", "de")
_PUNCT = " ,.;:!?，。；：！？、"


def _words(name: str, lang: str):
    return set(getattr(lexicon("zh"), name)) if lang == "zh" else words_of(name, LATIN)


def clauses(request: str) -> list[str] | None:
    """The request's clauses with their connectors claimed, or None when it is no chain or the split would drop a
    word that is no connector."""
    if not is_chain(fold(request)):
        return None
    lang = detect_lang(request)
    request = _connector_first(request, lang)
    out = []
    for part in _SPLIT.split(request):
        part = (part or "").strip(_PUNCT)
        part = _strip_connectors(part, lang)
        if not part:
            continue
        if len(part) < 3:
            return None  # a short piece the split would drop: not a connector, so not claimed
        out.append(part)
    return out if len(out) >= 2 else None


def _connector_first(request: str, lang: str) -> str:
    """'und zähle dann die Häuser' → 'und dann zähle die Häuser': the connector German puts after the verb."""
    after = sorted(_words("CHAIN_AFTER_VERB", lang), key=len, reverse=True) if lang != "zh" else []
    if not after:
        return request
    refs = "|".join(map(re.escape, sorted(lexicon("de").REFERENCES, key=len, reverse=True)))
    pattern = rf"(?i)\b(und|,)\s+([^\W\d_]+(?:\s+(?:{refs}))?)\s+(" + "|".join(map(re.escape, after)) + r")\b"
    return re.sub(pattern, lambda m: f"{m.group(1)} {m.group(3)} {m.group(2)}", request)


def _strip_connectors(part: str, lang: str) -> str:
    """The clause without the connectors it starts or ends with ('并统计…' → '统计…', 'and then count' → 'count')."""
    connectors = sorted(_words("CHAIN_CONNECTORS", lang), key=len, reverse=True)
    changed = True
    while changed and part:
        changed = False
        folded = fold(part)
        for word in connectors:
            if lang == "zh":
                if folded.startswith(word):
                    part, changed = part[len(word) :].strip(_PUNCT), True
                    break
            elif re.match(rf"{re.escape(word)}(?![\w'])", folded) and fold(part[: len(word)]) == word:
                part, changed = part[len(word) :].strip(_PUNCT), True
                break
            elif re.search(rf"(?<![\w']){re.escape(word)}$", folded) and fold(part[-len(word) :]) == word:
                part, changed = part[: -len(word)].strip(_PUNCT), True
                break
    return part


@lru_cache(maxsize=64)
def _noun_pattern(lang: str, tool: str) -> re.Pattern | None:
    langs = ("zh",) if lang == "zh" else LATIN
    nouns = sorted({n for la in langs for n in getattr(lexicon(la), "RESULT_NOUNS", {}).get(tool, ())}, key=len,
                   reverse=True)  # fmt: skip
    if not nouns:
        return None
    dets = sorted(_words("RESULT_DETERMINERS", lang), key=len, reverse=True)
    det = "|".join(re.escape(d) for d in dets)
    noun = "|".join(re.escape(n) for n in nouns)
    if lang == "zh":
        return re.compile(rf"(?P<det>{det})?(?P<noun>{noun})")
    return re.compile(rf"(?<![\w'])(?P<det>{det})\s+(?P<noun>{noun})(?![\w'])")  # a determiner: never the verb


def all_nouns(lang: str) -> re.Pattern:
    """Any result noun of any tool, with its determiner (a noun of a result no earlier step made)."""
    langs = ("zh",) if lang == "zh" else LATIN
    tools = {t for la in langs for t in getattr(lexicon(la), "RESULT_NOUNS", {})}
    pats = [p.pattern for p in (_noun_pattern(lang, t) for t in sorted(tools)) if p is not None]
    return re.compile("|".join(f"(?:{p})".replace("?P<det>", "?:").replace("?P<noun>", "?:") for p in pats) or "$^")


def group_fields(tool: str, params: dict) -> tuple[str, ...]:
    """The fields a step grouped by when it gives one output per group ('dissolve … by landuse'): after it, 'each
    landuse' is each feature of its result (function_lib/traits.py per_group)."""
    from ..function_lib.traits import traits_of

    if "per_group" not in traits_of(tool):
        return ()
    out = []
    for key in ("fields", "by", "field", "group_by"):
        value = params.get(key)
        out += [value] if isinstance(value, str) else [v for v in value or () if isinstance(v, str)]
    return tuple(out)


def _each_group(folded: str, lang: str, groups) -> list[tuple[int, int, str]]:
    """'each landuse' after a dissolve by landuse: the span, read as each of the previous results."""
    if not groups:
        return []
    each = "|".join(re.escape(w) for w in sorted(_words("EACH", lang), key=len, reverse=True))
    names = "|".join(re.escape(fold(g)) for g in sorted(groups, key=len, reverse=True))
    if lang == "zh":
        pattern = rf"(?:{each})\s*(?:{names})"
        word = lexicon("zh").EACH_REFERENCE
    else:
        pattern = rf"(?<![\w'])(?:{each})\s+(?:{names})(?![\w'])"
        word = lexicon("de" if lang == "de" else "en").EACH_REFERENCE
    return [(m.start(), m.end(), word) for m in re.finditer(pattern, folded)]


def refer_to_result(clause: str, lang: str, tool: str | None, layers=(), groups=()) -> tuple[str, bool] | None:
    """(the clause with the nouns of the previous step's result read as the reference word, whether any was), or
    None when the clause names the result of a tool no earlier step ran ('the buffers' after a filter).

    `groups`: the fields the previous step grouped by (group_fields): 'each landuse' is each of its results."""
    folded = fold(clause)
    same_length = len(folded) == len(clause)
    base = clause if same_length else folded
    mentions = find_layers(folded, layers) if layers else []
    pattern = _noun_pattern(lang, tool) if tool else None
    spans = []
    if pattern is not None:
        for m in pattern.finditer(folded):
            if any(x.start < m.end() and m.start() < x.end for x in mentions):
                continue  # a loaded layer called 'zones' is that layer
            spans.append((m.start(), m.end(), _replacement(folded, m.start(), m.group("det"), lang)))
    rest = folded
    for s, e, _ in spans:
        rest = rest[:s] + " " * (e - s) + rest[e:]
    if any(not any(x.start < m.end() and m.start() < x.end for x in mentions) for m in all_nouns(lang).finditer(rest)):
        return None  # 'in the buffers' when no step buffered
    spans += [g for g in _each_group(folded, lang, groups) if not any(s < g[1] and g[0] < e for s, e, _ in spans)]
    bare = _bare_each(folded, lang) if tool else None
    if bare and not any(s <= bare[0] < e for s, e, _ in spans):
        spans.append((*bare, lexicon(lang).EACH_REFERENCE if lang != "zh" else lexicon("zh").EACH_REFERENCE))
    for s, e, word in sorted(spans, reverse=True):
        base = base[:s] + word + base[e:]
    return base, bool(spans)


def _replacement(folded: str, start: int, det: str | None, lang: str) -> str:
    lex = lexicon("zh" if lang == "zh" else "de" if lang == "de" else "en")
    if lang == "zh":
        return lex.REFERENCE_WORD
    each = _words("EACH", lang)
    if det and det.split()[0] in each:
        return lexicon("de" if det.startswith("jed") else "en").EACH_REFERENCE
    before = re.search(r"([^\W\d_]+)\s+$", folded[:start])
    german = bool(det) and det in lexicon("de").RESULT_DETERMINERS and det not in lexicon("en").RESULT_DETERMINERS
    lex = lexicon("de") if german or lang == "de" else lexicon("en")
    if before and before.group(1) in lex.REFERENCE_ROLES:
        return lex.ROLE_REFERENCE_WORD
    return lex.REFERENCE_WORD


def _bare_each(folded: str, lang: str) -> tuple[int, int] | None:
    """'… inside each' at the clause's end: the span of 'each' (each of the previous results)."""
    if lang == "zh":
        return None
    words = "|".join(re.escape(w) for w in sorted(_words("BARE_EACH", lang), key=len, reverse=True))
    roles = "|".join(re.escape(w) for w in sorted(_words("REFERENCE_ROLES", lang), key=len, reverse=True))
    m = re.search(rf"(?<![\w'])(?:{roles})\s+(?P<each>{words})\s*[.!?]?\s*$", folded)
    return (m.start("each"), m.end("each")) if m else None
