"""Text helpers for the router: language guess, normalisation, and numbers in English, German and Chinese."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from ..languages import detect_lang, topic


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


_LANGS = topic("numbers")
_EN_UNITS = {word: value for m in _LANGS for word, value in m.NUMBER_WORDS.items()}  # every language's number words
_SCALES = {word: value for m in _LANGS for word, value in m.SCALES.items()}
_FRACTIONS = {phrase: value for m in _LANGS for phrase, value in m.FRACTIONS.items()}
_ARTICLES = {word for m in _LANGS for word in m.ARTICLES}
_JOINERS = [word for m in _LANGS for word in (*m.SPACED_JOINERS, *m.GLUED_JOINERS)]
_LETTER = "[a-z" + "".join(m.WORD_LETTERS for m in _LANGS) + "]"
_MULTIPLIERS = {word: value for m in _LANGS for word, value in m.MULTIPLIERS.items()}

# Longest pattern first, so 'millionen' is not read as 'million' + 'en'.
_SPACED_MULT = sorted((p for m in _LANGS for p in m.MULTIPLIER_PATTERNS), key=len, reverse=True)
_GLUED_MULT = [p for m in _LANGS for p in m.GLUED_MULTIPLIERS]
_MULT = r"(?:" + "|".join([*_GLUED_MULT, r"\s?(?:" + "|".join(_SPACED_MULT) + ")"]) + ")"
_ARABIC = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:[.,]\d+)*)(?:e([+-]?\d{1,3})(?![a-z]))?" + _MULT + "?", re.IGNORECASE)
_NUMWORD = "|".join(sorted(map(re.escape, [*_EN_UNITS, *_SCALES]), key=len, reverse=True))
_GLUED = "(?:(?:" + "|".join(w for m in _LANGS for w in m.GLUED_JOINERS) + ")?(?:" + _NUMWORD + "))*"
_BETWEEN = "|".join([*(r"\s+" + w + r"\s+" for m in _LANGS for w in m.SPACED_JOINERS), r"\s+", "-"])
# A run of number words, spaced ('three hundred and fifty'), hyphenated ('twenty-five') or glued ('fünfhundert').
_WORDNUM = re.compile(
    r"(?<!" + _LETTER + r")((?:" + _NUMWORD + r")" + _GLUED + r"(?:(?:" + _BETWEEN + r")(?:" + _NUMWORD + r")"
    + _GLUED + r")*)(?!" + _LETTER + r")",
    re.IGNORECASE,
)
_NUMPART = re.compile("|".join([_NUMWORD, *_JOINERS]), re.IGNORECASE)
_ZH_DIGITS = {ch: value for m in _LANGS for ch, value in m.DIGITS.items()}
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
    return _MULTIPLIERS.get(t, 1) if t else 1


def _word_value(text: str) -> float:
    total, current = 0.0, 0.0
    for tok in _NUMPART.findall(text.lower()):
        if tok in _JOINERS:
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
            if m.group(1).lower() in _ARTICLES:
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
        if re.search(r"(?:^|[^" + _LETTER[1:-1] + "])" + re.escape(phrase) + r"$", head):
            return _FRACTIONS[phrase], len(head) - len(phrase)
    return None


def as_number(value: float):
    """An int when the value is integral, else the float (so JSON shows 500, not 500.0)."""
    return int(value) if float(value).is_integer() else round(float(value), 6)


def name_tokens(name: str) -> tuple[str, ...]:
    """'POP2020' → ['pop', '2020']; 'NAME_EN' → ['name', 'en']; 'busStops' → ['bus', 'stops']."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Za-z])(\d)", r"\1 \2", spaced)
    spaced = re.sub(r"(\d)([A-Za-z])", r"\1 \2", spaced)
    return tuple(t for t in re.split(r"[\s_\-.]+", fold(spaced)) if t)
