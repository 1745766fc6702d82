"""A seeded typo injector: one slip (swap, drop, double, neighbour key) in one word of a template's own text."""

from __future__ import annotations

import re

NEIGHBOURS = {
    "a": "qs",
    "b": "vn",
    "c": "xv",
    "d": "sf",
    "e": "wr",
    "f": "dg",
    "g": "fh",
    "h": "gj",
    "i": "uo",
    "j": "hk",
    "k": "jl",
    "l": "k",
    "m": "n",
    "n": "bm",
    "o": "ip",
    "p": "o",
    "r": "et",
    "s": "ad",
    "t": "ry",
    "u": "yi",
    "v": "cb",
    "w": "qe",
    "x": "zc",
    "y": "tu",
    "z": "x",
}
WORD = re.compile(r"\{\w+\}|[A-Za-z]{4,}")


def add_typo(rng, template: str) -> str:
    """The template with one misspelt word; slots ({layer}, {dist}...) are never touched."""
    words = [m for m in WORD.finditer(template) if not m.group(0).startswith("{")]
    if not words:
        return template
    m = rng.choice(words)
    w = m.group(0)
    i = rng.randrange(1, len(w) - 1)
    op = rng.choice(["swap", "drop", "double", "near"])
    if op == "swap":
        new = w[:i] + w[i + 1] + w[i] + w[i + 2 :]
    elif op == "drop":
        new = w[:i] + w[i + 1 :]
    elif op == "double":
        new = w[:i] + w[i] + w[i:]
    else:
        c = w[i].lower()
        new = w[:i] + rng.choice(NEIGHBOURS.get(c, c)) + w[i + 1 :]
    return template[: m.start()] + new + template[m.end() :]
