"""German words of the readers' small patterns (see languages/en/patterns.py)."""

from __future__ import annotations

LIST_SEPARATORS = ""
LIST_JOINERS = r"und|oder"
EACH_WORDING = r"(?<![a-z])(?:je|jede[nmrs]?|pro|einzeln|jeweils|getrennt)(?![a-z])"
OPENERS = r"kannst|du|bitte|mir|ich|möchte|mochte"
USE_VERBS = r"\bnimm|\bnehmt|\bverwende"
USE_ARTICLES = r"den\s+|die\s+|dem\s+"
SAME_PARTS: tuple[str, ...] = ()
