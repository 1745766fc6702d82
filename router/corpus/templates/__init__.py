"""Hand-written request templates, one module per language and category, joined per language here."""

from types import SimpleNamespace

from . import de_function, de_other, en_data, en_geometry, en_other, en_processing, zh_function, zh_other


def _language(function_modules, other) -> SimpleNamespace:
    function = {}
    for mod in function_modules:
        for tool, entries in mod.FUNCTION.items():
            function.setdefault(tool, []).extend(entries)
    return SimpleNamespace(FUNCTION=function, CHAINS=other.CHAINS, CODEGEN=other.CODEGEN, CHAT=other.CHAT)


LANGUAGES = {
    "en": _language([en_data, en_geometry, en_processing], en_other),
    "zh": _language([zh_function], zh_other),
    "de": _language([de_function], de_other),
}
