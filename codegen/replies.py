"""What a code-worker reply asks for: an inspection cell, the final script, a refusal, or nothing usable.

The protocol suits a small model: one code block per reply; a line `# INSPECT` before the first statement (imports
aside), or a line INSPECT before the block, marks a look at the data; a line `REFUSE: reason` instead of code ends
the request as refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model_text.refusals import refusal_reason
from .extract import extract_code

_REFUSE = re.compile(r"^[\s>*_`#-]*REFUSE[\s*_`]*[:：]\s*(.+)", re.IGNORECASE | re.MULTILINE | re.DOTALL)
_INSPECT_LINE = re.compile(r"^\s*#+\s*INSPECT\b", re.IGNORECASE)
_INSPECT_TEXT = re.compile(r"^[\s>*_`#-]*INSPECT\b[\s*_`:]*$", re.IGNORECASE | re.MULTILINE)


@dataclass
class Reply:
    """A reply read: kind is inspect | final | refuse | empty (a code block of comments only) | none; `code` for
    inspect, final and empty, `reason` for a refusal."""

    kind: str
    code: str | None = None
    reason: str | None = None


def read_reply(text: str | None) -> Reply:
    """Read one reply of the code worker's protocol."""
    code = extract_code(text)
    refused = _refuse_line(text or "")
    if refused:
        return Reply("refuse", reason=refused)
    if code is None:
        reason = refusal_reason(text)  # 'I cannot do this task.' in words, without the marker
        return Reply("refuse", reason=reason) if reason else Reply("none")
    if _no_statements(code):  # comments only (a small model echoed the feedback as '# Attempt 1: …'): nothing to run
        return Reply("empty", code=code)
    if _marked_inspect(code) or _INSPECT_TEXT.search(_outside_code(text or "")):
        return Reply("inspect", code=code)
    return Reply("final", code=code)


def _marked_inspect(code: str) -> bool:
    """A `# INSPECT` line before the cell's first statement other than an import ('import geopandas as gpd' then
    '# INSPECT' is a look at the data too)."""
    for line in code.splitlines():
        if _INSPECT_LINE.match(line):
            return True
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not re.match(r"(?:import|from)\s", stripped):
            return False
    return False


def _no_statements(code: str) -> bool:
    """Does the code hold no statement at all (blank lines and comments only)? Code that does not parse is not
    'empty': the sandbox's syntax check names its error."""
    import ast

    try:
        return not ast.parse(code).body
    except SyntaxError:
        return False


def _refuse_line(text: str) -> str | None:
    """The reason after a REFUSE: line outside any code (a script that prints 'REFUSE:' is no refusal)."""
    match = _REFUSE.search(_outside_code(text))
    return (re.sub(r"[*_`]+", "", match.group(1)).strip() or None) if match else None


def _outside_code(text: str) -> str:
    """The reply without its fenced blocks."""
    return re.sub(r"(`{3,}|~{3,}).*?(\1|\Z)", "", text, flags=re.DOTALL)
