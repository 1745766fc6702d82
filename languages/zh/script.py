"""What tells Chinese apart in a request: its characters (any one of them is enough)."""

from __future__ import annotations

LETTERS = r"[\u4e00-\u9fff]"
CUE_WORDS: set[str] = set()  # the characters decide alone
WORD_LETTERS = ""  # letters beyond a-z that continue a word (a unit glued to them is part of the word)
