"""What tells English apart in a request: no letters of its own, no cue words (English is the default)."""

from __future__ import annotations

LETTERS = r"[^\s\S]"  # a class nothing matches: English letters are every latin language's
CUE_WORDS: set[str] = set()
WORD_LETTERS = ""  # letters beyond a-z that continue a word (a unit glued to them is part of the word)
