"""Everything language-specific, one folder per language (en/, de/, zh/), the same modules and names in each.

Each language's lexicon.py defines sets (latin languages) or tuples of strings (Chinese, matched as substrings):
- FILLERS: closed-class words a request may carry without changing its meaning (articles, pronouns, politeness,
  generic verbs and nouns). Never a negation, a quantifier or a role marker: those change the answer.
- NEGATIONS, EACH (per-feature quantifiers), SOURCE_MARKERS / TARGET_MARKERS (CRS roles);
- SAVE_WORDS and FORMAT_WORDS (an output clause), COMPARE_WORDS (claimed with a filter expression), AGG_WORDS
  (with a statistic), CRS_WORDS (with a CRS), MEASURE_WORDS, DISTANCE_WORDS (with a distance);
- TOOL_CUES: extra words per tool, beside the tool's own keywords;
- INDEFINITE: indefinite pronouns (anything, irgendetwas, 任何), never a condition's value;
- TRAIT_VERBS: verb stems that name a trait's own work ('… and merge them' after a dissolve).
- REFERENCES: words standing for a layer said before ('them', 'das Ergebnis', '它们'); REFERENCE_ROLES: what makes
  such a word a layer's role ('in them', 'innerhalb davon', '它们中'). See router/references.py.
- YEAR_WORDS: the word of a calendar year beside its number ('year 2025', 'Jahr 2025', '2025年').
- REPROJECT_VERBS: the CRS words that move the layer itself into the CRS, claimed only by a tool that reprojects.
- SAME: 'do the same for the cafes', 'mach dasselbe für', '同样' (planning/followup.py).
- SELECT_VERBS, LAYER_WORDS: 'select the districts with …' is a selection on the districts unless a layer-making
  word ('extract', 'save', 'new layer') asks for a layer (planning/followup.py wants_selection).

Beside lexicon.py, each folder holds the words that used to be written into the readers' patterns, one module
per topic (script.py: what tells the language apart); tests/test_languages.py lists the names a language lacks.
Adding a language: copy en/, translate every list, register it in LEXICONS and LANGUAGES below.
"""

from __future__ import annotations

import importlib
import re

from .de import lexicon as de
from .de import script as de_script
from .en import lexicon as en
from .zh import lexicon as zh
from .zh import script as zh_script

LANGUAGES = ("en", "de", "zh")
LEXICONS = {"en": en, "de": de, "zh": zh}
NAMES = (
    "FILLERS", "NEGATIONS", "EACH", "SOURCE_MARKERS", "TARGET_MARKERS", "SAVE_WORDS", "COMPARE_WORDS", "AGG_WORDS",
    "CRS_WORDS", "MEASURE_WORDS", "DISTANCE_WORDS", "FORMAT_WORDS", "TOOL_CUES", "TRAIT_VERBS", "INDEFINITE",
    "REFERENCES", "REFERENCE_ROLES", "SAME", "SELECT_VERBS", "LAYER_WORDS", "REPROJECT_VERBS",
    "YEAR_WORDS",
)  # fmt: skip


def lexicon(lang: str):
    """The module of `lang` (English when the language has none)."""
    return LEXICONS.get(lang, en)


def words_of(name: str, langs=("en", "de", "zh")) -> set[str]:
    """One list of several languages together (a German request often carries English GIS words)."""
    out: set[str] = set()
    for lang in langs:
        out |= set(getattr(LEXICONS[lang], name))
    return out


def topic(name: str) -> list:
    """The module `name` of every language (languages/<code>/<name>.py), in the order of LANGUAGES."""
    return [importlib.import_module(f"{__name__}.{code}.{name}") for code in LANGUAGES]


CJK = re.compile(zh_script.LETTERS)  # a text with these characters counts them, not words
_DE_LETTERS = re.compile(de_script.LETTERS)


def detect_lang(text: str) -> str:
    """'zh' when the text has CJK characters, 'de' on German cues, else 'en'."""
    if CJK.search(text):
        return "zh"
    low = text.lower()
    if _DE_LETTERS.search(low):
        return "de"
    words = set(re.findall(r"[a-z]+", low))
    return "de" if len(words & de_script.CUE_WORDS) >= 2 else "en"
