"""What tells Chinese apart in a request: its characters (any one of them is enough)."""

from __future__ import annotations

LETTERS = r"[\u4e00-\u9fff]"
CUE_WORDS: set[str] = set()  # the characters decide alone
