"""German wording of what a request asks for, read by agent/checks.py and agent/coverage.py (see en/asks.py)."""

from __future__ import annotations

IMAGE_WORDS = r"(?<![a-z])(?:bild|grafik)(?![a-z])"
PICTURE_WORDS = r"(?<![a-z])(?:grafik|als bild|in ein bild|ein(?:e[nm]?)? bild)(?![a-z])"
MAYBE_NONE_WORDS = r"(?<![a-z])(?:ob|gibt es|falls vorhanden)(?![a-z])"
SHARE_QUESTION = r"(?<![a-z])(?:welche[rn]? anteil|wie viel prozent|wieviel prozent|wie hoch ist der anteil)(?![a-z])"
MAP_WORDS = r"(?<![a-z])(?:karte|karten|kartiere\w*)(?![a-z])"
QUANTITY_QUESTION = r"(?<![a-z])(?:wie (?:viele?|gross|groß|weit|lang)|wieviele?|welche[rn]? anteil)(?![a-z])"
WHICH_QUESTION = r"(?<![a-z])(?:welche[rsnm]?|was fur|was für)(?![a-z])"
