"""Several distances in one request ('rings at 200, 400 and 600 m', '500m and 1km') and signed distances."""

from __future__ import annotations

import re

from ..languages import topic
from .quantities import Distance, find_distances
from .text import find_numbers

_WORDS = topic("patterns")


def _alternatives(name: str) -> str:
    return "|".join(getattr(m, name) for m in _WORDS if getattr(m, name))


# A bare number joined to the next one by a list separator: '200, 400 and 600 m', '200、400和600米'.
_SEP = re.compile(r"\s*(?:" + _alternatives("LIST_SEPARATORS") + r")?\s*(?:" + _alternatives("LIST_JOINERS") + r")?\s*")
# Words that make a buffer distance inward (negative).
INWARD = re.compile(
    r"(?<![a-z])(?:inwards?|inner|inside buffer|negative|shrink\w*|nach innen|innenpuffer|negativ\w*)(?![a-z])|"
    r"向内|内缩|负"
)
# A sign: '-200 m', '−200 m', 'by minus 200 m', '缓冲-5米' (Chinese writes no space before it; a hyphen after a Latin
# letter or digit, 'A-5', '2-5', is no sign). A bare 'minus' is not one: 'lakes minus 500 m river buffer' subtracts.
_MINUS = re.compile(
    r"(?:(?:(?<![\w.])|(?<=[\u3400-\u9fff]))-|−|(?<![a-z])(?:by|of|um|von|with|mit|at|=|:)\s+minus\s+|^\s*minus\s+)\s*$"
)


def distance_series(folded: str, lang: str) -> list[list[Distance]]:
    """Groups of distances written as one list; a bare number before a unit'd one takes its unit."""
    found = find_distances(folded, lang)
    numbers = find_numbers(folded, lang)
    groups: list[list[Distance]] = []
    for d in found:
        if groups and _joins(folded[groups[-1][-1].end : d.start]):
            groups[-1].append(d)
            continue
        group = [d]
        factor = d.metres / _value_at(numbers, d.start) if _value_at(numbers, d.start) else None
        start = d.start
        while factor:  # walk back over bare numbers: '200, 400 and' before '600 m'
            prev = next((n for n in reversed(numbers) if n.end <= start), None)
            if prev is None or not _joins(folded[prev.end : start]):
                break
            if any(o.start <= prev.start < o.end for o in found):
                break
            group.insert(0, Distance(prev.value * factor, prev.start, prev.end))
            start = prev.start
        groups.append(group)
    return groups


def _joins(gap: str) -> bool:
    """Is the text between two numbers only a list separator (not empty: '1 000' is one number)?"""
    return bool(gap.strip()) and bool(_SEP.fullmatch(gap))


def _value_at(numbers, start: int):
    n = next((n for n in numbers if n.start == start), None)
    return n.value if n is not None and n.value else None


def signed(folded: str, d: Distance) -> float:
    """The distance with its sign: '-200 m', 'minus 200 m' are negative."""
    return -d.metres if _MINUS.search(folded[max(0, d.start - 16) : d.start]) else d.metres


def equal_steps(values: list[float]) -> float | None:
    """The step when the values are step, 2·step, 3·step… (multi-ring buffers), else None."""
    if len(values) < 2 or values[0] <= 0:
        return None
    step = values[0]
    ok = all(abs(v - step * (i + 1)) <= 1e-6 * max(1.0, abs(v)) for i, v in enumerate(values))
    return step if ok else None
