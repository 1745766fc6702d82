"""Chinese numbers: 汉字 digits and the multipliers after Arabic digits ('10万'); reading/text.py reads 五百, 一千五百.

Chinese has no number words between spaces, so the word tables are empty.
"""

from __future__ import annotations

NUMBER_WORDS: dict[str, int] = {}
SCALES: dict[str, float] = {}
FRACTIONS: dict[str, float] = {}
ARTICLES: tuple[str, ...] = ()
SPACED_JOINERS: tuple[str, ...] = ()
GLUED_JOINERS: tuple[str, ...] = ()
WORD_LETTERS = ""
GLUED_MULTIPLIERS: tuple[str, ...] = ()
# 千 before 米 is a kilometre (千米), not a thousand.
MULTIPLIER_PATTERNS = (r"万", r"亿", r"千(?!米)")
MULTIPLIERS = {"千": 1000, "万": 1e4, "亿": 1e8}
DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
