"""What tells German apart in a request: umlauts and ß, or two of its common words (lower case)."""

from __future__ import annotations

LETTERS = r"[äöüß]"
CUE_WORDS = {
    "der", "die", "das", "und", "mit", "von", "nach", "alle", "einen", "eine", "ein", "im", "um", "zu",
    "den", "dem", "des", "ist", "sind", "wie", "welche", "welcher", "pro", "je", "aus", "auf", "mir",
    "zeige", "berechne", "erstelle", "puffer", "meter", "kilometer", "über", "unter", "mehr", "als",
    "für", "bitte", "gib", "zähle", "wieviele", "wie viele", "innerhalb", "schulen", "straßen",
    "ab", "bis", "deren", "dessen", "nur", "zeig", "gibt", "es", "haben", "hat", "oder", "nicht", "keine",
    "zusammen", "summe", "anzahl", "einwohner", "einwohnern", "gemeinden", "bezirke", "stadtteile", "häuser",
    "wo", "alles", "insgesamt", "durchschnittliche", "mittlere", "größten", "kleinsten", "meisten", "wenigsten",
}  # fmt: skip
WORD_LETTERS = "äöüß"  # letters beyond a-z that continue a word (a unit glued to them is part of the word)
