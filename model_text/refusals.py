"""A model's refusal written in words ('I reject the task.', 'Ich lehne die Aufgabe ab.', '我无法完成这个任务。').

A small model often refuses in plain text instead of calling reject_task; shown as an answer, that refusal looked like
a served request (`ok`). The rule is narrow, so an answer that mentions 'cannot' in passing stays an answer: the
reply's first sentence must itself refuse, with the model as subject ('I cannot do this', 'I decline') or the task as
subject ('this request cannot be done'), before any other statement. A sentence ends at . ! ? 。！？ or a line
break; a semicolon or comma does not end it, so 'The roads were clipped; I cannot draw a map' is no refusal.
"""

from __future__ import annotations

import re

from ..languages import topic
from .text_calls import strip_think

_LANGS = topic("refusals")
_REFUSALS = [re.compile(m.REFUSAL, re.I) for m in _LANGS]
_SENTENCE_END = re.compile("[" + "".join(dict.fromkeys("".join(m.SENTENCE_ENDS for m in _LANGS))) + "\n]")
_APOLOGY = re.compile(
    "^(?:" + "|".join(p for m in _LANGS for p in m.APOLOGIES) + r")\s*["
    + "".join(dict.fromkeys("".join(m.APOLOGY_ENDS for m in _LANGS))) + r"]\s*",
    re.I,
)


def first_sentence(text: str) -> str:
    """The reply's first sentence (after a bare apology like 'Sorry.'), without markdown, quotes and list marks."""
    body = re.sub(r"[*_`>#\"“”„]+", "", strip_think(text)).strip()
    body = re.sub(r"^(?:[-•]\s*)", "", body)
    body = _APOLOGY.sub("", body, count=1)
    match = _SENTENCE_END.search(body)
    return (body[: match.start()] if match else body).strip()


def is_refusal(text: str | None) -> bool:
    """Does the reply refuse the task (its first sentence says so), in any language of languages/?"""
    sentence = first_sentence(text or "")
    if not sentence:
        return False
    folded = re.sub(r"\s+", " ", sentence.replace("’", "'")).lower()
    return any(pattern.match(folded) for pattern in _REFUSALS)


def refusal_reason(text: str | None) -> str | None:
    """The model's words when the reply refuses the task (the reason as it gave it), else None."""
    if not is_refusal(text):
        return None
    return strip_think(text or "").strip()
