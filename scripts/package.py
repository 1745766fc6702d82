"""Build dist/geoclerk.zip: the installable plugin (folder geoclerk/), without tests, caches or dev files."""

from __future__ import annotations

import argparse
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLUGIN_DIR = "geoclerk"
# What the plugin needs at run time; everything else (tests, bench, scripts, data, CI, venv) stays out.
TOP_FILES = ("metadata.txt", "__init__.py", "errors.py", "compat.py", "lang.py", "README.md", "LICENSE")
TOP_DIRS = (
    "geoclerk_plugin", "router", "planning", "reading", "languages", "model_text", "function_lib", "codegen", "agent",
    "cli", "i18n",
)  # fmt: skip
# dev/ (the router's corpus and its generator) is a development tool: the trained model in router/model/ is what runs.
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ruff_cache", ".mypy_cache", "tests", ".git", ".venv"}
SKIP_SUFFIXES = {".pyc", ".pyo", ".ts", ".orig", ".rej", ".swp", ".log"}
SKIP_NAMES = {".DS_Store", "Thumbs.db", ".gitignore", ".gitattributes"}


def plugin_files(root: Path = ROOT) -> list[Path]:
    """Every file that goes into the ZIP, relative to the repository root, in a stable order."""
    files = [root / name for name in TOP_FILES if (root / name).is_file()]
    for top in TOP_DIRS:
        base = root / top
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            rel = path.relative_to(root)
            if not path.is_file() or SKIP_DIRS.intersection(rel.parts):
                continue
            if path.suffix in SKIP_SUFFIXES or path.name in SKIP_NAMES:
                continue
            files.append(path)
    return [p.relative_to(root) for p in files]


def build(out: Path, root: Path = ROOT, compile_translations: bool = True) -> Path:
    """Write the ZIP; compiles the .qm files first so translations are always included."""
    if compile_translations:
        subprocess.run([sys.executable, str(root / "scripts" / "translations.py"), "--compile-only"], check=True)
    missing = [ts.with_suffix(".qm").name for ts in (root / "i18n").glob("*.ts") if not ts.with_suffix(".qm").exists()]
    if missing:
        raise SystemExit(f"Compiled translations missing: {', '.join(missing)}. Run `make translations`.")
    out.parent.mkdir(parents=True, exist_ok=True)
    files = plugin_files(root)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for rel in files:
            archive.write(root / rel, f"{PLUGIN_DIR}/{rel.as_posix()}")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=str(ROOT / "dist" / "geoclerk.zip"))
    args = parser.parse_args(argv)
    out = build(Path(args.out))
    with zipfile.ZipFile(out) as archive:
        count = len(archive.namelist())
    print(f"{out} ({out.stat().st_size / 1024:.0f} KiB, {count} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
