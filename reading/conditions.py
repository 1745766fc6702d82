"""Comparisons and category conditions in request text → a QGIS-style filter expression."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ..languages import words_of
from .schema_match import CONCEPTS, Mention, _field_concepts, find_fields, find_values, is_numeric
from .text import as_number, detect_lang, find_numbers, fold

# Operator phrases (on folded text). Order matters: longer, more specific phrases first.
_PREFIX_OPS = [
    (">=", r"greater than or equal to|more than or equal to|at least|no less than|not less than|no fewer than|"
           r"a minimum of|minimum of|>=|≥|mindestens|wenigstens|nicht weniger als|groesser gleich|grosser gleich|ab|"
           r"大于等于|大于或等于|至少|不少于|不低于|不小于"),
    ("<=", r"less than or equal to|at most|no more than|not more than|a maximum of|maximum of|up to|<=|≤|"
           r"hochstens|hoechstens|maximal|nicht mehr als|kleiner gleich|bis|"
           r"小于等于|小于或等于|至多|最多|不超过|不多于|不高于|不大于"),
    ("!=", r"not equal to|other than|!=|<>|≠|ungleich|不等于"),
    (">", r"more than|greater than|larger than|bigger than|higher than|longer than|older than|over|above|after|"
          r"later than|since|später als|spater als|晚于|"
          r"exceeding|exceeds|exceed|in excess of|>|mehr als|grosser als|groesser als|hoher als|hoeher als|"
          r"langer als|uber|ueber|oberhalb|大于|超过|多于|高于|长于"),
    ("<", r"less than|fewer than|smaller than|lower than|shorter than|younger than|under|below|before|earlier than|"
          r"prior to|<|weniger als|vor dem jahr|früher als|fruher als|早于|"
          r"kleiner als|niedriger als|kurzer als|unter|unterhalb|vor|小于|低于|少于|不到|不足|不满|未满|短于"),
    ("=", r"equal to|equals|exactly|==|=|gleich|genau|等于"),
]  # fmt: skip
_POSTFIX_OPS = [
    (">=", r"or more|or greater|or higher|or above|and above|and more|\+|oder mehr|und mehr|及以上|或以上|以上"),
    ("<=", r"or less|or fewer|or lower|or below|and below|and less|oder weniger|及以下|或以下|以下"),
    ("<", r"年以前|年之前|以前|之前"),
    (">", r"年以后|以后"),
]
_BETWEEN = [
    r"between\s+(?P<a>\S+)\s+and\s+(?P<b>\S+)",
    r"zwischen\s+(?P<a>\S+)\s+und\s+(?P<b>\S+)",
    r"from\s+(?P<a>\d\S*)\s+to\s+(?P<b>\d\S*)",
    r"介于\s*(?P<a>[^和与到至]+?)\s*[和与到至]\s*(?P<b>[^之间]+?)\s*之间",
    r"在\s*(?P<a>[^和与到至]+?)\s*[和与到至]\s*(?P<b>[^之间]+?)\s*之间",
    r"(?P<a>\d[\d.,]*)\s*(?:-|–|to|bis)\s*(?P<b>\d[\d.,]*)",
]
_NEGATION = (
    r"(?:aren't|isn't|arent|isnt|don't|doesn't|not|no|non|except|excluding|other than|different from|without|"
    r"nicht|kein|keine|ausser|auser|ohne|不是|非|除了|不为)"
)
_IS = r"(?:ist|is|==|=|equals|equal to|of|gleich|为|是|等于)(?![a-z])"
# A negated equality written as an operator: 'rede != 'x'', 'is not', '<>', 'ungleich', '不等于'.
_NEG_IS = (
    r"(?:(?:(?:is\s+not|isn't|isnt|not)(?:\s+equal(?:\s+to)?|\s+equals)?|does\s+not\s+equal|doesn't\s+equal|"
    r"(?:is\s+)?(?:different\s+from|other\s+than)|differs\s+from|ist\s+nicht|nicht\s+gleich|ungleich)(?![a-z])|"
    r"!=|<>|≠|不等于|不是|不为)"
)
_EXPLICIT = re.compile(
    r"\s*(?:field\s+|feld\s+|字段\s*)?(?:(?P<neg>"
    + _NEG_IS
    + r")\s*|(?P<neg2>"
    + _NEGATION
    + r"\s+)?"
    + _IS
    + r"\s*|(?P<neg3>not|nicht)\s+(?=['\"]))"
    + r"(?:'(?P<q1>[^']+)'|\"(?P<q2>[^\"]+)\"|(?P<w>[a-z0-9_][a-z0-9_-]*|[\u4e00-\u9fff]+?(?=的|[，,。；;\s]|$)|"
    + r"[\u4e00-\u9fff]+))"
)
# 'city in ('Lisbon', 'Porto')' / 'not in [...]': a value list.
_IN = re.compile(r"\s*(?P<neg>not\s+|nicht\s+)?(?:is\s+)?(?:in|one\s+of)\s*[(\[](?P<items>[^)\]]*)[)\]]")
_INVERT = {"=": "!=", "!=": "=", ">": "<=", "<": ">=", ">=": "<", "<=": ">", "LIKE": "NOT LIKE", "NOT LIKE": "LIKE"}
# 'NOT city = 'Lisbon'' (SQL): a negation right before the field name.
_NOT_BEFORE = re.compile(r"(?<![a-z])(?:not|nicht)\s+$")


_LIKE_KINDS = [
    ("contains", r"containing|contains?|including|includes?|like|enthaelt|enthalten|enthalt|包含|含有"),
    ("starts", r"starting with|starts? with|beginning with|begins? with|beginnt mit"),
    ("ends", r"ending (?:with|in)|ends? with|endet (?:mit|auf)"),
]
_QUOTED = r"'[^']+'|\"[^\"]+\"|“[^”]+”|„[^“”]+[“”]"
_ZH_VALUE = r"[\u4e00-\u9fff]+?(?=的|字|[，,。；;\s]|$)|[\u4e00-\u9fff]+"
_LIKE = re.compile(
    r"\s*(?:field\s+|feld\s+|中|里)?(?P<neg>(?:does\s+)?not\s+|doesn'?t\s+|nicht\s+|不)?(?P<op>"
    + "|".join(p for _, p in _LIKE_KINDS)
    + r")(?![a-z])\s*(?P<v>"
    + _QUOTED
    + r"|[a-z0-9_][a-z0-9_-]*|"
    + _ZH_VALUE
    + r")"
)
# The value before the verb: German 'Name mit 'Stern' anfängt', 'Name 'Sonne' enthält', Chinese '镇名以东开头'.
_LIKE_AFTER = re.compile(
    r"\s*(?P<neg0>nicht\s+|不)?(?:mit\s+|auf\s+|以\s*)?"
    r"(?P<v>" + _QUOTED + r"|[a-z0-9_][a-z0-9_-]*|[\u4e00-\u9fff]{1,8}?)\s*"
    r"(?P<neg>nicht\s+)?(?P<op>beginnt|beginnen|anfangt|anfangen|startet|enthalt|enthalten|endet|enden|"
    r"开头|开始|打头|结尾|结束)"
)
_AFTER_KINDS = {"beginnt": "starts", "beginnen": "starts", "anfangt": "starts", "anfangen": "starts",
                "startet": "starts", "开头": "starts", "开始": "starts", "打头": "starts", "enthalt": "contains",
                "enthalten": "contains", "endet": "ends", "enden": "ends", "结尾": "ends", "结束": "ends"}  # fmt: skip


@dataclass
class Condition:
    """One comparison: field, operator and value (a number or a string)."""

    field: str
    op: str
    value: object
    start: int

    def expression(self) -> str:
        if isinstance(self.value, tuple):  # IN / NOT IN
            items = ", ".join(
                "'" + v.replace("'", "''") + "'" if isinstance(v, str) else str(as_number(v)) for v in self.value
            )
            return f'"{self.field}" {self.op} ({items})'
        if isinstance(self.value, str):
            escaped = self.value.replace("'", "''")
            return f"\"{self.field}\" {self.op} '{escaped}'"
        return f'"{self.field}" {self.op} {as_number(self.value)}'


def _ops(folded: str):
    """Operator occurrences (op, start, end), longest phrase winning where they overlap."""
    hits = []
    for op, pat in _PREFIX_OPS:
        for m in re.finditer(r"(?:(?<![a-z])|(?=[\u4e00-\u9fff]))(?:" + pat + r")(?![a-z])", folded):
            hits.append((op, m.start(), m.end(), "prefix"))
    for op, pat in _POSTFIX_OPS:
        for m in re.finditer(r"(?:" + pat + r")(?![a-z])", folded):
            hits.append((op, m.start(), m.end(), "postfix"))
    hits.sort(key=lambda h: (h[1], -(h[2] - h[1])))
    kept = []
    for h in hits:
        if kept and h[1] < kept[-1][2]:
            continue
        kept.append(h)
    return kept


def comparison_starts(folded: str) -> list[int]:
    """Where a comparison said before its number begins ('more than 20', 'über 20', '大于20'), in folded text."""
    return [start for _, start, _, kind in _ops(folded) if kind == "prefix"]


def _nearest_field(fields: list[Mention], start: int, end: int, numeric_names: set[str]) -> Mention | None:
    """The numeric field mentioned closest to the span: before it in the clause, else right after it."""
    cands = [f for f in fields if f.name in numeric_names]
    if not cands:
        return None
    before = [f for f in cands if f.end <= start and start - f.end <= 40]
    after = [f for f in cands if f.start >= end and f.start - end <= 30]
    pool = ([max(before, key=lambda f: (f.end, f.score))] if before else []) + (
        [min(after, key=lambda f: (f.start, -f.score))] if after else []
    )
    if not pool:
        return None
    return min(pool, key=lambda f: (start - f.end) if f.end <= start else (f.start - end) * 3)


def find_conditions(text: str, layer, lang: str | None = None, spans_to_skip=()) -> list[Condition]:
    """Numeric comparisons and category equalities on `layer`'s fields, left to right; the one an exception
    marker scopes is negated ('all cafes except those with wifi' → wifi != 'yes')."""
    return except_scope(fold(text), conditions_as_written(text, layer, lang, spans_to_skip))


def conditions_as_written(text: str, layer, lang: str | None = None, spans_to_skip=()) -> list[Condition]:
    folded = fold(text)
    lang = lang or detect_lang(text)
    fields = [f for f in find_fields(folded, layer) if other_identifier(text, folded, f) is None]
    numeric = {f.name for f in layer.fields if is_numeric(f.type) or _numeric_text(f.samples)}
    conds, in_spans = _in_lists(text, folded, fields, numeric)
    skip = list(spans_to_skip) + in_spans
    numbers = [n for n in find_numbers(folded, lang) if not any(s <= n.start < e for s, e in skip)]
    used: set[int] = set()

    for pat in _BETWEEN:
        for m in re.finditer(pat, folded):
            na = next((n for n in numbers if n.start >= m.start("a") and n.start < m.end("a")), None)
            nb = next((n for n in numbers if n.start >= m.start("b") and n.start < m.end("b")), None)
            if na is None or nb is None or na.start in used:
                continue
            if re.search(r"(?<![a-z])(?:not|nicht)\s*$|不\s*$", folded[: m.start()]):
                used |= {na.start, nb.start}  # 'not between 100 and 200': left to the model, never read as between
                continue
            f = _nearest_field(fields, m.start(), m.end(), numeric)
            if f is None:
                continue
            lo, hi = sorted((na.value, nb.value))
            conds.append(Condition(f.name, ">=", lo, m.start()))
            conds.append(Condition(f.name, "<=", hi, m.start() + 1))
            used |= {na.start, nb.start}

    for op, start, end, where in _ops(folded):
        if where == "prefix":
            num = next((n for n in numbers if start < n.start + 1 and n.start >= end - 1 and n.start - end <= 12), None)
        else:
            num = next((n for n in reversed(numbers) if n.end <= start and start - n.end <= 3), None)
        if num is None or num.start in used:
            continue
        span = (min(start, num.start), max(end, num.end))
        f = _nearest_field(fields, span[0], span[1], numeric)
        if f is None:
            continue
        neg = re.search(_NEGATION + r"\s*$", folded[max(0, start - 12) : start])
        if neg and op == "=":
            op = "!="
        elif op != "=" and re.search(r"(?<![a-z])(?:not|isn't|isnt|aren't|arent|nicht)\s*$", folded[:start]):
            op = _INVERT[op]  # 'not greater than 50000' → <= 50000
        if _NOT_BEFORE.search(folded[: f.start]) and f.end <= start:
            op = _INVERT[op]  # 'NOT pop > 5'
        conds.append(Condition(f.name, op, num.value, span[0]))
        used.add(num.start)

    # 'field is value' / 'field = 'value'': the field says which column a value belongs to.
    taken: list[tuple[int, int]] = list(in_spans)
    for f in fields:  # 'NAME_EN contains 'Tract 1'' → LIKE '%Tract 1%' (starts/ends with likewise)
        if f.name in numeric or any(c.field == f.name for c in conds):
            continue
        m = _LIKE.match(folded, f.end)
        after = None if m else _LIKE_AFTER.match(folded, f.end)
        if not m and not after:
            continue
        m = m or after
        start = m.start("v")
        raw = m.group("v").strip("'\"“”„")
        value = _original(text, folded, start + (m.group("v") != raw), len(raw)) or raw
        if after:
            kind = _AFTER_KINDS[m.group("op")]
        else:
            kind = next(k for k, pat in _LIKE_KINDS if re.fullmatch(pat, m.group("op")))
        if m.group("op") == "like" and re.search(r"[%_]", value):
            pattern = value  # the user's own pattern ('Tract 1%') is kept as written
        else:
            pattern = {"contains": f"%{value}%", "starts": f"{value}%", "ends": f"%{value}"}[kind]
        negated = bool(m.group("neg") or (after and m.group("neg0"))) != bool(_NOT_BEFORE.search(folded[: f.start]))
        conds.append(Condition(f.name, "NOT LIKE" if negated else "LIKE", pattern, f.start))
        taken.append((start, m.end()))
    for f in fields:
        if f.name in numeric or any(c.field == f.name for c in conds):
            continue
        m = _EXPLICIT.match(folded, f.end)
        if not m or any(c.field == f.name for c in conds):
            continue
        group = "q1" if m.group("q1") else "q2" if m.group("q2") else "w"
        raw = m.group(group)
        if raw in _NOT_A_VALUE or (group == "w" and raw in _INDEFINITE):
            continue
        start = m.start(group)
        if group == "w" and len(text) == len(folded):  # 'is Old Town': capitalised words run on
            run = re.match(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3}", text[start:])
            if run and len(run.group()) > len(raw):
                raw = folded[start : start + len(run.group())]
        original = _original(text, folded, start, len(raw)) or raw
        for fld in layer.fields:  # a sample value written in full ('Oak Park') wins over one word of it
            for v in fld.samples if fld.name == f.name else ():
                if isinstance(v, str) and folded.startswith(fold(v), start):
                    original, raw = v, fold(v)
        negated = any(m.group(g) for g in ("neg", "neg2", "neg3")) or bool(
            re.match(r"\s*" + _NEGATION, folded[f.end :])
        )
        negated = negated != bool(_NOT_BEFORE.search(folded[: f.start]))
        conds.append(Condition(f.name, "!=" if negated else "=", original, f.start))
        taken.append((start, start + len(raw)))

    conds += _scoped_names(text, folded, fields, numeric, conds, taken)
    conds += _yes_no(folded, fields, layer, conds)
    for v in find_values(folded, layer):
        if any(s <= v.start < e for s, e in taken) or any(c.field == v.name and c.value == v.value for c in conds):
            continue
        neg = re.search(_NEGATION + r"\s+(?:\S+\s+){0,2}$", folded[max(0, v.start - 24) : v.start])
        # '不是住宅道路（residential）': the negation before the Chinese word the value in brackets glosses
        gloss_neg = r"(不是|非|除了)[\u4e00-\u9fff\s]{0,10}[（(]?\s*$"
        neg = neg or re.search(gloss_neg, folded[max(0, v.start - 14) : v.start])
        conds.append(Condition(v.name, "!=" if neg else "=", v.value, v.start))
    conds += _or_names(text, folded, conds, fields)
    conds.sort(key=lambda c: c.start)
    return conds


# An exception names what is left out: 'all cafes except those with wifi', 'alle Häuser außer den vor 1900
# gebauten', '除了有wifi的以外的所有咖啡馆'. The condition it scopes is negated.
_EXCEPT = re.compile(
    r"(?<![a-z])(?:except(?:\s+for)?|excluding|but\s+not|other\s+than|apart\s+from|all\s+but|ausser|auser|ausgenommen|mit\s+ausnahme|bis\s+auf)"
    r"(?![a-z])|除了|除去"
)
_NEGATIVE_OPS = {"!=", "NOT IN", "NOT LIKE"}


def except_scope(folded: str, conds: list[Condition]) -> list[Condition]:
    """Negate the first condition after each exception marker (within the clause, no other condition between);
    one the marker already negated where it stands ('except residential' → != 'residential') is left as it is."""
    out = list(conds)
    for _, _, i, negated in _scoped(folded, conds):
        out[i] = negated
    return out


def _scoped(folded: str, conds: list[Condition]) -> list[tuple[int, int, int, Condition]]:
    """(marker start, marker end, index of the condition it scopes, that condition negated)."""
    found = []
    for m in _EXCEPT.finditer(folded):  # 'except those with more than 500 students' too
        after = [i for i, c in enumerate(conds) if c.start >= m.end()]
        if not after:
            continue
        c = conds[after[0]]
        if c.start - m.end() > 40 or re.search(r"[.;!?。；]", folded[m.end() : c.start]) or c.op in _NEGATIVE_OPS:
            continue
        op = {"IN": "NOT IN"}.get(c.op) or _INVERT.get(c.op)
        if op:
            found.append((m.start(), m.end(), after[0], Condition(c.field, op, c.value, c.start)))
    return found


def exception_marks(folded: str, conds: list[Condition], expression: str) -> list[tuple[int, int]]:
    """The spans of the exception markers whose negated condition (of `conds`, as written) is in `expression`
    (explain.py claims them)."""
    return [(s, e) for s, e, _, negated in _scoped(folded, conds) if negated.expression() in expression]


_OR_NAME = re.compile(r"['\"]?\s+(?:or|oder)\s+(?:'([^']+)'|\"([^\"]+)\"|([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}))")


def _or_names(text: str, folded: str, conds, fields) -> list[Condition]:
    """'regiao is Sul or Norte': the name after 'or' is another value of the same field (never dropped)."""
    out = []
    if len(text) != len(folded):
        return out
    for c in [c for c in conds if isinstance(c.value, str) and c.op in ("=", "!=")]:
        at = folded.find(fold(c.value), c.start)
        m = _OR_NAME.match(text, at + len(c.value)) if at >= 0 else None
        if not m:
            continue
        group = next(g for g in (1, 2, 3) if m.group(g))
        value = m.group(group)
        if any(d.field == c.field and fold(str(d.value)) == fold(value) for d in conds + out):
            continue
        if any(d.start == m.start(group) for d in conds) or any(f.start == m.start(group) for f in fields):
            continue  # a condition or a field of its own starts there ('… or city = X', '… or Rating > 4')
        out.append(Condition(c.field, c.op, value, m.start(group)))
    return out


_INDEFINITE = words_of("INDEFINITE")  # 'anything', 'irgendetwas', '任何': no value, whatever follows
_NOT_A_VALUE = {"a", "an", "the", "not", "ein", "eine", "der", "die", "das", "in", "at", "on",
                "null", "none", "empty", "missing", "leer", "nan"}  # fmt: skip


def _in_lists(text: str, folded: str, fields, numeric: set[str]) -> tuple[list[Condition], list[tuple[int, int]]]:
    """'city in ('Lisbon', 'Porto')' → IN, 'not in (...)' → NOT IN; also the spans they cover."""
    conds, spans = [], []
    for f in fields:
        m = _IN.match(folded, f.end)
        if not m or any(c.field == f.name for c in conds):
            continue
        values = []
        for item in re.finditer(r"'([^']*)'|\"([^\"]*)\"|([^,\s][^,]*)", m.group("items")):
            group = next(g for g in (1, 2, 3) if item.group(g) is not None)
            raw = item.group(group).strip()
            start = m.start("items") + item.start(group)
            value = _original(text, folded, start, len(raw)) or raw
            if f.name in numeric:  # a text field keeps its codes as written: GEOID in (01003, 01005)
                try:
                    value = as_number(float(raw.replace(",", ".")))
                except ValueError:
                    values = []
                    break
            if value != "":
                values.append(value)
        if not values:
            continue
        neg = bool(m.group("neg")) != bool(_NOT_BEFORE.search(folded[: f.start]))
        conds.append(Condition(f.name, "NOT IN" if neg else "IN", tuple(values), f.start))
        spans.append((f.end, m.end()))
    return conds, spans


# 'municipios not in regiao Norte', 'schools in district Altstadt': a scope word, the field, then a Name.
_SCOPE = re.compile(
    r"(?<![a-z])(not\s+in|nicht\s+in|excluding|except(?:\s+in)?|outside(?:\s+of)?|ausserhalb|in|im|within)\s+(?:the\s+)?$"
)
_NAME_AFTER = re.compile(r"\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})(?![\w'])(?!\s*(?:,|or\b|and\b|oder\b|und\b))")


def _scoped_names(text: str, folded: str, fields, numeric, conds, taken) -> list[Condition]:
    """A capitalised name after a string field that a scope word leads ('not in regiao Norte' → regiao != 'Norte')."""
    out = []
    if len(text) != len(folded):
        return out
    for f in fields:
        if f.name in numeric or any(c.field == f.name for c in conds + out):
            continue
        scope = _SCOPE.search(folded[max(0, f.start - 24) : f.start])
        m = _NAME_AFTER.match(text, f.end) if scope else None
        if not m or any(s <= m.start(1) < e for s, e in taken):
            continue
        negated = not scope.group(1).startswith(("in", "im", "within"))
        out.append(Condition(f.name, "!=" if negated else "=", m.group(1), f.start))
        taken.append((m.start(1), m.end(1)))
    return out


_YES = {"yes", "y", "ja", "true", "是", "有"}
_NO = {"no", "n", "nein", "false", "否", "无", "没有"}
_WITH = re.compile(r"(?:(?<![a-z])(?:with|has|have|having|mit|hat|haben)\s+(?:an?\s+|eine[mn]?\s+|einem\s+)?|有|带)$")
_WITHOUT = re.compile(r"(?:(?<![a-z])(?:without|no|lacking|ohne|kein|keine[mn]?)\s+(?:an?\s+)?|没有|无|不带)$")


def _yes_no(folded: str, fields, layer, conds) -> list[Condition]:
    """'cafes with wifi' / 'Haltestellen ohne Unterstand' / '有候车亭的': a yes/no field named after with/without."""
    out = []
    for f in fields:
        samples = [s for fld in layer.fields if fld.name == f.name for s in fld.samples if isinstance(s, str)]
        yes = next((s for s in samples if s.strip().lower() in _YES), None)
        no = next((s for s in samples if s.strip().lower() in _NO), None)
        if yes is None or no is None or any(c.field == f.name for c in conds + out):
            continue
        if re.match(r"\s*(?:=|is|ist|为|是|等于|==)", folded[f.end :]):
            continue  # 'wifi = yes' is read as written
        before = folded[max(0, f.start - 16) : f.start]
        if _WITHOUT.search(before):
            out.append(Condition(f.name, "=", no, f.start))
        elif _WITH.search(before):
            out.append(Condition(f.name, "=", yes, f.start))
    return out


_IDENTIFIER = re.compile(r"[A-Z][A-Z0-9_]{2,}|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")


def other_identifier(text: str, folded: str, mention) -> str | None:
    """'POPULATION > 4000' on a layer with POP2020: the field name written as such that the layer does not have.

    It is never silently swapped for another field; a near-identical spelling (POP_2020, a name cut to 10
    characters by a shapefile, NAME for NAME_EN) still counts.
    """
    if len(text) != len(folded):
        return None
    start, end = mention.start, mention.end  # the whole word it is part of: 'POP' of 'POP_2020'
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    written = text[start:end]
    if not written or not _IDENTIFIER.fullmatch(written):
        return None
    if len(written) <= 4 and written.isalpha() and _means(written, mention.name):
        return None  # an acronym said for its meaning: 'WLAN' → wifi, 'GDP' → gdp_md_est
    a, b = fold(written).replace("_", ""), fold(mention.name).replace("_", "")
    if a == b or (a.startswith(b) and len(mention.name) == 10) or (b.startswith(a) and len(a) >= 4):
        return None
    return written if difflib.SequenceMatcher(None, a, b).ratio() < 0.85 else None


def _means(word: str, field_name: str) -> bool:
    """Is `word` one of the meanings of the field (its CONCEPTS words)?"""
    return any(fold(word) in CONCEPTS[i][0] | CONCEPTS[i][1] for i in _field_concepts(field_name))


def _numeric_text(samples) -> bool:
    """A text field whose values are numbers written as text ('60000'): compared as numbers."""
    vals = [s for s in samples if isinstance(s, str) and s.strip()]
    return bool(vals) and all(re.fullmatch(r"\s*-?\d+(?:[.,]\d+)?\s*", s) for s in vals)


def _original(text: str, folded: str, start: int, length: int) -> str | None:
    """The original-case text behind a span of the folded text (when folding kept the length)."""
    if len(text) != len(folded):
        return None
    return text[start : start + length]


def conditions_expression(conds: list[Condition], text: str) -> str | None:
    """Join conditions with AND (OR when the text says 'or' between them); OR runs beside an AND are bracketed."""
    if not conds:
        return None
    folded = fold(text)
    groups = [[conds[0].expression()]]  # runs joined by OR, the runs joined by AND
    for prev, cur in zip(conds, conds[1:]):
        between = folded[prev.start : cur.start]
        said_or = re.search(r"(?<![a-z])(?:or|oder)(?![a-z])|或", between)
        same_range = prev.field == cur.field and prev.op == ">=" and cur.op == "<=" and prev.start + 1 == cur.start
        neither = prev.field == cur.field and prev.op == cur.op == "!="  # 'not high or primary': neither of them
        if said_or and not same_range and not neither:
            groups[-1].append(cur.expression())
        else:
            groups.append([cur.expression()])
    if len(groups) == 1:
        return " OR ".join(groups[0])
    return " AND ".join(g[0] if len(g) == 1 else "(" + " OR ".join(g) + ")" for g in groups)
