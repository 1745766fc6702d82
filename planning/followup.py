"""'Do the same for the cafes': the previous request's steps again, with one layer swapped for another.

Read only when the request is nothing but that: a 'same' phrase (lexicon SAME), one layer named that the previous
steps did not use, and closed-class words. The layer it replaces is the previous steps' one input, or of several
the one with the same kind of geometry (points for points); none or several and the request is not read here (the
router and the model see it as usual, with the previous result's origin in the layer descriptions). No qgis here.
"""

from __future__ import annotations

import re

from ..languages import LANGUAGES, lexicon, topic, words_of
from ..reading.request import mask
from ..reading.schema_match import find_layers, geometry_class
from ..reading.text import detect_lang, fold

_LATIN_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
_ZH_PARTS = dict(zip(LANGUAGES, topic("patterns")))["zh"].SAME_PARTS


def _family(layer) -> str | None:
    """point, line or polygon for a vector layer (None for a raster or a table)."""
    return geometry_class(layer) if layer.kind == "vector" else None


def _phrases(folded: str, lang: str, name: str) -> list[re.Match]:
    """Where the words of lexicon list `name` stand in the folded request (whole words; substrings in Chinese)."""
    words = sorted(words_of(name, ("zh",) if lang == "zh" else ("en", "de")), key=len, reverse=True)
    pattern = "|".join(re.escape(w) for w in words)
    return list(re.finditer(pattern if lang == "zh" else rf"(?<!\w)(?:{pattern})(?!\w)", folded))


def asks_same(text: str) -> bool:
    """Whether the request has a 'same' phrase ('do the same', 'dasselbe', '同样'): cheap, before any layer is read."""
    return bool(_phrases(fold(text), detect_lang(text), "SAME"))


def same_again(text: str, layers, steps: list[dict]) -> tuple[list[dict], str, str] | None:
    """(the steps with the layer swapped, the old layer, the new one), or None when the request is not just
    'the same for LAYER' or the swap is not clear. `steps`: the previous report's tool steps."""
    if not steps or any("tool" not in s for s in steps):
        return None
    folded, lang = fold(text), detect_lang(text)
    hits = _phrases(folded, lang, "SAME")
    if not hits:
        return None
    by_name = {la.name: la for la in layers}
    used = {v for s in steps for v in s.get("params", {}).values() if isinstance(v, str) and v in by_name}
    mentions = [m for m in find_layers(folded, layers) if m.name not in used]
    if len({m.name for m in mentions}) != 1:
        return None
    new = mentions[0].name
    rest = mask(folded, [(h.start(), h.end()) for h in hits] + [(m.start, m.end) for m in mentions])
    if not _only_closed_words(rest, lang):
        return None
    fam = _family(by_name[new])
    candidates = sorted(used) if len(used) == 1 else [v for v in used if fam and _family(by_name[v]) == fam]
    if len(candidates) != 1:
        return None
    old = candidates[0]
    fields = set(by_name[new].field_names())
    for s in steps:  # a field of the old layer ('population > 5000') must be one of the new layer's too
        for k, v in s.get("params", {}).items():
            named = (
                re.findall(r'"([^"]+)"', v)
                if k == "expression" and isinstance(v, str)
                else (
                    v if k == "fields" and isinstance(v, list) else [v] if k == "field" and isinstance(v, str) else []
                )
            )
            if any(f not in fields for f in named):
                return None
    swapped = [{**s, "params": {k: (new if v == old else v) for k, v in s.get("params", {}).items()}} for s in steps]
    return swapped, old, new


def wants_selection(text: str) -> bool:
    """Whether the request asks for QGIS's own selection ('select the districts with …', 'markiere …', '选中…'):
    a select verb and no word asking for a layer, a file or a format."""
    from ..reading.quantities import find_paths, output_format

    folded, lang = fold(text), detect_lang(text)
    if not _phrases(folded, lang, "SELECT_VERBS") or _phrases(folded, lang, "LAYER_WORDS"):
        return False
    return not find_paths(folded) and output_format(folded) is None


def _only_closed_words(rest: str, lang: str) -> bool:
    if lang == "zh":
        for part in sorted([*lexicon("zh").FILLERS, *_ZH_PARTS], key=len, reverse=True):
            rest = rest.replace(part, "")
        return not re.sub(r"[\s\W]+", "", rest)
    fillers = words_of("FILLERS", ("en", "de"))
    return all(w in fillers for w in _LATIN_WORD.findall(rest))
