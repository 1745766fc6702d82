"""German unit words: distances with a number, output units named alone, and the cue words before a unit.

See languages/en/units.py; on folded text umlauts lose their dots and ß is ss ('quadratfuss').
"""

from __future__ import annotations

DISTANCE_UNITS = {
    "nmi": r"seemeilen?",
    "km": "",  # 'Kilometer(n)' is the English pattern
    "mi": r"meilen?",
    "ft": r"fuss|fuß",
    "yd": "",
    "cm": "",
    "m": "",
}
AREA_UNITS = {
    "km2": r"quadratkilomet\w*",
    "mi2": r"quadratmeile\w*",
    "ft2": r"quadratfuss\w*",
    "yd2": r"quadratyard\w*",
    "m2": r"quadratmet(?:er|re)\w*",
    "ha": r"hektar\w*",
    "acres": "",
    "mu": "",
}
AREA_ABBREVIATIONS = {"km2": "", "mi2": "", "ft2": "", "yd2": "", "m2": "", "ha": "", "acres": "", "mu": ""}
LENGTH_UNITS = {"nmi": r"seemeilen?", "km": "", "mi": r"meilen?", "ft": r"fuss", "yd": "", "m": ""}
LENGTH_ABBREVIATIONS = {"nmi": "", "km": "", "mi": "", "ft": "", "yd": "", "m": ""}
OTHER_UNITS = r"zoll|zentimeter\w*|millimeter\w*"
UNIT_CUE_WORDS = r"auf|als|einheit"
UNIT_CUE_ARTICLES = r"den\s+"
UNIT_CUE_MARKS = ""
UNIT_QUESTIONS: tuple[str, ...] = ()
