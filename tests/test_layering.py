"""Layer 0 (router, function library, codegen, agent, cli core) never imports qgis."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYER0 = ["router", "function_lib", "codegen", "agent"]


def _layer0_files():
    yield ROOT / "lang.py"  # the core's message catalogue, used by every layer
    for folder in LAYER0:
        yield from sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", list(_layer0_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_layer0_module_has_no_qgis_import(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
            if node.level:
                names = ["." * node.level + (node.module or "")]
        for name in names:
            assert not name.startswith("qgis"), f"{path.name}:{node.lineno} imports {name}"
            assert "geoclerk_plugin" not in name, f"{path.name}:{node.lineno} imports the QGIS layer ({name})"


def test_layer0_imports_with_qgis_blocked():
    """Importing every layer-0 module works in a Python where `import qgis` fails."""
    modules = [
        ".".join(("geoclerk",) + p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in _layer0_files()
    ]
    code = (
        "import sys, importlib\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'qgis' or name.startswith('qgis.'):\n"
        "            raise ImportError('qgis is blocked in this test')\n"
        "sys.meta_path.insert(0, Block())\n"
        f"mods = {modules!r}\n"
        "bad = []\n"
        "for m in mods:\n"
        "    if m.endswith('__main__'):\n"
        "        continue\n"
        "    try:\n"
        "        importlib.import_module(m)\n"
        "    except ImportError as e:\n"
        "        if 'qgis' in str(e): bad.append((m, str(e)))\n"
        "print(len(mods)); print(bad)\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert int(proc.stdout.splitlines()[0]) == len(modules) > 10
