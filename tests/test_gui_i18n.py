"""Translations: every tr() string is translated for zh_CN and de, and the UI follows the user's locale."""

from __future__ import annotations

import importlib.util

import pytest
from geoclerk.geoclerk_plugin import i18n
from geoclerk.tests.test_gui_support import ROOT, isolated_settings  # noqa: F401

spec = importlib.util.spec_from_file_location("ga_translations", ROOT / "scripts" / "translations.py")
translations = importlib.util.module_from_spec(spec)
spec.loader.exec_module(translations)


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """The .qm files are build products (gitignored); build them as `make translations` does."""
    return translations.compile_all()


@pytest.mark.parametrize("locale", ["zh_CN", "de"])
def test_every_string_is_translated(locale):
    sources = translations.extract()
    done = translations.read_ts(ROOT / "i18n" / f"geoclerk_{locale}.ts")
    missing = [s for s in sources if not done.get(s)]
    assert len(sources) > 50 and missing == []
    for source in sources:  # placeholders survive translation, or .format() would fail at run time
        for name in ("{names}", "{url}", "{model}", "{error}", "{path}", "{command}", "{route}", "{calls}"):
            assert (name in source) == (name in done[source]), (locale, source)


@pytest.mark.parametrize(
    ("locale", "send", "cancel", "hint_word"),
    [
        ("zh_CN", "发送", "取消", "缓冲"),
        ("de", "Senden", "Abbrechen", "puffern"),
        ("en_US", "Send", "Cancel", "buffer"),
    ],
)
def test_dock_follows_user_locale(qgis_iface, isolated_settings, locale, send, cancel, hint_word):  # noqa: F811
    from geoclerk import classFactory

    isolated_settings.setValue("locale/overrideFlag", True)
    isolated_settings.setValue("locale/userLocale", locale)
    plugin = classFactory(qgis_iface)
    try:
        assert (plugin.translation is not None) == (locale != "en_US")
        plugin.initGui()
        dock = plugin.ensure_dock()
        assert dock.send_button.text() == send
        assert dock.cancel_button.text() == cancel
        assert hint_word in dock.hint.text()
        chat = {"zh_CN": "GeoClerk 对话", "de": "GeoClerk-Chat"}.get(locale, "GeoClerk chat")
        assert plugin.actions[0].text() == chat
    finally:
        plugin.unload()
    assert i18n.tr("Send") == "Send"  # unload removed the translator


@pytest.mark.parametrize("locale", ["zh-Hans", "zh_Hans", "zh-Hans-CN", "zh_CN", "zh", "zh_SG"])
def test_simplified_chinese_names_find_the_chinese_catalogue(locale):
    # QGIS's Options offer 'zh-Hans'; the catalogue is zh_CN (issue 13: a Chinese QGIS showed an English dock)
    from geoclerk.geoclerk_plugin.i18n import qm_path

    path = qm_path(locale)
    assert path is not None and path.name == "geoclerk_zh_CN.qm"


@pytest.mark.parametrize("locale, name", [("de_DE", "geoclerk_de.qm"), ("de", "geoclerk_de.qm"), ("fr_FR", None)])
def test_other_locales(locale, name):
    from geoclerk.geoclerk_plugin.i18n import qm_path

    path = qm_path(locale)
    assert (path.name if path else None) == name
