"""The model fills a hole, plan first (issue 25 item 4): a plan that lacks one thing goes to the model as one closed
question, a JSON schema whose enum is the choices (OpenAI `response_format` json_schema; llama-server honours it as
a grammar), one short round with no tool schemas. Only a choice from the list is taken; then the request is read
again with it (agent/holes.py) and runs at tier 0 with every check, as a user's answer does. Anything else (no
question, a reply outside the list, a failed call) leaves the request to the model tiers as before."""

from __future__ import annotations

import json
import time

from ..errors import LLMError
from ..lang import say_lang, tr
from .holes import find_question, question_json, resumed


def closed_question_format(choices: list[str]) -> dict:
    """The response_format that allows exactly one of `choices`: {"choice": <one of them>}."""
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "answer",
            "strict": True,
            "schema": {
                "type": "object",
                "properties": {"choice": {"type": "string", "enum": list(choices)}},
                "required": ["choice"],
                "additionalProperties": False,
            },
        },
    }


def question_messages(request: str, question: dict, infos) -> list[dict]:
    """A short prompt: the request, the layers in play (names, geometry, fields), and the question."""
    layers = "\n".join(la.prompt_text(400) for la in infos)
    return [
        {
            "role": "system",
            "content": "You answer one question about a GIS request by choosing one of the given choices. "
            'Reply with JSON {"choice": "<one of the choices>"} and nothing else.',
        },
        {
            "role": "user",
            "content": f"Request: {request}\nLayers:\n{layers}\nQuestion: {question['text']}\n"
            f"Choices: {', '.join(question['choices'])}",
        },
    ]


def model_fills_hole(client, router, request: str, infos, decision, config, report, previous=None):
    """(the resumed decision, the text it read) when the model chose one of the choices; None otherwise."""
    hole, choices, _ = find_question(router, request, infos, decision, config.threshold, previous)
    if hole is None:
        return None
    question = question_json(hole, choices, "en")  # the model reads English; the user never sees this text
    started = time.perf_counter()
    try:
        messages = question_messages(request, question, infos)
        reply = client.chat(messages, response_format=closed_question_format(choices))
    except LLMError as exc:
        report.escalations.append(f"the model did not answer the question '{hole.id}' ({exc.message[:80]})")
        return None
    report.usage.add(reply.prompt_tokens, reply.completion_tokens, (time.perf_counter() - started) * 1000)
    choice = _choice_of(reply.content)
    if choice not in choices:
        report.escalations.append(f"the model's answer to '{hole.id}' is not one of {choices}: {reply.content[:80]!r}")
        return None
    again, text = resumed(router, request, infos, hole, choice, previous)
    again.plan.corrected = True  # a model chose part of the plan: it runs as tier 1, with tier 0's checks
    note = tr("The model answered '{question}' with {choice}.", say_lang(request))
    report.notes.append(note.format(question=question_text_for(hole, request), choice=choice))
    return again, text


def question_text_for(hole, request: str) -> str:
    """The question in the user's language, for the note that says what the model chose."""
    from .holes import question_text

    return question_text(hole, say_lang(request))


def _choice_of(content: str) -> str | None:
    try:
        value = json.loads((content or "").strip())
    except ValueError:
        return None
    return value.get("choice") if isinstance(value, dict) and isinstance(value.get("choice"), str) else None


def fill_with_model(router, request: str, infos, decision, config, report, progress=None, previous=None):
    """Before the model tiers: a plan with one answerable hole is completed by the model's choice. Returns the
    (decision, text, config) to serve: unchanged when there is nothing to ask or the model's answer is not a choice;
    else the resumed decision, run without the confirmation round (the model has just chosen its part)."""
    plan = decision.plan
    if not (config.has_model and config.tier0 and config.route != "codegen" and decision.route == "function"):
        return decision, request, config
    if plan is None or plan.complete:
        return decision, request, config
    from dataclasses import replace

    from .tiers import make_client

    client = make_client(config, progress)
    report.model = report.model or client.settings.model
    filled = model_fills_hole(client, router, request, infos, decision, config, report, previous)
    if filled is None:
        return decision, request, config
    return filled[0], filled[1], replace(config, trust_tier0=True)
