"""A model's refusal written in words ('I reject the task.', 'Ich lehne die Aufgabe ab.', '我无法完成这个任务。').

A small model often refuses in plain text instead of calling reject_task; shown as an answer, that refusal looked like
a served request (`ok`). The rule is narrow, so an answer that mentions 'cannot' in passing stays an answer: the
reply's first sentence must itself refuse, with the model as subject ('I cannot do this', 'I decline') or the task as
subject ('this request cannot be done'), before any other statement. A sentence ends at . ! ? 。！？ or a line
break; a semicolon or comma does not end it, so 'The roads were clipped; I cannot draw a map' is no refusal.
"""

from __future__ import annotations

import re

from .text_calls import strip_think

# Openers that may precede a refusal: 'Sorry,', 'Unfortunately', 'Leider', '抱歉，'.
_LEAD_EN = r"(?:(?:i'?m |i am |we'?re )?(?:sorry|afraid|unfortunately|apologies|regrettably)[,.!:]?\s*(?:but\s*)?)?"
_LEAD_DE = r"(?:(?:leider|entschuldigung|es tut mir leid|tut mir leid|bedauerlicherweise)[,.!:]?\s*)?"
_LEAD_ZH = r"(?:(?:很抱歉|抱歉|对不起|不好意思|遗憾的是)[，,。!！]?\s*)?"

# Verbs of doing the task: 'I cannot find the field pop, so I used population' (a report) does not qualify.
_DO_EN = (
    r"(?:do|perform|complete|answer|fulfil+|carry out|help|assist|process|solve|execute|handle|accomplish|serve|"
    r"proceed|comply|compute|calculate|determine|provide|produce|create|generate|make|run|write)\b"
)
_EN = re.compile(
    rf"^{_LEAD_EN}(?:"
    r"i (?:must |have to |will |would |need to |hereby )?(?:reject|refuse|decline)\b"
    rf"|i (?:cannot|can ?not|can'?t|won'?t|will not|am unable to|'?m unable to|am not able to|'?m not able to) {_DO_EN}"
    r"|(?:this|the|your) (?:task|request|question|query) (?:cannot|can'?t|can not|is impossible|is not possible|"
    r"is not feasible|must be rejected|is rejected|will be rejected)"
    r"|(?:it is|it'?s) (?:not possible|impossible) to (?:do|complete|answer|perform|fulfil+|serve) (?:this|that|the)"
    r"|unable to (?:do|complete|answer|perform|fulfil+|serve|process) (?:this|that|the|your)"
    r"|(?:task|request) (?:rejected|refused|declined)\b"
    r")",
    re.I,
)
_DO_DE = (
    r"(?:ausführen|erledigen|durchführen|beantworten|lösen|berechnen|bearbeiten|erfüllen|erstellen|machen|tun|"
    r"helfen|umsetzen|leisten)"
)
_TASK_DE = r"(?:das|dies|diese aufgabe|die aufgabe|diese anfrage|die anfrage|der auftrag|diese frage|die frage)"
_DONE_DE = r"(?:ausgeführt|erledigt|gelöst|beantwortet|durchgeführt|bearbeitet|erfüllt|umgesetzt|berechnet|gemacht)"
_DE = re.compile(
    rf"^{_LEAD_DE}(?:"
    r"ich (?:muss |werde |möchte )?(?:lehne|weise)\b.*\b(?:ab|zurück)\b"
    r"|ich (?:muss|werde) (?:die|diese|den|diesen|das) \w+ (?:ablehnen|zurückweisen)"
    rf"|(?:ich kann|kann ich|ich werde|werde ich)\b[^.!?]*\bnicht\b[^.!?]*\b{_DO_DE}\b"
    r"|(?:ich kann|kann ich) (?:das|dies|diese aufgabe|die aufgabe|diese anfrage|die anfrage|den auftrag) nicht"
    r"\s*(?:,|$)"
    r"|ich bin (?:leider )?nicht in der lage"
    rf"|{_TASK_DE} (?:ist|wäre) (?:[^.!?]*\s)?(?:nicht möglich|unmöglich|nicht machbar|nicht lösbar)"
    rf"|{_TASK_DE} (?:kann|lässt sich) (?:[^.!?]*\s)?nicht (?:\w+ )?{_DONE_DE}"
    r"|(?:aufgabe|anfrage) (?:abgelehnt|zurückgewiesen)\b"
    r")",
    re.I,
)
_DO_ZH = r"(?:完成|执行|回答|处理|做|满足|进行|提供|计算|帮助|帮你|帮您|解决|实现|胜任|答复)"
_ZH = re.compile(
    rf"^{_LEAD_ZH}(?:"
    r"我(?:必须|只能|将|要)?(?:拒绝|谢绝)"
    rf"|我(?:无法|不能|没法|没办法|不可以|做不到|不会)(?:为您|为你|帮您|帮你)?{_DO_ZH}"
    r"|我做不到"
    r"|(?:这个|该|此|这项|本)?(?:任务|请求|要求|问题)(?:无法|不能|没法|不可能)(?:被)?(?:完成|执行|回答|处理|实现|满足)"
    r"|(?:任务|请求)(?:被)?拒绝"
    rf"|无法{_DO_ZH}(?:这个|该|此|这项|您的|你的)?(?:任务|请求|要求|问题)"
    r")"
)

_SENTENCE_END = re.compile(r"[.!?。！？\n]")


_APOLOGY = re.compile(
    r"^(?:(?:i'?m |i am |we'?re )?(?:so |very |really )?sorry|apologies|my apologies|entschuldigung|"
    r"(?:es )?tut mir (?:sehr )?leid|很抱歉|抱歉|对不起|不好意思)\s*[.!。！]\s*",
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
    """Does the reply refuse the task (its first sentence says so), in English, German or Chinese?"""
    sentence = first_sentence(text or "")
    if not sentence:
        return False
    folded = re.sub(r"\s+", " ", sentence.replace("’", "'")).lower()
    return bool(_EN.match(folded) or _DE.match(folded) or _ZH.match(folded))


def refusal_reason(text: str | None) -> str | None:
    """The model's words when the reply refuses the task (the reason as it gave it), else None."""
    if not is_refusal(text):
        return None
    return strip_think(text or "").strip()
