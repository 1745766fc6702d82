"""Calculator expressions from words: 'POP2020 divided by area', 'a times 100', '人口除以面积', raster conditions."""

from __future__ import annotations

import re

from ..languages import topic
from .conditions import _ops
from .schema_match import find_fields, is_numeric
from .text import as_number, find_numbers, fold

_CALC = topic("calc")
# Symbols read in every language, after the words.
_SYMBOLS = {"/": r"/", "*": r"\*|x(?=\s*\d)", "+": r"\+", "-": r"-(?=\s)"}
_OP_WORDS = [
    (op, "|".join([*(m.CALC_OPERATORS[op] for m in _CALC if m.CALC_OPERATORS[op]), symbol]))
    for op, symbol in _SYMBOLS.items()
]
_OP_RE = re.compile("|".join(f"(?P<o{i}>{pat})" for i, (_, pat) in enumerate(_OP_WORDS)))
_RATIO = re.compile("|".join(m.RATIO for m in _CALC if m.RATIO))
_RATIO_GAP = re.compile(r"\s*(?:" + "|".join(m.RATIO_JOINERS for m in _CALC if m.RATIO_JOINERS) + r")\s*")
_OR = re.compile(r"(?<![a-z])(" + "|".join(m.OR_WORDS for m in _CALC if m.OR_WORDS) + r")(?![a-z])")


def calc_expression(text: str, layer) -> str | None:
    """The first 'field op field/number ...' chain in the text, as an expression with quoted field names.

    With 'name = …' in the text only what follows '=' is read (the new field's name is no operand).
    """
    folded = fold(text)
    eq = re.search(r"(?<![<>!=])=(?!=)", folded)
    if eq:
        folded = " " * eq.end() + folded[eq.end() :]
    numeric = {f.name for f in layer.fields if is_numeric(f.type)}
    tokens = [(m.start, m.end, f'"{m.name}"') for m in find_fields(folded, layer, every=True) if m.name in numeric]
    tokens = [t for t in tokens if not any(o is not t and o[0] <= t[0] and t[1] <= o[1] and o != t for o in tokens)]
    if not tokens:
        return None
    taken = [(s, e) for s, e, _ in tokens]
    for n in find_numbers(folded):
        if not any(s <= n.start < e for s, e in taken):
            tokens.append((n.start, n.end, str(as_number(n.value))))
    for m in _OP_RE.finditer(folded):
        if not any(s <= m.start() < e for s, e, _ in tokens):
            op = next(_OP_WORDS[i][0] for i in range(len(_OP_WORDS)) if m.group(f"o{i}"))
            tokens.append((m.start(), m.end(), op))
    tokens.sort()
    ratio = _RATIO.search(folded)
    best: list[str] = []
    for i, (_s, _e, tok) in enumerate(tokens):
        if not tok.startswith('"'):
            continue
        chain, last_end, want_operand = [tok], tokens[i][1], False
        for s, e, t in tokens[i + 1 :]:
            gap = folded[last_end:s]
            if len(gap.strip(" ,")) > 14 or re.search(r"[.;:]", gap):
                break
            is_op = t in "/*+-"
            if want_operand == is_op:
                if ratio and not want_operand and _RATIO_GAP.fullmatch(gap) and len(chain) == 1:
                    chain.append("/")
                    want_operand = True
                    if is_op:
                        break
                else:
                    break
            chain.append(t)
            last_end, want_operand = e, is_op
        if want_operand:
            chain.pop()
        if len(chain) >= 3 and len(chain) > len(best):
            best = chain
    if not best and ratio:
        fields = [t for _, _, t in tokens if t.startswith('"')]
        best = [fields[0], "/", fields[1]] if len(fields) >= 2 else []
    return " ".join(best) if best else None


def raster_expression(text: str, raster: str, lang: str | None = None) -> str | None:
    """'ndvi above 0.3' on a raster → '"ndvi@1" > 0.3' (band 1, QGIS raster calculator syntax)."""
    folded = fold(text)
    numbers = find_numbers(folded, lang)
    parts = []
    for op, start, end, where in _ops(folded):
        if where == "prefix":
            num = next((n for n in numbers if n.start >= end - 1 and n.start - end <= 12), None)
        else:
            num = next((n for n in reversed(numbers) if n.end <= start and start - n.end <= 3), None)
        if num is not None:
            parts.append(f'"{raster}@1" {op} {as_number(num.value)}')
    if not parts:
        return None
    joiner = " OR " if _OR.search(folded) else " AND "
    return joiner.join(parts)
