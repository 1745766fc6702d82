"""Scan Python sources for what breaks under Qt6 (QGIS 4): direct Qt imports, unscoped enums, exec_(), moved classes,
and QGIS's own enum names that QGIS 4 drops.

Enum members are told apart from nested classes by asking the running Qt (through qgis.PyQt), so the scan is exact
for every name it can resolve: `Qt.AlignLeft` is a member of `Qt.AlignmentFlag` (unscoped: PyQt6 has only
`Qt.AlignmentFlag.AlignLeft`), `QSizePolicy.Policy` is a type. QGIS classes (qgis.core, qgis.gui, …) are asked the
same way: `QgsTask.CanCancel` is unscoped (`QgsTask.Flag.CanCancel`), and on a QGIS that has moved an enum to Qgis
(3.30+) `QgsWkbTypes.PointGeometry` resolves to `Qgis.GeometryType.Point`: the old name, which QGIS 4 drops, is flagged
with the new one (geoclerk_plugin/qgis_enums.py gives the new names on QGIS 3.22 too). A moved enum is only
recognised on a QGIS that has moved it: the scan is complete on the newest QGIS (make test-qgis NEW=3.44).
Run as a script to list the findings of a folder:
    .venv/bin/python -m geoclerk.tests.qt6_scan [PATH ...]
"""

from __future__ import annotations

import ast
import enum
import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {".venv", ".git", "build", "dist", "__pycache__", "data", "demo-output", "demo-output-model"}

DIRECT_QT = {"PyQt5", "PyQt6", "PySide2", "PySide6", "sip", "shiboken2", "shiboken6"}
# In QtWidgets under Qt5, in QtGui under Qt6: imported from QtGui first, QtWidgets only as the fallback.
MOVED_TO_QTGUI = {
    "QAction",
    "QActionGroup",
    "QShortcut",
    "QUndoCommand",
    "QUndoGroup",
    "QUndoStack",
    "QFileSystemModel",
}
# Gone from Qt6 (or from its PyQt6 bindings), with what replaces them.
REMOVED = {
    "QRegExp": "QRegularExpression",
    "QRegExpValidator": "QRegularExpressionValidator",
    "QDesktopWidget": "QGuiApplication.screens()",
    "QGLWidget": "QOpenGLWidget",
    "QTextCodec": "bytes.decode / QStringDecoder",
    "QSound": "QSoundEffect (QtMultimedia)",
}


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: [{self.rule}] {self.text}"


def _qt_object(module: str, name: str):
    """The object `from <module> import <name>` gives under the running Qt, or None when it does not exist."""
    try:
        return getattr(importlib.import_module(module), name)
    except ImportError:
        return None
    except AttributeError:
        try:
            return importlib.import_module(f"{module}.{name}")  # a submodule: from qgis.PyQt import QtCore
        except ImportError:
            return None


def _is_enum_type(obj) -> bool:
    kind = type(obj)
    return isinstance(obj, type) and (issubclass(obj, enum.Enum) or kind.__name__ == "enumtype")


