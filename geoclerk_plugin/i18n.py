"""The one tr() helper and the translator the plugin installs for the user's locale."""

from __future__ import annotations

from pathlib import Path

from qgis.PyQt.QtCore import QCoreApplication, QTranslator

from ..lang import candidates, set_language

CONTEXT = "GeoClerk"
I18N_DIR = Path(__file__).resolve().parent.parent / "i18n"

_installed: list[QTranslator] = []


def tr(text: str) -> str:
    """Translate a user-visible string (one context for the whole plugin)."""
    return QCoreApplication.translate(CONTEXT, text)


def user_locale() -> str:
    """The locale QGIS uses for its UI: locale/userLocale when overridden, else the system's."""
    from qgis.core import QgsSettings
    from qgis.PyQt.QtCore import QLocale

    settings = QgsSettings()
    if settings.value("locale/overrideFlag", False, type=bool) or settings.value("locale/userLocale", ""):
        value = settings.value("locale/userLocale", "") or ""
        if value:
            return str(value)
    return QLocale.system().name()


def qm_path(locale: str) -> Path | None:
    """The compiled translation for a locale (zh_CN, zh-Hans, de_DE -> de), or None when there is none."""
    for candidate in candidates(locale):
        path = I18N_DIR / f"geoclerk_{candidate}.qm"
        if path.exists():
            return path
    return None


def install_translator(locale: str | None = None) -> str | None:
    """Install the translator for `locale` (default: the user's) and set the core's messages to the same language;
    returns the .qm used, if any."""
    remove_translator()
    locale = locale or user_locale()
    set_language(locale)
    path = qm_path(locale)
    if path is None:
        return None
    translator = QTranslator()
    if not translator.load(str(path)):
        return None
    QCoreApplication.installTranslator(translator)
    _installed.append(translator)
    return str(path)


def remove_translator() -> None:
    """Remove the translator this plugin installed (on unload or before switching locale); core messages are
    English again."""
    set_language("en")
    while _installed:
        QCoreApplication.removeTranslator(_installed.pop())
