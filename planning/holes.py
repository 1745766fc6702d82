"""Typed holes: what a tier-0 plan lacks, as a question with a closed list of candidates (issue 25).

A hole comes from one of the plan's gaps (router/result.py): a layer parameter no word placed, a field parameter the
text did not fill, a word said as a field that the layer does not have, two layers named alike for two roles, two
CRSs with no word saying which is the target. Each hole keeps the words it came from and its candidates, ranked:
loaded layers of a fitting geometry, fields of a fitting type of the right layer, both readings spelled out. Gaps
whose answer is no closed, small list (a distance, a filter expression, a next step) make no hole: they stay
declines. Whether a candidate really completes the plan is not judged here: agent/holes.py re-reads the request
with each candidate and keeps only those that pass every reading and check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..function_lib.traits import KEY_PAIRS
from ..reading.crs import TARGET, crs_mentions
from ..reading.quantities import find_paths
from ..reading.schema_match import GEOMETRY_WORDS, geometry_class
from ..reading.text import fold
from .roles import fits_param

HOLE_KINDS = ("layer", "field", "value", "number", "crs", "step", "reading")
MAX_CHOICES = 6  # a question shows at most this many buttons; a longer list is no closed question
NUMERIC = ("integer", "real")
_STATISTICS = ("sum", "mean", "median", "min", "max", "std", "average", "total")

_NO_SUCH_FIELD = re.compile(r"^field: (?P<word>.+?) \((?:no such field(?:; did you mean (?P<guess>[^?]+)\?)?|"
                            r"not a field of (?P<layer>[^;]+); (?P<guess2>[^?]+)\?)\)$")  # fmt: skip
_ALIKE = re.compile(r"^(?P<param>\w+): '(?P<a>[^']+)' or '(?P<b>[^']+)'\? the request names them alike$")
_TWO_CRS = re.compile(r"^crs: several CRSs \((?P<codes>[^)]+)\) and no from/to says which is the target$")


@dataclass
class Hole:
    """One thing the plan lacks, answerable by one choice.

    `id` is the answer's key (`--answer ID=CHOICE`): the parameter it fills, or `word:<words>` for words to be read
    as the chosen name. `fills` is that parameter (None for words); `words` the request's words it came from ('' when
    the request names nothing for it); `candidates` ranked best first."""

    id: str
    kind: str
    words: str
    candidates: list[str] = field(default_factory=list)
    fills: str | None = None
    layer: str | None = None  # for a field: the layer whose field it is; for a CRS: the layer reprojected
    source: str | None = None  # for a CRS: the layer's own CRS

    def given(self, choice: str) -> dict:
        """The parameters an answer sets (nothing for words: they are replaced in the request's text)."""
        return {self.fills: choice} if self.fills else {}

    def rewrite(self, request: str, choice: str) -> str:
        """The request with the hole's words read as the chosen name ('Einwohner je Tarifzone' → '… je fare_zone')."""
        if self.fills or not self.words:
            return request
        span = word_span(request, self.words)
        return request if span is None else request[: span[0]] + choice + request[span[1] :]


def word_span(request: str, words: str) -> tuple[int, int] | None:
    """Where `words` (as the gap wrote them, folded) stand in the request, as offsets of the original text."""
    folded = fold(request)
    if len(folded) != len(request):  # folding changed the length ('ß' → 'ss'): find it in the original, unfolded
        m = re.search(re.escape(words), request, re.IGNORECASE)
        return (m.start(), m.end()) if m else None
    m = re.search(r"(?<!\w)" + re.escape(fold(words)) + r"(?!\w)", folded)
    return (m.start(), m.end()) if m else None


def said_geometry(folded: str, layers) -> list[str]:
    """The layers whose geometry the request names ('buffer the points': the point layers); [] when it names none."""
    said = {cls for cls, words in GEOMETRY_WORDS.items() if re.search(r"(?<![a-z])(?:" + words + r")(?![a-z])", folded)}
    return [la.name for la in layers if geometry_class(la) in said]


def holes_of(plan, spec, layers, request: str = "") -> list[Hole]:
    """The plan's answerable holes, in the order of its gaps (no plan or a complete one: none)."""
    if plan is None or plan.complete or spec is None:
        return []
    by_name = {la.name: la for la in layers}
    out: list[Hole] = []
    for gap in plan.missing:
        hole = _hole(gap, plan, spec, layers, by_name, request)
        if hole is not None and hole.candidates and all(h.id != hole.id for h in out):
            hole.candidates = hole.candidates[:MAX_CHOICES]
            out.append(hole)
    return sorted(out, key=lambda h: not h.words)  # the user's own words first: 'zone' is clearer than 'by'


def as_written(request: str, folded_words: str) -> str:
    """Folded words ('flusse') as the request writes them ('Flüsse'), when folding kept the text's length."""
    folded = fold(request)
    i = folded.find(folded_words)
    return request[i : i + len(folded_words)] if i >= 0 and len(folded) == len(request) else folded_words


def _hole(gap, plan, spec, layers, by_name, request: str) -> Hole | None:
    kind, text, folded = getattr(gap, "kind", None), str(gap), fold(request)
    names = {p.name for p in spec.params}
    if kind == "param" and (m := _ALIKE.match(text)) and m["param"] in names:
        return Hole(m["param"], "reading", f"{m['a']}, {m['b']}", [m["a"], m["b"]], fills=m["param"])
    if kind == "param" and text in names:
        param = spec.param(text)
        if param.kind == "layer":
            used = {v for k, v in plan.params.items() if k != text and isinstance(v, str)}
            fits = [la.name for la in layers if fits_param(param, la) and la.name not in used]
            fits = said_geometry(folded, [la for la in layers if la.name in fits]) or fits
            return Hole(text, "layer", "", fits, fills=text) if len(fits) <= MAX_CHOICES else None
        if param.kind in ("field", "fields"):
            owner = by_name.get(plan.params.get(param.of_layer or "layer", ""))
            pair = KEY_PAIRS.get(spec.name, ())
            if owner is None or (text in pair and any(k in plan.params for k in pair)):
                return None  # one key of a join said ('by 预算'): the other side is no choice among any fields
            fields = _fitting_fields(owner, text, plan.params)
            return Hole(text, "field", "", fields, fills=text, layer=owner.name) if len(fields) <= MAX_CHOICES else None
        return None
    if kind == "field" and (m := _NO_SUCH_FIELD.match(text)):
        if any(fold(m["word"]) in fold(path) for path in find_paths(request)):
            return None  # a word of a file name ('to big_festivals.gpkg' read as a field): no field to choose
        owner = by_name.get(m["layer"] or "") or by_name.get(_main_layer(plan) or "")
        guess = (m["guess"] or m["guess2"] or "").strip()
        if owner is None:
            return None
        fields = [f.name for f in owner.fields]
        ranked = [guess] if guess in fields else []
        same = [f.name for f in owner.fields if ranked and f.type == _type_of(owner, guess) and f.name not in ranked]
        ranked += same
        return Hole("word:" + m["word"], "field", m["word"], ranked, layer=owner.name)
    if kind == "crs" and (m := _TWO_CRS.match(text)):
        crs_param = next((p.name for p in spec.params if p.kind == "crs"), None)
        main = by_name.get(_main_layer(plan) or "")
        target = _stated_then_target(folded, (main.crs or "").upper() if main else "")
        if crs_param is None or target is None:
            return None
        return Hole(crs_param, "crs", m["codes"], [target], fills=crs_param, layer=main.name, source=main.crs.upper())
    return None


# A target marker that is no statement of where the data is ('to', 'nach', '转成'; not 'in', '是'): see crs.TARGET.
_STRONG_TARGET = re.compile(
    r"(?:\bto|\binto|\bnach|\bzu|\bauf|\bins|\bas|到|转换成|转换为|转成|转为|至)\s*"
    r"(?:the\s+|a\s+|an\s+|die\s+|das\s+|den\s+)?(?:swiss\s+)?(?:crs\s+|projection\s+|koordinatensystem\s+)?$"
)


def _stated_then_target(folded: str, layer_crs: str) -> str | None:
    """The target of 'the stops are in WGS 84 - convert them to Lambert-93' when the data agree: two CRSs, the first
    stated as where the data are (not after 'to') and equal to the layer's own CRS, the second after a target word.
    Any other order or a statement the file contradicts ('the wells are really in EPSG:25832' of a WGS 84 file) is
    no question: reading it either way may be wrong (blind7 en088, blind9 de027, blind10 en036)."""
    found = crs_mentions(folded)
    codes = list(dict.fromkeys(c for _, _, c in found))
    if len(codes) != 2 or codes[0] != layer_crs:
        return None
    first = [s for s, _, c in found if c == codes[0]]
    second = [s for s, _, c in found if c == codes[1]]
    if max(first) > min(second):
        return None  # the layer's CRS named again after the target ('… to Lambert-93, not WGS 84'): no order to read
    if any(_STRONG_TARGET.search(folded[max(0, s - 40) : s]) for s in first):
        return None
    if not TARGET.search(folded[max(0, second[0] - 40) : second[0]]):
        return None
    return codes[1]


def _main_layer(plan) -> str | None:
    for key in ("layer", "polygons", "points", "raster", "table"):
        if isinstance(plan.params.get(key), str):
            return plan.params[key]
    return None


def _type_of(layer, name: str) -> str | None:
    return next((f.type for f in layer.fields if f.name == name), None)


def _fitting_fields(layer, param: str, params: dict) -> list[str]:
    """The layer's fields that can fill `param`: numbers for a statistic's field, anything but a number for a group
    ('by') or key, any for the rest; fields the plan already uses are left out."""
    used = {v for v in params.values() if isinstance(v, str)}
    numeric = param == "field" and str(params.get("agg", "")).lower() in _STATISTICS
    out = []
    for f in layer.fields:
        if f.name in used or f.name.lower() in ("fid", "ogc_fid", "geometry"):
            continue
        if numeric and f.type not in NUMERIC:
            continue
        if param == "by" and f.type == "real":
            continue
        out.append(f.name)
    return out