def _is_enum_member(obj) -> bool:
    return isinstance(obj, enum.Enum) or type(type(obj)).__name__ == "enumtype"


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str):
        self.path = path
        self.findings: list[Finding] = []
        self.qt_names: dict[str, tuple[str, str]] = {}  # local name -> (qgis.PyQt module, name in it)
        self.fallbacks: set[int] = set()  # ids of QtWidgets imports that are the fallback of a QtGui import

    def add(self, node, rule: str, text: str) -> None:
        self.findings.append(Finding(self.path, node.lineno, rule, text))

    def visit_Try(self, node: ast.Try) -> None:
        from_gui = {
            alias.name
            for stmt in node.body
            if isinstance(stmt, ast.ImportFrom) and stmt.module == "qgis.PyQt.QtGui"
            for alias in stmt.names
        }
        catches_import_error = any(
            handler.type is not None and "ImportError" in ast.unparse(handler.type) for handler in node.handlers
        )
        if from_gui and catches_import_error:
            for handler in node.handlers:
                for stmt in handler.body:
                    if isinstance(stmt, ast.ImportFrom) and stmt.module == "qgis.PyQt.QtWidgets":
                        if {alias.name for alias in stmt.names} <= from_gui:
                            self.fallbacks.add(id(stmt))
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in DIRECT_QT:
                self.add(node, "direct-qt", f"import {alias.name}: import Qt through qgis.PyQt")
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if module.split(".")[0] in DIRECT_QT:
            self.add(node, "direct-qt", f"from {module} import …: import Qt through qgis.PyQt")
        if module.startswith("qgis."):  # Qt through qgis.PyQt, and QGIS's own classes
            for alias in node.names:
                if alias.name in REMOVED:
                    self.add(node, "removed", f"{alias.name} is gone in Qt6: use {REMOVED[alias.name]}")
                if module == "qgis.PyQt.QtWidgets" and alias.name in MOVED_TO_QTGUI and id(node) not in self.fallbacks:
                    self.add(
                        node,
                        "moved",
                        f"{alias.name} is in QtGui under Qt6: import it from qgis.PyQt.QtGui, "
                        "with qgis.PyQt.QtWidgets only as the ImportError fallback",
                    )
                self.qt_names[alias.asname or alias.name] = (module, alias.name)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == "exec_":
            self.add(node, "exec_", "exec_() is gone in PyQt6: call exec()")
        owner = self._resolve(node.value)
        if isinstance(owner, ModuleType):
            if owner.__name__.endswith(".QtWidgets") and node.attr in MOVED_TO_QTGUI:
                self.add(node, "moved", f"QtWidgets.{node.attr} is in QtGui under Qt6")
        elif owner is not None and self._is_qgis(node) and node.attr[:1].isupper():
            self._check_qgis_name(node, owner, node.attr)
        elif owner is not None and not _is_enum_type(owner) and node.attr[:1].isupper():
            self._check_member(node, ast.unparse(node.value), owner, node.attr)
        self.generic_visit(node)

    def _is_qgis(self, node: ast.Attribute) -> bool:
        """Whether the expression starts at a name imported from QGIS's own modules (not qgis.PyQt)."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        module = self.qt_names.get(getattr(root, "id", None), ("",))[0]
        return module.startswith("qgis.") and not module.startswith("qgis.PyQt")

    def _written(self, node: ast.Attribute) -> str:
        """The dotted name as written, with the imported alias replaced by the name it imports."""
        text = ast.unparse(node)
        root, _, rest = text.partition(".")
        return f"{self.qt_names[root][1]}.{rest}" if root in self.qt_names else text

    def _check_qgis_name(self, node: ast.Attribute, owner, attr: str) -> None:
        """A QGIS enum, enum member or moved enum named as QGIS 4 no longer has it: the name it has there."""
        member = getattr(owner, attr, None)
        if isinstance(member, enum.Enum):  # QGIS 3.30+: scoped Python enums, most of them on Qgis
            kept = f"{type(member).__qualname__}.{member.name}"
        elif _is_enum_member(member) and not isinstance(member, type):  # a sip enum: unscoped under PyQt5
            kind = type(member)
            inside = getattr(owner, kind.__qualname__.split(".")[-1], None) is kind and not _is_enum_type(owner)
            kept = f"{self._written(node)[: -len(attr) - 1]}.{kind.__qualname__.split('.')[-1]}.{attr}"
            kept = kept if inside else f"{kind.__qualname__}.{attr}"
        elif isinstance(member, type) and issubclass(member, enum.Enum):  # an enum type, maybe under an old name
            kept = member.__qualname__
        else:
            return
        if self._written(node) != kept:
            where = "geoclerk_plugin/qgis_enums.py has it for older QGIS"
            self.add(node, "qgis-enum", f"{ast.unparse(node)}: QGIS 4 names it {kept} ({where})")

    def _resolve(self, expr):
        """The Qt object an expression such as `Qt`, `QtCore.Qt` or `QDialog` names, when it names one."""
        if isinstance(expr, ast.Name) and expr.id in self.qt_names:
            module, name = self.qt_names[expr.id]
            obj = _qt_object(module, name)
            return obj if isinstance(obj, (type, ModuleType)) else None
        if isinstance(expr, ast.Attribute):
            parent = self._resolve(expr.value)
            if parent is not None and not _is_enum_type(parent):
                obj = getattr(parent, expr.attr, None)
                return obj if isinstance(obj, (type, ModuleType)) else None
        return None

    def _check_member(self, node, owner_text: str, owner, attr: str) -> None:
        member = getattr(owner, attr, None)
        if getattr(owner, "__name__", "") == "QVariant" and (
            attr == "Type" or member is None or type(member).__qualname__ == "QVariant.Type"
        ):
            self.add(node, "qvariant-type", f"{owner_text}.{attr}: QVariant.Type is gone in Qt6: use QMetaType.Type")
        elif member is None:
            self.add(node, "unscoped-enum", f"{owner_text}.{attr} does not exist in this Qt")
        elif _is_enum_member(member) and not isinstance(member, type):
            enum_name = type(member).__qualname__.split(".")[-1]
            self.add(node, "unscoped-enum", f"{owner_text}.{attr}: write {owner_text}.{enum_name}.{attr}")


def scan_source(source: str, path: str = "<string>") -> list[Finding]:
    scanner = _Scanner(path)
    scanner.visit(ast.parse(source))  # a Try is visited before its handlers: fallbacks are known in time
    return sorted(set(scanner.findings), key=lambda f: (f.path, f.line, f.rule, f.text))


def python_files(root: Path = ROOT) -> list[Path]:
    return sorted(
        path
        for path in root.rglob("*.py")
        if not any(part in SKIP_DIRS or part.startswith(".") for part in path.relative_to(root).parts[:-1])
    )


def scan_tree(root: Path = ROOT) -> list[Finding]:
    findings = []
    for path in python_files(root):
        findings += scan_source(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
    return findings


if __name__ == "__main__":
    targets = [Path(arg).resolve() for arg in sys.argv[1:]] or [ROOT]
    found = [finding for target in targets for finding in scan_tree(target)]
    print("\n".join(map(str, found)) or "clean")
    sys.exit(1 if found else 0)
