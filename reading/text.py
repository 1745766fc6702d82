"""Text helpers for the router: language guess, normalisation, and numbers in English, German and Chinese."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..languages import detect_lang


@lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Lower-case, strip accents (but keep CJK), unify quotes and dashes."""
    text = text.replace("ß", "ss").replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.lower()


def words(text: str) -> list[str]:
    """Word tokens of folded text (latin words and single CJK characters)."""
    return re.findall(r"[a-z0-9]+|[\u4e00-\u9fff]", fold(text))


@lru_cache(maxsize=65536)
def singular(word: str) -> str:
    """A crude English/German singular: schools→school, cities→city, buses→bus, Schulen→schule."""
    w = word.lower()
    if len(w) <= 3:
        return w
    if w in ("buses", "busses", "statuses", "campuses", "viruses"):
        return w[:-2]
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x")):
        if w.endswith(suffix):
            return w[: -len(suffix)] + repl
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    if w.endswith("en") and len(w) > 5:
        return w[:-1]
    return w


@dataclass
class Number:
    """A number found in text: its value, where it is, and whether it was written as an integer."""

    value: float
    start: int
    end: int
    integer: bool = True


_EN_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "a dozen": 12,
    "dozen": 12,
    "eins": 1, "ein": 1, "eine": 1, "einen": 1, "zwei": 2, "drei": 3, "vier": 4, "funf": 5, "fünf": 5,
    "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwolf": 12, "zwölf": 12,
    "zwanzig": 20, "dreissig": 30, "dreißig": 30, "vierzig": 40, "funfzig": 50, "fünfzig": 50,
}  # fmt: skip
_SCALES = {"hundred": 100, "hundert": 100, "thousand": 1000, "tausend": 1000, "million": 1e6, "millionen": 1e6}
_FRACTIONS = {
    "half a": 0.5, "half an": 0.5, "a half": 0.5, "half": 0.5, "einen halben": 0.5, "einem halben": 0.5,
    "halben": 0.5, "halbe": 0.5, "a quarter of a": 0.25, "quarter of a": 0.25, "a quarter": 0.25,
    "quarter": 0.25, "one and a half": 1.5, "anderthalb": 1.5, "eineinhalb": 1.5, "a": 1, "an": 1,
    "one": 1, "eine": 1, "einen": 1, "einer": 1, "einem": 1, "ein": 1,
}  # fmt: skip

_MULT = r"(?:k(?![a-z-])|\s?(?:thousand(?![a-z])|tausend|millionen|million|mio\.?|万|亿|千(?!米)))"
_ARABIC = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:[.,]\d+)*)(?:e([+-]?\d{1,3})(?![a-z]))?" + _MULT + "?", re.IGNORECASE)
_NUMWORD = "|".join(sorted(map(re.escape, [*_EN_UNITS, *_SCALES]), key=len, reverse=True))
# A run of number words, spaced ('three hundred and fifty'), hyphenated ('twenty-five') or glued ('fünfhundert').
_WORDNUM = re.compile(
    r"(?<![a-zäöü])((?:" + _NUMWORD + r")(?:(?:und)?(?:" + _NUMWORD + r"))*"
    r"(?:(?:\s+and\s+|\s+|-)(?:" + _NUMWORD + r")(?:(?:und)?(?:" + _NUMWORD + r"))*)*)(?![a-zäöü])",
    re.IGNORECASE,
)
_NUMPART = re.compile(_NUMWORD + "|und|and", re.IGNORECASE)
_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_NUM = re.compile(r"[零一二两三四五六七八九十百千万亿半]+")


def _arabic_value(digits: str, lang: str) -> tuple[float, bool]:
    """Parse '1,500', '1.500' (de), '1,5' (de decimal), '2.5' with the language deciding separators."""
    groups = re.split(r"[.,]", digits)
    seps = re.findall(r"[.,]", digits)
    if not seps:
        return float(digits), True
    if len(seps) >= 2 and len(set(seps)) == 2:  # 1,234.5 or 1.234,5
        dec = seps[-1]
        thou = "," if dec == "." else "."
        clean = digits.replace(thou, "").replace(dec, ".")
        return float(clean), float(clean).is_integer()
    sep = seps[0]
    thousands = all(len(g) == 3 for g in groups[1:]) and len(groups[0]) <= 3
    if sep == "," and thousands and (lang != "de" or len(seps) > 1):
        return float(digits.replace(",", "")), True
    if sep == "." and thousands and (lang == "de" or len(seps) > 1):
        return float(digits.replace(".", "")), True
    if len(seps) > 1:
        return float(digits.replace(sep, "")), True
    value = float(digits.replace(",", "."))
    return value, value.is_integer() and sep == "."


