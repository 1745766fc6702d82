"""Hand-written cues of open-ended (code) and conversational (chat) requests, from every language's cues.py.

They become extra features next to the n-grams, so that a new phrasing of 'why…', 'compare…', 'build an index…'
or 'thanks!' is recognised even when its words never occurred in the corpus.
"""

from __future__ import annotations

import re

from ..languages import CJK, topic

_LANGS = topic("cues")
# The cues in a fixed order (the order of the cue features); each language adds its alternatives to each.
NAMES = ("why", "compare", "summarise", "explain", "greet", "analysis", "product", "chain", "meta", "question",
         "cleanup", "comparison")  # fmt: skip
_NUMBER = r"(?:\d|[" + "".join(m.NUMERALS for m in _LANGS) + "])"


def _cue(name: str) -> str:
    words = "|".join(m.CUES[name] for m in _LANGS if m.CUES.get(name))
    if name == "greet":  # a greeting is the request's first word
        return r"^\W*(?:" + words + r")\b"
    if name == "comparison":  # a comparison with a number ('over 5000', 'mehr als 5.000', '超过5000', '>= 3')
        extra = [p for m in _LANGS for p in m.COMPARISON_PATTERNS]
        return "|".join([r"(?:" + words + r"|[<>]=?)\s*" + _NUMBER, *extra])
    return words


CUES = {name: _cue(name) for name in NAMES}
_COMPILED = {k: re.compile(v, re.IGNORECASE) for k, v in CUES.items()}


def cue_tokens(text: str) -> list[str]:
    """The cues present in a request, plus its length class."""
    toks = [f"cue_{k}" for k, pat in _COMPILED.items() if pat.search(text)]
    n = len(re.findall(r"\w+", text)) if not CJK.search(text) else len(text) // 2
    toks.append("len_short" if n <= 3 else "len_mid" if n <= 12 else "len_long")
    return toks
