"""Tool calls a model wrote as text: JSON objects, <tool_call> tags or fenced blocks, after any <think> block."""

from __future__ import annotations

import json
import re

_THINK = re.compile(r"<think>.*?</think>", re.S | re.I)
_NAME = re.compile(r'"(?:tool|name)"\s*:\s*"([^"]+)"')
ARG_KEYS = ("arguments", "parameters", "args", "input")


def strip_think(text: str | None) -> str:
    """The reply without reasoning blocks (`<think>...</think>`, or a lone `</think>` whose start was cut)."""
    text = _THINK.sub("", text or "")
    low = text.lower()
    if "</think>" in low:
        text = text[low.rindex("</think>") + len("</think>") :]
    elif low.lstrip().startswith("<think>"):
        return ""  # an unfinished thought: no answer in it
    return text.strip()


def _objects(text: str) -> list:
    """Every top-level JSON value that starts at a '{' in the text, in order."""
    decoder, out, i = json.JSONDecoder(), [], 0
    while True:
        i = text.find("{", i)
        if i < 0:
            return out
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        out.append(obj)
        i = end


def _as_call(obj, offered: set[str]) -> tuple[str, object] | None:
    """(name, arguments) when `obj` is a tool call in one of the common shapes, else None."""
    if not isinstance(obj, dict):
        return None
    fn = obj.get("function")
    if isinstance(fn, dict) and isinstance(fn.get("name"), str):
        obj = fn
    name = obj.get("tool", obj.get("name"))
    if not isinstance(name, str) or not name:
        return None
    has_args = any(k in obj for k in ARG_KEYS)
    if name not in offered and not ("tool" in obj or (has_args and len(obj) <= 3)):
        return None  # a JSON answer that happens to have a "name"
    args = next((obj[k] for k in ARG_KEYS if k in obj), {})
    return name, args


def find_calls(text: str, offered: set[str]) -> tuple[list[tuple[str, str]], str | None]:
    """The tool calls written in `text` as (name, raw argument JSON), or a parse error when the reply
    plainly tries to call a tool but its JSON cannot be read."""
    body = strip_think(text)
    calls = []
    for obj in _objects(body):
        call = _as_call(obj, offered)
        if call is not None:
            name, args = call
            calls.append((name, args if isinstance(args, str) else json.dumps(args)))
    if calls:
        return calls, None
    if "{" in body and ('"tool"' in body or "<tool_call>" in body.lower() or "```json" in body.lower()):
        start = body.find("{")
        try:
            json.loads(body[start : body.rfind("}") + 1])
        except json.JSONDecodeError as exc:
            match = _NAME.search(body)
            if match or '"tool"' in body:
                return [(match.group(1) if match else "?", "")], f"The reply was not valid JSON ({exc.msg})."
    return [], None
