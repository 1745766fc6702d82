"""English words around references to a layer said before ('buffer them'), read by reading/references.py."""

from __future__ import annotations

# What breaks a clause between a layer and a later reference ('the schools, then buffer them').
CLAUSE_BREAKS = r"[,;]|\b(?:and|then)\b"
# Reference words that are a determiner when a noun follows ('这些学校'), and what may follow one that is not
# (none in English: its determiners are told apart by the word after them).
DETERMINERS: tuple[str, ...] = ()
DETERMINER_ENDS: tuple[str, ...] = ()