def _multiplier(tail: str) -> float:
    t = tail.strip().lower().rstrip(".")
    if not t:
        return 1
    if t in ("k", "thousand", "tausend", "千"):
        return 1000
    if t in ("million", "millionen", "mio", "m", "mill"):
        return 1e6
    return {"万": 1e4, "亿": 1e8}.get(t, 1)


def _word_value(text: str) -> float:
    total, current = 0.0, 0.0
    for tok in _NUMPART.findall(text.lower()):
        if tok in ("and", "und"):
            continue
        if tok in _SCALES:
            current = (current or 1) * _SCALES[tok]
            if _SCALES[tok] >= 1000:
                total, current = total + current, 0.0
        elif tok in _EN_UNITS:
            current += _EN_UNITS[tok]
    return total + current


def zh_value(text: str) -> float | None:
    """Chinese numerals: 五百 → 500, 一千五百 → 1500, 两 → 2, 十 → 10, 半 → 0.5, 三万 → 30000, 三千五 → 3500."""
    if text == "半":
        return 0.5
    total, section, digit, last_unit = 0, 0, None, 0
    for ch in text:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
            last_unit = 0 if ch == "零" else last_unit
        elif ch in "十百千":
            unit = {"十": 10, "百": 100, "千": 1000}[ch]
            section += (digit if digit is not None else 1) * unit
            digit, last_unit = None, unit
        elif ch == "万":
            total += (section + (digit or 0)) * 10000
            section, digit, last_unit = 0, None, 10000
        elif ch == "亿":
            total = (total + section + (digit or 0)) * 100000000
            section, digit, last_unit = 0, None, 100000000
        elif ch == "半":
            return None
    if digit and last_unit >= 100 and text[-2] in "百千万亿":  # 三千五 = 3500, 一万五 = 15000 (spoken short form)
        digit *= last_unit // 10
    value = total + section + (digit or 0)
    return float(value) if text else None


def find_numbers(text: str, lang: str | None = None, words_too: bool = True) -> list[Number]:
    """Every number in the text, left to right: digits with separators and multipliers, number words, 汉字."""
    lang = lang or detect_lang(text)
    found: list[Number] = []
    for m in _ARABIC.finditer(text):
        digits = m.group(1)
        try:
            value, integer = _arabic_value(digits, lang)
        except ValueError:
            continue
        if m.group(2):  # scientific notation: 1e6, 7.5E+5
            value, integer = value * 10 ** int(m.group(2)), False
        mult = _multiplier(text[m.end(2 if m.group(2) else 1) : m.end()])
        value *= mult
        found.append(Number(value, m.start(), m.end(), integer or float(value).is_integer()))
    if words_too and lang != "zh":
        taken = [(n.start, n.end) for n in found]
        for m in _WORDNUM.finditer(text):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            if m.group(1).lower() in ("a", "an", "ein", "eine", "einen", "a dozen"):
                continue
            found.append(Number(_word_value(m.group(1)), m.start(), m.end(), True))
    if lang == "zh":
        for m in _ZH_NUM.finditer(text):
            value = zh_value(m.group())
            glued = m.group() == "千" and any(n.end == m.start() for n in found)
            if value is not None and not glued and not any(n.start <= m.start() < n.end for n in found):
                found.append(Number(value, m.start(), m.end(), float(value).is_integer()))
    found.sort(key=lambda n: n.start)
    return found


def fraction_before(text: str, end: int) -> tuple[float, int] | None:
    """A fraction phrase ending at `end` ('half a', 'a quarter of a', 'einen halben', 'a'): value and start."""
    head = text[:end].rstrip().lower()
    for phrase in sorted(_FRACTIONS, key=len, reverse=True):
        if re.search(r"(?:^|[^a-zäöü])" + re.escape(phrase) + r"$", head):
            return _FRACTIONS[phrase], len(head) - len(phrase)
    return None


def as_number(value: float):
    """An int when the value is integral, else the float (so JSON shows 500, not 500.0)."""
    return int(value) if float(value).is_integer() else round(float(value), 6)
