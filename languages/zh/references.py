"""Chinese words around references to a layer said before ('把它们缓冲100米'), read by reading/references.py."""

from __future__ import annotations

CLAUSE_BREAKS = r"[，；、]|然后|并且|并|再"
# '这些' alone is a reference; before a noun ('这些学校') a determiner. What may follow the reference:
DETERMINERS = ("这些", "那些")
DETERMINER_ENDS = ("", "。", "，", ",", "！", "？", "!", "?", "；", ";", " ", "的")
