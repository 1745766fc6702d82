"""German words around references to a layer said before ('puffere sie'), read by reading/references.py."""

from __future__ import annotations

CLAUSE_BREAKS = r"\b(?:und|dann|danach|anschliessend)\b"
DETERMINERS: tuple[str, ...] = ()
DETERMINER_ENDS: tuple[str, ...] = ()
