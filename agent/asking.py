"""What an offline request that tier 0 declines ends with: one closed question (status "ask") when the plan lacks
one thing with a short list of answers that each complete it, else the decline in plain words (agent/declines.py)."""

from __future__ import annotations

from ..lang import say_lang, tr
from .declines import plain_reason
from .holes import find_question, question_json


def ask_or_explain(router, request: str, infos, decision, config, report, previous=None, given=None) -> None:
    """Turn a needs_llm report into an ask (with its question), or give its decline a plainer reason."""
    plan = decision.plan
    if plan is None or plan.complete:
        return  # a complete plan below the threshold, or one whose result failed its checks: no hole to ask about
    lang = say_lang(request)
    hole, choices, tried = find_question(router, request, infos, decision, config.threshold, previous, given)
    if hole is not None:
        question = question_json(hole, choices, lang)
        report.status, report.tier = "ask", 0
        report.questions = [question]
        report.error = None
        report.answer = f"{question['text']} {tr('Choices:', lang)} {', '.join(choices)}"
        return
    reason = plain_reason(request, decision, infos, tried, lang)
    if reason:
        report.error = reason  # what is missing and the fix, instead of the generic sentence


def question_as_failure(question: dict) -> str:
    """An ask where no one can answer (the Processing algorithm): the question, its choices, and how to say it."""
    return tr("{question} ({choices}) Say it in the request and run it again.").format(
        question=question["text"], choices=", ".join(question["choices"])
    )
