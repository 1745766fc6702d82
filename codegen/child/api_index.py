"""Run with the sandbox's Python: introspect its packages and write the API index (names, signatures, docs) as JSON.

Usage: python api_index.py OUT.json MODULE [MODULE ...]. Only the standard library is imported here besides the
modules named; a module that fails to import is left out (the checker then says nothing about it).
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import json
import pkgutil
import sys
import textwrap
import types

DOC_LINES = 4
DOC_CHARS = 360


def main(argv: list[str]) -> int:
    out, names = argv[0], argv[1:]
    index = {"python": sys.version.split()[0], "builtins": sorted(dir(builtins)), "modules": {}, "objects": {}}
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - not installed or broken here: the checker stays silent about it
            continue
        index["modules"][name] = _module_entry(module, name, index["objects"])
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(index, fh, separators=(",", ":"))
    return 0


def _module_entry(module, name: str, objects: dict) -> dict:
    """Every public name of a module (with its submodules, imported or not) and the key of what it names."""
    attrs = {}
    for attr in dir(module):
        if attr.startswith("_"):
            continue
        try:
            value = getattr(module, attr)
        except Exception:  # noqa: BLE001 - a lazy attribute that fails to load: known to exist, nothing more
            attrs[attr] = None
            continue
        attrs[attr] = _describe(value, f"{name}.{attr}", objects)
    for sub in _submodules(module):
        attrs.setdefault(sub, f"module:{name}.{sub}")
    # A module-level __getattr__ may answer names dir() does not list (lazy loaders): such a module is 'open'.
    open_ = "__getattr__" in vars(module) and "__dir__" not in vars(module)
    return {"attrs": attrs, "open": open_}


def _submodules(module) -> list[str]:
    try:
        return [info.name for info in pkgutil.iter_modules(getattr(module, "__path__", None) or [])]
    except Exception:  # noqa: BLE001
        return []


def _describe(value, dotted: str, objects: dict, depth: int = 0) -> str | None:
    """Record `value` in `objects` (once) and return its key; None for plain values (numbers, strings, ...)."""
    if inspect.ismodule(value):
        return f"module:{value.__name__}"
    if not (inspect.isclass(value) or callable(value)):
        return None
    key = _key(value) or dotted
    if key in objects:
        return key
    entry = {"kind": "class" if inspect.isclass(value) else "function", "name": dotted}
    objects[key] = entry
    entry.update(_signature(value))
    entry["doc"] = _doc(value)
    if inspect.isclass(value) and depth == 0:
        entry.update(_class_entry(value, key, objects))
    return key


def _key(value) -> str | None:
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and "<" not in qualname:
        return f"{module}.{qualname}"
    return None


def _class_entry(cls, key: str, objects: dict) -> dict:
    """A class's attributes: what each is (method, property, other) and the methods' signatures."""
    attrs = {}
    for attr in dir(cls):
        if attr.startswith("_"):
            continue
        try:
            raw = inspect.getattr_static(cls, attr)
        except AttributeError:
            attrs[attr] = "other"
            continue
        if isinstance(raw, property):
            attrs[attr] = "property"
            doc = _doc(raw)
            if doc:
                objects.setdefault(f"{key}.{attr}", {"kind": "property", "name": f"{key}.{attr}", "doc": doc})
        elif _is_method(raw):
            func = getattr(cls, attr, None)
            attrs[attr] = "method"
            if func is not None and f"{key}.{attr}" not in objects:
                objects[f"{key}.{attr}"] = {"kind": "function", "name": f"{key}.{attr}", **_signature(func),
                                            "doc": _doc(func)}  # fmt: skip
        else:
            attrs[attr] = "other"
    custom_getattr = any("__getattr__" in vars(k) for k in cls.__mro__ if k is not object)
    meta_getattr = any("__getattr__" in vars(k) for k in type(cls).__mro__ if k is not type and k is not object)
    return {
        "attrs": attrs,
        "getattr": custom_getattr,
        "meta_getattr": meta_getattr,
        # instances can hold attributes of their own (set in __init__, like scikit-learn's fitted `labels_`)
        "instance_dict": "__dict__" in dir(cls) or custom_getattr,
        "own_new": any("__new__" in vars(k) for k in cls.__mro__ if k is not object),
    }


def _is_method(raw) -> bool:
    """A plain function or method as stored on a class; not other descriptors (pandas' `plot` accessor is one, and
    its class, not a method, says what it accepts)."""
    if isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(raw) or inspect.isbuiltin(raw):
        return True
    kinds = (types.MethodDescriptorType, types.WrapperDescriptorType, types.ClassMethodDescriptorType)
    return isinstance(raw, kinds) or type(raw).__name__ in ("cython_function_or_method", "fused_cython_function")


def _signature(value) -> dict:
    """Parameter names, and whether unknown keywords are accepted (**kwargs that only raise do not count)."""
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return {}
    params, varkw = [], None
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            varkw = p.name
        elif p.kind is not p.VAR_POSITIONAL and p.kind is not p.POSITIONAL_ONLY:
            params.append(p.name)
    out = {"sig": _short_sig(value, sig), "params": params}
    if varkw:
        out["varkw"] = True
        extra = _closed_kwargs(value, varkw)
        if extra is not None:  # the **kwargs are only read by name, or refused: the keywords are known after all
            out["varkw"], out["params"] = False, params + extra
    return out


def _short_sig(value, sig) -> str:
    text = f"{getattr(value, '__name__', '')}{sig}"
    return text if len(text) <= 400 else text[:397] + "..."


def _closed_kwargs(func, varkw: str) -> list[str] | None:
    """The keywords a function really accepts through **kwargs, when its source shows them all: every use of the
    name is `kwargs.pop('k', ...)`, `kwargs.get('k')`, `'k' in kwargs`, or an `if kwargs:` that raises. Otherwise
    (passed on, iterated, ...) None: anything may be accepted."""
    import ast

    try:
        source = textwrap.dedent(inspect.getsource(getattr(func, "__wrapped__", func)))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    names, parents = [], {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and node.id == varkw) or isinstance(parents.get(node), ast.arg):
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and parent.attr in ("pop", "get"):
            call = parents.get(parent)
            if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant):
                names.append(str(call.args[0].value))
                continue
            return None
        if isinstance(parent, ast.Compare) and isinstance(parent.left, ast.Constant) and node in parent.comparators:
            names.append(str(parent.left.value))
            continue
        if _in_refusal(node, parents, varkw):
            continue  # `if kwargs: raise TypeError(...)`, naming the first one with next(iter(kwargs))
        return None
    return sorted(set(names))


def _in_refusal(node, parents: dict, varkw: str) -> bool:
    """`node` is the test of, or inside, an `if kwargs:` whose body raises."""
    import ast

    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.If) and isinstance(parent.test, ast.Name) and parent.test.id == varkw:
            return any(isinstance(stmt, ast.Raise) for stmt in parent.body)
        node = parent
    return False


def _doc(value) -> str:
    """The first lines of the docstring, bounded."""
    try:
        doc = inspect.getdoc(value) or ""
    except Exception:  # noqa: BLE001
        return ""
    lines = []
    for line in doc.strip().splitlines():
        if not line.strip() and lines:
            break
        if line.strip():
            lines.append(line.strip())
        if len(lines) >= DOC_LINES:
            break
    text = " ".join(lines)
    return text if len(text) <= DOC_CHARS else text[: DOC_CHARS - 3] + "..."


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
