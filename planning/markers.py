"""Readings that take roles and scope from marker words, applied to a filled plan: which CRS is the target
('from A to B'), which layer is the cutter ('use A to …'), what a Chinese selection keeps (the noun after 的),
per-feature wording against merging parameters, and fields that only the layer's own name points to."""

from __future__ import annotations

import re

from ..languages import topic
from ..reading.crs import crs_roles, utm_datum


def crs_for(text: str, layer) -> tuple[str | None, str | None]:
    """The target CRS by its role marker, and a problem when the roles are unclear or the source is wrong."""
    source, target, problem = crs_roles(text)
    if problem:
        return None, problem
    if source and layer is not None and layer.crs and source.upper() != layer.crs.upper():
        return None, f"crs: the request says {layer.name} is in {source}, but it is in {layer.crs}"
    return utm_datum(target, text, layer)


EACH_WORDING = re.compile("|".join(m.EACH_WORDING for m in topic("patterns")))


def zh_head_is_kept(spec, params: dict, folded: str, mentions) -> None:
    """'河流500米范围内的地块': in Chinese the noun after the last 的 is what a selection keeps; the other layer is the
    reference. Only for tools that keep a subset of one layer, where that is the whole meaning of the head noun."""
    layer_params = [p.name for p in spec.params if p.kind == "layer"]
    if "keeps_subset" not in spec.traits or len(layer_params) != 2 or not mentions:
        return
    last = max(mentions, key=lambda m: m.start)
    if not folded[: last.start].rstrip().endswith("的") or folded[last.end :].strip(" 。，,.!?！？"):
        return
    first, second = layer_params
    if params.get(second) == last.name and params.get(first):
        params[first], params[second] = params[second], params[first]


def drop_layer_named_fields(spec, params: dict, folded: str, by_name) -> None:
    """'把所有区融合成一个面': a grouping field read only from the word that names the layer itself (district_id from
    区, 'region') is no grouping the user asked for; an optional one is dropped (so its word stays unexplained
    unless something else claims it), a required one stays for explain.py to report."""
    from .explain import layer_named_fields

    for p in spec.params:
        if p.required or p.kind not in ("field", "fields") or p.name not in params:
            continue
        layer = by_name.get(params.get(p.of_layer or "layer", ""))
        if layer is None:
            continue
        own = layer_named_fields(layer, folded)
        value = params[p.name]
        kept = [f for f in value if f not in own] if isinstance(value, list) else (None if value in own else value)
        if kept:
            params[p.name] = kept
        else:
            del params[p.name]


_SECOND_ROLES = {"overlay", "reference", "lines", "mask", "target", "join", "intersect", "cutter", "clip"}
_PATTERNS = topic("patterns")
_USE = re.compile(
    r"(?:" + "|".join(m.USE_VERBS for m in _PATTERNS if m.USE_VERBS) + r")\s*(?:"
    + "|".join(m.USE_ARTICLES for m in _PATTERNS if m.USE_ARTICLES) + r")?$"
)


def use_marks_the_second_layer(spec, params: dict, folded: str, mentions) -> None:
    """'use the districts to trim the roads', 'nimm die Bezirke, um die Straßen zuzuschneiden', '用区裁剪道路':
    the layer after use/nimm/用 is the tool's second layer (the cutter, overlay or reference), never its input."""
    layer_params = [p.name for p in spec.params if p.kind == "layer"]
    if "two_layers" not in spec.traits or len(layer_params) != 2 or not mentions:
        return
    first, second = layer_params
    if second not in _SECOND_ROLES:  # 'use the districts to count the cafes': districts are the polygons, not a cutter
        return
    for m in mentions:
        if _USE.search(folded[max(0, m.start - 14) : m.start]) and params.get(first) == m.name and params.get(second):
            params[first], params[second] = params[second], params[first]
            return


def per_feature_wording(spec, params: dict, folded: str) -> None:
    """'one centroid per house', 'buffer every school separately': per-feature wording never leaves a parameter
    that merges the layer into one ('one centroid' read as whole_layer, 'zusammenfassen' as dissolve)."""
    from ..function_lib.traits import AGGREGATING_PARAMS

    agg = AGGREGATING_PARAMS.get(spec.name)
    if agg and params.get(agg[0]) == agg[1] and EACH_WORDING.search(folded):
        del params[agg[0]]
