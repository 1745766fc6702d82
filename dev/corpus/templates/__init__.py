"""Hand-written request templates, one module per language and category, joined per language here."""

from types import SimpleNamespace

from . import (
    de_extra,
    de_function,
    de_imagery,
    de_more,
    de_other,
    de_query,
    en_data,
    en_extra,
    en_geometry,
    en_imagery,
    en_more,
    en_open,
    en_other,
    en_processing,
    en_qgis,
    en_query,
    en_varied,
    zh_extra,
    zh_function,
    zh_imagery,
    zh_more,
    zh_other,
    zh_query,
)


def _language(function_modules, other_modules) -> SimpleNamespace:
    function: dict[str, list] = {}
    for mod in function_modules:
        for tool, entries in mod.FUNCTION.items():
            function.setdefault(tool, []).extend(entries)
    lists = {key: [t for mod in other_modules for t in getattr(mod, key)] for key in ("CHAINS", "CODEGEN", "CHAT")}
    return SimpleNamespace(FUNCTION=function, **lists)


LANGUAGES = {
    "en": _language(
        [en_data, en_geometry, en_processing, en_extra, en_varied, en_qgis, en_query, en_imagery],
        [en_other, en_more, en_open, en_imagery],
    ),
    "zh": _language([zh_function, zh_more, zh_extra, zh_query, zh_imagery], [zh_other, zh_more, zh_extra, zh_imagery]),
    "de": _language([de_function, de_more, de_extra, de_query, de_imagery], [de_other, de_more, de_extra, de_imagery]),
}
