"""German CRS words (see languages/en/crs.py), on folded text."""

from __future__ import annotations

CRS_NAMES = {4326: r"geografische koordinaten"}
PROJECTION_WORDS = ""
ZONE_WORDS = ""
ZONE_SUFFIXES = ""
HEMISPHERES = r"nord|süd|sud"
SOUTH_STARTS = ("s",)
SOUTHERN = r"südhalbkugel"
CODE_MARKERS = r"\bnach|\bvon|\baus|\bzu|\bauf"
TARGET_CODE_WORDS = r"nach|auf|zu"
UNIT_WORDS = ""
SOURCE_WORDS = r"\bvon|\baus"
SOURCE_ARTICLES = r"der\s+|dem\s+"
SOURCE_NOUNS = ""
TARGET_WORDS = r"\bnach|\bzu|\bauf|\bins"
TARGET_ARTICLES = r"die\s+|das\s+|den\s+"
TARGET_NOUNS = r"koordinatensystem\s+"
