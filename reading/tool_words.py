"""What GIS users call each job, in every language: extra training rows so rare wordings still rank.

These are the toolbox's own vocabulary (QGIS menu names, ArcGIS and textbook terms and their translations),
written once for the product in languages/<code>/tool_words.py; the corpus supplies the full requests.
"""

from __future__ import annotations

from ..languages import topic

# Each tool's wordings in every language, in the order of LANGUAGES, as one '|'-separated string.
TOOL_WORDS = {
    tool: " | ".join(phrase for module in topic("tool_words") for phrase in module.TOOL_WORDS.get(tool, ()))
    for tool in topic("tool_words")[0].TOOL_WORDS
}


def tool_word_rows(known: set[str]) -> list[dict]:
    """One training row per wording, for the tools this registry has."""
    rows = []
    for tool, words in TOOL_WORDS.items():
        if tool in known:
            for phrase in (w.strip() for w in words.split("|")):
                rows.append(
                    {"text": phrase, "route": "function", "tool": tool, "layers": [], "weight": 0.7, "tool_only": True}
                )
    return rows
