"""Layer 0 (languages, reading, planning, router, function library, model text, codegen, agent) never imports qgis."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYER0 = ["languages", "reading", "planning", "router", "model_text", "function_lib", "codegen", "agent"]


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


# The project's own parts from the bottom up: a part imports only parts below it (lazy imports inside functions
# count too). languages/ holds every language's words; reading/ reads the request; planning/ builds the tier-0
# plan; router/ is the classifier; model_text/ is what a model reads and writes as text (agent/ and codegen/ use it).
RANKS = {
    "languages": 0, "lang": 1, "errors": 2, "compat": 2, "model_text": 2, "function_lib": 3, "reading": 4,
    "planning": 5, "router": 6, "codegen": 6, "agent": 7,
}  # fmt: skip


def _project_imports(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """(line, absolute module path inside the project) of every import in `path`, relative ones resolved."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    package = parts[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - node.level + 1]
            if node.module:
                found.append((node.lineno, base + tuple(node.module.split("."))))
            else:
                found += [(node.lineno, base + (a.name,)) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("geoclerk."):
            found.append((node.lineno, tuple(node.module.split(".")[1:])))
    return found


def _part_files():
    for part in RANKS:
        yield from [ROOT / f"{part}.py"] if (ROOT / f"{part}.py").is_file() else sorted((ROOT / part).rglob("*.py"))


@pytest.mark.parametrize("path", list(_part_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up(path):
    """reading/ never imports planning/ or router/, codegen/ never agent/, lang.py never the readers, and so on."""
    part = path.relative_to(ROOT).with_suffix("").parts[0]
    for line, module in _project_imports(path):
        other = module[0]
        if other != part and other in RANKS:
            assert RANKS[other] < RANKS[part], f"{path.relative_to(ROOT)}:{line} imports {'.'.join(module)}, above it"


@pytest.mark.parametrize("part", ["languages", "reading", "planning", "router", "agent"])
def test_no_circle_of_imports_inside_a_part(part):
    """No module of the part imports (even lazily) one that imports it back, directly or round a circle."""
    files = {p.relative_to(ROOT).with_suffix("").parts: p for p in sorted((ROOT / part).rglob("*.py"))}
    modules = {k[:-1] if k[-1] == "__init__" else k: p for k, p in files.items()}
    edges = {m: set() for m in modules}
    for mod, path in modules.items():
        for _, target in _project_imports(path):
            while target and target not in modules:
                target = target[:-1]  # 'from .text import fold' names the module text
            if target and target != mod and target != (part,):
                edges[mod].add(target)

    def circle_from(start, node, seen):
        for nxt in edges[node]:
            if nxt == start:
                return [node, nxt]
            if nxt not in seen:
                seen.add(nxt)
                rest = circle_from(start, nxt, seen)
                if rest:
                    return [node, *rest]
        return None

    for mod in modules:
        circle = circle_from(mod, mod, {mod})
        assert circle is None, " -> ".join(".".join(m) for m in circle)
