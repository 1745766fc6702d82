"""English words of calculator expressions ('POP2020 divided by area', 'the ratio of a to b'): reading/calc.py."""

from __future__ import annotations

# Operator words per operator (symbols like '/', '*', 'x 100' are read for every language).
CALC_OPERATORS = {
    "/": r"divided by", "*": r"multiplied by|times", "+": r"plus|added to", "-": r"minus|less|subtract(?:ed)?",
}  # fmt: skip
# 'the ratio of A to B': the opening and the word between the two fields.
RATIO = r"(?:the\s+)?ratio (?:of|between)\s+"
RATIO_JOINERS = r"to"
# 'ndvi above 0.3 or below -0.1': conditions joined by OR.
OR_WORDS = r"or"
