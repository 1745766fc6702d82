"""Words that stand for a layer said before: 'buffer them by 100 m', 'count the houses in them', '把它们缓冲100米'.

A reference either points back inside the request ('select the schools and buffer them': the schools) or, in a
conversation, to the previous request's result ('now buffer those by 100 m'). Two rules follow:
- `resolve`: with the previous result in play, a reference the request itself does not answer becomes a mention of
  that result, like a name the user typed. A reference in a layer's role ('in them', 'darin', '它们中') always points
  outside the request (the houses are not counted in the houses); any other reference does only when no layer is
  named before it.
- `unplaced`: a reference in a layer's role that no mention covers names a layer nobody can tell (no previous
  result, or several): explain.py reports it, so tier 0 never runs 'count the houses in them' on the houses alone.
A pronoun followed by a noun is a determiner ('in those districts'), not a reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..languages import LANGUAGES, lexicon, topic, words_of
from .schema_match import Mention


@dataclass(frozen=True)
class Reference:
    start: int
    end: int
    role: bool  # in a layer's role: after a role preposition, a pronominal adverb (darin), or before 中/内 (zh)


LATIN = ("en", "de")  # a German request often reads as English to the language guess, and mixes both


@lru_cache(maxsize=1)
def _latin_pattern() -> re.Pattern:
    refs = sorted(words_of("REFERENCES", LATIN), key=len, reverse=True)
    return re.compile(r"(?<![\w'])(" + "|".join(re.escape(r) for r in refs) + r")(?![\w'])")


def find(folded: str, lang: str, text: str = "", mentions=()) -> list[Reference]:
    """The references in the folded request, left to right (`text`, the original, tells 'Sie' from 'sie')."""
    starts = {m.start for m in mentions}
    if lang == "zh":
        return _find_zh(folded, starts)
    fillers = words_of("FILLERS", LATIN) - words_of("REFERENCES", LATIN)
    roles = words_of("REFERENCE_ROLES", LATIN)
    out = []
    for m in _latin_pattern().finditer(folded):
        word, s, e = m.group(1), m.start(1), m.end(1)
        if word == "sie" and len(text) == len(folded) and text[s:e] == "Sie" and s > 0:
            continue  # the polite 'you' ('Können Sie …'), not 'they'
        after = re.match(r"\s*([^\W\d_]+)", folded[e:])
        if " " not in word and after and (e + (len(after.group(0)) - len(after.group(1))) in starts
                                          or after.group(1) not in fillers | roles):  # fmt: skip
            continue  # 'those districts', 'diese Straßen': a determiner
        before = re.search(r"([^\W\d_]+)\s+$", folded[:s])
        role = bool(before and before.group(1) in roles) or word.startswith(("da", "dr"))
        out.append(Reference(s, e, role))
    return out


_REFS = dict(zip(LANGUAGES, topic("references")))
_ZH_DETERMINERS = _REFS["zh"].DETERMINERS
_ZH_END = _REFS["zh"].DETERMINER_ENDS


def _find_zh(folded: str, starts: set[int]) -> list[Reference]:
    lex = lexicon("zh")
    refs = sorted(lex.REFERENCES, key=len, reverse=True)
    out: list[Reference] = []
    taken: list[tuple[int, int]] = []
    for ref in refs:
        for m in re.finditer(re.escape(ref), folded):
            s, e = m.start(), m.end()
            if any(s < te and ts < e for ts, te in taken) or e in starts:
                continue  # inside a longer reference, or '这些学校' (a determiner)
            role = ref == "其中" or folded[e:].startswith(tuple(lex.REFERENCE_ROLES))
            if ref in _ZH_DETERMINERS and not role and folded[e : e + 1] not in _ZH_END:
                continue  # '这些区内': 这些 before a noun is a determiner (它们 never is)
            taken.append((s, e))
            out.append(Reference(s, e, role))
    return sorted(out, key=lambda r: r.start)


_CLAUSE_BREAK = re.compile("|".join(m.CLAUSE_BREAKS for m in _REFS.values()))


def refers_back(text: str) -> bool:
    """Whether the request has a word standing for a layer said before ('them', 'das Ergebnis', '它们')."""
    from .text import detect_lang, fold

    return bool(find(fold(text), detect_lang(text), text))


def words(lang: str) -> set[str]:
    """The reference words and phrases of the request's language (and the other latin one)."""
    return set(lexicon("zh").REFERENCES) if lang == "zh" else words_of("REFERENCES", LATIN)


def in_request(folded: str, ref: Reference, mentions) -> bool:
    """Whether the request itself names what `ref` stands for: any layer before it, for a plain reference; for one
    in a layer's role, a layer of an earlier clause ('select the parks, then count the trees in them'), not of its
    own ('count the houses in them' does not count the houses in the houses)."""
    before = [m for m in mentions if m.end <= ref.start]
    if not ref.role:
        return bool(before)
    return any(_CLAUSE_BREAK.search(folded[m.end : ref.start]) for m in before)


def resolve(folded: str, lang: str, layers, mentions, previous, text: str = "") -> list[Mention]:
    """The mentions with the references that point to the previous result read as mentions of it (only when it is
    one layer in play). The first such reference is the mention; explain.py claims the same word said again.

    A result layer is titled after its request ('buffer the schools by 100 m'), so a word of that title found in
    the new request ('count the schools in them') is no mention of it: only its whole name or a reference is."""
    names = {la.name for la in layers}
    prev = [p for p in previous or () if p in names]
    if len(prev) != 1:
        return list(mentions)
    mentions = [m for m in mentions if m.name != prev[0] or m.score >= 1.0]
    if any(m.name == prev[0] for m in mentions):
        return mentions
    for ref in find(folded, lang, text, mentions):
        if any(m.start < ref.end and ref.start < m.end for m in mentions):
            continue
        if not in_request(folded, ref, mentions):
            return sorted([*mentions, Mention(prev[0], ref.start, ref.end, 0.9)], key=lambda m: m.start)
    return mentions


def unplaced(folded: str, lang: str, text: str, mentions) -> list[Reference]:
    """References in a layer's role that no mention covers: the layer they stand for is not known."""
    return [
        r
        for r in find(folded, lang, text, mentions)
        if r.role
        and not any(m.start <= r.start and r.end <= m.end for m in mentions)
        and not in_request(folded, r, mentions)
    ]
