"""The core's messages in the user's language: English templates in, German or Chinese out (no Qt, no qgis).

Layer-0 code writes `tr("There is no layer called '{name}'.").format(name=name)`, as the plugin does with Qt's
tr(); the tables are i18n/core_<lang>.json (English template -> translation), kept in step with the code by
scripts/translations.py. The plugin sets the language from QGIS's locale, the command line from --lang or the
environment. English is the default, and an untranslated template stays English.
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

I18N_DIR = Path(__file__).resolve().parent / "i18n"
LANGS = ("en", "de", "zh_CN")
ENV_VARS = ("GEOCLERK_LANG", "LC_ALL", "LC_MESSAGES", "LANG")  # the first one set wins

# Script and region names QGIS and systems give for Simplified Chinese: all use the zh_CN catalogue.
ALIASES = {"zh": "zh_CN", "zh_hans": "zh_CN", "zh_sg": "zh_CN", "zh_hans_cn": "zh_CN", "zh_hans_sg": "zh_CN"}

_current = "en"


def candidates(locale: str | None) -> list[str]:
    """Catalogue names to try for a locale, best first: 'zh-Hans' -> ['zh_Hans', 'zh_CN', 'zh']."""
    norm = (locale or "").split(".")[0].split("@")[0].replace("-", "_")
    found = [norm, ALIASES.get(norm.lower(), ""), norm.split("_")[0]]
    return [c for i, c in enumerate(found) if c and c not in found[:i]]


def catalogue(locale: str | None) -> str:
    """The core language for a locale ('de_DE' -> 'de', 'zh-Hans' -> 'zh_CN'); 'en' for any other."""
    for name in candidates(locale):
        if name in LANGS:
            return name
    return "en"


def set_language(locale: str | None) -> str:
    """Make `locale` the language of core messages from now on; returns the catalogue used."""
    global _current
    _current = catalogue(locale)
    return _current


def language() -> str:
    """The current language of core messages: 'en', 'de' or 'zh_CN'."""
    return _current


def language_from_env(environ=None) -> str | None:
    """The locale the environment asks for (GEOCLERK_LANG, then the POSIX variables), or None."""
    environ = os.environ if environ is None else environ
    for name in ENV_VARS:
        value = environ.get(name)
        if value:
            return value
    return None


def say_lang(request: str) -> str:
    """The language of planning/say.py's sentences: the user's when it is not English, else the request's own."""
    if _current != "en":
        return "zh" if _current == "zh_CN" else _current
    from .languages import detect_lang

    return detect_lang(request) if request else "en"


@cache
def table(lang: str) -> dict[str, str]:
    """English template -> translation for one language ({} for English or a missing file)."""
    path = I18N_DIR / f"core_{lang}.json"
    if lang == "en" or not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def tr(template: str, lang: str | None = None) -> str:
    """`template` in the current language (or in `lang`: a locale or 'zh'); format it afterwards, as with Qt's tr()."""
    return table(catalogue(lang) if lang else _current).get(template) or template
