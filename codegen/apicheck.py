"""Check a generated script's use of the installed APIs before it runs: undefined names, missing module attributes
and methods, unknown keyword arguments, input files that are not there, metre distances on layers in degrees.

Only what is certain is reported (a false finding would block correct code): a name the index does not know, a
value whose type is not tracked, a function that takes **kwargs, are all left alone.
"""

from __future__ import annotations

import ast
import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from . import api_index
from .api_types import Resolver, T

READ_CALLS = {"read_file", "read_csv", "read_excel", "read_json", "read_parquet", "read_table", "loadtxt",
              "genfromtxt", "read_dataframe"}  # fmt: skip
DISTANCE_CALLS = {"buffer": 0, "dwithin": 1, "simplify": 0}  # argument position of the distance
# The exceptions each kind of finding raises at run time: code inside a `try` that catches them handles them itself
# (`try: u = g.union_all() except AttributeError: u = g.unary_union`), so it is not reported.
RAISES = {"name": {"NameError"}, "attribute": {"AttributeError"}, "import": {"ImportError", "ModuleNotFoundError"},
          "keyword": {"TypeError"}, "property": {"TypeError"}, "degrees": set(),
          "file": {"OSError", "IOError", "FileNotFoundError", "DataSourceError", "RasterioIOError"}}  # fmt: skip
CATCH_ALL = {"Exception", "BaseException"}


@dataclass
class Finding:
    """One certain mistake: the line, what is wrong, and the index key of the API involved (for the docs)."""

    line: int
    message: str
    key: str | None = None

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def check(code: str, index: dict, files: list[str] | None = None, degrees: set[str] | None = None,
          earlier: tuple[str, ...] = ()) -> list[Finding]:  # fmt: skip
    """Every certain API mistake in `code`. `files`: the names in the work dir (None: not checked); `degrees`: the
    input files whose CRS is geographic; `earlier`: scripts already run in this sandbox (their names still exist)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []  # the security check reports syntax errors
    resolver = Resolver(tree, index, degrees or set())
    checker = _Checker(resolver, index, files, earlier)
    checker.visit(tree)
    seen, out = set(), []
    for finding in checker.findings:
        if (finding.line, finding.message) not in seen:
            seen.add((finding.line, finding.message))
            out.append(finding)
    return out


def precheck(code: str, python: str, work_dir, layer_infos=(), copies=None, earlier=()) -> list[Finding]:
    """`check` with the sandbox's index, the work dir's files and the layers' CRS; [] when no index can be built."""
    index = api_index.load(python)
    if index is None:
        return []
    work_dir = Path(work_dir)
    files = sorted(p.name for p in work_dir.iterdir()) if work_dir.is_dir() else None
    local = {str(Path(k)): Path(v).name for k, v in (copies or {}).items()}
    by_file: dict[str, list[bool]] = {}
    for info in layer_infos or ():
        name = local.get(str(Path(info.path))) if getattr(info, "path", None) else None
        if name:
            by_file.setdefault(name, []).append(bool(getattr(info, "crs_is_geographic", False)))
    degrees = {name for name, flags in by_file.items() if flags and all(flags)}
    return check(code, index, files, degrees, tuple(c for c in earlier if c))


def before_run(code: str, sandbox, work_dir, layer_infos=(), copies=None, earlier=(),
               docs: bool = True) -> tuple[str, list[str]] | None:  # fmt: skip
    """The repair loop's hook: (error, notes) for an attempt that must not run, or None to run it."""
    python = getattr(sandbox, "python", None)
    if not python:
        return None
    findings = precheck(code, python, work_dir, layer_infos, copies, earlier)
    if not findings:
        return None
    from . import docs_index

    return describe(findings), docs_index.notes(code, "", sandbox, findings) if docs else []


def describe(findings: list[Finding]) -> str:
    """The findings as the error of an attempt that was not run."""
    lines = "; ".join(str(f) for f in findings[:6])
    more = f" (and {len(findings) - 6} more)" if len(findings) > 6 else ""
    return f"The script was checked against the installed libraries before running and was not run: {lines}{more}"


