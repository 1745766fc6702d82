"""Chinese words of calculator expressions ('人口除以面积'), read by reading/calc.py."""

from __future__ import annotations

CALC_OPERATORS = {"/": r"除以", "*": r"乘以|乘", "+": r"加上|加", "-": r"减去|减"}
RATIO = ""
RATIO_JOINERS = r"与|和"
OR_WORDS = r"或"
