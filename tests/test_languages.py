"""A language is one folder (languages/<code>/): every language has the same modules and defines the same names.

Adding a language means filling one folder; this test lists what a language still lacks, by module and name.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from geoclerk import languages

ROOT = Path(languages.__file__).resolve().parent


def _names(code: str) -> set[str]:
    """'module.NAME' for every public constant of every module in languages/<code>/."""
    found = set()
    for path in sorted((ROOT / code).glob("*.py")):
        if path.stem == "__init__":
            continue
        module = importlib.import_module(f"geoclerk.languages.{code}.{path.stem}")
        found |= {f"{path.stem}.{name}" for name in vars(module) if name.isupper() and not name.startswith("_")}
    return found


def test_every_registered_language_has_a_folder_and_every_folder_is_registered():
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(languages.LANGUAGES) == set(languages.LEXICONS)


def test_every_language_defines_the_same_names():
    have = {code: _names(code) for code in languages.LANGUAGES}
    every = set().union(*have.values())
    lacking = {code: sorted(every - names) for code, names in have.items()}
    assert lacking == {code: [] for code in languages.LANGUAGES}, f"names a language lacks: {lacking}"
    assert len(every) > 20  # the lexicon's names and the readers' words, not an empty folder


def test_a_name_holds_the_same_kind_of_value_in_every_language():
    """A word list is a list in every language (sets, tuples and lists alike), a table a table, a pattern a string."""

    def kind(value):
        return "table" if isinstance(value, dict) else "text" if isinstance(value, str) else "words"

    kinds = {}
    for code in languages.LANGUAGES:
        for qualified in _names(code):
            module, name = qualified.split(".")
            value = getattr(importlib.import_module(f"geoclerk.languages.{code}.{module}"), name)
            kinds.setdefault(qualified, {})[code] = kind(value)
    mixed = {name: by_lang for name, by_lang in kinds.items() if len(set(by_lang.values())) > 1}
    assert not mixed, mixed


def test_the_tool_words_of_every_language_name_only_known_tools():
    from geoclerk.function_lib import load_registry

    known = set(load_registry().names())
    for module in languages.topic("tool_words"):
        assert len(module.TOOL_WORDS) > 50, module.__name__
        assert set(module.TOOL_WORDS) <= known, set(module.TOOL_WORDS) - known


def test_the_language_of_a_request():
    assert languages.detect_lang("buffer the schools by 500 m") == "en"
    assert languages.detect_lang("Puffer um die Schulen, 500 m") == "de"
    assert languages.detect_lang("zeige alle schulen mit mehr als 500 schuelern") == "de"  # two common words
    assert languages.detect_lang("学校周围500米的缓冲区") == "zh"
