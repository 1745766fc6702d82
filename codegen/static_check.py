"""Layer (a) of the sandbox: an ast check that refuses dangerous code before it runs."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from .policy import (
    ALLOWED_IMPORTS,
    ENV_FORBIDDEN_MARKERS,
    FORBIDDEN_ATTRIBUTES,
    FORBIDDEN_CALLS,
    FORBIDDEN_MODULES,
    OS_FORBIDDEN,
    SUBMODULE_EXCEPTIONS,
)

# Calls whose first argument is a path: checked when it is a constant (URLs, /vsi paths, outside the work dir).
_PATH_CALLS = {
    "open", "to_file", "to_csv", "savefig", "write_text", "write_bytes", "to_parquet", "to_json", "to_excel",
    "read_file", "read_csv", "read_excel", "read_json", "read_parquet", "read_table", "read_dataframe", "loadtxt",
    "genfromtxt", "load", "fromfile", "imread", "imsave", "read_text", "read_bytes", "ZipFile", "GzipFile", "glob",
    "iglob", "remove", "unlink", "rmdir", "removedirs", "mkdir", "makedirs", "listdir", "scandir", "walk", "chdir",
    "chmod", "lchmod", "chown", "rename", "renames", "replace", "symlink", "link", "truncate", "utime", "mkfifo",
    "mknod", "rmtree", "copyfile", "copytree", "copy2", "move", "make_archive", "unpack_archive", "readlink",
}  # fmt: skip


@dataclass
class Finding:
    """One reason the code is refused: the line and what is wrong there."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def check_code(code: str, work_dir: str | Path | None = None) -> list[Finding]:
    """Every policy violation found in `code` (an empty list means the code may run)."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        line = (exc.text or "").strip()
        return [Finding(exc.lineno or 0, f"SyntaxError: {exc.msg}" + (f" in `{line}`" if line else ""))]
    checker = _Checker(Path(work_dir).resolve() if work_dir else None)
    checker.visit(tree)
    return checker.findings


def describe(findings: list[Finding]) -> str:
    """One plain-text refusal message for the model and the user."""
    lines = [str(f) for f in findings[:8]]
    more = f" (and {len(findings) - 8} more)" if len(findings) > 8 else ""
    return "The sandbox refused the code before running it: " + "; ".join(lines) + more


class _Checker(ast.NodeVisitor):
    def __init__(self, work_dir: Path | None):
        self.work_dir = work_dir
        self.findings: list[Finding] = []
        self.aliases: dict[str, str] = {}  # `import scipy as sp` -> {"sp": "scipy"}

    def _add(self, node: ast.AST, message: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 0), message))

    def _check_module(self, node: ast.AST, name: str) -> None:
        top = name.split(".")[0]
        if any(part.startswith("_") for part in name.split(".")):
            self._add(node, f"import of '{name}' is not allowed (private module)")
        elif top in FORBIDDEN_MODULES:
            self._add(node, f"import of '{name}' is not allowed (no OS, network, process or interpreter access)")
        elif top not in ALLOWED_IMPORTS:
            allowed = ", ".join(sorted(m for m in ALLOWED_IMPORTS if m[0].isalpha())[:12])
            self._add(node, f"import of '{name}' is not allowed; use the allowed packages ({allowed}, ...)")

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802 - ast visitor naming
        for alias in node.names:
            self._check_module(node, alias.name)
            self.aliases[alias.asname or alias.name.split(".")[0]] = alias.name.split(".")[0]
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        if node.level:
            self._add(node, "relative imports are not allowed")
        else:
            self._check_module(node, node.module or "")
        exceptions = SUBMODULE_EXCEPTIONS.get((node.module or "").split(".")[0], frozenset())
        for alias in node.names:
            if (node.module or "").split(".")[0] == "os" and alias.name in OS_FORBIDDEN:
                self._add(node, f"os.{alias.name} is not allowed (no processes, signals or privilege changes)")
            if alias.name in exceptions:
                continue
            if alias.name in FORBIDDEN_MODULES or alias.name.startswith("_") or alias.name == "*" and node.level:
                self._add(node, f"importing '{alias.name}' from '{node.module}' is not allowed")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:  # noqa: N802
        if node.id.startswith("__") and node.id.endswith("__") and node.id not in ("__name__",):
            self._add(node, f"the name '{node.id}' is not allowed (interpreter internals)")
        elif node.id in FORBIDDEN_CALLS and isinstance(node.ctx, ast.Load):
            self._add(node, f"'{node.id}' is not allowed in generated code")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        attr = node.attr
        if attr in OS_FORBIDDEN and self._root(node) == "os":
            self._add(node, f"os.{attr} is not allowed (no processes, signals or privilege changes)")
        elif attr.startswith("_"):
            self._add(node, f"access to the private attribute '.{attr}' is not allowed")
        elif attr in FORBIDDEN_MODULES and not self._is_exception(node):
            self._add(node, f"reaching the module '{attr}' through an attribute is not allowed")
        elif attr in FORBIDDEN_ATTRIBUTES:
            self._add(node, f"the attribute '.{attr}' is not allowed (interpreter or process internals)")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name == "getattr" and node.args[1:]:
            key = node.args[1]
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and not key.value.startswith("_")):
                self._add(node, "getattr() is only allowed with a constant, public attribute name")
        if name in _PATH_CALLS or (name == "Path" and isinstance(func, ast.Name)):
            self._check_path_arg(node, name)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:  # noqa: N802
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and key.value.startswith("__"):
            self._add(node, f"the key '{key.value}' is not allowed (interpreter internals)")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:  # noqa: N802
        for target in node.targets:
            self._check_environ(target)
        self.generic_visit(node)

    def _check_environ(self, target: ast.AST) -> None:
        """`os.environ['GDAL_HTTP_PROXY'] = ...` and the like: settings that reopen the network or load code."""
        if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute)):
            return
        key = target.slice
        if target.value.attr == "environ" and isinstance(key, ast.Constant) and isinstance(key.value, str):
            if any(marker in key.value.upper() for marker in ENV_FORBIDDEN_MARKERS):
                self._add(target, f"setting the environment variable '{key.value}' is not allowed")

    def _root(self, node: ast.Attribute) -> str:
        """The module an attribute chain starts from (`import numpy as np`: np.x.y -> 'numpy')."""
        base = node.value
        while isinstance(base, ast.Attribute):
            base = base.value
        return self.aliases.get(base.id, base.id) if isinstance(base, ast.Name) else ""

    def _is_exception(self, node: ast.Attribute) -> bool:
        """`scipy.signal` and the like: a clashing name reached from the package it really belongs to."""
        return node.attr in SUBMODULE_EXCEPTIONS.get(self._root(node), ())

    def _check_path_arg(self, node: ast.Call, name: str) -> None:
        if not node.args or self.work_dir is None:
            return
        arg = node.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            return
        text = arg.value
        if "://" in text or text.startswith("/vsi"):
            self._add(node, f"{name}() of a URL or virtual path ('{text}') is not allowed: use the input copies")
            return
        try:
            path = Path(text).expanduser()
            resolved = (path if path.is_absolute() else self.work_dir / path).resolve()
        except (OSError, RuntimeError):
            return
        if resolved != self.work_dir and self.work_dir not in resolved.parents:
            self._add(node, f"{name}() of '{text}' is outside the work dir; read and write files in the current folder")
