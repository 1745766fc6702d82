"""English numbers written in words ('three hundred and fifty', 'half a', '5k'): the tables of reading/text.py."""

from __future__ import annotations

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a dozen": 12,
    "dozen": 12,
}  # fmt: skip
SCALES = {"hundred": 100, "thousand": 1000, "million": 1e6}
# Phrases before a unit that stand for a number ('half a mile', 'a quarter of a mile', 'a km').
FRACTIONS = {
    "half a": 0.5, "half an": 0.5, "a half": 0.5, "half": 0.5, "a quarter of a": 0.25, "quarter of a": 0.25,
    "a quarter": 0.25, "quarter": 0.25, "one and a half": 1.5, "a": 1, "an": 1, "one": 1,
}  # fmt: skip
# Number words that are no number on their own (an article).
ARTICLES = ("a", "an", "a dozen")
# Words joining number words: between spaced words ('three hundred and fifty'), inside a glued word (none).
SPACED_JOINERS = ("and",)
GLUED_JOINERS: tuple[str, ...] = ()
# Letters that continue a word besides a-z (a number word is a whole word).
WORD_LETTERS = ""
# After digits: a multiplier glued to them ('5k'), or after an optional space ('5 thousand'); patterns, with the
# value of each word in MULTIPLIERS.
GLUED_MULTIPLIERS = (r"k(?![a-z-])",)
MULTIPLIER_PATTERNS = (r"thousand(?![a-z])", r"million")
MULTIPLIERS = {"k": 1000, "thousand": 1000, "million": 1e6, "m": 1e6, "mill": 1e6}
# Characters the language writes numbers with besides 0-9, and their values (none).
DIGITS: dict[str, int] = {}