def close(name: str, candidates) -> str:
    """' Did you mean: a, b?' for the nearest real names, or ''."""
    pool = sorted(set(candidates))
    near = difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
    low = name.lower()
    if not near:  # min_points -> min_samples: the same first word
        near = [c for c in pool if len(os.path.commonprefix([low, c.lower()])) >= 4][:3]
    if not near:  # population -> pop: one inside the other
        near = [c for c in pool if min(len(low), len(c)) >= 3 and (low in c.lower() or c.lower() in low)][:3]
    return f" Did you mean: {', '.join(near)}?" if near else ""


def _bound_names(tree: ast.AST) -> set[str] | None:
    """Every name the script binds anywhere (scopes flattened: a name bound anywhere counts as defined); None when a
    star import makes the set unknowable."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


class _Checker(ast.NodeVisitor):
    def __init__(self, resolver: Resolver, index: dict, files: list[str] | None, earlier: tuple[str, ...]):
        self.r = resolver
        self.index = index
        self.files = files
        self.findings: list[Finding] = []
        bound = _bound_names(resolver.tree)
        for old in earlier:
            try:
                more = _bound_names(ast.parse(old))
            except SyntaxError:
                continue
            bound = None if bound is None or more is None else bound | more
        self.defined = None if bound is None else bound | set(index.get("builtins", ())) | {"__name__"}
        self.called: set[int] = set()  # id() of Attribute nodes that are the function of a call
        self.handled: dict[int, set[str]] = {}  # id(node) -> the exceptions a `try` around it catches
        for node in ast.walk(resolver.tree):
            if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                caught = set().union(*(_caught(h) for h in node.handlers)) if node.handlers else set()
                for statement in node.body:
                    for inner in ast.walk(statement):
                        self.handled.setdefault(id(inner), set()).update(caught)
                if self.defined is not None and caught & (RAISES["name"] | CATCH_ALL):
                    # 'try: big / except NameError: ... / else: big.to_file(...)': a probed name may exist (an
                    # earlier request of the conversation left it), so it is no certain mistake anywhere
                    self.defined |= {n.id for st in node.body for n in ast.walk(st) if isinstance(n, ast.Name)}
        for node in ast.walk(resolver.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                self.called.add(id(node.func))

    def _add(self, node: ast.AST, message: str, key: str | None = None, kind: str = "attribute") -> None:
        caught = self.handled.get(id(node), set())
        if caught & (RAISES[kind] | CATCH_ALL):
            return
        self.findings.append(Finding(getattr(node, "lineno", 0), message, key))

    def visit_Name(self, node: ast.Name) -> None:  # noqa: N802 - ast visitor naming
        dunder = node.id.startswith("__")  # interpreter internals: the security check's business
        if isinstance(node.ctx, ast.Load) and self.defined is not None and node.id not in self.defined and not dunder:
            candidates = self.defined - set(self.index.get("builtins", ()))
            self._add(node, f"name '{node.id}' is not defined.{close(node.id, candidates)}", kind="name")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:  # noqa: N802
        module = self.index["modules"].get(node.module or "")
        if module and not module["open"] and not node.level:
            for alias in node.names:
                if alias.name != "*" and alias.name not in module["attrs"]:
                    self._add(node, f"cannot import name '{alias.name}' from '{node.module}'."
                              f"{close(alias.name, _public(module['attrs']))}", kind="import")  # fmt: skip

    def visit_Import(self, node: ast.Import) -> None:  # noqa: N802
        for alias in node.names:
            parts = alias.name.split(".")
            for i in range(1, len(parts)):
                parent = self.index["modules"].get(".".join(parts[:i]))
                if parent and not parent["open"] and parts[i] not in parent["attrs"]:
                    hint = close(parts[i], _public(parent["attrs"]))
                    self._add(node, f"no module named '{alias.name}'.{hint}", kind="import")
                    break

    def visit_Attribute(self, node: ast.Attribute) -> None:  # noqa: N802
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return
        base = self.r.type_of(node.value)
        if base is None:
            return
        if base.kind == "module":
            module = self.index["modules"].get(base.name)
            if module and not module["open"] and node.attr not in module["attrs"]:
                self._add(node, f"module '{base.name}' has no attribute '{node.attr}'."
                          f"{close(node.attr, _public(module['attrs']))}")  # fmt: skip
            return
        entry = self.index["objects"].get(base.name) or {}
        attrs = entry.get("attrs")
        if attrs is None:
            return
        label = entry.get("name", base.name).split(".")[-1]
        called = id(node) in self.called
        if node.attr in attrs:
            if base.kind == "inst" and called and attrs[node.attr] == "property":
                self._add(node, f"{label}.{node.attr} is a property, not a method: write .{node.attr} without "
                          "the parentheses.", f"{base.name}.{node.attr}", "property")  # fmt: skip
            return
        hint = close(node.attr, attrs)
        if base.kind == "class" and not entry.get("meta_getattr"):
            self._add(node, f"{label} has no attribute '{node.attr}'.{hint}", base.name)
        elif base.kind == "inst" and (called or not entry.get("instance_dict")):
            what = "method" if called else "attribute"
            self._add(node, f"a {label} has no {what} '{node.attr}'.{hint}", base.name)

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802
        self.generic_visit(node)
        target = self.r.type_of(node.func)
        if target is not None and target.kind in ("func", "method", "class"):
            self._check_keywords(node, target.name)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in READ_CALLS or (name == "open" and _reads(node)):
            self._check_file(node)
        if isinstance(node.func, ast.Attribute) and name in DISTANCE_CALLS:
            self._check_degrees(node, name)

    def _check_keywords(self, node: ast.Call, key: str) -> None:
        entry = self.index["objects"].get(key) or {}
        if "params" not in entry or entry.get("varkw"):
            return
        label = entry.get("name", key).split(".")[-1]
        for kw in node.keywords:
            if kw.arg is not None and kw.arg not in entry["params"]:
                self._add(kw if hasattr(kw, "lineno") else node,
                          f"{label}() has no keyword argument '{kw.arg}'.{close(kw.arg, entry['params'])} "
                          f"Signature: {entry.get('sig', '')}", key, "keyword")  # fmt: skip

    def _check_file(self, node: ast.Call) -> None:
        """A constant relative path that is not in the work dir and that the script never writes."""
        if self.files is None or not node.args:
            return
        path = self.r.constant(node.args[0])
        if not path or not path.strip():
            return
        if Path(path).is_absolute() or "/" in path or "\\" in path or "://" in path or path.startswith("/vsi"):
            return  # folders and absolute paths: the security check and the run judge those
        if path in self.files or self.r.mentioned_elsewhere(path, node):
            return
        data = [f for f in self.files if not f.startswith(".")]
        self._add(node, f"the file '{path}' is not in the current folder.{close(path, data)} "
                  f"Files there: {', '.join(data[:12]) or '(none)'}.", kind="file")  # fmt: skip

    def _check_degrees(self, node: ast.Call, name: str) -> None:
        """buffer(500) on a layer still in degrees: the distance would be 500 degrees, not metres."""
        base = self.r.type_of(node.func.value)
        if base is None or not base.degrees:
            return
        position = DISTANCE_CALLS[name]
        value = node.args[position] if len(node.args) > position else None
        if value is None:
            value = next((k.value for k in node.keywords if k.arg == "distance"), None)
        number = value.value if isinstance(value, ast.Constant) else None
        if isinstance(number, (int, float)) and not isinstance(number, bool) and abs(number) >= 1:
            self._add(node, f"{name}({number}) on a layer whose CRS is geographic: the distance is in degrees "
                      f"there ({number} degrees is about {abs(number) * 111:.0f} km). Reproject first, e.g. "
                      "gdf = gdf.to_crs(gdf.estimate_utm_crs()), then use metres.", kind="degrees")  # fmt: skip


def _caught(handler: ast.ExceptHandler) -> set[str]:
    """The exception names a handler catches (a bare `except:` catches everything)."""
    if handler.type is None:
        return set(CATCH_ALL)
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "") for t in types}


def _public(attrs) -> list[str]:
    return [a for a in attrs if not a.startswith("_")]


def _reads(node: ast.Call) -> bool:
    mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
    if mode is None:
        return True
    return (
        isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "r" in mode.value and "+" not in mode.value
    )


__all__ = ["Finding", "T", "check", "precheck", "before_run", "describe", "close"]
