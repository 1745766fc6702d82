"""German numbers written in words ('fünfhundert', 'einen halben', '5 Mio.'): the tables reading/text.py reads with.

Keys are lower case, with and without umlauts ('funf', 'fünf'): number words are matched before folding.
"""

from __future__ import annotations

NUMBER_WORDS = {
    "eins": 1, "ein": 1, "eine": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "fünf": 5,
    "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12, "zwölf": 12,
    "zwanzig": 20, "dreissig": 30, "dreißig": 30, "vierzig": 40, "funfzig": 50, "fünfzig": 50,
}  # fmt: skip
SCALES = {"hundert": 100, "tausend": 1000, "millionen": 1e6}
# Phrases before a unit that stand for a number ('einen halben Kilometer', 'anderthalb Meilen').
FRACTIONS = {
    "einen halben": 0.5, "einem halben": 0.5, "halben": 0.5, "halbe": 0.5, "anderthalb": 1.5, "eineinhalb": 1.5,
    "eine": 1, "einen": 1, "einer": 1, "einem": 1, "ein": 1,
}  # fmt: skip
# Number words that are no number on their own (an article).
ARTICLES = ("ein", "eine", "einen")
# Words joining number words: between spaced words (none), inside a glued word ('fünfhundertundzwanzig').
SPACED_JOINERS: tuple[str, ...] = ()
GLUED_JOINERS = ("und",)
# Letters that continue a word besides a-z (a number word is a whole word).
WORD_LETTERS = "äöü"
# After digits: a multiplier glued to them (none), or after an optional space ('5 Tausend', '3 Mio.'); patterns,
# with the value of each word in MULTIPLIERS.
GLUED_MULTIPLIERS: tuple[str, ...] = ()
MULTIPLIER_PATTERNS = (r"tausend", r"millionen", r"mio\.?")
MULTIPLIERS = {"tausend": 1000, "millionen": 1e6, "mio": 1e6}
# Characters the language writes numbers with besides 0-9, and their values (none).
DIGITS: dict[str, int] = {}
