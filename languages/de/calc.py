"""German words of calculator expressions ('Einwohner geteilt durch Fläche'), read by reading/calc.py."""

from __future__ import annotations

CALC_OPERATORS = {"/": r"geteilt durch|durch", "*": r"mal", "+": "", "-": r"abzüglich|abzuglich"}
RATIO = ""
RATIO_JOINERS = r"zu"
OR_WORDS = r"oder"
