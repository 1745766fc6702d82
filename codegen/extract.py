"""Python code out of any model's reply: fenced blocks, <code> tags, JSON {"code": ...}, or bare code."""

from __future__ import annotations

import ast
import html
import json
import re

_FENCE = re.compile(r"(`{3,}|~{3,})[ \t]*([\w+.-]*)[^\n]*\n(.*?)(?:\n[ \t]*\1[ \t]*(?:\n|$)|\Z)", re.DOTALL)
_TAG = re.compile(r"<(code|python|pre)(?:\s[^>]*)?>(.*?)</\1>", re.DOTALL | re.IGNORECASE)
_PYTHON_LANGS = {"python", "py", "python3", "py3", "ipython", "python-repl", "pycon", ""}
_CODE_KEYS = ("code", "python", "script", "source")
_MAX_BARE_LINES = 400


def extract_code(text: str | None) -> str | None:
    """The script in a reply, or None when the reply holds no Python."""
    if not text or not text.strip():
        return None
    text = _strip_thinking(text)
    for finder in (_from_json, _from_fences, _from_tags, _from_repl, _from_bare):
        code = finder(text)
        if code and code.strip():
            return _clean(code)
    return None


def _strip_thinking(text: str) -> str:
    """Reasoning models wrap their thoughts in <think> tags; the answer follows them."""
    return re.sub(r"<think>.*?</think>", "", text, flags=re.DOTALL | re.IGNORECASE).strip() or text


def _from_json(text: str) -> str | None:
    candidate = text.strip()
    fenced = re.match(r"^```(?:json)?\s*\n(.*?)\n```\s*$", candidate, re.DOTALL)
    if fenced:
        candidate = fenced.group(1).strip()
    if not candidate.startswith("{"):
        return None
    try:
        data = json.loads(candidate)
    except ValueError:
        return None
    if isinstance(data, dict):
        for key in _CODE_KEYS:
            if isinstance(data.get(key), str):
                return _from_fences(data[key]) or data[key]
        for value in data.values():  # {"arguments": {"code": ...}} and similar wrappers
            if isinstance(value, dict):
                found = next((value[k] for k in _CODE_KEYS if isinstance(value.get(k), str)), None)
                if found:
                    return found
    return None


def _from_fences(text: str) -> str | None:
    blocks = [(lang.lower(), body) for _, lang, body in _FENCE.findall(text)]
    if not blocks:
        return None
    python = [body for lang, body in blocks if lang in _PYTHON_LANGS]
    if not python:
        return None
    kept = []
    for i, body in enumerate(python):
        first = _first_line(body)
        # A later block starting like this one is a corrected full version: keep the later one only.
        if first and any(_first_line(later) == first for later in python[i + 1 :]):
            continue
        kept.append(body)
    return "\n\n".join(b.strip("\n") for b in kept)


def code_blocks(text: str | None) -> list[str]:
    """Each fenced Python block of a reply on its own (a reply holding several alternative scripts)."""
    blocks = [body for _, lang, body in _FENCE.findall(_strip_thinking(text or "")) if lang.lower() in _PYTHON_LANGS]
    return [_clean(body) for body in blocks if body.strip()]


def _from_tags(text: str) -> str | None:
    bodies = [html.unescape(body) for _, body in _TAG.findall(text)]
    bodies = [b for b in bodies if _parses(b)]
    return "\n\n".join(b.strip("\n") for b in bodies) if bodies else None


def _from_repl(text: str) -> str | None:
    """A pasted interactive session: keep the lines after >>> and ... prompts, drop the printed results."""
    lines = [ln[4:] for ln in text.splitlines() if ln.startswith((">>> ", "... ")) or ln in (">>>", "...")]
    code = "\n".join(lines)
    return code if lines and _parses(code) else None


def _from_bare(text: str) -> str | None:
    """No markup: the longest run of lines that parses as Python and looks like code."""
    lines = text.strip().splitlines()[:_MAX_BARE_LINES]
    if _parses("\n".join(lines)) and _looks_like_code(lines):
        return "\n".join(lines)
    best = None
    for start in range(len(lines)):
        if not _code_start(lines[start]):
            continue
        for end in range(len(lines), start, -1):
            chunk = lines[start:end]
            if _parses("\n".join(chunk)) and _looks_like_code(chunk):
                if best is None or len(chunk) > len(best):
                    best = chunk
                break
        if best is not None and len(best) >= len(lines) - start:
            break
    return "\n".join(best) if best else None


def _code_start(line: str) -> bool:
    return bool(re.match(r"^(import |from \w|[A-Za-z_][\w.]*\s*(=|\()|def |class |for |with |if |print\(|#)", line))


def _looks_like_code(lines: list[str]) -> bool:
    code_lines = [ln for ln in lines if ln.strip()]
    if not code_lines:
        return False
    signals = sum(1 for ln in code_lines if re.search(r"(^\s*(import|from|def|for|if|with|print)\b|[=(\[]|\)$)", ln))
    return signals >= max(1, len(code_lines) // 2)


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    return True


def _first_line(body: str) -> str:
    return next((ln.strip() for ln in body.splitlines() if ln.strip()), "")


def _clean(code: str) -> str:
    """Trim blank edges, keep the code's own indentation, end with one newline."""
    return code.strip("\n").rstrip() + "\n"
