"""The installed libraries' own documentation for a repair: the signature and first docstring lines of the APIs an
error names (or the failing line calls), read from the sandbox's API index, a few entries of bounded size."""

from __future__ import annotations

import ast
import difflib
import re

from . import api_index
from .api_types import Resolver

ENTRIES = 3
ENTRY_CHARS = 420
HEADER = "From the installed libraries' documentation:"


def notes(code: str, error: str, sandbox, findings=()) -> list[str]:
    """The repair note for a failed attempt (its code and error, or the API check's findings), from the index of
    the sandbox's Python; [] when nothing fits or no index can be built."""
    python = getattr(sandbox, "python", None)
    index = api_index.load(python) if python else None
    if index is None:
        return []
    keys = keys_for(code, error, index, findings)
    lines = [format_entry(index["objects"][k]) for k in keys[:ENTRIES]]
    return [HEADER + "\n" + "\n".join(lines)] if lines else []


def keys_for(code: str, error: str, index: dict, findings=()) -> list[str]:
    """Index keys worth showing, best first: the APIs the findings or the error name, then those the failing line
    calls."""
    objects = index["objects"]
    used = _used(code, index)
    keys: list[str] = []
    for finding in findings:
        keys += _near(finding.key, finding.message, index) if finding.key else []
    for short in re.findall(r"(\w+)\(\) (?:got an unexpected keyword|missing \d+ required|takes )", error or ""):
        keys += [k for k, _ in used if k.rsplit(".", 1)[-1] == short]
    for cls, attr in re.findall(r"'(\w+)' object has no attribute '(\w+)'", error or ""):
        owners = [k for k, _ in used if k.rsplit(".", 1)[-1] == cls and "attrs" in objects.get(k, {})]
        owners += [k for k, e in objects.items() if e.get("kind") == "class" and e.get("name", "").endswith("." + cls)]
        keys += _near(owners[0], f"'{attr}'", index) if owners else []
    for module, attr in re.findall(r"module '([\w.]+)' has no attribute '(\w+)'", error or ""):
        entry = index["modules"].get(module)
        if entry:
            near = difflib.get_close_matches(attr, [a for a in entry["attrs"] if not a.startswith("_")], 2, 0.6)
            keys += [entry["attrs"][a] for a in near if entry["attrs"].get(a) in objects]
    line = re.search(r"\(line (\d+)", error or "")
    if line:
        keys += [k for k, at in used if at == int(line.group(1))]
    return [k for k in dict.fromkeys(keys) if k in objects]


def format_entry(entry: dict) -> str:
    """'- name(signature): first docstring lines', bounded."""
    sig = entry.get("sig") or ""
    name = entry.get("name", "")
    head = name.rsplit(".", 1)[0] + "." + sig if sig else name
    text = f"- {head}: {entry.get('doc') or ''}".rstrip(": ")
    return text if len(text) <= ENTRY_CHARS else text[: ENTRY_CHARS - 3] + "..."


def _used(code: str, index: dict) -> list[tuple[str, int]]:
    """(index key, line) of every library function, method and class the script calls."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    resolver = Resolver(tree, index, set())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            found = resolver.type_of(node.func)
            if found is not None and found.kind in ("func", "method", "class"):
                out.append((found.name, node.lineno))
    return out


def _near(key: str, message: str, index: dict) -> list[str]:
    """For a finding on `key`: the entry itself when it is a function (its signature is the fix), else the
    class's attributes closest to the name the message quotes."""
    entry = index["objects"].get(key) or {}
    if "attrs" not in entry:
        return [key]
    quoted = re.findall(r"'(\w+)'", message)
    if not quoted:
        return []
    near = difflib.get_close_matches(quoted[0], list(entry["attrs"]), 3, 0.6)
    return [f"{key}.{a}" for a in near if f"{key}.{a}" in index["objects"]]
