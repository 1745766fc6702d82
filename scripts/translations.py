"""Keep the translations in step with the code: i18n/*.ts with every tr("...") in geoclerk_plugin/ (compiled to .qm
with lrelease), and the core's i18n/core_*.json with every tr("...") of the no-qgis core (lang.py) and every
core_tr("...") of the QGIS adapters that write core messages."""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "geoclerk_plugin"
# Layer 0, whose messages go through lang.tr().
CORE = (
    "languages", "reading", "planning", "router", "model_text", "function_lib", "codegen", "agent", "cli", "errors.py",
)  # fmt: skip
I18N = ROOT / "i18n"
LOCALES = ("zh_CN", "de")
CONTEXT = "GeoClerk"


def _python_files(paths):
    for path in paths:
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def extract(folder: Path = SOURCES, names=("tr",), paths=None) -> dict[str, str]:
    """Every literal passed to one of `names`, mapped to the first file:line that uses it (sorted by text)."""
    found: dict[str, str] = {}
    for path in _python_files(paths if paths is not None else [folder]):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in names
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.setdefault(node.args[0].value, f"{path.relative_to(ROOT).as_posix()}:{node.lineno}")
    return dict(sorted(found.items()))


def extract_core() -> dict[str, str]:
    """The core's messages: tr() in the no-qgis core, core_tr() in the QGIS adapters."""
    found = extract(paths=[ROOT / p for p in CORE], names=("tr",))
    for text, where in extract(SOURCES, names=("core_tr",)).items():
        found.setdefault(text, where)
    return dict(sorted(found.items()))


def core_path(locale: str) -> Path:
    return I18N / f"core_{locale}.json"


def read_core(locale: str) -> dict[str, str]:
    """English template -> translation ('' when unfinished) of the core's table."""
    path = core_path(locale)
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def update_core(locales=LOCALES) -> dict[str, list[str]]:
    """Rewrite each core table with the current templates (keeping translations); returns unfinished per locale."""
    sources = extract_core()
    unfinished = {}
    for locale in locales:
        done = read_core(locale)
        table = {s: done.get(s, "") for s in sources}
        core_path(locale).write_text(json.dumps(table, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        unfinished[locale] = [s for s in sources if not table[s]]
    return unfinished


def read_ts(path: Path) -> dict[str, str]:
    """source -> translation ('' when unfinished) from a .ts file."""
    if not path.exists():
        return {}
    result = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source") or ""
        node = message.find("translation")
        done = node is not None and node.get("type") not in ("unfinished", "obsolete")
        result[source] = (node.text or "") if done else ""
    return result


def write_ts(path: Path, locale: str, sources: dict[str, str], translations: dict[str, str]) -> None:
    root = ET.Element("TS", version="2.1", language=locale)
    context = ET.SubElement(root, "context")
    ET.SubElement(context, "name").text = CONTEXT
    for source, where in sources.items():
        message = ET.SubElement(context, "message")
        file, line = where.rsplit(":", 1)
        ET.SubElement(message, "location", filename=f"../{file}", line=line)
        ET.SubElement(message, "source").text = source
        node = ET.SubElement(message, "translation")
        text = translations.get(source, "")
        if text:
            node.text = text
        else:
            node.set("type", "unfinished")
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def update(locales=LOCALES) -> dict[str, list[str]]:
    """Rewrite each .ts with the current strings (keeping translations); returns unfinished per locale."""
    sources = extract()
    unfinished = {}
    for locale in locales:
        path = I18N / f"geoclerk_{locale}.ts"
        translations = read_ts(path)
        write_ts(path, locale, sources, translations)
        unfinished[locale] = [s for s in sources if not translations.get(s)]
    return unfinished


def lrelease_binary() -> str:
    for name in ("lrelease", "lrelease-qt5", "lrelease-qt6", "/usr/lib/qt5/bin/lrelease"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("lrelease is missing. Install it with: apt-get install qttools5-dev-tools")


def compile_all() -> list[Path]:
    binary = lrelease_binary()
    built = []
    for ts in sorted(I18N.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        subprocess.run([binary, "-silent", str(ts), "-qm", str(qm)], check=True)
        built.append(qm)
    return built


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--compile-only", action="store_true", help="only build the .qm files")
    parser.add_argument("--check", action="store_true", help="fail when a string is untranslated")
    args = parser.parse_args(argv)
    if not args.compile_only:
        unfinished = update()
        core = update_core()
        failed = False
        for what, todo, total in (("Qt", unfinished, len(extract())), ("core", core, len(extract_core()))):
            for locale, missing in todo.items():
                print(f"{what} {locale}: {total - len(missing)} translated, {len(missing)} unfinished")
                for text in missing[:20]:
                    print(f"  unfinished: {text!r}")
                failed = failed or bool(missing)
        if args.check and failed:
            return 1
    for qm in compile_all():
        print(f"built {qm.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
