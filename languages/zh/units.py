"""Chinese unit words: distances ('五百米'), output units named alone ('面积（亩）'), the cues before a unit.

See languages/en/units.py.
"""

from __future__ import annotations

DISTANCE_UNITS = {
    "nmi": r"海里", "km": r"公里|千米", "mi": r"英里", "ft": r"英尺", "yd": r"码", "cm": "", "m": r"米|公尺",
}  # fmt: skip
AREA_UNITS = {
    "km2": r"平方公里|平方千米",
    "mi2": r"平方英里",
    "ft2": r"平方英尺|平方呎",
    "yd2": r"平方码",
    "m2": r"平方米|平方公尺",
    "ha": r"公顷",
    "acres": r"英亩",
    "mu": r"(?<!英)亩",
}
AREA_ABBREVIATIONS = {"km2": "", "mi2": "", "ft2": "", "yd2": "", "m2": "", "ha": "", "acres": "", "mu": ""}
LENGTH_UNITS = {"nmi": r"海里", "km": r"公里|千米", "mi": r"英里", "ft": r"英尺", "yd": r"英码", "m": r"公尺"}
LENGTH_ABBREVIATIONS = {"nmi": "", "km": "", "mi": "", "ft": "", "yd": r"码", "m": r"米"}
OTHER_UNITS = r"厘米|毫米|英寸|平方厘米|平方毫米|平方英寸|顷"
UNIT_CUE_WORDS = ""
UNIT_CUE_ARTICLES = ""
UNIT_CUE_MARKS = r"（\s*|以|按|单位(?:为|是)?[:：]?\s*"
# Question words an unknown unit may follow: '面积是多少平方英寸'.
UNIT_QUESTIONS = ("多少",)
