"""English unit words: distances with a number, output units named alone, and the cue words before a unit.

Patterns (regex alternatives) per unit code; reading/quantities.py joins every language's in the order of LANGUAGES.
An empty string: the language has no word of its own for that unit.
"""

from __future__ import annotations

# A distance's unit after a number ('500 m', '2 miles'), on the request as written.
DISTANCE_UNITS = {
    "nmi": r"nautical\s+miles?|nmi",
    "km": r"kilomet(?:er|re)s?n?|kms?|klicks?",
    "mi": r"miles?|mi",
    "ft": r"feet|foot|ft",
    "yd": r"yards?|yds?",
    "cm": r"centimet(?:er|re)s?|cm",
    "m": r"met(?:er|re)s?n?|mtrs?|m",
}
# Output units named without a number ('area in square feet'), on folded text: long words name a unit anywhere,
# abbreviations only after a cue ('in', 'as', '(').
AREA_UNITS = {
    "km2": r"square\s+kilomet(?:er|re)s?",
    "mi2": r"square\s+miles?",
    "ft2": r"square\s+f(?:ee|oo)t(?:age)?",
    "yd2": r"square\s+yards?",
    "m2": r"square\s+met(?:er|re)s?",
    "ha": r"hectares?",
    "acres": r"acres?|acreage",
    "mu": "",
}
AREA_ABBREVIATIONS = {
    "km2": r"sq\.?\s*kms?|km2",
    "mi2": r"sq\.?\s*mi(?:les?)?|mi2",
    "ft2": r"sq\.?\s*f(?:ee|oo)?t|ft2|sf",
    "yd2": r"sq\.?\s*yds?|yd2",
    "m2": r"sq\.?\s*m|m2",
    "ha": r"ha",
    "acres": r"ac",
    "mu": "",
}
LENGTH_UNITS = {
    "nmi": r"nautical\s+miles?",
    "km": r"kilomet(?:er|re)s?n?",
    "mi": r"miles?",
    "ft": r"feet|foot",
    "yd": r"yards?",
    "m": r"met(?:er|re)s?n?",
}
LENGTH_ABBREVIATIONS = {"nmi": r"nmi", "km": r"kms?", "mi": r"mi", "ft": r"ft", "yd": r"yds?", "m": r"m"}
# Units people ask for that the measuring tools do not give (read, so the plan says so).
OTHER_UNITS = (
    r"square\s+(?:inch(?:es)?|centimet(?:er|re)s?|millimet(?:er|re)s?|chains?|rods?)|inch(?:es)?|centimet(?:er|re)s?|"
    r"millimet(?:er|re)s?|rods?|perches|chains|furlongs?|leagues?|roods?|morgen|dunams?|donums?|arpents?|tsubo|"
    r"cm2|mm2|cm|mm"
)
# Before an output unit: a word ('in', 'as'), then an optional article ('the'); or a mark ('(').
UNIT_CUE_WORDS = r"in|as|to|into|units?"
UNIT_CUE_ARTICLES = r"the\s+"
UNIT_CUE_MARKS = r"\(\s*"
# Question words an unknown unit may follow ('多少…'); none in English.
UNIT_QUESTIONS: tuple[str, ...] = ()
